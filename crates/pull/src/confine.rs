//! Confined players: the backward search's corral deadlocks.
//!
//! A backward search ends on the start position, so the player must end up in the start
//! player's region. When the player's region `R` in a backward state misses the start
//! player's square, the player has to leave `R` some time. Pulling only ever draws a box
//! towards the player: the boxes that can move while the player stays in `R` are the ones
//! next to it (its fence), each pulled into `R`, and the player leaves `R` only through a
//! square one of them has freed. A small search of pulls on the fence boxes alone (the other
//! boxes removed, [`bisolve_deadlock::subset`]) that never gives the player a fence square
//! proves the state can never be pulled into the start.
//!
//! This is how the backward search gets stuck near the start: a box pulled up a dead-end
//! corridor onto its start square leaves the player inside the corridor behind it (XSokoban
//! 40), and the position, every box in place, looks solved to the lower bound.
//!
//! Verdicts are cached per thread under the fence boxes and the region (its smallest square).

use bisolve_board::{Board, Cell, Reach, NO_CELL};
use bisolve_deadlock::pairs::PairMode;
use bisolve_deadlock::subset::{Outcome, SubsetSearch, VerdictCache};

/// The most states one confinement search may see before it gives up (no verdict).
pub const BUDGET: usize = 1_000;

/// Per-thread working memory and counters of the confinement test.
#[derive(Debug)]
pub struct ConfineCheck {
    search: SubsetSearch,
    cache: VerdictCache,
    fence: Vec<Cell>,
    /// States the test was asked about whose region misses the start player's square.
    pub checks: u64,
    /// Searches run (cache misses).
    pub searches: u64,
    /// Searches that ran out of budget (no verdict, the state is kept).
    pub gave_up: u64,
    /// States found confined for good (pruned).
    pub proved: u64,
}

impl ConfineCheck {
    /// Working memory for a board with `n_cells` cells.
    pub fn new(n_cells: usize) -> ConfineCheck {
        ConfineCheck {
            search: SubsetSearch::new(n_cells),
            cache: VerdictCache::default(),
            fence: Vec::new(),
            checks: 0,
            searches: 0,
            gave_up: 0,
            proved: 0,
        }
    }

    /// Whether the backward state with `boxes` (sorted), whose player region is filled in
    /// `region` (smallest square `region_min`), can never be pulled into a position whose
    /// player region holds `start_player`: the player can never leave its region.
    pub fn is_dead(
        &mut self,
        board: &Board,
        boxes: &[Cell],
        region: &Reach,
        region_min: Cell,
        start_player: Cell,
    ) -> bool {
        if region.contains(start_player) {
            return false;
        }
        self.checks += 1;
        self.fence.clear();
        self.fence.extend(
            boxes
                .iter()
                .copied()
                .filter(|&b| board.neighbours(b).iter().any(|&n| n != NO_CELL && region.contains(n))),
        );
        if self.fence.is_empty() {
            // Nothing to pull: the player stays where it is.
            self.proved += 1;
            return true;
        }
        let key = board.zobrist().fingerprint(&self.fence, region_min).0;
        if let Some(dead) = self.cache.get(key) {
            self.proved += u64::from(dead);
            return dead;
        }
        self.searches += 1;
        let fence = &self.fence;
        // The player leaves the region only through a square a fence box stood on.
        let outcome =
            self.search.run(board, PairMode::Pull, fence, &[], region_min, BUDGET, |_, _, reach| {
                fence.iter().any(|&c| reach.contains(c))
            });
        let dead = outcome == Outcome::Exhausted;
        self.gave_up += u64::from(outcome == Outcome::OutOfBudget);
        self.proved += u64::from(dead);
        self.cache.insert(key, dead);
        dead
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bisolve_board::{BoxMap, Level};

    fn level(text: &str) -> Level {
        Level::parse(text).expect("valid level")
    }

    /// Whether the state with `boxes` and the player on `player` is confined for good.
    fn confined(level: &Level, boxes: &[Cell], player: Cell) -> bool {
        let board = level.board();
        let mut map = BoxMap::new(board.n_cells());
        map.set_all(boxes);
        let mut reach = Reach::new(board.n_cells());
        let min = reach.fill(board, &map, player);
        let mut check = ConfineCheck::new(board.n_cells());
        check.is_dead(board, boxes, &reach, min, level.start().player)
    }

    #[test]
    fn a_player_behind_a_box_in_a_dead_end_is_confined() {
        // The corridor on the left is a dead end; the start player stands outside it.
        let level = level(
            "######\n\
             #    #\n\
             # #$ #\n\
             # #  #\n\
             # #. #\n\
             # ##@#\n\
             ######\n",
        );
        let board = level.board();
        let at = |x: usize, y: usize| board.cell(x, y).expect("floor");
        // A box in the corridor's mouth with the player below it in the corridor.
        assert!(confined(&level, &[at(1, 2)], at(1, 4)));
        // The same box with the player outside is not confined (the region holds the start).
        assert!(!confined(&level, &[at(1, 2)], at(3, 3)));
    }

    #[test]
    fn a_fence_the_player_can_pull_open_is_not_confined() {
        // The player is shut in a 3x3 room by one box in its door; pulling the box in twice
        // frees the door. In a room two wide the second pull has no room to step back.
        let wide = level(
            "########\n\
             #   #  #\n\
             #   $ @#\n\
             #   #. #\n\
             ########\n",
        );
        let at = |x: usize, y: usize| wide.board().cell(x, y).expect("floor");
        assert!(!confined(&wide, &[at(4, 2)], at(1, 1)));
        let narrow = level(
            "#######\n\
             #  #  #\n\
             #  $ @#\n\
             #  #. #\n\
             #######\n",
        );
        let at = |x: usize, y: usize| narrow.board().cell(x, y).expect("floor");
        assert!(confined(&narrow, &[at(3, 2)], at(1, 1)));
    }
}
