//! The game of Sokoban for bisolve: level formats, the static board, states, moves and replay.
//!
//! This crate knows nothing about search strategies or threads. It parses level text
//! ([`parse`]), validates and normalizes a level ([`Level`]), computes everything about the
//! board that never changes during a solve ([`Board`]: dense cell indices, neighbours, dead
//! squares, box distances, tunnels), represents positions ([`State`], [`Fingerprint`]) and
//! turns pushes into LURD text and back ([`moves`]). Every solution bisolve prints goes through
//! [`moves::replay`] first.

mod analysis;
mod board;
pub mod bound;
pub mod diagonal;
mod dir;
mod error;
pub mod freeze;
pub mod goal_areas;
pub mod jams;
mod level;
pub mod moves;
pub mod packing;
pub mod pairs;
pub mod parse;
mod reach;
pub mod render;
pub mod rooms;
pub mod sealed;
pub mod search;
mod state;
pub mod subset;
pub mod triples;

pub use crate::board::{
    Board, Cell, DistanceTable, PushReach, MAX_CELLS, NO_CELL, TUNNEL_HORIZONTAL, TUNNEL_VERTICAL,
    UNREACHABLE,
};
pub use crate::dir::Dir;
pub use crate::error::{LevelError, LevelErrorKind, ParseError};
pub use crate::level::{load_collection, Collection, Level, LevelEntry};
pub use crate::reach::{Areas, BoxMap, Moved, Reach, RunReach, SquareDirs};
pub use crate::state::{Fingerprint, PassThrough, State, Zobrist};
