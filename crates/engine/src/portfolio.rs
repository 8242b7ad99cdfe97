//! Portfolios: several differently-tuned searches racing on one level; the first verified
//! solution wins and stops the rest.
//!
//! Each member is a named configuration (directions, ordering, lower bounds, pruning). Each of
//! its directions is a search, run as a group of workers (see [`Portfolio::dives`]) that share
//! work as hash-distributed threads do ([`crate::hda`]), each on its own best-first dive. The
//! searches are spread over the threads, search `s` on thread `s % threads` (past one thread
//! each, each search gets threads of its own); a thread takes turns among its workers, balanced
//! by states generated, so that on one thread every member gets an equal share of the CPU (see
//! `schedule::count`). On more threads the share follows the deal: with the default members
//! on two threads, one thread holds every forward search and the other every backward search.
//! Dealing the searches so that every thread carries the same share instead was measured
//! (`benches/results/2026-12-07-forward-member.txt`) and not kept.
//!
//! Members share one visited table by default, so a forward state of one member can meet a backward
//! state of another and every member's states help every other's meetings. Two searches of the same
//! direction in one table each keep a visited set of their own and queue what is new to them
//! ([`Worker::with_own_visited`](crate::worker::Worker::with_own_visited)): each searches its whole
//! space in its own order, and the table records every state for meetings and paths. Until
//! 2026-11-25 they decided by the table alone, so the second of them queued only what the first had
//! not seen and, both starting from the same roots, ran dry after a few states: the figures below
//! for mixes with two members of one direction (and the default `bi-fess,bwd-fess` of then, which
//! was `bi-fess` alone) measured the first of them with the other's thread share. Measured with the
//! default members of then (bi-greedy, fwd-wastar, bwd-greedy, fwd-nearest), 2 threads, 10 s a
//! level (2026-11-24): shared tables solved Microban I 155, Microban II 133, Sasquatch 28, XSokoban
//! 1-45 19, Boxoban hard 1000; separate tables 155, 132, 27, 16, 1000. Separate tables (each member
//! an independent search) stay available for measurement. The members before the current ones,
//! `bi-fess,bi-fess-packing` (2026-11-25, same settings), solved 155, 135, 37, 26, 1000 in a shared
//! table and 155, 135, 36, 26, 1000 in separate tables (what `bi-fess` alone solves on each set,
//! XSokoban 13 gained and 11 lost). A backward-only member such as `bwd-fess-confined` adds
//! backward effort in a shared table: its states meet the other members' forward states.
//!
//! Members whose macros differ (goal or packing macros) can share a table: the solution's
//! forward half is then read with a configuration that knows every member's macros.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use bisolve_board::Level;

use crate::limits::{Cutoff, Limits};
use crate::report::{Outcome, Report, SolveError};
use crate::strategy::Weighting;
use crate::table::VisitedTable;

/// Whether the members share one visited table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TableMode {
    /// One table per member: members are independent searches.
    Separate,
    /// One table for all (default): meetings across members, but same-direction members split
    /// states.
    #[default]
    Shared,
}

/// How the searches are dealt over the threads while there are no more threads than searches.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Deal {
    /// While there are no more threads than members, member `m`'s searches share thread
    /// `m % threads` (default): a thread takes turns among whole members, so each member gets
    /// the share it gets on one thread wherever the threads divide the members evenly. With
    /// more threads, as [`Deal::Searches`].
    #[default]
    Members,
    /// Search `s` (the members' searches in order, forward before backward) runs on thread
    /// `s % threads`: with the default members on 2 threads, the four forward searches share
    /// one thread and the three backward ones the other.
    Searches,
}

/// A portfolio to run: its members, threads and table mode.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Portfolio {
    /// The members, in priority order.
    pub members: Vec<Member>,
    /// Threads for all members together (at least 1).
    pub threads: usize,
    /// Separate or shared visited tables.
    pub tables: TableMode,
    /// How a thread that holds searches of both directions shares its turns: it steps the search
    /// that has generated least, counting a forward search's children this many times.
    /// [`FORWARD_WEIGHT`](crate::strategy::FORWARD_WEIGHT) by default; 1 gives equal turns (`--set
    /// forward_weight=1`).
    pub forward_weight: u64,
    /// How the searches are dealt over the threads (see [`Deal`]).
    pub deal: Deal,
    /// Workers per search where the threads do not give each search several (see [`Dives`];
    /// [`DIVES`] by default).
    pub dives: Dives,
    /// Fresh starts with other dives, each once the run before it has gone on for a while
    /// (see [`Restart`]); empty for none.
    pub restarts: Vec<Restart>,
    /// A restart keeps the shared visited table of the runs before it (`--set restarts.keep_table=false`: a
    /// fresh table each run). The new run searches from scratch all the same, but a state an
    /// earlier run reached on the other side is a meeting: the backward dives of a restart
    /// can end on the forward states of every run before them, and the other way round. A run
    /// starts with a fresh table where the tables are separate, where the kept one has grown
    /// past half the memory limit, or after [`crate::table::RUNS`] runs.
    pub keep_table: bool,
    /// Where the portfolio restarts, its first run's forward workers run the perimeter early
    /// ([`Strategy::early_perimeter`](crate::Strategy::early_perimeter)): before their first
    /// expansion, 200,000 expansions of it, instead of 400,000 after 250,000. The restarts' runs
    /// keep the members' own. Off by default (measured no gain on aggregate,
    /// `benches/results/2026-12-04-early-perimeter.txt`); `--set restarts.early_perimeter=true`.
    ///
    /// See [`EARLY_PERIMETER_EXPANSIONS`](crate::bridge::EARLY_PERIMETER_EXPANSIONS). It can
    /// cost seconds on small levels the forward search would finish at once, since the
    /// perimeter runs all its expansions first.
    pub early_perimeter: bool,
}

impl Portfolio {
    /// The portfolio of one run: the members with the run's `settings` (a restart's, or the
    /// first run's, which keeps the members' own) and no restarts of its own; `first_of_several`
    /// for the first run of a portfolio that restarts, whose forward workers then run the
    /// perimeter early ([`Portfolio::early_perimeter`]).
    fn run(&self, settings: &Restart, first_of_several: bool) -> Portfolio {
        let Restart { dives, box_moves, cycle, packing, pull_bound, .. } = *settings;
        let mut run = Portfolio { dives, restarts: Vec::new(), ..self.clone() };
        for m in &mut run.members {
            if let Some(on) = box_moves {
                m.push.box_moves = on;
                m.pull.box_moves = on;
            }
            if let Some(on) = packing {
                m.push.packing = on;
            }
            if let Some(bound) = pull_bound {
                m.pull.bound = bound;
            }
            if let (Some(k), Weighting::Features(_)) = (cycle, m.strategy.weighting) {
                m.strategy.weighting = Weighting::Features(k);
            }
            m.strategy.early_perimeter |= first_of_several && self.early_perimeter;
        }
        run
    }
}

/// Solves a level with a portfolio of searches, restarting if the portfolio says so and the
/// time limit leaves room for it (see [`Restart`]). The report of a restarted solve counts
/// every search's effort and time.
pub fn solve_portfolio(
    level: &Level,
    portfolio: &Portfolio,
    limits: &Limits,
    cancel: &AtomicBool,
) -> Result<Report, SolveError> {
    // The runs: how long each may take before the next starts (`None`: the rest), and its
    // dives, moves, feature-cell turn, forward cells and backward bound (`None`: the
    // members' own).
    let first = Restart::new(Duration::ZERO, portfolio.dives);
    let mut runs = vec![(None, first)];
    for r in &portfolio.restarts {
        if let Some(last) = runs.last_mut() {
            last.0 = Some(r.after);
        }
        runs.push((None, *r));
    }
    let mut done: Option<Report> = None;
    let mut restarts: Vec<(f64, &Restart)> = Vec::new();
    // The table the runs keep (see Portfolio::keep_table), once a run has filled it.
    let keep = portfolio.keep_table && portfolio.tables == TableMode::Shared && runs.len() > 1;
    let mut kept: Option<VisitedTable> = None;
    for (k, (length, settings)) in runs.iter().enumerate() {
        let (used, states) = done.as_ref().map_or((Duration::ZERO, 0), |r| (r.elapsed, r.stats.states));
        let left = limits.time.map(|t| t.saturating_sub(used));
        // A run is cut short for the next only where the time limit leaves room for both.
        let length = length.filter(|l| left.is_none_or(|t| t > *l) && k + 1 < runs.len());
        let run_limits = Limits {
            time: length.or(left),
            states: limits.states.map(|s| s.saturating_sub(states)),
            ..*limits
        };
        let run = portfolio.run(settings, k == 0 && runs.len() > 1);
        if let Some(crate::limits::ProgressSink(progress)) = limits.progress {
            progress.set_run(k);
        }
        let table = keep.then(|| {
            let full = |t: &VisitedTable| limits.memory.is_some_and(|m| t.bytes() > m / 2);
            let fresh = || VisitedTable::new(16 * portfolio.threads.max(1));
            match kept.take() {
                Some(mut t) if !full(&t) => {
                    if t.next_run() {
                        t
                    } else {
                        fresh()
                    }
                }
                _ => fresh(),
            }
        });
        let mut report = solve_once(level, &run, &run_limits, cancel, table.as_ref())?;
        if let Some(earlier) = &done {
            restarts.push((earlier.elapsed.as_secs_f64(), settings));
            absorb(&mut report, earlier, table.as_ref());
        }
        kept = table;
        let last = length.is_none() || !matches!(report.outcome, Outcome::Cutoff(Cutoff::Time));
        done = Some(report);
        if last {
            break;
        }
    }
    let mut report = done.expect("at least one run");
    if !restarts.is_empty() {
        // Whole seconds, or tenths below 10 s (short restarts given with `restarts.schedule`).
        let mut at: Vec<String> = restarts
            .iter()
            .map(|&(t, &Restart { box_moves, cycle, packing, pull_bound, .. })| {
                let t = if t < 9.95 { format!("{t:.1} s") } else { format!("{t:.0} s") };
                let mut how: Vec<String> = Vec::new();
                match box_moves {
                    Some(true) => how.push("box moves".into()),
                    Some(false) => how.push("single moves".into()),
                    None => {}
                }
                if let Some(k) = cycle {
                    how.push(format!("fess{k}"));
                }
                match packing {
                    Some(true) => how.push("packing".into()),
                    Some(false) => how.push("unpacked".into()),
                    None => {}
                }
                if let Some(bound) = pull_bound {
                    how.push(format!("pull-{}", bound.name()));
                }
                if how.is_empty() {
                    t
                } else {
                    format!("{t} ({})", how.join(", "))
                }
            })
            .collect();
        let last = at.pop().unwrap_or_default();
        let at = if at.is_empty() { last } else { format!("{} and {last}", at.join(", ")) };
        let restarted = format!("restarted after {at} with more dives");
        report.note = Some(match report.note.take() {
            Some(note) => format!("{note}, {restarted}"),
            None => restarted,
        });
    }
    Ok(report)
}

/// Adds the counts, states, table bytes and time of an `earlier` run to `report`, keeping the
/// larger peak of open-list bytes. A solved report keeps no closest state or path of the
/// earlier run (those are for levels not solved). With a `kept` table the runs share, its
/// bytes and collisions are the whole solve's, not added up.
fn absorb(report: &mut Report, earlier: &Report, kept: Option<&VisitedTable>) {
    let solved = matches!(report.outcome, Outcome::Solved(_));
    let (a, b) = (&earlier.stats, &mut report.stats);
    b.forward.add(&a.forward);
    b.backward.add(&a.backward);
    if solved {
        for side in [&mut b.forward, &mut b.backward] {
            side.closest_path = None;
            side.closest_state = None;
        }
    }
    b.states += a.states;
    b.peak_open_bytes = b.peak_open_bytes.max(a.peak_open_bytes);
    match kept {
        Some(table) => {
            b.table_bytes = table.bytes().max(a.table_bytes);
            b.collisions = table.collisions();
        }
        None => {
            b.table_bytes += a.table_bytes;
            b.collisions += a.collisions;
        }
    }
    report.elapsed += earlier.elapsed;
}

mod members;
mod restarts;
mod schedule;

pub use members::{catalogue, default_members, members, search_count, Dives, Member, DEFAULT_MEMBERS, DIVES};
pub use restarts::{
    luby, luby_restarts, Restart, LUBY_RESTARTS, LUBY_UNIT, MAX_SCHEDULE_DIVES, RESTART_AFTER,
};
use schedule::solve_once;

#[cfg(test)]
mod tests;
