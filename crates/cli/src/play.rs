//! `bisolve play`: watch a solution, in the terminal or as plain pictures, or write it as an
//! SVG, a GIF or a SOK file.
//!
//! The solution is the one given on the command line, else the first `Solution` section of the
//! file that solves the level, else one found by solving the level. It is replayed before
//! anything is shown. With `--svg`, `--gif` or `--sok` the files are written and nothing is
//! played. Otherwise, when standard input and output are both terminals (and `--plain` is not
//! given), the solution plays in the terminal with keys for pause, steps and speed; else every
//! frame (or every `--every`-th) is printed as an XSB picture headed by a `;` comment, so the
//! output is itself a level collection whose last level is the solved position.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};

use anyhow::{anyhow, bail, Result};
use bisolve_board::render::{render_state, Overlay};
use bisolve_board::{Level, LevelEntry};
use bisolve_engine::{Cutoff, Outcome};

use crate::args::{threads_or_all, PlayArgs};
use crate::config::{limits, plan};
use crate::export::{check_speed, Exports};
use crate::input::{describe_error, label, read_collection, select};
use crate::output::{warn, Exit, Out};
use crate::record::checked_solution;
use crate::term::{self, Ending};
use crate::timeline::Timeline;
use crate::verify::solution_text;

/// Runs the play command.
pub fn run(args: &PlayArgs, cancel: &AtomicBool, out: &mut Out) -> Result<Exit> {
    check_speed(args.export.speed)?;
    let collection = read_collection(&args.file)?;
    let entries = select(&collection, &args.file, args.select.level.as_deref())?;
    let [entry] = entries.as_slice() else {
        bail!(
            "{}: holds {} levels; say which one to play with --level N|TITLE",
            args.file.display(),
            entries.len()
        );
    };
    let level = entry.level.as_ref().map_err(|e| anyhow!(describe_error(&args.file, e)))?;
    let mut exports = Exports::new(&args.export, &collection.header, entry.index, 1, false)?;
    let lurd = match &args.solution {
        Some(arg) => solution_text(arg)?,
        None => match stored_solution(entry, level) {
            Some(lurd) => lurd,
            None => match solve(args, entry, level, cancel)? {
                Ok(lurd) => lurd,
                Err(exit) => return Ok(exit),
            },
        },
    };
    let timeline = Timeline::from_lurd(level, &lurd).map_err(|e| anyhow!("{}: {e}", label(entry)))?;
    if exports.any() {
        exports.add(entry, level, Some(&lurd))?;
        exports.finish()?;
        return Ok(Exit::Ok);
    }
    let title = format!("{}: {}", label(entry), counts(timeline.moves().len(), timeline.n_pushes()));
    let interactive = !args.plain && std::io::stdin().is_terminal() && std::io::stdout().is_terminal();
    if interactive {
        let ending = term::play(level, &timeline, &title, args.export.speed, cancel)?;
        return match ending {
            Ending::Quit { frame } => {
                out.line(&format!("{title} (stopped at move {frame})"))?;
                Ok(Exit::Ok)
            }
            Ending::Interrupted => Ok(Exit::Interrupted),
        };
    }
    plain_frames(out, level, &timeline, args.every, cancel)
}

/// The first solution stored in the file that solves the level.
fn stored_solution(entry: &LevelEntry, level: &Level) -> Option<String> {
    let sections = level.solutions();
    let found = sections.iter().find(|s| Timeline::from_lurd(level, &s.lurd).is_ok());
    match found {
        Some(s) => {
            warn(&format!("bisolve: {}: playing the solution on line {} ({})", label(entry), s.line, s.title))
        }
        None if !sections.is_empty() => {
            warn(&format!("bisolve: {}: no stored solution solves the level; solving it", label(entry)))
        }
        None => {}
    }
    found.map(|s| s.lurd.clone())
}

/// Solves the level: its LURD, or the exit status when it was not solved.
fn solve(
    args: &PlayArgs,
    entry: &LevelEntry,
    level: &Level,
    cancel: &AtomicBool,
) -> Result<Result<String, Exit>> {
    let plan = plan(&args.search, threads_or_all(args.threads))?.plan;
    let limits = limits(args.time_limit, None, None, 1)?;
    warn(&format!("bisolve: {}: solving it first", label(entry)));
    let report = plan.solve(level, &limits, cancel).map_err(|e| anyhow!("{}: {e}", label(entry)))?;
    match checked_solution(level, &report)? {
        Some(lurd) => {
            warn(&format!(
                "bisolve: {}: solved in {:.3} s ({})",
                label(entry),
                report.elapsed.as_secs_f64(),
                report.strategy
            ));
            Ok(Ok(lurd.to_string()))
        }
        None => {
            let note = report.note.as_ref().map_or(String::new(), |n| format!(" ({n})"));
            warn(&format!("bisolve: {}: {}{note}; nothing to play", label(entry), report.outcome.status()));
            let cancelled =
                report.outcome == Outcome::Cutoff(Cutoff::Cancelled) || cancel.load(Ordering::Relaxed);
            Ok(Err(if cancelled { Exit::Interrupted } else { Exit::NotAllSolved }))
        }
    }
}

/// Prints frame 0, every `every`-th frame and the last, each as an XSB picture under a comment.
fn plain_frames(
    out: &mut Out,
    level: &Level,
    timeline: &Timeline,
    every: u64,
    cancel: &AtomicBool,
) -> Result<Exit> {
    let board = level.board();
    let moves = timeline.moves().len();
    let pushes = timeline.n_pushes();
    let every = usize::try_from(every).unwrap_or(usize::MAX).max(1);
    let mut position = timeline.cursor(board);
    loop {
        let k = position.frame();
        if k % every == 0 || position.at_end() {
            if cancel.load(Ordering::Relaxed) {
                return Ok(Exit::Interrupted);
            }
            let heading = if k == 0 {
                format!("; start: {} to play", counts(moves, pushes))
            } else {
                let solved = if position.at_end() { ": solved" } else { "" };
                format!("; move {k} of {moves}, {}{solved}", plural(position.pushes(), "push", "pushes"))
            };
            out.line(&heading)?;
            for row in render_state(board, &position.state(), Overlay::default()).lines() {
                out.line(row)?;
            }
            out.line("")?;
        }
        if position.forward().is_none() {
            return Ok(Exit::Ok);
        }
    }
}

/// `N moves, M pushes`, singular where it should be.
fn counts(moves: usize, pushes: usize) -> String {
    format!("{}, {}", plural(moves, "move", "moves"), plural(pushes, "push", "pushes"))
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}
