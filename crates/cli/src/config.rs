//! Turning command-line arguments into the engine's configuration and limits.

use std::time::Duration;

use anyhow::{bail, Result};
use bisolve_board::bound::BoundKind;
use bisolve_engine::{Config, Limits, PullConfig, PushConfig, Strategy};

use crate::args::{BoundArg, PruningArgs, SolveArgs};

impl From<BoundArg> for BoundKind {
    fn from(b: BoundArg) -> BoundKind {
        match b {
            BoundArg::Matching => BoundKind::Matching,
            BoundArg::Nearest => BoundKind::Nearest,
            BoundArg::Zero => BoundKind::Zero,
        }
    }
}

/// The pruning switches as the engine's push and pull configurations.
pub fn pruning(p: &PruningArgs) -> (PushConfig, PullConfig) {
    let push = PushConfig {
        dead_squares: !p.no_dead_squares,
        freeze: !p.no_freeze,
        bound: p.bound.into(),
        tunnels: !p.no_tunnels,
        frozen_goals: !p.no_frozen_goals,
        corrals: !p.no_corrals,
    };
    let pull = PullConfig { dead_squares: !p.no_pull_dead_squares, bound: p.pull_bound.into() };
    (push, pull)
}

/// The engine configuration and limits for a solve command.
pub fn solve_config(args: &SolveArgs) -> Result<(Config, Limits)> {
    let config = engine_config(&args.strategy, args.threads, &args.pruning)?;
    let limits = limits(args.time_limit, args.memory.as_deref(), args.states, 1)?;
    Ok((config, limits))
}

/// The engine configuration for a strategy name, a thread count and the pruning switches.
pub fn engine_config(strategy: &str, threads: u32, pruning_args: &PruningArgs) -> Result<Config> {
    let strategy = Strategy::parse(strategy).map_err(anyhow::Error::msg)?;
    let (push, pull) = pruning(pruning_args);
    Ok(Config { strategy, threads: threads as usize, push, pull })
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

/// 60% of physical memory (from /proc/meminfo), or 4 GiB where that cannot be read.
pub fn default_memory() -> usize {
    let total = std::fs::read_to_string("/proc/meminfo").ok().and_then(|s| {
        s.lines()
            .find_map(|l| l.strip_prefix("MemTotal:"))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<usize>().ok())
            .map(|kb| kb * 1024)
    });
    total.map_or(4 << 30, |t| t / 10 * 6)
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
}
