//! A lower bound on pushes from pairs of boxes: the pushes two boxes alone on the board need to
//! reach two goals, computed for every two-box position before the search.
//!
//! The table comes from the same retrograde analysis as the pair deadlocks ([`crate::pairs`]),
//! breadth first: from every position with both boxes on goals (the player in any area), undo
//! pushes, and a position first reached after `k` undone pushes needs exactly `k` pushes. The
//! player's walks are free, so positions are told apart only by the area the player is in.
//!
//! The bound of a whole position splits its boxes into disjoint pairs and single boxes: a pair
//! counts the pushes it needs alone, a single box its push distance to the nearest goal. In any
//! solution, the pushes of a pair's two boxes, the other boxes left out, solve the pair alone
//! (taking boxes away never makes a push illegal), so they are at least the pair's cost; the
//! sum is a lower bound on the pushes still needed. The pairs are chosen greedily, the largest
//! gain over the two boxes' distances first. The matching bound sees which goal each box takes
//! and this one sees how two boxes get in each other's way; the search takes the larger.

use std::collections::HashMap;
use std::collections::VecDeque;

use bisolve_board::{Board, Cell};

use crate::pairs::{retrograde_moves, PairAreas, PairMode, MAX_CELLS};

/// A pair no position with both boxes on goals can be reached from: dead, never counted here.
const UNKNOWN: u8 = u8::MAX;

/// Pushes each two-box position needs to put both boxes on goals.
#[derive(Clone, Debug)]
pub struct PairCosts {
    n: usize,
    /// Per pair `(a, b)` with `a < b`, at `a * n + b`: its cost, the least over its areas when
    /// the pair splits the floor, [`UNKNOWN`] when it cannot be finished.
    least: Vec<u8>,
    /// One bit per pair, as in `least`: set when the pair splits the floor into areas of
    /// different costs, whose costs `split` holds.
    split_bits: Vec<u64>,
    /// Per such pair: an area label per cell (`u8::MAX` for the boxes' cells), and each area's
    /// cost.
    split: HashMap<(Cell, Cell), (Vec<u8>, Vec<u8>)>,
}

/// Working memory of [`PairCosts::bound`].
#[derive(Clone, Debug, Default)]
pub struct PairScratch {
    /// (gain, first box, second box) of the pairs that gain anything.
    gains: Vec<(u32, u16, u16)>,
    taken: Vec<bool>,
}

impl PairCosts {
    /// The table of `board`, or `None` when the board has more than [`MAX_CELLS`] cells or
    /// fewer than two goals.
    pub fn new(board: &Board) -> Option<PairCosts> {
        let n = board.n_cells();
        if n > MAX_CELLS || board.goals().len() < 2 {
            return None;
        }
        let mut areas = PairAreas::new(n);
        // Per pair, the cost of each of its areas (one entry when it does not split the floor).
        let mut costs: Vec<Vec<u8>> = vec![Vec::new(); n * n];
        let mut queue: VecDeque<(Cell, Cell, Cell, u8)> = VecDeque::new();
        let mut set = |areas: &mut PairAreas, a: Cell, b: Cell, p: Cell, k: u8| -> bool {
            let area = areas.area(board, a, b, p) as usize;
            let entry = &mut costs[a as usize * n + b as usize];
            if entry.len() <= area {
                entry.resize(area + 1, UNKNOWN);
            }
            let new = entry[area] == UNKNOWN;
            if new {
                entry[area] = k;
            }
            new
        };
        let goals = board.goals();
        for (i, &g) in goals.iter().enumerate() {
            for &h in &goals[i + 1..] {
                let (a, b) = (g.min(h), g.max(h));
                for p in areas.firsts(board, a, b) {
                    if set(&mut areas, a, b, p, 0) {
                        queue.push_back((a, b, p, 0));
                    }
                }
            }
        }
        let mut moves = Vec::new();
        while let Some((a, b, p, k)) = queue.pop_front() {
            let labels = areas.get(board, a, b).cloned();
            let region = labels.as_ref().map_or(0, |l| l[p as usize]);
            let reaches = |c: Cell| match &labels {
                Some(l) => l[c as usize] == region,
                None => c != a && c != b,
            };
            retrograde_moves(board, PairMode::Push, a, b, reaches, &mut moves);
            // Costs past 254 are kept at 254: smaller than the truth, so still a lower bound.
            let next = k.saturating_add(1).min(UNKNOWN - 1);
            for &(moved, other, player) in &moves {
                let (a, b) = (moved.min(other), moved.max(other));
                if set(&mut areas, a, b, player, next) {
                    queue.push_back((a, b, player, next));
                }
            }
        }
        let mut least = vec![UNKNOWN; n * n];
        let mut split_bits = vec![0u64; (n * n).div_ceil(64)];
        let mut split = HashMap::new();
        for a in 0..n as Cell {
            for b in a + 1..n as Cell {
                let pair = a as usize * n + b as usize;
                let mut entry = std::mem::take(&mut costs[pair]);
                if entry.is_empty() {
                    continue;
                }
                let area_of = areas.get(board, a, b);
                if let Some(area_of) = area_of {
                    // Areas no position reached stay UNKNOWN: the pair is dead there.
                    let n_areas =
                        area_of.iter().filter(|&&x| x != u8::MAX).max().map_or(0, |&m| m as usize + 1);
                    entry.resize(n_areas.max(entry.len()), UNKNOWN);
                }
                let low = entry.iter().copied().min().unwrap_or(UNKNOWN);
                least[pair] = low;
                if let Some(area_of) = area_of.filter(|_| entry.iter().any(|&c| c != low)) {
                    split_bits[pair / 64] |= 1 << (pair % 64);
                    split.insert((a, b), (area_of.clone(), entry));
                }
            }
        }
        Some(PairCosts { n, least, split_bits, split })
    }

    /// The pushes boxes on `a` and `b` alone need to reach two goals with the player on
    /// `player` (any cell of the player's region, not a box cell), or `None` when they never
    /// can.
    #[inline]
    pub fn cost(&self, a: Cell, b: Cell, player: Cell) -> Option<u32> {
        let (a, b) = if a < b { (a, b) } else { (b, a) };
        let pair = a as usize * self.n + b as usize;
        let mut c = self.least[pair];
        if self.split_bits[pair / 64] & (1 << (pair % 64)) != 0 {
            if let Some((area_of, per_area)) = self.split.get(&(a, b)) {
                let area = area_of[player as usize];
                if area != u8::MAX {
                    c = per_area[area as usize];
                }
            }
        }
        (c != UNKNOWN).then_some(u32::from(c))
    }

    /// A lower bound on the pushes that put `boxes` on goals with the player on `player`: the
    /// costs of disjoint pairs, chosen greedily by their gain over `nearest` of their two
    /// boxes, plus `nearest` of every box in no pair. `nearest` must be a lower bound on the
    /// pushes a lone box needs (its push distance to the nearest goal).
    pub fn bound(
        &self,
        boxes: &[Cell],
        player: Cell,
        nearest: impl Fn(Cell) -> u32,
        s: &mut PairScratch,
    ) -> u32 {
        s.gains.clear();
        let mut total = 0;
        for (i, &a) in boxes.iter().enumerate() {
            let na = nearest(a);
            total += na;
            for (j, &b) in boxes.iter().enumerate().skip(i + 1) {
                let Some(c) = self.cost(a, b, player) else { continue };
                let apart = na + nearest(b);
                if c > apart {
                    s.gains.push((c - apart, i as u16, j as u16));
                }
            }
        }
        if s.gains.is_empty() {
            return total;
        }
        // Largest gain first; ties by the boxes' numbers, so the choice is deterministic.
        s.gains.sort_unstable_by(|x, y| y.0.cmp(&x.0).then(x.1.cmp(&y.1)).then(x.2.cmp(&y.2)));
        s.taken.clear();
        s.taken.resize(boxes.len(), false);
        for &(gain, i, j) in &s.gains {
            let (i, j) = (i as usize, j as usize);
            if !s.taken[i] && !s.taken[j] {
                s.taken[i] = true;
                s.taken[j] = true;
                total += gain;
            }
        }
        total
    }
}

#[cfg(test)]
mod tests;
