//! The optimal searches' table: positions in shards picked by their fingerprints, each with
//! its cells, what the search knows of it and its open list; and the merge of a batch's children
//! into it.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};
use std::hash::BuildHasherDefault;

use bisolve_board::search::Child;
use bisolve_board::{Cell, Dir, Fingerprint, Objective, PassThrough, Walks};

use super::key_of;
use crate::stats::SideStats;

/// No parent: the start.
pub(super) const ROOT: Id = Id::MAX;

/// What the table keeps of a position besides its cells.
#[derive(Clone, Copy, Debug)]
pub(super) struct Meta {
    /// The position this one was last reached from more cheaply than before ([`ROOT`]: none).
    pub(super) parent: Id,
    /// The pushed box's cell before the push, and the push's direction.
    pub(super) from: Cell,
    pub(super) dir: Dir,
    pub(super) pushes: u32,
    pub(super) moves: u32,
    /// The bound on the pushes still needed.
    pub(super) h: u32,
}

/// A child of an expanded position, as a thread reports it for the merge; its cells follow in
/// the thread's cell list for the same shard.
#[derive(Clone, Copy, Debug)]
pub(super) struct Made {
    pub(super) meta: Meta,
    pub(super) goal: bool,
    pub(super) fp: Fingerprint,
}

/// A position's number: `local << bits | shard`, for `2^bits` shards.
pub(super) type Id = u32;

/// The open list's entry: the key (first, second), then the bound (deeper positions first),
/// then the position's number.
pub(super) type Entry = Reverse<(u32, u32, u32, Id)>;

/// One thread's working memory for expanding.
pub(super) struct Part<S> {
    pub(super) scratch: S,
    pub(super) walks: Walks,
    pub(super) children: Vec<Child>,
    /// The positions of the batch this thread expands.
    pub(super) nodes: Vec<Id>,
    /// The children that may be new, per shard, and their cells (a stride each).
    pub(super) made: Vec<Vec<Made>>,
    pub(super) cells: Vec<Vec<Cell>>,
    /// Children already in the table at least as cheaply, left out of `made`.
    pub(super) known: u64,
    /// Children left out because no path of the fewest pushes goes through them.
    pub(super) outside: u64,
    /// Children left out because no solution through them is shorter than the one in hand.
    pub(super) above: u64,
}

/// One shard of the table: the positions whose fingerprints pick it, with their cells (player
/// first, then the boxes, box `i` the same box along a path), what the search knows of each,
/// the map from fingerprints to them, and their open list. The merge runs a shard per thread.
pub(super) struct Shard {
    pub(super) cells: Vec<Cell>,
    pub(super) meta: Vec<Meta>,
    pub(super) index: HashMap<Fingerprint, u32, BuildHasherDefault<PassThrough>>,
    pub(super) open: BinaryHeap<Entry>,
    /// The best goal this shard holds: its key and its number.
    pub(super) best: Option<((u32, u32), Id)>,
    pub(super) stats: SideStats,
}

impl Shard {
    pub(super) fn bytes(&self) -> usize {
        self.cells.capacity() * size_of::<Cell>()
            + self.meta.capacity() * size_of::<Meta>()
            + self.index.capacity() * (size_of::<Fingerprint>() + size_of::<u32>() + 1)
            + self.open.capacity() * size_of::<Entry>()
    }
}

/// The shards, and how to find a position in them.
pub(super) struct Table {
    pub(super) stride: usize,
    /// `2^bits` shards.
    pub(super) bits: u32,
    pub(super) shards: Vec<Shard>,
}

impl Table {
    /// A table of at least `shards` shards (the next power of two).
    pub(super) fn new(stride: usize, shards: usize) -> Table {
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
    pub(super) fn shard_of(&self, fp: Fingerprint) -> usize {
        ((fp.0 >> 64) as usize) & (self.shards.len() - 1)
    }

    pub(super) fn split(&self, id: Id) -> (usize, usize) {
        (id as usize & (self.shards.len() - 1), (id >> self.bits) as usize)
    }

    /// The number of position `local` of shard `s`.
    pub(super) fn id(&self, s: usize, local: usize) -> Id {
        ((local << self.bits) | s) as Id
    }

    pub(super) fn meta(&self, id: Id) -> Meta {
        let (s, local) = self.split(id);
        self.shards[s].meta[local]
    }

    pub(super) fn cells(&self, id: Id) -> &[Cell] {
        let (s, local) = self.split(id);
        &self.shards[s].cells[local * self.stride..(local + 1) * self.stride]
    }

    /// The cost so far of the position `fp`, when the table has it.
    pub(super) fn known(&self, fp: Fingerprint) -> Option<Meta> {
        let shard = &self.shards[self.shard_of(fp)];
        shard.index.get(&fp).map(|&local| shard.meta[local as usize])
    }

    pub(super) fn len(&self) -> usize {
        self.shards.iter().map(|s| s.meta.len()).sum()
    }

    pub(super) fn bytes(&self) -> usize {
        self.shards.iter().map(Shard::bytes).sum()
    }

    /// The least key open in any shard (a stale entry's key is larger than its position's,
    /// whose fresh entry is open too), with its shard.
    pub(super) fn least_open(&self) -> Option<((u32, u32, u32, Id), usize)> {
        self.shards.iter().enumerate().filter_map(|(s, sh)| sh.open.peek().map(|e| (e.0, s))).min()
    }

    /// The best goal of any shard.
    pub(super) fn best(&self) -> Option<((u32, u32), Id)> {
        self.shards.iter().filter_map(|s| s.best).min()
    }
}

/// The most positions a shard of `2^bits` may number: ids are `u32`.
pub(super) fn shard_capacity(bits: u32) -> usize {
    (u32::MAX >> bits) as usize
}

impl Table {
    /// The number of the position `fp`, when the table has it.
    pub(super) fn id_of(&self, fp: Fingerprint) -> Option<Id> {
        let s = self.shard_of(fp);
        self.shards[s].index.get(&fp).map(|&local| self.id(s, local as usize))
    }

    /// The numbers of the positions with every box on a goal reached with `pushes` pushes.
    pub(super) fn goals(&self, board: &bisolve_board::Board, pushes: u32) -> Vec<Id> {
        let mut goals = Vec::new();
        for (s, shard) in self.shards.iter().enumerate() {
            for (local, meta) in shard.meta.iter().enumerate() {
                let cells = &shard.cells[local * self.stride + 1..(local + 1) * self.stride];
                if meta.pushes == pushes && cells.iter().all(|&c| board.is_goal(c)) {
                    goals.push(self.id(s, local));
                }
            }
        }
        goals
    }
}

/// Merges the children every thread made for shard `s`, thread by thread in batch order.
pub(super) fn merge_shard<S>(
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
