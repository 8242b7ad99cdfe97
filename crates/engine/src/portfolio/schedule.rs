//! The scheduler: searches dealt over threads, turns taken among them, the race stopped by
//! the first solution.

use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use bisolve_board::search::{Expander, Side};
use bisolve_board::{Level, State};
use bisolve_pull::Backward;
use bisolve_push::{Forward, PushConfig};
use parking_lot::Mutex;

use crate::bridge::{BridgeConfig, Bridges};
use crate::closest::Closest;
use crate::hda::{Group, Idle, Mailbox, FLUSH_EVERY};
use crate::limits::{Cutoff, Due, Limits, Pacer, Stop, StopOnDrop};
use crate::report::{closest_of, closest_path, dead_root, solution_of, Outcome, Report, SolveError};
use crate::stats::{SideStats, Stats};
use crate::strategy::Directions;
use crate::table::VisitedTable;
use crate::worker::{Found, OwnVisited, Step, Worker};

use super::members::{directions_used, Member};
use super::{Portfolio, TableMode};

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
            stop.report_closest(self.side(), self.stats.closest_h);
            stop.check_memory(tables.iter().map(|t| t.bytes()).sum(), || {
                tables.iter().map(|t| t.len()).sum()
            });
        }
    }
    fn finish(self: Box<Self>) -> SideStats {
        Worker::finish(*self)
    }
    fn closest(&self) -> Option<(u32, &State)> {
        self.closest_state()
    }
}

/// One worker with the member it belongs to, the table it uses and its group: the workers of one
/// member's direction ([`Portfolio::dives`](super::Portfolio::dives) of them, more where the
/// threads outnumber the searches).
struct Slot<'a> {
    member: usize,
    table: usize,
    group: usize,
    /// Its member searches in one direction only (see [`count`]).
    lone: bool,
    search: Box<dyn Search + 'a>,
}

/// How the portfolio ended.
pub(super) enum End {
    Found { member: usize, table: usize, found: Found },
    Exhausted { member: usize },
    Stopped,
}

/// The note naming the member that found or proved the outcome (`verb`: found, proven); a
/// member without a name, the one [`crate::solve()`] runs, is not named.
fn by(verb: &str, name: &str) -> Option<String> {
    (!name.is_empty()).then(|| format!("{verb} by {name}"))
}

/// One portfolio search, without restarts; in `kept`, a table earlier runs filled, where the tables
/// are shared (see [`Portfolio::keep_table`](super::Portfolio::keep_table)), else in tables of its
/// own.
pub(super) fn solve_once(
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
        optimality: None,
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
        report.note = by("proven", members[m].name);
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
            let lone = member.strategy.directions != Directions::Both;
            slots.push(Slot { member: m, table, group, lone, search });
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
    // The live figures end as the report does: a worker publishes its bound only every few
    // milliseconds, so the last one it reached may not have been published yet.
    stop.report_closest(Side::Forward, forward.closest_h);
    stop.report_closest(Side::Backward, backward.closest_h);
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
            report.note = by("proven", members[member].name);
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
            let found_by = by("found", members[member].name);
            let meeting = earlier.map(|side| format!("meeting a {} state of an earlier run", side.name()));
            report.note = match (found_by, meeting) {
                (Some(found_by), Some(meeting)) => Some(format!("{found_by}, {meeting}")),
                (found_by, meeting) => found_by.or(meeting),
            };
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

/// The thread of search `search` of member `member` while there are no more `threads` than
/// searches: by member while there are no more threads than `members` and the deal is
/// [`Deal::Members`](crate::Deal::Members), else by search.
pub(super) fn thread_of(
    deal: crate::Deal,
    threads: usize,
    members: usize,
    search: usize,
    member: usize,
) -> usize {
    if deal == crate::Deal::Members && threads <= members {
        member % threads
    } else {
        search % threads
    }
}

/// The kinds of macro move a forward configuration makes: goal macros, packing macros, and
/// whether rooms with several entrances are among the rooms (they take goals from packing
/// macros too).
fn macro_kinds(config: PushConfig) -> (bool, bool, bool) {
    let rooms = config.goal_macros || config.packing_macros;
    (config.goal_macros, config.packing_macros, rooms && config.room_entrances)
}

/// Runs the workers on the threads: while there are no more threads than searches, as the
/// portfolio's [`Deal`](crate::Deal) says ([`thread_of`]; a search's workers take turns on its
/// thread); beyond that, each search has
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
        let thread = if wide {
            first_thread[g] + id % allotted[g]
        } else {
            thread_of(portfolio.deal, threads, portfolio.members.len(), g, slot.member)
        };
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
    // Every job starts once all have a thread: on a loaded machine a pool thread can start
    // late, and a job running alone until then is not the race the searches are tuned for
    // (the forward search's closest states, say, never reach the backward bridges).
    let all_started = std::sync::Barrier::new(jobs.len());
    pool.scope(|s| {
        for job in jobs {
            let (ends, run, all_started) = (&ends, &run, &all_started);
            s.spawn(move |_| {
                all_started.wait();
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

/// How many threads each search gets of `threads`: one each while there are no more threads than
/// searches (they then share threads, see [`run`]); beyond that, the threads are dealt out evenly,
/// and the ones left over go to backward searches first (on the hard sets the backward search finds
/// almost every solution, see [`FORWARD_WEIGHT`](crate::strategy::FORWARD_WEIGHT)), then to forward
/// searches, in the members' order.
pub(super) fn group_sizes(sides: &[Side], threads: usize) -> Vec<usize> {
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
    /// Its states generated, counted as [`count`] says, plus its lag.
    fn weight(&self, forward_weight: u64) -> u64 {
        let search = &self.slot.search;
        count(search.side(), self.slot.lone, forward_weight, search.generated()).saturating_add(self.lag)
    }
}

/// How `generated` states of a search count in the turns, so that every member gets an equal
/// share: in a member of both directions, its forward search's states count `forward_weight`
/// times as much as its backward search's, so the backward search makes `forward_weight`
/// times as many; a member of one direction makes as many as both searches of such a member
/// together. With `w = forward_weight`, the forward search of a two-way member counts
/// `w (w + 1)` per state and its backward search `w + 1`, and the search of a one-way
/// member `w`.
fn count(side: Side, lone: bool, forward_weight: u64, generated: u64) -> u64 {
    let w = forward_weight;
    let per_state = match (lone, side) {
        (true, _) => w,
        (false, Side::Forward) => w.saturating_mul(w + 1),
        (false, Side::Backward) => w + 1,
    };
    generated.saturating_mul(per_state)
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

/// One thread's loop: step the search (group) that has generated least on this thread, forward
/// searches' counts weighted (see [`FORWARD_WEIGHT`](crate::strategy::FORWARD_WEIGHT)), and within
/// it the worker that has, among those with work, until something ends it: a search's share of the
/// thread does not grow with its number of dives. A worker that runs out of work asks its group for
/// some and waits, without holding up the others on its thread (a worker alone on its thread waits
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
        let made = count(slot.search.side(), slot.lone, ctx.forward_weight, slot.search.generated() - before);
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
