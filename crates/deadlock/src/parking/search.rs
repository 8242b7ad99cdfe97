//! The plan's searches (see the parent module's docs): the greedy one and the one in feature
//! cells, over positions of the easier problem, one box move at a time.

use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap, HashSet, VecDeque};
use std::ops::Bound;
use std::sync::OnceLock;

use bisolve_board::search::Side;
use bisolve_board::{Board, BoxMap, Cell, Dir, Reach, NO_CELL, UNREACHABLE};

use super::{set_until, From, ParkingPlan, PlanOrder, Step, MAX_BASES, MAX_FILLS, NEVER};

/// The order of the plan's search, smallest first: boxes left, the sum of their pulls to the
/// nearest unused bases, and not the preferred move (see [`ParkingPlan::with_budget`]); the
/// newest position first on ties.
type Order = Reverse<(usize, u32, bool)>;

/// A position of the plan's search: its boxes (ascending), its unused bases, where the player
/// stands, the position it came from, and the box move that made it (the box's square before
/// and after; after is a base that took the box when `home`).
struct Node {
    boxes: Vec<Cell>,
    bases: u128,
    player: Cell,
    parent: u32,
    moved: (Cell, Cell),
    home: bool,
    /// The sum over the boxes of their moves (pulls, or pushes for a backward plan) to the
    /// nearest unused base.
    h: u32,
    /// The moves on its path no advisor recommended (the feature-cell order only).
    weight: u32,
    /// The player's separate regions.
    regions: u32,
}

impl ParkingPlan {
    /// The plan's search in the direction of `side`'s plan: for the forward search's, from
    /// the solved position by pulls, a root per area of its free squares; for the backward
    /// search's, from the start position by pushes, the player on `player`.
    pub(super) fn search(
        board: &Board,
        side: Side,
        player: Option<Cell>,
        budget: usize,
        order: PlanOrder,
    ) -> Option<ParkingPlan> {
        let in_cells = order == PlanOrder::Cells;
        // Where the boxes stand first, where they go home, and the distances there.
        let (first, homes, dist) = match side {
            Side::Forward => (board.goals(), board.start_squares(), board.start_distances()),
            Side::Backward => (board.start_squares(), board.goals(), board.goal_distances()),
        };
        if homes.len() > MAX_BASES || first.is_empty() {
            return None;
        }
        let n = board.n_cells();
        // The unused base on `c`, if any.
        let home_index = |c: Cell| match side {
            Side::Forward => board.start_index(c),
            Side::Backward => board.goal_index(c),
        };
        let home_on = |c: Cell, bases: u128| home_index(c).filter(|&j| bases >> j & 1 == 1);
        let all_bases: u128 = if homes.len() == 128 { !0 } else { (1u128 << homes.len()) - 1 };
        // Moves from `c` to the nearest unused base.
        let near = |c: Cell, bases: u128| -> u32 {
            let mut best = u32::from(UNREACHABLE);
            let mut bits = bases;
            while bits != 0 {
                let j = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                best = best.min(u32::from(dist.get(c, j)));
            }
            best
        };
        let unreachable = u32::from(UNREACHABLE);
        // A square the boxes stand on first.
        let is_first = |c: Cell| match side {
            Side::Forward => board.is_goal(c),
            Side::Backward => board.is_start_square(c),
        };
        let mut map = BoxMap::new(n);
        let mut reach = Reach::new(n);
        let mut seen: HashSet<(Vec<Cell>, u128, Cell)> = HashSet::new();
        let mut nodes: Vec<Node> = Vec::new();
        let mut open: BinaryHeap<(Order, usize)> = BinaryHeap::new();
        let mut best: Option<((usize, u32), usize)> = None;

        let first = first.to_vec();
        let h0: u32 = first.iter().map(|&g| near(g, all_bases)).sum();
        if first.iter().any(|&g| near(g, all_bases) == unreachable) {
            return None;
        }
        // One root per area of the free squares of the first position, or the one the player
        // stands in.
        map.set_all(&first);
        let mut zoned = vec![false; n];
        for c in player.map_or(0..n as Cell, |p| p..p + 1) {
            if zoned[c as usize] || map.is_box(c) {
                continue;
            }
            let min = reach.fill(board, &map, c);
            for z in reach.cells() {
                zoned[z as usize] = true;
            }
            if seen.insert((first.clone(), all_bases, min)) {
                open.push((Reverse((first.len(), h0, false)), nodes.len()));
                nodes.push(Node {
                    boxes: first.clone(),
                    bases: all_bases,
                    player: c,
                    parent: u32::MAX,
                    moved: (NO_CELL, NO_CELL),
                    home: false,
                    h: h0,
                    weight: 0,
                    regions: 0,
                });
            }
        }
        map.clear_all(&first);

        let on_first = |boxes: &[Cell]| boxes.iter().filter(|&&c| is_first(c)).count();
        let mut cells = Cells::default();
        if in_cells {
            open.clear();
            for (i, node) in nodes.iter_mut().enumerate() {
                map.set_all(&node.boxes);
                node.regions = regions(board, &map, &mut reach, &mut zoned);
                map.clear_all(&node.boxes);
                cells.push((node.boxes.len(), on_first(&node.boxes), node.regions), (0, node.h), i);
            }
        }
        let mut runs = BoxWalk::new(n, side);
        let mut children: Vec<Node> = Vec::new();
        let mut pulls: Vec<u32> = Vec::new();
        let mut kept: Vec<(Node, u32)> = Vec::new();
        // One box's moves from a position: where it goes, where the player then stands, how
        // many box moves that takes, and the base it takes there, if any.
        let mut moves: Vec<(Cell, Cell, u32, Option<usize>)> = Vec::new();
        let mut pops = 0usize;
        loop {
            let at = if in_cells {
                match cells.pop(pops) {
                    Some(at) => at,
                    None => break,
                }
            } else {
                match open.pop() {
                    Some((_, at)) => at,
                    None => break,
                }
            };
            pops += 1;
            let left = nodes[at].boxes.len();
            if best.is_none_or(|(b, _)| (left, nodes[at].h) < b) {
                best = Some(((left, nodes[at].h), at));
            }
            if left == 0 || nodes.len() >= budget || runs.fills >= MAX_FILLS {
                break;
            }
            let (boxes, bases, player, h) =
                (nodes[at].boxes.clone(), nodes[at].bases, nodes[at].player, nodes[at].h);
            let (weight, parent_regions) = (nodes[at].weight, nodes[at].regions);
            let last = nodes[at].moved.1;
            map.set_all(&boxes);
            children.clear();
            pulls.clear();
            let mut homes = false;
            // A base box `i` may take: unused, and leaving the other boxes a base each among
            // those left, one each reaches alone, all different (taking it otherwise strands
            // a box, and only moves home are kept once one box can go).
            let home_for = |p: Cell, i: usize| {
                home_on(p, bases).filter(|&j| {
                    let left = bases & !(1u128 << j);
                    let reach: Vec<u128> = boxes
                        .iter()
                        .enumerate()
                        .filter(|&(k, _)| k != i)
                        .map(|(_, &c)| {
                            let mut bits = left;
                            let mut out = 0u128;
                            while bits != 0 {
                                let b = bits.trailing_zeros() as usize;
                                bits &= bits - 1;
                                if dist.get(c, b) != UNREACHABLE {
                                    out |= 1u128 << b;
                                }
                            }
                            out
                        })
                        .collect();
                    matches_all(&reach)
                })
            };
            for (i, &b) in boxes.iter().enumerate() {
                moves.clear();
                if let Some(j) = home_for(b, i) {
                    // A box standing on a base (a goal that is also a start square) goes home
                    // where it stands.
                    moves.push((b, player, 0, Some(j)));
                } else {
                    map.clear(b);
                    // The walk ends at the first base the box may take: the last square it
                    // reached, when there is one.
                    let mut found = None;
                    runs.walk(board, &mut map, &mut reach, b, player, |p| {
                        found = home_for(p, i);
                        found.is_some()
                    });
                    map.set(b, 0);
                    let reached = runs.reached.iter().zip(&runs.depths);
                    moves.extend(reached.map(|(&(p, p2), &d)| (p, p2, d, None)));
                    if let Some(last) = moves.last_mut().filter(|_| found.is_some()) {
                        last.3 = found;
                    }
                }
                for &(p, p2, depth, home) in &moves {
                    if homes && home.is_none() {
                        continue;
                    }
                    let mut child = boxes.clone();
                    let (child_bases, child_h) = match home {
                        Some(j) => {
                            if !homes {
                                // A box that can go home goes: only such moves are kept.
                                homes = true;
                                children.clear();
                                pulls.clear();
                            }
                            child.remove(i);
                            let left = bases & !(1u128 << j);
                            (left, child.iter().map(|&c| near(c, left)).sum::<u32>())
                        }
                        None => {
                            child[i] = p;
                            child.sort_unstable();
                            (bases, h - near(b, bases) + near(p, bases))
                        }
                    };
                    if child_h >= unreachable {
                        continue;
                    }
                    children.push(Node {
                        boxes: child,
                        bases: child_bases,
                        player: p2,
                        parent: at as u32,
                        moved: (b, p),
                        home: home.is_some(),
                        h: child_h,
                        weight: 0,
                        regions: 0,
                    });
                    pulls.push(depth);
                    if home.is_some() {
                        // One way home per box.
                        break;
                    }
                }
            }
            map.clear_all(&boxes);
            kept.clear();
            for (child, &pull) in children.drain(..).zip(&pulls) {
                map.set_all(&child.boxes);
                let min = reach.fill(board, &map, child.player);
                let mut child = child;
                if in_cells {
                    child.regions = regions(board, &map, &mut reach, &mut zoned);
                    runs.fills += child.regions as usize;
                }
                map.clear_all(&child.boxes);
                if !seen.insert((child.boxes.clone(), child.bases, min)) {
                    continue;
                }
                kept.push((child, pull));
            }
            if in_cells {
                // FESS's advisors (after Festival's packing search): a move one recommends
                // costs nothing, any other one. With boxes going home, the box parked off
                // the goals goes first, else the one leaving the fewest regions, then the
                // longest way; else the box pulled off a goal the furthest without adding
                // regions, and the move leaving the fewest regions.
                let is_goal_move = |c: &Node| is_first(c.moved.0);
                let mut advised: Vec<usize> = Vec::new();
                if homes {
                    let pick = kept
                        .iter()
                        .enumerate()
                        .min_by_key(|(_, (c, pull))| (is_goal_move(c), c.regions, Reverse(*pull)))
                        .map(|(i, _)| i);
                    advised.extend(pick);
                } else {
                    let pick = kept
                        .iter()
                        .enumerate()
                        .filter(|(_, (c, _))| is_goal_move(c) && c.regions <= parent_regions)
                        .min_by_key(|(_, (c, pull))| (c.regions, Reverse(*pull)))
                        .map(|(i, _)| i);
                    advised.extend(pick);
                    let pick = kept
                        .iter()
                        .enumerate()
                        .filter(|(_, (c, _))| c.regions < parent_regions)
                        .min_by_key(|(_, (c, _))| (c.regions, c.h))
                        .map(|(i, _)| i);
                    advised.extend(pick);
                }
                for (i, (mut child, _)) in kept.drain(..).enumerate() {
                    child.weight = weight + u32::from(!advised.contains(&i));
                    let key = (child.boxes.len(), on_first(&child.boxes), child.regions);
                    cells.push(key, (child.weight, child.h), nodes.len());
                    nodes.push(child);
                }
            } else {
                for (child, _) in kept.drain(..) {
                    // A box parked off the goals goes home first.
                    let preferred = if child.home { !is_first(child.moved.0) } else { child.moved.0 == last };
                    open.push((Reverse((child.boxes.len(), child.h, !preferred)), nodes.len()));
                    nodes.push(child);
                }
            }
        }
        let (_, at) = best?;
        Some(ParkingPlan::from_path(&nodes, at))
    }

    /// The plan read from the search's path to node `at`.
    fn from_path(nodes: &[Node], at: usize) -> ParkingPlan {
        let mut steps: Vec<Step> =
            nodes[at].boxes.iter().map(|&c| Step { from: From::Initial, to: c, until: NEVER }).collect();
        let initial = steps.len();
        let complete = initial == 0;
        // From the last move back to the first: read forwards, the first step first.
        let mut k = at;
        while nodes[k].parent != u32::MAX {
            let (before, after) = nodes[k].moved;
            let from = if nodes[k].home { From::Home } else { From::Parked(after) };
            steps.push(Step { from, to: before, until: NEVER });
            k = nodes[k].parent as usize;
        }
        // One box's consecutive steps are one, and a step back to where it came from is none.
        let mut i = initial;
        while i < steps.len() {
            if i + 1 < steps.len() && steps[i + 1].from == From::Parked(steps[i].to) {
                steps[i].to = steps[i + 1].to;
                steps.remove(i + 1);
            } else if steps[i].from == From::Parked(steps[i].to) {
                steps.remove(i);
            } else {
                i += 1;
            }
        }
        set_until(&mut steps);
        let mut initial = initial;
        if !complete {
            // An unfinished plan keeps only the steps that place a box for good, in their
            // order, the initial boxes that never move among them: its parking is less to be
            // trusted (Festival does this when no box went home at all).
            steps.retain(|s| s.until == NEVER);
            initial = steps.iter().filter(|s| s.from == From::Initial).count();
            for s in &mut steps[initial..] {
                s.from = From::Home;
            }
            steps[..initial].sort_by_key(|s| s.to);
        }
        ParkingPlan { steps, initial, complete, zones: OnceLock::new() }
    }
}

/// The squares one box reaches by its own moves alone (pulls for the forward search's plan,
/// pushes for the backward search's), the other boxes standing still: a breadth-first walk
/// over the box's square and the player's region.
struct BoxWalk {
    /// Whose plan: the forward search's pulls, the backward search's pushes.
    side: Side,
    seen: HashSet<(Cell, Cell)>,
    queue: VecDeque<(Cell, Cell, u32)>,
    /// Each position reached (not the box's own): the box's square and where the player
    /// stands, in the order found (fewest pulls first).
    reached: Vec<(Cell, Cell)>,
    /// The box moves to each position reached.
    depths: Vec<u32>,
    /// Flood fills made so far.
    fills: usize,
}

impl BoxWalk {
    fn new(n: usize, side: Side) -> BoxWalk {
        BoxWalk {
            side,
            seen: HashSet::new(),
            queue: VecDeque::new(),
            reached: Vec::with_capacity(n),
            depths: Vec::with_capacity(n),
            fills: 0,
        }
    }

    /// Walks the box on `b` (not in `map`, which holds the other boxes) with the player on
    /// `player`, up to the first square where `home` holds (the last one reached, if any).
    fn walk(
        &mut self,
        board: &Board,
        map: &mut BoxMap,
        reach: &mut Reach,
        b: Cell,
        player: Cell,
        mut home: impl FnMut(Cell) -> bool,
    ) {
        self.seen.clear();
        self.queue.clear();
        self.reached.clear();
        self.depths.clear();
        map.set(b, 0);
        let min = reach.fill(board, map, player);
        map.clear(b);
        self.fills += 1;
        self.seen.insert((b, min));
        self.queue.push_back((b, player, 0));
        let mut next: Vec<(Cell, Cell)> = Vec::new();
        while let Some((c, pl, depth)) = self.queue.pop_front() {
            map.set(c, 0);
            reach.fill(board, map, pl);
            self.fills += 1;
            next.clear();
            for d in Dir::ALL {
                match self.side {
                    Side::Forward => {
                        // A pull: the player on `p` beside the box steps on to `p2`; the box
                        // follows to `p`.
                        let p = board.neighbour(c, d);
                        if p == NO_CELL || !reach.contains(p) || board.is_pull_dead(p) {
                            continue;
                        }
                        let p2 = board.neighbour(p, d);
                        if p2 != NO_CELL && !map.is_box(p2) {
                            next.push((p, p2));
                        }
                    }
                    Side::Backward => {
                        // A push: the player behind the box pushes it on to `p` and takes
                        // its square.
                        let (behind, p) = (board.neighbour(c, d.opposite()), board.neighbour(c, d));
                        if behind == NO_CELL || p == NO_CELL || !reach.contains(behind) {
                            continue;
                        }
                        if !map.is_box(p) && !board.is_push_dead(p) {
                            next.push((p, c));
                        }
                    }
                }
            }
            map.clear(c);
            for &(p, p2) in &next {
                map.set(p, 0);
                let min = reach.fill(board, map, p2);
                map.clear(p);
                self.fills += 1;
                if !self.seen.insert((p, min)) {
                    continue;
                }
                self.reached.push((p, p2));
                self.depths.push(depth + 1);
                if home(p) {
                    return;
                }
                self.queue.push_back((p, p2, depth + 1));
            }
        }
    }
}

/// The number of separate regions of free squares with the boxes in `map`.
fn regions(board: &Board, map: &BoxMap, reach: &mut Reach, zoned: &mut [bool]) -> u32 {
    zoned.fill(false);
    let mut count = 0;
    for c in 0..board.n_cells() as Cell {
        if zoned[c as usize] || map.is_box(c) {
            continue;
        }
        count += 1;
        reach.fill(board, map, c);
        for z in reach.cells() {
            zoned[z as usize] = true;
        }
    }
    count
}

/// The open positions of the plan's search in feature cells (boxes left, boxes on the
/// squares they start on, regions), after FESS: every second pop takes the next non-empty
/// cell in turn, the others the best cell; within a cell, the least weight first.
#[derive(Default)]
struct Cells {
    open: BTreeMap<CellKey, BinaryHeap<CellEntry>>,
    turn: Option<CellKey>,
}

/// A feature cell of the plan's search: boxes left, boxes on the squares they started on,
/// the player's regions.
type CellKey = (usize, usize, u32);

/// A node in its cell's heap: its weight and sum of moves home, least first, then the newest.
type CellEntry = Reverse<((u32, u32), Reverse<usize>)>;

impl Cells {
    /// Adds node `at` to its cell, `order` its weight and its sum of moves home.
    fn push(&mut self, key: CellKey, order: (u32, u32), at: usize) {
        self.open.entry(key).or_default().push(Reverse((order, Reverse(at))));
    }

    /// The next node to expand: from the next cell in turn when `pops` is odd, else from the
    /// best cell (fewest boxes left, then fewest on their first squares, then regions); the
    /// least weight in the cell, then the least sum of moves home, the newest on ties.
    fn pop(&mut self, pops: usize) -> Option<usize> {
        let key = if pops % 2 == 1 {
            let next = self.turn.and_then(|t| {
                self.open.range((Bound::Excluded(t), Bound::Unbounded)).next().map(|(k, _)| *k)
            });
            let key = next.or_else(|| self.open.keys().next().copied())?;
            self.turn = Some(key);
            key
        } else {
            *self.open.keys().next()?
        };
        let heap = self.open.get_mut(&key)?;
        let Reverse((_, Reverse(at))) = heap.pop()?;
        if heap.is_empty() {
            self.open.remove(&key);
        }
        Some(at)
    }
}

/// Whether every box can have a base of its own, `reach[k]` the bases box `k` can reach
/// (Kuhn's augmenting paths).
fn matches_all(reach: &[u128]) -> bool {
    fn augment(k: usize, reach: &[u128], owner: &mut [usize; 128], seen: &mut u128) -> bool {
        let mut bits = reach[k] & !*seen;
        while bits != 0 {
            let b = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            *seen |= 1u128 << b;
            if owner[b] == usize::MAX || augment(owner[b], reach, owner, seen) {
                owner[b] = k;
                return true;
            }
        }
        false
    }
    let mut owner = [usize::MAX; 128];
    (0..reach.len()).all(|k| {
        let mut seen = 0u128;
        augment(k, reach, &mut owner, &mut seen)
    })
}

#[cfg(test)]
mod tests {
    use super::matches_all;

    /// Whether some order of distinct bases serves every box, by trying them all.
    fn brute(reach: &[u128], used: u128) -> bool {
        let Some((first, rest)) = reach.split_first() else { return true };
        (0..128).any(|b| first >> b & 1 == 1 && used >> b & 1 == 0 && brute(rest, used | 1 << b))
    }

    #[test]
    fn two_boxes_that_reach_one_base_alone_cannot_both_go_home() {
        assert!(!matches_all(&[0b01, 0b01]));
        assert!(matches_all(&[0b01, 0b11]));
        // The first box must leave base 0 to the third, which reaches nothing else.
        assert!(matches_all(&[0b011, 0b110, 0b001]));
        assert!(!matches_all(&[0b011, 0b011, 0b011]));
        assert!(matches_all(&[]));
        assert!(!matches_all(&[0]));
    }

    proptest::proptest! {
        #[test]
        fn the_matching_agrees_with_trying_every_order(
            reach in proptest::collection::vec(0u128..64, 0..6),
        ) {
            proptest::prop_assert_eq!(matches_all(&reach), brute(&reach, 0));
        }
    }
}
