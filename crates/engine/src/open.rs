//! The open list: a two-level bucket queue of packed nodes. No decrease-key: a state reached
//! again by a shorter path is pushed again and the stale copy is skipped when popped.
//!
//! Nodes are stored inline as `u16` words (`[player, depth, box cells...]`), so the queue holds
//! no pointers and a pop copies one small slice. Buckets are indexed by the primary key (for
//! example `g + h`) and inside by the secondary key (`h`); both are popped smallest first, and
//! within one bucket the newest node first.
//!
//! In cycling mode (the feature-space search) the primary key names a feature cell instead
//! of a priority. Every `k`-th pop takes the best node of the next non-empty cell after the
//! one such a pop took last, round and round, so every cell of the feature space gets its
//! turn; the other pops take the node with the smallest secondary key over all cells.

/// A bucket of one primary key: stacks of nodes by secondary key.
#[derive(Debug, Default)]
struct Bucket {
    subs: Vec<Vec<u16>>,
    /// No non-empty stack below this secondary key.
    min_sub: usize,
    /// Nodes in this bucket.
    count: usize,
}

/// The open list of one worker.
#[derive(Debug)]
pub struct OpenList {
    stride: usize,
    buckets: Vec<Bucket>,
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
    /// Bytes allocated for nodes and buckets, kept as capacities grow (they never shrink):
    /// the memory checks ask every few milliseconds, and walking every stack of a
    /// feature-cell list (hundreds of cells times hundreds of bounds) took 2% of a search.
    bytes: usize,
}

/// The largest key the queue accepts; larger keys are clamped (they only lose ordering).
const MAX_KEY: usize = 1 << 20;

impl OpenList {
    /// An empty list of nodes of `stride` words.
    pub fn new(stride: usize) -> OpenList {
        OpenList {
            stride,
            buckets: Vec::new(),
            min_primary: 0,
            len: 0,
            cycle: false,
            cursor: 0,
            cycle_every: 1,
            pops: 0,
            bytes: 0,
        }
    }

    /// An empty list that pops the primary buckets in turn every `cycle_every`-th pop (1:
    /// always) and the best node over all buckets otherwise (see the module docs).
    pub fn cycling(stride: usize, cycle_every: u32) -> OpenList {
        OpenList { cycle: true, cycle_every: cycle_every.max(1), ..OpenList::new(stride) }
    }

    /// Words per node.
    #[inline]
    pub fn stride(&self) -> usize {
        self.stride
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
        debug_assert_eq!(node.len(), self.stride);
        let (primary, secondary) = (primary.min(MAX_KEY), secondary.min(MAX_KEY));
        if primary >= self.buckets.len() {
            let before = self.buckets.capacity();
            self.buckets.resize_with(primary + 1, Bucket::default);
            self.bytes += (self.buckets.capacity() - before) * std::mem::size_of::<Bucket>();
        }
        let bucket = &mut self.buckets[primary];
        if secondary >= bucket.subs.len() {
            let before = bucket.subs.capacity();
            bucket.subs.resize_with(secondary + 1, Vec::new);
            self.bytes += (bucket.subs.capacity() - before) * std::mem::size_of::<Vec<u16>>();
        }
        let stack = &mut bucket.subs[secondary];
        let before = stack.capacity();
        stack.extend_from_slice(node);
        self.bytes += (stack.capacity() - before) * std::mem::size_of::<u16>();
        if bucket.count == 0 || secondary < bucket.min_sub {
            bucket.min_sub = secondary;
        }
        bucket.count += 1;
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
        while self.buckets[self.min_primary].count == 0 {
            self.min_primary += 1;
        }
        let primary = if !self.cycle {
            self.min_primary
        } else {
            self.pops += 1;
            if self.pops == self.cycle_every {
                self.pops = 0;
                self.next_in_turn()
            } else {
                self.best_bucket()
            }
        };
        let bucket = &mut self.buckets[primary];
        while bucket.subs[bucket.min_sub].is_empty() {
            bucket.min_sub += 1;
        }
        let secondary = bucket.min_sub;
        let stack = &mut bucket.subs[secondary];
        let at = stack.len() - self.stride;
        out.clear();
        out.extend_from_slice(&stack[at..]);
        stack.truncate(at);
        bucket.count -= 1;
        self.len -= 1;
        Some((primary, secondary))
    }

    /// The first non-empty bucket at or after the cursor, wrapping round; moves the cursor
    /// past it. The list is not empty.
    fn next_in_turn(&mut self) -> usize {
        let n = self.buckets.len();
        let mut p = if self.cursor >= n { self.min_primary } else { self.cursor };
        while self.buckets[p].count == 0 {
            p += 1;
            if p == n {
                p = self.min_primary;
            }
        }
        self.cursor = p + 1;
        p
    }

    /// The non-empty bucket whose best node has the smallest secondary key (the first such
    /// bucket on ties). The list is not empty.
    fn best_bucket(&mut self) -> usize {
        let mut best = (usize::MAX, self.min_primary);
        for p in self.min_primary..self.buckets.len() {
            let bucket = &mut self.buckets[p];
            if bucket.count == 0 {
                continue;
            }
            while bucket.subs[bucket.min_sub].is_empty() {
                bucket.min_sub += 1;
            }
            if bucket.min_sub < best.0 {
                best = (bucket.min_sub, p);
            }
        }
        best.1
    }

    /// The smallest primary key waiting.
    pub fn min_key(&mut self) -> Option<usize> {
        if self.len == 0 {
            return None;
        }
        while self.buckets[self.min_primary].count == 0 {
            self.min_primary += 1;
        }
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
            bytes += b.subs.capacity() * std::mem::size_of::<Vec<u16>>();
            bytes += b.subs.iter().map(|s| s.capacity() * 2).sum::<usize>();
        }
        bytes
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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

    #[test]
    fn the_kept_byte_count_is_what_the_buckets_hold() {
        // Pushes and pops with scattered keys, in both modes: the count kept as capacities
        // grow matches a walk over every bucket and stack, and pops free nothing.
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
                assert!(open.bytes >= largest, "capacities never shrink");
                largest = open.bytes;
            }
            while open.pop(&mut out).is_some() {}
            assert_eq!(open.bytes(), largest);
        }
    }
}
