//! Stitching: rebuild the push sequence from parent links in the visited table. The forward
//! half is read from the meeting state back to the start and reversed; the backward half is
//! read from the meeting state back to a solved position, each pull read as a push.

use bisolve_board::moves::Push;
use bisolve_board::search::{Expander, PackedMove, Side};
use bisolve_board::{Board, State};

use crate::table::VisitedTable;
use crate::worker::Found;

/// A path that cannot be rebuilt from the table. This means a bug or a fingerprint collision;
/// either way no solution is reported from it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StitchError {
    /// A state on the path is not in the table.
    #[error("a state on the {0} path is missing from the visited table")]
    Missing(&'static str),
    /// A record on the path belongs to the wrong side or its move cannot be undone.
    #[error("the {0} path is inconsistent")]
    Inconsistent(&'static str),
    /// The path does not end.
    #[error("the {0} path is longer than any search could make it")]
    TooLong(&'static str),
    /// The search that reached the state was not run.
    #[error("no {0} search to rebuild the path with")]
    NoSearch(&'static str),
}

/// The moves that led from the root of `exp`'s side to `state`, last move first.
fn chain<E: Expander>(
    exp: &E,
    board: &Board,
    table: &VisitedTable,
    state: &State,
) -> Result<Vec<PackedMove>, StitchError> {
    let name = exp.side().name();
    let mut moves = Vec::new();
    let mut at = state.clone();
    // Parent links never cycle (runs never decrease along them, and depths strictly decrease
    // within a run; see crate::table), so a path is never longer than the table.
    for _ in 0..=table.len() {
        let record = table.get(at.fingerprint(board)).ok_or(StitchError::Missing(name))?;
        if record.side() != exp.side() {
            return Err(StitchError::Inconsistent(name));
        }
        if record.mv().is_root() {
            return Ok(moves);
        }
        moves.push(record.mv());
        at = exp.parent(&at, record.mv()).ok_or(StitchError::Inconsistent(name))?;
    }
    Err(StitchError::TooLong(name))
}

/// The pushes from the start to `state` along forward records.
fn forward_pushes<F: Expander>(
    fwd: &F,
    board: &Board,
    table: &VisitedTable,
    state: &State,
) -> Result<Vec<Push>, StitchError> {
    let mut moves = chain(fwd, board, table, state)?;
    moves.reverse();
    let mut pushes = Vec::with_capacity(moves.len());
    for m in moves {
        fwd.as_pushes(m, &mut pushes);
    }
    Ok(pushes)
}

/// The pushes from `state` to a solved position along backward records.
fn backward_pushes<B: Expander>(
    bwd: &B,
    board: &Board,
    table: &VisitedTable,
    state: &State,
) -> Result<Vec<Push>, StitchError> {
    let mut pushes = Vec::new();
    for m in chain(bwd, board, table, state)? {
        bwd.as_pushes(m, &mut pushes);
    }
    Ok(pushes)
}

/// The whole push sequence from the start to a solved position for what a worker found.
pub fn stitch<F: Expander, B: Expander>(
    fwd: Option<&F>,
    bwd: Option<&B>,
    board: &Board,
    table: &VisitedTable,
    found: &Found,
) -> Result<Vec<Push>, StitchError> {
    let fwd_of = || fwd.ok_or(StitchError::NoSearch("forward"));
    let bwd_of = || bwd.ok_or(StitchError::NoSearch("backward"));
    match found {
        Found::Goal { side: Side::Forward, state } => forward_pushes(fwd_of()?, board, table, state),
        Found::Goal { side: Side::Backward, state } => backward_pushes(bwd_of()?, board, table, state),
        Found::Meeting { side: Side::Forward, parent, mv, child } => {
            let (f, b) = (fwd_of()?, bwd_of()?);
            let mut pushes = forward_pushes(f, board, table, parent)?;
            f.as_pushes(*mv, &mut pushes);
            pushes.extend(backward_pushes(b, board, table, child)?);
            Ok(pushes)
        }
        Found::Meeting { side: Side::Backward, parent, mv, child } => {
            let (f, b) = (fwd_of()?, bwd_of()?);
            let mut pushes = forward_pushes(f, board, table, child)?;
            b.as_pushes(*mv, &mut pushes);
            pushes.extend(backward_pushes(b, board, table, parent)?);
            Ok(pushes)
        }
    }
}
