//! Limits and cancellation: a hard level stops on its time, state and memory limits and on
//! the caller's cancel flag, promptly, with the right reason and with its statistics filled.
//!
//! The timing checks use wide margins (500 ms) for loaded machines; the tests of this file
//! run one at a time (see [`serial`]) so they do not compete with each other for the CPU.

mod common;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, MutexGuard, OnceLock};
use std::time::{Duration, Instant};

use bisolve_board::Level;
use bisolve_engine::{solve, Config, Cutoff, Limits, Outcome, Report};
use common::{check_solution, config, level};

/// The slack allowed past a deadline or a cancel request.
const MARGIN: Duration = Duration::from_millis(500);

/// Holds the lock that makes the tests of this file run one at a time.
fn serial() -> MutexGuard<'static, ()> {
    static LOCK: Mutex<()> = Mutex::new(());
    LOCK.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// A level no strategy finishes in seconds: `levels/engine/endless.xsb`, an unsolvable trap
/// beside a large room of free boxes (the file says why no search ends on it). A hard but
/// solvable level will not do: XSokoban 29, used before, needs about 3.3M states on one thread,
/// yet a run on two threads once met in under a second.
fn hard_level() -> Level {
    common::engine_level("endless.xsb", 1)
}

/// Solves with the given limits and cancel flag; any solution is checked.
fn solve_timed(level: &Level, config: &Config, limits: &Limits, cancel: &AtomicBool) -> (Report, Duration) {
    let started = Instant::now();
    let report = solve(level, config, limits, cancel)
        .unwrap_or_else(|e| panic!("{}: solve failed: {e}", level.name()));
    let wall = started.elapsed();
    check_solution(level, &report);
    (report, wall)
}

/// The statistics of a search that was stopped are still filled in.
fn assert_stats_filled(report: &Report, what: &str) {
    assert!(report.stats.generated() > 0, "{what}: no states generated");
    assert!(report.stats.expanded() > 0, "{what}: no nodes expanded");
    assert!(report.stats.states > 0, "{what}: empty table");
    assert!(report.stats.table_bytes > 0, "{what}: no table bytes");
}

#[test]
fn time_limit_stops_within_margin() {
    let _serial = serial();
    let level = hard_level();
    let limit = Duration::from_secs(1);
    for threads in [1, 2] {
        let limits = Limits { time: Some(limit), ..Limits::default() };
        let cancel = AtomicBool::new(false);
        let (report, wall) = solve_timed(&level, &config("bidirectional", threads), &limits, &cancel);
        let what = format!("time limit, {threads} threads");
        assert_eq!(report.outcome, Outcome::Cutoff(Cutoff::Time), "{what}");
        assert!(wall <= limit + MARGIN, "{what}: returned after {wall:?}");
        assert!(report.elapsed >= limit, "{what}: stopped early, after {:?}", report.elapsed);
        assert_eq!(report.threads, threads);
        assert_stats_filled(&report, &what);
    }
}

#[test]
fn time_limit_stops_every_direction() {
    let _serial = serial();
    let level = hard_level();
    let limit = Duration::from_millis(300);
    for strategy in ["forward", "backward", "astar", "wastar"] {
        for threads in [1, 2] {
            let limits = Limits { time: Some(limit), ..Limits::default() };
            let cancel = AtomicBool::new(false);
            let (report, wall) = solve_timed(&level, &config(strategy, threads), &limits, &cancel);
            let what = format!("{strategy} with {threads} threads");
            assert_eq!(report.outcome, Outcome::Cutoff(Cutoff::Time), "{what}");
            assert!(wall <= limit + MARGIN, "{what}: returned after {wall:?}");
            assert_stats_filled(&report, &what);
        }
    }
}

#[test]
fn cancel_flag_set_before_the_solve_stops_it_at_once() {
    let _serial = serial();
    let level = hard_level();
    for threads in [1, 2] {
        let cancel = AtomicBool::new(true);
        let (report, wall) =
            solve_timed(&level, &config("bidirectional", threads), &common::time_limit(30.0), &cancel);
        assert_eq!(report.outcome, Outcome::Cutoff(Cutoff::Cancelled), "{threads} threads");
        assert!(wall <= MARGIN, "{threads} threads: returned after {wall:?}");
    }
}

#[test]
fn cancel_flag_set_from_another_thread_stops_the_solve() {
    let _serial = serial();
    let level = hard_level();
    for threads in [1, 2] {
        let cancel = AtomicBool::new(false);
        let cfg = config("bidirectional", threads);
        let limits = common::time_limit(30.0);
        let (report, stopped_after_cancel) = std::thread::scope(|s| {
            let solver = s.spawn(|| {
                let report = solve(&level, &cfg, &limits, &cancel).expect("solve");
                (report, Instant::now())
            });
            // Past the tables and the parking plan built before the first state.
            std::thread::sleep(Duration::from_millis(500));
            let cancelled_at = Instant::now();
            cancel.store(true, Ordering::Relaxed);
            let (report, returned_at) = solver.join().expect("solver thread");
            (report, returned_at.saturating_duration_since(cancelled_at))
        });
        check_solution(&level, &report);
        let what = format!("cancel from another thread, {threads} threads");
        assert_eq!(report.outcome, Outcome::Cutoff(Cutoff::Cancelled), "{what}");
        assert!(
            stopped_after_cancel <= MARGIN,
            "{what}: returned {stopped_after_cancel:?} after the flag was set"
        );
        assert_stats_filled(&report, &what);
    }
}

#[test]
fn state_limit_stops_with_states() {
    let _serial = serial();
    let level = hard_level();
    for threads in [1, 2] {
        let limits = Limits { states: Some(1000), time: Some(Duration::from_secs(30)), ..Limits::default() };
        let (report, _) =
            solve_timed(&level, &config("bidirectional", threads), &limits, &AtomicBool::new(false));
        let what = format!("state limit, {threads} threads");
        assert_eq!(report.outcome, Outcome::Cutoff(Cutoff::States), "{what}");
        assert!(report.stats.states >= 1000, "{what}: {} states", report.stats.states);
        assert_stats_filled(&report, &what);
    }
}

#[test]
fn memory_limit_stops_with_memory() {
    let _serial = serial();
    let level = hard_level();
    for threads in [1, 2] {
        let limits =
            Limits { memory: Some(64 * 1024), time: Some(Duration::from_secs(30)), ..Limits::default() };
        let (report, _) =
            solve_timed(&level, &config("bidirectional", threads), &limits, &AtomicBool::new(false));
        let what = format!("memory limit, {threads} threads");
        assert_eq!(report.outcome, Outcome::Cutoff(Cutoff::Memory), "{what}");
        assert_stats_filled(&report, &what);
    }
}

/// Limits that are not reached change nothing: one thread gives the same solution with and
/// without them.
#[test]
fn generous_limits_do_not_change_the_answer() {
    let _serial = serial();
    let level = common::engine_level("optimal.xsb", 3);
    let cfg = config("bidirectional", 1);
    let free = common::run(&level, &cfg, &Limits::default());
    let limited = common::run(
        &level,
        &cfg,
        &Limits {
            time: Some(Duration::from_secs(60)),
            memory: Some(1 << 30),
            states: Some(1 << 30),
            progress: None,
        },
    );
    let (a, b) = (common::expect_solved(&level, &free), common::expect_solved(&level, &limited));
    assert_eq!(a.lurd, b.lurd);
}

/// A state limit bounds the states the search visits: a solve with `states: Some(n)` on one
/// thread ends (solved or cut off) with at most `n` states in its table, give or take the
/// children of the node being expanded when the limit is reached.
#[test]
fn state_limit_is_not_overshot() {
    let _serial = serial();
    let hard = hard_level();
    let mut levels = vec![hard];
    if let Some(microban) = common::shared_collection("microban.xsb") {
        levels.push(microban.into_iter().nth(99).expect("Microban 100"));
    }
    // One expansion on each side past the limit: a node of box moves can have dozens of
    // children.
    const SLACK: usize = 128;
    let mut failures = Vec::new();
    for level in &levels {
        for limit in [10, 1000] {
            let limits =
                Limits { states: Some(limit), time: Some(Duration::from_secs(30)), ..Limits::default() };
            let (report, _) =
                solve_timed(level, &config("bidirectional", 1), &limits, &AtomicBool::new(false));
            if report.stats.states > limit + SLACK {
                failures.push(format!(
                    "{} with states limit {limit}: {} after visiting {} states",
                    level.name(),
                    report.outcome.status(),
                    report.stats.states
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// An open 125 x 125 room with 600 boxes and as many goals scattered over it (a fixed
/// pseudo-random layout): every expansion generates thousands of children, each with a
/// matching over hundreds of boxes, so one step takes tens of milliseconds. Built once.
fn crowded_room() -> &'static Level {
    static LEVEL: OnceLock<Level> = OnceLock::new();
    LEVEL.get_or_init(|| build_crowded_room(600))
}

fn build_crowded_room(n_boxes: usize) -> Level {
    const SIDE: usize = 127;
    let mut grid = vec![vec![b' '; SIDE]; SIDE];
    for (y, row) in grid.iter_mut().enumerate() {
        for (x, sq) in row.iter_mut().enumerate() {
            if x == 0 || y == 0 || x == SIDE - 1 || y == SIDE - 1 {
                *sq = b'#';
            }
        }
    }
    grid[1][1] = b'@';
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut placed = 0;
    while placed < 2 * n_boxes {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let (x, y) =
            (2 + (seed % (SIDE as u64 - 4)) as usize, 2 + ((seed >> 32) % (SIDE as u64 - 4)) as usize);
        if grid[y][x] == b' ' {
            grid[y][x] = if placed < n_boxes { b'$' } else { b'.' };
            placed += 1;
        }
    }
    let text: Vec<String> = grid.into_iter().map(|r| String::from_utf8(r).expect("ASCII")).collect();
    level(&text.join("\n"))
}

/// Regression: the limits were checked every 256 steps, and on a board with 600 boxes 256 steps
/// took over 30 s, so a 1 s limit stopped the search after 32 s. Checks now adapt to the cost
/// of a step; the margin here allows a few slow steps on a loaded machine.
#[test]
fn time_limit_stops_searches_with_slow_steps() {
    let _serial = serial();
    let level = crowded_room();
    let limit = Duration::from_secs(1);
    let limits = Limits { time: Some(limit), ..Limits::default() };
    let (report, _) = solve_timed(level, &config("bidirectional", 1), &limits, &AtomicBool::new(false));
    assert_eq!(report.outcome, Outcome::Cutoff(Cutoff::Time));
    assert!(report.elapsed <= limit + Duration::from_secs(5), "stopped after {:?}", report.elapsed);
    assert_stats_filled(&report, "600 boxes");
}

/// The same for the memory limit: checked by time as well as by steps, it stops a search of
/// slow steps before the open lists and table grow far past it.
#[test]
fn memory_limit_stops_searches_with_slow_steps() {
    let _serial = serial();
    let level = crowded_room();
    let memory = 8 << 20;
    let limits = Limits { memory: Some(memory), time: Some(Duration::from_secs(60)), ..Limits::default() };
    let (report, _) = solve_timed(level, &config("bidirectional", 1), &limits, &AtomicBool::new(false));
    assert_eq!(report.outcome, Outcome::Cutoff(Cutoff::Memory));
    let held = report.stats.table_bytes + report.stats.peak_open_bytes;
    assert!(held <= 4 * memory, "{held} bytes held at the stop, limit {memory}");
}

/// A solve given a progress sink publishes its table's size and its memory while it runs.
#[test]
fn a_running_solve_publishes_its_progress() {
    static PROGRESS: bisolve_engine::Progress = bisolve_engine::Progress::new();
    let _serial = serial();
    let level = hard_level();
    let limits = Limits {
        time: Some(Duration::from_millis(400)),
        progress: Some(bisolve_engine::ProgressSink(&PROGRESS)),
        ..Limits::default()
    };
    let report = common::run(&level, &config("bidirectional", 1), &limits);
    assert_eq!(report.outcome, Outcome::Cutoff(Cutoff::Time));
    let seen = PROGRESS.snapshot();
    assert!(
        seen.states > 0 && seen.states as u64 <= report.stats.states as u64,
        "{seen:?} of {}",
        report.stats.states
    );
    assert!(seen.bytes > 0, "{seen:?}");
    // Each direction's closest bound is published, and is the one its report gives.
    assert_eq!(seen.forward_bound, report.stats.forward.closest_h, "{seen:?}");
    assert_eq!(seen.backward_bound, report.stats.backward.closest_h, "{seen:?}");
    PROGRESS.reset();
    assert_eq!(PROGRESS.snapshot(), bisolve_engine::ProgressSnapshot::default());
}
