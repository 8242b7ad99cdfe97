//! `bisolve FILE`: solve each requested level and report it, as text or JSON lines.

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use anyhow::Result;
use bisolve_board::LevelEntry;
use bisolve_engine::{Cutoff, Outcome, Report, SideStats};

use crate::args::SolveArgs;
use crate::config::{solve_config, tell_notes};
use crate::export::Exports;
use crate::input::{build, describe_error, label, read_collection, select_levels};
use crate::output::{warn, Exit, Out};
use crate::record::{checked_solution, invalid_record, per_second, record, LevelRecord};

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
    let (planned, limits) = solve_config(args)?;
    let plan = &planned.plan;
    let options = serde_json::to_value(&planned.options)?;
    let path = args.file.as_deref().unwrap_or(Path::new("-"));
    let collection = read_collection(path)?;
    let entries = select_levels(&collection, path, args.select.level.as_deref())?;
    let first_index = entries.first().map_or(1, |e| e.index);
    let mut exports = Exports::new(&args.export, &collection.header, first_index, entries.len(), args.quiet)?;
    if !(args.quiet || args.json) {
        tell_notes(&planned);
    }
    let started = Instant::now();
    let mut tally = Tally { requested: entries.len(), ..Tally::default() };
    for raw in entries {
        if cancel.load(Ordering::Relaxed) {
            tally.cancelled = true;
            break;
        }
        let entry = &build(raw);
        match &entry.level {
            Err(e) => {
                tally.invalid += 1;
                let message = describe_error(path, e);
                warn(&format!("bisolve: {message}"));
                if args.json {
                    let rec = LevelRecord {
                        options: Some(options.clone()),
                        ..invalid_record(path, entry, plan, message)
                    };
                    out.line(&serde_json::to_string(&rec)?)?;
                }
            }
            Ok(level) => {
                let report = plan
                    .solve(level, &limits, cancel)
                    .map_err(|e| anyhow::anyhow!("{}: {}: {e}", path.display(), label(entry)))?;
                let solution = checked_solution(level, &report)?;
                if solution.is_some() {
                    tally.solved += 1;
                }
                if report.outcome == Outcome::Cutoff(Cutoff::Cancelled) {
                    tally.cancelled = true;
                }
                if args.json {
                    let rec = LevelRecord {
                        options: Some(options.clone()),
                        ..record(path, entry, &report, solution)
                    };
                    out.line(&serde_json::to_string(&rec)?)?;
                } else {
                    print_human(out, path, entry, &report, solution, args.quiet, args.verbose)?;
                }
                exports.add(entry, level, solution)?;
                if tally.cancelled {
                    break;
                }
            }
        }
    }
    exports.finish()?;
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
            let bridges = if side.bridges > 0 {
                format!("; {} bridges, {} expanded", side.bridges, side.bridge_expanded)
            } else {
                String::new()
            };
            out.line(&format!(
                "  {name}: {} expanded, {} generated, {} duplicates; closest: {}{bridges}; pruned: {}",
                side.expanded,
                side.generated,
                side.duplicates,
                closest(side),
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

/// How close a side came to its targets, for `--verbose`: the smallest lower bound reached and,
/// with feature cells, the fewest boxes left to place.
fn closest(side: &SideStats) -> String {
    match (side.closest_h, side.closest_unplaced) {
        (Some(h), Some(u)) => format!("h {h}, {u} to place"),
        (Some(h), None) => format!("h {h}"),
        _ => "-".to_string(),
    }
}
