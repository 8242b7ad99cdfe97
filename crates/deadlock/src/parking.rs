//! The level's parking plan (after FESS's packing plan, as Festival builds it): an order in
//! which boxes come in and fill the goals, boxes waiting on other squares (parked) where the
//! order needs that, found before the search by a backward search on an easier problem.
//!
//! The easier problem starts from the solved position and moves one box at a time, by pulls,
//! to any square it can reach with the other boxes standing still (a box move, as in
//! Festival); a box that reaches a start square (a *base*) not used yet leaves the board and
//! uses it up. Boxes are told apart only by where they stand, so every box may go home to any
//! base, and a box gone home is out of the way of the others. When some box can go home,
//! only such moves are made (for each box, to the first base its walk reaches). A greedy
//! best-first search (fewest boxes left, then the smallest sum of each box's pulls to its
//! nearest unused base, then a box parked off the goals going home, or the box the last move
//! moved) looks for a position with no box left, and takes the position nearest that when
//! its budget runs out ([`PLAN_POSITIONS`], [`MAX_FILLS`]).
//!
//! Read forwards, the moves on the way there are the plan: each *step* brings a box to a
//! square, from its start square, from where an earlier step parked it, or (for the boxes
//! the search left on the board, the *initial* steps) from nowhere: the box stands there
//! from the start. A step's box may move on at a later step (it was parked). Consecutive
//! moves of one box are one step. An unfinished plan keeps only the steps that place a box
//! for good.
//!
//! A position has *packed* the plan's first `k` steps when each of them has a box on its
//! square, or a later step within the first `k` has moved it on; its packed count is the
//! largest such `k`, less the initial steps without their box (and, while an initial box
//! that never moves is missing, only the count of such boxes in place). The forward search
//! counts `steps - packed` as its unplaced boxes in the feature cells
//! (`push.parking_plan`). The count guides the search only: it prunes nothing.
//!
//! The backward search has a plan of its own ([`ParkingPlan::backward`], `pull.parking_plan`):
//! the same search run the other way, from the start position (the player where it stands)
//! by pushes, a box leaving the board at the first unused goal it reaches. Read backwards,
//! its moves are the order in which the backward search fills the start squares, and where
//! boxes wait on the way.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashSet, VecDeque};
use std::sync::OnceLock;

use bisolve_board::search::Side;
use bisolve_board::{Board, BoxMap, Cell, Dir, Reach, NO_CELL, UNREACHABLE};

/// The most positions the plan's search makes.
pub const PLAN_POSITIONS: usize = 100_000;

/// The most flood fills the plan's search makes (its walks of single boxes make most of
/// them).
pub const MAX_FILLS: usize = 100_000;

/// Levels with more start squares (goals, for the backward search's plan) than this get no
/// plan (a position's unused bases are one 128-bit set).
pub const MAX_BASES: usize = 128;

/// No later step moves the box on.
const NEVER: u32 = u32::MAX;

/// Where a step's box comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum From {
    /// It stands on the step's square from the start: the search left it on the board.
    Initial,
    /// Its home square: its start square in the forward search's plan, a goal in the
    /// backward search's.
    Home,
    /// The square an earlier step parked it on.
    Parked(Cell),
}

/// One step of the plan.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    /// Where the box comes from.
    pub from: From,
    /// The square it is brought to.
    pub to: Cell,
    /// The later step that moves it on ([`NEVER`] when none does).
    until: u32,
}

impl Step {
    /// The index of the later step that moves this step's box on, if one does.
    pub fn until(&self) -> Option<usize> {
        (self.until != NEVER).then_some(self.until as usize)
    }
}

/// The parking plan of one level.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParkingPlan {
    /// The initial steps first (those that never move on before the others), then the rest
    /// in order.
    steps: Vec<Step>,
    /// How many steps are initial.
    initial: usize,
    /// True if the search took every box home.
    complete: bool,
    /// The out-of-plan zones, worked out when first asked for
    /// ([`ParkingPlan::prepare_out_of_plan`]).
    zones: OnceLock<Zones>,
}

/// Where boxes are out of plan.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Zones {
    /// Per packed count, an index into `sets`.
    read: Vec<u32>,
    /// The distinct zones, a bit per square.
    sets: Vec<Vec<u64>>,
}

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
}

impl ParkingPlan {
    /// The plan of `board`'s level, or `None` when the level has more than [`MAX_BASES`]
    /// start squares, no box to place, or a goal from which no box can be pulled to a start
    /// square.
    pub fn new(board: &Board) -> Option<ParkingPlan> {
        ParkingPlan::with_budget(board, PLAN_POSITIONS)
    }

    /// [`ParkingPlan::new`] with a search of at most `budget` positions (see the module docs
    /// for the search).
    pub fn with_budget(board: &Board, budget: usize) -> Option<ParkingPlan> {
        ParkingPlan::search(board, Side::Forward, None, budget)
    }

    /// The plan of the backward search, which pulls boxes from the solved position onto the
    /// start squares (the player starting on `player`): the same search run the other way,
    /// from the start position, pushing boxes one box move at a time and taking a box off
    /// the board when it reaches a goal not used yet. Read backwards, its moves say in which
    /// order the start squares fill and where boxes wait on the way. `None` as for
    /// [`ParkingPlan::new`], with goals and start squares swapped.
    pub fn backward(board: &Board, player: Cell) -> Option<ParkingPlan> {
        ParkingPlan::search(board, Side::Backward, Some(player), PLAN_POSITIONS)
    }

    /// The plan's search in the direction of `side`'s plan: for the forward search's, from
    /// the solved position by pulls, a root per area of its free squares; for the backward
    /// search's, from the start position by pushes, the player on `player`.
    fn search(board: &Board, side: Side, player: Option<Cell>, budget: usize) -> Option<ParkingPlan> {
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
                });
            }
        }
        map.clear_all(&first);

        let mut runs = BoxWalk::new(n, side);
        let mut children: Vec<Node> = Vec::new();
        while let Some((Reverse((left, _, _)), at)) = open.pop() {
            if best.is_none_or(|(b, _)| (left, nodes[at].h) < b) {
                best = Some(((left, nodes[at].h), at));
            }
            if left == 0 || nodes.len() >= budget || runs.fills >= MAX_FILLS {
                break;
            }
            let (boxes, bases, player, h) =
                (nodes[at].boxes.clone(), nodes[at].bases, nodes[at].player, nodes[at].h);
            let last = nodes[at].moved.1;
            map.set_all(&boxes);
            children.clear();
            let mut homes = false;
            for (i, &b) in boxes.iter().enumerate() {
                map.clear(b);
                runs.walk(board, &mut map, &mut reach, b, player, |p| home_on(p, bases).is_some());
                map.set(b, 0);
                for &(p, p2) in &runs.reached {
                    let home = home_on(p, bases);
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
                    });
                    if home.is_some() {
                        // One way home per box.
                        break;
                    }
                }
            }
            map.clear_all(&boxes);
            for child in children.drain(..) {
                map.set_all(&child.boxes);
                let min = reach.fill(board, &map, child.player);
                map.clear_all(&child.boxes);
                if !seen.insert((child.boxes.clone(), child.bases, min)) {
                    continue;
                }
                // A box parked off the goals goes home first.
                let preferred = if child.home { !is_first(child.moved.0) } else { child.moved.0 == last };
                open.push((Reverse((child.boxes.len(), child.h, !preferred)), nodes.len()));
                nodes.push(child);
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

    /// Works out the out-of-plan zones (see `Zones::new`), once per plan however many
    /// searches share it; [`ParkingPlan::out_of_plan`] counts nothing before.
    pub fn prepare_out_of_plan(&self, board: &Board) {
        self.zones.get_or_init(|| Zones::new(&self.steps, board));
    }

    /// How many of `boxes` stand out of plan in a position that has packed `packed` steps (0
    /// before [`ParkingPlan::prepare_out_of_plan`]).
    pub fn out_of_plan(&self, packed: u32, boxes: impl Iterator<Item = Cell>) -> u32 {
        let Some(zones) = self.zones.get() else { return 0 };
        let Some(&k) = zones.read.get(packed as usize) else { return 0 };
        let zone = &zones.sets[k as usize];
        boxes.filter(|&c| zone[c as usize / 64] >> (c % 64) & 1 == 1).count() as u32
    }

    /// The steps, the initial ones first.
    pub fn steps(&self) -> &[Step] {
        &self.steps
    }

    /// How many steps are initial: boxes the plan leaves where they stand at the start.
    pub fn initial(&self) -> usize {
        self.initial
    }

    /// True if the plan's search took every box home: no initial steps.
    pub fn is_complete(&self) -> bool {
        self.complete
    }

    /// How many steps the position with boxes where `is_box` says has packed (see the
    /// module docs).
    pub fn packed(&self, is_box: impl Fn(Cell) -> bool) -> u32 {
        let packed = match self.first_unpacked(&is_box) {
            Ok(i) => i,
            Err(fixed_in) => return fixed_in,
        };
        let good =
            self.steps[..self.initial].iter().filter(|s| is_box(s.to) || (s.until as usize) < packed).count();
        (packed - (self.initial - good)) as u32
    }

    /// The first step after the initial ones that the position with boxes where `is_box` says
    /// has not packed (the number of steps when it has packed them all); `Err` with how many
    /// are in place when some initial box that never moves is not.
    fn first_unpacked(&self, is_box: impl Fn(Cell) -> bool) -> Result<usize, u32> {
        let steps = &self.steps;
        let fixed = steps[..self.initial].iter().filter(|s| s.until == NEVER).count();
        let fixed_in = steps[..fixed].iter().filter(|s| is_box(s.to)).count();
        if fixed_in < fixed {
            return Err(fixed_in as u32);
        }
        let mut packed = steps.len();
        for i in (self.initial..steps.len()).rev() {
            let s = &steps[i];
            if !is_box(s.to) && (s.until == NEVER || s.until as usize >= packed) {
                packed = i;
            }
        }
        Ok(packed)
    }

    /// The index of the step the position with boxes where `is_box` says takes next: the
    /// first it has not packed, when every initial box that never moves is in place and some
    /// step is left (FESS's opener clears the way to its square).
    pub fn next_step(&self, is_box: impl Fn(Cell) -> bool) -> Option<usize> {
        self.first_unpacked(is_box).ok().filter(|&i| i < self.steps.len())
    }

    /// Steps not packed: the number of steps less [`ParkingPlan::packed`].
    pub fn unpacked(&self, is_box: impl Fn(Cell) -> bool) -> u32 {
        self.steps.len() as u32 - self.packed(is_box)
    }
}

/// The squares one box reaches by its own moves alone (pulls for the forward search's plan,
/// pushes for the backward search's), the other boxes standing still: a breadth-first walk
/// over the box's square and the player's region.
struct BoxWalk {
    /// Whose plan: the forward search's pulls, the backward search's pushes.
    side: Side,
    seen: HashSet<(Cell, Cell)>,
    queue: VecDeque<(Cell, Cell)>,
    /// Each position reached (not the box's own): the box's square and where the player
    /// stands, in the order found (fewest pulls first).
    reached: Vec<(Cell, Cell)>,
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
        home: impl Fn(Cell) -> bool,
    ) {
        self.seen.clear();
        self.queue.clear();
        self.reached.clear();
        map.set(b, 0);
        let min = reach.fill(board, map, player);
        map.clear(b);
        self.fills += 1;
        self.seen.insert((b, min));
        self.queue.push_back((b, player));
        let mut next: Vec<(Cell, Cell)> = Vec::new();
        while let Some((c, pl)) = self.queue.pop_front() {
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
                if home(p) {
                    return;
                }
                self.queue.push_back((p, p2));
            }
        }
    }
}

impl Zones {
    /// Works out the out-of-plan zones (after Festival's): once step `i` is done, the squares
    /// from which a lone box can reach no square of a later step, the boxes that stay put
    /// after the steps up to `i` standing as walls (dead squares left out). A position that has
    /// packed `k` steps reads the zone of the first step from `k` on where the zone changes,
    /// so boxes are cleared out of a zone before the plan closes it.
    fn new(steps: &[Step], board: &Board) -> Zones {
        let n = board.n_cells();
        let words = n.div_ceil(64);
        let len = steps.len();
        let mut own: Vec<Vec<u64>> = Vec::with_capacity(len);
        let mut walls: Vec<Cell> = Vec::new();
        for i in 0..len {
            if steps[i].until == NEVER {
                walls.push(steps[i].to);
                walls.sort_unstable();
            }
            let mut zone = vec![0u64; words];
            let later: Vec<Cell> = steps[i + 1..].iter().map(|s| s.to).collect();
            if !later.is_empty() {
                let dist = board.push_distances_with_walls(&walls, &later);
                for c in 0..n as Cell {
                    if walls.binary_search(&c).is_err()
                        && !board.is_push_dead(c)
                        && dist.nearest(c) == UNREACHABLE
                    {
                        zone[c as usize / 64] |= 1 << (c % 64);
                    }
                }
            }
            own.push(zone);
        }
        // Each step reads the zone of the next step where it changes.
        let mut read = own.clone();
        let mut last = 0;
        let empty = vec![0u64; words];
        let mut current = &empty;
        // The last step has no later one: its zone (empty) changes nothing before it.
        for i in 0..len.saturating_sub(1) {
            if own[i] == *current {
                continue;
            }
            current = &own[i];
            for r in &mut read[last..=i] {
                r.clone_from(current);
            }
            last = i;
        }
        let mut sets: Vec<Vec<u64>> = Vec::new();
        let read = read
            .into_iter()
            .map(|z| match sets.iter().position(|s| *s == z) {
                Some(k) => k as u32,
                None => {
                    sets.push(z);
                    (sets.len() - 1) as u32
                }
            })
            .collect();
        Zones { read, sets }
    }
}

/// Sets each step's `until`: the first later step whose box comes from its square.
fn set_until(steps: &mut [Step]) {
    for i in 0..steps.len() {
        let to = steps[i].to;
        steps[i].until =
            (i + 1..steps.len()).find(|&j| steps[j].from == From::Parked(to)).map_or(NEVER, |j| j as u32);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bisolve_board::Level;

    fn level(rows: &str) -> Level {
        Level::parse(rows).expect("valid level")
    }

    #[test]
    fn a_corridor_is_filled_from_its_far_end() {
        // Goals in a dead-end corridor: the deepest is filled first, each box straight from
        // its start square.
        let l = level("#######\n#@$$ ..#\n#######\n");
        let plan = ParkingPlan::new(l.board()).unwrap();
        assert!(plan.is_complete());
        let b = l.board();
        let cell = |x, y| b.cell(x, y).unwrap();
        let steps: Vec<(From, Cell)> = plan.steps().iter().map(|s| (s.from, s.to)).collect();
        assert_eq!(steps, vec![(From::Home, cell(6, 1)), (From::Home, cell(5, 1))]);
        // Packed: the far goal alone counts; the near goal alone counts for nothing.
        assert_eq!(plan.packed(|c| c == cell(6, 1)), 1);
        assert_eq!(plan.packed(|c| c == cell(5, 1)), 0);
        assert_eq!(plan.packed(|c| c == cell(5, 1) || c == cell(6, 1)), 2);
        assert_eq!(plan.unpacked(|_| false), 2);
    }

    #[test]
    fn the_backward_plan_reads_the_pushes_from_the_start_backwards() {
        // From the start, the plan's search pushes the left box home first (it is nearer
        // the player), then the right one: read backwards, the backward search fills the
        // right box's start square first, and a box there alone packs one step.
        let l = level("########\n#      #\n# $$   #\n#@   ..#\n########\n");
        let b = l.board();
        let plan = ParkingPlan::backward(b, l.start().player).unwrap();
        assert!(plan.is_complete());
        let cell = |x, y| b.cell(x, y).unwrap();
        let steps: Vec<(From, Cell)> = plan.steps().iter().map(|s| (s.from, s.to)).collect();
        assert_eq!(steps, vec![(From::Home, cell(3, 2)), (From::Home, cell(2, 2))]);
        assert_eq!(plan.packed(|c| c == cell(3, 2)), 1);
        assert_eq!(plan.packed(|c| c == cell(2, 2)), 0);
        assert_eq!(plan.unpacked(|c| b.is_start_square(c)), 0);
        // A start with no room to push fails to finish: the boxes stay, as initial steps.
        let stuck = level("#######\n#@$$..#\n#######\n");
        let plan = ParkingPlan::backward(stuck.board(), stuck.start().player).unwrap();
        assert!(!plan.is_complete());
        assert!(plan.steps().iter().all(|s| s.from == From::Initial));
    }

    #[test]
    fn a_parked_box_counts_until_a_later_packed_step_moves_it_on() {
        // Cells 0..3 stand for squares A, B, C: A is parked on, then moved on to C.
        let (a, b, c) = (0, 1, 2);
        let mut steps = vec![
            Step { from: From::Home, to: a, until: NEVER },
            Step { from: From::Home, to: b, until: NEVER },
            Step { from: From::Parked(a), to: c, until: NEVER },
        ];
        set_until(&mut steps);
        assert_eq!(steps[0].until(), Some(2));
        let plan = ParkingPlan { steps, initial: 0, complete: true, zones: OnceLock::new() };
        let packed = |boxes: &[Cell]| plan.packed(|x| boxes.contains(&x));
        assert_eq!(packed(&[a]), 1);
        assert_eq!(packed(&[a, b]), 2);
        // A has moved on to C: all three steps are packed.
        assert_eq!(packed(&[b, c]), 3);
        // C without B: B's step is missing, and A's box left before its time.
        assert_eq!(packed(&[c]), 0);
    }

    #[test]
    fn initial_boxes_that_never_move_must_stand_first() {
        let mut steps = vec![
            Step { from: From::Initial, to: 5, until: NEVER },
            Step { from: From::Home, to: 1, until: NEVER },
        ];
        set_until(&mut steps);
        let plan = ParkingPlan { steps, initial: 1, complete: false, zones: OnceLock::new() };
        assert_eq!(plan.packed(|x| x == 1), 0);
        assert_eq!(plan.packed(|x| x == 5), 1);
        assert_eq!(plan.packed(|x| x == 5 || x == 1), 2);
    }

    #[test]
    fn a_box_that_can_reach_no_later_step_is_out_of_plan() {
        // Two goals at the end of a corridor; the far one can also be filled from below. Once
        // it is, a box below it can reach no goal left: with nothing packed, the search is
        // told to clear that square before the first step closes it.
        let l = level("#########\n#@ $ $..#\n#### ## #\n   #    #\n   ######\n");
        let b = l.board();
        let cell = |x, y| b.cell(x, y).unwrap();
        let plan = ParkingPlan::new(b).unwrap();
        assert!(plan.is_complete());
        let oop = |packed, boxes: &[Cell]| plan.out_of_plan(packed, boxes.iter().copied());
        assert_eq!(oop(0, &[cell(7, 2)]), 0, "nothing before the zones are prepared");
        plan.prepare_out_of_plan(b);
        let order: Vec<Cell> = plan.steps().iter().map(|s| s.to).collect();
        assert_eq!(order, vec![cell(7, 1), cell(6, 1)]);
        assert!(!b.is_push_dead(cell(7, 2)));
        assert_eq!(oop(0, &[cell(3, 1), cell(7, 2)]), 1);
        assert_eq!(oop(0, &[cell(3, 1), cell(5, 1)]), 0);
        // The last step closes nothing.
        assert_eq!(oop(1, &[cell(7, 1), cell(7, 2)]), 0);
    }
}
