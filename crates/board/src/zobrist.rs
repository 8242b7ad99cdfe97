//! 128-bit Zobrist fingerprints of canonical states, and the hasher for tables keyed by them.

use std::fmt;
use std::hash::Hasher;

use crate::cell::Cell;

/// A 128-bit Zobrist hash of a canonical state (box set + normalized player position).
///
/// Equal states have equal fingerprints; different states collide with probability about
/// 2^-128 per pair. Solutions are always replayed, so a collision can cost a search its
/// answer but can never produce a wrong one.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Fingerprint(pub u128);

impl Fingerprint {
    /// The low 64 bits: the key in hash tables.
    #[inline]
    pub fn key(self) -> u64 {
        self.0 as u64
    }

    /// 32 more bits, for tables that store a 64-bit key and check these on top.
    #[inline]
    pub fn check(self) -> u32 {
        (self.0 >> 64) as u32
    }
}

impl fmt::Debug for Fingerprint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Fingerprint({:032x})", self.0)
    }
}

impl std::ops::BitXor for Fingerprint {
    type Output = Fingerprint;
    #[inline]
    fn bitxor(self, rhs: Fingerprint) -> Fingerprint {
        Fingerprint(self.0 ^ rhs.0)
    }
}

impl std::ops::BitXorAssign for Fingerprint {
    #[inline]
    fn bitxor_assign(&mut self, rhs: Fingerprint) {
        self.0 ^= rhs.0;
    }
}

/// A hasher that passes a key through: fingerprints and their low 64 bits are already
/// uniformly random, so hash maps keyed by them need no mixing.
#[derive(Clone, Copy, Default, Debug)]
pub struct PassThrough(u64);

impl Hasher for PassThrough {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        // Not used for integer keys; fold anything else so the hasher stays total.
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }

    #[inline]
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }

    #[inline]
    fn write_u128(&mut self, n: u128) {
        self.0 = n as u64;
    }

    #[inline]
    fn finish(&self) -> u64 {
        self.0
    }
}

/// Random keys for every cell: one for a box there, one for the (normalized) player there.
/// Generated from a fixed seed, so fingerprints are the same in every run.
#[derive(Debug, Clone)]
pub struct Zobrist {
    boxes: Vec<u128>,
    player: Vec<u128>,
}

/// SplitMix64: a small, well-mixed generator, enough for Zobrist keys.
pub fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl Zobrist {
    pub(crate) fn new(n_cells: usize) -> Zobrist {
        let mut seed = 0x5EED_B150_17E5_0001;
        let mut key = || (u128::from(splitmix64(&mut seed)) << 64) | u128::from(splitmix64(&mut seed));
        let boxes = (0..n_cells).map(|_| key()).collect();
        let player = (0..n_cells).map(|_| key()).collect();
        Zobrist { boxes, player }
    }

    /// The cells it has keys for: the board's.
    #[inline]
    pub fn n_cells(&self) -> usize {
        self.boxes.len()
    }

    /// The key of a box on `cell`.
    #[inline]
    pub fn box_key(&self, cell: Cell) -> Fingerprint {
        Fingerprint(self.boxes[cell as usize])
    }

    /// The key of the normalized player on `cell`.
    #[inline]
    pub fn player_key(&self, cell: Cell) -> Fingerprint {
        Fingerprint(self.player[cell as usize])
    }

    /// The fingerprint of a child: `base` is the node's without its player's key, the box on
    /// `from` has moved to `to`, and the normalized player is on `player`.
    #[inline]
    pub fn after_move(&self, base: Fingerprint, from: Cell, to: Cell, player: Cell) -> Fingerprint {
        base ^ self.box_key(from) ^ self.box_key(to) ^ self.player_key(player)
    }

    /// The fingerprint of a box set with the normalized player on `player`.
    #[inline]
    pub fn fingerprint(&self, boxes: &[Cell], normalized_player: Cell) -> Fingerprint {
        let mut fp = self.player_key(normalized_player);
        for &b in boxes {
            fp ^= self.box_key(b);
        }
        fp
    }
}
