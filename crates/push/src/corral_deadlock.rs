//! Corral deadlocks: a small search on a corral's fence boxes alone proves that the corral
//! can never be opened.
//!
//! Take the boxes that fence a PI-corral, remove every other box, and search every sequence
//! of pushes of the fence boxes (dead squares and freeze deadlocks pruned). If no sequence
//! lets the player into the corral or puts every fence box on a goal, the state is dead:
//! a solution of the whole level, with the pushes of the other boxes left out, would be such
//! a sequence (removing boxes never makes a push illegal, and it ends with every box on a
//! goal), and a position that the freeze test calls dead with fewer boxes is dead with more.
//!
//! The search stops early, without a verdict, when it opens the corral or fills the goals
//! with the fence boxes, and when it has seen [`MAX_STATES`] states; only a search that runs
//! out of states proves a deadlock. Verdicts are cached per thread by the fingerprint of the
//! fence boxes and the player's region among them, so a corral seen again costs one lookup:
//! the verdict belongs to the fence and the region, whatever the other boxes do.

use std::collections::{HashMap, HashSet};

use bisolve_board::{Board, BoxMap, Cell, Dir, Fingerprint, Reach, NO_CELL};

use bisolve_board::freeze::FreezeCheck;

/// The most states one corral search visits before it gives up without a verdict.
pub const MAX_STATES: usize = 2000;

/// The most fence boxes a corral may have to be searched; larger ones are left alone.
pub const MAX_FENCE: usize = 12;

/// The most verdicts a thread caches; past it the cache starts afresh.
const MAX_CACHED: usize = 1 << 20;

/// Working memory of the corral search, one per thread.
#[derive(Debug)]
pub struct CorralDeadlocks {
    boxes: BoxMap,
    reach: Reach,
    child_reach: Reach,
    freeze: FreezeCheck,
    /// Per cell: the stamp of the corral being tested.
    in_corral: Vec<u32>,
    stamp: u32,
    cache: HashMap<Fingerprint, bool>,
    seen: HashSet<Fingerprint>,
    /// States to expand: `k` box cells then the player, `k + 1` cells each.
    queue: Vec<Cell>,
    current: Vec<Cell>,
    /// Searches run (cache misses) and deadlocks they proved.
    pub searches: u64,
    /// Deadlocks proved (cached verdicts included).
    pub proved: u64,
}

impl CorralDeadlocks {
    /// Working memory for a board with `n_cells` cells.
    pub fn new(n_cells: usize) -> CorralDeadlocks {
        CorralDeadlocks {
            boxes: BoxMap::new(n_cells),
            reach: Reach::new(n_cells),
            child_reach: Reach::new(n_cells),
            freeze: FreezeCheck::default(),
            in_corral: vec![0; n_cells],
            stamp: 0,
            cache: HashMap::new(),
            seen: HashSet::new(),
            queue: Vec::new(),
            current: Vec::new(),
            searches: 0,
            proved: 0,
        }
    }

    /// True if the corral of free cells `corral` fenced by the boxes on `fence` can never be
    /// opened nor finished, with the player anywhere in the region of `player`.
    pub fn is_dead(&mut self, board: &Board, fence: &[Cell], corral: &[Cell], player: Cell) -> bool {
        if fence.is_empty() || fence.len() > MAX_FENCE {
            return false;
        }
        let zobrist = board.zobrist();
        let mut start: Vec<Cell> = fence.to_vec();
        start.sort_unstable();
        self.boxes.set_all(&start);
        let start_player = self.reach.fill(board, &self.boxes, player);
        self.boxes.clear_all(&start);
        let key = zobrist.fingerprint(&start, start_player);
        let dead = match self.cache.get(&key) {
            Some(&dead) => dead,
            None => {
                self.searches += 1;
                let dead = self.search(board, &start, start_player, corral);
                if self.cache.len() >= MAX_CACHED {
                    self.cache.clear();
                }
                self.cache.insert(key, dead);
                dead
            }
        };
        self.proved += u64::from(dead);
        dead
    }

    fn search(&mut self, board: &Board, start: &[Cell], player: Cell, corral: &[Cell]) -> bool {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.in_corral.fill(0);
            self.stamp = 1;
        }
        for &c in corral {
            self.in_corral[c as usize] = self.stamp;
        }
        let zobrist = board.zobrist();
        let k = start.len();
        self.seen.clear();
        self.queue.clear();
        self.queue.extend_from_slice(start);
        self.queue.push(player);
        self.seen.insert(zobrist.fingerprint(start, player));
        let mut head = 0;
        while head < self.queue.len() {
            if self.seen.len() > MAX_STATES {
                return false;
            }
            self.current.clear();
            self.current.extend_from_slice(&self.queue[head..head + k + 1]);
            head += k + 1;
            let player = self.current[k];
            let boxes = &self.current[..k];
            self.boxes.set_all(boxes);
            self.reach.fill(board, &self.boxes, player);
            let mut open = false;
            for i in 0..k {
                let b = self.current[i];
                for d in Dir::ALL {
                    let to = board.neighbour(b, d);
                    let behind = board.neighbour(b, d.opposite());
                    if to == NO_CELL || behind == NO_CELL || !self.reach.contains(behind) {
                        continue;
                    }
                    if self.boxes.is_box(to) || board.is_push_dead(to) {
                        continue;
                    }
                    self.boxes.move_box(b, to);
                    if self.freeze.is_deadlock(board, &self.boxes, to) {
                        self.boxes.move_box(to, b);
                        continue;
                    }
                    let child_player = self.child_reach.fill(board, &self.boxes, b);
                    let opens = corral.iter().any(|&c| self.child_reach.contains(c));
                    self.current[i] = to;
                    let filled = self.current[..k].iter().all(|&c| board.is_goal(c));
                    if opens || filled {
                        self.current[i] = b;
                        self.boxes.move_box(to, b);
                        open = true;
                        break;
                    }
                    let mut child: Vec<Cell> = self.current[..k].to_vec();
                    child.sort_unstable();
                    self.current[i] = b;
                    self.boxes.move_box(to, b);
                    if self.seen.insert(zobrist.fingerprint(&child, child_player)) {
                        self.queue.extend_from_slice(&child);
                        self.queue.push(child_player);
                    }
                }
                if open {
                    break;
                }
            }
            self.boxes.clear_all(&self.current[..k]);
            if open {
                return false;
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corral::{Corral, CorralCheck};
    use bisolve_board::Level;

    /// Finds the PI-corral of the level's start and runs the corral search on it; `None` when
    /// the start has no PI-corral.
    fn dead(text: &str) -> Option<bool> {
        let level = Level::parse(text).expect("valid level");
        let board = level.board();
        let start = level.start();
        let mut map = BoxMap::new(board.n_cells());
        map.set_all(&start.boxes);
        let mut reach = Reach::new(board.n_cells());
        reach.fill(board, &map, start.player);
        let mut corrals = CorralCheck::new(board.n_cells());
        if !matches!(corrals.find(board, &map, &start.boxes, &reach), Corral::Only(_)) {
            return None;
        }
        let fence: Vec<Cell> = corrals.found_fence().iter().map(|&i| start.boxes[i]).collect();
        Some(CorralDeadlocks::new(board.n_cells()).is_dead(
            board,
            &fence,
            corrals.found_cells(),
            start.player,
        ))
    }

    #[test]
    fn an_openable_corral_is_not_dead() {
        // A pocket behind one box that can simply be pushed in.
        assert_eq!(dead("######\n#@$ .#\n######\n"), Some(false));
    }

    #[test]
    fn a_corral_its_fence_can_never_open_is_dead() {
        // Found by comparing verdicts with an exhaustive search on random rooms: the start
        // has a PI-corral whose fence boxes, searched on their own, can neither open it nor
        // all reach goals. The whole level is unsolvable (the exhaustive search agrees).
        assert_eq!(dead("#######\n#   $.#\n#  $ $#\n#   @.#\n#.##  #\n#######\n"), Some(true));
    }
}
