//! What a solve reports: its outcome, the verified solution and what it cost, and how they are
//! made from what the workers found (stitched, written as LURD and replayed).

use std::time::Duration;

use bisolve_board::moves::{pushes_to_steps, replay, steps_to_lurd, ReplayError};
use bisolve_board::search::{Expander, Side};
use bisolve_board::{Level, Objective, State};

use crate::limits::Cutoff;
use crate::stats::{ClosestPath, Stats};
use crate::stitch::{stitch, StitchError};
use crate::table::VisitedTable;
use crate::worker::Found;

/// A verified solution.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    /// The moves, LURD (walks lower case, pushes upper case).
    pub lurd: String,
    /// Player moves.
    pub moves: usize,
    /// Pushes.
    pub pushes: usize,
    /// How the search found it.
    pub found_by: FoundBy,
}

/// Which search produced a solution.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FoundBy {
    /// The level was solved at the start.
    Start,
    /// The forward search reached a solved position.
    Forward,
    /// The backward search reached the start position.
    Backward,
    /// The two searches met in the visited table.
    Meeting,
}

impl FoundBy {
    /// A short name for reports.
    pub fn name(self) -> &'static str {
        match self {
            FoundBy::Start => "start",
            FoundBy::Forward => "forward",
            FoundBy::Backward => "backward",
            FoundBy::Meeting => "meeting",
        }
    }
}

/// How a solve ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Solved, with a replayed solution.
    Solved(Solution),
    /// Proven unsolvable: a search ran out of states under sound pruning (or the level's
    /// text shows it, see [`Report::note`]).
    Unsolvable,
    /// Stopped by a limit or by the caller.
    Cutoff(Cutoff),
}

impl Outcome {
    /// The status word of the command-line contract.
    pub fn status(&self) -> &'static str {
        match self {
            Outcome::Solved(_) => "solved",
            Outcome::Unsolvable => "unsolvable",
            Outcome::Cutoff(c) => c.status(),
        }
    }
}

/// The result of a solve: the outcome and what it cost.
#[derive(Clone, Debug)]
pub struct Report {
    /// How it ended.
    pub outcome: Outcome,
    /// Effort and memory.
    pub stats: Stats,
    /// Wall-clock time.
    pub elapsed: Duration,
    /// Worker threads used.
    pub threads: usize,
    /// The strategy used (its name; a portfolio lists its members).
    pub strategy: String,
    /// A remark on the outcome (why the level is unsolvable, for instance).
    pub note: Option<String>,
    /// For an optimal search ([`crate::optimal`]): whether the solution is proven optimal, and
    /// the lower bound it reached. `None` for the other searches.
    pub optimality: Option<Optimality>,
}

/// What an optimal search ([`crate::optimal`]) proved of its answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Optimality {
    /// What counts first.
    pub objective: Objective,
    /// True when the solution is proven optimal for the objective (the first length the fewest,
    /// and the second the fewest among those).
    pub proven: bool,
    /// What every solution needs at least, in the objective's first length (pushes or moves):
    /// the solution's own when proven, else the least key still open when the search stopped.
    pub lower_bound: u32,
}

/// An engine failure: a path that could not be rebuilt or a stitched solution that does not
/// replay. Never reported as a solution.
#[derive(Debug, Clone, thiserror::Error)]
pub enum SolveError {
    /// Parent links did not lead back to a root.
    #[error("internal error: could not rebuild the solution: {0}")]
    Stitch(#[from] StitchError),
    /// The rebuilt solution does not solve the level.
    #[error("internal error: the rebuilt solution does not replay: {0}")]
    Replay(String),
    /// A worker thread panicked.
    #[error("internal error: a search thread panicked")]
    Panic,
    /// The portfolio's thread pool could not be started.
    #[error("could not start the search threads: {0}")]
    Threads(String),
}

/// The closest state of several workers' (see [`Worker::closest_state`]): the smallest bound,
/// the first of equal ones, so one thread stays deterministic.
pub(crate) fn closest_of<'s>(states: impl Iterator<Item = Option<(u32, &'s State)>>) -> Option<(u32, State)> {
    states.flatten().min_by_key(|(h, _)| *h).map(|(h, s)| (h, s.clone()))
}

/// The way from the start to a forward state of bound `h`, read from the table and replayed;
/// `None` if the table does not lead back to the start.
pub(crate) fn closest_path<F: Expander>(
    level: &Level,
    fwd: &F,
    table: &VisitedTable,
    (h, state): &(u32, State),
) -> Option<ClosestPath> {
    let found = Found::Goal { side: Side::Forward, state: state.clone() };
    let pushes = stitch(Some(fwd), None::<&F>, level.board(), table, &found).ok()?;
    let steps = pushes_to_steps(level.board(), level.start(), &pushes).ok()?;
    // Legal moves that leave boxes off goals, as a closest state does (or none, if it is one).
    match replay(level.board(), level.start(), &steps) {
        Ok(_) | Err(ReplayError::Unsolved { .. }) => {}
        Err(_) => return None,
    }
    Some(ClosestPath { h: *h, lurd: steps_to_lurd(&steps) })
}

/// True when a direction has no root: forward, the start position is already dead (a box on
/// a dead square, frozen, or no matching of boxes to goals); backward, no solved position can
/// be pulled from. Either proves the level unsolvable, so a search in the other direction
/// alone need not run until it is exhausted to find out.
pub(crate) fn dead_root<E: Expander>(exp: &E) -> bool {
    exp.roots(&mut exp.new_scratch()).is_empty()
}

/// Rebuilds the push sequence of what a worker found, writes it as LURD and replays it on the
/// level.
pub(crate) fn solution_of<F: Expander, B: Expander>(
    level: &Level,
    fwd: Option<&F>,
    bwd: Option<&B>,
    table: &VisitedTable,
    found: &Found,
) -> Result<Solution, SolveError> {
    let (board, start) = (level.board(), level.start());
    let pushes = stitch(fwd, bwd, board, table, found)?;
    let found_by = match found {
        _ if pushes.is_empty() => FoundBy::Start,
        Found::Goal { side: Side::Forward, .. } => FoundBy::Forward,
        Found::Goal { side: Side::Backward, .. } => FoundBy::Backward,
        Found::Meeting { .. } => FoundBy::Meeting,
    };
    let steps = pushes_to_steps(board, start, &pushes).map_err(|e| SolveError::Replay(e.to_string()))?;
    let counts = replay(board, start, &steps).map_err(|e| SolveError::Replay(e.to_string()))?;
    Ok(Solution { lurd: steps_to_lurd(&steps), moves: counts.moves, pushes: counts.pushes, found_by })
}
