//! Small exhaustive searches on a few boxes alone, the other boxes removed: the engine of
//! the deadlock tests that solve a sub-problem (the forward search's corral deadlocks, and
//! [`crate::sealed`] in both directions).
//!
//! Removing boxes never makes a push or a pull illegal, and a position the freeze test calls
//! dead with fewer boxes is dead with more. So the moves that a solution of the whole level
//! makes with the kept boxes, in order and with the others left out, are a path of this
//! search: if a test must hold somewhere along every solution, and the search runs out of
//! states without meeting it, the position has no solution.

use std::collections::{HashMap, HashSet};
use std::hash::BuildHasherDefault;

use crate::freeze::FreezeCheck;
use crate::pairs::PairMode;
use crate::{Board, BoxMap, Cell, Dir, Fingerprint, PassThrough, Reach, NO_CELL};

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
        }
    }

    /// The normalized player square (smallest cell of the region of `player`) with only the
    /// boxes on `boxes` on the board.
    pub fn region_min(&mut self, board: &Board, boxes: &[Cell], player: Cell) -> Cell {
        self.boxes.set_all(boxes);
        let min = self.reach.fill(board, &self.boxes, player);
        self.boxes.clear_all(boxes);
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
    /// (`PairMode::Pull`) of the boxes on `start` (sorted), the other boxes removed, with the
    /// player starting anywhere in the region of `player`. Moves onto the direction's dead
    /// squares, and pushes that freeze a box off a goal, are not made. `test` is asked about
    /// every position made by a move (the root is not asked): its box map, its boxes (in no
    /// particular order) and the player's region.
    pub fn run<F>(
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
                    let mut child: Vec<Cell> = self.current[..k].to_vec();
                    self.current[i] = b;
                    self.boxes.move_box(to, b);
                    if found {
                        outcome = Outcome::Found;
                        break 'boxes;
                    }
                    child.sort_unstable();
                    if self.seen.insert(zobrist.fingerprint(&child, child_player)) {
                        self.queue.extend_from_slice(&child);
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
