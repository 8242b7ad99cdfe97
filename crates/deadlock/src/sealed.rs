//! Sealed targets: an empty goal that no box can ever be pushed into again (forward search),
//! or an empty start square that no box can ever be pulled onto again (backward search).
//!
//! Pushing, a box enters goal `g` from a neighbour `n = g + d`, with the player on
//! `m = g + 2d`. When a push leaves an empty goal with every such pair blocked (a wall or a
//! box on `n` or on `m`, for each of the four sides), the goal is *sealed* for now. The test
//! then takes the boxes near the goal (those within [`RADIUS`] steps of it, walls blocking the
//! way; every `n` and `m` is among them) and searches their pushes alone, the other boxes
//! removed ([`crate::subset`]), for a position in which one of them stands on `g`, or some `n`
//! and `m` are both free of them with `m` in the player's region. If no such position exists,
//! the state is dead.
//!
//! Why: in a solution, `g` ends with a box on it. Take the first push that puts one there.
//! If that box is one of the kept ones, the kept boxes' pushes, replayed alone, put it there
//! too. If it is another box, it stood on some `n` with the player on `m` just before, so
//! neither square held a kept box, and the player's region with fewer boxes on the board
//! holds `m`. That moment is not the start (the goal was sealed then, by kept boxes only,
//! since every `n` and `m` is within the radius; when boxes there had to be left out, the
//! start is tested too), so the search, which tests every position made by a push, meets it.
//!
//! Pulling is the mirror image. The backward search must bring a box onto every start square
//! `s`; a box enters `s` from `n = s + d` with the player standing on `s` and stepping back to
//! `q = s - d`. A start square is sealed when on each side `n` or `q` is a wall or a box, and
//! the way in that the search looks for is `n` and `q` free of kept boxes with `s` in the
//! player's region. The same argument, with pulls, makes the test sound.
//!
//! Boxes frozen on goals (they never move again) are not kept but *fixed*: those within
//! [`FIXED_MARGIN`] squares of the target stand on the board as walls ([`crate::subset`]),
//! so a goal walled in by frozen boxes farther out than the kept ones is still seen sealed.
//!
//! Verdicts are cached per thread by the target, the kept boxes, the fixed ones and the
//! player's region among them, so a sealed target seen again costs one lookup. This is the deadlock learning of the
//! searches: a pattern once proved dead prunes every later state that contains it.

use std::collections::VecDeque;

use crate::pairs::PairMode;
use crate::subset::{fixed_key, fixed_near, Outcome, SubsetSearch, VerdictCache};
use bisolve_board::{Board, BoxMap, Cell, Dir, Reach, NO_CELL};

/// How far (in steps over floor, walls blocking) from a sealed target the kept boxes may be.
pub const RADIUS: u32 = 3;

/// The most boxes one search keeps (the nearest ones); more are left out, which only makes
/// the test weaker.
pub const MAX_BOXES: usize = 10;

/// The most states one search visits before it gives up without a verdict.
pub const MAX_STATES: usize = 2000;

/// How far (by row and by column) from a sealed target the frozen boxes that stand as walls
/// in its search may be.
pub const FIXED_MARGIN: u32 = RADIUS + 2;

/// Where to look for sealed targets on one board and in one direction, computed once.
#[derive(Debug, Clone)]
pub struct SealedTargets {
    mode: PairMode,
    /// Per cell: the targets within [`RADIUS`] steps (a move onto the cell may seal them, or
    /// change the boxes near them).
    near: Vec<Vec<Cell>>,
    /// Per cell: for targets, the index of their window; `u32::MAX` elsewhere.
    index: Vec<u32>,
    /// Per target: the cells within [`RADIUS`] steps of it, nearest first, the target itself
    /// left out.
    window: Vec<Vec<Cell>>,
}

impl SealedTargets {
    /// The targets' neighbourhoods on `board`: goals for `PairMode::Push`, start squares for
    /// `PairMode::Pull`.
    pub fn new(board: &Board, mode: PairMode) -> SealedTargets {
        let n = board.n_cells();
        let targets = match mode {
            PairMode::Push => board.goals(),
            PairMode::Pull => board.start_squares(),
        };
        let mut near = vec![Vec::new(); n];
        let mut index = vec![u32::MAX; n];
        let mut window = Vec::with_capacity(targets.len());
        let mut dist = vec![u32::MAX; n];
        let mut queue = VecDeque::new();
        for &g in targets {
            index[g as usize] = window.len() as u32;
            let mut cells = Vec::new();
            dist[g as usize] = 0;
            queue.push_back(g);
            while let Some(c) = queue.pop_front() {
                near[c as usize].push(g);
                if c != g {
                    cells.push(c);
                }
                let dc = dist[c as usize];
                if dc == RADIUS {
                    continue;
                }
                for &nb in board.neighbours(c) {
                    if nb != NO_CELL && dist[nb as usize] == u32::MAX {
                        dist[nb as usize] = dc + 1;
                        queue.push_back(nb);
                    }
                }
            }
            dist[g as usize] = u32::MAX;
            for &c in &cells {
                dist[c as usize] = u32::MAX;
            }
            window.push(cells);
        }
        SealedTargets { mode, near, index, window }
    }

    /// The two squares of the way into `t` from side `d`: where the box comes from, and where
    /// the player stands (pushing: behind the box) or ends (pulling: behind the target).
    #[inline]
    fn way(&self, board: &Board, t: Cell, d: Dir) -> (Cell, Cell) {
        let n = board.neighbour(t, d);
        let player = match self.mode {
            PairMode::Push if n != NO_CELL => board.neighbour(n, d),
            PairMode::Push => NO_CELL,
            PairMode::Pull => board.neighbour(t, d.opposite()),
        };
        (n, player)
    }

    /// True if no box can enter `t` now: on each side a square of the way in is a wall or a
    /// box.
    fn is_sealed(&self, board: &Board, boxes: &BoxMap, t: Cell) -> bool {
        Dir::ALL.iter().all(|&d| {
            let (n, p) = self.way(board, t, d);
            n == NO_CELL || p == NO_CELL || boxes.is_box(n) || boxes.is_box(p)
        })
    }

    /// True if a box could enter `t` from some side: both squares of the way in hold no box
    /// and the player can reach the square it must stand on first.
    fn is_open(&self, board: &Board, is_box: impl Fn(Cell) -> bool, reach: &Reach, t: Cell) -> bool {
        Dir::ALL.iter().any(|&d| {
            let (n, p) = self.way(board, t, d);
            let stand = match self.mode {
                PairMode::Push => p,
                PairMode::Pull => t,
            };
            n != NO_CELL && p != NO_CELL && !is_box(n) && !is_box(p) && reach.contains(stand)
        })
    }
}

/// Working memory of the sealed-target test, one per thread.
#[derive(Debug)]
pub struct SealedCheck {
    search: SubsetSearch,
    /// Verdicts by [`SealedCheck::key`].
    cache: VerdictCache,
    kept: Vec<Cell>,
    fixed: Vec<Cell>,
    /// Searches run (cache misses).
    pub searches: u64,
    /// Searches that saw [`MAX_STATES`] states without a verdict.
    pub gave_up: u64,
    /// Searches run with frozen boxes as walls.
    pub fixed_searches: u64,
    /// Sealed targets whose verdict was not cached under the child's own player square, so
    /// the player's region among the kept boxes had to be filled.
    pub checks: u64,
    /// Deadlocks proved (cached verdicts included).
    pub proved: u64,
}

impl SealedCheck {
    /// Working memory for a board with `n_cells` cells.
    pub fn new(n_cells: usize) -> SealedCheck {
        SealedCheck {
            search: SubsetSearch::new(n_cells),
            cache: VerdictCache::default(),
            kept: Vec::new(),
            fixed: Vec::new(),
            searches: 0,
            gave_up: 0,
            fixed_searches: 0,
            checks: 0,
            proved: 0,
        }
    }

    /// The cache key of target `t` with the boxes on `kept` and the player in the region of
    /// `player` among them.
    fn key(board: &Board, kept: &[Cell], player: Cell, t: Cell) -> u128 {
        board.zobrist().fingerprint(kept, player).0 ^ board.zobrist().box_key(t).0.rotate_left(1)
    }

    /// True if a move onto `to`, giving the position `boxes` with the player in the region of
    /// `player`, leaves a target near `to` sealed for good. `frozen` (sorted) are boxes of the
    /// position that never move again, none of them the one on `to`; `&[]` is always sound.
    pub fn is_dead(
        &mut self,
        targets: &SealedTargets,
        board: &Board,
        boxes: &BoxMap,
        to: Cell,
        player: Cell,
        frozen: &[Cell],
    ) -> bool {
        for &t in &targets.near[to as usize] {
            if boxes.is_box(t) || !targets.is_sealed(board, boxes, t) {
                continue;
            }
            let window = &targets.window[targets.index[t as usize] as usize];
            self.kept.clear();
            self.kept.extend(
                window
                    .iter()
                    .copied()
                    .filter(|&c| boxes.is_box(c) && frozen.binary_search(&c).is_err())
                    .take(MAX_BOXES),
            );
            self.kept.sort_unstable();
            fixed_near(board, frozen, &[t], FIXED_MARGIN, &mut self.fixed);
            let fixed = fixed_key(board, &self.fixed);
            // The verdict belongs to the target, the kept boxes and the player's region among
            // them, so any square of that region keys it: the child's player square first,
            // which spares the fill when the same pattern comes back.
            let quick = Self::key(board, &self.kept, player, t) ^ fixed;
            let dead = match self.cache.get(quick) {
                Some(dead) => dead,
                None => {
                    self.checks += 1;
                    let region = self.search.region_min(board, &self.kept, &self.fixed, player);
                    let (kept, held) = (&self.kept, &self.fixed);
                    let is_box = |c| kept.binary_search(&c).is_ok() || held.binary_search(&c).is_ok();
                    if targets.is_open(board, is_box, self.search.reach(), t) {
                        // Only when boxes next to the target were left out: not sealed among
                        // the kept ones.
                        continue;
                    }
                    let key = Self::key(board, &self.kept, region, t) ^ fixed;
                    let dead = match self.cache.get(key) {
                        Some(dead) => dead,
                        None => {
                            self.searches += 1;
                            self.fixed_searches += u64::from(!self.fixed.is_empty());
                            let outcome = self.search.run(
                                board,
                                targets.mode,
                                &self.kept,
                                &self.fixed,
                                region,
                                MAX_STATES,
                                |map, kept, reach| {
                                    kept.contains(&t) || targets.is_open(board, |c| map.is_box(c), reach, t)
                                },
                            );
                            self.gave_up += u64::from(outcome == Outcome::OutOfBudget);
                            outcome == Outcome::Exhausted
                        }
                    };
                    self.cache.insert(key, dead);
                    self.cache.insert(quick, dead);
                    dead
                }
            };
            if dead {
                self.proved += 1;
                return true;
            }
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bisolve_board::Level;

    /// Whether the test calls the start position of `text` dead, taking each box in turn as
    /// the one just pushed.
    fn dead(text: &str) -> bool {
        let level = Level::parse(text).expect("valid level");
        let board = level.board();
        let start = level.start();
        let goals = SealedTargets::new(board, PairMode::Push);
        let mut check = SealedCheck::new(board.n_cells());
        let mut map = BoxMap::new(board.n_cells());
        map.set_all(&start.boxes);
        start.boxes.iter().any(|&to| check.is_dead(&goals, board, &map, to, start.player, &[]))
    }

    #[test]
    fn a_goal_that_can_only_be_filled_by_walling_the_player_off_is_dead() {
        // The goal on the left under the two top boxes: filling it from above freezes the
        // box below it, and the box below can only be pushed up from the lower room, which
        // the player can no longer reach (found by `bisolve generate`; a plain search agrees
        // the position is unsolvable). No box is frozen yet and each can reach a goal alone.
        assert!(dead("#######\n#@.   #\n#$   ##\n#.*####\n#. #  #\n#$  $ #\n#     #\n#######\n"));
    }

    #[test]
    fn a_sealed_goal_a_box_can_still_be_pushed_into_is_not_dead() {
        // The goal is sealed (the box is two squares from it), but pushing the box twice
        // fills it.
        assert!(!dead("######\n#@$ .#\n######\n"));
        // Sealed by a box next to it that the player can push in.
        assert!(!dead("#####\n#@$.#\n#####\n"));
    }

    /// The boxes of the level's start that stand on goals frozen, sorted.
    fn frozen_on_goals(board: &bisolve_board::Board, map: &BoxMap, boxes: &[Cell]) -> Vec<Cell> {
        use crate::freeze::{FreezeCheck, Verdict};
        let mut freeze = FreezeCheck::default();
        let mut out: Vec<Cell> = boxes
            .iter()
            .copied()
            .filter(|&b| freeze.check(board, map, b) == Verdict::FrozenOnGoals)
            .collect();
        out.sort_unstable();
        out
    }

    #[test]
    fn frozen_boxes_beyond_the_kept_ones_seal_a_goal_as_walls() {
        // The goal's only way in has the player on the middle of a 2x4 block of boxes frozen
        // in the corner. Within three steps of the goal are only some of the block's boxes;
        // alone, they can be shuffled about until a box gets in. With the block fixed as
        // walls, nothing can.
        let level = Level::parse("########\n#** ####\n#** .###\n#**$####\n#** @  #\n########\n")
            .expect("valid level");
        let board = level.board();
        let start = level.start();
        let goals = SealedTargets::new(board, PairMode::Push);
        let mut map = BoxMap::new(board.n_cells());
        map.set_all(&start.boxes);
        let frozen = frozen_on_goals(board, &map, &start.boxes);
        assert_eq!(frozen.len(), 8, "the whole block is frozen");
        let loose = board.cell(3, 3).expect("floor");
        let mut check = SealedCheck::new(board.n_cells());
        assert!(!check.is_dead(&goals, board, &map, loose, start.player, &[]));
        assert_eq!(check.searches, 1, "the goal is sealed, so it was searched");
        assert!(check.is_dead(&goals, board, &map, loose, start.player, &frozen));
        assert_eq!(check.searches, 2, "the fixed boxes key a verdict of their own");
    }

    #[test]
    fn an_open_goal_is_never_searched() {
        let level = Level::parse("#######\n#@$  .#\n#######\n").expect("valid level");
        let board = level.board();
        let goals = SealedTargets::new(board, PairMode::Push);
        let mut check = SealedCheck::new(board.n_cells());
        let mut map = BoxMap::new(board.n_cells());
        map.set_all(&level.start().boxes);
        let to = level.start().boxes[0];
        assert!(!check.is_dead(&goals, board, &map, to, level.start().player, &[]));
        assert_eq!((check.checks, check.searches), (0, 0));
    }
}
