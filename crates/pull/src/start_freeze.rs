//! Backward states the start position can never be pushed into, found by the forward freeze
//! test run on the start position with the state's boxes as its goals.
//!
//! A backward state is worth expanding only if the start can be pushed into it. Read the
//! state's box squares as goals: a square is dead when a lone box on it can be pushed to none
//! of them ([`PushReach`]), and a box of the start position that is frozen there (walls, such
//! dead squares and other frozen boxes block it on both axes) off the state's squares can
//! never move onto one, so no push sequence from the start reaches the state. Example
//! (Sasquatch 17): two start boxes side by side under a row of goals, one with a wall below,
//! can only be separated by pushing the other up into that row, which a box never leaves; a
//! backward state that has pulled every box out of the row and left either square empty is
//! out of reach, and so is everything the backward search would pull from it. Sampled
//! backward states of that level were all of this kind.

use bisolve_board::{Board, BoxMap, Cell, Dir, PushReach, State, NO_CELL};
use bisolve_deadlock::freeze::{FreezeCheck, Verdict};

/// The start position and where lone boxes can be pushed, for the test.
#[derive(Debug)]
pub struct StartFreeze {
    reach: PushReach,
    start: BoxMap,
    /// The start boxes that can be frozen at all: on each axis a wall or another start box
    /// beside them, or two squares that reach few others (see [`StartFreeze::new`]).
    candidates: Vec<Cell>,
}

/// A square from which a lone box reaches more than this share of the board's squares
/// (`n / FEW_SQUARES`) is taken to stay live: few states lack a box on all of them.
const FEW_SQUARES: usize = 4;

/// Per-thread working memory of the test.
#[derive(Debug, Clone)]
pub struct StartScratch {
    /// The squares of the state tested, as bits.
    targets: Vec<u64>,
    freeze: FreezeCheck,
}

impl StartFreeze {
    /// The test for a search towards `start`; `None` on boards too large for
    /// [`Board::push_reach`].
    ///
    /// Only start boxes that can be frozen are tested: a square beside a box on one axis
    /// keeps it free there unless it is a wall, another start box, or dead. A square from
    /// which a lone box reaches many others is dead only for states with no box on any of
    /// them, which are rare, so a box with such a square on both axes is not a candidate.
    /// Leaving a box out only ever keeps a state, so the test stays sound.
    pub fn new(board: &Board, start: &State) -> Option<StartFreeze> {
        let reach = board.push_reach()?;
        let mut map = BoxMap::new(board.n_cells());
        map.set_all(&start.boxes);
        let few = board.n_cells() / FEW_SQUARES;
        let may_block = |c: Cell| c == NO_CELL || map.is_box(c) || reach.count(c) <= few;
        let axis_may_block = |b: Cell, d: Dir| {
            let (x, y) = (board.neighbour(b, d), board.neighbour(b, d.opposite()));
            x == NO_CELL || y == NO_CELL || map.is_box(x) || map.is_box(y) || (may_block(x) && may_block(y))
        };
        let candidates = start
            .boxes
            .iter()
            .copied()
            .filter(|&b| axis_may_block(b, Dir::Left) && axis_may_block(b, Dir::Up))
            .collect();
        Some(StartFreeze { reach, start: map, candidates })
    }

    /// True if no start box can be frozen, whatever the state: the test never fires.
    pub fn is_idle(&self) -> bool {
        self.candidates.is_empty()
    }

    /// Working memory for one thread.
    pub fn scratch(&self) -> StartScratch {
        StartScratch { targets: vec![0; self.reach.words()], freeze: FreezeCheck::default() }
    }

    /// True if the start position can never be pushed into a position with boxes on `boxes`
    /// (`map` shows the same boxes).
    pub fn unreachable(&self, board: &Board, s: &mut StartScratch, boxes: &[Cell], map: &BoxMap) -> bool {
        // A frozen group whose boxes all sit on the state's squares is no obstacle, and a
        // group with one off them is found from that box: with every candidate on the
        // state's squares (as in states close to the start) there is nothing to test.
        if self.candidates.iter().all(|&b| map.is_box(b)) {
            return false;
        }
        s.targets.fill(0);
        for &b in boxes {
            s.targets[b as usize / 64] |= 1 << (b % 64);
        }
        let targets = &s.targets;
        let dead = |c: Cell| !self.reach.reaches_any(c, targets);
        let goal = |c: Cell| map.is_box(c);
        self.candidates.iter().any(|&b| {
            !map.is_box(b) && s.freeze.check_with(board, &self.start, b, &dead, &goal) == Verdict::Deadlock
        })
    }
}
