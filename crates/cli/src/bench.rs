//! `bisolve bench`: solve every level of some files, `--jobs` at a time, and report per file:
//! solved counts, total and median time, states per second per thread, memory, bytes per
//! state and the unsolved levels.

use std::fs::File;
use std::io::{BufWriter, IsTerminal, Write};
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use bisolve_board::parse::{RawCollection, RawLevel};
use bisolve_engine::Limits;
use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;

use crate::args::{threads_or_all, BenchArgs};
use bisolve_engine::{Plan, Planned};

use crate::config::{limits, plan, tell_notes};
use crate::input::{build, describe_error, label, read_collection, select_levels};
use crate::output::{count, warn, Exit, Out};
use crate::record::{checked_counts, invalid_record, record, LevelRecord};

/// One level to solve: which file, which level (validated by the job that solves it).
struct Task<'c> {
    file: usize,
    raw: &'c RawLevel,
}

/// What a finished level sends back.
struct Done {
    file: usize,
    record: LevelRecord,
    /// Bytes the search held (table and open lists).
    bytes: usize,
}

/// Totals of one file.
#[derive(Debug, Serialize)]
struct FileSummary {
    summary: bool,
    file: String,
    levels: usize,
    solved: usize,
    unsolvable: usize,
    timeout: usize,
    memory: usize,
    invalid: usize,
    other: usize,
    total_seconds: f64,
    median_seconds: f64,
    run_wall_seconds: f64,
    levels_per_second: f64,
    states: u64,
    states_per_second_per_thread: f64,
    bytes_per_state: f64,
    peak_level_bytes: usize,
    unsolved: Vec<usize>,
    threads: u32,
    jobs: u32,
    strategy: String,
    time_limit: f64,
    /// The search options as they ran (see `bisolve options`).
    options: serde_json::Value,
}

/// Runs the bench command.
pub fn run(args: &BenchArgs, cancel: &AtomicBool, out: &mut Out) -> Result<Exit> {
    let threads = threads_or_all(Some(args.threads));
    let planned = plan(&args.search, threads)?;
    let plan = &planned.plan;
    let limits =
        limits(args.time_limit, args.limits.memory.as_deref(), args.limits.states, args.jobs as usize)?;
    let collections: Vec<RawCollection> =
        args.files.iter().map(|f| read_collection(f)).collect::<Result<_>>()?;
    tell_notes(&planned, true);
    let mut tasks: Vec<Task<'_>> = Vec::new();
    for (file, c) in collections.iter().enumerate() {
        let chosen = select_levels(c, &args.files[file], args.select.level.as_deref())?;
        tasks.extend(chosen.into_iter().map(|raw| Task { file, raw }));
    }
    if let Some(shard) = args.shard {
        tasks = shard.part(tasks, 0);
    }
    let mut json = match &args.json {
        Some(path) => Some(BufWriter::new(
            File::create(path).with_context(|| format!("{}: cannot create the file", path.display()))?,
        )),
        None => None,
    };
    let started = Instant::now();
    let mut results: Vec<Vec<Done>> = collections.iter().map(|_| Vec::new()).collect();
    let progress = Progress::new(tasks.len());
    let next = AtomicUsize::new(0);
    let (tx, rx) = crossbeam::channel::unbounded::<Result<Done>>();
    std::thread::scope(|s| -> Result<()> {
        for j in 0..args.jobs.min(tasks.len().max(1) as u32) {
            let tx = tx.clone();
            let (tasks, next, files) = (&tasks, &next, &args.files);
            let (plan, limits) = (plan, &limits);
            std::thread::Builder::new().name(format!("bisolve-bench-{j}")).spawn_scoped(s, move || {
                while !cancel.load(Ordering::Relaxed) {
                    let Some(task) = tasks.get(next.fetch_add(1, Ordering::Relaxed)) else {
                        break;
                    };
                    if tx.send(solve_one(&files[task.file], task, plan, limits, cancel)).is_err() {
                        break;
                    }
                }
            })?;
        }
        drop(tx);
        for done in rx {
            let done = done?;
            progress.update(&done.record);
            if let Some(w) = json.as_mut() {
                // Each record reaches the file when its level ends, so a long run can be
                // followed (`tail -f`).
                serde_json::to_writer(&mut *w, &done.record)?;
                w.write_all(b"\n")?;
                w.flush()?;
            }
            results[done.file].push(done);
        }
        Ok(())
    })?;
    progress.finish();
    let wall = started.elapsed();
    let mut all_solved = true;
    let mut summaries = Vec::new();
    for (path, done) in args.files.iter().zip(&mut results) {
        done.sort_by_key(|d| d.record.index);
        let summary = summarize(path, done, args, &planned, wall);
        all_solved &= summary.solved == summary.levels;
        summaries.push(summary);
    }
    print_table(out, &summaries, wall)?;
    if let Some(mut w) = json {
        for summary in &summaries {
            serde_json::to_writer(&mut w, summary)?;
            w.write_all(b"\n")?;
        }
        w.flush()?;
    }
    let finished: usize = results.iter().map(Vec::len).sum();
    Ok(if cancel.load(Ordering::Relaxed) || finished < tasks.len() {
        Exit::Interrupted
    } else if all_solved {
        Exit::Ok
    } else {
        Exit::NotAllSolved
    })
}

/// Solves one level (or records why it is invalid).
fn solve_one(
    path: &Path,
    task: &Task<'_>,
    plan: &Plan,
    limits: &Limits,
    cancel: &AtomicBool,
) -> Result<Done> {
    let entry = &build(task.raw);
    let level = match &entry.level {
        Ok(level) => level,
        Err(e) => {
            let record = invalid_record(path, entry, plan, describe_error(path, e));
            return Ok(Done { file: task.file, record, bytes: 0 });
        }
    };
    let report = plan
        .solve(level, limits, cancel)
        .map_err(|e| anyhow::anyhow!("{}: {}: {e}", path.display(), label(entry)))?;
    let checked = checked_counts(level, &report)?;
    let bytes = report.stats.table_bytes + report.stats.peak_open_bytes;
    Ok(Done { file: task.file, record: record(path, entry, &report, checked), bytes })
}

fn summarize(path: &Path, done: &[Done], args: &BenchArgs, planned: &Planned, wall: Duration) -> FileSummary {
    let plan = &planned.plan;
    let count = |status: &str| done.iter().filter(|d| d.record.status == status).count();
    let mut seconds: Vec<f64> = done.iter().map(|d| d.record.seconds).collect();
    seconds.sort_by(f64::total_cmp);
    let total_seconds: f64 = seconds.iter().sum();
    let states: u64 = done.iter().map(|d| d.record.states).sum();
    let thread_seconds: f64 = done.iter().map(|d| d.record.seconds * d.record.threads as f64).sum();
    let table_bytes: usize = done.iter().map(|d| d.record.table_bytes).sum();
    let visited: usize = done.iter().map(|d| d.record.visited).sum();
    let (solved, unsolvable, timeout, memory, invalid) =
        (count("solved"), count("unsolvable"), count("timeout"), count("memory"), count("invalid"));
    FileSummary {
        summary: true,
        file: path.display().to_string(),
        levels: done.len(),
        solved,
        unsolvable,
        timeout,
        memory,
        invalid,
        other: done.len() - solved - unsolvable - timeout - memory - invalid,
        total_seconds,
        median_seconds: median(&seconds),
        run_wall_seconds: wall.as_secs_f64(),
        levels_per_second: if total_seconds > 0.0 {
            done.len() as f64 * f64::from(args.jobs.min(done.len().max(1) as u32)) / total_seconds
        } else {
            0.0
        },
        states,
        states_per_second_per_thread: if thread_seconds > 0.0 { states as f64 / thread_seconds } else { 0.0 },
        bytes_per_state: if visited > 0 { table_bytes as f64 / visited as f64 } else { 0.0 },
        peak_level_bytes: done.iter().map(|d| d.bytes).max().unwrap_or(0),
        unsolved: done.iter().filter(|d| d.record.status != "solved").map(|d| d.record.index).collect(),
        threads: planned.plan.threads() as u32,
        jobs: args.jobs,
        strategy: plan.name(),
        time_limit: args.time_limit,
        options: serde_json::to_value(&planned.options).unwrap_or_default(),
    }
}

fn median(sorted: &[f64]) -> f64 {
    match sorted.len() {
        0 => 0.0,
        n if n % 2 == 1 => sorted[n / 2],
        n => (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0,
    }
}

fn print_table(out: &mut Out, summaries: &[FileSummary], wall: Duration) -> Result<()> {
    out.line(&format!(
        "{:<34} {:>9} {:>9} {:>9} {:>10} {:>9} {:>8}  unsolved",
        "file", "solved", "total s", "median s", "states/s/t", "peak MB", "B/state"
    ))?;
    for s in summaries {
        let name =
            Path::new(&s.file).file_name().map_or(s.file.clone(), |n| n.to_string_lossy().into_owned());
        out.line(&format!(
            "{:<34} {:>9} {:>9.2} {:>9.3} {:>9.2}M {:>9.1} {:>8.1}  {}",
            name,
            format!("{}/{}", s.solved, s.levels),
            s.total_seconds,
            s.median_seconds,
            s.states_per_second_per_thread / 1e6,
            s.peak_level_bytes as f64 / (1 << 20) as f64,
            s.bytes_per_state,
            unsolved_list(&s.unsolved),
        ))?;
    }
    let levels: usize = summaries.iter().map(|s| s.levels).sum();
    out.line(&format!(
        "{} in {:.2} s wall ({:.1} levels/s), {} per level, {} at once, strategy {}, \
         {} s limit; peak resident memory {}",
        count(levels as u64, "level"),
        wall.as_secs_f64(),
        levels as f64 / wall.as_secs_f64().max(1e-9),
        count(summaries.first().map_or(1, |s| s.threads) as u64, "thread"),
        summaries.first().map_or(1, |s| s.jobs),
        summaries.first().map_or(String::new(), |s| s.strategy.clone()),
        summaries.first().map_or(0.0, |s| s.time_limit),
        peak_rss().map_or("unknown".to_string(), |b| format!("{:.1} MB", b as f64 / (1 << 20) as f64)),
    ))?;
    Ok(())
}

fn unsolved_list(indices: &[usize]) -> String {
    if indices.is_empty() {
        return "-".into();
    }
    let shown: Vec<String> = indices.iter().take(20).map(usize::to_string).collect();
    let more = indices.len().saturating_sub(20);
    if more > 0 {
        format!("{} (+{more} more)", shown.join(" "))
    } else {
        shown.join(" ")
    }
}

/// The process's peak resident set size, from /proc (Linux).
fn peak_rss() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.trim_start_matches("VmHWM:").trim().trim_end_matches("kB").trim().parse().ok()?;
    Some(kb * 1024)
}

/// A progress bar on a terminal; plain lines every few seconds otherwise.
struct Progress {
    bar: Option<ProgressBar>,
    total: usize,
    started: Instant,
    state: std::cell::Cell<(usize, usize, Instant)>,
}

impl Progress {
    fn new(total: usize) -> Progress {
        let bar = std::io::stderr().is_terminal().then(|| {
            let bar = ProgressBar::new(total as u64);
            let style = ProgressStyle::with_template(
                "{elapsed_precise} [{bar:40}] {pos}/{len} levels, {msg}, ETA {eta}",
            )
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> ");
            bar.set_style(style);
            bar
        });
        let now = Instant::now();
        Progress { bar, total, started: now, state: std::cell::Cell::new((0, 0, now)) }
    }

    fn update(&self, record: &LevelRecord) {
        let (mut solved, mut failed, mut last) = self.state.get();
        if record.status == "solved" {
            solved += 1;
        } else {
            failed += 1;
        }
        let done = solved + failed;
        match &self.bar {
            Some(bar) => {
                // The position first: a redraw on the message must not show more levels
                // solved than finished.
                bar.set_position(done as u64);
                bar.set_message(format!("{solved} solved, {failed} failed"));
            }
            None if last.elapsed() >= Duration::from_secs(5) || done == self.total => {
                last = Instant::now();
                let elapsed = self.started.elapsed().as_secs_f64();
                let eta = elapsed / done as f64 * (self.total - done) as f64;
                warn(&format!(
                    "bench: {done}/{} levels, {solved} solved, {failed} failed, {elapsed:.1} s elapsed, ETA {eta:.0} s",
                    self.total
                ));
            }
            None => {}
        }
        self.state.set((solved, failed, last));
    }

    fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}
