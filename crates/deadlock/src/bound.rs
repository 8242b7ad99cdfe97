//! Lower bounds on the moves still needed: the sum of each box's distance to its nearest
//! target, or a minimum-cost perfect matching of boxes to targets (Hungarian method).
//!
//! Both directions use these, each with its own [`DistanceTable`]: pushes to goals forward,
//! pulls to start squares backward. The matching is updated incrementally when one box moves:
//! the problem is square (as many boxes as targets), the other rows keep their costs, so
//! freeing the moved box's row, re-pricing that row alone and running one shortest augmenting
//! path gives the exact optimum again (dual feasibility holds for every untouched row). A
//! child's value needs only that path's length (the parent's solution is not even copied),
//! and the path search takes a free column as soon as it ties for nearest: distances are small
//! integers, so ties are common, and that alone made states 12-30% faster on hard levels. A
//! few solved matchings are remembered, and a parent is prepared from the nearest of them
//! (a few rows re-augmented); one far from all of them keeps the column potentials of the
//! least recently used and re-derives the rest.

use bisolve_board::{Cell, DistanceTable, UNREACHABLE};

/// Which lower bound to compute.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
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

    /// The kind [`BoundKind::name`] names, if any.
    pub fn from_name(name: &str) -> Option<BoundKind> {
        [BoundKind::Matching, BoundKind::Nearest, BoundKind::Zero].into_iter().find(|k| k.name() == name)
    }
}

/// The cost of an unreachable box-target pair: larger than any finite total.
const INF: i64 = 1 << 40;

/// "Unassigned" in the assignment arrays.
const NONE: u32 = u32::MAX;

/// A square assignment problem's current solution: the assignment and dual potentials with
/// `cost(i, j) - u[i] - v[j] >= 0` everywhere and `== 0` on assigned pairs.
#[derive(Clone, Debug, Default)]
struct Duals {
    u: Vec<i64>,
    v: Vec<i64>,
    /// Row (box) -> assigned column (target), or `NONE`.
    col_of: Vec<u32>,
    /// Column -> assigned row, or `NONE`.
    row_of: Vec<u32>,
}

/// Working memory of one augmentation (Dijkstra over columns).
#[derive(Clone, Debug, Default)]
struct Work {
    dist: Vec<i64>,
    pred: Vec<u32>,
    done: Vec<bool>,
    scanned: Vec<u32>,
}

impl Duals {
    fn reset(&mut self, n: usize) {
        self.u.clear();
        self.u.resize(n, 0);
        self.v.clear();
        self.v.resize(n, 0);
        self.col_of.clear();
        self.col_of.resize(n, NONE);
        self.row_of.clear();
        self.row_of.resize(n, NONE);
    }

    /// Drops the assignment but keeps the column potentials `v`: each row's potential becomes
    /// its smallest cost less `v` (so no reduced cost is negative), and a row whose best column
    /// is still free takes it (a tight pair). Rows left free need [`Duals::augment`].
    fn restart_from_columns(&mut self, n: usize, costs: &[i64]) {
        self.col_of.fill(NONE);
        self.row_of.fill(NONE);
        for i in 0..n {
            let (mut best, mut best_r) = (0, i64::MAX);
            for (j, (&c, &vj)) in costs[i * n..(i + 1) * n].iter().zip(&self.v).enumerate() {
                if c - vj < best_r {
                    (best, best_r) = (j, c - vj);
                }
            }
            self.u[i] = best_r;
            if self.row_of[best] == NONE {
                self.row_of[best] = i as u32;
                self.col_of[i] = best as u32;
            }
        }
    }

    /// Assigns the free row `f` by one shortest augmenting path in reduced costs (the
    /// Jonker-Volgenant augmentation step), then restores the dual invariants. Needs exactly
    /// as many free columns as free rows. `costs` is `n x n`, row-major.
    fn augment(&mut self, f: usize, n: usize, costs: &[i64], work: &mut Work) {
        let Work { dist, pred, done, scanned } = work;
        dist.clear();
        dist.resize(n, 0);
        pred.clear();
        pred.resize(n, f as u32);
        done.clear();
        done.resize(n, false);
        scanned.clear();
        // Distinct slices: the compiler keeps their addresses in registers (through `self`
        // it reloads them after every store).
        let Duals { u, v, col_of, row_of } = self;
        let (u, v, col_of, row_of) = (&mut u[..n], &mut v[..n], &mut col_of[..n], &mut row_of[..n]);
        let uf = u[f];
        let (mut best, mut best_d) = (0usize, i64::MAX);
        let (dist, pred, done) = (&mut dist[..n], &mut pred[..n], &mut done[..n]);
        for (j, ((&c, &vj), dj)) in
            costs[f * n..(f + 1) * n].iter().zip(v.iter()).zip(dist.iter_mut()).enumerate()
        {
            let d = c - uf - vj;
            *dj = d;
            if d < best_d || (d == best_d && row_of[j] == NONE) {
                (best, best_d) = (j, d);
            }
        }
        let end = loop {
            done[best] = true;
            let i1 = row_of[best];
            if i1 == NONE {
                break best;
            }
            scanned.push(best as u32);
            let i1 = i1 as usize;
            let base = best_d - u[i1];
            let row = &costs[i1 * n..(i1 + 1) * n];
            let (mut next, mut next_d) = (usize::MAX, i64::MAX);
            for (j, ((((&c, &vj), d), p), &fin)) in row
                .iter()
                .zip(v.iter())
                .zip(dist.iter_mut())
                .zip(pred.iter_mut())
                .zip(done.iter())
                .enumerate()
            {
                if fin {
                    continue;
                }
                let alt = base + c - vj;
                if alt < *d {
                    *d = alt;
                    *p = i1 as u32;
                }
                if *d < next_d || (*d == next_d && row_of[j] == NONE) {
                    (next, next_d) = (j, *d);
                }
            }
            // A free column always remains unscanned, so `next` is found.
            (best, best_d) = (next, next_d);
        };
        let delta = dist[end];
        u[f] += delta;
        for &j in scanned.iter() {
            let j = j as usize;
            let t = delta - dist[j];
            u[row_of[j] as usize] += t;
            v[j] -= t;
        }
        let mut j = end;
        loop {
            let i = pred[j] as usize;
            row_of[j] = i as u32;
            let previous = col_of[i];
            col_of[i] = j as u32;
            if i == f {
                break;
            }
            j = previous as usize;
        }
    }

    /// The length, in reduced costs, of a shortest path from a new row whose reduced costs to
    /// the columns `first` yields to the free column `target`, through the assigned rows (a
    /// Dijkstra over columns that stops at `target`). Every column but `target` must be
    /// assigned, to rows whose reduced costs are all non-negative.
    fn path_to(
        &self,
        first: impl Iterator<Item = i64>,
        target: usize,
        n: usize,
        costs: &[i64],
        work: &mut Work,
    ) -> i64 {
        let Work { dist, done, .. } = work;
        dist.clear();
        dist.resize(n, 0);
        done.clear();
        done.resize(n, false);
        let (u, v, row_of) = (&self.u[..n], &self.v[..n], &self.row_of[..n]);
        let (dist, done) = (&mut dist[..n], &mut done[..n]);
        let (mut best, mut best_d) = (0usize, i64::MAX);
        for (j, (d, dj)) in first.zip(dist.iter_mut()).enumerate() {
            *dj = d;
            if d < best_d || (d == best_d && j == target) {
                (best, best_d) = (j, d);
            }
        }
        while best != target {
            done[best] = true;
            let i1 = row_of[best] as usize;
            let base = best_d - u[i1];
            let row = &costs[i1 * n..(i1 + 1) * n];
            let (mut next, mut next_d) = (usize::MAX, i64::MAX);
            for (j, (((&c, &vj), d), &fin)) in
                row.iter().zip(v).zip(dist.iter_mut()).zip(done.iter()).enumerate()
            {
                if fin {
                    continue;
                }
                let alt = base + c - vj;
                if alt < *d {
                    *d = alt;
                }
                if *d < next_d || (*d == next_d && j == target) {
                    (next, next_d) = (j, *d);
                }
            }
            // `target` is never done before it is the best, so `next` is found.
            (best, best_d) = (next, next_d);
        }
        best_d
    }

    fn total(&self, n: usize, costs: &[i64]) -> i64 {
        self.col_of.iter().enumerate().map(|(i, &j)| costs[i * n + j as usize]).sum()
    }
}

/// How many solved matchings a [`LowerBound`] remembers. The feature-space ordering takes
/// every third node from another feature cell, far from the last one in the search tree:
/// with one remembered matching, a quarter of the states prepared on XSokoban 30 differed
/// from it in more than half their boxes and were solved nearly from scratch. With several,
/// the one nearest to each new state is updated, and most states are a few rows from one.
const SLOTS: usize = 8;

/// One remembered matching: the boxes it was solved for, their costs and the solution.
#[derive(Clone, Debug, Default)]
struct Slot {
    boxes: Vec<Cell>,
    /// `n x n` costs: box `i` to target `j`.
    costs: Vec<i64>,
    duals: Duals,
    /// `duals` holds an optimal solution for `boxes` (false until the first matching, and
    /// after an infeasible one).
    valid: bool,
    /// The address of the table `costs` came from: a warm start needs the same table.
    table_id: usize,
    /// When the slot was last prepared, to replace the least recently used.
    used: u64,
}

/// A lower bound for one state and its children. [`LowerBound::prepare`] computes the value of
/// a parent; [`LowerBound::after_move`] the value of one child, leaving the parent prepared for
/// the next child.
#[derive(Clone, Debug)]
pub struct LowerBound {
    kind: BoundKind,
    /// The prepared state's boxes, for the nearest-target bound.
    boxes: Vec<Cell>,
    /// Remembered matchings; `current` is the prepared state's.
    slots: Vec<Slot>,
    current: usize,
    clock: u64,
    work: Work,
    parent_value: u32,
}

impl LowerBound {
    /// A bound of the given kind.
    pub fn new(kind: BoundKind) -> LowerBound {
        LowerBound {
            kind,
            boxes: Vec::new(),
            slots: Vec::new(),
            current: 0,
            clock: 0,
            work: Work::default(),
            parent_value: 0,
        }
    }

    /// Forgets the last prepared state, so the next [`LowerBound::prepare`] starts afresh.
    /// (A change of table does this by itself.)
    pub fn invalidate(&mut self) {
        for slot in &mut self.slots {
            slot.valid = false;
        }
    }

    /// The kind of bound.
    pub fn kind(&self) -> BoundKind {
        self.kind
    }

    /// Computes the bound for a state with these boxes; `None` when no assignment of boxes to
    /// targets has finite cost (a deadlock).
    pub fn prepare(&mut self, table: &DistanceTable, boxes: &[Cell]) -> Option<u32> {
        let value = match self.kind {
            BoundKind::Zero => 0,
            BoundKind::Nearest => {
                self.boxes.clear();
                self.boxes.extend_from_slice(boxes);
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
                let total = self.prepare_matching(table, boxes);
                if total >= INF {
                    self.slots[self.current].valid = false;
                    return None;
                }
                total as u32
            }
        };
        self.parent_value = value;
        Some(value)
    }

    /// Solves the matching for `boxes`, starting from the remembered matching nearest to it
    /// (box `i` is the same box in every state of one search, so the rows that changed are
    /// the indices whose cells differ). When few boxes differ, those rows are freed,
    /// re-priced and re-augmented one by one, which gives the exact optimum again; when many
    /// do, the least recently used slot is solved afresh, keeping only its column potentials
    /// ([`Duals::restart_from_columns`]). Returns the total cost.
    fn prepare_matching(&mut self, table: &DistanceTable, boxes: &[Cell]) -> i64 {
        let n = boxes.len();
        // Tables live as long as the search (the board's, or cached per frozen set), so an
        // address names one table for the whole time this bound is used.
        let table_id = std::ptr::from_ref(table) as usize;
        if self.slots.is_empty() {
            self.slots.resize_with(SLOTS, Slot::default);
        }
        self.clock += 1;
        let mut nearest: Option<(usize, usize)> = None;
        for (k, slot) in self.slots.iter().enumerate() {
            if slot.valid && slot.table_id == table_id && slot.boxes.len() == n {
                let changed = slot.boxes.iter().zip(boxes).filter(|(a, b)| a != b).count();
                if nearest.is_none_or(|(_, c)| changed < c) {
                    nearest = Some((k, changed));
                }
            }
        }
        let (k, near) = match nearest {
            Some((k, changed)) if changed * 2 <= n => (k, true),
            _ => ((0..self.slots.len()).min_by_key(|&k| self.slots[k].used).unwrap_or(0), false),
        };
        self.current = k;
        let slot = &mut self.slots[k];
        slot.used = self.clock;
        if near {
            for (i, &b) in boxes.iter().enumerate() {
                if slot.boxes[i] == b {
                    continue;
                }
                slot.boxes[i] = b;
                let row = &mut slot.costs[i * n..(i + 1) * n];
                for (c, &d) in row.iter_mut().zip(table.row(b)) {
                    *c = cost(d);
                }
                let col = slot.duals.col_of[i] as usize;
                slot.duals.row_of[col] = NONE;
                slot.duals.col_of[i] = NONE;
            }
        } else {
            // Potentials left by an infeasible matching may be of the order of `INF`, and
            // ones kept for a long time could drift: start those afresh. Otherwise keep the
            // column potentials of the slot's last position, whatever its table (any potentials
            // give the exact optimum; close ones leave few rows to augment): each row gets the smallest
            // reduced cost they allow (so none is negative) and takes its best column while
            // that is free; the shortest augmenting paths below assign the rest.
            let sane =
                slot.valid && slot.duals.v.len() == n && slot.duals.v.iter().all(|v| v.abs() < INF / 4);
            slot.boxes.clear();
            slot.boxes.extend_from_slice(boxes);
            slot.costs.clear();
            for &b in boxes {
                slot.costs.extend(table.row(b).iter().map(|&d| cost(d)));
            }
            if sane {
                slot.duals.restart_from_columns(n, &slot.costs);
            } else {
                slot.duals.reset(n);
            }
        }
        for i in 0..n {
            if slot.duals.col_of[i] == NONE {
                slot.duals.augment(i, n, &slot.costs, &mut self.work);
            }
        }
        slot.valid = true;
        slot.table_id = table_id;
        slot.duals.total(n, &slot.costs)
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
                // Freeing the moved box's row leaves its column `j0` the only free one and an
                // optimal assignment of the other rows; the child's optimum adds the shortest
                // path, in reduced costs, from the re-priced row to `j0`. Since the parent's
                // total counted `cost(index, j0) = u[index] + v[j0]`, and the path's reduced
                // length leaves out exactly `u[index] + v[j0]` of its real cost, the child's
                // total is the parent's plus that length. The parent stays as it was.
                let slot = &self.slots[self.current];
                let n = slot.boxes.len();
                let j0 = slot.duals.col_of[index] as usize;
                let uf = slot.duals.u[index];
                let first = table.row(to).iter().zip(&slot.duals.v).map(|(&d, &vj)| cost(d) - uf - vj);
                let length = slot.duals.path_to(first, j0, n, &slot.costs, &mut self.work);
                let total = i64::from(self.parent_value) + length;
                (total < INF / 2).then_some(total as u32)
            }
        }
    }
}

/// The matching cost of a distance.
#[inline]
fn cost(d: u16) -> i64 {
    if d == UNREACHABLE {
        INF
    } else {
        i64::from(d)
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
        go(0, &mut vec![false; table.n_targets()], table, boxes, &mut best, 0);
        best
    }

    fn pseudo_random_table(seed: u64, cells: usize, targets: usize) -> DistanceTable {
        let mut s = seed;
        let data = (0..cells * targets)
            .map(|_| {
                s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                let r = (s >> 33) % 23;
                if r == 0 {
                    UNREACHABLE
                } else {
                    r as u16
                }
            })
            .collect();
        DistanceTable::new(targets, cells, data)
    }

    #[test]
    fn matching_equals_brute_force_and_incremental_equals_fresh() {
        for seed in 0..200u64 {
            let n = 1 + (seed as usize % 6);
            let cells = 12;
            let table = pseudo_random_table(seed, cells, n);
            let boxes: Vec<Cell> = (0..n).map(|i| ((seed as usize + 5 * i) % cells) as Cell).collect();
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
                    assert_eq!(incremental, brute(&table, &moved), "seed {seed} box {index} to {to}");
                }
            }
        }
    }

    #[test]
    fn warm_started_prepare_equals_brute_force() {
        let mut bound = LowerBound::new(BoundKind::Matching);
        let mut s = 99u64;
        let mut next = |m: usize| {
            s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (s >> 33) as usize % m
        };
        for seed in 0..40u64 {
            let n = 2 + (seed as usize % 5);
            let cells = 14;
            let table = pseudo_random_table(seed + 1000, cells, n);
            let mut boxes: Vec<Cell> = (0..n).map(|i| (i * 2) as Cell).collect();
            for _ in 0..60 {
                // Move one to three boxes anywhere, then compare with a fresh solve.
                for _ in 0..1 + next(3) {
                    let i = next(n);
                    boxes[i] = next(cells) as Cell;
                }
                assert_eq!(
                    bound.prepare(&table, &boxes),
                    brute(&table, &boxes),
                    "seed {seed} boxes {boxes:?}"
                );
            }
        }
    }

    /// Prepares that switch tables, move many boxes or hit infeasible positions, each followed
    /// by the children's values, as a search with tables per frozen set makes them: every
    /// value equals brute force (warm starts from kept column potentials stay exact).
    #[test]
    fn mixed_tables_and_moves_stay_exact() {
        let tables: Vec<DistanceTable> = (0..3).map(|k| pseudo_random_table(500 + k, 12, 5)).collect();
        let mut bound = LowerBound::new(BoundKind::Matching);
        let mut s = 7u64;
        let mut next = |m: usize| {
            s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (s >> 33) as usize % m
        };
        let mut boxes: Vec<Cell> = vec![0, 2, 4, 6, 8];
        for step in 0..400 {
            for _ in 0..1 + next(5) {
                let i = next(5);
                boxes[i] = next(12) as Cell;
            }
            let table = &tables[next(3)];
            let value = bound.prepare(table, &boxes);
            assert_eq!(value, brute(table, &boxes), "step {step} boxes {boxes:?}");
            if value.is_none() {
                continue;
            }
            for _ in 0..3 {
                let (index, to) = (next(5), next(12) as Cell);
                let mut moved = boxes.clone();
                moved[index] = to;
                assert_eq!(bound.after_move(table, index, to), brute(table, &moved), "step {step}");
            }
        }
    }

    /// States taken in turn from more lines of search than there are slots, each line one
    /// box move further than its last state (as the feature-space ordering takes them):
    /// updating the nearest remembered matching, or replacing the least recently used one,
    /// stays exact for the states and their children.
    #[test]
    fn states_from_many_lines_in_turn_stay_exact() {
        let (n, cells) = (6, 16);
        let table = pseudo_random_table(4242, cells, n);
        let mut bound = LowerBound::new(BoundKind::Matching);
        let mut s = 11u64;
        let mut next = |m: usize| {
            s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (s >> 33) as usize % m
        };
        let mut lines: Vec<Vec<Cell>> =
            (0..SLOTS + 3).map(|l| (0..n).map(|i| ((l + 3 * i) % cells) as Cell).collect()).collect();
        for step in 0..600 {
            let line = next(lines.len());
            let i = next(n);
            lines[line][i] = next(cells) as Cell;
            let boxes = &lines[line];
            let value = bound.prepare(&table, boxes);
            assert_eq!(value, brute(&table, boxes), "step {step} line {line}");
            if value.is_none() {
                continue;
            }
            let (index, to) = (next(n), next(cells) as Cell);
            let mut moved = boxes.clone();
            moved[index] = to;
            assert_eq!(bound.after_move(&table, index, to), brute(&table, &moved), "step {step}");
        }
    }

    #[test]
    fn a_new_table_is_not_warm_started_from_the_old_one() {
        let a = pseudo_random_table(7, 10, 3);
        let b = pseudo_random_table(8, 10, 3);
        let mut bound = LowerBound::new(BoundKind::Matching);
        let boxes = [1, 4, 7];
        let moved = [1, 4, 9];
        for (t1, t2) in [(&a, &b), (&b, &a)] {
            bound.prepare(t1, &boxes);
            assert_eq!(bound.prepare(t2, &moved), brute(t2, &moved));
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
                    if let (Some(a), Some(b)) = (m.after_move(&table, 1, to), nb.after_move(&table, 1, to)) {
                        assert!(b <= a);
                    }
                }
            }
        }
    }
}
