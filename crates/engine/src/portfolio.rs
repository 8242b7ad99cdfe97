//! Portfolios: several differently-tuned searches racing on one level; the first verified
//! solution wins and stops the rest.
//!
//! Each member is a named configuration (directions, ordering, lower bounds, pruning). Its
//! searches run as workers spread over the available threads: with fewer threads than workers,
//! each thread takes turns among its workers, balanced by states generated, so every member
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

use bisolve_board::bound::BoundKind;
use bisolve_board::search::{Expander, Side};
use bisolve_board::Level;
use bisolve_pull::{Backward, PullConfig};
use bisolve_push::{Forward, PushConfig};
use parking_lot::Mutex;

use crate::bridge::{BridgeConfig, Bridges, Closest};
use crate::limits::{Cutoff, Due, Limits, Pacer, Stop, StopOnDrop};
use crate::solve::{dead_root, solution_of, Outcome, Report, SolveError};
use crate::stats::{SideStats, Stats};
use crate::strategy::{Directions, Strategy, Weighting};
use crate::table::VisitedTable;
use crate::worker::{Found, Step, Worker};

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
    /// [`FORWARD_WEIGHT`] by default; 1 gives equal turns (`--equal-turns`).
    pub forward_weight: u64,
}

/// The default [`Portfolio::forward_weight`] and [`crate::Config::forward_weight`]: the
/// forward search gets a quarter of the turns of a thread it shares with a backward search
/// (the default on one thread, where `bi-fess`'s two searches take turns, as do those of a
/// single bidirectional strategy; on two threads each has its own). The backward search finds
/// almost every solution on the hard sets. One thread, `--jobs 2`, 10 s a level (2026-11-25,
/// XSokoban 1-45 + Sasquatch): equal turns 21 + 35 = 56, a quarter 25 + 35 = 60 (XSokoban 11,
/// 20, 29, 41 gained, none lost) in 0.92 of the time on the levels both solved.
pub const FORWARD_WEIGHT: u64 = 3;

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
        strategy: Strategy { directions, weighting, inertia: true, bridges: true, live_targets: false },
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
    /// A bridge if one is due (forward searches with bridges), else one step.
    fn step(&mut self, table: &VisitedTable, stop: &Stop<'_>) -> Step;
    fn generated(&self) -> u64;
    fn stop_check(&mut self, stop: &Stop<'_>, tables: &[VisitedTable], due: Due);
    fn finish(self: Box<Self>) -> SideStats;
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
    fn step(&mut self, table: &VisitedTable, stop: &Stop<'_>) -> Step {
        if let Some(found) = self.bridge(table, stop) {
            return Step::Found(found);
        }
        Worker::step(self, table, None)
    }
    fn generated(&self) -> u64 {
        self.stats.generated
    }
    fn stop_check(&mut self, stop: &Stop<'_>, tables: &[VisitedTable], due: Due) {
        if stop.counts_states() {
            self.report_inserted(stop);
        }
        if due != Due::Nothing {
            stop.check_time();
        }
        if due == Due::All {
            stop.report_open_bytes(self.slot(), self.open_bytes());
            let bytes = tables.iter().map(VisitedTable::bytes).sum();
            let states = tables.iter().map(VisitedTable::len).sum();
            stop.check_size(bytes, states);
        }
    }
    fn finish(self: Box<Self>) -> SideStats {
        Worker::finish(*self)
    }
}

/// A search with the member it belongs to and the table it uses.
struct Slot<'a> {
    member: usize,
    table: usize,
    search: Box<dyn Search + 'a>,
}

/// How the portfolio ended.
enum End {
    Found { member: usize, table: usize, found: Found },
    Exhausted { member: usize },
    Stopped,
}

/// Solves a level with a portfolio of searches.
pub fn solve_portfolio(
    level: &Level,
    portfolio: &Portfolio,
    limits: &Limits,
    cancel: &AtomicBool,
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
    let workers: usize = members.iter().map(|m| directions_used(m.strategy.directions).len()).sum();
    let threads = portfolio.threads.clamp(1, workers.max(1));
    let tables: Vec<VisitedTable> = (0..n_tables).map(|_| VisitedTable::new(16 * threads)).collect();
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
    // Searches of one direction that share a table each keep their own visited set, or the
    // second would queue only what the first had not seen (see Worker::with_own_visited).
    let sharing_side = |table: usize, side: Side| {
        (0..members.len())
            .filter(|&m| {
                table_of(m) == table && directions_used(members[m].strategy.directions).contains(&side)
            })
            .count()
            > 1
    };
    let mut slots: Vec<Slot<'_>> = Vec::new();
    for (m, member) in members.iter().enumerate() {
        let table = table_of(m);
        for side in directions_used(member.strategy.directions) {
            let slot = slots.len();
            let own = sharing_side(table, *side);
            let search: Box<dyn Search + '_> = match side {
                Side::Forward => {
                    let w = Worker::new(&forwards[m], zobrist, n, member.strategy, slot);
                    let w = if own { w.with_own_visited() } else { w };
                    if bridging[table] == Some(m) {
                        let bridges = Bridges::new(BridgeConfig::default(), board, start, &closests[table]);
                        Box::new(w.with_bridges(bridges))
                    } else {
                        Box::new(w)
                    }
                }
                Side::Backward => {
                    let w = Worker::new(&backwards[m], zobrist, n, member.strategy, slot);
                    let w = if own { w.with_own_visited() } else { w };
                    if let Some(b) = bridging[table] {
                        Box::new(w.publishing(&closests[table], members[b].strategy.live_targets))
                    } else {
                        Box::new(w)
                    }
                }
            };
            slots.push(Slot { member: m, table, search });
        }
    }
    let mut end = None;
    for slot in &mut slots {
        if let Some(found) = slot.search.seed(&tables[slot.table]) {
            end = Some(End::Found { member: slot.member, table: slot.table, found });
            break;
        }
    }
    stop.set_seeded(tables.iter().map(VisitedTable::len).sum());
    // In a shared table a direction is proven empty only when every member's search of it
    // has run dry; in separate tables one dry search is proof for its member's level.
    let remaining = [Side::Forward, Side::Backward]
        .map(|side| AtomicUsize::new(slots.iter().filter(|s| s.search.side() == side).count()));
    let end = match end {
        Some(end) => end,
        None => run(&mut slots, threads, &tables, &stop, portfolio, &remaining)?,
    };
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
        states: tables.iter().map(VisitedTable::len).sum(),
        table_bytes: tables.iter().map(VisitedTable::bytes).sum(),
        peak_open_bytes: stop.open_bytes(),
        collisions: tables.iter().map(VisitedTable::collisions).sum(),
    };
    report.outcome = match end {
        End::Exhausted { member } => {
            report.note = Some(format!("proven by {}", members[member].name));
            Outcome::Unsolvable
        }
        End::Stopped => Outcome::Cutoff(stop.cutoff().unwrap_or(Cutoff::Cancelled)),
        End::Found { member, table, found } => {
            report.note = Some(format!("found by {}", members[member].name));
            // In a shared table the path may hold macro moves another member made: read the
            // forward half with a generator that knows every member's kinds of macro.
            let decoder;
            let f = match shared_macro_config(members, portfolio.tables) {
                Some(config) if macro_kinds(config) != macro_kinds(forwards[member].config()) => {
                    decoder = Forward::new(board, start, config);
                    &decoder
                }
                _ => &forwards[member],
            };
            let b = &backwards[member];
            Outcome::Solved(solution_of(level, Some(f), Some(b), &tables[table], &found)?)
        }
    };
    report.elapsed = started.elapsed();
    Ok(report)
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
        packing_macros: configs.iter().any(|c| c.packing_macros),
        goal_cut: false,
        pair_deadlocks: false,
        sealed_goals: false,
        features: false,
        ..PushConfig::default()
    })
}

/// The kinds of macro move a forward configuration makes: goal macros, packing macros.
fn macro_kinds(config: PushConfig) -> (bool, bool) {
    (config.goal_macros, config.packing_macros)
}

fn directions_used(d: Directions) -> &'static [Side] {
    match d {
        Directions::Forward => &[Side::Forward],
        Directions::Backward => &[Side::Backward],
        Directions::Both => &[Side::Forward, Side::Backward],
    }
}

/// Spreads the searches over a rayon pool of `threads` threads; each thread takes turns among
/// its own share. The pool has exactly one job per thread, so every share runs at once (a
/// share runs until the race ends; none may wait behind another).
fn run(
    slots: &mut [Slot<'_>],
    threads: usize,
    tables: &[VisitedTable],
    stop: &Stop<'_>,
    portfolio: &Portfolio,
    remaining: &[AtomicUsize; 2],
) -> Result<End, SolveError> {
    let turns = Turns { mode: portfolio.tables, forward_weight: portfolio.forward_weight.max(1) };
    let mut shares: Vec<Vec<&mut Slot<'_>>> = (0..threads).map(|_| Vec::new()).collect();
    for (i, slot) in slots.iter_mut().enumerate() {
        shares[i % threads].push(slot);
    }
    if threads == 1 {
        // One share: run it on this thread. A pool built for it took 40% of the time of a
        // Boxoban level (three files, --jobs 2: 2,222 levels/s with it, 3,587 without, and
        // 3,672 for `--strategy bidirectional`).
        let share = shares.pop().unwrap_or_default();
        let end = std::panic::catch_unwind(AssertUnwindSafe(|| {
            let _guard = StopOnDrop(stop);
            take_turns(share, tables, stop, turns, remaining)
        }));
        return end.map_err(|_| SolveError::Panic);
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|t| format!("bisolve-portfolio-{t}"))
        .build()
        .map_err(|e| SolveError::Threads(e.to_string()))?;
    let ends: Mutex<Vec<std::thread::Result<End>>> = Mutex::new(Vec::with_capacity(threads));
    pool.scope(|s| {
        for share in shares {
            let ends = &ends;
            s.spawn(move |_| {
                // A panicking share stops the others (the guard's drop) and is reported as
                // `SolveError::Panic` below, not re-raised in the caller.
                let end = std::panic::catch_unwind(AssertUnwindSafe(|| {
                    let _guard = StopOnDrop(stop);
                    let end = take_turns(share, tables, stop, turns, remaining);
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

/// How the threads of a portfolio run their shares.
#[derive(Clone, Copy, Debug)]
struct Turns {
    mode: TableMode,
    forward_weight: u64,
}

/// One thread's loop: step the search that has generated least (forward searches' counts
/// weighted, see [`FORWARD_WEIGHT`]), until something ends it.
fn take_turns(
    mut share: Vec<&mut Slot<'_>>,
    tables: &[VisitedTable],
    stop: &Stop<'_>,
    turns: Turns,
    remaining: &[AtomicUsize; 2],
) -> End {
    let mode = turns.mode;
    let weight = |search: &dyn Search| match search.side() {
        Side::Forward => search.generated().saturating_mul(turns.forward_weight),
        Side::Backward => search.generated(),
    };
    let mut pacer = Pacer::new();
    let side_index = |side: Side| usize::from(side == Side::Backward);
    loop {
        let Some(k) = (0..share.len()).min_by_key(|&k| weight(&*share[k].search)) else {
            // Every search of this thread ran dry without proving anything (shared table):
            // wait for the others.
            while !stop.is_set() {
                std::thread::sleep(Duration::from_millis(1));
                stop.check_time();
            }
            return End::Stopped;
        };
        share[k].search.stop_check(stop, tables, pacer.tick());
        if stop.is_set() {
            return End::Stopped;
        }
        let slot = &mut share[k];
        match slot.search.step(&tables[slot.table], stop) {
            Step::Continue => {}
            Step::Found(found) => return End::Found { member: slot.member, table: slot.table, found },
            // A search that may skip moves proves nothing by running dry; the searches of its
            // side still count as running, so that side never claims a proof.
            Step::Exhausted if !slot.search.complete() => {
                share.swap_remove(k);
            }
            Step::Exhausted => {
                let member = slot.member;
                let side = slot.search.side();
                share.swap_remove(k);
                let last = remaining[side_index(side)].fetch_sub(1, Ordering::SeqCst) == 1;
                if mode == TableMode::Separate || last {
                    return End::Exhausted { member };
                }
            }
        }
    }
}
