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
//! On several threads the positions of least key are taken in batches and expanded at once,
//! each thread a slice of the batch with its own expander scratch. The table is in shards
//! picked by the fingerprint, and each shard merges its children on a thread of its own, in
//! batch order, so a run is deterministic for a given thread count. A batch
//! may hold positions of larger keys than the least, so a position can be reached again more
//! cheaply after its expansion: it is then queued again (reopened), and a goal is proven only
//! once every open key reaches its key. One thread takes one position at a time: plain A*.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};
use std::hash::BuildHasherDefault;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use bisolve_board::moves::{pushes_to_steps, replay, steps_to_lurd, Push};
use bisolve_board::search::{Child, Expander, NodeRef};
use bisolve_board::{Board, Cell, Dir, Fingerprint, Level, Objective, PassThrough, Walks};
use bisolve_push::{Forward, PushConfig};
use rayon::prelude::*;

use crate::limits::{Limits, Stop};
use crate::report::{FoundBy, Optimality, Outcome, Report, Solution, SolveError};
use crate::stats::{SideStats, Stats};

/// What an optimal search runs with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OptimalConfig {
    /// What counts first.
    pub objective: Objective,
    /// Threads.
    pub threads: usize,
    /// The forward tests (made safe by [`OptimalConfig::forward`]).
    pub push: PushConfig,
}

impl OptimalConfig {
    /// An optimal search for `objective` on `threads` threads with the forward tests of `push`
    /// that keep optimality.
    pub fn new(objective: Objective, threads: usize, push: PushConfig) -> OptimalConfig {
        OptimalConfig { objective, threads: threads.max(1), push: OptimalConfig::forward(push) }
    }

    /// The switches of `push` an optimal search can use: the deadlock tests and the bound as
    /// they are; no macros, box moves, tunnel rule or PI-corrals (they choose one order of the
    /// pushes, which may cost moves), and no feature cells (A* does not read them).
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
        push.features = false;
        push.packing = false;
        push.room_links = false;
        push.hotspots = false;
        push
    }

    /// The name reports give it: `optimal-pushes` or `optimal-moves`.
    pub fn name(&self) -> String {
        format!("optimal-{}", self.objective)
    }
}

/// Positions expanded per thread in one batch on several threads.
const BATCH_PER_THREAD: usize = 256;
/// No parent: the start.
const ROOT: Id = Id::MAX;

/// What the table keeps of a position besides its cells.
#[derive(Clone, Copy, Debug)]
struct Meta {
    /// The position this one was last reached from more cheaply than before ([`ROOT`]: none).
    parent: Id,
    /// The pushed box's cell before the push, and the push's direction.
    from: Cell,
    dir: Dir,
    pushes: u32,
    moves: u32,
    /// The bound on the pushes still needed.
    h: u32,
}

/// A child of an expanded position, as a thread reports it for the merge; its cells follow in
/// the thread's cell list for the same shard.
#[derive(Clone, Copy, Debug)]
struct Made {
    meta: Meta,
    goal: bool,
    fp: Fingerprint,
}

/// A position's number: `local << bits | shard`, for `2^bits` shards.
type Id = u32;

/// The open list's entry: the key (first, second), then the bound (deeper positions first),
/// then the position's number.
type Entry = Reverse<(u32, u32, u32, Id)>;

/// One thread's working memory for expanding.
struct Part<S> {
    scratch: S,
    walks: Walks,
    children: Vec<Child>,
    /// The positions of the batch this thread expands.
    nodes: Vec<Id>,
    /// The children that may be new, per shard, and their cells (a stride each).
    made: Vec<Vec<Made>>,
    cells: Vec<Vec<Cell>>,
    /// Children already in the table at least as cheaply, left out of `made`.
    known: u64,
}

/// One shard of the table: the positions whose fingerprints pick it, with their cells (player
/// first, then the boxes, box `i` the same box along a path), what the search knows of each,
/// the map from fingerprints to them, and their open list. The merge runs a shard per thread.
struct Shard {
    cells: Vec<Cell>,
    meta: Vec<Meta>,
    index: HashMap<Fingerprint, u32, BuildHasherDefault<PassThrough>>,
    open: BinaryHeap<Entry>,
    /// The best goal this shard holds: its key and its number.
    best: Option<((u32, u32), Id)>,
    stats: SideStats,
}

impl Shard {
    fn bytes(&self) -> usize {
        self.cells.capacity() * size_of::<Cell>()
            + self.meta.capacity() * size_of::<Meta>()
            + self.index.capacity() * (size_of::<Fingerprint>() + size_of::<u32>() + 1)
            + self.open.capacity() * size_of::<Entry>()
    }
}

/// The shards, and how to find a position in them.
struct Table {
    stride: usize,
    /// `2^bits` shards.
    bits: u32,
    shards: Vec<Shard>,
}

impl Table {
    /// A table of at least `shards` shards (the next power of two).
    fn new(stride: usize, shards: usize) -> Table {
        let bits = shards.max(1).next_power_of_two().trailing_zeros();
        let shards = (0..1usize << bits)
            .map(|_| Shard {
                cells: Vec::new(),
                meta: Vec::new(),
                index: HashMap::default(),
                open: BinaryHeap::new(),
                best: None,
                stats: SideStats::default(),
            })
            .collect();
        Table { stride, bits, shards }
    }

    /// The shard a fingerprint picks (by its high bits: the maps hash the low ones).
    fn shard_of(&self, fp: Fingerprint) -> usize {
        ((fp.0 >> 64) as usize) & (self.shards.len() - 1)
    }

    fn split(&self, id: Id) -> (usize, usize) {
        (id as usize & (self.shards.len() - 1), (id >> self.bits) as usize)
    }

    /// The number of position `local` of shard `s`.
    fn id(&self, s: usize, local: usize) -> Id {
        ((local << self.bits) | s) as Id
    }

    fn meta(&self, id: Id) -> Meta {
        let (s, local) = self.split(id);
        self.shards[s].meta[local]
    }

    fn cells(&self, id: Id) -> &[Cell] {
        let (s, local) = self.split(id);
        &self.shards[s].cells[local * self.stride..(local + 1) * self.stride]
    }

    /// The cost so far of the position `fp`, when the table has it.
    fn known(&self, fp: Fingerprint) -> Option<Meta> {
        let shard = &self.shards[self.shard_of(fp)];
        shard.index.get(&fp).map(|&local| shard.meta[local as usize])
    }

    fn len(&self) -> usize {
        self.shards.iter().map(|s| s.meta.len()).sum()
    }

    fn bytes(&self) -> usize {
        self.shards.iter().map(Shard::bytes).sum()
    }

    /// The least key open in any shard (a stale entry's key is larger than its position's,
    /// whose fresh entry is open too), with its shard.
    fn least_open(&self) -> Option<((u32, u32, u32, Id), usize)> {
        self.shards.iter().enumerate().filter_map(|(s, sh)| sh.open.peek().map(|e| (e.0, s))).min()
    }

    /// The best goal of any shard.
    fn best(&self) -> Option<((u32, u32), Id)> {
        self.shards.iter().filter_map(|s| s.best).min()
    }
}

/// The most positions a shard of `2^bits` may number: ids are `u32`.
fn shard_capacity(bits: u32) -> usize {
    (u32::MAX >> bits) as usize
}

/// Solves `level` optimally for `config.objective`, within `limits`.
pub fn solve_optimal(
    level: &Level,
    config: &OptimalConfig,
    limits: &Limits,
    cancel: &AtomicBool,
) -> Result<Report, SolveError> {
    let started = Instant::now();
    let (board, start) = (level.board(), level.start());
    let objective = config.objective;
    let threads = config.threads.max(1);
    let fwd = Forward::new(board, start, config.push);
    let stop = Stop::new(*limits, cancel, 1);
    let stride = 1 + start.boxes.len();
    let mut table = Table::new(stride, threads);
    let shards = table.shards.len();
    let mut parts: Vec<Part<_>> = (0..threads)
        .map(|_| Part {
            scratch: fwd.new_scratch(),
            walks: Walks::new(board.n_cells()),
            children: Vec::new(),
            nodes: Vec::new(),
            made: vec![Vec::new(); shards],
            cells: vec![Vec::new(); shards],
            known: 0,
        })
        .collect();
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
    let mut stats = SideStats::default();

    let roots = fwd.roots(&mut parts[0].scratch);
    let dead = roots.is_empty();
    if let Some(root) = roots.first() {
        let fp = board.zobrist().fingerprint(&start.boxes, start.player);
        let s = table.shard_of(fp);
        let id = table.id(s, 0);
        let shard = &mut table.shards[s];
        shard.cells.push(start.player);
        shard.cells.extend_from_slice(&start.boxes);
        shard.meta.push(Meta { parent: ROOT, from: 0, dir: Dir::Up, pushes: 0, moves: 0, h: root.h });
        shard.index.insert(fp, 0);
        if start.is_solved(board) {
            shard.best = Some(((0, 0), id));
        } else {
            let (a, b) = key_of(objective, 0, 0, root.h);
            shard.open.push(Reverse((a, b, root.h, id)));
        }
    }

    let batch = if threads > 1 { BATCH_PER_THREAD * threads } else { 1 };
    let mut picked: Vec<Id> = Vec::with_capacity(batch);
    let mut rounds: u64 = 0;
    loop {
        // Limits: between batches (every 64th position on one thread).
        rounds += 1;
        if batch > 1 || rounds % 64 == 0 {
            stop.check_time();
            stop.check_memory(table.bytes(), || table.len());
            let closest = table.shards.iter().filter_map(|s| s.stats.closest_h).min();
            stop.report_closest(bisolve_board::search::Side::Forward, closest);
            if table.shards.iter().any(|s| s.meta.len() >= shard_capacity(table.bits)) {
                stop.cut(crate::limits::Cutoff::Memory);
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
            if best.is_some_and(|(k, _)| (a, b) >= k) {
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
        let expand = |part: &mut Part<_>| expand_part(&fwd, board, view, objective, part);
        match &pool {
            Some(pool) => pool.install(|| parts.par_iter_mut().for_each(expand)),
            None => parts.iter_mut().for_each(expand),
        }
        let view = &parts;
        let bits = table.bits;
        let merge = |(s, shard): (usize, &mut Shard)| merge_shard(objective, stride, bits, s, shard, view);
        match &pool {
            Some(pool) => pool.install(|| table.shards.par_iter_mut().enumerate().for_each(merge)),
            None => table.shards.iter_mut().enumerate().for_each(merge),
        }
        for part in &mut parts {
            stats.generated += part.known;
            stats.duplicates += part.known;
            part.known = 0;
        }
        if stop.counts_states() {
            stop.report_inserted(0, table.len());
        }
    }

    for part in &parts {
        let counts = fwd.prune_counts(&part.scratch);
        stats.add(&SideStats { pruned: counts, ..SideStats::default() });
    }
    for shard in &table.shards {
        stats.add(&shard.stats);
    }
    let cutoff = stop.cutoff();
    let open_min = table.least_open().map(|((a, b, ..), _)| (a, b));
    let (outcome, optimality) = match table.best() {
        Some((k, id)) => {
            let solution = solution_at(level, &table, id, objective, k)?;
            let proven = cutoff.is_none() || open_min.is_none_or(|m| m >= k);
            let lower_bound = if proven { k.0 } else { open_min.map_or(k.0, |m| m.0.min(k.0)) };
            (Outcome::Solved(solution), Some(Optimality { objective, proven, lower_bound }))
        }
        None => match cutoff {
            Some(c) => {
                let lower_bound = open_min.map_or(0, |m| m.0);
                (Outcome::Cutoff(c), Some(Optimality { objective, proven: false, lower_bound }))
            }
            None => (Outcome::Unsolvable, None),
        },
    };
    let open_bytes = table.shards.iter().map(|s| s.open.capacity() * size_of::<Entry>()).sum();
    Ok(Report {
        outcome,
        stats: Stats {
            forward: stats,
            backward: SideStats::default(),
            states: table.len(),
            table_bytes: table.bytes() - open_bytes,
            peak_open_bytes: open_bytes,
            collisions: 0,
        },
        elapsed: started.elapsed(),
        threads,
        strategy: config.name(),
        note: dead.then(|| "the start position is dead".to_string()),
        optimality,
    })
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
    objective: Objective,
    part: &mut Part<<Forward<'_> as Expander>::Scratch>,
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
        part.walks.fill(board, boxes, player);
        let fp = zobrist.fingerprint(boxes, player);
        let base = fp ^ zobrist.player_key(player);
        part.children.clear();
        let node = NodeRef { boxes, player, fp, g: meta.pushes, moved: bisolve_board::NO_CELL };
        fwd.expand(&mut part.scratch, node, &mut part.children);
        for child in &part.children {
            debug_assert!(!child.is_macro && child.steps == 1);
            let from = boxes[child.box_index as usize];
            let Some(walk) = part.walks.to(board.neighbour(from, child.dir.opposite())) else {
                debug_assert!(false, "a push the player cannot reach");
                continue;
            };
            let (pushes, moves) = (meta.pushes + 1, meta.moves + walk + 1);
            let fp = base ^ zobrist.box_key(from) ^ zobrist.box_key(child.to) ^ zobrist.player_key(from);
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
            part.made[s].push(Made { meta, goal: child.goal, fp });
            let cells = &mut part.cells[s];
            cells.push(from);
            cells.extend_from_slice(boxes);
            let at = cells.len() - boxes.len() + child.box_index as usize;
            cells[at] = child.to;
        }
    }
}

/// Merges the children every thread made for shard `s`, thread by thread in batch order.
fn merge_shard<S>(
    objective: Objective,
    stride: usize,
    bits: u32,
    s: usize,
    shard: &mut Shard,
    parts: &[Part<S>],
) {
    for part in parts {
        for (j, made) in part.made[s].iter().enumerate() {
            let (stats, meta) = (&mut shard.stats, made.meta);
            stats.generated += 1;
            stats.closest_h = Some(stats.closest_h.map_or(meta.h, |c| c.min(meta.h)));
            let g = objective.key(meta.moves, meta.pushes);
            let local = match shard.index.get(&made.fp) {
                Some(&local) => {
                    let old = shard.meta[local as usize];
                    if g >= objective.key(old.moves, old.pushes) {
                        stats.duplicates += 1;
                        continue;
                    }
                    stats.improved += 1;
                    shard.meta[local as usize] = meta;
                    local
                }
                None => {
                    let local = shard.meta.len() as u32;
                    shard.cells.extend_from_slice(&part.cells[s][j * stride..(j + 1) * stride]);
                    shard.meta.push(meta);
                    shard.index.insert(made.fp, local);
                    stats.inserted += 1;
                    local
                }
            };
            let id = (local << bits) | s as u32;
            if made.goal {
                if shard.best.is_none_or(|(k, _)| g < k) {
                    shard.best = Some((g, id));
                }
            } else {
                let (a, b) = key_of(objective, meta.pushes, meta.moves, meta.h);
                shard.open.push(Reverse((a, b, meta.h, id)));
            }
        }
    }
}

/// The solution that ends at position `i`, replayed; its lengths must be the key `k` says.
fn solution_at(
    level: &Level,
    table: &Table,
    i: u32,
    objective: Objective,
    k: (u32, u32),
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
    let (moves, pushed) = objective.unkey(k);
    if (counts.moves, counts.pushes) != (moves as usize, pushed as usize) {
        return Err(SolveError::Replay(format!(
            "the optimal search's path of {moves} moves and {pushed} pushes replays as {} moves and {} pushes",
            counts.moves, counts.pushes
        )));
    }
    let found_by = if pushes.is_empty() { FoundBy::Start } else { FoundBy::Forward };
    Ok(Solution { lurd: steps_to_lurd(&steps), moves: counts.moves, pushes: counts.pushes, found_by })
}
