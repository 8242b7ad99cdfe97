//! Deadlock analyses for bisolve, and the small searches behind them.
//!
//! Everything here answers one question about a position of a [`bisolve_board::Board`]: can
//! it still be finished, and how many moves does it need at least? Each analysis serves both
//! directions where it makes sense (goals pushing, start squares pulling); the forward
//! (`bisolve-push`) and backward (`bisolve-pull`) crates choose which to run after each move.
//!
//! - [`bound`]: lower bounds, nearest target or min-cost matching, updated per move.
//! - [`freeze`]: boxes frozen on both axes; [`diagonal`]: closed diagonal deadlocks.
//! - [`pairs`], [`triples`]: retrograde tables of pairs and triples that can never finish.
//! - [`subset`]: small exhaustive searches on a few boxes alone, with their verdict caches;
//!   [`jams`], [`sealed`] and [`goal_areas`] are tests built on them.
//! - [`rooms`], [`packing`]: goal rooms and the orders they fill in, for macros and features.
//! - [`checks`]: the tests a child is put to after a move, behind one trait, so each direction
//!   runs them as one list.
//!
//! This crate knows nothing of threads or of the search loop.

pub mod bound;
pub mod checks;
pub mod diagonal;
pub mod freeze;
pub mod goal_areas;
pub mod jams;
pub mod packing;
pub mod pair_costs;
pub mod pairs;
pub mod parking;
pub mod rooms;
pub mod sealed;
pub mod subset;
pub mod triples;

use std::sync::Arc;

/// A table the searches of one level share: when it is wanted (`on`), the first that another
/// search already holds (`theirs`), else one `build` makes (`None` where the board gets none).
pub fn shared<T>(
    on: bool,
    theirs: impl IntoIterator<Item = Option<Arc<T>>>,
    build: impl FnOnce() -> Option<T>,
) -> Option<Arc<T>> {
    if !on {
        return None;
    }
    theirs.into_iter().flatten().next().or_else(|| build().map(Arc::new))
}
