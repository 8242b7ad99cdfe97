//! Turning command-line arguments into the engine's options, plan and limits.

use std::time::Duration;

use anyhow::{bail, Context, Result};
use bisolve_engine::{default_memory, preset, Limits, Planned, SolverOptions};

use crate::args::{threads_or_all, SearchArgs, SolveArgs};
use crate::output::warn;

/// The options the arguments ask for: the preset, then the options file over it, then
/// `--strategy`, then each `--set` in order.
pub fn options(search: &SearchArgs) -> Result<SolverOptions> {
    let mut options = preset(search.preset.as_deref().unwrap_or("default"))?;
    if let Some(path) = &search.options_file {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("{}: cannot read the options file", path.display()))?;
        options.merge_toml(&text, &path.display().to_string())?;
    }
    if let Some(strategy) = &search.strategy {
        options.strategy = strategy.clone();
    }
    if let Some(optimal) = &search.optimal {
        options.set(&format!("optimal={optimal}")).context("--optimal")?;
    }
    for assignment in &search.set {
        options.set(assignment).context("--set")?;
    }
    Ok(options)
}

/// The plan for the arguments on `threads` threads.
pub fn plan(search: &SearchArgs, threads: u32) -> Result<Planned> {
    Ok(options(search)?.plan(threads as usize)?)
}

/// Tells what the plan had to change from what was asked, on standard error: call it once the
/// input has been read, just before the first search. What the thread count changed is told
/// only when the thread count was asked for (`chosen_threads`); every core, the default, runs
/// what suits it without a word.
pub fn tell_notes(planned: &Planned, chosen_threads: bool) {
    let threads_note = planned.threads_note.iter().filter(|_| chosen_threads);
    for note in planned.notes.iter().chain(threads_note) {
        warn(&format!("bisolve: note: {note}"));
    }
}

/// The plan and limits for a solve command.
pub fn solve_config(args: &SolveArgs) -> Result<(Planned, Limits)> {
    let planned = plan(&args.search, threads_or_all(args.threads))?;
    let limits = limits(args.time_limit, args.limits.memory.as_deref(), args.limits.states, 1)?;
    Ok((planned, limits))
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
    Ok(Limits { time: Some(time), memory: Some(memory), states, progress: None })
}

/// The smallest `--memory` accepted: below this even the first table of a search would not fit,
/// and the limit would stop every search before it started.
pub const MIN_MEMORY: usize = 1 << 20;

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
    if !(bytes.is_finite() && bytes >= MIN_MEMORY as f64) {
        bail!("--memory {text:?}: the size must be at least 1M (a search needs room for its first tables)");
    }
    Ok(bytes.min(usize::MAX as f64) as usize)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_parse_with_units() {
        assert_eq!(parse_size("1048576").unwrap(), 1 << 20);
        assert_eq!(parse_size("2048K").unwrap(), 2 << 20);
        assert_eq!(parse_size("1.5GiB").unwrap(), 3 << 29);
        assert!(parse_size("1K").is_err(), "below the smallest limit");
        assert!(parse_size("1023K").is_err(), "below the smallest limit");
        assert_eq!(parse_size("512mb").unwrap(), 512 << 20);
        assert!(parse_size("lots").is_err());
        assert!(parse_size("5X").is_err());
        assert!(parse_size("0").is_err());
    }
}
