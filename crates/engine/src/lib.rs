//! bisolve's search engine: the best-first loop generic over a direction, the visited table
//! shared by every worker, the one scheduler, stitching, limits and statistics.
//!
//! Every search is a portfolio of one or more members ([`portfolio`]), run by one scheduler
//! that seeds the forward and backward searches, runs them on one thread or several, rebuilds
//! the push sequence where they meet, writes it as LURD and replays it on the level before
//! returning it. [`SolverOptions`] says what runs, as data; [`solve()`] runs one strategy (a
//! portfolio of one member).

pub mod advisors;
pub mod bridge;
pub mod closest;
pub mod hda;
pub mod limits;
pub mod open;
pub mod optimal;
pub mod options;
pub mod portfolio;
pub mod report;
pub mod solve;
pub mod stats;
pub mod stitch;
pub mod strategy;
pub mod table;
pub mod worker;

pub use crate::limits::{default_memory, Cutoff, Limits, Progress, ProgressSink, ProgressSnapshot};
pub use crate::optimal::{solve_optimal, solve_optimal_from, OptimalConfig};
pub use crate::options::{
    preset, OptimalMode, OptimalPlan, OptionsError, Plan, Planned, SolverOptions, PRESETS,
};
pub use crate::portfolio::{solve_portfolio, Deal, Dives, Member, Portfolio, Restart, TableMode};
pub use crate::report::{FoundBy, Optimality, Outcome, Report, Solution, SolveError};
pub use crate::solve::{solve, Config};
pub use crate::stats::{ClosestPath, SideStats, Stats};
pub use crate::strategy::{Directions, Strategy, Weighting, STRATEGIES};
pub use bisolve_pull::PullConfig;
pub use bisolve_push::PushConfig;
