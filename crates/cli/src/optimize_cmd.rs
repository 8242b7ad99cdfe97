//! `bisolve optimize`: shorter solutions by vicinity search (`bisolve_optimizer`), for a
//! solution given on the command line or the best one a SOK file stores for each level.

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use anyhow::{bail, Result};
use bisolve_board::moves::{parse_lurd, replay, Step};
use bisolve_board::{Level, LevelEntry};
use bisolve_optimizer::{optimize, Length, Objective, Optimized, Settings};
use serde::Serialize;

use crate::args::{threads_or_all, ExportArgs, OptimizeArgs};
use crate::export::Exports;
use crate::input::{describe_error, label, read_collection, select};
use crate::output::{count, warn, Exit, Out};
use crate::verify::solution_text;

/// One line of `optimize --json`.
#[derive(Debug, Serialize)]
struct OptimizeRecord<'a> {
    file: String,
    index: usize,
    title: Option<&'a str>,
    /// `optimized` (shorter), `unchanged` (nothing shorter found) or `no solution`.
    status: &'static str,
    objective: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    before: Option<LengthRecord>,
    #[serde(skip_serializing_if = "Option::is_none")]
    after: Option<LengthRecord>,
    #[serde(skip_serializing_if = "Option::is_none")]
    solution: Option<&'a str>,
    seconds: f64,
    states: u64,
    /// Every vicinity was searched around the result to its end.
    exhausted: bool,
}

#[derive(Debug, Serialize)]
struct LengthRecord {
    moves: usize,
    pushes: usize,
    box_lines: usize,
    box_changes: usize,
}

impl From<Length> for LengthRecord {
    fn from(l: Length) -> LengthRecord {
        LengthRecord { moves: l.moves, pushes: l.pushes, box_lines: l.box_lines, box_changes: l.box_changes }
    }
}

/// Runs the optimize command.
pub fn run(args: &OptimizeArgs, cancel: &AtomicBool, out: &mut Out) -> Result<Exit> {
    if !(args.time_limit.is_finite() && args.time_limit > 0.0) {
        bail!("--time-limit must be a positive number of seconds, not {}", args.time_limit);
    }
    let settings = Settings {
        objective: args.objective,
        time: Some(Duration::try_from_secs_f64(args.time_limit).unwrap_or(Duration::MAX)),
        threads: threads_or_all(args.threads) as usize,
        ..Settings::default()
    };
    let collection = read_collection(&args.file)?;
    let entries = select(&collection, &args.file, args.select.level.as_deref())?;
    let given = match &args.solution {
        Some(arg) => {
            let [entry] = entries.as_slice() else {
                bail!(
                    "{}: holds {} levels; say which one the solution is for with --level N|TITLE, or \
                     leave out the SOLUTION to optimise the solutions the file stores",
                    args.file.display(),
                    entries.len()
                );
            };
            let text = solution_text(arg)?;
            let steps = parse_lurd(&text).map_err(|e| anyhow::anyhow!("the solution is not LURD: {e}"))?;
            let level = entry.level.as_ref().map_err(|e| anyhow::anyhow!(describe_error(&args.file, e)))?;
            if let Err(e) = replay(level.board(), level.start(), &steps) {
                bail!(
                    "{}: {}: the solution does not solve the level: {e}",
                    args.file.display(),
                    label(entry)
                );
            }
            Some(steps)
        }
        None => None,
    };
    let export = ExportArgs { sok: args.sok.clone(), rle: args.rle, speed: 8.0, ..ExportArgs::default() };
    let first = entries.first().map_or(1, |e| e.index);
    let mut exports = Exports::new(&export, &collection.header, first, entries.len(), true)?;
    let mut all = true;
    for entry in &entries {
        let level = match &entry.level {
            Ok(level) => level,
            Err(e) => {
                all = false;
                warn(&format!("bisolve: error: {}", describe_error(&args.file, e)));
                continue;
            }
        };
        let Some(steps) = given.clone().or_else(|| best_stored(level, args.objective)) else {
            all = false;
            report(args, out, entry, None, 0.0)?;
            exports.add(entry, level, None)?;
            continue;
        };
        let started = Instant::now();
        let done = optimize(level, &steps, &settings, cancel)?;
        report(args, out, entry, Some(&done), started.elapsed().as_secs_f64())?;
        exports.add(entry, level, Some(&done.lurd))?;
    }
    exports.finish()?;
    Ok(if all { Exit::Ok } else { Exit::NotAllSolved })
}

/// The stored solution that solves the level and is best by the objective, if any.
fn best_stored(level: &Level, objective: Objective) -> Option<Vec<Step>> {
    level
        .solutions()
        .iter()
        .filter_map(|s| parse_lurd(&s.lurd).ok())
        .filter_map(|steps| {
            let c = replay(level.board(), level.start(), &steps).ok()?;
            Some((objective.key(c.moves as u32, c.pushes as u32), steps))
        })
        .min_by_key(|(key, _)| *key)
        .map(|(_, steps)| steps)
}

/// Prints what became of one level's solution.
fn report(
    args: &OptimizeArgs,
    out: &mut Out,
    entry: &LevelEntry,
    done: Option<&Optimized>,
    seconds: f64,
) -> Result<()> {
    let status = match done {
        None => "no solution",
        Some(d) if d.after != d.before => "optimized",
        Some(_) => "unchanged",
    };
    if args.json {
        let rec = OptimizeRecord {
            file: args.file.display().to_string(),
            index: entry.index,
            title: entry.title.as_deref(),
            status,
            objective: args.objective.to_string(),
            before: done.map(|d| d.before.into()),
            after: done.map(|d| d.after.into()),
            solution: done.map(|d| d.lurd.as_str()),
            seconds,
            states: done.map_or(0, |d| d.states),
            exhausted: done.is_some_and(|d| d.exhausted),
        };
        return out.line(&serde_json::to_string(&rec)?);
    }
    let name = format!("{} {}", args.file.display(), label(entry));
    let Some(d) = done else {
        return out.line(&format!("{name}: no solution to optimise (give one, or store one in a SOK file)"));
    };
    let (b, a) = (d.before, d.after);
    let line = if status == "optimized" {
        format!(
            "{name}: {} -> {}, {} -> {}, {} -> {}, {} -> {}, {seconds:.2} s",
            b.moves,
            count(a.moves as u64, "move"),
            b.pushes,
            count(a.pushes as u64, "push"),
            b.box_lines,
            count(a.box_lines as u64, "box line"),
            b.box_changes,
            count(a.box_changes as u64, "box change")
        )
    } else {
        format!(
            "{name}: nothing shorter found near it ({}, {}), {seconds:.2} s",
            count(a.moves as u64, "move"),
            count(a.pushes as u64, "push")
        )
    };
    out.line(&line)?;
    out.line(&d.lurd)
}
