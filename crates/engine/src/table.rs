//! The visited table: one concurrent map, shared by every worker of both directions, from a
//! state's fingerprint to a 64-bit record (side, moves from the root, the move that led here).
//!
//! Layout: the key is the low 64 bits of the 128-bit fingerprint; the record carries 32 more
//! bits as a check, so identity is 96 bits in 16 bytes per entry. Two different states whose
//! keys collide but whose checks differ go to a small overflow map keyed by the whole
//! fingerprint, so no state is ever lost to a key collision.

use std::collections::HashMap;
use std::hash::BuildHasherDefault;
use std::sync::atomic::{AtomicU64, Ordering};

use bisolve_board::search::{PackedMove, Side};
use bisolve_board::{Fingerprint, PassThrough};
use dashmap::mapref::entry::Entry;
use dashmap::DashMap;
use parking_lot::Mutex;

/// The largest depth a record stores; deeper states keep this value.
pub const MAX_DEPTH: u32 = (1 << 14) - 1;

/// A visited state's record, packed in 64 bits:
/// `check:32 | backward:1 | macro:1 | depth:14 | move:16`.
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
        Record((u64::from(fp.check()) << 32) | (backward << 31) | (is_macro << 30) | (depth << 16) | low)
    }

    /// The 32 check bits of the fingerprint.
    #[inline]
    pub fn check(self) -> u32 {
        (self.0 >> 32) as u32
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

/// What an insert found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Insert {
    /// The state was new.
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
}

impl VisitedTable {
    /// An empty table with `shards` shards (a power of two, at least 2).
    pub fn new(shards: usize) -> VisitedTable {
        let shards = shards.next_power_of_two().max(2);
        VisitedTable {
            map: DashMap::with_capacity_and_hasher_and_shard_amount(0, BuildHasherDefault::default(), shards),
            overflow: Mutex::new(HashMap::new()),
            collisions: AtomicU64::new(0),
        }
    }

    /// Records that `side` reached the state `fp` at `depth` by `mv`, unless it was known.
    #[inline]
    pub fn insert(&self, fp: Fingerprint, side: Side, depth: u32, mv: PackedMove) -> Insert {
        let record = Record::new(fp, side, depth, mv);
        match self.map.entry(fp.key()) {
            Entry::Vacant(e) => {
                e.insert(record.0);
                Insert::New
            }
            Entry::Occupied(mut e) => {
                let old = Record(*e.get());
                if old.check() != fp.check() {
                    drop(e);
                    return self.insert_overflow(fp, record);
                }
                let result = decide(old, record);
                if result == Insert::Improved {
                    e.insert(record.0);
                }
                result
            }
        }
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
                if result == Insert::Improved {
                    overflow.insert(fp.0, record);
                }
                result
            }
        }
    }

    /// The record of a state, if it was visited.
    #[inline]
    pub fn get(&self, fp: Fingerprint) -> Option<Record> {
        let record = Record(*self.map.get(&fp.key())?);
        if record.check() == fp.check() {
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
        assert_eq!((r.check(), r.side(), r.depth(), r.mv()), (fp.check(), Side::Backward, 77, mv));
        let root = Record::new(fp, Side::Forward, 100_000, PackedMove::ROOT);
        assert_eq!((root.side(), root.depth(), root.mv()), (Side::Forward, MAX_DEPTH, PackedMove::ROOT));
        let m = PackedMove::new_macro(4321, Dir::Down);
        let r = Record::new(fp, Side::Forward, MAX_DEPTH, m);
        assert_eq!((r.check(), r.side(), r.depth(), r.mv()), (fp.check(), Side::Forward, MAX_DEPTH, m));
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
