//! A lower bound on pushes from pairs of boxes: the pushes two boxes alone on the board need to
//! reach two goals, computed for every two-box position before the search.
//!
//! The table comes from the same retrograde analysis as the pair deadlocks ([`crate::pairs`]),
//! breadth first: from every position with both boxes on goals (the player in any area), undo
//! pushes, and a position first reached after `k` undone pushes needs exactly `k` pushes. The
//! player's walks are free, so positions are told apart only by the area the player is in.
//!
//! The bound of a whole position splits its boxes into disjoint pairs and single boxes: a pair
//! counts the pushes it needs alone, a single box its push distance to the nearest goal. Only
//! the pairs that cost more than their two distances in some area can gain anything; each cell
//! keeps the list of its partners in those, so a position reads few pairs. In any
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
    /// Per cell, a lone box's push distance to the nearest goal.
    near: Vec<u32>,
    /// Per cell `a`, the cells `b` whose pair with it costs more than their two distances in
    /// some area, at `partners[partner_starts[a]..partner_starts[a + 1]]`: the only pairs that
    /// can gain anything.
    partner_starts: Vec<u32>,
    partners: Vec<Cell>,
}

/// Working memory of [`PairCosts::bound`] and [`PairCosts::child_bound`].
#[derive(Clone, Debug, Default)]
pub struct PairScratch {
    /// (gain, first box, second box) of the moved box's pairs that gain anything.
    gains: Vec<(u32, u16, u16)>,
    /// A whole position's gains, for [`PairCosts::bound`].
    node: PairGains,
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
        let distances = board.goal_distances();
        let near: Vec<u32> = (0..n as Cell).map(|c| u32::from(distances.nearest(c))).collect();
        // A pair gains in some area when its largest finite cost beats the two distances.
        let most = |a: Cell, b: Cell| {
            let (a, b) = (a.min(b), a.max(b));
            let pair = a as usize * n + b as usize;
            match split.get(&(a, b)) {
                Some((_, per_area)) => per_area.iter().copied().filter(|&c| c != UNKNOWN).max(),
                None => Some(least[pair]).filter(|&c| c != UNKNOWN),
            }
        };
        let mut partner_starts = Vec::with_capacity(n + 1);
        let mut partners = Vec::new();
        for a in 0..n as Cell {
            partner_starts.push(partners.len() as u32);
            partners.extend((0..n as Cell).filter(|&b| {
                b != a && most(a, b).is_some_and(|c| u32::from(c) > near[a as usize] + near[b as usize])
            }));
        }
        partner_starts.push(partners.len() as u32);
        Some(PairCosts { n, least, split_bits, split, near, partner_starts, partners })
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
    /// costs of disjoint pairs, chosen greedily by their gain over the push distances of their
    /// two boxes to the nearest goals, plus that distance of every box in no pair. The boxes
    /// are looked up in the list: for a position met once, such as a root; a search's children
    /// take [`PairCosts::child_bound`].
    pub fn bound(&self, boxes: &[Cell], player: Cell, s: &mut PairScratch) -> u32 {
        let mut gains = std::mem::take(&mut s.node);
        self.gains(boxes, player, |c| boxes.iter().position(|&b| b == c), &mut gains);
        s.taken.clear();
        s.taken.resize(boxes.len(), false);
        let total = gains.near + greedy(gains.pairs.iter().copied(), &mut s.taken);
        s.node = gains;
        total
    }

    /// The pairs of the position of `boxes` (`box_at` gives the number of the box on a cell),
    /// the player on `player`, that gain anything over their boxes' distances, largest gain
    /// first, into `out`: what [`PairCosts::child_bound`] reads for every child of the
    /// position.
    pub fn gains(
        &self,
        boxes: &[Cell],
        player: Cell,
        box_at: impl Fn(Cell) -> Option<usize>,
        out: &mut PairGains,
    ) {
        out.pairs.clear();
        out.near = 0;
        for (i, &a) in boxes.iter().enumerate() {
            out.near += self.near[a as usize];
            let partners = self.partners_of(a);
            // The shorter of the cell's partners and the other boxes.
            if partners.len() < boxes.len() - i {
                for &b in partners {
                    match box_at(b) {
                        Some(j) if j > i => self.push_gain(a, b, player, (i, j), &mut out.pairs),
                        _ => {}
                    }
                }
            } else {
                for (j, &b) in boxes.iter().enumerate().skip(i + 1) {
                    self.push_gain(a, b, player, (i, j), &mut out.pairs);
                }
            }
        }
        out.pairs.sort_unstable_by(order);
    }

    /// [`PairCosts::bound`] of the position `node` holds the gains of (from
    /// [`PairCosts::gains`]; its boxes are `boxes`) with box `moved` moved to `to` and the
    /// player on `player`; `box_at` gives the number of the box on a cell after the move. Only
    /// the pairs of the moved box are looked up again. The other pairs cost what they cost in
    /// `node`, since the player's area around two boxes that did not move stays the one it
    /// walked in before the move.
    #[allow(clippy::too_many_arguments)]
    pub fn child_bound(
        &self,
        node: &PairGains,
        boxes: &[Cell],
        moved: usize,
        to: Cell,
        player: Cell,
        box_at: impl Fn(Cell) -> Option<usize>,
        s: &mut PairScratch,
    ) -> u32 {
        s.gains.clear();
        let partners = self.partners_of(to);
        if partners.len() < boxes.len() {
            for &b in partners {
                match box_at(b) {
                    Some(j) if j != moved => self.push_gain(to, b, player, (moved, j), &mut s.gains),
                    _ => {}
                }
            }
        } else {
            for (j, &b) in boxes.iter().enumerate() {
                if j != moved {
                    self.push_gain(to, b, player, (moved, j), &mut s.gains);
                }
            }
        }
        s.gains.sort_unstable_by(order);
        let near = node.near - self.near[boxes[moved] as usize] + self.near[to as usize];
        // The two lists merged in one order: the node's pairs without the moved box, and the
        // moved box's new pairs.
        let m = moved as u16;
        let mut kept = node.pairs.iter().copied().filter(|&(_, i, j)| i != m && j != m).peekable();
        let mut new = s.gains.iter().copied().peekable();
        let merged = std::iter::from_fn(|| match (kept.peek(), new.peek()) {
            (Some(a), Some(b)) if order(a, b).is_le() => kept.next(),
            (Some(_), Some(_)) | (None, Some(_)) => new.next(),
            (Some(_), None) => kept.next(),
            (None, None) => None,
        });
        s.taken.clear();
        s.taken.resize(boxes.len(), false);
        near + greedy(merged, &mut s.taken)
    }

    /// Appends the gain of the pair of boxes `i` and `j` on `a` and `b`, when it has one.
    #[inline]
    fn push_gain(
        &self,
        a: Cell,
        b: Cell,
        player: Cell,
        (i, j): (usize, usize),
        out: &mut Vec<(u32, u16, u16)>,
    ) {
        if let Some(gain) = self.gain(a, b, player) {
            out.push((gain, i.min(j) as u16, i.max(j) as u16));
        }
    }

    /// The cells that can gain in a pair with a box on `a`.
    #[inline]
    fn partners_of(&self, a: Cell) -> &[Cell] {
        &self.partners[self.partner_starts[a as usize] as usize..self.partner_starts[a as usize + 1] as usize]
    }

    /// What the pair of boxes on `a` and `b` costs over their two distances, when more and the
    /// pair can be finished.
    #[inline]
    fn gain(&self, a: Cell, b: Cell, player: Cell) -> Option<u32> {
        let apart = self.near[a as usize] + self.near[b as usize];
        self.cost(a, b, player).filter(|&c| c > apart).map(|c| c - apart)
    }
}

/// The pairs of a position that gain over their boxes' distances, largest gain first (ties by
/// the boxes' numbers), and the sum of every box's distance.
#[derive(Clone, Debug, Default)]
pub struct PairGains {
    pairs: Vec<(u32, u16, u16)>,
    near: u32,
}

/// Largest gain first; ties by the boxes' numbers, so the choice is deterministic.
fn order(x: &(u32, u16, u16), y: &(u32, u16, u16)) -> std::cmp::Ordering {
    y.0.cmp(&x.0).then(x.1.cmp(&y.1)).then(x.2.cmp(&y.2))
}

/// The gains of the pairs `pairs` (in [`order`]) take greedily, no box in two, `taken` marking
/// the boxes used (all false on entry).
fn greedy(pairs: impl Iterator<Item = (u32, u16, u16)>, taken: &mut [bool]) -> u32 {
    let mut total = 0;
    for (gain, i, j) in pairs {
        let (i, j) = (i as usize, j as usize);
        if !taken[i] && !taken[j] {
            taken[i] = true;
            taken[j] = true;
            total += gain;
        }
    }
    total
}

#[cfg(test)]
mod tests;
