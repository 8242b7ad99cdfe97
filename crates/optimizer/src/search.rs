//! One vicinity search: the cheapest solution, by the objective, among those whose every box
//! configuration lies near the configurations of a given solution's path.
//!
//! A configuration is near the path when it is one of the path's, or differs from one of them
//! in at most [`Vicinity::boxes`] boxes (up to three), each standing within
//! [`Vicinity::radius`] squares (Manhattan distance) of the box it replaces. The search is
//! Dijkstra's over positions (configuration, player square after the last push); a push costs one push
//! and one move plus the shortest walk to it. It looks only for solutions cheaper than a bound
//! (the path's own cost), and its first goal position is the cheapest of those.
//!
//! The membership test removes one, two or three boxes from a configuration in every way and
//! looks the rest up among the path's configurations less as many boxes; a bit filter turns
//! most of those lookups away before a map is probed, and each search remembers the
//! configurations it has tested either way.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap, HashSet};
use std::hash::BuildHasherDefault;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use bisolve_board::moves::Push;
use bisolve_board::{splitmix64, Board, BoxMap, Cell, Dir, PassThrough, Walks, NO_CELL};

use crate::Objective;

/// How far a configuration may stray from the path's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Vicinity {
    /// Boxes that may stand elsewhere than on a path configuration (1, 2 or 3).
    pub boxes: usize,
    /// How far (Manhattan distance) each of them may stand from the box it replaces.
    pub radius: u32,
}

/// Keys of single boxes on cells, XORed into a configuration's key.
pub(crate) struct Keys(Vec<u64>);

impl Keys {
    pub(crate) fn new(n_cells: usize) -> Keys {
        let mut seed = 0x0B71_3123_5EA2_C4D5;
        Keys((0..n_cells).map(|_| splitmix64(&mut seed)).collect())
    }

    fn of(&self, boxes: &[Cell]) -> u64 {
        boxes.iter().fold(0, |k, &b| k ^ self.0[b as usize])
    }

    fn cell(&self, c: Cell) -> u64 {
        self.0[c as usize]
    }
}

/// Maps keyed by [`Keys`] XORs (uniformly random already) or by keys spread as well.
type KeyMap<V> = HashMap<u64, V, BuildHasherDefault<PassThrough>>;

/// One bit per value of a key's top bits, set for every key of a map: most keys a membership
/// test asks for are in no map, and one bit turns them away before the map is probed.
struct Filter {
    bits: Vec<u64>,
    shift: u32,
}

impl Filter {
    /// A filter of about 16 bits per key (a 1-in-16 chance that a key not there passes), at
    /// most 16 MiB.
    fn of<'k>(keys: impl ExactSizeIterator<Item = &'k u64>) -> Filter {
        let size = (keys.len() * 16).next_power_of_two().clamp(1 << 12, 1 << 27);
        let mut filter = Filter { bits: vec![0; size / 64], shift: 64 - size.trailing_zeros() };
        for &k in keys {
            let i = (k >> filter.shift) as usize;
            filter.bits[i / 64] |= 1 << (i % 64);
        }
        filter
    }

    /// False when `key` is surely not in the map the filter was made of.
    #[inline]
    fn may_hold(&self, key: u64) -> bool {
        let i = (key >> self.shift) as usize;
        self.bits[i / 64] & (1 << (i % 64)) != 0
    }
}

/// The configurations near a path, as a membership test.
pub(crate) struct Near<'a> {
    board: &'a Board,
    keys: &'a Keys,
    vicinity: Vicinity,
    /// The path's configurations.
    path: HashSet<u64, BuildHasherDefault<PassThrough>>,
    /// A path configuration less one box (key) -> the boxes removed.
    less_one: KeyMap<Vec<Cell>>,
    /// A path configuration less two boxes (key) -> the pairs removed.
    less_two: KeyMap<Vec<(Cell, Cell)>>,
    /// A path configuration less three boxes (key) -> the triples removed.
    less_three: KeyMap<Vec<[Cell; 3]>>,
    /// The keys of `less_two` and `less_three`.
    two_filter: Filter,
    three_filter: Filter,
}

impl<'a> Near<'a> {
    pub(crate) fn new(board: &'a Board, keys: &'a Keys, path: &[Vec<Cell>], vicinity: Vicinity) -> Near<'a> {
        let mut path_keys = HashSet::default();
        let mut less_one = KeyMap::<Vec<Cell>>::default();
        let mut less_two = KeyMap::<Vec<(Cell, Cell)>>::default();
        let mut less_three = KeyMap::<Vec<[Cell; 3]>>::default();
        for config in path {
            let key = keys.of(config);
            if !path_keys.insert(key) {
                continue;
            }
            if vicinity.boxes >= 1 {
                for &y in config {
                    less_one.entry(key ^ keys.cell(y)).or_default().push(y);
                }
            }
            if vicinity.boxes >= 2 {
                for (i, &y) in config.iter().enumerate() {
                    for (j, &z) in config.iter().enumerate().skip(i + 1) {
                        let k2 = key ^ keys.cell(y) ^ keys.cell(z);
                        less_two.entry(k2).or_default().push((y, z));
                        if vicinity.boxes >= 3 {
                            for &w in &config[j + 1..] {
                                less_three.entry(k2 ^ keys.cell(w)).or_default().push([y, z, w]);
                            }
                        }
                    }
                }
            }
        }
        Near {
            board,
            keys,
            vicinity,
            path: path_keys,
            two_filter: Filter::of(less_two.keys()),
            three_filter: Filter::of(less_three.keys()),
            less_one,
            less_two,
            less_three,
        }
    }

    /// True when the boxes `now` can stand for the path's boxes `was`, each within the radius
    /// of a different one of them.
    fn fit3(&self, was: [Cell; 3], now: [Cell; 3]) -> bool {
        const ORDERS: [[usize; 3]; 6] = [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]];
        ORDERS.iter().any(|o| (0..3).all(|i| self.close(was[o[i]], now[i])))
    }

    fn close(&self, a: Cell, b: Cell) -> bool {
        let ((ax, ay), (bx, by)) = (self.board.xy(a), self.board.xy(b));
        (ax.abs_diff(bx) + ay.abs_diff(by)) as u32 <= self.vicinity.radius
    }

    /// True when the configuration `boxes` (key `key`) is near the path.
    fn contains(&self, boxes: &[Cell], key: u64) -> bool {
        if self.path.contains(&key) {
            return true;
        }
        for (i, &s) in boxes.iter().enumerate() {
            let k1 = key ^ self.keys.cell(s);
            if let Some(ys) = self.less_one.get(&k1) {
                if ys.iter().any(|&y| self.close(y, s)) {
                    return true;
                }
            }
            if self.vicinity.boxes >= 2 {
                for &t in &boxes[i + 1..] {
                    let k2 = k1 ^ self.keys.cell(t);
                    if !self.two_filter.may_hold(k2) {
                        continue;
                    }
                    if let Some(pairs) = self.less_two.get(&k2) {
                        let fits = |&(y, z): &(Cell, Cell)| {
                            (self.close(y, s) && self.close(z, t)) || (self.close(y, t) && self.close(z, s))
                        };
                        if pairs.iter().any(fits) {
                            return true;
                        }
                    }
                }
            }
        }
        self.vicinity.boxes >= 3 && self.three_away(boxes, key)
    }

    /// True when three boxes of `boxes` (key `key`) stand for three of a path configuration's,
    /// each within the radius of a different one of them.
    #[inline(never)]
    fn three_away(&self, boxes: &[Cell], key: u64) -> bool {
        for (i, &s) in boxes.iter().enumerate() {
            let k1 = key ^ self.keys.cell(s);
            for (j, &t) in boxes.iter().enumerate().skip(i + 1) {
                let k2 = k1 ^ self.keys.cell(t);
                for &u in &boxes[j + 1..] {
                    let k3 = k2 ^ self.keys.cell(u);
                    if !self.three_filter.may_hold(k3) {
                        continue;
                    }
                    if let Some(triples) = self.less_three.get(&k3) {
                        if triples.iter().any(|&was| self.fit3(was, [s, t, u])) {
                            return true;
                        }
                    }
                }
            }
        }
        false
    }
}

/// Why a search ended without a result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Ended {
    /// It reached its state limit.
    Full,
    /// The deadline passed or the caller cancelled.
    Stopped,
    /// No solution in the vicinity cheaper than the bound.
    Empty,
}

/// What a search found: the pushes of the cheapest solution near the path, its cost as the
/// objective orders it, and the positions it reached.
pub(crate) struct Found {
    pub pushes: Vec<Push>,
    pub cost: (u32, u32),
    pub states: usize,
}

/// The limits of one search.
pub(crate) struct Bounds<'a> {
    /// Only solutions cheaper than this (by the objective's key) are looked for.
    pub upper: (u32, u32),
    pub max_states: usize,
    pub deadline: Option<Instant>,
    pub cancel: &'a AtomicBool,
}

/// Configurations a search remembers as not near the path, at most (12 bytes each).
const FAR_LIMIT: usize = 1 << 24;
/// The number a configuration turned away gets.
const FAR: u32 = u32::MAX;

/// Dijkstra's search from `start` (boxes, player) to the goals over the configurations `near`
/// allows, for a solution cheaper than `bounds.upper`: positions that cost as much already are
/// not kept.
pub(crate) fn cheapest(
    board: &Board,
    keys: &Keys,
    near: &Near<'_>,
    start: (&[Cell], Cell),
    objective: Objective,
    bounds: &Bounds<'_>,
) -> Result<Found, (Ended, usize)> {
    let mut goals = board.goals().to_vec();
    goals.sort_unstable();
    let mut configs: Vec<Box<[Cell]>> = Vec::new();
    // Configuration keys -> their numbers, or FAR for one turned away as not near the path.
    let mut config_ids: KeyMap<u32> = KeyMap::default();
    let mut far = 0usize;
    let mut positions: Vec<(u32, Cell)> = Vec::new();
    // A position (configuration number, player square) as one u64, multiplied by an odd
    // number: a one-to-one map that spreads the bits, so the key serves as its own hash.
    let position_key = |config: u32, player: Cell| {
        ((u64::from(player) << 32) | u64::from(config)).wrapping_mul(0x9E37_79B9_7F4A_7C15)
    };
    let mut position_ids: KeyMap<u32> = KeyMap::default();
    let mut cost: Vec<(u32, u32)> = Vec::new();
    let mut parent: Vec<(u32, Push)> = Vec::new();
    let mut heap = BinaryHeap::new();

    let mut first: Vec<Cell> = start.0.to_vec();
    first.sort_unstable();
    configs.push(first.clone().into_boxed_slice());
    config_ids.insert(keys.of(&first), 0);
    positions.push((0, start.1));
    position_ids.insert(position_key(0, start.1), 0);
    cost.push((0, 0));
    parent.push((u32::MAX, Push { from: NO_CELL, dir: Dir::Up }));
    heap.push(Reverse((0u32, 0u32, 0u32)));

    let n = board.n_cells();
    let mut boxes = BoxMap::new(n);
    let mut walks = Walks::new(n);
    let mut child: Vec<Cell> = Vec::new();
    let mut config: Vec<Cell> = Vec::new();
    let mut expanded = 0usize;
    while let Some(Reverse((c1, c2, id))) = heap.pop() {
        let g = (c1, c2);
        if cost[id as usize] != g {
            continue;
        }
        let (config_id, player) = positions[id as usize];
        expanded += 1;
        if expanded % 256 == 0
            && (bounds.cancel.load(Ordering::Relaxed) || bounds.deadline.is_some_and(|d| Instant::now() >= d))
        {
            return Err((Ended::Stopped, positions.len()));
        }
        config.clear();
        config.extend_from_slice(&configs[config_id as usize]);
        if config == goals {
            let mut pushes = Vec::new();
            let mut at = id;
            while parent[at as usize].0 != u32::MAX {
                pushes.push(parent[at as usize].1);
                at = parent[at as usize].0;
            }
            pushes.reverse();
            return Ok(Found { pushes, cost: g, states: positions.len() });
        }
        boxes.set_all(&config);
        walks.fill(board, &config, player);
        let (moves, pushes) = objective.unkey(g);
        let key = keys.of(&config);
        for &b in config.iter() {
            for dir in Dir::ALL {
                let behind = board.neighbour(b, dir.opposite());
                let to = board.neighbour(b, dir);
                let Some(walk) = walks.to(behind) else {
                    continue;
                };
                if to == NO_CELL || boxes.is_box(to) || board.is_push_dead(to) {
                    continue;
                }
                let child_key = key ^ keys.cell(b) ^ keys.cell(to);
                // A configuration already numbered is near; one already turned away is not.
                let child_config = match config_ids.get(&child_key) {
                    Some(&FAR) => continue,
                    Some(&c) => c,
                    None => {
                        child.clear();
                        child.extend(config.iter().map(|&c| if c == b { to } else { c }));
                        child.sort_unstable();
                        if !near.contains(&child, child_key) {
                            if far < FAR_LIMIT {
                                far += 1;
                                config_ids.insert(child_key, FAR);
                            }
                            continue;
                        }
                        configs.push(child.clone().into_boxed_slice());
                        let c = (configs.len() - 1) as u32;
                        config_ids.insert(child_key, c);
                        c
                    }
                };
                let next_cost = objective.key(moves + walk + 1, pushes + 1);
                if next_cost >= bounds.upper {
                    continue;
                }
                let next_id = match position_ids.get(&position_key(child_config, b)) {
                    Some(&i) => {
                        if cost[i as usize] <= next_cost {
                            continue;
                        }
                        i
                    }
                    None => {
                        if positions.len() >= bounds.max_states {
                            return Err((Ended::Full, positions.len()));
                        }
                        positions.push((child_config, b));
                        cost.push(next_cost);
                        parent.push((id, Push { from: b, dir }));
                        let i = (positions.len() - 1) as u32;
                        position_ids.insert(position_key(child_config, b), i);
                        i
                    }
                };
                cost[next_id as usize] = next_cost;
                parent[next_id as usize] = (id, Push { from: b, dir });
                heap.push(Reverse((next_cost.0, next_cost.1, next_id)));
            }
        }
        boxes.clear_all(&config);
    }
    Err((Ended::Empty, positions.len()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use bisolve_board::Level;

    #[test]
    fn a_vicinity_holds_as_many_strayed_boxes_as_it_says_each_within_its_radius() {
        let level = Level::parse("#########\n#       #\n#  $$$$ #\n#@      #\n#  .... #\n#########\n")
            .expect("a level");
        let board = level.board();
        let keys = Keys::new(board.n_cells());
        let cell = |x, y| board.cell(x, y).expect("floor");
        let path = vec![vec![cell(3, 2), cell(4, 2), cell(5, 2), cell(6, 2)]];
        // Boxes 1, 2 and 3 (of 4) one square down, box 4 where it was.
        let moved = |n: usize| -> Vec<Cell> {
            (0..4).map(|i| if i < n { cell(3 + i, 3) } else { cell(3 + i, 2) }).collect()
        };
        for (boxes, radius, holds) in [
            (1, 1, [true, true, false, false]),
            (2, 1, [true, true, true, false]),
            (3, 1, [true, true, true, true]),
            // Too far: each moved box is one square from where it was.
            (3, 0, [true, false, false, false]),
        ] {
            let near = Near::new(board, &keys, &path, Vicinity { boxes, radius });
            for (n, &want) in holds.iter().enumerate() {
                let config = moved(n);
                assert_eq!(
                    near.contains(&config, keys.of(&config)),
                    want,
                    "{n} moved, {boxes} boxes, radius {radius}"
                );
            }
        }
        // Three boxes each within the radius of a different path box, though not of the one
        // in the same place of the list: near.
        let near = Near::new(board, &keys, &path, Vicinity { boxes: 3, radius: 1 });
        let swapped = [cell(4, 1), cell(5, 1), cell(2, 2), cell(6, 2)];
        assert!(near.contains(&swapped, keys.of(&swapped)));
        let too_far = [cell(4, 1), cell(5, 1), cell(1, 2), cell(6, 2)];
        assert!(!near.contains(&too_far, keys.of(&too_far)));
    }

    #[test]
    fn the_filter_holds_every_key_it_was_made_of_and_turns_most_others_away() {
        let mut seed = 7;
        let keys: Vec<u64> = (0..10_000).map(|_| splitmix64(&mut seed)).collect();
        let filter = Filter::of(keys.iter());
        assert!(keys.iter().all(|&k| filter.may_hold(k)));
        let passed = (0..10_000).filter(|_| filter.may_hold(splitmix64(&mut seed))).count();
        // About one in 16 (the seed is fixed, so the count is too).
        assert!(passed < 1_000, "{passed} of 10000 other keys passed");
        let empty = Filter::of([].iter());
        assert!(!empty.may_hold(keys[0]));
    }

    #[test]
    fn a_search_finds_only_what_is_cheaper_than_its_bound() {
        // One box pushed right three times: 3 moves, 3 pushes, and nothing cheaper.
        let level = Level::parse("#######\n#@$  .#\n#######\n").expect("a level");
        let board = level.board();
        let keys = Keys::new(board.n_cells());
        let cell = |x| board.cell(x, 1).expect("floor");
        let path: Vec<Vec<Cell>> = (2..=5).map(|x| vec![cell(x)]).collect();
        let near = Near::new(board, &keys, &path, Vicinity { boxes: 1, radius: 1 });
        let cancel = AtomicBool::new(false);
        let start = (&level.start().boxes[..], level.start().player);
        let search = |upper| {
            let bounds = Bounds { upper, max_states: 1000, deadline: None, cancel: &cancel };
            cheapest(board, &keys, &near, start, Objective::Moves, &bounds)
        };
        let found = search((4, 0)).expect("a solution under 4 moves");
        assert_eq!((found.cost, found.pushes.len()), ((3, 3), 3));
        assert!(matches!(search((3, 3)), Err((Ended::Empty, _))));
        // A state limit stops it.
        let bounds = Bounds { upper: (4, 0), max_states: 1, deadline: None, cancel: &cancel };
        let full = cheapest(board, &keys, &near, start, Objective::Moves, &bounds);
        assert!(matches!(full, Err((Ended::Full, _))));
    }
}
