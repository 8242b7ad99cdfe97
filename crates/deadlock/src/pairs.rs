//! Deadlock tables for pairs of boxes, computed before the search by retrograde analysis, one
//! for each direction of search.
//!
//! Pushing: take two boxes alone on the board. From every position with both on goals (any
//! two goals, the player anywhere), pull them back in every way the rules allow; every
//! two-box position reached can still be finished, and every one never reached cannot. A
//! position of the whole level whose pushed box forms such a dead pair with another box is
//! dead too: the level's solution, with the pushes of the other boxes left out, would finish
//! the pair (taking boxes away never makes a push illegal).
//!
//! Pulling is the mirror image: the backward search must bring every box to a start square,
//! so its table starts from pairs on start squares and pushes them back; a pull that leaves a
//! pair the pushes never reached can never get back to the start.
//!
//! Positions are told apart by the player's area: two boxes can split the free floor in two,
//! and then which side the player is on matters. For the pairs that split it the table keeps
//! an area label per cell; the player of the whole level stands in one of those areas (its
//! region with every box on the board lies inside the pair's area). The table is built once
//! per level (a few hundred thousand two-box positions at most on the boards it is built for,
//! see [`MAX_CELLS`]) and shared read-only by every thread.

use std::collections::HashMap;

use bisolve_board::Dir;
use bisolve_board::{Board, Cell, NO_CELL};
use bisolve_board::{BoxMap, Reach};

/// Which search a table serves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PairMode {
    /// The forward search: boxes must reach goals by pushes.
    Push,
    /// The backward search: boxes must reach start squares by pulls.
    Pull,
}

/// Boards with more floor cells than this get no table (the pairs grow as the square).
pub const MAX_CELLS: usize = 400;

/// The pair table of one board.
#[derive(Debug, Clone)]
pub struct PairTable {
    n: usize,
    /// Per pair `(a, b)` with `a < b`, at `a * n + b`: the pair is dead whatever the player's
    /// area (only meaningful for pairs that do not split the floor, or dead in every area).
    dead_everywhere: Vec<u64>,
    /// Pairs that split the floor: an area label per cell (`u8::MAX` for the boxes' cells and
    /// cells of no area), and per area whether it is dead.
    split: HashMap<(Cell, Cell), Split>,
    /// One bit per pair, as in `dead_everywhere`: set when the pair is in `split`, so the
    /// common case (no entry) costs no hashing.
    split_bits: Vec<u64>,
    /// How many pairs (in some area) the table calls dead.
    n_dead: usize,
    /// Per cell `a`, the cells `b` that form a dead or split pair with it, at
    /// `partners[partner_starts[a]..partner_starts[a + 1]]`: a moved box's pairs are looked up
    /// among its partners when it has fewer of them than there are boxes.
    partner_starts: Vec<u32>,
    partners: Vec<Cell>,
}

#[derive(Debug, Clone)]
struct Split {
    area_of: Vec<u8>,
    dead: Vec<bool>,
}

impl PairTable {
    /// Builds the table for one direction of search, or `None` when the board is too large
    /// or has fewer than two boxes.
    pub fn new(board: &Board, mode: PairMode) -> Option<PairTable> {
        let n = board.n_cells();
        if n > MAX_CELLS || board.goals().len() < 2 {
            return None;
        }
        Some(Builder::new(board, mode).build())
    }

    /// Pairs the table calls dead (counting each dead area of a split pair once).
    pub fn n_dead(&self) -> usize {
        self.n_dead
    }

    /// True if the boxes on `a` and `b`, alone on the board with the player on `player` (any
    /// cell of the player's region; not a box cell), can never both reach goals.
    #[inline]
    pub fn is_dead(&self, a: Cell, b: Cell, player: Cell) -> bool {
        let (a, b) = if a < b { (a, b) } else { (b, a) };
        let bit = a as usize * self.n + b as usize;
        if self.dead_everywhere[bit / 64] & (1 << (bit % 64)) != 0 {
            return true;
        }
        if self.split_bits[bit / 64] & (1 << (bit % 64)) == 0 {
            return false;
        }
        match self.split.get(&(a, b)) {
            None => false,
            Some(split) => {
                let area = split.area_of[player as usize];
                area != u8::MAX && split.dead[area as usize]
            }
        }
    }

    /// True if the box that moved to `to` forms a dead pair with another box, the player on
    /// `player`: `boxes` lists the cells of the boxes before the move (the moved one is number
    /// `moved`) and `map` marks them after it. Reads the shorter of the list and the cells that
    /// form a pair the table knows with `to`, so the answer is [`PairTable::is_dead`] of `to`
    /// and some other box either way.
    #[inline]
    pub fn is_dead_with_any(
        &self,
        to: Cell,
        boxes: &[Cell],
        moved: usize,
        map: &BoxMap,
        player: Cell,
    ) -> bool {
        let t = to as usize;
        let partners = &self.partners[self.partner_starts[t] as usize..self.partner_starts[t + 1] as usize];
        if partners.len() < boxes.len() {
            partners.iter().any(|&c| map.is_box(c) && self.is_dead(to, c, player))
        } else {
            boxes.iter().enumerate().any(|(j, &c)| j != moved && self.is_dead(to, c, player))
        }
    }

    /// True if any split pair exists (then [`PairTable::is_dead`] may need the player).
    pub fn has_splits(&self) -> bool {
        !self.split.is_empty()
    }
}

/// The two-box positions one move back leads to from boxes on `a` and `b`, the player's
/// region being the cells `reaches` accepts: undone pushes (`PairMode::Push`) or undone pulls,
/// as (the moved box's new cell, the other box, the player's cell), into `moves`.
pub(crate) fn retrograde_moves(
    board: &Board,
    mode: PairMode,
    a: Cell,
    b: Cell,
    reaches: impl Fn(Cell) -> bool,
    moves: &mut Vec<(Cell, Cell, Cell)>,
) {
    moves.clear();
    for (x, other) in [(a, b), (b, a)] {
        for d in Dir::ALL {
            let next = board.neighbour(x, d);
            match mode {
                // Undoing pushes: the player stands on `next`, steps back to `beyond`,
                // and the box follows.
                PairMode::Push => {
                    if next == NO_CELL || !reaches(next) {
                        continue;
                    }
                    let beyond = board.neighbour(next, d);
                    if beyond == NO_CELL || beyond == other {
                        continue;
                    }
                    moves.push((next, other, beyond));
                }
                // Undoing pulls: the player behind the box pushes it onto `next`.
                PairMode::Pull => {
                    let behind = board.neighbour(x, d.opposite());
                    if behind == NO_CELL || !reaches(behind) {
                        continue;
                    }
                    if next == NO_CELL || next == other {
                        continue;
                    }
                    moves.push((next, other, x));
                }
            }
        }
    }
}

/// The areas the free floor falls into around two boxes alone on the board, found on demand
/// and remembered (the retrograde analyses of pairs ask for them again and again).
pub(crate) struct PairAreas {
    n: usize,
    boxes: BoxMap,
    reach: Reach,
    /// Per pair `(a, b)` with `a < b`, at `a * n + b`: 0 when its areas are not known yet, 1
    /// when the pair leaves the floor in one piece, `k + 2` when `labels[k]` holds its areas.
    area_index: Vec<u32>,
    /// Area labels of the pairs that split the floor.
    labels: Vec<Vec<u8>>,
}

impl PairAreas {
    pub(crate) fn new(n: usize) -> PairAreas {
        PairAreas {
            n,
            boxes: BoxMap::new(n),
            reach: Reach::new(n),
            area_index: vec![0; n * n],
            labels: Vec::new(),
        }
    }

    /// The area labels of the free floor with boxes on `a < b` (`u8::MAX` for the boxes'
    /// cells), or `None` when it is one area.
    pub(crate) fn get(&mut self, board: &Board, a: Cell, b: Cell) -> Option<&Vec<u8>> {
        let pair = a as usize * self.n + b as usize;
        if self.area_index[pair] == 0 {
            let adjacent = board.neighbours(a).contains(&b);
            self.area_index[pair] = 1;
            if adjacent || !ring_joins(board, a, b) || !ring_joins(board, b, a) {
                self.boxes.set(a, 0);
                self.boxes.set(b, 1);
                let mut area_of = vec![u8::MAX; self.n];
                let mut count = 0u8;
                for c in 0..self.n as Cell {
                    if area_of[c as usize] != u8::MAX || self.boxes.is_box(c) {
                        continue;
                    }
                    self.reach.fill(board, &self.boxes, c);
                    for r in self.reach.cells() {
                        area_of[r as usize] = count;
                    }
                    count = count.saturating_add(1).min(63);
                }
                self.boxes.clear(a);
                self.boxes.clear(b);
                if count > 1 {
                    self.area_index[pair] = self.labels.len() as u32 + 2;
                    self.labels.push(area_of);
                }
            }
        }
        match self.area_index[pair] {
            k @ 2.. => Some(&self.labels[k as usize - 2]),
            _ => None,
        }
    }

    /// The area (bit index) the player on `p` is in, with boxes on `a < b`.
    pub(crate) fn area(&mut self, board: &Board, a: Cell, b: Cell, p: Cell) -> u32 {
        self.get(board, a, b).map_or(0, |areas| u32::from(areas[p as usize]))
    }

    /// A cell of each area of the free floor with boxes on `a < b`, in label order.
    pub(crate) fn firsts(&mut self, board: &Board, a: Cell, b: Cell) -> Vec<Cell> {
        match self.get(board, a, b) {
            None => (0..self.n as Cell).find(|&c| c != a && c != b).into_iter().collect(),
            Some(area_of) => {
                let mut firsts = Vec::new();
                let mut seen = 0u64;
                for (c, &ar) in area_of.iter().enumerate() {
                    if ar != u8::MAX && seen & (1 << ar) == 0 {
                        seen |= 1 << ar;
                        firsts.push(c as Cell);
                    }
                }
                firsts
            }
        }
    }
}

/// Working state of the retrograde analysis.
struct Builder<'a> {
    board: &'a Board,
    mode: PairMode,
    n: usize,
    areas: PairAreas,
    /// Alive positions, per pair as in `area_index`: a bit mask of alive areas (bit 0 for
    /// pairs that do not split the floor).
    alive: Vec<u64>,
}

/// True if taking square `x` out of the floor (with `other` already out, not next to `x`)
/// cannot cut the floor around `x`: its free neighbours are joined by the ring of eight
/// squares around it. A path through `x` can then go round it, and since `other` is not next
/// to `x`, a path never goes through both in a row; so when this holds for both squares of a
/// pair, the pair leaves a connected floor connected. Diagonal squares reached from no
/// orthogonal floor neighbour count as blocked, which only makes the test say no more often.
fn ring_joins(board: &Board, x: Cell, other: Cell) -> bool {
    let mut ring = [NO_CELL; 8];
    for (k, d) in Dir::ALL.into_iter().enumerate() {
        let side = board.neighbour(x, d);
        ring[2 * k] = side;
        let turn = Dir::ALL[(k + 1) % 4];
        let next = board.neighbour(x, turn);
        let corner = if side != NO_CELL { board.neighbour(side, turn) } else { NO_CELL };
        ring[2 * k + 1] = if corner != NO_CELL {
            corner
        } else if next != NO_CELL {
            board.neighbour(next, d)
        } else {
            NO_CELL
        };
    }
    let free = |i: usize| ring[i % 8] != NO_CELL && ring[i % 8] != other;
    // Walk the ring from a blocked square (if any) and count the runs of free squares that
    // hold an orthogonal neighbour.
    let Some(first_blocked) = (0..8).find(|&i| !free(i)) else { return true };
    let mut runs_with_side = 0;
    let mut in_run_side = false;
    for step in 1..=8 {
        let i = first_blocked + step;
        if free(i) {
            in_run_side |= i % 2 == 0;
        } else {
            runs_with_side += usize::from(in_run_side);
            in_run_side = false;
        }
    }
    runs_with_side <= 1
}

impl<'a> Builder<'a> {
    fn new(board: &'a Board, mode: PairMode) -> Builder<'a> {
        let n = board.n_cells();
        Builder { board, mode, n, areas: PairAreas::new(n), alive: vec![0; n * n] }
    }

    /// True if a lone box on `cell` can never reach a target (pruned on its own).
    fn is_dead_square(&self, cell: Cell) -> bool {
        match self.mode {
            PairMode::Push => self.board.is_push_dead(cell),
            PairMode::Pull => self.board.is_pull_dead(cell),
        }
    }

    /// The area labels of the free floor with boxes on `a < b`, or `None` when it is one
    /// area.
    fn areas(&mut self, a: Cell, b: Cell) -> Option<&Vec<u8>> {
        self.areas.get(self.board, a, b)
    }

    /// The area (bit index) the player on `p` is in, with boxes on `a < b`.
    fn area(&mut self, a: Cell, b: Cell, p: Cell) -> u32 {
        self.areas.area(self.board, a, b, p)
    }

    fn build(mut self) -> PairTable {
        let board = self.board;
        let goals = match self.mode {
            PairMode::Push => board.goals().to_vec(),
            PairMode::Pull => board.start_squares().to_vec(),
        };
        // Positions to pull from: (a, b, a cell of the player's area).
        let mut queue: Vec<(Cell, Cell, Cell)> = Vec::new();
        for (i, &g) in goals.iter().enumerate() {
            for &h in &goals[i + 1..] {
                let (a, b) = (g.min(h), g.max(h));
                // Every area of the solved pair is alive: the player can end anywhere.
                for p in self.areas.firsts(board, a, b) {
                    if self.mark(a, b, p) {
                        queue.push((a, b, p));
                    }
                }
            }
        }
        let mut moves = Vec::new();
        while let Some((a, b, p)) = queue.pop() {
            // The player's region: the area of `p` when the pair splits the floor, else every
            // square but the boxes'.
            let labels = self.areas(a, b).cloned();
            let region = labels.as_ref().map_or(0, |l| l[p as usize]);
            let reaches = |c: Cell| match &labels {
                Some(l) => l[c as usize] == region,
                None => c != a && c != b,
            };
            retrograde_moves(board, self.mode, a, b, reaches, &mut moves);
            for &(moved, other, player) in &moves {
                let (a, b) = (moved.min(other), moved.max(other));
                if self.mark(a, b, player) {
                    queue.push((a, b, player));
                }
            }
        }
        self.table()
    }

    /// Marks the position alive; true if it was not.
    fn mark(&mut self, a: Cell, b: Cell, p: Cell) -> bool {
        let bit = 1u64 << self.area(a, b, p);
        let entry = &mut self.alive[a as usize * self.n + b as usize];
        let new = *entry & bit == 0;
        *entry |= bit;
        new
    }

    fn table(mut self) -> PairTable {
        let n = self.n;
        let mut dead_everywhere = vec![0u64; (n * n).div_ceil(64)];
        let mut split = HashMap::new();
        let mut split_bits = vec![0u64; (n * n).div_ceil(64)];
        let mut n_dead = 0;
        for a in 0..n as Cell {
            if self.is_dead_square(a) {
                // Dead squares are pruned on their own.
                continue;
            }
            for b in a + 1..n as Cell {
                if self.is_dead_square(b) {
                    continue;
                }
                let alive = self.alive[a as usize * n + b as usize];
                match self.areas(a, b).cloned() {
                    None => {
                        if alive == 0 {
                            let bit = a as usize * n + b as usize;
                            dead_everywhere[bit / 64] |= 1 << (bit % 64);
                            n_dead += 1;
                        }
                    }
                    Some(area_of) => {
                        let n_areas =
                            area_of.iter().filter(|&&x| x != u8::MAX).max().map_or(0, |&m| m as usize + 1);
                        let dead: Vec<bool> = (0..n_areas).map(|k| alive & (1 << k) == 0).collect();
                        let count = dead.iter().filter(|&&d| d).count();
                        if count == n_areas {
                            let bit = a as usize * n + b as usize;
                            dead_everywhere[bit / 64] |= 1 << (bit % 64);
                            n_dead += 1;
                        } else if count > 0 {
                            n_dead += count;
                            let bit = a as usize * n + b as usize;
                            split_bits[bit / 64] |= 1 << (bit % 64);
                            split.insert((a, b), Split { area_of, dead });
                        }
                    }
                }
            }
        }
        let known = |a: usize, b: usize| {
            let bit = a.min(b) * n + a.max(b);
            (dead_everywhere[bit / 64] | split_bits[bit / 64]) & (1 << (bit % 64)) != 0
        };
        let mut partner_starts = Vec::with_capacity(n + 1);
        let mut partners = Vec::new();
        for a in 0..n {
            partner_starts.push(partners.len() as u32);
            partners.extend((0..n).filter(|&b| b != a && known(a, b)).map(|b| b as Cell));
        }
        partner_starts.push(partners.len() as u32);
        PairTable { n, dead_everywhere, split, split_bits, n_dead, partner_starts, partners }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bisolve_board::Level;
    use std::collections::{HashSet, VecDeque};

    /// Whether two boxes alone, player on `p`, can reach two targets: a plain search over
    /// pushes (forward) or pulls (backward).
    fn finishable(board: &Board, mode: PairMode, a: Cell, b: Cell, p: Cell) -> bool {
        let targets = match mode {
            PairMode::Push => board.goals(),
            PairMode::Pull => board.start_squares(),
        };
        let n = board.n_cells();
        let mut boxes = BoxMap::new(n);
        let mut reach = Reach::new(n);
        let mut seen = HashSet::new();
        let mut queue = VecDeque::from([(a, b, p)]);
        while let Some((a, b, p)) = queue.pop_front() {
            if targets.contains(&a) && targets.contains(&b) {
                return true;
            }
            boxes.set(a, 0);
            boxes.set(b, 1);
            let min = reach.fill(board, &boxes, p);
            if !seen.insert((a.min(b), a.max(b), min)) {
                boxes.clear(a);
                boxes.clear(b);
                continue;
            }
            let mut next = Vec::new();
            for (x, other) in [(a, b), (b, a)] {
                for d in Dir::ALL {
                    let ahead = board.neighbour(x, d);
                    let behind = board.neighbour(x, d.opposite());
                    match mode {
                        PairMode::Push => {
                            if behind != NO_CELL
                                && reach.contains(behind)
                                && ahead != NO_CELL
                                && ahead != other
                            {
                                next.push((ahead, other, x));
                            }
                        }
                        PairMode::Pull => {
                            let beyond = if ahead == NO_CELL { NO_CELL } else { board.neighbour(ahead, d) };
                            if ahead != NO_CELL
                                && reach.contains(ahead)
                                && beyond != NO_CELL
                                && beyond != other
                            {
                                next.push((ahead, other, beyond));
                            }
                        }
                    }
                }
            }
            boxes.clear(a);
            boxes.clear(b);
            queue.extend(next);
        }
        false
    }

    /// Every pair of cells and every player cell: the table agrees with the plain search.
    fn check_against_search(text: &str) {
        let level = Level::parse(text).expect("valid level");
        let board = level.board();
        for mode in [PairMode::Push, PairMode::Pull] {
            let table = PairTable::new(board, mode).expect("a small board gets a table");
            let n = board.n_cells() as Cell;
            let mut dead = 0;
            for a in 0..n {
                for b in a + 1..n {
                    let single_dead = |c: Cell| match mode {
                        PairMode::Push => board.is_push_dead(c),
                        PairMode::Pull => board.is_pull_dead(c),
                    };
                    if single_dead(a) || single_dead(b) {
                        continue;
                    }
                    for p in (0..n).filter(|&p| p != a && p != b) {
                        let expected = !finishable(board, mode, a, b, p);
                        assert_eq!(
                            table.is_dead(a, b, p),
                            expected,
                            "{mode:?} boxes {a} {b} player {p}\n{text}"
                        );
                        dead += usize::from(expected);
                    }
                }
            }
            assert!(dead > 0, "{mode:?}: the level should have some dead pairs\n{text}");
            // A moved box against sets of others, small and large (so both the list of boxes
            // and the partners are scanned): dead when some pair is.
            let mut map = BoxMap::new(n as usize);
            let mut seed = 0x9e37_79b9_7f4a_7c15u64;
            for to in 0..n {
                for size in [1, 2, n as usize / 2, n as usize - 2] {
                    seed =
                        seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
                    let mut others: Vec<Cell> = (0..n).filter(|&c| c != to).collect();
                    let k = (seed >> 33) as usize % others.len();
                    others.rotate_left(k);
                    others.truncate(size);
                    let Some(p) = (0..n).find(|&p| p != to && !others.contains(&p)) else { continue };
                    let mut boxes = vec![to];
                    boxes.extend(&others);
                    map.set_all(&boxes);
                    let expected = others.iter().any(|&c| table.is_dead(to, c, p));
                    assert_eq!(
                        table.is_dead_with_any(to, &boxes, 0, &map, p),
                        expected,
                        "{mode:?} {to} {others:?}"
                    );
                    map.clear_all(&boxes);
                }
            }
        }
    }

    #[test]
    fn table_agrees_with_a_plain_search_in_a_room_with_a_pillar() {
        check_against_search("#######\n#.  $ #\n# # $ #\n#@   .#\n#######\n");
    }

    #[test]
    fn table_agrees_with_a_plain_search_where_two_boxes_split_the_floor() {
        // A one-wide passage: two boxes in it cut the floor in two, and which side the
        // player is on decides the pair's fate.
        check_against_search("########\n#.   $ #\n### ####\n#@ $  .#\n########\n");
    }

    /// The number of pairs that pass the ring test on `text`'s board; panics if one of them
    /// splits the floor (flood fill).
    fn ring_test_passes(text: &str) -> usize {
        let level = Level::parse(text).expect("valid level");
        let board = level.board();
        let n = board.n_cells() as Cell;
        let mut boxes = BoxMap::new(n as usize);
        let mut reach = Reach::new(n as usize);
        let mut passed = 0;
        for a in 0..n {
            for b in a + 1..n {
                let adjacent = board.neighbours(a).contains(&b);
                if adjacent || !ring_joins(board, a, b) || !ring_joins(board, b, a) {
                    continue;
                }
                passed += 1;
                boxes.set(a, 0);
                boxes.set(b, 1);
                let free = (0..n).find(|&c| c != a && c != b).expect("more than two squares");
                reach.fill(board, &boxes, free);
                let one_area = (0..n).all(|c| c == a || c == b || reach.contains(c));
                boxes.clear(a);
                boxes.clear(b);
                assert!(one_area, "{text}: squares {a} and {b} split the floor");
            }
        }
        passed
    }

    proptest::proptest! {
        #![proptest_config(proptest::test_runner::Config { cases: 200, ..Default::default() })]

        /// Random rooms of up to 7 x 7 squares (walls anywhere inside, the floor the player's
        /// area once the level is normalized): no pair that passes the ring test splits it.
        #[test]
        fn the_ring_test_holds_on_random_rooms(
            walls in proptest::bits::u64::between(0, 49),
            box_at in 0usize..49,
        ) {
            let mut rows = vec!["#########".to_string()];
            for y in 0..7 {
                let mut row = String::from("#");
                for x in 0..7 {
                    let i = y * 7 + x;
                    let square = if i == box_at {
                        '*'
                    } else if i == (box_at + 1) % 49 {
                        '@'
                    } else if walls & (1 << i) != 0 {
                        '#'
                    } else {
                        ' '
                    };
                    row.push(square);
                }
                row.push('#');
                rows.push(row);
            }
            rows.push("#########".to_string());
            let text = rows.join("\n") + "\n";
            if Level::parse(&text).is_ok() {
                ring_test_passes(&text);
            }
        }
    }

    #[test]
    fn the_ring_test_never_passes_a_pair_that_splits_the_floor() {
        // Rooms, pillars, one-wide passages and diagonal gaps: for every pair of squares not
        // next to each other that both pass the ring test, a flood fill finds one area.
        let boards = [
            "#######\n#.  $ #\n# # $ #\n#@   .#\n#######\n",
            "########\n#.   $ #\n### ####\n#@ $  .#\n########\n",
            "#########\n#@  #   #\n# # # # #\n#   $ #.#\n## ##  ##\n#   #   #\n#########\n",
            "#######\n#@ #  #\n#  # $#\n##   ##\n#  #. #\n#######\n",
        ];
        let passed: usize = boards.iter().map(|text| ring_test_passes(text)).sum();
        assert!(passed > 0);
    }
}
