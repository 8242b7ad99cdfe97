//! Packing orders: in which order the targets of a level can be filled, for the packing feature
//! of the feature-space search (after FESS's packing feature).
//!
//! Targets are goals for the forward search and start squares for the backward one. They are
//! split into groups of orthogonally neighbouring targets (a goal room's goals usually form
//! one group). Each group is emptied ahead of the search, round by round, with the boxes of
//! other groups left out: in a round, every box that can be moved (pulled for goals, pushed
//! for start squares) off the group onto a square a box could have come from, the others
//! standing still, is taken out. Filling goes the other way: a box taken out in a later round
//! goes in earlier. The way a box found out, read backwards, is the way it comes in, so the
//! targets on that way (box squares and the squares the player stands on) must still be empty
//! when it arrives: they *need* it filled first. Boxes that can never leave (they need room to
//! park, or the player inside) are needed first by every other target of their group.
//!
//! A position's *packed* count: the targets with a box whose needs (followed through) all have
//! boxes too. A box on a target out of turn counts for nothing. The feature is a guide for the
//! search only: it prunes nothing and every order of filling stays possible.
//!
//! The forward search can also use the ways in as macros (the push crate's packing macros): a
//! box pushed onto the square a goal's way in starts from, while that goal is next to fill, is
//! taken along the way when every square of it is still free.

use std::collections::{HashSet, VecDeque};

use bisolve_board::search::Side;
use bisolve_board::Dir;
use bisolve_board::{Board, Cell, NO_CELL};
use bisolve_board::{BoxMap, Reach};

/// Groups with more targets than this get no order (their targets need nothing).
pub const MAX_GROUP: usize = 128;
/// Cells that the removal searches of one level may visit in all (counted as board size per
/// state searched); what is not ordered when it runs out needs nothing.
pub const WORK_BUDGET: u64 = 60_000_000;

/// The packing orders of one level's targets, for one direction of search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PackingOrder {
    /// The targets, group by group, each group in filling order.
    cells: Vec<Cell>,
    /// Per entry of `cells`: the targets of its group (bit `i`: the group's `i`-th entry)
    /// that must have boxes before a box on it counts as packed.
    needs: Vec<u128>,
    /// Each group's range in `cells`.
    groups: Vec<(u32, u32)>,
    /// Per entry of `cells`: its needs as a list of squares, followed through.
    need_lists: Vec<Vec<Cell>>,
    /// Per entry of `cells`, forward only: the square a box is brought in from and the
    /// directions of the pushes that take it from there to the target (the way out read
    /// backwards), when the target was emptied.
    ways_in: Vec<Option<(Cell, Vec<Dir>)>>,
    /// Per board square: its entry in `cells`, or `u32::MAX`.
    slot: Vec<u32>,
    /// Per board square: the entries of `cells` whose way in starts there.
    entered_from: Vec<Vec<u32>>,
}

impl PackingOrder {
    /// The packing orders of the targets of `side`: goals (boxes leave by pulls) forward,
    /// start squares (boxes leave by pushes) backward.
    pub fn new(board: &Board, side: Side) -> PackingOrder {
        let targets = match side {
            Side::Forward => board.goals(),
            Side::Backward => board.start_squares(),
        };
        let is_target = |c: Cell| match side {
            Side::Forward => board.is_goal(c),
            Side::Backward => board.is_start_square(c),
        };
        let n = board.n_cells();
        let mut in_group = vec![u32::MAX; n];
        let mut order = PackingOrder {
            cells: Vec::new(),
            needs: Vec::new(),
            groups: Vec::new(),
            need_lists: Vec::new(),
            ways_in: Vec::new(),
            slot: vec![u32::MAX; n],
            entered_from: vec![Vec::new(); n],
        };
        let mut removal = Removal::new(board, side);
        for &t in targets {
            if in_group[t as usize] != u32::MAX {
                continue;
            }
            // The group of `t`: targets joined to it through orthogonal neighbours.
            let id = order.groups.len() as u32;
            let mut members = vec![t];
            in_group[t as usize] = id;
            let mut k = 0;
            while k < members.len() {
                for &m in board.neighbours(members[k]) {
                    if m != NO_CELL && in_group[m as usize] == u32::MAX && is_target(m) {
                        in_group[m as usize] = id;
                        members.push(m);
                    }
                }
                k += 1;
            }
            members.sort_unstable();
            let start = order.cells.len();
            if members.len() > MAX_GROUP {
                order.needs.extend(std::iter::repeat_n(0, members.len()));
                order.need_lists.extend(std::iter::repeat_n(Vec::new(), members.len()));
                order.ways_in.extend(std::iter::repeat_n(None, members.len()));
                order.cells.extend_from_slice(&members);
            } else {
                let (fill, needs, mut ways) = removal.order(&members, &in_group, id);
                order.cells.extend_from_slice(&fill);
                for &c in &fill {
                    let way = ways.iter().position(|w| w.0 == c).map(|k| ways.swap_remove(k));
                    order.ways_in.push(way.map(|(_, from, dirs)| (from, dirs)));
                }
                // Needs by position in the filling order, followed through: everything a
                // target needs comes earlier in that order.
                let pos = |c: Cell| fill.iter().position(|&f| f == c).expect("a member");
                let mut closed = vec![0u128; fill.len()];
                for (i, &c) in fill.iter().enumerate() {
                    let mut mask = 0u128;
                    for &(needer, needed) in &needs {
                        if needer == c {
                            let j = pos(needed);
                            debug_assert!(j < i, "a target needs only targets filled before it");
                            mask |= (1u128 << j) | closed[j];
                        }
                    }
                    closed[i] = mask;
                }
                order.needs.extend_from_slice(&closed);
                for &mask in &closed {
                    let mut list: Vec<Cell> =
                        (0..fill.len()).filter(|&j| mask >> j & 1 == 1).map(|j| fill[j]).collect();
                    list.sort_unstable();
                    order.need_lists.push(list);
                }
            }
            order.groups.push((start as u32, order.cells.len() as u32));
        }
        for (k, &c) in order.cells.iter().enumerate() {
            order.slot[c as usize] = k as u32;
            if side == Side::Forward {
                if let Some((from, _)) = &order.ways_in[k] {
                    order.entered_from[*from as usize].push(k as u32);
                }
            }
        }
        if side == Side::Backward {
            // Pulls bring boxes to start squares one square at a time; no macros there.
            order.ways_in.iter_mut().for_each(|w| *w = None);
        }
        order
    }

    /// How many targets the position with boxes where `is_box` says counts as packed: those
    /// with a box whose needs all have boxes.
    pub fn packed(&self, is_box: impl Fn(Cell) -> bool) -> u32 {
        let mut packed = 0;
        for &(start, end) in &self.groups {
            let group = &self.cells[start as usize..end as usize];
            if group.len() > MAX_GROUP {
                // No order: every box on a target counts.
                packed += group.iter().filter(|&&c| is_box(c)).count() as u32;
                continue;
            }
            let mut filled = 0u128;
            for (i, &c) in group.iter().enumerate() {
                if is_box(c) {
                    filled |= 1 << i;
                }
            }
            let mut bits = filled;
            while bits != 0 {
                let i = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                packed += u32::from(self.needs[start as usize + i] & !filled == 0);
            }
        }
        packed
    }

    /// Targets not packed: the number of targets less [`PackingOrder::packed`].
    pub fn unpacked(&self, is_box: impl Fn(Cell) -> bool) -> u32 {
        self.cells.len() as u32 - self.packed(is_box)
    }

    /// The groups, each in filling order.
    pub fn groups(&self) -> Vec<&[Cell]> {
        self.groups.iter().map(|&(start, end)| &self.cells[start as usize..end as usize]).collect()
    }

    /// The targets that must have boxes before a box on `target` counts as packed, ascending;
    /// empty for a square that is not a target.
    pub fn needs(&self, target: Cell) -> &[Cell] {
        match self.slot.get(target as usize) {
            Some(&k) if k != u32::MAX => &self.need_lists[k as usize],
            _ => &[],
        }
    }

    /// True if `target` is empty and every target it needs has a box: a box brought there
    /// now counts as packed.
    #[inline]
    pub fn is_next(&self, target: Cell, is_box: impl Fn(Cell) -> bool) -> bool {
        !is_box(target) && self.needs(target).iter().all(|&c| is_box(c))
    }

    /// The targets whose way in (see [`PackingOrder::way_in`]) starts on `square`; forward
    /// orders only.
    pub fn entered_from(&self, square: Cell) -> impl Iterator<Item = Cell> + '_ {
        self.entered_from[square as usize].iter().map(|&k| self.cells[k as usize])
    }

    /// The way a box comes in to `target`, forward orders only: the square it starts from and
    /// the directions of its pushes from there, found as the way out read backwards, with
    /// the targets `target` needs filled and the others empty.
    pub fn way_in(&self, target: Cell) -> Option<(Cell, &[Dir])> {
        let k = *self.slot.get(target as usize)?;
        let (from, dirs) = self.ways_in.get(k as usize)?.as_ref()?;
        Some((*from, dirs))
    }

    /// True if some target needs another; without that the packed count is just the count of
    /// boxes on targets.
    pub fn has_order(&self) -> bool {
        self.needs.iter().any(|&m| m != 0)
    }
}

/// A state of a removal search: the box, where the player stands, the state it came from, and
/// the square the player stood on to make the move (for the root: the player's square).
#[derive(Clone, Copy, Debug)]
struct Node {
    b: Cell,
    player: Cell,
    parent: u32,
    stand: Cell,
}

/// The searches that take boxes off a group of targets.
struct Removal<'a> {
    board: &'a Board,
    side: Side,
    boxes: BoxMap,
    reach: Reach,
    seen: HashSet<(Cell, Cell)>,
    nodes: Vec<Node>,
    queue: VecDeque<u32>,
    work_left: u64,
}

impl<'a> Removal<'a> {
    fn new(board: &'a Board, side: Side) -> Removal<'a> {
        let n = board.n_cells();
        Removal {
            board,
            side,
            boxes: BoxMap::new(n),
            reach: Reach::new(n),
            seen: HashSet::new(),
            nodes: Vec::new(),
            queue: VecDeque::new(),
            work_left: WORK_BUDGET,
        }
    }

    /// A group's filling order (the boxes that never leave first, then the rounds last taken
    /// first, each round ascending) and its needs as (target, target it needs) pairs.
    #[allow(clippy::type_complexity)]
    fn order(
        &mut self,
        members: &[Cell],
        in_group: &[u32],
        id: u32,
    ) -> (Vec<Cell>, Vec<(Cell, Cell)>, Vec<(Cell, Cell, Vec<Dir>)>) {
        let mut left: Vec<Cell> = members.to_vec();
        let mut rounds = Vec::new();
        let mut needs = Vec::new();
        let mut ways = Vec::new();
        self.boxes.set_all(&left);
        while !left.is_empty() && self.work_left > 0 {
            let mut round = Vec::new();
            let mut k = 0;
            while k < left.len() && self.work_left > 0 {
                let g = left[k];
                match self.way_out(g, in_group, id) {
                    Some((way, from, dirs)) => {
                        // Targets on the way were emptied in earlier rounds: they are filled
                        // after `g`, so each of them needs `g`.
                        for c in way {
                            if c != g && in_group[c as usize] == id && !needs.contains(&(c, g)) {
                                needs.push((c, g));
                            }
                        }
                        ways.push((g, from, dirs));
                        round.push(left.remove(k));
                    }
                    None => k += 1,
                }
            }
            if round.is_empty() {
                break;
            }
            // Every box of a round can leave on its own, and taking one out only frees
            // squares, so they can leave one after another in any order.
            self.boxes.clear_all(&round);
            rounds.push(round);
        }
        self.boxes.clear_all(&left);
        // What never left is needed by everything else.
        for &stuck in &left {
            for round in &rounds {
                needs.extend(round.iter().map(|&c| (c, stuck)));
            }
        }
        let mut fill = left;
        fill.extend(rounds.into_iter().rev().flatten());
        (fill, needs, ways)
    }

    /// The squares the box on target `g` and the player use to move it off the group onto a
    /// square a box could have come from (every other box of `self.boxes` standing still, the
    /// player starting anywhere outside the group), by fewest moves, with that square and the
    /// directions of the pushes that bring the box back from it; `None` if it cannot leave.
    fn way_out(&mut self, g: Cell, in_group: &[u32], id: u32) -> Option<(Vec<Cell>, Cell, Vec<Dir>)> {
        let board = self.board;
        let n = board.n_cells() as u64;
        self.seen.clear();
        self.queue.clear();
        self.nodes.clear();
        // The box stays on the map at `g` while the player's start regions are found.
        for &p in board.neighbours(g) {
            if p == NO_CELL || self.boxes.is_box(p) {
                continue;
            }
            self.reach.fill(board, &self.boxes, p);
            self.work_left = self.work_left.saturating_sub(n);
            if self.reach.cells().any(|c| in_group[c as usize] != id) {
                self.queue.push_back(self.nodes.len() as u32);
                self.nodes.push(Node { b: g, player: p, parent: u32::MAX, stand: g });
            }
        }
        self.boxes.clear(g);
        let mut found = None;
        'search: while let Some(at) = self.queue.pop_front() {
            if self.work_left == 0 {
                break;
            }
            self.work_left = self.work_left.saturating_sub(n);
            let Node { b, player, .. } = self.nodes[at as usize];
            self.boxes.set(b, 0);
            let min = self.reach.fill(board, &self.boxes, player);
            self.boxes.clear(b);
            if !self.seen.insert((b, min)) {
                continue;
            }
            for d in Dir::ALL {
                let Some((to, next_player, stand)) = self.step(b, d) else { continue };
                let possible = match self.side {
                    Side::Forward => !board.is_pull_dead(to),
                    Side::Backward => !board.is_push_dead(to),
                };
                if in_group[to as usize] != id && possible {
                    found = Some((at, stand, to));
                    break 'search;
                }
                self.queue.push_back(self.nodes.len() as u32);
                self.nodes.push(Node { b: to, player: next_player, parent: at, stand });
            }
        }
        self.boxes.set(g, 0);
        let (mut at, stand, from) = found?;
        let mut way = vec![stand];
        // The box squares from the way's end back to `g`: each step of the box is a push in
        // the filling direction.
        let mut prev = from;
        let mut dirs = Vec::new();
        while at != u32::MAX {
            let node = self.nodes[at as usize];
            way.push(node.b);
            way.push(node.stand);
            dirs.push(
                Dir::ALL.into_iter().find(|&d| board.neighbour(prev, d) == node.b).expect("neighbours"),
            );
            prev = node.b;
            at = node.parent;
        }
        Some((way, from, dirs))
    }

    /// The box on `b` moved one square in direction `d` by the removal's kind of move, given
    /// the player's last fill: where the box and the player end up, and the square the
    /// player needs besides the box's.
    fn step(&self, b: Cell, d: Dir) -> Option<(Cell, Cell, Cell)> {
        let board = self.board;
        let to = board.neighbour(b, d);
        if to == NO_CELL || self.boxes.is_box(to) {
            return None;
        }
        match self.side {
            // A pull: the player stands on `to` and steps back to `beyond`.
            Side::Forward => {
                let beyond = board.neighbour(to, d);
                (self.reach.contains(to) && beyond != NO_CELL && !self.boxes.is_box(beyond))
                    .then_some((to, beyond, beyond))
            }
            // A push: the player stands behind the box and ends where it was.
            Side::Backward => {
                let behind = board.neighbour(b, d.opposite());
                (behind != NO_CELL && self.reach.contains(behind)).then_some((to, b, behind))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bisolve_board::Level;

    fn order_of(text: &str, side: Side) -> (Level, PackingOrder) {
        let level = Level::parse(text).expect("valid level");
        let order = PackingOrder::new(level.board(), side);
        (level, order)
    }

    fn xy(board: &Board, cells: &[Cell]) -> Vec<(usize, usize)> {
        cells.iter().map(|&c| board.xy(c)).collect()
    }

    /// The packed count with boxes on the given squares.
    fn packed_at(level: &Level, order: &PackingOrder, squares: &[(usize, usize)]) -> u32 {
        let cells: Vec<Cell> = squares.iter().map(|&(x, y)| level.board().cell(x, y).unwrap()).collect();
        order.packed(|c| cells.contains(&c))
    }

    #[test]
    fn a_dead_end_corridor_fills_from_the_far_end() {
        let (level, order) = order_of("##########\n#@ $$$...#\n##########\n", Side::Forward);
        let board = level.board();
        let groups = order.groups();
        assert_eq!(groups.len(), 1);
        assert_eq!(xy(board, groups[0]), vec![(8, 1), (7, 1), (6, 1)]);
        assert!(order.has_order());
        let cell = |x, y| board.cell(x, y).unwrap();
        assert_eq!(xy(board, order.needs(cell(8, 1))), vec![]);
        assert_eq!(xy(board, order.needs(cell(7, 1))), vec![(8, 1)]);
        assert_eq!(xy(board, order.needs(cell(6, 1))), vec![(7, 1), (8, 1)], "needs are followed through");
        assert_eq!(packed_at(&level, &order, &[]), 0);
        assert_eq!(
            packed_at(&level, &order, &[(6, 1)]),
            0,
            "the entrance goal filled first counts for nothing"
        );
        assert_eq!(packed_at(&level, &order, &[(8, 1)]), 1);
        assert_eq!(packed_at(&level, &order, &[(8, 1), (6, 1)]), 1);
        assert_eq!(packed_at(&level, &order, &[(8, 1), (7, 1)]), 2);
        assert_eq!(packed_at(&level, &order, &[(8, 1), (7, 1), (6, 1)]), 3);
        assert_eq!(order.unpacked(|_| false), 3);
    }

    #[test]
    fn rows_of_a_corner_fill_independently() {
        // Four goals in a corner, with one row of floor below them: each goal of the right-hand
        // column is pulled out to the right, and the one left of it then follows the same way
        // (a pull down from the bottom row would put the player in the wall). So each row
        // fills from the left, whatever the other row holds.
        let text = "#######\n\
                    #..$$ #\n\
                    #..$$ #\n\
                    #    @#\n\
                    #######\n";
        let (level, order) = order_of(text, Side::Forward);
        let board = level.board();
        let groups = order.groups();
        assert_eq!(groups.len(), 1, "{groups:?}");
        assert_eq!(xy(board, groups[0]), vec![(1, 1), (1, 2), (2, 1), (2, 2)]);
        assert!(order.has_order());
        let cell = |x, y| board.cell(x, y).unwrap();
        assert_eq!(xy(board, order.needs(cell(2, 1))), vec![(1, 1)]);
        assert_eq!(xy(board, order.needs(cell(2, 2))), vec![(1, 2)]);
        assert_eq!(order.needs(cell(1, 1)), vec![]);
        assert_eq!(packed_at(&level, &order, &[(2, 2)]), 0);
        assert_eq!(packed_at(&level, &order, &[(1, 2)]), 1);
        assert_eq!(packed_at(&level, &order, &[(1, 1), (2, 2)]), 1);
        assert_eq!(packed_at(&level, &order, &[(1, 2), (2, 2)]), 2, "the other row does not matter");
        assert_eq!(packed_at(&level, &order, &[(1, 1), (1, 2), (2, 2)]), 3);
        assert_eq!(packed_at(&level, &order, &[(1, 1), (2, 1), (1, 2), (2, 2)]), 4);
    }

    #[test]
    fn the_backward_order_takes_boxes_off_start_squares_by_pushes() {
        let text = "#######\n\
                    #     #\n\
                    # $$$ #\n\
                    #     #\n\
                    #@... #\n\
                    #######\n";
        let (level, order) = order_of(text, Side::Backward);
        let groups = order.groups();
        assert_eq!(groups.len(), 1);
        assert_eq!(groups[0], level.board().start_squares(), "each box is pushed off the row at once");
        assert!(!order.has_order());
        // Forward, the goals along the bottom wall leave by pulls upwards, in any order.
        let (_, forward) = order_of(text, Side::Forward);
        assert_eq!(forward.unpacked(|_| false), 3);
        assert!(!forward.has_order());
    }

    #[test]
    fn separate_groups_count_separately() {
        let text = "########\n\
                    #.    .#\n\
                    # $$ @ #\n\
                    #      #\n\
                    ########\n";
        let (level, order) = order_of(text, Side::Forward);
        assert_eq!(order.groups().len(), 2);
        assert!(!order.has_order());
        let g = level.board().goals();
        assert_eq!(order.packed(|c| c == g[1]), 1);
        assert_eq!(order.packed(|c| g.contains(&c)), 2);
    }

    #[test]
    fn a_box_that_can_never_leave_needs_nothing() {
        // The goal at the top of a dead end: a pull down would put the player in the wall,
        // so it never leaves, and a box there counts as packed all the same.
        let text = "######\n\
                    #.####\n\
                    #  $@#\n\
                    ######\n";
        let (level, order) = order_of(text, Side::Forward);
        let goal = level.board().goals()[0];
        assert_eq!(order.groups(), vec![&[goal][..]]);
        assert!(!order.has_order());
        assert_eq!(order.packed(|c| c == goal), 1);
        assert_eq!(order.unpacked(|_| false), 1);
    }
}
