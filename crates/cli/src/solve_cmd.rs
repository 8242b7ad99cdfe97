//! `bisolve FILE`: solve each requested level and report it, as text or JSON lines.

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use anyhow::Result;
use bisolve_board::moves::{parse_lurd, replay};
use bisolve_board::{Level, LevelEntry};
use bisolve_engine::{solve, Config, Cutoff, Outcome, Report, SideStats};
use serde::Serialize;

use crate::args::SolveArgs;
use crate::config::solve_config;
use crate::input::{describe_error, label, read_collection, select};
use crate::output::{Exit, Out};

/// One line of `--json` output.
#[derive(Debug, Serialize)]
struct LevelRecord<'a> {
    file: String,
    index: usize,
    title: Option<&'a str>,
    status: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    solution: Option<&'a str>,
    moves: Option<usize>,
    pushes: Option<usize>,
    seconds: f64,
    states: u64,
    expanded: u64,
    visited: usize,
    states_per_second: f64,
    bytes_per_state: f64,
    threads: usize,
    strategy: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    found_by: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    note: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    forward: Option<SideRecord>,
    #[serde(skip_serializing_if = "Option::is_none")]
    backward: Option<SideRecord>,
    table_bytes: usize,
    open_bytes: usize,
}

/// Effort of one direction in `--json` output.
#[derive(Debug, Serialize)]
struct SideRecord {
    expanded: u64,
    generated: u64,
    duplicates: u64,
    pruned: std::collections::BTreeMap<&'static str, u64>,
}

impl SideRecord {
    fn of(s: &SideStats) -> Option<SideRecord> {
        (s.expanded > 0 || s.generated > 0).then(|| SideRecord {
            expanded: s.expanded,
            generated: s.generated,
            duplicates: s.duplicates,
            pruned: s.pruned.iter().copied().collect(),
        })
    }
}

/// Tally of the statuses seen, for the exit code and the summary.
#[derive(Default)]
struct Tally {
    requested: usize,
    solved: usize,
    invalid: usize,
    cancelled: bool,
}

/// Runs the solve command.
pub fn run(args: &SolveArgs, cancel: &AtomicBool, out: &mut Out) -> Result<Exit> {
    let (config, limits) = solve_config(args)?;
    let path = args.file.as_deref().unwrap_or(Path::new("-"));
    let collection = read_collection(path)?;
    let entries = select(&collection, path, args.select.level.as_deref())?;
    let started = Instant::now();
    let mut tally = Tally { requested: entries.len(), ..Tally::default() };
    for entry in entries {
        if cancel.load(Ordering::Relaxed) {
            tally.cancelled = true;
            break;
        }
        match &entry.level {
            Err(e) => {
                tally.invalid += 1;
                let message = describe_error(path, e);
                eprintln!("bisolve: {message}");
                if args.json {
                    let rec = invalid_record(path, entry, &config, message);
                    out.line(&serde_json::to_string(&rec)?)?;
                }
            }
            Ok(level) => {
                let report = solve(level, &config, &limits, cancel)
                    .map_err(|e| anyhow::anyhow!("{}: {}: {e}", path.display(), label(entry)))?;
                let solution = checked_solution(level, &report)?;
                if solution.is_some() {
                    tally.solved += 1;
                }
                if report.outcome == Outcome::Cutoff(Cutoff::Cancelled) {
                    tally.cancelled = true;
                }
                if args.json {
                    out.line(&serde_json::to_string(&record(path, entry, &report, solution))?)?;
                } else {
                    print_human(out, path, entry, &report, solution, args.quiet, args.verbose)?;
                }
                if tally.cancelled {
                    break;
                }
            }
        }
    }
    if !args.json && tally.requested > 1 {
        out.line(&format!(
            "{}: solved {} of {} levels in {:.2} s{}",
            path.display(),
            tally.solved,
            tally.requested,
            started.elapsed().as_secs_f64(),
            if tally.invalid > 0 { format!(" ({} invalid)", tally.invalid) } else { String::new() }
        ))?;
    }
    Ok(if tally.cancelled {
        Exit::Interrupted
    } else if tally.invalid == tally.requested {
        Exit::Invalid
    } else if tally.solved == tally.requested {
        Exit::Ok
    } else {
        Exit::NotAllSolved
    })
}

/// The solution of a report after one more replay from the level's text, independent of the
/// engine's own check. A solution that fails it is an internal error, never printed.
fn checked_solution<'r>(level: &Level, report: &'r Report) -> Result<Option<&'r str>> {
    let Outcome::Solved(sol) = &report.outcome else {
        return Ok(None);
    };
    let steps = parse_lurd(&sol.lurd)
        .map_err(|e| anyhow::anyhow!("internal error: bad LURD from the engine: {e}"))?;
    let counts = replay(level.board(), level.start(), &steps)
        .map_err(|e| anyhow::anyhow!("internal error: the solution found does not replay: {e}"))?;
    if (counts.moves, counts.pushes) != (sol.moves, sol.pushes) {
        anyhow::bail!("internal error: the solution's move counts do not match its replay");
    }
    Ok(Some(&sol.lurd))
}

fn per_second(report: &Report) -> f64 {
    let secs = report.elapsed.as_secs_f64();
    if secs > 0.0 {
        report.stats.generated() as f64 / secs
    } else {
        0.0
    }
}

fn record<'a>(
    path: &Path,
    entry: &'a LevelEntry,
    report: &'a Report,
    solution: Option<&'a str>,
) -> LevelRecord<'a> {
    let sol = match &report.outcome {
        Outcome::Solved(s) => Some(s),
        _ => None,
    };
    LevelRecord {
        file: path.display().to_string(),
        index: entry.index,
        title: entry.title.as_deref(),
        status: report.outcome.status(),
        solution,
        moves: sol.map(|s| s.moves),
        pushes: sol.map(|s| s.pushes),
        seconds: report.elapsed.as_secs_f64(),
        states: report.stats.generated(),
        expanded: report.stats.expanded(),
        visited: report.stats.states,
        states_per_second: per_second(report).round(),
        bytes_per_state: (report.stats.bytes_per_state() * 10.0).round() / 10.0,
        threads: report.threads,
        strategy: report.strategy.to_string(),
        found_by: sol.map(|s| s.found_by.name()),
        error: None,
        note: report.note.as_deref(),
        forward: SideRecord::of(&report.stats.forward),
        backward: SideRecord::of(&report.stats.backward),
        table_bytes: report.stats.table_bytes,
        open_bytes: report.stats.peak_open_bytes,
    }
}

fn invalid_record<'a>(path: &Path, entry: &'a LevelEntry, config: &Config, error: String) -> LevelRecord<'a> {
    LevelRecord {
        file: path.display().to_string(),
        index: entry.index,
        title: entry.title.as_deref(),
        status: "invalid",
        solution: None,
        moves: None,
        pushes: None,
        seconds: 0.0,
        states: 0,
        expanded: 0,
        visited: 0,
        states_per_second: 0.0,
        bytes_per_state: 0.0,
        threads: config.threads,
        strategy: config.strategy.to_string(),
        found_by: None,
        error: Some(error),
        note: None,
        forward: None,
        backward: None,
        table_bytes: 0,
        open_bytes: 0,
    }
}

fn print_human(
    out: &mut Out,
    path: &Path,
    entry: &LevelEntry,
    report: &Report,
    solution: Option<&str>,
    quiet: bool,
    verbose: bool,
) -> Result<()> {
    let stats = &report.stats;
    let mut line = format!("{} {}: {}", path.display(), label(entry), report.outcome.status());
    if let Outcome::Solved(s) = &report.outcome {
        line.push_str(&format!(", {} moves, {} pushes", s.moves, s.pushes));
    }
    line.push_str(&format!(
        ", {:.3} s, {} states ({:.2} M/s), {} visited, {} thread{}, {}",
        report.elapsed.as_secs_f64(),
        stats.generated(),
        per_second(report) / 1e6,
        stats.states,
        report.threads,
        if report.threads == 1 { "" } else { "s" },
        report.strategy,
    ));
    if let Some(note) = &report.note {
        line.push_str(&format!(" ({note})"));
    }
    out.line(&line)?;
    if verbose {
        for (name, side) in [("forward", &stats.forward), ("backward", &stats.backward)] {
            if side.expanded == 0 && side.generated == 0 {
                continue;
            }
            let pruned: Vec<String> = side.pruned.iter().map(|(k, v)| format!("{k} {v}")).collect();
            out.line(&format!(
                "  {name}: {} expanded, {} generated, {} duplicates; pruned: {}",
                side.expanded,
                side.generated,
                side.duplicates,
                pruned.join(", ")
            ))?;
        }
        out.line(&format!(
            "  table: {} states, {} bytes ({:.1} bytes/state); open lists: {} bytes",
            stats.states,
            stats.table_bytes,
            stats.bytes_per_state(),
            stats.peak_open_bytes
        ))?;
    }
    if let (Some(lurd), false) = (solution, quiet) {
        out.line(if lurd.is_empty() { "(empty solution: already solved)" } else { lurd })?;
    }
    Ok(())
}
