//! Solving one level: set up the searches, run them on threads, stitch and verify the answer.

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use bisolve_board::search::Expander;
use bisolve_board::Level;
use bisolve_pull::{Backward, PullConfig};
use bisolve_push::{Forward, PushConfig};

use crate::bridge::{BridgeConfig, Bridges};
use crate::closest::Closest;
use crate::hda::{Group, Mailbox, FLUSH_EVERY};
use crate::limits::{Cutoff, Limits, Pacer, Stop, StopOnDrop};
use crate::report::{closest_of, closest_path, dead_root, solution_of, Outcome, Report, SolveError};
use crate::stats::{SideStats, Stats};
use crate::strategy::{Directions, Strategy, FORWARD_WEIGHT};
use crate::table::VisitedTable;
use crate::worker::{Found, Step, Worker};

/// Everything that shapes a solve except its limits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Config {
    /// Directions and ordering.
    pub strategy: Strategy,
    /// Worker threads (at least 1).
    pub threads: usize,
    /// Forward search switches.
    pub push: PushConfig,
    /// Backward search switches.
    pub pull: PullConfig,
    /// One thread holding both directions steps the one that has generated least, counting
    /// the forward search's states this many times, so the forward search gets one part of
    /// the thread in `1 + forward_weight`. Default [`FORWARD_WEIGHT`] (a quarter); 1 gives
    /// equal turns (`--set forward_weight=1`). More threads give each direction its own.
    pub forward_weight: u64,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            strategy: Strategy::default(),
            threads: 1,
            push: PushConfig::default(),
            pull: PullConfig::default(),
            forward_weight: FORWARD_WEIGHT,
        }
    }
}

/// How the searches ended, before stitching.
enum End {
    Found(Found),
    Exhausted,
    /// A search that may skip moves (see [`Expander::complete`]) ran dry: it proves nothing,
    /// and the others go on.
    Dry,
    Stopped,
}

/// Shards of the visited table per worker thread: enough that two threads rarely want the
/// same shard lock at once.
const SHARDS_PER_THREAD: usize = 16;

/// Solves a level. `cancel` is polled by every worker (set it from a Ctrl-C handler).
pub fn solve(
    level: &Level,
    config: &Config,
    limits: &Limits,
    cancel: &AtomicBool,
) -> Result<Report, SolveError> {
    let started = Instant::now();
    let threads = config.threads.max(1);
    let mut report = Report {
        outcome: Outcome::Unsolvable,
        stats: Stats::default(),
        elapsed: Duration::ZERO,
        threads,
        strategy: config.strategy.to_string(),
        note: None,
    };
    if let Some(why) = level.walled_off() {
        report.note = Some(why.to_string());
        report.elapsed = started.elapsed();
        return Ok(report);
    }
    let board = level.board();
    let start = level.start();
    let fwd = Forward::new(board, start, config.strategy.forward_config(config.push));
    let bwd = Backward::new(board, start, config.strategy.backward_config(config.pull));
    let table = VisitedTable::new(SHARDS_PER_THREAD * threads);
    let directions = config.strategy.directions;
    let use_fwd = directions != Directions::Backward;
    let use_bwd = directions != Directions::Forward;
    if (!use_fwd && dead_root(&fwd)) || (!use_bwd && dead_root(&bwd)) {
        report.elapsed = started.elapsed();
        return Ok(report);
    }
    // Threads per direction: one thread takes turns between both directions.
    let (n_fwd, n_bwd) = match directions {
        Directions::Forward => (threads, 0),
        Directions::Backward => (0, threads),
        Directions::Both if threads == 1 => (1, 1),
        Directions::Both => (threads - threads / 2, threads / 2),
    };
    let stop = Stop::new(*limits, cancel, n_fwd + n_bwd);
    let strategy = config.strategy;
    let n = board.n_boxes();
    let zobrist = board.zobrist();
    let (closest, forward_closest) = (Closest::new(), Closest::new());
    let bridges = strategy.uses_bridges();
    let back_bridges = strategy.uses_backward_bridges();
    let mut fws: Vec<_> = (0..n_fwd)
        .map(|i| {
            let mut w = Worker::new(&fwd, zobrist, n, strategy, i);
            if back_bridges {
                w = w.publishing(&forward_closest, false);
            }
            // One forward worker runs the bridges: two would aim at the same states.
            if bridges && i == 0 {
                w = w.with_bridges(Bridges::new(BridgeConfig::for_strategy(&strategy), board, &closest));
            }
            w
        })
        .collect();
    let mut bws: Vec<_> = (0..n_bwd)
        .map(|i| {
            let mut w = Worker::new(&bwd, zobrist, n, strategy, n_fwd + i);
            if bridges {
                w = w.publishing(&closest, strategy.live_targets);
            }
            if back_bridges && i == 0 {
                w = w.with_bridges(Bridges::new(BridgeConfig::default(), board, &forward_closest));
            }
            w
        })
        .collect();
    // Seed both sides before any search so a root found by the other side is a meeting.
    let mut seeded = fws.first_mut().and_then(|w| w.seed(&table));
    if seeded.is_none() {
        seeded = bws.first_mut().and_then(|w| w.seed(&table));
    }
    stop.set_seeded(table.len());
    let end = match seeded {
        Some(found) => End::Found(found),
        None if threads == 1 => {
            run_interleaved(fws.first_mut(), bws.first_mut(), &table, &stop, config.forward_weight.max(1))
        }
        None => run_groups(&mut fws, &mut bws, &table, &stop)?,
    };
    let closest = closest_of(fws.iter().map(Worker::closest_state));
    let backward_closest = closest_of(bws.iter().map(Worker::closest_state));
    let mut forward = SideStats::default();
    for w in fws {
        forward.add(&w.finish());
    }
    let mut backward = SideStats::default();
    for w in bws {
        backward.add(&w.finish());
    }
    report.stats = Stats {
        forward,
        backward,
        states: table.len(),
        table_bytes: table.bytes(),
        peak_open_bytes: stop.open_bytes(),
        collisions: table.collisions(),
    };
    report.outcome = match end {
        End::Exhausted => Outcome::Unsolvable,
        End::Stopped | End::Dry => Outcome::Cutoff(stop.cutoff().unwrap_or(Cutoff::Cancelled)),
        End::Found(found) => Outcome::Solved(solution_of(
            level,
            use_fwd.then_some(&fwd),
            use_bwd.then_some(&bwd),
            &table,
            &found,
        )?),
    };
    if !matches!(report.outcome, Outcome::Solved(_)) {
        report.stats.backward.closest_state = backward_closest.map(|(_, s)| s);
        report.stats.forward.closest_state = closest.as_ref().map(|(_, s)| s.clone());
        report.stats.forward.closest_path = closest.and_then(|c| closest_path(level, &fwd, &table, &c));
    }
    report.elapsed = started.elapsed();
    Ok(report)
}

/// Counts a step, checks the limits when the pacer says they are due; true once the search
/// must stop.
fn must_stop<E: Expander>(
    w: &mut Worker<'_, E>,
    table: &VisitedTable,
    stop: &Stop<'_>,
    pacer: &mut Pacer,
) -> bool {
    if stop.counts_states() {
        w.report_inserted(stop);
    }
    w.check_limits(stop, table, pacer.tick());
    stop.is_set()
}

/// One thread: a single direction, or both taking turns. The side that has generated fewer
/// states (the forward search's counted `forward_weight` times, see
/// [`Config::forward_weight`]) goes next. (Pohl's rule, smaller open list first, starved the
/// backward search on levels where the forward search meets many duplicates: Microban 153
/// gave it 1% of the expansions. Equal effort generated 47% fewer states than that rule over
/// Microban I and 17% fewer over Microban II, with the same levels solved at 2-3 s each. A
/// quarter to the forward search, against equal turns, at 10 s a level: XSokoban 1-45 and
/// Sasquatch 60 against 56 levels, in 0.92 of the time.)
fn run_interleaved<F: Expander, B: Expander>(
    mut fw: Option<&mut Worker<'_, F>>,
    mut bw: Option<&mut Worker<'_, B>>,
    table: &VisitedTable,
    stop: &Stop<'_>,
    forward_weight: u64,
) -> End {
    let mut pacer = Pacer::new();
    loop {
        let forward_turn = match (&fw, &bw) {
            (Some(f), Some(b)) => f.stats.generated.saturating_mul(forward_weight) <= b.stats.generated,
            (Some(_), None) => true,
            (None, _) => false,
        };
        let step = match (forward_turn, fw.as_deref_mut(), bw.as_deref_mut()) {
            (true, Some(w), _) => {
                if must_stop(w, table, stop, &mut pacer) {
                    return End::Stopped;
                }
                if let Some(found) = w.bridge(table, stop) {
                    return End::Found(found);
                }
                w.step(table, None)
            }
            (_, _, Some(w)) => {
                if must_stop(w, table, stop, &mut pacer) {
                    return End::Stopped;
                }
                // Backward bridges, when on, run on the backward search's turns.
                if let Some(found) = w.bridge(table, stop) {
                    return End::Found(found);
                }
                w.step(table, None)
            }
            _ => return End::Exhausted,
        };
        match step {
            Step::Continue => {}
            // A side that runs dry has proven the level unsolvable on its own, unless it may
            // have skipped moves; then the other side goes on alone.
            Step::Exhausted if forward_turn && fw.as_ref().is_some_and(|w| !w.complete()) && bw.is_some() => {
                fw = None;
            }
            Step::Exhausted => return End::Exhausted,
            Step::Found(f) => return End::Found(f),
        }
    }
}

/// Every worker on its own thread: each direction's workers form a hash-distributed group
/// ([`crate::hda`]), and all of them share the visited table. The first worker to find a
/// solution, or whose group runs dry, stops everyone.
fn run_groups<F: Expander, B: Expander>(
    fws: &mut [Worker<'_, F>],
    bws: &mut [Worker<'_, B>],
    table: &VisitedTable,
    stop: &Stop<'_>,
) -> Result<End, SolveError> {
    let (fgroup, finboxes) = Group::new(fws.len());
    let (bgroup, binboxes) = Group::new(bws.len());
    let ends: Vec<std::thread::Result<End>> = std::thread::scope(|s| {
        let mut handles = Vec::new();
        for (i, (w, inbox)) in fws.iter_mut().zip(finboxes).enumerate() {
            let group = &fgroup;
            let name = format!("bisolve-forward-{i}");
            handles.push(spawn_member(s, name, stop, move || {
                run_member(w, Mailbox::new(i, group, inbox), table, stop)
            }));
        }
        for (i, (w, inbox)) in bws.iter_mut().zip(binboxes).enumerate() {
            let group = &bgroup;
            let name = format!("bisolve-backward-{i}");
            handles.push(spawn_member(s, name, stop, move || {
                run_member(w, Mailbox::new(i, group, inbox), table, stop)
            }));
        }
        handles.into_iter().map(|h| h.and_then(|h| h.join())).collect()
    });
    let mut result = End::Stopped;
    for end in ends {
        match end.map_err(|_| SolveError::Panic)? {
            End::Found(f) => return Ok(End::Found(f)),
            End::Exhausted => result = End::Exhausted,
            End::Stopped | End::Dry => {}
        }
    }
    Ok(result)
}

/// Starts one named worker thread that stops everyone when it ends or panics.
fn spawn_member<'scope, 'env>(
    s: &'scope std::thread::Scope<'scope, 'env>,
    name: String,
    stop: &'scope Stop<'_>,
    run: impl FnOnce() -> End + Send + 'scope,
) -> std::thread::Result<std::thread::ScopedJoinHandle<'scope, End>> {
    std::thread::Builder::new()
        .name(name)
        .spawn_scoped(s, move || {
            let _guard = StopOnDrop(stop);
            let end = run();
            if !matches!(end, End::Stopped | End::Dry) {
                stop.set();
            }
            end
        })
        .map_err(|e| Box::new(e) as Box<dyn std::any::Any + Send>)
}

/// One member of a group: takes in what others send, expands, and waits when it runs dry.
fn run_member<E: Expander>(
    w: &mut Worker<'_, E>,
    mut mailbox: Mailbox<'_>,
    table: &VisitedTable,
    stop: &Stop<'_>,
) -> End {
    let mut pacer = Pacer::new();
    let mut steps = 0u64;
    loop {
        steps += 1;
        if must_stop(w, table, stop, &mut pacer) {
            return End::Stopped;
        }
        w.receive(&mut mailbox);
        if w.open_len() == 0 {
            if w.idle(&mut mailbox) {
                return if w.complete() { End::Exhausted } else { End::Dry };
            }
            continue;
        }
        if let Some(found) = w.bridge(table, stop) {
            return End::Found(found);
        }
        match w.step(table, Some(&mut mailbox)) {
            Step::Continue | Step::Exhausted => {}
            Step::Found(f) => return End::Found(f),
        }
        if steps % FLUSH_EVERY == 0 {
            mailbox.flush();
        }
    }
}
