//! Solving one level with one strategy: the engine's one path, a portfolio of one member.

use std::sync::atomic::AtomicBool;

use bisolve_board::Level;
use bisolve_pull::PullConfig;
use bisolve_push::PushConfig;

use crate::limits::Limits;
use crate::portfolio::{solve_portfolio, Member, Portfolio, TableMode, DIVES};
use crate::report::{Report, SolveError};
use crate::strategy::{Strategy, FORWARD_WEIGHT};

/// Everything that shapes a solve except its limits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Config {
    /// Directions and ordering.
    pub strategy: Strategy,
    /// Worker threads (at least 1).
    pub threads: usize,
    /// Forward search switches.
    pub push: PushConfig,
    /// Backward search switches.
    pub pull: PullConfig,
    /// One thread holding both directions steps the one that has generated least, counting
    /// the forward search's states this many times, so the forward search gets one part of
    /// the thread in `1 + forward_weight`. Default [`FORWARD_WEIGHT`] (a quarter); 1 gives
    /// equal turns (`--set forward_weight=1`). More threads give each direction its own.
    pub forward_weight: u64,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            strategy: Strategy::default(),
            threads: 1,
            push: PushConfig::default(),
            pull: PullConfig::default(),
            forward_weight: FORWARD_WEIGHT,
        }
    }
}

/// Solves a level. `cancel` is polled by every worker (set it from a Ctrl-C handler).
///
/// The one engine path: a portfolio of one member, the configuration's strategy and
/// switches, with no restarts.
pub fn solve(
    level: &Level,
    config: &Config,
    limits: &Limits,
    cancel: &AtomicBool,
) -> Result<Report, SolveError> {
    let member = Member {
        name: "",
        about: "one strategy",
        strategy: config.strategy,
        push: config.push,
        pull: config.pull,
    };
    let portfolio = Portfolio {
        members: vec![member],
        threads: config.threads.max(1),
        tables: TableMode::Shared,
        forward_weight: config.forward_weight.max(1),
        deal: crate::Deal::Members,
        dives: DIVES,
        restarts: Vec::new(),
        keep_table: true,
        early_perimeter: false,
    };
    let mut report = solve_portfolio(level, &portfolio, limits, cancel)?;
    report.strategy = config.strategy.to_string();
    Ok(report)
}
