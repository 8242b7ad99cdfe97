//! The open list: a two-level bucket queue of packed nodes. No decrease-key: a state reached
//! again by a shorter path is pushed again and the stale copy is skipped when popped.
//!
//! Nodes come as `u16` words (`[player, depth, box cells...]`) and are stored inline as bytes,
//! a cell in one byte on boards of at most 256 cells ([`OpenList::packing_cells`]), so the
//! queue holds no pointers and a pop reads one small slice. The open lists are a search's
//! largest memory (more than its table): a node of XSokoban 30 (18 boxes) takes 21 bytes
//! instead of 40.
//!
//! Buckets are indexed by the primary key (for example `g + h`) and inside by the secondary
//! key (`h`); both are popped smallest first, and within one bucket the newest node first.
//!
//! In cycling mode (the feature-space search) the primary key names a feature cell instead
//! of a priority. Every `k`-th pop takes the best node of the next non-empty cell after the
//! one such a pop took last, round and round, so every cell of the feature space gets its
//! turn; the other pops take the node with the smallest secondary key over all cells, or with
//! [`OpenList::cell_modes`] the best node of the first non-empty cell, where a cell seen for
//! the first time may also take the next turn (Festival's choices, off by default).

/// Nodes per chunk of a [`Stack`].
const CHUNK_NODES: usize = 512;

/// The nodes of one pair of keys, newest on top. The top chunk grows by doubling up to
/// [`CHUNK_NODES`] nodes; past that, full chunks wait below it. So a growing stack never
/// copies more than one chunk and never holds twice the memory it needs, and a shrinking one
/// gives whole chunks back. A search's open lists grow to as much memory as its table: with
/// plain vectors, growing them (copies, and the kernel clearing the fresh pages) was 5.7% of a
/// two-thread profile of Sasquatch 40, and peak memory was 18% higher.
#[derive(Debug, Default)]
struct Stack {
    /// The top chunk: empty only when the whole stack is.
    top: Vec<u8>,
    /// Full chunks, the oldest first.
    below: Vec<Vec<u8>>,
}

impl Stack {
    #[inline]
    fn is_empty(&self) -> bool {
        self.top.is_empty()
    }

    /// Adds a stored node; returns the bytes it allocated.
    #[inline]
    fn push(&mut self, node: &[u8]) -> usize {
        let size = node.len();
        let mut grown = 0;
        if self.top.len() + size > self.top.capacity() {
            let chunk = size * CHUNK_NODES;
            if self.top.capacity() >= chunk {
                let below = self.below.capacity();
                self.below.push(std::mem::replace(&mut self.top, Vec::with_capacity(chunk)));
                grown = (self.below.capacity() - below) * VEC_BYTES + self.top.capacity();
            } else {
                let top = self.top.capacity();
                let want = (top * 2).max(4 * size).min(chunk);
                self.top.reserve_exact(want - self.top.len());
                grown = self.top.capacity() - top;
            }
        }
        self.top.extend_from_slice(node);
        grown
    }

    /// Unpacks the newest node into `out` and removes it; returns the bytes it gave back (the
    /// top chunk's, once it empties onto a full one).
    #[inline]
    fn pop(&mut self, packing: &Packing, out: &mut Vec<u16>) -> usize {
        let at = self.top.len() - packing.bytes;
        packing.unpack(&self.top[at..], out);
        self.top.truncate(at);
        match self.top.is_empty().then(|| self.below.pop()).flatten() {
            Some(full) => std::mem::replace(&mut self.top, full).capacity(),
            None => 0,
        }
    }

    /// Bytes allocated, counted the slow way.
    fn walked_bytes(&self) -> usize {
        let held = self.top.capacity() + self.below.iter().map(Vec::capacity).sum::<usize>();
        held + self.below.capacity() * VEC_BYTES
    }
}

const VEC_BYTES: usize = std::mem::size_of::<Vec<u8>>();

/// The index of the depth in a node; every other word is a cell.
const DEPTH_WORD: usize = 1;

/// How nodes of `stride` `u16` words are stored as bytes: narrow (on boards of at most 256
/// cells, every level of the shared collections but three of Microban II), the depth in two
/// bytes and every cell in one; wide, every word in two bytes.
#[derive(Debug, Clone, Copy)]
struct Packing {
    stride: usize,
    narrow: bool,
    /// Bytes per stored node.
    bytes: usize,
}

impl Packing {
    fn new(stride: usize, narrow: bool) -> Packing {
        // A node too short to hold a depth is stored wide.
        let narrow = narrow && stride > DEPTH_WORD;
        Packing { stride, narrow, bytes: if narrow { stride + 1 } else { 2 * stride } }
    }

    /// Stores `node` in `out` (`bytes` bytes).
    #[inline]
    fn pack(&self, node: &[u16], out: &mut [u8]) {
        debug_assert_eq!(node.len(), self.stride);
        if !self.narrow {
            for (o, &w) in out.chunks_exact_mut(2).zip(node) {
                o.copy_from_slice(&w.to_le_bytes());
            }
            return;
        }
        // `[depth (2 bytes), player, boxes...]`: the cells in one run, which the compiler
        // narrows a vector at a time.
        let (head, cells) = out.split_at_mut(3);
        head[..2].copy_from_slice(&node[DEPTH_WORD].to_le_bytes());
        head[2] = node[0] as u8;
        let mut spill = node[0];
        for (o, &c) in cells.iter_mut().zip(&node[DEPTH_WORD + 1..]) {
            *o = c as u8;
            spill |= c;
        }
        // Cells index the board's tables everywhere, so one past 255 on a narrow board is a
        // bug upstream; it would lose its high bits here.
        assert!(spill >> 8 == 0, "open list: a cell does not fit in a byte: {node:?}");
    }

    /// Reads one stored node's `bytes` bytes into `out`.
    #[inline]
    fn unpack(&self, bytes: &[u8], out: &mut Vec<u16>) {
        out.clear();
        if !self.narrow {
            out.extend(bytes.chunks_exact(2).map(|b| u16::from_le_bytes([b[0], b[1]])));
            return;
        }
        out.resize(self.stride, 0);
        out[0] = u16::from(bytes[2]);
        out[DEPTH_WORD] = u16::from_le_bytes([bytes[0], bytes[1]]);
        for (o, &c) in out[DEPTH_WORD + 1..].iter_mut().zip(&bytes[3..]) {
            *o = u16::from(c);
        }
    }
}

/// A bucket of one primary key: stacks of nodes by secondary key.
#[derive(Debug, Default)]
struct Bucket {
    subs: Vec<Stack>,
    /// No non-empty stack below this secondary key.
    min_sub: usize,
    /// Nodes in this bucket.
    count: usize,
}

/// The open list of one worker.
#[derive(Debug)]
pub struct OpenList {
    packing: Packing,
    /// One node stored, on its way in.
    packed: Vec<u8>,
    buckets: Vec<Bucket>,
    /// One bit per primary key: set when its bucket holds a node. The feature cells leave
    /// most buckets empty, and the pops that look for the best node over all buckets visit
    /// only the set bits.
    occupied: Vec<u64>,
    /// No non-empty bucket below this primary key.
    min_primary: usize,
    len: usize,
    /// Cycling mode: pop from the primary buckets in turn, starting at `cursor`.
    cycle: bool,
    cursor: usize,
    /// In cycling mode, every `cycle_every`-th pop takes the next bucket in turn; the others
    /// take the best node over all buckets.
    cycle_every: u32,
    pops: u32,
    /// In cycling mode, the pops not in turn take the best node of the first non-empty cell
    /// (the best cell) instead of the best node over all cells.
    best_cell: bool,
    /// In cycling mode, a cell that gets its first node ever takes the next turn.
    new_first: bool,
    /// Bytes allocated for nodes and buckets, kept as stacks grow and give chunks back: the
    /// memory checks ask every few milliseconds, and walking every stack of a
    /// feature-cell list (hundreds of cells times hundreds of bounds) took 2% of a search.
    bytes: usize,
}

/// The largest key the queue accepts; larger keys are clamped (they only lose ordering).
const MAX_KEY: usize = 1 << 20;

impl OpenList {
    /// An empty list of nodes of `stride` words, every word kept whole (two bytes); see
    /// [`OpenList::packing_cells`].
    pub fn new(stride: usize) -> OpenList {
        let packing = Packing::new(stride, false);
        OpenList {
            packing,
            packed: vec![0; packing.bytes],
            buckets: Vec::new(),
            occupied: Vec::new(),
            min_primary: 0,
            len: 0,
            cycle: false,
            cursor: 0,
            cycle_every: 1,
            pops: 0,
            best_cell: false,
            new_first: false,
            bytes: 0,
        }
    }

    /// An empty list that pops the primary buckets in turn every `cycle_every`-th pop (1:
    /// always) and the best node over all buckets otherwise (see the module docs).
    pub fn cycling(stride: usize, cycle_every: u32) -> OpenList {
        OpenList { cycle: true, cycle_every: cycle_every.max(1), ..OpenList::new(stride) }
    }

    /// The same empty list in cycling mode with Festival's choices: `best_cell`, the pops not
    /// in turn take the best node of the first non-empty cell; `new_first`, a cell seen for
    /// the first time takes the next turn.
    pub fn cell_modes(self, best_cell: bool, new_first: bool) -> OpenList {
        debug_assert!(self.is_empty());
        OpenList { best_cell, new_first, ..self }
    }

    /// The same empty list for nodes whose cells (every word but the depth) are below
    /// `n_cells`: with at most 256, each is stored in one byte.
    pub fn packing_cells(self, n_cells: usize) -> OpenList {
        debug_assert!(self.is_empty());
        let packing = Packing::new(self.packing.stride, n_cells <= 256);
        OpenList { packing, packed: vec![0; packing.bytes], ..self }
    }

    /// Words per node.
    #[inline]
    pub fn stride(&self) -> usize {
        self.packing.stride
    }

    /// Nodes waiting.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// True if no node waits.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Adds a node (`stride` words) with its keys.
    #[inline]
    pub fn push(&mut self, primary: usize, secondary: usize, node: &[u16]) {
        debug_assert_eq!(node.len(), self.packing.stride);
        let (primary, secondary) = (primary.min(MAX_KEY), secondary.min(MAX_KEY));
        if primary >= self.buckets.len() {
            let before = self.buckets.capacity();
            self.buckets.resize_with(primary + 1, Bucket::default);
            self.bytes += (self.buckets.capacity() - before) * std::mem::size_of::<Bucket>();
            self.occupied.resize(self.buckets.len().div_ceil(64), 0);
        }
        let bucket = &mut self.buckets[primary];
        if self.new_first && bucket.subs.is_empty() {
            self.cursor = primary;
            self.pops = self.cycle_every - 1;
        }
        if secondary >= bucket.subs.len() {
            let before = bucket.subs.capacity();
            bucket.subs.resize_with(secondary + 1, Stack::default);
            self.bytes += (bucket.subs.capacity() - before) * std::mem::size_of::<Stack>();
        }
        self.packing.pack(node, &mut self.packed);
        self.bytes += bucket.subs[secondary].push(&self.packed);
        if bucket.count == 0 || secondary < bucket.min_sub {
            bucket.min_sub = secondary;
        }
        bucket.count += 1;
        self.occupied[primary / 64] |= 1 << (primary % 64);
        if self.len == 0 || primary < self.min_primary {
            self.min_primary = primary;
        }
        self.len += 1;
    }

    /// Removes the best node into `out` and returns its (primary, secondary) keys.
    #[inline]
    pub fn pop(&mut self, out: &mut Vec<u16>) -> Option<(usize, usize)> {
        if self.len == 0 {
            return None;
        }
        self.settle_min_primary();
        let primary = if !self.cycle {
            self.min_primary
        } else {
            self.pops += 1;
            if self.pops == self.cycle_every {
                self.pops = 0;
                self.next_in_turn()
            } else if self.best_cell {
                self.min_primary
            } else {
                self.best_bucket()
            }
        };
        let bucket = &mut self.buckets[primary];
        while bucket.subs[bucket.min_sub].is_empty() {
            bucket.min_sub += 1;
        }
        let secondary = bucket.min_sub;
        self.bytes -= bucket.subs[secondary].pop(&self.packing, out);
        bucket.count -= 1;
        if bucket.count == 0 {
            self.occupied[primary / 64] &= !(1 << (primary % 64));
        }
        self.len -= 1;
        Some((primary, secondary))
    }

    /// The first non-empty bucket at or after the cursor, wrapping round; moves the cursor
    /// past it. The list is not empty.
    fn next_in_turn(&mut self) -> usize {
        let p = self
            .next_occupied(self.cursor)
            .or_else(|| self.next_occupied(self.min_primary))
            .expect("a non-empty list has an occupied bucket");
        self.cursor = p + 1;
        p
    }

    /// Moves `min_primary` up to the first bucket that holds a node. The list is not empty.
    #[inline]
    fn settle_min_primary(&mut self) {
        self.min_primary =
            self.next_occupied(self.min_primary).expect("a non-empty list has an occupied bucket");
    }

    /// The first primary key at or after `from` whose bucket holds a node (`None` past the
    /// last).
    fn next_occupied(&self, from: usize) -> Option<usize> {
        let mut w = from / 64;
        let mut bits = *self.occupied.get(w)? & (!0u64 << (from % 64));
        loop {
            if bits != 0 {
                return Some(w * 64 + bits.trailing_zeros() as usize);
            }
            w += 1;
            bits = *self.occupied.get(w)?;
        }
    }

    /// The non-empty bucket whose best node has the smallest secondary key (the first such
    /// bucket on ties). The list is not empty.
    fn best_bucket(&mut self) -> usize {
        let mut best = (usize::MAX, self.min_primary);
        let first = self.min_primary / 64;
        for (w, &word) in self.occupied.iter().enumerate().skip(first) {
            // Bits below `min_primary` are clear already.
            let mut bits = word;
            while bits != 0 {
                let p = w * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let bucket = &mut self.buckets[p];
                while bucket.subs[bucket.min_sub].is_empty() {
                    bucket.min_sub += 1;
                }
                if bucket.min_sub < best.0 {
                    best = (bucket.min_sub, p);
                }
            }
        }
        best.1
    }

    /// The smallest primary key waiting.
    pub fn min_key(&mut self) -> Option<usize> {
        if self.len == 0 {
            return None;
        }
        self.settle_min_primary();
        Some(self.min_primary)
    }

    /// Bytes allocated for nodes and buckets.
    #[inline]
    pub fn bytes(&self) -> usize {
        debug_assert_eq!(self.bytes, self.walked_bytes());
        self.bytes
    }

    /// [`OpenList::bytes`] counted by walking every bucket and stack.
    fn walked_bytes(&self) -> usize {
        let mut bytes = self.buckets.capacity() * std::mem::size_of::<Bucket>();
        for b in &self.buckets {
            bytes += b.subs.capacity() * std::mem::size_of::<Stack>();
            bytes += b.subs.iter().map(Stack::walked_bytes).sum::<usize>();
        }
        bytes
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::worker::HEADER;

    #[test]
    fn pops_by_primary_then_secondary_then_newest() {
        let mut q = OpenList::new(2);
        q.push(5, 1, &[1, 1]);
        q.push(3, 2, &[2, 2]);
        q.push(3, 0, &[3, 3]);
        q.push(3, 0, &[4, 4]);
        q.push(9, 0, &[5, 5]);
        let mut out = Vec::new();
        let mut seen = Vec::new();
        while let Some((k, _)) = q.pop(&mut out) {
            seen.push((k, out[0]));
        }
        assert_eq!(seen, vec![(3, 4), (3, 3), (3, 2), (5, 1), (9, 5)]);
        assert!(q.is_empty());
    }

    #[test]
    fn a_lower_key_pushed_after_pops_comes_first() {
        let mut q = OpenList::new(1);
        q.push(4, 0, &[4]);
        q.push(6, 0, &[6]);
        let mut out = Vec::new();
        assert_eq!(q.pop(&mut out), Some((4, 0)));
        q.push(2, 3, &[2]);
        q.push(2, 1, &[1]);
        assert_eq!(q.min_key(), Some(2));
        assert_eq!(q.pop(&mut out), Some((2, 1)));
        assert_eq!(out, vec![1]);
        assert_eq!(q.pop(&mut out), Some((2, 3)));
        assert_eq!(q.pop(&mut out), Some((6, 0)));
        assert_eq!(q.pop(&mut out), None);
    }

    #[test]
    fn cycling_takes_each_primary_bucket_in_turn() {
        let mut q = OpenList::cycling(1, 1);
        for (p, s, v) in [(2, 0, 20), (2, 1, 21), (2, 0, 22), (5, 0, 50), (9, 3, 90), (9, 1, 91)] {
            q.push(p, s, &[v]);
        }
        let mut out = Vec::new();
        let mut seen = Vec::new();
        while q.pop(&mut out).is_some() {
            seen.push(out[0]);
        }
        // Round one: the best of buckets 2, 5, 9; round two: 2 and 9; round three: 2.
        assert_eq!(seen, vec![22, 50, 91, 20, 90, 21]);
    }

    #[test]
    fn cycling_wraps_to_a_bucket_filled_behind_the_cursor() {
        let mut q = OpenList::cycling(1, 1);
        q.push(4, 0, &[4]);
        q.push(7, 0, &[7]);
        let mut out = Vec::new();
        assert_eq!(q.pop(&mut out), Some((4, 0)));
        q.push(1, 0, &[1]);
        assert_eq!(q.pop(&mut out), Some((7, 0)));
        assert_eq!(q.pop(&mut out), Some((1, 0)));
        q.push(3, 2, &[3]);
        assert_eq!(q.pop(&mut out), Some((3, 2)));
        assert!(q.is_empty());
    }

    #[test]
    fn cycling_every_third_pop_takes_a_turn_the_others_the_best() {
        let mut q = OpenList::cycling(1, 3);
        for (p, s, v) in [(1, 5, 15), (1, 6, 16), (2, 1, 21), (2, 2, 22), (3, 9, 39), (4, 0, 40)] {
            q.push(p, s, &[v]);
        }
        let mut out = Vec::new();
        let mut seen = Vec::new();
        while q.pop(&mut out).is_some() {
            seen.push(out[0]);
        }
        // Best (40), best (21), turn (bucket 1: 15), best (22), best (16), turn (bucket 3: 39).
        assert_eq!(seen, vec![40, 21, 15, 22, 16, 39]);
    }

    /// The queue's order, written the slow way: every node in one list, scanned in full.
    struct Model {
        nodes: Vec<(usize, usize, u64, u16)>,
        seq: u64,
        every: Option<u32>,
        pops: u32,
        cursor: usize,
        best_cell: bool,
        new_first: bool,
        seen: std::collections::HashSet<usize>,
    }

    impl Model {
        fn push(&mut self, p: usize, s: usize, v: u16) {
            if self.new_first && self.seen.insert(p) {
                self.cursor = p;
                self.pops = self.every.expect("cycling") - 1;
            }
            self.seq += 1;
            self.nodes.push((p, s, self.seq, v));
        }

        /// The best node of bucket `p` (smallest secondary key, newest first), or of all
        /// buckets.
        fn best_in(&self, p: Option<usize>) -> usize {
            let keys = |&(q, s, seq, _): &(usize, usize, u64, u16)| (s, q, u64::MAX - seq);
            let candidates = self.nodes.iter().enumerate().filter(|(_, n)| p.is_none_or(|p| n.0 == p));
            candidates.min_by_key(|(_, n)| keys(n)).map(|(i, _)| i).expect("a node")
        }

        fn pop(&mut self) -> Option<(usize, usize, u16)> {
            if self.nodes.is_empty() {
                return None;
            }
            let i = match self.every {
                None => {
                    let p = self.nodes.iter().map(|n| n.0).min().expect("a node");
                    self.best_in(Some(p))
                }
                Some(k) => {
                    self.pops += 1;
                    if self.pops == k {
                        self.pops = 0;
                        let after = self.nodes.iter().map(|n| n.0).filter(|&p| p >= self.cursor).min();
                        let p = after.or_else(|| self.nodes.iter().map(|n| n.0).min()).expect("a node");
                        self.cursor = p + 1;
                        self.best_in(Some(p))
                    } else if self.best_cell {
                        let p = self.nodes.iter().map(|n| n.0).min().expect("a node");
                        self.best_in(Some(p))
                    } else {
                        self.best_in(None)
                    }
                }
            };
            let (p, s, _, v) = self.nodes.remove(i);
            Some((p, s, v))
        }
    }

    #[test]
    fn pops_match_a_full_scan_of_every_node() {
        // Keys over several 64-bucket words, most buckets empty at any time, as with feature
        // cells; both modes; pushes and pops interleaved at random.
        let modes = [(None, false, false), (Some(1), false, false), (Some(3), false, false)];
        let festival =
            [(Some(2), true, false), (Some(2), false, true), (Some(2), true, true), (Some(1), true, true)];
        for (every, best_cell, new_first) in modes.into_iter().chain(festival) {
            let mut open = match every {
                None => OpenList::new(1),
                Some(k) => OpenList::cycling(1, k).cell_modes(best_cell, new_first),
            };
            let mut model = Model {
                nodes: Vec::new(),
                seq: 0,
                every,
                pops: 0,
                cursor: 0,
                best_cell,
                new_first,
                seen: Default::default(),
            };
            let mut seed = 11u64;
            let mut out = Vec::new();
            for i in 0..4_000u16 {
                seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                if (seed >> 60) < 9 {
                    let (p, s) = ((seed >> 20) as usize % 300, (seed >> 40) as usize % 7);
                    let p = if (seed >> 50) % 4 == 0 { p } else { p % 40 + 130 };
                    open.push(p, s, &[i]);
                    model.push(p, s, i);
                } else {
                    let got = open.pop(&mut out).map(|(p, s)| (p, s, out[0]));
                    assert_eq!(got, model.pop(), "pop {i}, mode {every:?} {best_cell} {new_first}");
                }
            }
            loop {
                let got = open.pop(&mut out).map(|(p, s)| (p, s, out[0]));
                assert_eq!(got, model.pop(), "draining, mode {every:?} {best_cell} {new_first}");
                if got.is_none() {
                    break;
                }
            }
        }
    }

    #[test]
    fn the_kept_byte_count_is_what_the_buckets_hold() {
        // Pushes and pops with scattered keys, in both modes: the count kept as stacks grow
        // matches a walk over every bucket and stack, and scattered pops free nothing (no
        // stack here fills a chunk).
        for mut open in [OpenList::new(3), OpenList::cycling(3, 3)] {
            assert_eq!(open.bytes(), 0);
            let mut out = Vec::new();
            let mut seed = 7u64;
            let mut largest = 0;
            for i in 0..5_000u16 {
                seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                let (p, q) = ((seed >> 40) as usize % 97, (seed >> 20) as usize % 301);
                open.push(p, q, &[i, 0, i]);
                if i % 3 == 0 {
                    open.pop(&mut out);
                }
                assert_eq!(open.bytes, open.walked_bytes(), "after {i} pushes");
                assert!(open.bytes >= largest, "small stacks keep their memory");
                largest = open.bytes;
            }
            while open.pop(&mut out).is_some() {}
            assert_eq!(open.bytes(), largest);
        }
    }

    proptest::proptest! {
        /// Any node whose cells fit comes back as it went in, narrow or wide, whatever its
        /// length.
        #[test]
        fn stored_nodes_come_back_unchanged(
            narrow in proptest::prelude::any::<bool>(),
            raw in proptest::collection::vec(proptest::prelude::any::<u16>(), 1..40),
        ) {
            let packing = Packing::new(raw.len(), narrow);
            let node: Vec<u16> = raw
                .iter()
                .enumerate()
                .map(|(i, &v)| if narrow && i != DEPTH_WORD { v & 0xFF } else { v })
                .collect();
            let narrow = narrow && node.len() > DEPTH_WORD;
            proptest::prop_assert_eq!(packing.bytes, if narrow { node.len() + 1 } else { 2 * node.len() });
            let mut bytes = vec![0; packing.bytes];
            packing.pack(&node, &mut bytes);
            let mut out = Vec::new();
            packing.unpack(&bytes, &mut out);
            proptest::prop_assert_eq!(out, node);
        }
    }

    #[test]
    fn a_narrow_list_pops_what_a_wide_one_does() {
        // Nodes of a 256-cell board with 22 boxes (25 bytes a node against 48), pushed and
        // popped at random in both lists.
        let stride = HEADER + 22;
        let mut wide = OpenList::cycling(stride, 3);
        let mut narrow = OpenList::cycling(stride, 3).packing_cells(256);
        assert_eq!((narrow.packing.bytes, wide.packing.bytes), (25, 48));
        let (mut a, mut b) = (Vec::new(), Vec::new());
        let mut seed = 3u64;
        let mut next = || {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            seed >> 33
        };
        for _ in 0..3_000 {
            if next() % 3 != 0 {
                let node: Vec<u16> = (0..stride)
                    .map(|i| if i == DEPTH_WORD { next() as u16 } else { (next() % 256) as u16 })
                    .collect();
                let (p, q) = (next() as usize % 50, next() as usize % 20);
                wide.push(p, q, &node);
                narrow.push(p, q, &node);
            } else {
                assert_eq!(wide.pop(&mut a), narrow.pop(&mut b));
                assert_eq!(a, b);
            }
        }
        assert!(narrow.bytes() < wide.bytes(), "{} against {}", narrow.bytes(), wide.bytes());
        while wide.pop(&mut a).is_some() {
            assert!(narrow.pop(&mut b).is_some());
            assert_eq!(a, b);
        }
        assert!(narrow.is_empty());
        // A board of 257 cells needs two bytes a cell.
        assert_eq!(OpenList::new(stride).packing_cells(257).packing.bytes, 48);
    }

    #[test]
    #[should_panic(expected = "does not fit")]
    fn a_cell_past_the_board_is_refused() {
        let mut open = OpenList::new(3).packing_cells(256);
        open.push(0, 0, &[5, 9, 256]);
    }

    #[test]
    fn a_stack_of_many_chunks_pops_newest_first_and_gives_chunks_back() {
        // One pair of keys far past a chunk, with pops interleaved at random (crossing chunk
        // edges both ways), against a plain vector; then drained.
        let stride = 3;
        let mut open = OpenList::new(stride);
        let mut model: Vec<u16> = Vec::new();
        let mut out = Vec::new();
        let mut seed = 5u64;
        let mut peak = 0;
        for i in 0..20 * CHUNK_NODES as u16 {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            if (seed >> 60) < 10 {
                open.push(4, 2, &[i, i ^ 1, i.wrapping_mul(3)]);
                model.push(i);
            } else {
                let got = open.pop(&mut out).map(|_| out.clone());
                assert_eq!(got, model.pop().map(|i| vec![i, i ^ 1, i.wrapping_mul(3)]), "pop {i}");
            }
            assert_eq!(open.bytes, open.walked_bytes(), "after step {i}");
            peak = peak.max(open.bytes);
        }
        let most = model.len();
        assert!(most > 4 * CHUNK_NODES, "the test spans chunks: {most} nodes");
        // Never more than the nodes held, a chunk more and the bookkeeping.
        assert!(peak <= (most + 2 * CHUNK_NODES) * stride * 2 + 4096, "peak {peak} bytes for {most} nodes");
        while let Some(i) = model.pop() {
            assert_eq!(open.pop(&mut out), Some((4, 2)));
            assert_eq!(out, vec![i, i ^ 1, i.wrapping_mul(3)]);
        }
        assert!(open.is_empty());
        assert_eq!(open.bytes, open.walked_bytes());
        assert!(open.bytes() <= CHUNK_NODES * stride * 2 + 4096, "drained: {} bytes", open.bytes());
    }
}
