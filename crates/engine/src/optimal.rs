//! Proven-optimal solutions: the fewest pushes and then the fewest moves among them, or the
//! fewest moves and then the fewest pushes.
//!
//! The search is A* over exact positions (the boxes and the square the player stands on, not
//! the player's region as the other searches store it), since the walks between pushes count
//! for moves. A position's children are its pushes that the forward expander keeps (every
//! test that only cuts dead positions; no macros, box moves, tunnel rule or PI-corral
//! restriction, which reorder pushes and so keep the pushes of a solution but not its moves);
//! each costs one push and the walk to it plus one move. The key is lexicographic by the
//! [`Objective`]: (pushes, moves) or (moves, pushes), each plus the matching bound on the
//! pushes still needed, which bounds the moves still needed too. The bound is admissible, so
//! the first goal whose key no open position's key undercuts is optimal.
//!
//! The fewest pushes come in two phases ([`OptimalConfig::phases`]). The first is A* over
//! the player's regions, as the other searches store positions, counting pushes only: a
//! position there stands for every square of its region, so there are several times fewer of
//! them. It runs until every position whose pushes plus bound reach the fewest pushes `P` is
//! expanded; then each holds its fewest pushes, and the positions on the paths of `P` pushes
//! are read back from the goals. The second phase is the exact search above, kept
//! to those positions (each child's region must be on such a path, reached with the pushes
//! that path has there): it finds the fewest moves among the solutions of `P` pushes.
//!
//! On several threads the positions of least key are taken in batches and expanded at once,
//! each thread a slice of the batch with its own expander scratch. The table is in shards
//! picked by the fingerprint, and each shard merges its children on a thread of its own, in
//! batch order, so a run is deterministic for a given thread count. A batch
//! may hold positions of larger keys than the least, so a position can be reached again more
//! cheaply after its expansion: it is then queued again (reopened), and a goal is proven only
//! once every open key reaches its key. One thread takes one position at a time: plain A*.

mod paths;
mod table;

use std::cmp::Reverse;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use bisolve_board::moves::{pushes_to_steps, replay, steps_to_lurd, Push};
use bisolve_board::search::{Expander, NodeRef};
use bisolve_board::{Board, Cell, Dir, Fingerprint, Level, Objective, State, Walks};
use bisolve_push::{Forward, PushConfig, PushScratch};
use rayon::prelude::*;
use rayon::ThreadPool;

use crate::limits::{Cutoff, Limits, Stop};
use crate::report::{FoundBy, Optimality, Outcome, Report, Solution, SolveError};
use crate::stats::{SideStats, Stats};
use paths::{on_paths, OnPaths};
use table::{merge_shard, shard_capacity, Entry, Meta, Part, Table, ROOT};

/// What an optimal search runs with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OptimalConfig {
    /// What counts first.
    pub objective: Objective,
    /// Threads.
    pub threads: usize,
    /// The forward tests (made safe by [`OptimalConfig::forward`]).
    pub push: PushConfig,
    /// With the pushes objective: find the fewest pushes over the player's regions first, then
    /// search exact positions only on the paths of that many pushes (see the module's
    /// documentation). Off, the exact search runs alone, as for the moves objective.
    pub phases: bool,
}

impl OptimalConfig {
    /// An optimal search for `objective` on `threads` threads with the forward tests of `push`
    /// that keep optimality.
    pub fn new(objective: Objective, threads: usize, push: PushConfig) -> OptimalConfig {
        OptimalConfig { objective, threads: threads.max(1), push: OptimalConfig::forward(push), phases: true }
    }

    /// The switches of `push` an optimal search can use: the deadlock tests and the bound as
    /// they are; no macros, box moves, tunnel rule or PI-corrals (they choose one order of the
    /// pushes, which may cost moves). The feature cells are on only for the area labels that
    /// come with them, which give every child's player region without a flood fill (1.27x
    /// faster per level on Microban I); A* never reads the cells, so packing, the parking plan,
    /// room links and hotspots stay off.
    pub fn forward(mut push: PushConfig) -> PushConfig {
        push.goal_macros = false;
        push.packing_macros = false;
        push.goal_cut = false;
        push.room_discipline = false;
        push.room_plans = false;
        push.box_moves = false;
        push.tunnels = false;
        push.corrals = false;
        push.corral_deadlocks = false;
        push.features = true;
        push.packing = false;
        push.room_links = false;
        push.hotspots = false;
        push.parking_plan = false;
        push.out_of_plan = false;
        push.opener = false;
        push.imagine = false;
        push
    }

    /// The name reports give it: `optimal-pushes` or `optimal-moves`.
    pub fn name(&self) -> String {
        format!("optimal-{}", self.objective)
    }
}

/// Positions expanded per thread in one batch on several threads.
const BATCH_PER_THREAD: usize = 256;
/// How a run of the search treats positions.
#[derive(Clone, Copy)]
enum Phase<'a> {
    /// Positions by the player's region, counting pushes only (the first phase).
    Regions,
    /// Exact positions; with a set, only children whose region is on a path of the fewest
    /// pushes, reached with the pushes that path has there.
    Exact(Option<&'a OnPaths>),
}

/// What every run of one solve shares.
struct Search<'a, 'l> {
    fwd: &'a Forward<'l>,
    board: &'l Board,
    objective: Objective,
    start: &'l State,
    threads: usize,
    pool: Option<ThreadPool>,
    stop: Stop<'a>,
    /// The key of a solution in hand (its lengths by the objective), when one was given: see
    /// [`Above`].
    upper: Option<(u32, u32)>,
}

/// Which children a solution in hand of key `upper` keeps out of the table.
#[derive(Clone, Copy)]
struct Above {
    upper: (u32, u32),
    /// Over the player's regions, only those whose first length plus bound exceeds the
    /// solution's (the paths of exactly as many pushes must all be found); over exact
    /// positions, every one whose key plus bound reaches the solution's key (no solution
    /// through it is shorter).
    regions: bool,
}

impl Above {
    #[inline]
    fn cuts(self, key: (u32, u32)) -> bool {
        if self.regions {
            key.0 > self.upper.0
        } else {
            key >= self.upper
        }
    }
}

/// How a run ended: its table, and what it counted.
struct Ran {
    table: Table,
    stats: SideStats,
}

/// What the runs of one solve add up to: their counts, their states, and the larger of their
/// tables and of their open lists, in bytes.
#[derive(Default)]
struct Totals {
    stats: SideStats,
    states: usize,
    bytes: (usize, usize),
}

impl Totals {
    fn add(&mut self, ran: &Ran) {
        self.stats.add(&ran.stats);
        for shard in &ran.table.shards {
            self.stats.add(&shard.stats);
        }
        self.states += ran.table.len();
        let open: usize = ran.table.shards.iter().map(|s| s.open.capacity() * size_of::<Entry>()).sum();
        self.bytes = self.bytes.max((ran.table.bytes() - open, open));
    }
}

/// Solves `level` optimally for `config.objective`, within `limits`.
pub fn solve_optimal(
    level: &Level,
    config: &OptimalConfig,
    limits: &Limits,
    cancel: &AtomicBool,
) -> Result<Report, SolveError> {
    solve_optimal_from(level, config, None, limits, cancel)
}

/// [`solve_optimal`] with a solution in hand (`incumbent`, replayed on `level`, as another
/// search found it). The search keeps out of its table every position whose key plus bound
/// shows that no solution through it is shorter by the objective (over the player's regions,
/// in the first phase of the fewest pushes: longer, so that every path of as many pushes is
/// still found), so it stores fewer positions. It then proves the incumbent optimal
/// when it runs out of positions without a goal, and a limit that stops it reports the
/// shorter of the incumbent and what it found, with the lower bound it reached.
pub fn solve_optimal_from(
    level: &Level,
    config: &OptimalConfig,
    incumbent: Option<&Solution>,
    limits: &Limits,
    cancel: &AtomicBool,
) -> Result<Report, SolveError> {
    let started = Instant::now();
    let (board, start) = (level.board(), level.start());
    let objective = config.objective;
    let threads = config.threads.max(1);
    let fwd = Forward::new(board, start, config.push);
    let pool = if threads > 1 {
        Some(
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .thread_name(|t| format!("bisolve-optimal-{t}"))
                .build()
                .map_err(|e| SolveError::Threads(e.to_string()))?,
        )
    } else {
        None
    };
    let stop = Stop::new(*limits, cancel, 1);
    let upper = incumbent.map(|s| objective.key(s.moves as u32, s.pushes as u32));
    let search = Search { fwd: &fwd, board, objective, start, threads, pool, stop, upper };
    let mut parts: Vec<Part<_>> = (0..threads)
        .map(|_| Part {
            scratch: fwd.new_scratch(),
            walks: Walks::new(board.n_cells()),
            children: Vec::new(),
            nodes: Vec::new(),
            made: Vec::new(),
            cells: Vec::new(),
            known: 0,
            outside: 0,
            above: 0,
        })
        .collect();
    let roots = fwd.roots(&mut parts[0].scratch);
    let dead = roots.is_empty();
    let root = roots.first().map(|r| (r.fp, r.state.player, r.h));

    let mut totals = Totals::default();
    // The fewest pushes over the player's regions first, when asked: then the exact search
    // keeps to the paths of that many pushes, and a cut-off keeps the first phase's answer.
    let mut on = None;
    let mut fallback = None;
    let mut concluded = None;
    if let (true, Objective::Pushes, Some((fp, player, h))) = (config.phases, objective, root) {
        let ran = search.run(&mut parts, (fp, player, h), Phase::Regions, (0, 0));
        totals.add(&ran);
        match ran.table.best() {
            Some((k, id)) if search.stop.cutoff().is_none() => {
                on = Some(on_paths(board, &ran.table, k.0));
                fallback = Some((solution_at(level, &ran.table, id, None)?, k.0));
            }
            _ => concluded = Some(conclude(level, &ran.table, objective, search.stop.cutoff(), false)?),
        }
    }
    // Whether the exact search ran: only its running dry proves a solution in hand optimal.
    let exact = concluded.is_none();
    let (outcome, optimality) = match concluded {
        Some(concluded) => concluded,
        None => {
            let exact_root = root
                .map(|(_, _, h)| (board.zobrist().fingerprint(&start.boxes, start.player), start.player, h));
            let ran = match exact_root {
                Some(r) => {
                    let proved = fallback.as_ref().map_or(0, |(_, pushes)| *pushes);
                    search.run(&mut parts, r, Phase::Exact(on.as_ref()), (totals.states, proved))
                }
                None => {
                    Ran { table: Table::new(1 + start.boxes.len(), threads), stats: SideStats::default() }
                }
            };
            totals.add(&ran);
            match (ran.table.best(), fallback) {
                // Cut off before the exact search reached a goal: the first phase's solution has
                // the fewest pushes, but its moves are not proven the fewest.
                (None, Some((solution, pushes))) if upper.is_none() || search.stop.cutoff().is_some() => (
                    Outcome::Solved(solution),
                    Some(Optimality { objective, proven: false, lower_bound: pushes }),
                ),
                _ => conclude(level, &ran.table, objective, search.stop.cutoff(), true)?,
            }
        }
    };
    let (outcome, optimality) = match incumbent {
        Some(held) => {
            let proves = exact && search.stop.cutoff().is_none();
            with_incumbent(held, objective, (outcome, optimality), proves)
        }
        None => (outcome, optimality),
    };
    let mut report = Report {
        outcome,
        stats: Stats::default(),
        elapsed: started.elapsed(),
        threads,
        strategy: config.name(),
        note: dead.then(|| "the start position is dead".to_string()),
        optimality,
    };
    search.finish(&parts, totals, &mut report);
    Ok(report)
}

/// What a run's table says once it stops (`cutoff`: the limit that stopped it, if one did):
/// its best goal's solution, proven when `exact` (a search over exact positions, whose moves
/// count) and no open key undercuts the goal's, else with the least open key as the lower
/// bound; or the cut-off with that bound; or, when it ran dry, that the level is unsolvable.
fn conclude(
    level: &Level,
    table: &Table,
    objective: Objective,
    cutoff: Option<Cutoff>,
    exact: bool,
) -> Result<(Outcome, Option<Optimality>), SolveError> {
    let open_min = table.least_open().map(|((a, b, ..), _)| (a, b));
    Ok(match (table.best(), cutoff) {
        (Some((k, id)), _) => {
            let solution = solution_at(level, table, id, exact.then_some((objective, k)))?;
            let proven = exact && (cutoff.is_none() || open_min.is_none_or(|m| m >= k));
            let lower_bound = if proven { k.0 } else { open_min.map_or(k.0, |m| m.0.min(k.0)) };
            (Outcome::Solved(solution), Some(Optimality { objective, proven, lower_bound }))
        }
        (None, Some(c)) => {
            let lower_bound = open_min.map_or(0, |m| m.0);
            (Outcome::Cutoff(c), Some(Optimality { objective, proven: false, lower_bound }))
        }
        (None, None) => (Outcome::Unsolvable, None),
    })
}

/// What the search concluded (`concluded`), read with the solution in hand `held`, whose key
/// the search kept its positions under; `dry_proves`: the exact search ran and no limit
/// stopped it.
///
/// - Proven: the search's solution is at most as long as `held` (it only keeps shorter ones).
/// - The exact search ran dry with no goal and no limit: no solution is shorter than `held`,
///   which is then proven optimal.
/// - Stopped by a limit: the shorter of `held` and the search's solution, unproven, with the
///   lower bound reached.
fn with_incumbent(
    held: &Solution,
    objective: Objective,
    concluded: (Outcome, Option<Optimality>),
    dry_proves: bool,
) -> (Outcome, Option<Optimality>) {
    let key = |s: &Solution| objective.key(s.moves as u32, s.pushes as u32);
    let first = key(held).0;
    match concluded {
        (Outcome::Solved(s), Some(o)) if o.proven || key(&s) <= key(held) => (Outcome::Solved(s), Some(o)),
        (Outcome::Solved(_), Some(o)) => {
            (Outcome::Solved(held.clone()), Some(Optimality { lower_bound: o.lower_bound.min(first), ..o }))
        }
        (Outcome::Cutoff(_), o) => {
            let lower_bound = o.map_or(0, |o| o.lower_bound.min(first));
            (Outcome::Solved(held.clone()), Some(Optimality { objective, proven: false, lower_bound }))
        }
        // Ran dry below the solution in hand: nothing shorter exists.
        _ => {
            let lower_bound = if dry_proves { first } else { 0 };
            (Outcome::Solved(held.clone()), Some(Optimality { objective, proven: dry_proves, lower_bound }))
        }
    }
}

impl Search<'_, '_> {
    /// Runs A* from the root `(fingerprint, player, bound)` in `phase`, until its best goal is
    /// proven or the limits stop it. Over the player's regions it goes on until every open
    /// position's pushes plus bound exceed the goal's pushes, so that every position on a path
    /// of the fewest pushes is expanded.
    ///
    /// `before`: the states of the runs before this one, which count towards the limit, and
    /// the lower bound they proved, which the live figures show until this run's is larger.
    fn run(
        &self,
        parts: &mut [Part<PushScratch>],
        root: (Fingerprint, Cell, u32),
        phase: Phase<'_>,
        (before, proved): (usize, u32),
    ) -> Ran {
        let (board, objective, threads) = (self.board, self.objective, self.threads);
        let start = self.start;
        let stride = 1 + start.boxes.len();
        let mut table = Table::new(stride, threads);
        let shards = table.shards.len();
        for part in parts.iter_mut() {
            part.made = vec![Vec::new(); shards];
            part.cells = vec![Vec::new(); shards];
        }
        let mut stats = SideStats::default();
        let (fp, player, h) = root;
        let s = table.shard_of(fp);
        let id = table.id(s, 0);
        let shard = &mut table.shards[s];
        shard.cells.push(player);
        shard.cells.extend_from_slice(&start.boxes);
        shard.meta.push(Meta { parent: ROOT, from: 0, dir: Dir::Up, pushes: 0, moves: 0, h });
        shard.index.insert(fp, 0);
        if start.is_solved(board) {
            shard.best = Some(((0, 0), id));
        } else {
            let (a, b) = key_of(objective, 0, 0, h);
            shard.open.push(Reverse((a, b, h, id)));
        }
        let layer = matches!(phase, Phase::Regions);
        let batch = if threads > 1 { BATCH_PER_THREAD * threads } else { 1 };
        let mut picked = Vec::with_capacity(batch);
        let mut rounds: u64 = 0;
        loop {
            // Limits: between batches (every 64th position on one thread).
            rounds += 1;
            let stop = &self.stop;
            if batch > 1 || rounds % 64 == 0 {
                stop.check_time();
                stop.check_memory(table.bytes(), || table.len());
                // The least open key, or the best goal's when that is smaller: what every
                // solution needs at least.
                let open = table.least_open().map(|((a, ..), _)| a);
                let goal = table.best().map(|((a, _), _)| a);
                let lower = open.min(goal).or(open).or(goal).map(|l| l.max(proved));
                stop.report_lower_bound(objective, lower);
                if table.shards.iter().any(|s| s.meta.len() >= shard_capacity(table.bits)) {
                    stop.cut(Cutoff::Memory);
                }
            }
            if stop.is_set() {
                break;
            }
            picked.clear();
            let best = table.best();
            while picked.len() < batch {
                let Some(((a, b, _, id), s)) = table.least_open() else {
                    break;
                };
                let done = match best {
                    Some((k, _)) if layer => a > k.0,
                    Some((k, _)) => (a, b) >= k,
                    None => false,
                };
                if done {
                    break;
                }
                table.shards[s].open.pop();
                let m = table.meta(id);
                if key_of(objective, m.pushes, m.moves, m.h) != (a, b) {
                    stats.stale += 1;
                    continue;
                }
                picked.push(id);
            }
            if picked.is_empty() {
                break;
            }
            stats.expanded += picked.len() as u64;
            // Deal the batch out in slices and expand them; then merge each shard's children, in
            // batch order, a shard per thread.
            let share = picked.len().div_ceil(threads);
            for (k, part) in parts.iter_mut().enumerate() {
                part.nodes.clear();
                part.nodes.extend(picked.iter().skip(k * share).take(share));
            }
            let view = &table;
            let above = self.upper.map(|upper| Above { upper, regions: layer });
            let expand = |part: &mut Part<PushScratch>| {
                expand_part(self.fwd, board, view, (objective, above), phase, part)
            };
            match &self.pool {
                Some(pool) => pool.install(|| parts.par_iter_mut().for_each(expand)),
                None => parts.iter_mut().for_each(expand),
            }
            let view = &*parts;
            let bits = table.bits;
            let merge =
                |(s, shard): (usize, &mut table::Shard)| merge_shard(objective, stride, bits, s, shard, view);
            match &self.pool {
                Some(pool) => pool.install(|| table.shards.par_iter_mut().enumerate().for_each(merge)),
                None => table.shards.iter_mut().enumerate().for_each(merge),
            }
            for part in parts.iter_mut() {
                stats.generated += part.known;
                stats.duplicates += part.known;
                part.known = 0;
            }
            if stop.counts_states() {
                stop.report_inserted(0, before + table.len());
            }
        }
        Ran { table, stats }
    }

    /// Fills in the report's counts: the expanders' pruning and the runs' `totals`.
    fn finish(&self, parts: &[Part<PushScratch>], totals: Totals, report: &mut Report) {
        let mut stats = totals.stats;
        for part in parts {
            let mut counts = self.fwd.prune_counts(&part.scratch);
            counts.push(("off the paths of the fewest pushes", part.outside));
            counts.push(("no shorter than the solution in hand", part.above));
            stats.add(&SideStats { pruned: counts, ..SideStats::default() });
        }
        let (table_bytes, peak_open_bytes) = totals.bytes;
        report.stats = Stats {
            forward: stats,
            backward: SideStats::default(),
            states: totals.states,
            table_bytes,
            peak_open_bytes,
            collisions: 0,
        };
    }
}

/// The key of a position reached with `pushes` and `moves`, whose bound is `h`.
#[inline]
fn key_of(objective: Objective, pushes: u32, moves: u32, h: u32) -> (u32, u32) {
    objective.key(moves + h, pushes + h)
}

/// Expands the positions of one thread's slice into its `made` and `cells`, per shard.
fn expand_part(
    fwd: &Forward<'_>,
    board: &Board,
    table: &Table,
    (objective, above): (Objective, Option<Above>),
    phase: Phase<'_>,
    part: &mut Part<PushScratch>,
) {
    let zobrist = board.zobrist();
    for (made, cells) in part.made.iter_mut().zip(&mut part.cells) {
        made.clear();
        cells.clear();
    }
    for &id in &part.nodes {
        let node_cells = table.cells(id);
        let (player, boxes) = (node_cells[0], &node_cells[1..]);
        let meta = table.meta(id);
        let exact = matches!(phase, Phase::Exact(_));
        if exact {
            part.walks.fill(board, boxes, player);
        }
        let fp = zobrist.fingerprint(boxes, player);
        let base = fp ^ zobrist.player_key(player);
        part.children.clear();
        let node = NodeRef { boxes, player, fp, g: meta.pushes, moved: bisolve_board::NO_CELL };
        fwd.expand(&mut part.scratch, node, &mut part.children);
        for child in &part.children {
            debug_assert!(!child.is_macro && child.steps == 1);
            let from = boxes[child.box_index as usize];
            let pushes = meta.pushes + 1;
            // The child's fingerprint, moves and player square (over regions: the region's
            // first square, and no moves).
            let (fp, moves, at) = match phase {
                Phase::Regions => (child.fp, 0, child.player),
                Phase::Exact(on) => {
                    if on.is_some_and(|on| on.get(&child.fp) != Some(&pushes)) {
                        part.outside += 1;
                        continue;
                    }
                    let Some(walk) = part.walks.to(board.neighbour(from, child.dir.opposite())) else {
                        debug_assert!(false, "a push the player cannot reach");
                        continue;
                    };
                    let fp =
                        base ^ zobrist.box_key(from) ^ zobrist.box_key(child.to) ^ zobrist.player_key(from);
                    (fp, meta.moves + walk + 1, from)
                }
            };
            if above.is_some_and(|a| a.cuts(key_of(objective, pushes, moves, child.h))) {
                part.above += 1;
                continue;
            }
            // Known at least as cheaply before this batch: dropped here, on this thread, so
            // the merge sees only what may be new.
            if let Some(old) = table.known(fp) {
                if objective.key(moves, pushes) >= objective.key(old.moves, old.pushes) {
                    part.known += 1;
                    continue;
                }
            }
            let s = table.shard_of(fp);
            let meta = Meta { parent: id, from, dir: child.dir, pushes, moves, h: child.h };
            part.made[s].push(table::Made { meta, goal: child.goal, fp });
            let cells = &mut part.cells[s];
            cells.push(at);
            cells.extend_from_slice(boxes);
            let at = cells.len() - boxes.len() + child.box_index as usize;
            cells[at] = child.to;
        }
    }
}

/// The solution that ends at position `i`, replayed; with `check`, its lengths must be the
/// key the objective gives (an exact search's), else only its pushes count (the first
/// phase's, whose walks are made afresh).
fn solution_at(
    level: &Level,
    table: &Table,
    i: u32,
    check: Option<(Objective, (u32, u32))>,
) -> Result<Solution, SolveError> {
    let mut pushes = Vec::new();
    let mut at = i;
    while table.meta(at).parent != ROOT {
        let m = table.meta(at);
        pushes.push(Push { from: m.from, dir: m.dir });
        at = m.parent;
    }
    pushes.reverse();
    let (board, start) = (level.board(), level.start());
    let steps = pushes_to_steps(board, start, &pushes).map_err(|e| SolveError::Replay(e.to_string()))?;
    let counts = replay(board, start, &steps).map_err(|e| SolveError::Replay(e.to_string()))?;
    let (moves, pushed) = match check {
        Some((objective, k)) => objective.unkey(k),
        None => (counts.moves as u32, table.meta(i).pushes),
    };
    if (counts.moves, counts.pushes) != (moves as usize, pushed as usize) {
        return Err(SolveError::Replay(format!(
            "the optimal search's path of {moves} moves and {pushed} pushes replays as {} moves and {} pushes",
            counts.moves, counts.pushes
        )));
    }
    let found_by = if pushes.is_empty() { FoundBy::Start } else { FoundBy::Forward };
    Ok(Solution { lurd: steps_to_lurd(&steps), moves: counts.moves, pushes: counts.pushes, found_by })
}
