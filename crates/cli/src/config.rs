//! Turning command-line arguments into the engine's configuration and limits.

use std::time::Duration;

use anyhow::{bail, Result};
use bisolve_deadlock::bound::BoundKind;
use std::sync::atomic::AtomicBool;

use bisolve_board::Level;
use bisolve_engine::portfolio::{default_members, members, search_count, DIVES};
use bisolve_engine::strategy::FORWARD_WEIGHT;
use bisolve_engine::{
    solve, solve_portfolio, Config, Dives, Limits, Portfolio, PullConfig, PushConfig, Report, Restart,
    SolveError, Strategy, TableMode,
};

use crate::args::{BoundArg, PruningArgs, SearchArgs, SolveArgs, TablesArg};

impl From<BoundArg> for BoundKind {
    fn from(b: BoundArg) -> BoundKind {
        match b {
            BoundArg::Matching => BoundKind::Matching,
            BoundArg::Nearest => BoundKind::Nearest,
            BoundArg::Zero => BoundKind::Zero,
        }
    }
}

/// The pruning switches applied to a push and a pull configuration: `--no-*` switches turn
/// techniques off, `--packing*` turn the packing techniques on, `--bound`/`--pull-bound` replace the bounds.
pub fn apply_pruning(p: &PruningArgs, push: &mut PushConfig, pull: &mut PullConfig) {
    push.dead_squares &= !p.no_dead_squares;
    push.freeze &= !p.no_freeze;
    push.diagonals &= !p.no_diagonals;
    push.tunnels &= !p.no_tunnels;
    push.frozen_goals &= !p.no_frozen_goals;
    push.corrals &= !p.no_corrals;
    push.corral_deadlocks &= !p.no_corral_deadlocks;
    push.shut_in &= !p.no_shut_in;
    push.pair_deadlocks &= !p.no_pair_deadlocks;
    push.sealed_goals &= !p.no_sealed_goals;
    push.jams &= !p.no_jams;
    push.frozen_walls &= !p.no_frozen_walls;
    push.goal_areas |= p.goal_areas;
    push.goal_macros &= !p.no_goal_macros;
    push.goal_cut &= !p.no_goal_cut;
    push.room_discipline &= !p.no_room_discipline;
    push.room_plans &= !p.no_room_plans;
    pull.dead_squares &= !p.no_pull_dead_squares;
    pull.pair_deadlocks &= !p.no_pull_pair_deadlocks;
    pull.start_freeze &= !p.no_pull_start_freeze;

    push.packing |= p.packing;
    push.triple_deadlocks |= p.triple_deadlocks;
    push.box_moves |= p.box_moves;
    pull.box_moves |= p.pull_box_moves;

    push.packing_macros |= p.packing_macros;
    push.room_entrances |= p.room_entrances;
    pull.packing |= p.packing;
    pull.sealed_starts |= p.pull_sealed_starts;
    pull.jams |= p.pull_jams;
    pull.confinement |= p.pull_confinement;
    if let Some(b) = p.bound {
        push.bound = b.into();
    }
    if let Some(b) = p.pull_bound {
        pull.bound = b.into();
    }
}

/// What to run on each level: one strategy, or a portfolio.
#[derive(Debug, Clone)]
pub enum Plan {
    /// One strategy.
    Single(Config),
    /// Several configurations racing.
    Portfolio(Portfolio),
}

impl Plan {
    /// The plan for the search and pruning arguments and a thread count.
    pub fn new(search: &SearchArgs, threads: u32, pruning: &PruningArgs) -> Result<Plan> {
        let threads = threads as usize;
        let portfolio =
            search.portfolio.is_some() || search.strategy.trim().eq_ignore_ascii_case("portfolio");
        if portfolio {
            let mut members = match &search.portfolio {
                Some(list) => members(list).map_err(anyhow::Error::msg)?,
                None => default_members(),
            };
            for m in &mut members {
                apply_pruning(pruning, &mut m.push, &mut m.pull);
                m.strategy.inertia &= !pruning.no_inertia;
                m.strategy.bridges &= !pruning.no_bridges;
                m.strategy.perimeter &= !pruning.no_perimeter;
                m.strategy.live_targets |= pruning.live_targets;
                m.strategy.backward_bridges |= pruning.backward_bridges;
            }
            let tables = match search.portfolio_tables {
                TablesArg::Separate => TableMode::Separate,
                TablesArg::Shared => TableMode::Shared,
            };
            let forward_weight = if pruning.equal_turns { 1 } else { FORWARD_WEIGHT };
            let dives = Dives {
                forward: pruning.forward_dives.map_or(DIVES.forward, |d| d as usize),
                backward: pruning.dives.map_or(DIVES.backward, |d| d as usize),
            };
            let mut restarts = match (pruning.no_restart, &pruning.restarts, pruning.restart_after) {
                (true, _, _) => Vec::new(),
                (false, Some(list), _) => {
                    Restart::parse_list(list).map_err(|e| anyhow::anyhow!("--restarts: {e}"))?
                }
                // Dives asked for from the start: no restart to add them.
                (false, None, None) if pruning.dives.is_some() || pruning.forward_dives.is_some() => {
                    Vec::new()
                }
                (false, None, None) => Restart::default_for(search_count(&members), threads),
                (false, None, Some(secs)) => {
                    if !(secs.is_finite() && secs > 0.0) {
                        bail!("--restart-after must be a positive number of seconds, not {secs}");
                    }
                    let mut restarts = Restart::defaults();
                    restarts[0].after = Duration::try_from_secs_f64(secs).unwrap_or(Duration::MAX);
                    restarts
                }
            };
            // Forward dives asked for hold in every run, and so does a backward bound asked
            // for, over the default restarts' own (a list given with --restarts says its own).
            for r in &mut restarts {
                r.dives.forward = dives.forward;
                if pruning.pull_bound.is_some() && pruning.restarts.is_none() {
                    r.pull_bound = None;
                }
            }
            if pruning.no_second_restart {
                restarts.truncate(1);
            }
            return Ok(Plan::Portfolio(Portfolio {
                members,
                threads,
                tables,
                forward_weight,
                dives,
                restarts,
                keep_table: !pruning.no_keep_table,
                early_perimeter: !pruning.no_early_perimeter,
            }));
        }
        let mut strategy = Strategy::parse(&search.strategy).map_err(anyhow::Error::msg)?;
        strategy.inertia &= !pruning.no_inertia;
        strategy.bridges &= !pruning.no_bridges;
        strategy.perimeter &= !pruning.no_perimeter;
        strategy.live_targets |= pruning.live_targets;
        strategy.backward_bridges |= pruning.backward_bridges;
        let (mut push, mut pull) = (PushConfig::default(), PullConfig::default());
        apply_pruning(pruning, &mut push, &mut pull);
        let forward_weight = if pruning.equal_turns { 1 } else { FORWARD_WEIGHT };
        Ok(Plan::Single(Config { strategy, threads, push, pull, forward_weight }))
    }

    /// Solves one level.
    pub fn solve(&self, level: &Level, limits: &Limits, cancel: &AtomicBool) -> Result<Report, SolveError> {
        match self {
            Plan::Single(config) => solve(level, config, limits, cancel),
            Plan::Portfolio(p) => solve_portfolio(level, p, limits, cancel),
        }
    }

    /// The strategy's name, for records of levels that were not searched.
    pub fn name(&self) -> String {
        match self {
            Plan::Single(c) => c.strategy.to_string(),
            Plan::Portfolio(p) => {
                let names: Vec<&str> = p.members.iter().map(|m| m.name).collect();
                format!("portfolio({})", names.join(","))
            }
        }
    }

    /// Threads per level.
    pub fn threads(&self) -> usize {
        match self {
            Plan::Single(c) => c.threads,
            Plan::Portfolio(p) => p.threads,
        }
    }
}

/// The plan and limits for a solve command.
pub fn solve_config(args: &SolveArgs) -> Result<(Plan, Limits)> {
    let plan = Plan::new(&args.search, args.threads, &args.pruning)?;
    let limits = limits(args.time_limit, args.memory.as_deref(), args.states, 1)?;
    Ok((plan, limits))
}

/// Limits per level: time in seconds, memory (default: a share of physical memory, divided
/// among `jobs` levels solved at once) and states.
pub fn limits(time_limit: f64, memory: Option<&str>, states: Option<usize>, jobs: usize) -> Result<Limits> {
    if !(time_limit.is_finite() && time_limit > 0.0) {
        bail!("--time-limit must be a positive number of seconds, not {time_limit}");
    }
    let time = Duration::try_from_secs_f64(time_limit).unwrap_or(Duration::MAX);
    let memory = match memory {
        Some(s) => parse_size(s)?,
        None => default_memory() / jobs.max(1),
    };
    Ok(Limits { time: Some(time), memory: Some(memory), states })
}

/// Reads a size: a number with an optional unit (K, M, G, T, with or without `B`/`iB`;
/// powers of 1024).
pub fn parse_size(text: &str) -> Result<usize> {
    let t = text.trim();
    let split = t.find(|c: char| !(c.is_ascii_digit() || c == '.')).unwrap_or(t.len());
    let (num, unit) = t.split_at(split);
    let value: f64 = match num.parse() {
        Ok(v) => v,
        Err(_) => bail!("--memory {text:?}: expected a size such as 2G, 512M or 1.5GiB"),
    };
    let scale: f64 = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 1.0,
        "k" | "kb" | "kib" => 1024.0,
        "m" | "mb" | "mib" => 1024.0 * 1024.0,
        "g" | "gb" | "gib" => 1024.0 * 1024.0 * 1024.0,
        "t" | "tb" | "tib" => 1024.0 * 1024.0 * 1024.0 * 1024.0,
        other => bail!("--memory {text:?}: unknown unit {other:?} (use K, M, G or T)"),
    };
    let bytes = value * scale;
    if !(bytes.is_finite() && bytes >= 1.0) {
        bail!("--memory {text:?}: the size must be at least one byte");
    }
    Ok(bytes.min(usize::MAX as f64) as usize)
}

/// 60% of the memory this process may use: physical memory (`/proc/meminfo`), or the
/// container's limit (cgroup v2 `memory.max`, v1 `memory.limit_in_bytes`) when that is lower;
/// 4 GiB where neither can be read. The rest is left for the board, the allocator's slack and
/// the other programs on the machine.
pub fn default_memory() -> usize {
    usable_memory().map_or(4 << 30, |t| t / 10 * 6)
}

/// The smaller of physical memory and the cgroup limit, in bytes, when known.
fn usable_memory() -> Option<usize> {
    let read = |path: &str| std::fs::read_to_string(path).ok();
    let physical = read("/proc/meminfo").and_then(|s| {
        s.lines()
            .find_map(|l| l.strip_prefix("MemTotal:"))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<usize>().ok())
            .map(|kb| kb.saturating_mul(1024))
    });
    // "max" (no limit) and unreadable files parse to nothing.
    let cgroup = ["/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"]
        .iter()
        .filter_map(|p| read(p)?.trim().parse::<usize>().ok())
        .min();
    match (physical, cgroup) {
        (Some(p), Some(c)) => Some(p.min(c)),
        (p, c) => p.or(c),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_parse_with_units() {
        assert_eq!(parse_size("1024").unwrap(), 1024);
        assert_eq!(parse_size("2K").unwrap(), 2048);
        assert_eq!(parse_size("1.5GiB").unwrap(), 3 << 29);
        assert_eq!(parse_size("512mb").unwrap(), 512 << 20);
        assert!(parse_size("lots").is_err());
        assert!(parse_size("5X").is_err());
        assert!(parse_size("0").is_err());
    }

    /// The default restarts set a backward bound for one run; `--pull-bound` holds in every
    /// run over it, and a `--restarts` list keeps its own.
    #[test]
    fn an_asked_for_backward_bound_holds_in_every_run() {
        let search = SearchArgs {
            strategy: "portfolio".into(),
            portfolio: None,
            portfolio_tables: crate::args::TablesArg::Shared,
        };
        let bounds = |pruning: &PruningArgs| -> Vec<Option<BoundKind>> {
            match Plan::new(&search, 2, pruning).expect("plan") {
                Plan::Portfolio(p) => p.restarts.iter().map(|r| r.pull_bound).collect(),
                _ => panic!("not a portfolio"),
            }
        };
        assert!(bounds(&PruningArgs::default()).contains(&Some(BoundKind::Nearest)));
        let asked = PruningArgs { pull_bound: Some(BoundArg::Matching), ..PruningArgs::default() };
        assert!(bounds(&asked).iter().all(Option::is_none));
        let listed = PruningArgs { restarts: Some("10:4:pull-nearest,5:8".into()), ..asked };
        assert_eq!(bounds(&listed), [Some(BoundKind::Nearest), None]);
    }

    #[test]
    fn default_memory_is_a_safe_share_of_what_may_be_used() {
        let default = default_memory();
        match usable_memory() {
            Some(usable) => {
                assert!(default <= usable / 10 * 6, "{default} of {usable}");
                assert!(default >= usable / 2, "{default} of {usable}");
            }
            None => assert_eq!(default, 4 << 30),
        }
    }
}
