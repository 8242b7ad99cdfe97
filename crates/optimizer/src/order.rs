//! The move-order pass: the same pushes in another order, when the walks between them get
//! shorter, or the box lines and box changes fewer for walks as short.
//!
//! A solution's pushes fall into *lines* (pushes of one box one way, one after another) and
//! *sessions* (pushes of one box, one after another). The pass takes each line and each
//! session in turn and tries it at every line boundary within [`WINDOW`] lines before or after
//! it, the pushes in between keeping their order. A new order is kept when every push in it can
//! still be made by the box it moved before (the player can walk behind it and the square ahead
//! is free), and its walks are shorter, or as short with fewer box lines, or as short with as
//! many lines and fewer box changes. The pushes stay the same, so the end position does too.
//! The pass sweeps until a sweep keeps nothing, the deadline passes or the caller cancels.
//!
//! Reordering reaches what the vicinity search around the path does not: a box pushed earlier
//! or later than it was stands far from its place along the path in every position between.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use bisolve_board::moves::Push;
use bisolve_board::{Board, Cell, Dir, State, NO_CELL};

/// How many lines away a line or a session may be moved, each way.
pub const WINDOW: usize = 48;

/// Walks, box lines and box changes of a push list (its pushes are the same in every order).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct Tally {
    /// Moves that are not pushes: the walks to the pushes.
    pub walks: u64,
    /// Box lines (see [`bisolve_board::moves::ReplayStats::box_lines`]).
    pub box_lines: u32,
    /// Box changes (see [`bisolve_board::moves::ReplayStats::box_changes`]).
    pub box_changes: u32,
}

/// What the pass made of a push list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reordered {
    /// The pushes in their new order (the input's when nothing was kept).
    pub pushes: Vec<Push>,
    /// The input's tally.
    pub before: Tally,
    /// The result's tally, never worse than `before`.
    pub after: Tally,
    /// New orders kept.
    pub changes: usize,
    /// True when a whole sweep kept nothing (the deadline and the caller did not stop it).
    pub done: bool,
}

/// Reorders `pushes`, a legal push list from `start` (a solution's), within `deadline`.
/// Returns `None` when the pushes cannot be made from `start`.
pub fn reorder(
    board: &Board,
    start: &State,
    pushes: &[Push],
    deadline: Option<Instant>,
    cancel: &AtomicBool,
) -> Option<Reordered> {
    let mut pass = Pass::new(board, start, pushes.to_vec())?;
    let before = pass.tally;
    let mut changes = 0;
    let done = loop {
        let mut kept = false;
        let mut unit = 0;
        while unit < pass.units.len() {
            if cancel.load(Ordering::Relaxed) || deadline.is_some_and(|d| Instant::now() >= d) {
                return Some(pass.finish(before, changes, false));
            }
            if let Some(order) = pass.best_move(unit) {
                pass = Pass::new(board, start, order)?;
                changes += 1;
                kept = true;
            }
            unit += 1;
        }
        if !kept {
            break true;
        }
    };
    Some(pass.finish(before, changes, done))
}

/// The tally of `pushes` from `start`, or `None` when they cannot be made.
pub fn tally(board: &Board, start: &State, pushes: &[Push]) -> Option<Tally> {
    Pass::new(board, start, pushes.to_vec()).map(|p| p.tally)
}

/// A push list and what the pass needs to know of it.
struct Pass<'a> {
    board: &'a Board,
    start_player: Cell,
    pushes: Vec<Push>,
    /// The box (by its number in the start position) each push moves.
    owner: Vec<u16>,
    /// The box squares before push `i`, by box number: `boxes * i ..`.
    snapshots: Vec<Cell>,
    boxes: usize,
    /// The walks' running sum: `walk_sum[i]` is the walking before pushes `0..i`.
    walk_sum: Vec<u64>,
    /// Line boundaries: the index of each line's first push, then `pushes.len()`.
    lines: Vec<usize>,
    /// The pieces that may move: each line, and each session of more than one line, as push
    /// index ranges.
    units: Vec<(usize, usize)>,
    tally: Tally,
    scratch: Scratch,
}

impl<'a> Pass<'a> {
    fn new(board: &'a Board, start: &State, pushes: Vec<Push>) -> Option<Pass<'a>> {
        let boxes = start.boxes.len();
        let mut scratch = Scratch::new(board.n_cells());
        let mut at: Vec<Cell> = start.boxes.clone();
        for (i, &b) in at.iter().enumerate() {
            scratch.occupant[b as usize] = i as u16 + 1;
        }
        let (mut owner, mut snapshots, mut walk_sum) = (Vec::new(), Vec::new(), vec![0]);
        let mut player = start.player;
        for p in &pushes {
            snapshots.extend_from_slice(&at);
            let (walk, id) = scratch.make(board, player, *p, None)?;
            walk_sum.push(walk_sum[walk_sum.len() - 1] + u64::from(walk));
            owner.push(id);
            at[id as usize] = board.neighbour(p.from, p.dir);
            player = p.from;
        }
        for &c in &at {
            scratch.occupant[c as usize] = 0;
        }
        let n = pushes.len();
        let (mut lines, mut sessions) = (Vec::new(), Vec::new());
        for i in 0..n {
            let same_box = i > 0 && owner[i] == owner[i - 1];
            if !same_box {
                sessions.push(i);
            }
            if !(same_box && pushes[i].dir == pushes[i - 1].dir) {
                lines.push(i);
            }
        }
        lines.push(n);
        sessions.push(n);
        let mut units: Vec<(usize, usize)> =
            lines.windows(2).chain(sessions.windows(2)).map(|w| (w[0], w[1])).collect();
        let tally = Tally {
            walks: walk_sum[pushes.len()],
            box_lines: (lines.len() - 1) as u32,
            box_changes: count_changes(&owner, 0..pushes.len()),
        };
        units.sort_unstable();
        units.dedup();
        Some(Pass {
            board,
            start_player: start.player,
            pushes,
            owner,
            snapshots,
            boxes,
            walk_sum,
            lines,
            units,
            tally,
            scratch,
        })
    }

    fn finish(self, before: Tally, changes: usize, done: bool) -> Reordered {
        Reordered { after: self.tally, pushes: self.pushes, before, changes, done }
    }

    /// The best new order that moves unit `unit` elsewhere, if one beats the present order.
    fn best_move(&mut self, unit: usize) -> Option<Vec<Push>> {
        let (a, b) = self.units[unit];
        let first = self.lines.binary_search(&a).ok()?;
        let last = self.lines.binary_search(&b).ok()?;
        let mut best: Option<(Tally, usize)> = None;
        let lo = first.saturating_sub(WINDOW);
        let hi = (last + WINDOW).min(self.lines.len() - 1);
        let targets: Vec<usize> =
            self.lines[lo..first].iter().chain(&self.lines[last + 1..=hi]).copied().collect();
        for to in targets {
            let (s, e) = (to.min(a), to.max(b));
            let order = moved(a, b, to);
            let Some(walks) = self.walks_of(s, e, &order) else { continue };
            let tally = Tally {
                walks: self.tally.walks - (self.walk_sum[(e + 1).min(self.pushes.len())] - self.walk_sum[s])
                    + walks,
                box_lines: 0,
                box_changes: 0,
            };
            if tally.walks > self.tally.walks {
                continue;
            }
            let full = self.spliced(s, e, &order);
            let tally = Tally {
                box_lines: count_lines(&self.pushes, &self.owner, &full),
                box_changes: count_changes(&self.owner, full.iter().copied()),
                ..tally
            };
            if tally < self.tally && best.is_none_or(|(t, _)| tally < t) {
                best = Some((tally, to));
            }
        }
        let (_, to) = best?;
        let (s, e) = (to.min(a), to.max(b));
        Some(self.spliced(s, e, &moved(a, b, to)).into_iter().map(|i| self.pushes[i]).collect())
    }

    /// The whole list's push indices with `s..e` replaced by `order`.
    fn spliced(&self, s: usize, e: usize, order: &[usize]) -> Vec<usize> {
        (0..s).chain(order.iter().copied()).chain(e..self.pushes.len()).collect()
    }

    /// The walks of pushes `s..e` made in `order` from the position before push `s`, and of the
    /// walk to push `e` after them; `None` when a push cannot be made or the walks already cost
    /// more than those of the present order.
    fn walks_of(&mut self, s: usize, e: usize, order: &[usize]) -> Option<u64> {
        let limit = self.walk_sum[(e + 1).min(self.pushes.len())] - self.walk_sum[s];
        let snapshot = &self.snapshots[s * self.boxes..(s + 1) * self.boxes];
        let scratch = &mut self.scratch;
        for (i, &c) in snapshot.iter().enumerate() {
            scratch.occupant[c as usize] = i as u16 + 1;
        }
        let mut player = if s == 0 { self.start_player } else { self.pushes[s - 1].from };
        let mut total = 0u64;
        let mut ok = true;
        let mut made = Vec::with_capacity(order.len());
        for &i in order {
            let p = self.pushes[i];
            match scratch.make(self.board, player, p, Some(self.owner[i])) {
                Some((walk, _)) => {
                    made.push(p);
                    total += u64::from(walk);
                    player = p.from;
                }
                None => ok = false,
            }
            if !ok || total > limit {
                ok = false;
                break;
            }
        }
        if ok && e < self.pushes.len() {
            let next = self.pushes[e];
            match scratch.walk(self.board, player, self.board.neighbour(next.from, next.dir.opposite())) {
                Some(w) => total += u64::from(w),
                None => ok = false,
            }
        }
        // Undo the pushes made, then clear the snapshot's boxes.
        for p in made.iter().rev() {
            let to = self.board.neighbour(p.from, p.dir);
            scratch.occupant[p.from as usize] = scratch.occupant[to as usize];
            scratch.occupant[to as usize] = 0;
        }
        for &c in snapshot {
            scratch.occupant[c as usize] = 0;
        }
        (ok && total <= limit).then_some(total)
    }
}

/// The push indices of `a..b` moved to line boundary `to` (before `a` or after `b`), from
/// the first of them to the last.
fn moved(a: usize, b: usize, to: usize) -> Vec<usize> {
    if to < a {
        (a..b).chain(to..a).collect()
    } else {
        (b..to).chain(a..b).collect()
    }
}

/// Box lines of the pushes in `order`: a line goes on while the same box goes the same way.
fn count_lines(pushes: &[Push], owner: &[u16], order: &[usize]) -> u32 {
    let mut last: Option<(u16, Dir)> = None;
    let mut lines = 0;
    for &i in order {
        let now = (owner[i], pushes[i].dir);
        if last != Some(now) {
            lines += 1;
        }
        last = Some(now);
    }
    lines
}

/// Box changes of the pushes in `order`: the first push, and every push of another box than
/// the push before.
fn count_changes(owner: &[u16], order: impl IntoIterator<Item = usize>) -> u32 {
    let mut last = None;
    let mut changes = 0;
    for i in order {
        if last != Some(owner[i]) {
            changes += 1;
        }
        last = Some(owner[i]);
    }
    changes
}

/// Squares' boxes and a stamped breadth-first walk.
struct Scratch {
    /// The box on each square, numbered from 1 (0: none).
    occupant: Vec<u16>,
    seen: Vec<u32>,
    generation: u32,
    queue: Vec<(Cell, u32)>,
}

impl Scratch {
    fn new(cells: usize) -> Scratch {
        Scratch { occupant: vec![0; cells], seen: vec![0; cells], generation: 0, queue: Vec::new() }
    }

    /// Makes push `p` with the player at `player`: the walk it costs and the box it moved
    /// (numbered from 0), or `None` when the square holds no box (or not box `want`), the
    /// square ahead is not free, or the player cannot get behind the box.
    fn make(&mut self, board: &Board, player: Cell, p: Push, want: Option<u16>) -> Option<(u32, u16)> {
        let id = self.occupant[p.from as usize];
        let to = board.neighbour(p.from, p.dir);
        let behind = board.neighbour(p.from, p.dir.opposite());
        if id == 0 || want.is_some_and(|w| w + 1 != id) || to == NO_CELL || self.occupant[to as usize] != 0 {
            return None;
        }
        let walk = self.walk(board, player, behind)?;
        self.occupant[to as usize] = id;
        self.occupant[p.from as usize] = 0;
        Some((walk, id - 1))
    }

    /// The shortest walk from `from` to `to` around the boxes.
    fn walk(&mut self, board: &Board, from: Cell, to: Cell) -> Option<u32> {
        if to == NO_CELL || self.occupant[to as usize] != 0 {
            return None;
        }
        if from == to {
            return Some(0);
        }
        if self.generation == u32::MAX {
            self.seen.fill(0);
            self.generation = 0;
        }
        self.generation += 1;
        let g = self.generation;
        self.queue.clear();
        self.queue.push((from, 0));
        self.seen[from as usize] = g;
        let mut head = 0;
        while let Some(&(c, d)) = self.queue.get(head) {
            head += 1;
            for &n in board.neighbours(c) {
                if n != NO_CELL && self.seen[n as usize] != g && self.occupant[n as usize] == 0 {
                    if n == to {
                        return Some(d + 1);
                    }
                    self.seen[n as usize] = g;
                    self.queue.push((n, d + 1));
                }
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bisolve_board::moves::{parse_lurd, pushes_to_steps, replay, steps_to_pushes, Step};
    use bisolve_board::Level;
    use proptest::prelude::*;

    fn pushes_of(level: &Level, lurd: &str) -> Vec<Push> {
        let steps = parse_lurd(lurd).expect("LURD");
        steps_to_pushes(level.board(), level.start(), &steps)
    }

    /// The box squares, sorted, after `pushes` from the level's start.
    fn end_of(level: &Level, pushes: &[Push]) -> Vec<Cell> {
        let mut boxes = level.start().boxes.clone();
        for p in pushes {
            let b = boxes.iter_mut().find(|b| **b == p.from).expect("a box to push");
            *b = level.board().neighbour(p.from, p.dir);
        }
        boxes.sort_unstable();
        boxes
    }

    const TWO_BOXES: &str = "#########\n#       #\n# $  .  #\n#@      #\n# $  .  #\n#       #\n#########\n";

    #[test]
    fn a_box_left_half_way_is_finished_before_the_other_is_started() {
        // Box A one push right, box B three, then back to A for two more: 8 walking moves,
        // three lines. Pushing A all the way first (or B first) walks 6 in two lines.
        let level = Level::parse(TWO_BOXES).expect("a level");
        let pushes = pushes_of(&level, "uRlddRRRulluRR");
        let out =
            reorder(level.board(), level.start(), &pushes, None, &AtomicBool::new(false)).expect("legal");
        assert_eq!(out.before, Tally { walks: 8, box_lines: 3, box_changes: 3 });
        assert_eq!(out.after, Tally { walks: 6, box_lines: 2, box_changes: 2 });
        assert!(out.done && out.changes >= 1);
        let steps = pushes_to_steps(level.board(), level.start(), &out.pushes).expect("legal pushes");
        let stats = replay(level.board(), level.start(), &steps).expect("a solution");
        assert_eq!((stats.moves, stats.pushes, stats.box_lines), (12, 6, 2));
    }

    #[test]
    fn an_order_as_good_as_any_is_kept() {
        // Each box in one line, and either order walks 6.
        let level = Level::parse(TWO_BOXES).expect("a level");
        let pushes = pushes_of(&level, "uRRRdllldRRR");
        let out =
            reorder(level.board(), level.start(), &pushes, None, &AtomicBool::new(false)).expect("legal");
        assert_eq!((out.changes, out.pushes.as_slice(), out.after), (0, pushes.as_slice(), out.before));
        assert!(out.done);
    }

    #[test]
    fn a_cancelled_pass_returns_its_input() {
        let level = Level::parse(TWO_BOXES).expect("a level");
        let pushes = pushes_of(&level, "uRlddRRRulluRR");
        let out =
            reorder(level.board(), level.start(), &pushes, None, &AtomicBool::new(true)).expect("legal");
        assert_eq!((out.changes, out.done, out.pushes), (0, false, pushes));
    }

    #[test]
    fn pushes_that_cannot_be_made_are_refused() {
        let level = Level::parse(TWO_BOXES).expect("a level");
        let mut pushes = pushes_of(&level, "uRlddRRRulluRR");
        pushes.swap(0, 5);
        assert!(reorder(level.board(), level.start(), &pushes, None, &AtomicBool::new(false)).is_none());
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// Any legal push list comes back legal, with the same pushes, the same end position
        /// and a tally no worse.
        #[test]
        fn a_new_order_is_legal_ends_where_the_old_did_and_costs_no_more(
            dirs in proptest::collection::vec(0u8..4, 0..120)
        ) {
            let level = Level::parse(
                "##########\n#        #\n# $  $   #\n#   ##   #\n# $   @  #\n#   $    #\n#  ....  #\n##########\n",
            ).expect("a level");
            let (board, start) = (level.board(), level.start());
            // A random walk, each step a move or a push where one can be made.
            let mut boxes = start.boxes.clone();
            let mut player = start.player;
            let mut steps = Vec::new();
            for d in dirs {
                let dir = Dir::from_index(d as usize);
                let next = board.neighbour(player, dir);
                if next == NO_CELL {
                    continue;
                }
                let push = boxes.contains(&next);
                if push {
                    let to = board.neighbour(next, dir);
                    if to == NO_CELL || boxes.contains(&to) {
                        continue;
                    }
                    *boxes.iter_mut().find(|b| **b == next).expect("the box") = to;
                }
                steps.push(Step { dir, push });
                player = next;
            }
            let pushes = steps_to_pushes(board, start, &steps);
            let out = reorder(board, start, &pushes, None, &AtomicBool::new(false)).expect("legal");
            prop_assert!(out.after <= out.before);
            prop_assert!(pushes_to_steps(board, start, &out.pushes).is_ok());
            prop_assert_eq!(end_of(&level, &out.pushes), end_of(&level, &pushes));
            let mut a = out.pushes.iter().map(|p| (p.from, p.dir as u8)).collect::<Vec<_>>();
            let mut b = pushes.iter().map(|p| (p.from, p.dir as u8)).collect::<Vec<_>>();
            a.sort_unstable();
            b.sort_unstable();
            prop_assert_eq!(a, b);
            // A second pass finds nothing more.
            let again = reorder(board, start, &out.pushes, None, &AtomicBool::new(false)).expect("legal");
            prop_assert_eq!(again.after, out.after);
        }
    }
}
