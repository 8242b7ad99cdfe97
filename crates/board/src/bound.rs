//! Lower bounds on the moves still needed: the sum of each box's distance to its nearest
//! target, or a minimum-cost perfect matching of boxes to targets (Hungarian method).
//!
//! Both directions use these, each with its own [`DistanceTable`]: pushes to goals forward,
//! pulls to start squares backward. The matching is updated incrementally when one box moves:
//! the problem is square (as many boxes as targets), the other rows keep their costs, so
//! freeing the moved box's row, re-pricing that row alone and running one shortest augmenting
//! path gives the exact optimum again (dual feasibility holds for every untouched row).

use crate::board::{Cell, DistanceTable, UNREACHABLE};

/// Which lower bound to compute.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BoundKind {
    /// Minimum-cost perfect matching of boxes to targets. No perfect matching = deadlock.
    Matching,
    /// Each box's distance to its nearest target, summed. Cheap; weaker.
    Nearest,
    /// Always zero (blind search).
    Zero,
}

impl BoundKind {
    /// The name used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            BoundKind::Matching => "matching",
            BoundKind::Nearest => "nearest",
            BoundKind::Zero => "zero",
        }
    }
}

/// The cost of an unreachable box-target pair: larger than any finite total.
const INF: i64 = 1 << 40;

/// The dual solution of a square assignment problem, 1-indexed as in the classic
/// shortest-augmenting-path Hungarian algorithm (column 0 is a virtual column).
#[derive(Clone, Debug, Default)]
struct Duals {
    u: Vec<i64>,
    v: Vec<i64>,
    /// Column -> assigned row (0 = free).
    p: Vec<u32>,
    /// Row -> assigned column.
    col_of: Vec<u32>,
}

/// Working memory for the Hungarian method.
#[derive(Clone, Debug, Default)]
struct Work {
    minv: Vec<i64>,
    way: Vec<u32>,
    used: Vec<bool>,
}

impl Duals {
    fn reset(&mut self, n: usize) {
        for vec in [&mut self.u, &mut self.v] {
            vec.clear();
            vec.resize(n + 1, 0);
        }
        for vec in [&mut self.p, &mut self.col_of] {
            vec.clear();
            vec.resize(n + 1, 0);
        }
    }

    /// Adds row `i` (currently unassigned, exactly one column free) by one shortest
    /// augmenting path. `cost(i, j)` uses 1-based indices.
    fn add_row(
        &mut self,
        i: usize,
        n: usize,
        work: &mut Work,
        cost: &impl Fn(usize, usize) -> i64,
    ) {
        let Work { minv, way, used } = work;
        minv.clear();
        minv.resize(n + 1, i64::MAX);
        way.clear();
        way.resize(n + 1, 0);
        used.clear();
        used.resize(n + 1, false);
        self.p[0] = i as u32;
        let mut j0 = 0usize;
        loop {
            used[j0] = true;
            let i0 = self.p[j0] as usize;
            let mut delta = i64::MAX;
            let mut j1 = 0usize;
            let ui0 = self.u[i0];
            for j in 1..=n {
                if !used[j] {
                    let cur = cost(i0, j) - ui0 - self.v[j];
                    if cur < minv[j] {
                        minv[j] = cur;
                        way[j] = j0 as u32;
                    }
                    if minv[j] < delta {
                        delta = minv[j];
                        j1 = j;
                    }
                }
            }
            for j in 0..=n {
                if used[j] {
                    let r = self.p[j] as usize;
                    self.u[r] += delta;
                    self.v[j] -= delta;
                } else {
                    minv[j] -= delta;
                }
            }
            j0 = j1;
            if self.p[j0] == 0 {
                break;
            }
        }
        loop {
            let j1 = way[j0] as usize;
            self.p[j0] = self.p[j1];
            self.col_of[self.p[j0] as usize] = j0 as u32;
            j0 = j1;
            if j0 == 0 {
                break;
            }
        }
    }

    fn total(&self, n: usize, cost: &impl Fn(usize, usize) -> i64) -> i64 {
        (1..=n).map(|j| cost(self.p[j] as usize, j)).sum()
    }
}

/// A lower bound for one state and its children. [`LowerBound::prepare`] computes the value of
/// a parent; [`LowerBound::after_move`] the value of one child, leaving the parent prepared for
/// the next child.
#[derive(Clone, Debug)]
pub struct LowerBound {
    kind: BoundKind,
    boxes: Vec<Cell>,
    parent: Duals,
    child: Duals,
    work: Work,
    parent_value: u32,
}

impl LowerBound {
    /// A bound of the given kind.
    pub fn new(kind: BoundKind) -> LowerBound {
        LowerBound {
            kind,
            boxes: Vec::new(),
            parent: Duals::default(),
            child: Duals::default(),
            work: Work::default(),
            parent_value: 0,
        }
    }

    /// The kind of bound.
    pub fn kind(&self) -> BoundKind {
        self.kind
    }

    /// Computes the bound for a state with these boxes; `None` when no assignment of boxes to
    /// targets has finite cost (a deadlock).
    pub fn prepare(&mut self, table: &DistanceTable, boxes: &[Cell]) -> Option<u32> {
        self.boxes.clear();
        self.boxes.extend_from_slice(boxes);
        let value = match self.kind {
            BoundKind::Zero => 0,
            BoundKind::Nearest => {
                let mut sum = 0u32;
                for &b in boxes {
                    let d = table.nearest(b);
                    if d == UNREACHABLE {
                        return None;
                    }
                    sum += u32::from(d);
                }
                sum
            }
            BoundKind::Matching => {
                let n = boxes.len();
                self.parent.reset(n);
                let cost = cost_fn(table, &self.boxes);
                for i in 1..=n {
                    self.parent.add_row(i, n, &mut self.work, &cost);
                }
                let total = self.parent.total(n, &cost);
                if total >= INF {
                    return None;
                }
                total as u32
            }
        };
        self.parent_value = value;
        Some(value)
    }

    /// The bound after box number `index` of the prepared state moves to `to`; `None` when the
    /// child has no finite assignment. The prepared parent is left unchanged.
    pub fn after_move(&mut self, table: &DistanceTable, index: usize, to: Cell) -> Option<u32> {
        match self.kind {
            BoundKind::Zero => Some(0),
            BoundKind::Nearest => {
                let d = table.nearest(to);
                if d == UNREACHABLE {
                    return None;
                }
                let from = table.nearest(self.boxes[index]);
                Some(self.parent_value - u32::from(from) + u32::from(d))
            }
            BoundKind::Matching => {
                let n = self.boxes.len();
                let from = self.boxes[index];
                self.boxes[index] = to;
                self.child.clone_from(&self.parent);
                let row = index + 1;
                let col = self.child.col_of[row] as usize;
                self.child.p[col] = 0;
                self.child.u[row] = 0;
                let total = {
                    let cost = cost_fn(table, &self.boxes);
                    self.child.add_row(row, n, &mut self.work, &cost);
                    self.child.total(n, &cost)
                };
                self.boxes[index] = from;
                (total < INF).then_some(total as u32)
            }
        }
    }
}

/// The 1-based cost function of the matching: row `i` is box `i - 1`, column `j` target `j - 1`.
#[inline]
fn cost_fn<'a>(table: &'a DistanceTable, boxes: &'a [Cell]) -> impl Fn(usize, usize) -> i64 + 'a {
    move |i, j| {
        let d = table.get(boxes[i - 1], j - 1);
        if d == UNREACHABLE {
            INF
        } else {
            i64::from(d)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Brute force over all permutations, for small n.
    fn brute(table: &DistanceTable, boxes: &[Cell]) -> Option<u32> {
        fn go(
            i: usize,
            used: &mut Vec<bool>,
            table: &DistanceTable,
            boxes: &[Cell],
            best: &mut Option<u32>,
            acc: u32,
        ) {
            if i == boxes.len() {
                *best = Some(best.map_or(acc, |b| b.min(acc)));
                return;
            }
            for j in 0..used.len() {
                let d = table.get(boxes[i], j);
                if !used[j] && d != UNREACHABLE {
                    used[j] = true;
                    go(i + 1, used, table, boxes, best, acc + u32::from(d));
                    used[j] = false;
                }
            }
        }
        let mut best = None;
        go(
            0,
            &mut vec![false; table.n_targets()],
            table,
            boxes,
            &mut best,
            0,
        );
        best
    }

    fn pseudo_random_table(seed: u64, cells: usize, targets: usize) -> DistanceTable {
        let mut s = seed;
        let data = (0..cells * targets)
            .map(|_| {
                s = s
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let r = (s >> 33) % 23;
                if r == 0 {
                    UNREACHABLE
                } else {
                    r as u16
                }
            })
            .collect();
        DistanceTable::new(targets, data)
    }

    #[test]
    fn matching_equals_brute_force_and_incremental_equals_fresh() {
        for seed in 0..200u64 {
            let n = 1 + (seed as usize % 6);
            let cells = 12;
            let table = pseudo_random_table(seed, cells, n);
            let boxes: Vec<Cell> = (0..n)
                .map(|i| ((seed as usize + 5 * i) % cells) as Cell)
                .collect();
            let mut bound = LowerBound::new(BoundKind::Matching);
            let parent = bound.prepare(&table, &boxes);
            assert_eq!(parent, brute(&table, &boxes), "seed {seed}");
            if parent.is_none() {
                continue;
            }
            for index in 0..n {
                for to in 0..cells as Cell {
                    let incremental = bound.after_move(&table, index, to);
                    let mut moved = boxes.clone();
                    moved[index] = to;
                    assert_eq!(
                        incremental,
                        brute(&table, &moved),
                        "seed {seed} box {index} to {to}"
                    );
                }
            }
        }
    }

    #[test]
    fn nearest_is_at_most_matching() {
        for seed in 0..100u64 {
            let table = pseudo_random_table(seed, 10, 4);
            let boxes = [0, 3, 6, 9];
            let mut m = LowerBound::new(BoundKind::Matching);
            let mut nb = LowerBound::new(BoundKind::Nearest);
            if let (Some(a), Some(b)) = (m.prepare(&table, &boxes), nb.prepare(&table, &boxes)) {
                assert!(b <= a);
                for to in 0..10 {
                    if let (Some(a), Some(b)) =
                        (m.after_move(&table, 1, to), nb.after_move(&table, 1, to))
                    {
                        assert!(b <= a);
                    }
                }
            }
        }
    }
}
