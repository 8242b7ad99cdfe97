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
//!
//! Boxes frozen on goals (they never move again) among and near the fence are *fixed*: they
//! stand on the board as walls in the search and are not pushed, and the verdict is keyed by
//! them too (see [`bisolve_deadlock::subset`]).

use bisolve_board::{Board, Cell};

use bisolve_deadlock::pairs::PairMode;
use bisolve_deadlock::subset::{fixed_key, fixed_near, Outcome, SubsetSearch, VerdictCache};

/// The most states one corral search visits before it gives up without a verdict.
pub const MAX_STATES: usize = 2000;

/// The most fence boxes a corral may have to be searched; larger ones are left alone.
pub const MAX_FENCE: usize = 12;

/// How far (by row and by column) from the fence the frozen boxes that stand as walls in its
/// search may be.
pub const FIXED_MARGIN: u32 = 2;

/// Working memory of the corral search, one per thread.
#[derive(Debug)]
pub struct CorralDeadlocks {
    search: SubsetSearch,
    cache: VerdictCache,
    fixed: Vec<Cell>,
    /// Searches run (cache misses) and deadlocks they proved.
    pub searches: u64,
    /// Searches run with frozen boxes as walls.
    pub fixed_searches: u64,
    /// Deadlocks proved (cached verdicts included).
    pub proved: u64,
}

impl CorralDeadlocks {
    /// Working memory for a board with `n_cells` cells.
    pub fn new(n_cells: usize) -> CorralDeadlocks {
        CorralDeadlocks {
            search: SubsetSearch::new(n_cells),
            cache: VerdictCache::default(),
            fixed: Vec::new(),
            searches: 0,
            fixed_searches: 0,
            proved: 0,
        }
    }

    /// True if the corral of free cells `corral` fenced by the boxes on `fence` can never be
    /// opened nor finished, with the player anywhere in the region of `player`. `frozen`
    /// (sorted) are boxes of the position that never move again; `&[]` is always sound.
    pub fn is_dead(
        &mut self,
        board: &Board,
        fence: &[Cell],
        corral: &[Cell],
        player: Cell,
        frozen: &[Cell],
    ) -> bool {
        if fence.is_empty() || fence.len() > MAX_FENCE {
            return false;
        }
        fixed_near(board, frozen, fence, FIXED_MARGIN, &mut self.fixed);
        let mut start: Vec<Cell> =
            fence.iter().copied().filter(|c| frozen.binary_search(c).is_err()).collect();
        if start.is_empty() {
            // A fence of frozen boxes only: nothing can open it, and the corral's test (some
            // box off a goal or some goal inside) is the caller's; search nothing here.
            return false;
        }
        start.sort_unstable();
        let start_player = self.search.region_min(board, &start, &self.fixed, player);
        let key = board.zobrist().fingerprint(&start, start_player).0 ^ fixed_key(board, &self.fixed);
        let dead = match self.cache.get(key) {
            Some(dead) => dead,
            None => {
                self.searches += 1;
                self.fixed_searches += u64::from(!self.fixed.is_empty());
                let outcome = self.search.run(
                    board,
                    PairMode::Push,
                    &start,
                    &self.fixed,
                    start_player,
                    MAX_STATES,
                    |_, boxes, reach| {
                        corral.iter().any(|&c| reach.contains(c)) || boxes.iter().all(|&c| board.is_goal(c))
                    },
                );
                let dead = outcome == Outcome::Exhausted;
                self.cache.insert(key, dead);
                dead
            }
        };
        self.proved += u64::from(dead);
        dead
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corral::{Corral, CorralCheck};
    use bisolve_board::{BoxMap, Level, Reach};

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
            &[],
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
