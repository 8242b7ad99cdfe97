//! Small exhaustive searches on a few boxes alone, the other boxes removed: the engine of
//! the deadlock tests that solve a sub-problem (the forward search's corral deadlocks, and
//! [`crate::sealed`] in both directions).
//!
//! Removing boxes never makes a push or a pull illegal, and a position the freeze test calls
//! dead with fewer boxes is dead with more. So the moves that a solution of the whole level
//! makes with the kept boxes, in order and with the others left out, are a path of this
//! search: if a test must hold somewhere along every solution, and the search runs out of
//! states without meeting it, the position has no solution.
//!
//! A search may also keep *fixed* boxes: boxes of the position that can never move again
//! (frozen on goals), which stand on the board as walls and are never pushed. A box that can
//! never move in the whole level stays put along every solution, so the argument above holds
//! with them on the board, and the verdicts get sharper: a fixed box near the kept ones
//! blocks them, and the player, as the real one does. [`fixed_near`] picks the fixed boxes
//! near a search's boxes and [`fixed_key`] keys verdicts by them. The argument needs the
//! fixed boxes to stand still only up to the first position that passes the test: the
//! forward search's shut-in test fixes the boxes the player cannot reach and tests for a push
//! of one of them.

use std::collections::{HashMap, HashSet};
use std::hash::BuildHasherDefault;

use crate::freeze::FreezeCheck;
use crate::pairs::PairMode;
use bisolve_board::{Board, BoxMap, Cell, Dir, Fingerprint, PassThrough, Reach, NO_CELL};

/// The most verdicts a [`VerdictCache`] holds; past it the cache starts afresh.
pub const MAX_CACHED: usize = 1 << 20;

/// Verdicts of subset searches (dead or not) by a 128-bit key made of Zobrist keys, one
/// cache per thread. Past [`MAX_CACHED`] entries it starts afresh.
#[derive(Debug, Default)]
pub struct VerdictCache {
    map: HashMap<u128, bool, BuildHasherDefault<PassThrough>>,
}

impl VerdictCache {
    /// The verdict stored under `key`, if any.
    #[inline]
    pub fn get(&self, key: u128) -> Option<bool> {
        self.map.get(&key).copied()
    }

    /// Stores a verdict.
    pub fn insert(&mut self, key: u128, dead: bool) {
        if self.map.len() >= MAX_CACHED {
            self.map.clear();
        }
        self.map.insert(key, dead);
    }
}

/// How a subset search ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Every position the boxes can be pushed into was seen and none passed the test.
    Exhausted,
    /// A position passed the test.
    Found,
    /// The search saw its budget of states first.
    OutOfBudget,
}

/// Working memory of subset searches, one per thread.
#[derive(Debug)]
pub struct SubsetSearch {
    boxes: BoxMap,
    reach: Reach,
    child_reach: Reach,
    freeze: FreezeCheck,
    seen: HashSet<Fingerprint>,
    /// States to expand: `k` box cells then the player, `k + 1` cells each.
    queue: Vec<Cell>,
    current: Vec<Cell>,
    /// A child's boxes, sorted for its fingerprint.
    child: Vec<Cell>,
}

impl SubsetSearch {
    /// Working memory for a board with `n_cells` cells.
    pub fn new(n_cells: usize) -> SubsetSearch {
        SubsetSearch {
            boxes: BoxMap::new(n_cells),
            reach: Reach::new(n_cells),
            child_reach: Reach::new(n_cells),
            freeze: FreezeCheck::default(),
            seen: HashSet::new(),
            queue: Vec::new(),
            current: Vec::new(),
            child: Vec::new(),
        }
    }

    /// The normalized player square (smallest cell of the region of `player`) with only the
    /// boxes on `boxes` and `fixed` on the board.
    pub fn region_min(&mut self, board: &Board, boxes: &[Cell], fixed: &[Cell], player: Cell) -> Cell {
        self.boxes.set_all(boxes);
        self.boxes.set_all(fixed);
        let min = self.reach.fill(board, &self.boxes, player);
        self.boxes.clear_all(boxes);
        self.boxes.clear_all(fixed);
        min
    }

    /// The positions the last [`SubsetSearch::run`] recorded: its cost.
    pub fn states_seen(&self) -> usize {
        self.seen.len()
    }

    /// The player's region filled by the last [`SubsetSearch::region_min`].
    pub fn reach(&self) -> &Reach {
        &self.reach
    }

    /// Breadth-first search over every sequence of pushes (`PairMode::Push`) or pulls
    /// (`PairMode::Pull`) of the boxes on `start` (sorted), the other boxes removed but those
    /// on `fixed` (boxes that never move, kept as walls; none of `start`), with the player
    /// starting anywhere in the region of `player`. Moves onto the direction's dead squares,
    /// and pushes that freeze a box off a goal, are not made. `test` is asked about every
    /// position made by a move (the root is not asked): its box map (the fixed boxes
    /// included), its moving boxes (in no particular order) and the player's region.
    #[allow(clippy::too_many_arguments)]
    pub fn run<F>(
        &mut self,
        board: &Board,
        mode: PairMode,
        start: &[Cell],
        fixed: &[Cell],
        player: Cell,
        max_states: usize,
        test: F,
    ) -> Outcome
    where
        F: FnMut(&BoxMap, &[Cell], &Reach) -> bool,
    {
        debug_assert!(fixed.iter().all(|c| !start.contains(c)), "a fixed box among the moving ones");
        self.boxes.set_all(fixed);
        let outcome = self.search(board, mode, start, player, max_states, test);
        self.boxes.clear_all(fixed);
        outcome
    }

    /// [`SubsetSearch::run`] with the fixed boxes already on the map.
    fn search<F>(
        &mut self,
        board: &Board,
        mode: PairMode,
        start: &[Cell],
        player: Cell,
        max_states: usize,
        mut test: F,
    ) -> Outcome
    where
        F: FnMut(&BoxMap, &[Cell], &Reach) -> bool,
    {
        let zobrist = board.zobrist();
        let k = start.len();
        self.seen.clear();
        self.queue.clear();
        self.queue.extend_from_slice(start);
        self.queue.push(player);
        self.seen.insert(zobrist.fingerprint(start, player));
        let mut head = 0;
        let mut outcome = Outcome::Exhausted;
        while head < self.queue.len() {
            if self.seen.len() > max_states {
                return Outcome::OutOfBudget;
            }
            self.current.clear();
            self.current.extend_from_slice(&self.queue[head..head + k + 1]);
            head += k + 1;
            let player = self.current[k];
            self.boxes.set_all(&self.current[..k]);
            self.reach.fill(board, &self.boxes, player);
            'boxes: for i in 0..k {
                let b = self.current[i];
                for d in Dir::ALL {
                    let to = board.neighbour(b, d);
                    // Where the player stands first, and where it ends.
                    let (stand, end) = match mode {
                        PairMode::Push => (board.neighbour(b, d.opposite()), b),
                        PairMode::Pull => (to, if to == NO_CELL { NO_CELL } else { board.neighbour(to, d) }),
                    };
                    if to == NO_CELL || stand == NO_CELL || end == NO_CELL || !self.reach.contains(stand) {
                        continue;
                    }
                    let dead = match mode {
                        PairMode::Push => self.boxes.is_box(to) || board.is_push_dead(to),
                        PairMode::Pull => self.boxes.is_box(end) || board.is_pull_dead(to),
                    };
                    if dead {
                        continue;
                    }
                    self.boxes.move_box(b, to);
                    if mode == PairMode::Push && self.freeze.is_deadlock(board, &self.boxes, to) {
                        self.boxes.move_box(to, b);
                        continue;
                    }
                    let child_player = self.child_reach.fill(board, &self.boxes, end);
                    self.current[i] = to;
                    let found = test(&self.boxes, &self.current[..k], &self.child_reach);
                    self.child.clear();
                    self.child.extend_from_slice(&self.current[..k]);
                    self.current[i] = b;
                    self.boxes.move_box(to, b);
                    if found {
                        outcome = Outcome::Found;
                        break 'boxes;
                    }
                    self.child.sort_unstable();
                    if self.seen.insert(zobrist.fingerprint(&self.child, child_player)) {
                        self.queue.extend_from_slice(&self.child);
                        self.queue.push(child_player);
                    }
                }
            }
            self.boxes.clear_all(&self.current[..k]);
            if outcome == Outcome::Found {
                return outcome;
            }
        }
        outcome
    }
}

/// Puts into `out` (cleared first) the cells of `frozen` (boxes that never move again,
/// sorted; `out` keeps their order) within `margin` squares, by row and by column, of the
/// rectangle round `around`.
pub fn fixed_near(board: &Board, frozen: &[Cell], around: &[Cell], margin: u32, out: &mut Vec<Cell>) {
    out.clear();
    if frozen.is_empty() || around.is_empty() {
        return;
    }
    let (mut x0, mut y0, mut x1, mut y1) = (u32::MAX, u32::MAX, 0, 0);
    for &c in around {
        let (x, y) = board.xy(c);
        let (x, y) = (x as u32, y as u32);
        (x0, y0, x1, y1) = (x0.min(x), y0.min(y), x1.max(x), y1.max(y));
    }
    let (x0, y0, x1, y1) = (x0.saturating_sub(margin), y0.saturating_sub(margin), x1 + margin, y1 + margin);
    for &c in frozen {
        let (x, y) = board.xy(c);
        let (x, y) = (x as u32, y as u32);
        if (x0..=x1).contains(&x) && (y0..=y1).contains(&y) {
            out.push(c);
        }
    }
}

/// A key of the fixed boxes `fixed`, to be XORed into a verdict's key (0 for none): verdicts
/// with different fixed boxes differ.
pub fn fixed_key(board: &Board, fixed: &[Cell]) -> u128 {
    fixed.iter().fold(0, |k, &c| k ^ board.zobrist().box_key(c).0.rotate_left(17))
}

#[cfg(test)]
mod tests {
    use super::*;
    use bisolve_board::Level;

    /// Whether the search on the boxes at `moving`, the boxes at `fixed` as walls (and the
    /// level's other boxes removed), gets a box onto the square `goal`.
    fn reaches(
        text: &str,
        moving: &[(usize, usize)],
        fixed: &[(usize, usize)],
        goal: (usize, usize),
    ) -> bool {
        let level = Level::parse(text).expect("valid level");
        let board = level.board();
        let at = |&(x, y): &(usize, usize)| board.cell(x, y).expect("floor");
        let goal = at(&goal);
        let fixed: Vec<Cell> = fixed.iter().map(at).collect();
        let mut moving: Vec<Cell> = moving.iter().map(at).collect();
        moving.sort_unstable();
        let mut search = SubsetSearch::new(board.n_cells());
        let player = search.region_min(board, &moving, &fixed, level.start().player);
        let outcome = search
            .run(board, PairMode::Push, &moving, &fixed, player, 1000, |_, boxes, _| boxes.contains(&goal));
        outcome == Outcome::Found
    }

    #[test]
    fn fixed_boxes_stand_as_walls() {
        // Two boxes in a corridor with the goal beyond the second: removed, the second box
        // leaves the way free; fixed, it blocks the first box and never moves itself.
        let corridor = "#########\n#@$ *  .#\n#########\n";
        assert!(reaches(corridor, &[(2, 1)], &[], (7, 1)));
        assert!(!reaches(corridor, &[(2, 1)], &[(4, 1)], (7, 1)));
    }

    #[test]
    fn fixed_boxes_block_the_player_too() {
        // The player walks down and along the bottom row to get behind the box; a fixed box
        // on that row shuts it in its pocket.
        let level = "#######\n#@#  .#\n# # $ #\n# *   #\n#######\n";
        assert!(reaches(level, &[(4, 2)], &[], (5, 1)));
        assert!(!reaches(level, &[(4, 2)], &[(2, 3)], (5, 1)));
    }

    #[test]
    fn fixed_near_takes_the_frozen_boxes_round_the_searched_ones() {
        let level =
            Level::parse("##########\n#*      *#\n#   $    #\n#@      .#\n##########\n").expect("valid");
        let board = level.board();
        let at = |x, y| board.cell(x, y).expect("floor");
        let frozen = vec![at(1, 1), at(8, 1)];
        let mut out = Vec::new();
        fixed_near(board, &frozen, &[at(4, 2)], 3, &mut out);
        assert_eq!(out, vec![at(1, 1)]);
        fixed_near(board, &frozen, &[at(4, 2)], 4, &mut out);
        assert_eq!(out, frozen);
        fixed_near(board, &frozen, &[at(8, 3)], 2, &mut out);
        assert_eq!(out, vec![at(8, 1)]);
        assert_eq!(fixed_key(board, &[]), 0);
        assert_ne!(fixed_key(board, &out), 0);
    }
}
