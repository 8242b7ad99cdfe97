//! `bisolve FILE`: solve each requested level and report it, as text or JSON lines.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use anyhow::{bail, Result};
use bisolve_board::moves::parse_lurd;
use bisolve_board::{Level, LevelEntry};
use bisolve_engine::{Cutoff, Limits, Outcome, Planned, Report, SideStats};
use bisolve_optimizer::{optimize, Objective, Settings};

use crate::args::SolveArgs;
use crate::config::{solve_config, tell_notes};
use crate::export::Exports;
use crate::input::{build, describe_error, expand_inputs, label, read_collection, select_levels};
use crate::live::Show;
use crate::output::{count, warn, Exit, Out};
use crate::record::{checked_counts, invalid_record, per_second, record, LevelRecord, Shortened};

/// Tally of the statuses seen, for the exit code and the summary.
#[derive(Default)]
struct Tally {
    requested: usize,
    solved: usize,
    invalid: usize,
    cancelled: bool,
}

/// Runs the solve command: every file named (directories expanded), one after the other.
pub fn run(args: &SolveArgs, cancel: &AtomicBool, out: &mut Out) -> Result<Exit> {
    let (planned, mut limits) = solve_config(args)?;
    let optimize = args.optimize_seconds();
    if !(optimize.is_finite() && optimize >= 0.0) {
        bail!("--optimize must be 0 or a positive number of seconds, not {optimize}");
    }
    let show = Show::choose(args.progress, !(args.json || args.quiet));
    limits.progress = show.sink();
    let stdin = [PathBuf::from("-")];
    let files = expand_inputs(if args.files.is_empty() { &stdin } else { &args.files })?;
    if files.len() > 1 && args.export.any() {
        bail!("--svg, --gif and --sok write the levels of one file: give one file ({} given)", files.len());
    }
    if !(args.quiet || args.json) {
        tell_notes(&planned, args.threads_given());
    }
    let mut tally = Tally::default();
    let mut position = 0;
    for path in &files {
        solve_file(args, path, (&planned, &limits, show), cancel, out, &mut tally, &mut position)?;
        if tally.cancelled {
            break;
        }
    }
    if tally.requested == 0 && !tally.cancelled {
        if let Some(shard) = args.shard {
            warn(&format!("bisolve: note: shard {}/{} holds no level", shard.index, shard.count));
        }
        return Ok(Exit::Ok);
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

/// Solves the chosen levels of one file (those of the shard, `position` counting the levels
/// chosen in the files before) with the plan and limits, showing progress as `show` says,
/// adding to `tally`.
fn solve_file(
    args: &SolveArgs,
    path: &Path,
    (planned, limits, show): (&Planned, &Limits, Show),
    cancel: &AtomicBool,
    out: &mut Out,
    all: &mut Tally,
    position: &mut usize,
) -> Result<()> {
    let plan = &planned.plan;
    let options = serde_json::to_value(&planned.options)?;
    let collection = read_collection(path)?;
    let mut entries = select_levels(&collection, path, args.select.level.as_deref())?;
    if let Some(shard) = args.shard {
        let first = *position;
        *position += entries.len();
        entries = shard.part(entries, first);
        if entries.is_empty() {
            return Ok(());
        }
    }
    let first_index = entries.first().map_or(1, |e| e.index);
    let mut exports = Exports::new(&args.export, &collection.header, first_index, entries.len(), args.quiet)?;
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
                warn(&format!("bisolve: error: {message}"));
                if args.json {
                    let rec = LevelRecord {
                        options: args.stats.then(|| options.clone()),
                        ..invalid_record(path, entry, plan, message)
                    };
                    out.line(&serde_json::to_string(&rec)?)?;
                }
            }
            Ok(level) => {
                let mut report = show
                    .during(&label(entry), || plan.solve(level, limits, cancel))
                    .map_err(|e| anyhow::anyhow!("{}: {}: {e}", path.display(), label(entry)))?;
                let shortened = shorten(level, &mut report, args.optimize_seconds(), cancel)?;
                let checked = checked_counts(level, &report)?;
                let solution = checked.map(|(lurd, _)| lurd);
                if solution.is_some() {
                    tally.solved += 1;
                }
                if report.outcome == Outcome::Cutoff(Cutoff::Cancelled) {
                    tally.cancelled = true;
                }
                if args.json {
                    let rec = LevelRecord { optimized: shortened, ..record(path, entry, &report, checked) };
                    let rec = if args.stats {
                        LevelRecord { options: Some(options.clone()), ..rec }
                    } else {
                        rec.lean()
                    };
                    out.line(&serde_json::to_string(&rec)?)?;
                } else {
                    print_human(
                        out,
                        path,
                        entry,
                        &report,
                        (solution, shortened.as_ref()),
                        args.quiet,
                        args.verbose,
                    )?;
                    if !args.quiet {
                        advise(entry, &report, args.threads_given());
                    }
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
            "{}: solved {} of {} in {:.2} s{}",
            path.display(),
            tally.solved,
            count(tally.requested as u64, "level"),
            started.elapsed().as_secs_f64(),
            if tally.invalid > 0 { format!(" ({} invalid)", tally.invalid) } else { String::new() }
        ))?;
    }
    all.requested += tally.requested;
    all.solved += tally.solved;
    all.invalid += tally.invalid;
    all.cancelled |= tally.cancelled;
    Ok(())
}

/// One line of advice on standard error for a level a limit stopped.
fn advise(entry: &LevelEntry, report: &Report, threads_given: bool) {
    let what = match report.outcome {
        Outcome::Cutoff(Cutoff::Time) => {
            let threads = if threads_given || report.threads == 1 { ", more --threads" } else { "" };
            format!(
                "a longer --time-limit{threads}, or --json to see the closest position each search reached"
            )
        }
        Outcome::Cutoff(Cutoff::Memory) => "a larger --memory (default 60% of memory)".to_string(),
        Outcome::Cutoff(Cutoff::States) => "a larger --states budget".to_string(),
        _ => return,
    };
    warn(&format!("bisolve: note: {} not solved: try {what}", label(entry)));
}

fn print_human(
    out: &mut Out,
    path: &Path,
    entry: &LevelEntry,
    report: &Report,
    (solution, shortened): (Option<&str>, Option<&Shortened>),
    quiet: bool,
    verbose: bool,
) -> Result<()> {
    let stats = &report.stats;
    let mut line = format!("{} {}: {}", path.display(), label(entry), report.outcome.status());
    if let Outcome::Solved(s) = &report.outcome {
        line.push_str(&format!(", {}, {}", count(s.moves as u64, "move"), count(s.pushes as u64, "push")));
        if let Some(before) = shortened {
            line.push_str(&format!(
                " (from {} in {:.2} s)",
                count(before.moves as u64, "move"),
                before.seconds
            ));
        }
    }
    if let Some(o) = report.optimality {
        let solved = matches!(report.outcome, Outcome::Solved(_));
        if o.proven && solved {
            line.push_str(&format!(
                ", {}",
                if o.objective == Objective::Pushes { "push-optimal" } else { "move-optimal" }
            ));
        } else if !o.proven {
            let unit = if o.objective == Objective::Pushes { "push" } else { "move" };
            let what = if solved { "not proven optimal: " } else { "" };
            line.push_str(&format!(", {what}at least {}", count(u64::from(o.lower_bound), unit)));
        }
    }
    line.push_str(&format!(
        ", {:.3} s, {}, {}",
        report.elapsed.as_secs_f64(),
        count(stats.generated(), "state"),
        count(report.threads as u64, "thread"),
    ));
    // The search's own terms (rate, table, strategy, how it was found) for those who ask.
    if verbose {
        line.push_str(&format!(
            " ({:.2} M/s, {} visited, {}",
            per_second(report) / 1e6,
            stats.states,
            report.strategy
        ));
        if let Some(note) = &report.note {
            line.push_str(&format!(", {note}"));
        }
        line.push(')');
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

/// Shortens the solution of a solved report in place with the optimizer, for `seconds` at
/// most, on the threads the solve ran on: fewer moves and never more pushes (the pushes
/// objective), or by the objective of an optimal search that did not finish. Returns what the
/// solution was when it changed.
fn shorten(
    level: &Level,
    report: &mut Report,
    seconds: f64,
    cancel: &AtomicBool,
) -> Result<Option<Shortened>> {
    let Outcome::Solved(sol) = &mut report.outcome else {
        return Ok(None);
    };
    // A proven-optimal solution has nothing to gain; an unproven one keeps its objective.
    let objective = match report.optimality {
        Some(o) if o.proven => return Ok(None),
        Some(o) => o.objective,
        None => Objective::Pushes,
    };
    if seconds <= 0.0 {
        return Ok(None);
    }
    let steps = parse_lurd(&sol.lurd)
        .map_err(|e| anyhow::anyhow!("internal error: bad LURD from the engine: {e}"))?;
    let settings = Settings {
        objective,
        time: Some(Duration::try_from_secs_f64(seconds).unwrap_or(Duration::MAX)),
        threads: report.threads,
        ..Settings::default()
    };
    let started = Instant::now();
    let done = optimize(level, &steps, &settings, cancel)?;
    if done.after == done.before {
        return Ok(None);
    }
    let before = Shortened { moves: sol.moves, pushes: sol.pushes, seconds: started.elapsed().as_secs_f64() };
    sol.lurd = done.lurd;
    (sol.moves, sol.pushes) = (done.after.moves, done.after.pushes);
    Ok(Some(before))
}
