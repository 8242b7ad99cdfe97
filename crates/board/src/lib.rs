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
mod cell;
mod dir;
mod error;
mod hotspots;
mod level;
mod links;
pub mod moves;
mod objective;
pub mod parse;
mod reach;
pub mod render;
mod runs;
pub mod search;
mod state;
mod walks;
mod zobrist;

pub use crate::board::{
    Board, Cell, DistanceTable, PushReach, MAX_CELLS, NO_CELL, TUNNEL_HORIZONTAL, TUNNEL_VERTICAL,
    UNREACHABLE,
};
pub use crate::dir::Dir;
pub use crate::error::{LevelError, LevelErrorKind, ParseError};
pub use crate::hotspots::Hotspots;
pub use crate::level::{load_collection, Collection, Level, LevelEntry};
pub use crate::links::{LinkScratch, RoomLinks, MAX_ROOMS};
pub use crate::objective::Objective;
pub use crate::reach::{Areas, BoxMap, Moved, Reach, RunReach, SquareDirs};
pub use crate::runs::{child_region, BoxRuns, RunStep};
pub use crate::state::State;
pub use crate::walks::Walks;
pub use crate::zobrist::{splitmix64, Fingerprint, PassThrough, Zobrist};
