//! Portfolios: several differently-tuned searches racing on one level; the first verified
//! solution wins and stops the rest.
//!
//! Each member is a named configuration (directions, ordering, lower bounds, pruning). Each of
//! its directions is a search, run as a group of workers (see [`Portfolio::dives`]) that share
//! work as hash-distributed threads do ([`crate::hda`]), each on its own best-first dive. The
//! searches are spread over the threads (past one thread each, each search gets threads of its
//! own); a thread takes turns among its workers, balanced by states generated, so every member
//! gets an equal share of the CPU whatever the thread count.
//!
//! Members share one visited table by default, so a forward state of one member can meet a
//! backward state of another and every member's states help every other's meetings. Two
//! searches of the same direction in one table each keep a visited set of their own and queue
//! what is new to them ([`Worker::with_own_visited`]): each searches its whole space in its
//! own order, and the table records every state for meetings and paths. Until 2026-11-25 they
//! decided by the table alone, so the second of them queued only what the first had not seen
//! and, both starting from the same roots, ran dry after a few states: the figures below for
//! mixes with two members of one direction (and the default `bi-fess,bwd-fess` of then, which
//! was `bi-fess` alone) measured the first of them with the other's thread share. Measured with the
//! default members of then (bi-greedy, fwd-wastar, bwd-greedy, fwd-nearest), 2 threads, 10 s a
//! level (2026-11-24): shared tables solved Microban I 155, Microban II 133, Sasquatch 28,
//! XSokoban 1-45 19, Boxoban hard 1000; separate tables 155, 132, 27, 16, 1000. Separate
//! tables (each member an independent search) stay available for measurement. The members
//! before the current ones, `bi-fess,bi-fess-packing` (2026-11-25, same settings), solved 155,
//! 135, 37, 26, 1000 in a shared table and 155, 135, 36, 26, 1000 in separate tables (what
//! `bi-fess` alone solves on each set, XSokoban 13 gained and 11 lost). A backward-only member
//! such as `bwd-fess-confined` adds backward effort in a shared table: its states meet the
//! other members' forward states.
//!
//! Members whose macros differ (goal or packing macros) can share a table: the solution's
//! forward half is then read with a configuration that knows every member's macros.

use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use bisolve_board::search::{Expander, Side};
use bisolve_board::{Level, State};
use bisolve_deadlock::bound::BoundKind;
use bisolve_pull::{Backward, PullConfig};
use bisolve_push::{Forward, PushConfig};
use parking_lot::Mutex;

use crate::bridge::{BridgeConfig, Bridges};
use crate::closest::Closest;
use crate::hda::{Group, Idle, Mailbox, FLUSH_EVERY};
use crate::limits::{Cutoff, Due, Limits, Pacer, Stop, StopOnDrop};
use crate::report::{closest_of, closest_path, dead_root, solution_of, Outcome, Report, SolveError};
use crate::stats::{SideStats, Stats};
use crate::strategy::{Directions, Strategy, Weighting};
use crate::table::VisitedTable;
use crate::worker::{Found, OwnVisited, Step, Worker};

/// One configuration of a portfolio.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Member {
    /// The name used by `--portfolio`.
    pub name: &'static str,
    /// What it is, for `bisolve strategies`.
    pub about: &'static str,
    /// Directions and ordering.
    pub strategy: Strategy,
    /// Forward switches.
    pub push: PushConfig,
    /// Backward switches.
    pub pull: PullConfig,
}

/// Whether the members share one visited table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum TableMode {
    /// One table per member: members are independent searches.
    Separate,
    /// One table for all (default): meetings across members, but same-direction members split
    /// states.
    #[default]
    Shared,
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
    /// How a thread that holds searches of both directions shares its turns: it steps the
    /// search that has generated least, counting a forward search's children this many times.
    /// [`FORWARD_WEIGHT`](crate::strategy::FORWARD_WEIGHT) by default; 1 gives equal turns (`--equal-turns`).
    pub forward_weight: u64,
    /// Workers per search where the threads do not give each search several (see [`Dives`];
    /// [`DIVES`] by default).
    pub dives: Dives,
    /// Fresh starts with other dives, each once the run before it has gone on for a while
    /// (see [`Restart`]); empty for none.
    pub restarts: Vec<Restart>,
    /// A restart keeps the shared visited table of the runs before it (`--no-keep-table`: a
    /// fresh table each run). The new run searches from scratch all the same, but a state an
    /// earlier run reached on the other side is a meeting: the backward dives of a restart
    /// can end on the forward states of every run before them, and the other way round. A run
    /// starts with a fresh table where the tables are separate, where the kept one has grown
    /// past half the memory limit, or after [`crate::table::RUNS`] runs.
    pub keep_table: bool,
    /// Where the portfolio restarts, its first run's forward workers run the perimeter early
    /// ([`Strategy::early_perimeter`]): before their first expansion, 200,000 expansions of
    /// it, instead of 400,000 after 250,000. The restarts' runs keep the members' own. Default
    /// on; `--no-early-perimeter`.
    ///
    /// The first run has 10 s. XSokoban 32 needed 12-19 s of it on a day the machine ran 30%
    /// slower (solved within 10 s in 1 of 13 runs, and by no later run), and 3.4-4.9 s with
    /// the early perimeter (4 of 4); see
    /// [`EARLY_PERIMETER_EXPANSIONS`](crate::bridge::EARLY_PERIMETER_EXPANSIONS). It costs
    /// up to 4 s on small levels the forward search finishes at once (Microban II 131: 0.6 s
    /// against 4.8 s), since the perimeter runs all its expansions first.
    pub early_perimeter: bool,
}

/// A restart: when the run before it (the first search, or the previous restart's) has not
/// finished after `after` of its own, the portfolio starts again from scratch (in the table of
/// the runs before, see [`Portfolio::keep_table`]), as `dives` workers per search; the last
/// restart runs for the rest of the time. A level solved before a restart is due is solved
/// exactly as without it.
///
/// It buys the extra dives' gain at long times without their losses at short ones (see
/// [`DIVES`]). On the 13 levels within reach (2026-11-26, 2 threads, 60 s, 2-core machine),
/// one restart (one worker for 10 s, then four backward dives) solved 11, against 7 and 8 for
/// one worker and 10 and 10 for the dives from the start (those two on a 16-core machine with
/// 16 threads busy; `benches/results/2026-11-26-backward-dives.txt`).
///
/// Another set of dives is another lottery ticket. On the 26 levels of XSokoban 1-45 and
/// Sasquatch the default left unsolved at 60 s (2026-11-26, 2 threads, 2-core machine), eight
/// backward dives from scratch solved XSokoban 27 in 2.0 s and 35 in 5.1 s within 25 s, where
/// four from scratch (the first restart's) solved none of the first 23 within 20 s. The
/// levels the first restart solves at 60 s were all solved within 18 s of it (at most 28 s
/// into the run), so the second restart then came 25 s after the first. At 60 s it
/// solved XSokoban 27 (37.0 s) and 35 (44.6 s) of those 26
/// (`benches/results/2026-11-26-second-restart.txt`).
///
/// The report of a restarted solve adds every run's counts and states (a run's states: those
/// it added to the table and those of earlier runs it took over) and table bytes (a kept
/// table's bytes are counted once, at their largest), so bytes per state stay a per-state
/// figure, and keeps the largest peak of open-list bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Restart {
    /// How long the run before this restart goes.
    pub after: Duration,
    /// Workers per search from this restart on.
    pub dives: Dives,
    /// Box moves (`PushConfig::box_moves` and `PullConfig::box_moves`) for every member in the
    /// run this restart starts: `Some(on)` sets both sides, `None` keeps the members' own.
    /// Another move model is another lottery ticket: the two solve different levels.
    pub box_moves: Option<bool>,
    /// For the members that order by feature cells ([`Weighting::Features`]), how often the
    /// run this restart starts takes a cell in turn (`fessK`): `None` keeps the members' own.
    /// The forward search is otherwise the same in every run, so a run on single moves
    /// after one on box moves would search the first run's forward states again; another
    /// turn takes it down other subtrees.
    pub cycle: Option<u32>,
    /// The forward searches' feature cells in the run this restart starts: `Some(true)`
    /// counts goals packed in their packing order (`PushConfig::packing`, the forward half of
    /// `--packing`), `Some(false)` boxes on goals, `None` keeps the members' own. The
    /// backward searches keep theirs: on XSokoban 36 the forward side's packing is what
    /// solved it (2 of 2 runs, 0 of 2 with the backward side's alone).
    pub packing: Option<bool>,
    /// The backward searches' lower bound in the run this restart starts (`pull-nearest`,
    /// `pull-matching`, `pull-zero`): `None` keeps the members' own. The bound orders the
    /// backward dives, so another bound sends them elsewhere.
    pub pull_bound: Option<BoundKind>,
}

/// The default first [`Restart::after`].
pub const RESTART_AFTER: Duration = Duration::from_secs(10);

/// The default restarts after the first search: how long the run before each goes, the
/// backward workers per search from it on, its box moves ([`Restart::box_moves`]), its
/// feature-cell turn ([`Restart::cycle`]), its forward feature cells ([`Restart::packing`])
/// and its backward bound ([`Restart::pull_bound`]): the first four restarts' runs make box
/// moves, with two backward dives for 6 s, then four with the forward cells counting packed
/// goals for 6 s, then four with those cells and a cell in turn every 8th expansion (`fess8`)
/// for 5 s, then four whose backward dives order by the nearest start square (`pull-nearest`)
/// for 22 s; the fifth's run has the members' own moves again, with eight, for 5 s; the
/// sixth's makes box moves with three, for the rest of the time limit.
///
/// Box moves with two dives and with four solve different levels. XSokoban 23: two dives
/// (or one) from 10 s on solved it 4.2-5.6 s into their run in 14 of 15 runs (3 of 5 runs
/// of the whole schedule), four in none of 3. Sasquatch 25 needs three or more (two: 0 of 3
/// runs). XSokoban 30 needed 17-21 s of four, hence 24 s for that run (2026-11-28, 2 threads,
/// 2-core machine; on one 1.5 times slower, XSokoban 23 needed 6.5-7.9 s of two and 30 27-32
/// s of four; `benches/results/2026-11-28-restart-schedule.txt`). XSokoban 36, which no run
/// had solved, falls 3-6 s into a run of four dives and box moves whose forward cells count
/// packed goals (7 of 8 runs), but that run loses XSokoban 30 (0 of 2), hence a run of its
/// own before the long one (`benches/results/2026-12-02-packing-run.txt`). XSokoban 39,
/// which no run had solved, falls 2.5-4 s into a run of four dives whose forward cells take a
/// cell in turn every 8th expansion (with packed-goal cells or without), ending on a backward
/// state of an earlier run in the kept table (5 of 5 runs; 0 of 1 with empty tables; with
/// `fess5` or `fess12` in the packing run, 0 of 1); in the packing run it loses XSokoban 36
/// (0 of 2), in the long run XSokoban 30 (0 of 1), hence a 5 s run of its own
/// (`benches/results/2026-12-02-kept-table.txt`).
///
/// Sasquatch 30, which no run had solved, falls 8.7-9.8 s into a run of four (or eight)
/// dives and box moves whose backward bound is the nearest start square instead of the
/// matching (every such run of 10 s or more after the first: 12 of 12; in the 2-dive run, in
/// the packing runs or in the last run of eight single-move dives, 0 of 4). In that run
/// XSokoban 25 falls 10-12 s in and XSokoban 30 about 16 s in, but Sasquatch 25 is not
/// solved there (0 of 2, four dives or eight): it needs 7.5-10.4 s of four dives on the
/// matching bound, hence the 10 s run before it. The 2-dive run gave up a second for it (the
/// levels it solves fall up to 4.4 s into it), and the last run, where XSokoban 27 falls
/// 2.4-3.9 s in, starts at 56 s (`benches/results/2026-12-02-nearest-run.txt`): XSokoban 30
/// needed 16.3-18.4 s of the nearest-bound run in six runs on 2026-12-02 (one past 18 s; in
/// a seventh, a full run with that run 18 s long, it was not solved), and with the eight at
/// 56 s XSokoban 27 fell 2.6-3.1 s into them (4 of 4;
/// `benches/results/2026-12-02-nineteen-seconds.txt`).
///
/// Three dives on the matching bound solve Sasquatch 25 in 4.2-5.0 s from an empty table
/// (`--no-restart --dives 3 --box-moves --pull-box-moves`, 4 of 4 runs, 5.1-5.3M states;
/// four dives need 10.0-13.0 s and 14.8-15.0M, two none within 20 s), and XSokoban 16
/// 3.7-4.0 s into such a run; XSokoban 23 still needs two (three in the 2-dive run's place:
/// 0 of 2). So the 10 s run of four on the matching bound became a run of three, and the
/// nearest-bound run (in which XSokoban 30 needs 17-21 s, from an empty table as in the
/// schedule, whatever the dives) comes before it and the eight, from 27 s to 49 s; the
/// eight, in which XSokoban 27 needs 3.5 s from an empty table, run from 49 s to 54 s, and
/// the three from 54 s to the end (`benches/results/2026-12-03-three-dives.txt`).
pub const RESTARTS: [Restart; 6] = [
    Restart::box_run(RESTART_AFTER, 2, None, None),
    Restart::box_run(Duration::from_secs(6), 4, Some(true), None),
    Restart::box_run(Duration::from_secs(6), 4, Some(true), Some(8)),
    Restart {
        pull_bound: Some(BoundKind::Nearest),
        ..Restart::box_run(Duration::from_secs(5), 4, None, None)
    },
    Restart::new(Duration::from_secs(22), Dives { forward: 1, backward: 8 }),
    Restart::box_run(Duration::from_secs(5), 3, None, None),
];

impl Restart {
    /// The default restarts for a portfolio of `searches` searches on `threads` threads
    /// ([`RESTARTS`]), where there are at least two threads and no more than the searches
    /// (for the default `bi-fess`, exactly 2 threads, the case measured); else none. One
    /// thread stays deterministic (a restart is timed) and keeps one worker per search (four
    /// backward dives cost levels there, see [`DIVES`]); with more threads than searches, each
    /// search already runs several workers.
    pub fn default_for(searches: usize, threads: usize) -> Vec<Restart> {
        if threads < 2 || threads > searches {
            return Vec::new();
        }
        Restart::defaults()
    }

    /// The default restarts, [`RESTARTS`], whatever the threads.
    pub fn defaults() -> Vec<Restart> {
        RESTARTS.to_vec()
    }

    /// A restart after `after` with `dives` that keeps the members' own moves, turn, cells
    /// and bounds.
    pub const fn new(after: Duration, dives: Dives) -> Restart {
        Restart { after, dives, box_moves: None, cycle: None, packing: None, pull_bound: None }
    }

    /// A restart after `after` with `backward` dives, box moves, forward cells `packing` and
    /// the feature-cell turn `cycle`.
    const fn box_run(after: Duration, backward: usize, packing: Option<bool>, cycle: Option<u32>) -> Restart {
        Restart {
            box_moves: Some(true),
            cycle,
            packing,
            ..Restart::new(after, Dives { forward: 1, backward })
        }
    }

    /// Restarts from `SECS:DIVES[:MOVES][:fessK][:CELLS][:pull-BOUND]` items, comma-separated
    /// (`10:4,25:8:box`): each run's length before the restart in seconds, then the backward
    /// workers per search from it on, then optionally the moves of the run it starts, `box`
    /// (box moves on both sides) or `single` (off), else the members' own, optionally `fessK`,
    /// the feature-cell turn of that run ([`Restart::cycle`]), optionally its forward
    /// feature cells, `packing` (goals packed in their packing order, [`Restart::packing`])
    /// or `unpacked` (boxes on goals), and optionally its backward bound, `pull-matching`,
    /// `pull-nearest` or `pull-zero` ([`Restart::pull_bound`]).
    pub fn parse_list(text: &str) -> Result<Vec<Restart>, String> {
        text.split(',')
            .map(|item| {
                let bad =
                    || format!("restart {item:?}: expected SECS:DIVES[:box|single][:fessK][:packing|unpacked][:pull-BOUND], e.g. 10:4");
                let mut parts = item.trim().split(':');
                let (Some(secs), Some(dives)) = (parts.next(), parts.next()) else {
                    return Err(bad());
                };
                let (mut box_moves, mut cycle, mut packing, mut pull_bound) = (None, None, None, None);
                for part in parts.map(str::trim) {
                    match part {
                        _ if part.starts_with("pull-") && pull_bound.is_none() => {
                            pull_bound = Some(BoundKind::from_name(&part["pull-".len()..]).ok_or_else(|| {
                                format!("restart {item:?}: the backward bound is pull-matching, pull-nearest or pull-zero, not {part:?}")
                            })?);
                        }
                        "packing" | "unpacked" if packing.is_none() => packing = Some(part == "packing"),
                        "box" | "single" if box_moves.is_none() && cycle.is_none() => {
                            box_moves = Some(part == "box");
                        }
                        _ if part.starts_with("fess") && cycle.is_none() => {
                            let k: u32 = part["fess".len()..].parse().map_err(|_| bad())?;
                            if !(1..=64).contains(&k) {
                                return Err(format!("restart {item:?}: the turn fessK takes K from 1 to 64"));
                            }
                            cycle = Some(k);
                        }
                        "box" | "single" => return Err(bad()),
                        other => {
                            return Err(format!(
                            "restart {item:?}: the moves are box or single, the turn fessK, the cells packing or unpacked and the backward bound pull-BOUND, once each, not {other:?}"
                        ))
                        }
                    }
                }
                let secs: f64 = secs.trim().parse().map_err(|_| bad())?;
                let backward: usize = dives.trim().parse().map_err(|_| bad())?;
                if !(secs.is_finite() && secs > 0.0) {
                    return Err(format!("restart {item:?}: the seconds must be a positive number"));
                }
                if !(1..=64).contains(&backward) {
                    return Err(format!("restart {item:?}: the dives must be 1 to 64"));
                }
                let after = Duration::try_from_secs_f64(secs).unwrap_or(Duration::MAX);
                Ok(Restart { after, dives: Dives { forward: 1, backward }, box_moves, cycle, packing, pull_bound })
            })
            .collect()
    }
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

/// How many searches a portfolio of these members runs: one per member's direction.
pub fn search_count(members: &[Member]) -> usize {
    members.iter().map(|m| directions_used(m.strategy.directions).len()).sum()
}

/// Workers per search (at least 1; more where the threads outnumber the searches): the workers
/// of a search take turns on its thread, each diving on its own best-first order from the
/// states the others hand it. Only the first starts from the roots; one that runs out of work
/// gets the children the others rank below their parents (the way work is shared between
/// threads, see [`crate::hda`]), and the shared table keeps them off each other's states. A
/// search's share of its thread does not grow with its dives: a thread steps the search that has
/// generated least, then that search's worker that has.
///
/// Extra dives are lottery tickets: more threads solve hard levels through their different
/// dives, not their throughput (XSokoban 13 in 0.9 s on 16 threads, unsolved by 2 threads in
/// 60 s). The gain is on the backward side: on 2 threads, 10 s a level, four forward dives
/// solved none of the 33 levels one worker leaves unsolved, four backward dives 5 (2026-11-26,
/// `benches/results/2026-11-26-backward-dives.txt`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dives {
    /// Workers per forward search (`--forward-dives`).
    pub forward: usize,
    /// Workers per backward search (`--dives`).
    pub backward: usize,
}

impl Dives {
    /// One worker per search (the default, [`DIVES`]).
    pub const ONE: Dives = Dives { forward: 1, backward: 1 };

    /// Workers for a search of this direction.
    pub fn workers(&self, side: Side) -> usize {
        match side {
            Side::Forward => self.forward,
            Side::Backward => self.backward,
        }
        .max(1)
    }
}

/// The default [`Portfolio::dives`]: one worker per search (more where the threads outnumber
/// the searches). Measured (2026-11-26, `benches/results/2026-11-26-backward-dives.txt`):
/// four backward dives on 2 threads solved 10 of 13 hard levels at 60 s twice, one worker 7
/// and 8 (16-core machine, 8 levels at once); but at 10 s a level they solved XSokoban 1-45
/// 24 and Sasquatch 34 against one worker's 28 and 35, and Microban II 133/135 against
/// 135/135; on one thread (`--jobs 2`) 22 + 34 against 26 + 35. Variants that kept the first
/// dive's strength lost the gain: dives joining after a million states solved no hard level,
/// and the first dive keeping its whole thread (the extra dives on the forward search's) 9 of
/// the 13 at 60 s and 26 + 35 at 10 s. So the dives come with a [`Restart`] after 10 s (the
/// command line's default at 2 threads) instead of from the start.
pub const DIVES: Dives = Dives::ONE;

fn member(
    name: &'static str,
    about: &'static str,
    directions: Directions,
    weighting: Weighting,
    bound: BoundKind,
) -> Member {
    Member {
        name,
        about,
        strategy: Strategy { directions, weighting, ..Strategy::default() },
        push: PushConfig { bound, ..PushConfig::default() },
        pull: PullConfig { bound, ..PullConfig::default() },
    }
}

/// Every configuration a portfolio can use.
pub fn catalogue() -> Vec<Member> {
    use crate::strategy::DEFAULT_CYCLE;
    use BoundKind::{Matching, Nearest};
    use Directions::{Backward, Both, Forward};
    use Weighting::{AStar, Features, Greedy, Weighted};
    vec![
        member("bi-greedy", "bidirectional greedy on the matching bound", Both, Greedy, Matching),
        member("fwd-greedy", "forward greedy on the matching bound", Forward, Greedy, Matching),
        member("bwd-greedy", "backward greedy on the matching bound", Backward, Greedy, Matching),
        member(
            "bi-wastar",
            "bidirectional weighted A* (g + 3h), matching bound",
            Both,
            Weighted(3),
            Matching,
        ),
        member("fwd-wastar", "forward weighted A* (g + 3h), matching bound", Forward, Weighted(3), Matching),
        member(
            "bwd-wastar",
            "backward weighted A* (g + 3h), matching bound",
            Backward,
            Weighted(3),
            Matching,
        ),
        member("fwd-nearest", "forward greedy on the nearest-goal bound", Forward, Greedy, Nearest),
        member("bi-nearest", "bidirectional greedy on the nearest-target bound", Both, Greedy, Nearest),
        member("bi-astar", "bidirectional A* on the matching bound", Both, AStar, Matching),
        member("fwd-astar", "forward A* on the matching bound", Forward, AStar, Matching),
        member(
            "bi-fess",
            "bidirectional greedy with feature cells in turn",
            Both,
            Features(DEFAULT_CYCLE),
            Matching,
        ),
        member(
            "fwd-fess",
            "forward greedy with feature cells in turn",
            Forward,
            Features(DEFAULT_CYCLE),
            Matching,
        ),
        member(
            "bwd-fess",
            "backward greedy with feature cells in turn",
            Backward,
            Features(DEFAULT_CYCLE),
            Matching,
        ),
        Member {
            pull: PullConfig { confinement: true, ..PullConfig::default() },
            ..member(
                "bwd-fess-confined",
                "backward feature cells, dropping states whose player can never get out",
                Backward,
                Features(DEFAULT_CYCLE),
                Matching,
            )
        },
        Member {
            push: PushConfig { packing: true, packing_macros: true, ..PushConfig::default() },
            pull: PullConfig { packing: true, ..PullConfig::default() },
            ..member(
                "bi-fess-packing",
                "bidirectional feature cells counting packed targets, with packing macros",
                Both,
                Features(DEFAULT_CYCLE),
                Matching,
            )
        },
    ]
}

/// The members `--strategy portfolio` runs when none are named: `bi-fess` alone, one
/// bidirectional feature-cell search with bridges, its forward and backward searches on threads
/// of their own. No second member has measured better (2026-11-25, 2 threads, shared table,
/// XSokoban 1-45 + Sasquatch, `benches/results/2026-11-25-confinement.txt`):
///
/// | members                    | 10 s          | time (10 s) | 60 s, levels unsolved at 10 s |
/// |----------------------------|---------------|-------------|-------------------------------|
/// | `bi-fess`                  | 27 + 35 = 62  | 1           | 5 of 33 (last stop's run)     |
/// | `bi-fess,bwd-fess-confined`| 27 + 35 = 62  | 1.029       | the same 5 of 33              |
/// | `bi-fess,bwd-greedy`       | 26 + 35 = 61  | 0.991       |                               |
///
/// The default of the stop before, `bi-fess,bwd-fess`, was meant to give the backward
/// direction three quarters of the effort, since on the hard sets the backward search finds
/// almost every solution (it meets the forward search within a few pushes of the start); but
/// its `bwd-fess` ran dry at once in the shared table (see [`Worker::with_own_visited`]), so it
/// was `bi-fess` alone, and its measured gain over `bi-fess,bi-fess-packing` (24 + 37 = 61 at
/// 10 s, in 1.75 times the time) came from dropping `bi-fess-packing`. Now that `bwd-fess`
/// runs, it repeats `bi-fess`'s backward search state for state and is no mix to use. Bridges
/// (the forward search's runs towards the backward search's closest state, see
/// [`crate::bridge`]) gained XSokoban 24 and lost Sasquatch 31 at 10 s, in 0.85 of the time.
pub const DEFAULT_MEMBERS: &[&str] = &["bi-fess"];

/// The members named in a comma-separated list.
pub fn members(names: &str) -> Result<Vec<Member>, String> {
    let all = catalogue();
    let mut chosen = Vec::new();
    for name in names.split(',').map(str::trim).filter(|n| !n.is_empty()) {
        let m = all.iter().find(|m| m.name == name).ok_or_else(|| {
            let known: Vec<&str> = all.iter().map(|m| m.name).collect();
            format!("unknown portfolio member {name:?}: use some of {}", known.join(", "))
        })?;
        if !chosen.iter().any(|c: &Member| c.name == name) {
            chosen.push(m.clone());
        }
    }
    if chosen.is_empty() {
        return Err("a portfolio needs at least one member".into());
    }
    Ok(chosen)
}

/// The default members.
pub fn default_members() -> Vec<Member> {
    members(&DEFAULT_MEMBERS.join(",")).unwrap_or_default()
}

/// One search of a portfolio, whatever its direction: the runner only steps it.
trait Search: Send {
    fn side(&self) -> Side;
    fn complete(&self) -> bool;
    fn seed(&mut self, table: &VisitedTable) -> Option<Found>;
    /// A bridge if one is due (forward searches with bridges), else one step; with a mailbox,
    /// as one worker of a group (see [`crate::hda`]).
    fn step(&mut self, table: &VisitedTable, stop: &Stop<'_>, mailbox: Option<&mut Mailbox<'_>>) -> Step;
    /// Takes in the nodes the other workers of its group sent.
    fn receive(&mut self, mailbox: &mut Mailbox<'_>);
    /// Looks for work with an empty open list, waiting at most `patience`.
    fn wait_for_work(&mut self, mailbox: &mut Mailbox<'_>, patience: Duration) -> Idle;
    fn open_len(&self) -> usize;
    fn generated(&self) -> u64;
    fn stop_check(&mut self, stop: &Stop<'_>, tables: &[&VisitedTable], due: Due);
    fn finish(self: Box<Self>) -> SideStats;
    /// The first state made with the smallest bound, and the bound.
    fn closest(&self) -> Option<(u32, &State)>;
}

impl<E: Expander> Search for Worker<'_, E> {
    fn side(&self) -> Side {
        Worker::side(self)
    }
    fn complete(&self) -> bool {
        Worker::complete(self)
    }
    fn seed(&mut self, table: &VisitedTable) -> Option<Found> {
        self.seed_always(table)
    }
    fn step(&mut self, table: &VisitedTable, stop: &Stop<'_>, mailbox: Option<&mut Mailbox<'_>>) -> Step {
        if let Some(found) = self.bridge(table, stop) {
            return Step::Found(found);
        }
        Worker::step(self, table, mailbox)
    }
    fn receive(&mut self, mailbox: &mut Mailbox<'_>) {
        Worker::receive(self, mailbox);
    }
    fn wait_for_work(&mut self, mailbox: &mut Mailbox<'_>, patience: Duration) -> Idle {
        Worker::wait_for_work(self, mailbox, patience)
    }
    fn open_len(&self) -> usize {
        Worker::open_len(self)
    }
    fn generated(&self) -> u64 {
        self.stats.generated
    }
    fn stop_check(&mut self, stop: &Stop<'_>, tables: &[&VisitedTable], due: Due) {
        if stop.counts_states() {
            self.report_inserted(stop);
        }
        if due != Due::Nothing {
            stop.check_time();
        }
        if due == Due::All {
            stop.report_open_bytes(self.slot(), self.open_bytes());
            stop.check_memory(tables.iter().map(|t| t.bytes()).sum());
        }
    }
    fn finish(self: Box<Self>) -> SideStats {
        Worker::finish(*self)
    }
    fn closest(&self) -> Option<(u32, &State)> {
        self.closest_state()
    }
}

/// One worker with the member it belongs to, the table it uses and its group: the workers of
/// one member's direction ([`Portfolio::dives`] of them, more where the threads outnumber the
/// searches).
struct Slot<'a> {
    member: usize,
    table: usize,
    group: usize,
    search: Box<dyn Search + 'a>,
}

/// How the portfolio ended.
enum End {
    Found { member: usize, table: usize, found: Found },
    Exhausted { member: usize },
    Stopped,
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
        // Whole seconds, or tenths below 10 s (short restarts given with `--restarts`).
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

/// One portfolio search, without restarts; in `kept`, a table earlier runs filled, where the
/// tables are shared (see [`Portfolio::keep_table`]), else in tables of its own.
fn solve_once(
    level: &Level,
    portfolio: &Portfolio,
    limits: &Limits,
    cancel: &AtomicBool,
    kept: Option<&VisitedTable>,
) -> Result<Report, SolveError> {
    let started = Instant::now();
    let members = &portfolio.members;
    let names: Vec<&str> = members.iter().map(|m| m.name).collect();
    let mut report = Report {
        outcome: Outcome::Unsolvable,
        stats: Stats::default(),
        elapsed: Duration::ZERO,
        threads: portfolio.threads.max(1),
        strategy: format!("portfolio({})", names.join(",")),
        note: None,
    };
    if let Some(why) = level.walled_off() {
        report.note = Some(why.to_string());
        report.elapsed = started.elapsed();
        return Ok(report);
    }
    let board = level.board();
    let start = level.start();
    // The members share the tables that depend only on the level (pair deadlocks, the start
    // freeze's squares): on small levels, building them is most of the work.
    let mut forwards: Vec<Forward<'_>> = Vec::with_capacity(members.len());
    let mut backwards: Vec<Backward<'_>> = Vec::with_capacity(members.len());
    for m in members {
        let fwd = Forward::sharing(board, start, m.strategy.forward_config(m.push), &forwards);
        let bwd = Backward::sharing(board, start, m.strategy.backward_config(m.pull), &backwards);
        forwards.push(fwd);
        backwards.push(bwd);
    }
    // A dead root in either direction, under any member's pruning (each is sound), proves the
    // level unsolvable before any search starts; with one shared table a member's dry search
    // alone proves nothing, so this is the only way to say it at once (see dead_root).
    let dead = (0..members.len()).find(|&m| dead_root(&forwards[m]) || dead_root(&backwards[m]));
    if let Some(m) = dead {
        report.note = Some(format!("proven by {}", members[m].name));
        report.elapsed = started.elapsed();
        return Ok(report);
    }
    let n_tables = match portfolio.tables {
        TableMode::Separate => members.len(),
        TableMode::Shared => 1,
    };
    // A search per member's direction, each a group of workers: `dives` of them, or as many as
    // the threads it is allotted where the threads outnumber the searches (see group_sizes).
    let searches: Vec<(usize, Side)> = members
        .iter()
        .enumerate()
        .flat_map(|(m, member)| {
            directions_used(member.strategy.directions).iter().map(move |&side| (m, side))
        })
        .collect();
    let sides: Vec<Side> = searches.iter().map(|&(_, side)| side).collect();
    let allotted = group_sizes(&sides, portfolio.threads.max(1));
    let sizes: Vec<usize> =
        allotted.iter().zip(&sides).map(|(&a, &side)| a.max(portfolio.dives.workers(side))).collect();
    let workers: usize = sizes.iter().sum();
    let threads = portfolio.threads.clamp(1, workers);
    let own_tables: Vec<VisitedTable> = match kept {
        Some(_) if n_tables == 1 => Vec::new(),
        _ => (0..n_tables).map(|_| VisitedTable::new(16 * threads)).collect(),
    };
    let tables: Vec<&VisitedTable> = match kept {
        Some(table) if n_tables == 1 => vec![table],
        _ => own_tables.iter().collect(),
    };
    // States the table held before this run, and earlier runs' states it took over (a kept
    // table's): this run's states are what it added and took over.
    let held =
        |tables: &[&VisitedTable]| -> usize { tables.iter().map(|t| t.len() + t.renewed() as usize).sum() };
    let held_before = held(&tables);
    let stop = Stop::new(*limits, cancel, workers);
    let n = board.n_boxes();
    let zobrist = board.zobrist();
    let table_of = |m: usize| if n_tables == 1 { 0 } else { m };
    // Bridges (see crate::bridge): in each table, the first forward search of a member that
    // uses them aims at the closest state of every backward search of that table.
    let closests: Vec<Closest> = (0..n_tables).map(|_| Closest::new()).collect();
    let bridging: Vec<Option<usize>> = (0..n_tables)
        .map(|t| (0..members.len()).find(|&m| table_of(m) == t && members[m].strategy.uses_bridges()))
        .collect();
    // Backward bridges, the mirror: the first backward search of a member that uses them aims
    // at the closest state of every forward search of its table.
    let forward_closests: Vec<Closest> = (0..n_tables).map(|_| Closest::new()).collect();
    let back_bridging: Vec<Option<usize>> = (0..n_tables)
        .map(|t| {
            (0..members.len()).find(|&m| table_of(m) == t && members[m].strategy.uses_backward_bridges())
        })
        .collect();
    // Searches of one direction that share a table each keep their own visited set, or the
    // second would queue only what the first had not seen (see Worker::with_own_visited); the
    // workers of one search share its set.
    let sharing_side = |table: usize, side: Side| {
        searches.iter().filter(|&&(m, s)| s == side && table_of(m) == table).count() > 1
    };
    let own_sets: Vec<Option<OwnVisited>> =
        searches.iter().map(|&(m, side)| sharing_side(table_of(m), side).then(OwnVisited::default)).collect();
    let mut slots: Vec<Slot<'_>> = Vec::with_capacity(workers);
    for (group, (&(m, side), &size)) in searches.iter().zip(&sizes).enumerate() {
        let member = &members[m];
        let table = table_of(m);
        let own = own_sets[group].as_ref();
        for k in 0..size {
            let slot = slots.len();
            let search: Box<dyn Search + '_> = match side {
                Side::Forward => {
                    let w = Worker::new(&forwards[m], zobrist, n, member.strategy, slot);
                    let w = match own {
                        Some(set) => w.with_own_visited(set, k == 0),
                        None => w,
                    };
                    let w = match back_bridging[table] {
                        Some(_) => w.publishing(&forward_closests[table], false),
                        None => w,
                    };
                    // One worker runs the bridges: two would aim at the same states.
                    if bridging[table] == Some(m) && k == 0 {
                        let config = BridgeConfig::for_strategy(&member.strategy);
                        let bridges = Bridges::new(config, board, &closests[table]);
                        Box::new(w.with_bridges(bridges))
                    } else {
                        Box::new(w)
                    }
                }
                Side::Backward => {
                    let w = Worker::new(&backwards[m], zobrist, n, member.strategy, slot);
                    let w = match own {
                        Some(set) => w.with_own_visited(set, k == 0),
                        None => w,
                    };
                    let w = match bridging[table] {
                        Some(b) => w.publishing(&closests[table], members[b].strategy.live_targets),
                        None => w,
                    };
                    if back_bridging[table] == Some(m) && k == 0 {
                        let bridges = Bridges::new(BridgeConfig::default(), board, &forward_closests[table]);
                        Box::new(w.with_bridges(bridges))
                    } else {
                        Box::new(w)
                    }
                }
            };
            slots.push(Slot { member: m, table, group, search });
        }
    }
    // The first worker of each group starts from the roots; the others get work from it.
    let mut end = None;
    let mut seeded_group = None;
    for slot in &mut slots {
        if seeded_group.replace(slot.group) == Some(slot.group) {
            continue;
        }
        if let Some(found) = slot.search.seed(tables[slot.table]) {
            end = Some(End::Found { member: slot.member, table: slot.table, found });
            break;
        }
    }
    stop.set_seeded(held(&tables) - held_before);
    // In a shared table a path may hold macro moves another member made: a member's forward
    // half is read with a generator that knows every member's kinds of macro when its own
    // does not (`None`: its own).
    let shared_macros = shared_macro_config(members, portfolio.tables);
    let decoder_config =
        |m: usize| shared_macros.filter(|&config| macro_kinds(config) != macro_kinds(forwards[m].config()));
    // In a shared table a direction is proven empty only when every member's search of it
    // has run dry; in separate tables one dry search is proof for its member's level.
    let remaining = [Side::Forward, Side::Backward]
        .map(|side| AtomicUsize::new(sides.iter().filter(|&&s| s == side).count()));
    let end = match end {
        Some(end) => end,
        None => run(&mut slots, &sizes, &allotted, &tables, &stop, portfolio, &remaining)?,
    };
    // The forward worker that came closest to the goals, for the closest path.
    let closest = slots
        .iter()
        .filter(|slot| slot.search.side() == Side::Forward)
        .filter_map(|slot| slot.search.closest().map(|c| (c, slot.member, slot.table)))
        .min_by_key(|((h, _), _, _)| *h)
        .map(|((h, state), member, table)| ((h, state.clone()), member, table));
    let backward_closest = closest_of(
        slots.iter().filter(|slot| slot.search.side() == Side::Backward).map(|slot| slot.search.closest()),
    );
    let mut forward = SideStats::default();
    let mut backward = SideStats::default();
    for slot in slots {
        let side = slot.search.side();
        let stats = slot.search.finish();
        match side {
            Side::Forward => forward.add(&stats),
            Side::Backward => backward.add(&stats),
        }
    }
    report.stats = Stats {
        forward,
        backward,
        states: held(&tables) - held_before,
        table_bytes: tables.iter().map(|t| t.bytes()).sum(),
        peak_open_bytes: stop.open_bytes(),
        collisions: tables.iter().map(|t| t.collisions()).sum(),
    };
    report.outcome = match end {
        End::Exhausted { member } => {
            report.note = Some(format!("proven by {}", members[member].name));
            Outcome::Unsolvable
        }
        End::Stopped => Outcome::Cutoff(stop.cutoff().unwrap_or(Cutoff::Cancelled)),
        End::Found { member, table, found } => {
            // A meeting on a state a run before this one recorded in a kept table.
            let earlier = match &found {
                Found::Meeting { side, child, .. } => tables[table]
                    .get(child.fingerprint(board))
                    .filter(|r| r.run() < tables[table].run())
                    .map(|_| side.other()),
                Found::Goal { .. } => None,
            };
            report.note = Some(match earlier {
                Some(side) => {
                    format!(
                        "found by {}, meeting a {} state of an earlier run",
                        members[member].name,
                        side.name()
                    )
                }
                None => format!("found by {}", members[member].name),
            });
            let b = &backwards[member];
            let solution = with_decoder(level, decoder_config(member), &forwards[member], |f| {
                solution_of(level, Some(f), Some(b), tables[table], &found)
            })?;
            Outcome::Solved(solution)
        }
    };
    let unsolved = !matches!(report.outcome, Outcome::Solved(_));
    if unsolved {
        report.stats.backward.closest_state = backward_closest.map(|(_, s)| s);
    }
    if let Some((state, member, table)) = closest.filter(|_| unsolved) {
        report.stats.forward.closest_state = Some(state.1.clone());
        report.stats.forward.closest_path =
            with_decoder(level, decoder_config(member), &forwards[member], |f| {
                closest_path(level, f, tables[table], &state)
            });
    }
    report.elapsed = started.elapsed();
    Ok(report)
}

/// Calls `read` with a forward generator of `config` on `level` (see
/// [`shared_macro_config`]), or with `own` when there is none.
fn with_decoder<'b, R>(
    level: &'b Level,
    config: Option<PushConfig>,
    own: &Forward<'b>,
    read: impl FnOnce(&Forward<'b>) -> R,
) -> R {
    match config {
        Some(config) => read(&Forward::new(level.board(), level.start(), config)),
        None => read(own),
    }
}

/// With one shared table, a forward configuration that can undo and expand the macro moves of
/// every member (goal macros and packing macros when any member makes them; nothing that
/// only prunes); `None` with separate tables, where each member reads its own moves.
fn shared_macro_config(members: &[Member], tables: TableMode) -> Option<PushConfig> {
    if tables == TableMode::Separate {
        return None;
    }
    let configs: Vec<PushConfig> = members.iter().map(|m| m.strategy.forward_config(m.push)).collect();
    Some(PushConfig {
        goal_macros: configs.iter().any(|c| c.goal_macros),
        room_entrances: configs.iter().any(|c| c.room_entrances),
        packing_macros: configs.iter().any(|c| c.packing_macros),
        goal_cut: false,
        pair_deadlocks: false,
        triple_deadlocks: false,
        sealed_goals: false,
        jams: false,
        frozen_walls: false,
        goal_areas: false,
        features: false,
        ..PushConfig::default()
    })
}

/// The kinds of macro move a forward configuration makes: goal macros, packing macros, and
/// whether rooms with several entrances are among the rooms (they take goals from packing
/// macros too).
fn macro_kinds(config: PushConfig) -> (bool, bool, bool) {
    let rooms = config.goal_macros || config.packing_macros;
    (config.goal_macros, config.packing_macros, rooms && config.room_entrances)
}

fn directions_used(d: Directions) -> &'static [Side] {
    match d {
        Directions::Forward => &[Side::Forward],
        Directions::Backward => &[Side::Backward],
        Directions::Both => &[Side::Forward, Side::Backward],
    }
}

/// Runs the workers on the threads: while there are no more threads than searches, search `s`
/// runs on thread `s % threads` (its workers taking turns there); beyond that, each search has
/// `allotted[s]` threads of its own and its workers are dealt out over them. Each thread takes
/// turns among the workers it holds ([`take_turns`]), on this thread if there is one, else in a
/// rayon pool.
fn run(
    slots: &mut [Slot<'_>],
    sizes: &[usize],
    allotted: &[usize],
    tables: &[&VisitedTable],
    stop: &Stop<'_>,
    portfolio: &Portfolio,
    remaining: &[AtomicUsize; 2],
) -> Result<End, SolveError> {
    let threads = portfolio.threads.clamp(1, slots.len().max(1));
    let wide = threads > sizes.len();
    let first_thread: Vec<usize> = allotted
        .iter()
        .scan(0, |next, &a| {
            *next += a;
            Some(*next - a)
        })
        .collect();
    let (groups, inboxes): (Vec<Group>, Vec<_>) = sizes.iter().map(|&size| Group::new(size)).unzip();
    // Each group's dry run is counted once, by whichever of its workers notices first.
    let counted: Vec<AtomicBool> = sizes.iter().map(|_| AtomicBool::new(false)).collect();
    let mut shares: Vec<Vec<Turn<'_, '_, '_>>> = (0..threads).map(|_| Vec::new()).collect();
    // The slots of a group follow each other, in the order of its inboxes.
    let inboxes = inboxes.into_iter().flat_map(|inbox| inbox.into_iter().enumerate());
    for (slot, (id, inbox)) in slots.iter_mut().zip(inboxes) {
        let g = slot.group;
        let thread = if wide { first_thread[g] + id % allotted[g] } else { g % threads };
        let mailbox = Mailbox::new(id, &groups[g], inbox);
        shares[thread].push(Turn { slot, mailbox, steps: 0, lag: 0, waiting: false });
    }
    let ctx = Turns {
        mode: portfolio.tables,
        forward_weight: portfolio.forward_weight.max(1),
        counted: &counted,
        remaining,
        tables,
        stop,
    };
    if threads == 1 {
        // One share: run it on this thread. A pool built for it took 40% of the time of a
        // Boxoban level (three files, --jobs 2: 2,222 levels/s with it, 3,587 without, and
        // 3,672 for `--strategy bidirectional`).
        let share = shares.pop().unwrap_or_default();
        let end = std::panic::catch_unwind(AssertUnwindSafe(|| {
            let _guard = StopOnDrop(stop);
            take_turns(share, &ctx)
        }));
        return end.map_err(|_| SolveError::Panic);
    }
    race(shares, stop, |share| take_turns(share, &ctx))
}

/// Runs each job on a thread of its own in a rayon pool (exactly one job per thread, so all
/// run at once: a job runs until the race ends and none may wait behind another). The first
/// job that ends with anything but [`End::Stopped`] stops the others.
fn race<J: Send>(jobs: Vec<J>, stop: &Stop<'_>, run: impl Fn(J) -> End + Sync) -> Result<End, SolveError> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs.len())
        .thread_name(|t| format!("bisolve-portfolio-{t}"))
        .build()
        .map_err(|e| SolveError::Threads(e.to_string()))?;
    let ends: Mutex<Vec<std::thread::Result<End>>> = Mutex::new(Vec::with_capacity(jobs.len()));
    pool.scope(|s| {
        for job in jobs {
            let (ends, run) = (&ends, &run);
            s.spawn(move |_| {
                // A panicking job stops the others (the guard's drop) and is reported as
                // `SolveError::Panic` below, not re-raised in the caller.
                let end = std::panic::catch_unwind(AssertUnwindSafe(|| {
                    let _guard = StopOnDrop(stop);
                    let end = run(job);
                    if !matches!(end, End::Stopped) {
                        stop.set();
                    }
                    end
                }));
                ends.lock().push(end);
            });
        }
    });
    let ends = ends.into_inner();
    let mut result = End::Stopped;
    for end in ends {
        match end.map_err(|_| SolveError::Panic)? {
            found @ End::Found { .. } => return Ok(found),
            exhausted @ End::Exhausted { .. } => result = exhausted,
            End::Stopped => {}
        }
    }
    Ok(result)
}

/// How many threads each search gets of `threads`: one each while there are no more threads
/// than searches (they then share threads, see [`run`]); beyond that, the threads are dealt
/// out evenly, and the ones left over go to backward searches first (on the hard sets the
/// backward search finds almost every solution, see [`FORWARD_WEIGHT`](crate::strategy::FORWARD_WEIGHT)), then to forward
/// searches, in the members' order.
fn group_sizes(sides: &[Side], threads: usize) -> Vec<usize> {
    let n = sides.len().max(1);
    let base = (threads / n).max(1);
    let mut sizes = vec![base; sides.len()];
    let mut extra = threads.saturating_sub(base * n);
    for side in [Side::Backward, Side::Forward] {
        for (size, _) in sizes.iter_mut().zip(sides).filter(|(_, &s)| s == side) {
            if extra == 0 {
                return sizes;
            }
            *size += 1;
            extra -= 1;
        }
    }
    sizes
}

/// A worker on its thread: its slot, its end of its group's mail, its steps since it started,
/// what it is owed in turns, and whether it is waiting for work from the rest of its group.
struct Turn<'s, 'a, 'g> {
    slot: &'s mut Slot<'a>,
    mailbox: Mailbox<'g>,
    steps: u64,
    /// Added to its weighted count: a worker fed after waiting starts level with the busiest
    /// worker of its search on its thread, so it takes its share from then on rather than
    /// every turn of its search until it has caught up with the time it spent waiting.
    lag: u64,
    waiting: bool,
}

impl Turn<'_, '_, '_> {
    /// Its states generated, a forward worker's counted `forward_weight` times, plus its lag.
    fn weight(&self, forward_weight: u64) -> u64 {
        let search = &self.slot.search;
        let generated = match search.side() {
            Side::Forward => search.generated().saturating_mul(forward_weight),
            Side::Backward => search.generated(),
        };
        generated.saturating_add(self.lag)
    }
}

/// What the threads of a portfolio share while they take turns.
struct Turns<'r> {
    mode: TableMode,
    forward_weight: u64,
    /// Per group: whether its dry run has been counted.
    counted: &'r [AtomicBool],
    /// Per direction: the groups that have not run dry.
    remaining: &'r [AtomicUsize; 2],
    tables: &'r [&'r VisitedTable],
    stop: &'r Stop<'r>,
}

impl Turns<'_> {
    /// A worker found its whole group dry. A search that may skip moves proves nothing by
    /// running dry; otherwise the group counts once, and in a shared table a direction is
    /// proven empty only when every group of it has run dry (in separate tables, one dry
    /// group is proof for its member's level).
    fn dry(&self, turn: &Turn<'_, '_, '_>) -> Option<End> {
        let search = &turn.slot.search;
        if !search.complete() || self.counted[turn.slot.group].swap(true, Ordering::SeqCst) {
            return None;
        }
        let side = usize::from(search.side() == Side::Backward);
        let last = self.remaining[side].fetch_sub(1, Ordering::SeqCst) == 1;
        (self.mode == TableMode::Separate || last).then_some(End::Exhausted { member: turn.slot.member })
    }
}

/// Steps between looks into the mail of a thread's waiting workers.
const POLL_EVERY: u64 = 16;

/// One thread's loop: step the search (group) that has generated least on this thread,
/// forward searches' counts weighted (see [`FORWARD_WEIGHT`](crate::strategy::FORWARD_WEIGHT)), and within it the worker that
/// has, among those with work, until something ends it: a search's share of the thread does
/// not grow with its number of dives. A worker that runs out of work asks its group for some
/// and waits, without holding up the others on its thread (a worker alone on its thread waits
/// up to a millisecond at a time).
fn take_turns(mut share: Vec<Turn<'_, '_, '_>>, ctx: &Turns<'_>) -> End {
    let (stop, tables) = (ctx.stop, ctx.tables);
    let weight = |turn: &Turn<'_, '_, '_>| turn.weight(ctx.forward_weight);
    let mut totals = vec![0u64; ctx.counted.len()];
    for turn in &share {
        totals[turn.slot.group] += weight(turn);
    }
    let patience = if share.len() == 1 { Duration::from_millis(1) } else { Duration::ZERO };
    let mut pacer = Pacer::new();
    let mut rounds = 0u64;
    loop {
        rounds += 1;
        let ready = share.iter().any(|t| !t.waiting);
        if !ready || rounds % POLL_EVERY == 0 {
            // Ask the waiting workers for news; remove those whose group ran dry.
            for i in (0..share.len()).rev() {
                if share[i].waiting {
                    if let Some(end) = look_for_work(&mut share, i, ctx, patience) {
                        return end;
                    }
                }
            }
        }
        let Some(k) = (0..share.len())
            .filter(|&k| !share[k].waiting)
            .min_by_key(|&k| (totals[share[k].slot.group], weight(&share[k])))
        else {
            if share.is_empty() {
                // Every search of this thread ran dry without proving anything (shared
                // table): wait for the others.
                return wait_for_the_others(stop);
            }
            stop.check_time();
            if stop.is_set() {
                return End::Stopped;
            }
            if patience.is_zero() {
                std::thread::sleep(Duration::from_micros(100));
            }
            continue;
        };
        let turn = &mut share[k];
        turn.slot.search.stop_check(stop, tables, pacer.tick());
        if stop.is_set() {
            return End::Stopped;
        }
        turn.slot.search.receive(&mut turn.mailbox);
        if turn.slot.search.open_len() == 0 {
            if let Some(end) = look_for_work(&mut share, k, ctx, patience) {
                return end;
            }
            continue;
        }
        let slot = &mut *turn.slot;
        let before = slot.search.generated();
        match slot.search.step(tables[slot.table], stop, Some(&mut turn.mailbox)) {
            Step::Continue | Step::Exhausted => {}
            Step::Found(found) => return End::Found { member: slot.member, table: slot.table, found },
        }
        let made = slot.search.generated() - before;
        let made =
            if slot.search.side() == Side::Forward { made.saturating_mul(ctx.forward_weight) } else { made };
        totals[slot.group] = totals[slot.group].saturating_add(made);
        turn.steps += 1;
        if turn.steps % FLUSH_EVERY == 0 {
            turn.mailbox.flush();
        }
    }
}

/// Worker `i` of a thread, out of work, asks its group for some: it waits (marked so) or goes
/// on, or its group has run dry and it leaves the thread; `Some` when that ends the race.
fn look_for_work(
    share: &mut Vec<Turn<'_, '_, '_>>,
    i: usize,
    ctx: &Turns<'_>,
    patience: Duration,
) -> Option<End> {
    let turn = &mut share[i];
    match turn.slot.search.wait_for_work(&mut turn.mailbox, patience) {
        Idle::Fed => {
            turn.waiting = false;
            let group = share[i].slot.group;
            let busiest = share
                .iter()
                .filter(|t| !t.waiting && t.slot.group == group)
                .map(|t| t.weight(ctx.forward_weight))
                .max();
            let turn = &mut share[i];
            let own = turn.weight(ctx.forward_weight);
            turn.lag += busiest.unwrap_or(own).saturating_sub(own);
        }
        Idle::Waiting => turn.waiting = true,
        Idle::Dry => {
            let end = ctx.dry(turn);
            share.swap_remove(i);
            return end;
        }
    }
    None
}

/// A thread with nothing left to search waits for the others (or the limits) to end the race.
fn wait_for_the_others(stop: &Stop<'_>) -> End {
    while !stop.is_set() {
        std::thread::sleep(Duration::from_millis(1));
        stop.check_time();
    }
    End::Stopped
}

#[cfg(test)]
mod tests {
    use super::*;
    use Side::{Backward as B, Forward as F};

    #[test]
    fn restart_lists_parse_and_bad_ones_say_why() {
        let secs = Duration::from_secs;
        let back = |backward| Dives { forward: 1, backward };
        assert_eq!(
            Restart::parse_list("10:4, 25:8,0.5:16").expect("valid"),
            [
                Restart::new(secs(10), back(4)),
                Restart::new(secs(25), back(8)),
                Restart::new(Duration::from_millis(500), back(16)),
            ]
        );
        let moves: Vec<_> = Restart::parse_list("10:4:box,25:8:single,5:2")
            .expect("valid")
            .iter()
            .map(|r| r.box_moves)
            .collect();
        assert_eq!(moves, [Some(true), Some(false), None]);
        let turns: Vec<_> = Restart::parse_list("10:4:box:fess2,25:8:fess5,5:2:single")
            .expect("valid")
            .iter()
            .map(|r| (r.box_moves, r.cycle))
            .collect();
        assert_eq!(turns, [(Some(true), Some(2)), (None, Some(5)), (Some(false), None)]);
        let packing: Vec<_> = Restart::parse_list("10:4:box:packing,25:8:unpacked,5:2:fess2")
            .expect("valid")
            .iter()
            .map(|r| (r.box_moves, r.cycle, r.packing))
            .collect();
        assert_eq!(
            packing,
            [(Some(true), None, Some(true)), (None, None, Some(false)), (None, Some(2), None)]
        );
        let bounds: Vec<_> = Restart::parse_list("10:4:pull-nearest,25:8:box:fess2:packing:pull-zero,5:2")
            .expect("valid")
            .iter()
            .map(|r| r.pull_bound)
            .collect();
        assert_eq!(bounds, [Some(BoundKind::Nearest), Some(BoundKind::Zero), None]);
        assert_eq!(
            Restart::parse_list(
                "10:2:box,6:4:box:packing,6:4:box:packing:fess8,5:4:box:pull-nearest,22:8,5:3:box"
            )
            .expect("valid"),
            Restart::defaults()
        );
        for (bad, why) in [
            ("", "expected SECS:DIVES"),
            ("10", "expected SECS:DIVES"),
            ("10:4,", "expected SECS:DIVES"),
            ("x:4", "expected SECS:DIVES"),
            ("10:-1", "expected SECS:DIVES"),
            ("0:4", "positive"),
            ("-3:4", "positive"),
            ("inf:4", "positive"),
            ("NaN:4", "positive"),
            ("10:0", "1 to 64"),
            ("10:65", "1 to 64"),
            ("10:4:boxes", "box or single"),
            ("10:4:box:1", "box or single"),
            ("10:4:fess2:box", "expected SECS:DIVES"),
            ("10:4:fess2:fess3", "the turn fessK"),
            ("10:4:fessx", "expected SECS:DIVES"),
            ("10:4:fess0", "1 to 64"),
            ("10:4:fess65", "1 to 64"),
            ("10:4:packing:unpacked", "packing or unpacked"),
            ("10:4:packed", "packing or unpacked"),
            ("10:4:pull-near", "pull-matching, pull-nearest or pull-zero"),
            ("10:4:pull-nearest:pull-zero", "the backward bound pull-BOUND"),
        ] {
            let err = Restart::parse_list(bad).expect_err(bad);
            assert!(err.contains(why), "{bad:?}: {err}");
        }
    }

    #[test]
    fn restarts_come_only_with_two_threads_to_the_searches() {
        assert_eq!(Restart::default_for(2, 2), Restart::defaults());
        assert!(Restart::default_for(2, 1).is_empty());
        assert!(Restart::default_for(2, 3).is_empty());
        assert_eq!(Restart::default_for(3, 3).len(), RESTARTS.len());
    }

    #[test]
    fn threads_up_to_the_search_count_give_one_worker_each() {
        for threads in 0..=4 {
            assert_eq!(group_sizes(&[F, B, B, F], threads), [1, 1, 1, 1], "{threads} threads");
        }
        assert_eq!(group_sizes(&[], 8), Vec::<usize>::new());
    }

    #[test]
    fn extra_threads_are_dealt_evenly_backward_first() {
        assert_eq!(group_sizes(&[F, B], 3), [1, 2]);
        assert_eq!(group_sizes(&[F, B], 16), [8, 8]);
        assert_eq!(group_sizes(&[F, B], 17), [8, 9]);
        assert_eq!(group_sizes(&[F, B, B], 5), [1, 2, 2]);
        assert_eq!(group_sizes(&[F, B, F], 5), [2, 2, 1]);
        assert_eq!(group_sizes(&[F, B, F], 8), [3, 3, 2]);
        for threads in 3..40 {
            let sizes = group_sizes(&[F, B, F, B, B], threads);
            assert_eq!(sizes.iter().sum::<usize>(), threads.max(5), "{threads} threads: {sizes:?}");
            let (lo, hi) = (sizes.iter().min(), sizes.iter().max());
            assert!(hi.zip(lo).is_some_and(|(h, l)| h - l <= 1), "{threads} threads: {sizes:?}");
        }
    }

    #[test]
    fn a_run_solved_after_a_restart_keeps_no_closest_state_of_the_run_before() {
        use crate::report::{FoundBy, Solution};
        use crate::stats::ClosestPath;
        let report = |outcome| Report {
            outcome,
            stats: Stats::default(),
            elapsed: Duration::from_secs(1),
            threads: 1,
            strategy: String::new(),
            note: None,
        };
        let mut earlier = report(Outcome::Cutoff(Cutoff::Time));
        for side in [&mut earlier.stats.forward, &mut earlier.stats.backward] {
            side.closest_h = Some(3);
            side.closest_state = Some(State::new(vec![5], 1));
            side.closest_path = Some(ClosestPath { h: 3, lurd: "R".into() });
        }
        let solution = Solution { lurd: "R".into(), moves: 1, pushes: 1, found_by: FoundBy::Forward };
        let mut solved = report(Outcome::Solved(solution));
        absorb(&mut solved, &earlier, None);
        for side in [&solved.stats.forward, &solved.stats.backward] {
            assert_eq!((&side.closest_path, &side.closest_state), (&None, &None));
            assert_eq!(side.closest_h, Some(3), "the counts add up as before");
        }
        assert_eq!(solved.elapsed, Duration::from_secs(2));
        // Not solved: the earlier run's closest state stays.
        let mut cut = report(Outcome::Cutoff(Cutoff::Time));
        absorb(&mut cut, &earlier, None);
        assert_eq!(cut.stats.backward.closest_state, Some(State::new(vec![5], 1)));
        assert!(cut.stats.forward.closest_path.is_some());
    }

    /// `levels/engine/open-room.xsb`: twenty boxes, a few thousand states for one search.
    const OPEN_ROOM: &str = "\
##########################
#@                       #
#  $ $ $ $ $ $ $ $ $ $   #
#                        #
#  $ $ $ $ $ $ $ $ $ $   #
#                        #
###########  #############
   #  .....  .....  #
   #  .....  .....  #
   ##################";

    /// A kept table (`Portfolio::keep_table`): a run searches as in a fresh table, its own
    /// side's earlier states counted as new, and ends on the other side's earlier states. One
    /// thread, so each run is deterministic.
    #[test]
    fn a_kept_table_searches_afresh_and_meets_earlier_runs() {
        let level = Level::parse(OPEN_ROOM).expect("parses");
        let portfolio = |name: &str| Portfolio {
            members: members(name).expect("known member"),
            threads: 1,
            tables: TableMode::Shared,
            forward_weight: crate::strategy::FORWARD_WEIGHT,
            dives: DIVES,
            restarts: Vec::new(),
            keep_table: true,
            early_perimeter: false,
        };
        let cancel = AtomicBool::new(false);
        let unlimited = Limits::default();
        let solve = |name: &str, limits: &Limits, table: Option<&VisitedTable>| {
            solve_once(&level, &portfolio(name), limits, &cancel, table).expect("runs")
        };
        let lurd = |report: &Report| match &report.outcome {
            Outcome::Solved(s) => s.lurd.clone(),
            other => panic!("not solved: {other:?}"),
        };
        let alone = solve("fwd-greedy", &unlimited, None);
        // The same search again over its own earlier run: the same states, the same way.
        let mut table = VisitedTable::new(16);
        let first = solve("fwd-greedy", &unlimited, Some(&table));
        assert!(table.next_run());
        let again = solve("fwd-greedy", &unlimited, Some(&table));
        for run in [&first, &again] {
            assert_eq!(lurd(run), lurd(&alone));
            assert_eq!(run.stats.states, alone.stats.states);
            assert_eq!(run.note.as_deref(), Some("found by fwd-greedy"));
        }
        assert!(table.renewed() > 0 && table.len() < first.stats.states + again.stats.states);
        // A backward run cut short, then the forward search: it ends on a backward state of the
        // earlier run, sooner than alone, and the solution replays (solution_of replays it).
        let mut table = VisitedTable::new(16);
        let cut = Limits { states: Some(2_000), ..Limits::default() };
        let backward = solve("bwd-greedy", &cut, Some(&table));
        assert_eq!(backward.outcome, Outcome::Cutoff(Cutoff::States));
        assert!(table.next_run());
        let forward = solve("fwd-greedy", &unlimited, Some(&table));
        let Outcome::Solved(solution) = &forward.outcome else {
            panic!("not solved: {:?}", forward.outcome);
        };
        assert_eq!(
            forward.note.as_deref(),
            Some("found by fwd-greedy, meeting a backward state of an earlier run")
        );
        assert_eq!(solution.found_by, crate::report::FoundBy::Meeting);
        assert!(
            forward.stats.states < alone.stats.states,
            "{} states against {} alone",
            forward.stats.states,
            alone.stats.states
        );
    }
}
