//! The visited table: one concurrent map, shared by every worker of both directions, from a
//! state's fingerprint to a 64-bit record (side, moves from the root, the move that led here).
//!
//! Layout: the key is the low 64 bits of the 128-bit fingerprint; the record carries 29 more
//! bits as a check, so identity is 93 bits in 16 bytes per entry. Two different states whose
//! keys collide but whose checks differ go to a small overflow map keyed by the whole
//! fingerprint, so no state is ever lost to a key collision.
//!
//! Runs: a portfolio's restarts keep the table (see `Portfolio::keep_table`). Each record
//! carries the run that wrote it ([`VisitedTable::next_run`]); a state an earlier run reached
//! on the same side is new to the current run, which takes it over with its own path, while a
//! state an earlier run reached on the other side is a meeting like any other. Paths stay
//! whole: a record is only ever replaced by one of the same side whose path runs through
//! states of the current run, so following moves back from any record reaches a root.

use std::collections::HashMap;
use std::hash::BuildHasherDefault;
use std::sync::atomic::{AtomicU64, Ordering};

use bisolve_board::search::{PackedMove, Side};
use bisolve_board::{Fingerprint, PassThrough};
use crossbeam::utils::CachePadded;
use dashmap::mapref::entry::Entry;
use dashmap::DashMap;
use parking_lot::Mutex;

/// The largest depth a record stores; deeper states keep this value.
pub const MAX_DEPTH: u32 = (1 << 14) - 1;

/// A visited state's record, packed in 64 bits:
/// `check:29 | run:3 | backward:1 | macro:1 | depth:14 | move:16`.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Record(u64);

impl Record {
    /// A record for a state reached on `side`, `depth` moves from its root, by `mv`.
    #[inline]
    pub fn new(fp: Fingerprint, side: Side, depth: u32, mv: PackedMove) -> Record {
        let backward = u64::from(side == Side::Backward);
        let depth = u64::from(depth.min(MAX_DEPTH));
        let is_macro = u64::from(mv.is_macro());
        let low = u64::from(mv.bits() & 0xFFFF);
        Record((u64::from(check_of(fp)) << 35) | (backward << 31) | (is_macro << 30) | (depth << 16) | low)
    }

    /// The record, written by run `run` (below [`RUNS`]).
    #[inline]
    fn in_run(self, run: u8) -> Record {
        Record((self.0 & !(RUN_MASK << 32)) | ((u64::from(run) & RUN_MASK) << 32))
    }

    /// The 29 check bits of the fingerprint.
    #[inline]
    pub fn check(self) -> u32 {
        (self.0 >> 35) as u32
    }

    /// The run that wrote the record (see [`VisitedTable::next_run`]).
    #[inline]
    pub fn run(self) -> u8 {
        ((self.0 >> 32) & RUN_MASK) as u8
    }

    /// The side that reached the state.
    #[inline]
    pub fn side(self) -> Side {
        if self.0 & (1 << 31) != 0 {
            Side::Backward
        } else {
            Side::Forward
        }
    }

    /// Moves from the root of its side (capped at [`MAX_DEPTH`]).
    #[inline]
    pub fn depth(self) -> u32 {
        ((self.0 >> 16) & 0x3FFF) as u32
    }

    /// The move that led to the state, or [`PackedMove::ROOT`].
    #[inline]
    pub fn mv(self) -> PackedMove {
        let is_macro = if self.0 & (1 << 30) != 0 { bisolve_board::search::MACRO_BIT } else { 0 };
        PackedMove::from_bits(u32::from(self.0 as u16) | is_macro)
    }
}

impl std::fmt::Debug for Record {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Record({} depth {} by {:?})", self.side().name(), self.depth(), self.mv())
    }
}

/// How many runs one table can tell apart ([`VisitedTable::next_run`]).
pub const RUNS: u8 = 8;
const RUN_MASK: u64 = RUNS as u64 - 1;

/// The check bits a record keeps of a fingerprint.
#[inline]
fn check_of(fp: Fingerprint) -> u32 {
    fp.check() & ((1 << 29) - 1)
}

/// What an insert found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Insert {
    /// The state was new (to the current run: an earlier run's record of it on the same side
    /// is replaced).
    New,
    /// The state was known on the same side at a greater depth; its record now holds the
    /// shorter path.
    Improved,
    /// The state was known on the same side at the same or a smaller depth.
    Duplicate,
    /// The other side has reached this state: the frontiers meet here.
    Meeting(Record),
}

/// Bytes of one entry in the main map: key, record, and hashbrown's control byte.
const ENTRY_BYTES: usize = 8 + 8 + 1;
/// Rough bytes of one overflow entry (key, record, control byte, load factor).
const OVERFLOW_ENTRY_BYTES: usize = 48;

/// The table of visited states, shared by all workers.
#[derive(Debug)]
pub struct VisitedTable {
    map: DashMap<u64, u64, BuildHasherDefault<PassThrough>>,
    overflow: Mutex<HashMap<u128, Record>>,
    collisions: AtomicU64,
    /// The current run.
    run: u8,
    /// Records of earlier runs the current one took over, counted in stripes by key.
    renewed: [CachePadded<AtomicU64>; STRIPES],
}

const STRIPES: usize = 8;

impl VisitedTable {
    /// An empty table with `shards` shards (a power of two, at least 2).
    pub fn new(shards: usize) -> VisitedTable {
        let shards = shards.next_power_of_two().max(2);
        VisitedTable {
            map: DashMap::with_capacity_and_hasher_and_shard_amount(0, BuildHasherDefault::default(), shards),
            overflow: Mutex::new(HashMap::new()),
            collisions: AtomicU64::new(0),
            run: 0,
            renewed: Default::default(),
        }
    }

    /// Starts the next run: states recorded so far stay, as meetings for the other side and as
    /// paths, but count as unvisited for the side that recorded them. False, and nothing
    /// changes, when the table has told [`RUNS`] runs apart already; a fresh table is needed.
    pub fn next_run(&mut self) -> bool {
        if self.run + 1 >= RUNS {
            return false;
        }
        self.run += 1;
        true
    }

    /// The current run, from 0 (see [`VisitedTable::next_run`]).
    pub fn run(&self) -> u8 {
        self.run
    }

    /// Records of earlier runs taken over by later ones: states visited again, which the
    /// table's length does not count.
    pub fn renewed(&self) -> u64 {
        self.renewed.iter().map(|c| c.load(Ordering::Relaxed)).sum()
    }

    /// Records that `side` reached the state `fp` at `depth` by `mv`, unless it was known.
    #[inline]
    pub fn insert(&self, fp: Fingerprint, side: Side, depth: u32, mv: PackedMove) -> Insert {
        let record = Record::new(fp, side, depth, mv).in_run(self.run);
        match self.map.entry(fp.key()) {
            Entry::Vacant(e) => {
                e.insert(record.0);
                Insert::New
            }
            Entry::Occupied(mut e) => {
                let old = Record(*e.get());
                if old.check() != check_of(fp) {
                    drop(e);
                    return self.insert_overflow(fp, record);
                }
                let result = decide(old, record);
                if result == Insert::Improved || result == Insert::New {
                    e.insert(record.0);
                    if result == Insert::New {
                        self.count_renewed(fp);
                    }
                }
                result
            }
        }
    }

    #[cold]
    fn count_renewed(&self, fp: Fingerprint) {
        self.renewed[(fp.key() >> 61) as usize % STRIPES].fetch_add(1, Ordering::Relaxed);
    }

    #[cold]
    fn insert_overflow(&self, fp: Fingerprint, record: Record) -> Insert {
        self.collisions.fetch_add(1, Ordering::Relaxed);
        let mut overflow = self.overflow.lock();
        match overflow.get(&fp.0) {
            None => {
                overflow.insert(fp.0, record);
                Insert::New
            }
            Some(&old) => {
                let result = decide(old, record);
                if result == Insert::Improved || result == Insert::New {
                    overflow.insert(fp.0, record);
                    if result == Insert::New {
                        self.count_renewed(fp);
                    }
                }
                result
            }
        }
    }

    /// The record of a state, if it was visited.
    #[inline]
    pub fn get(&self, fp: Fingerprint) -> Option<Record> {
        let record = Record(*self.map.get(&fp.key())?);
        if record.check() == check_of(fp) {
            Some(record)
        } else {
            self.overflow.lock().get(&fp.0).copied()
        }
    }

    /// The number of states recorded.
    pub fn len(&self) -> usize {
        self.map.len() + self.overflow.lock().len()
    }

    /// True if no state is recorded.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Key collisions sent to the overflow map so far.
    pub fn collisions(&self) -> u64 {
        self.collisions.load(Ordering::Relaxed)
    }

    /// An estimate of the memory the table holds: allocated buckets, not just live entries.
    pub fn bytes(&self) -> usize {
        // hashbrown keeps at most 7/8 of its buckets full; `capacity` reports that 7/8.
        let buckets = self.map.capacity() * 8 / 7;
        buckets * ENTRY_BYTES + self.overflow.lock().len() * OVERFLOW_ENTRY_BYTES
    }
}

/// The outcome of reaching a known state again.
#[inline]
fn decide(old: Record, new: Record) -> Insert {
    if old.side() != new.side() {
        Insert::Meeting(old)
    } else if old.run() != new.run() {
        Insert::New
    } else if new.depth() < old.depth() {
        Insert::Improved
    } else {
        Insert::Duplicate
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bisolve_board::Dir;

    #[test]
    fn record_round_trips_its_fields() {
        let fp = Fingerprint(0xDEAD_BEEF_0000_0001_0123_4567_89AB_CDEF);
        let mv = PackedMove::new(1234, Dir::Left);
        let r = Record::new(fp, Side::Backward, 77, mv);
        assert_eq!((r.check(), r.side(), r.depth(), r.mv()), (check_of(fp), Side::Backward, 77, mv));
        assert_eq!(
            (r.run(), r.in_run(5).run(), r.in_run(5).check(), r.in_run(5).mv()),
            (0, 5, check_of(fp), mv)
        );
        let root = Record::new(fp, Side::Forward, 100_000, PackedMove::ROOT);
        assert_eq!((root.side(), root.depth(), root.mv()), (Side::Forward, MAX_DEPTH, PackedMove::ROOT));
        let m = PackedMove::new_macro(4321, Dir::Down);
        let r = Record::new(fp, Side::Forward, MAX_DEPTH, m);
        assert_eq!((r.check(), r.side(), r.depth(), r.mv()), (check_of(fp), Side::Forward, MAX_DEPTH, m));
        assert!(r.mv().is_macro() && !mv.is_macro());
        assert_eq!((r.mv().to(), r.mv().dir()), (4321, Dir::Down));
    }

    #[test]
    fn inserts_report_new_improved_duplicate_and_meeting() {
        let t = VisitedTable::new(4);
        let a = Fingerprint(1 | (7 << 64));
        let mv = PackedMove::new(3, Dir::Up);
        assert_eq!(t.insert(a, Side::Forward, 5, mv), Insert::New);
        assert_eq!(t.insert(a, Side::Forward, 6, mv), Insert::Duplicate);
        assert_eq!(t.insert(a, Side::Forward, 4, mv), Insert::Improved);
        assert_eq!(t.get(a).map(Record::depth), Some(4));
        assert!(matches!(t.insert(a, Side::Backward, 1, mv), Insert::Meeting(r) if r.depth() == 4));
        assert_eq!(t.len(), 1);
    }

    #[test]
    fn a_later_run_takes_over_its_own_side_and_meets_the_other() {
        let mut t = VisitedTable::new(4);
        let (a, b) = (Fingerprint(1 | (7 << 64)), Fingerprint(2 | (9 << 64)));
        // A collision too: `c` shares `a`'s key, so the overflow map holds it.
        let c = Fingerprint(1 | (8 << 64));
        let mv = PackedMove::new(3, Dir::Up);
        assert_eq!(t.insert(a, Side::Forward, 5, mv), Insert::New);
        assert_eq!(t.insert(b, Side::Backward, 2, mv), Insert::New);
        assert_eq!(t.insert(c, Side::Forward, 6, mv), Insert::New);
        assert!(t.next_run());
        // Deeper, but the first of this run on the forward side: taken over.
        assert_eq!(t.insert(a, Side::Forward, 9, mv), Insert::New);
        assert_eq!(t.insert(c, Side::Forward, 9, mv), Insert::New);
        assert_eq!(t.get(a).map(|r| (r.depth(), r.run())), Some((9, 1)));
        assert_eq!(t.get(c).map(|r| (r.depth(), r.run())), Some((9, 1)));
        assert_eq!(t.insert(a, Side::Forward, 10, mv), Insert::Duplicate);
        assert_eq!(t.insert(a, Side::Forward, 8, mv), Insert::Improved);
        // The earlier run's backward state is a meeting for this run's forward side.
        assert!(matches!(t.insert(b, Side::Forward, 1, mv), Insert::Meeting(r) if r.run() == 0));
        assert_eq!((t.len(), t.renewed()), (3, 2));
        for _ in 2..RUNS {
            assert!(t.next_run());
        }
        assert!(!t.next_run());
        assert_eq!(t.insert(b, Side::Backward, 4, mv), Insert::New);
        assert_eq!(t.get(b).map(|r| r.run()), Some(RUNS - 1));
    }

    #[test]
    fn key_collisions_keep_both_states() {
        let t = VisitedTable::new(4);
        let a = Fingerprint(42 | (1 << 64));
        let b = Fingerprint(42 | (2 << 64));
        assert_eq!(t.insert(a, Side::Forward, 1, PackedMove::ROOT), Insert::New);
        assert_eq!(t.insert(b, Side::Backward, 2, PackedMove::ROOT), Insert::New);
        assert_eq!(t.get(a).map(Record::side), Some(Side::Forward));
        assert_eq!(t.get(b).map(Record::side), Some(Side::Backward));
        assert_eq!(t.insert(b, Side::Backward, 3, PackedMove::ROOT), Insert::Duplicate);
        assert_eq!(t.collisions(), 2);
        assert_eq!(t.len(), 2);
    }
}
