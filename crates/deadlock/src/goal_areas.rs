//! Goal areas: a part of the board round a cluster of goals that can no longer be finished,
//! whatever the rest of the level does (forward search).
//!
//! An *area* W is a set of floor squares: the squares within [`RADII`] steps of a cluster of
//! goals (walls blocking the way). The test searches W alone, in an abstraction that lets
//! boxes leave and enter it:
//! - a position is the boxes in W and the player's region in W; the outside is free floor,
//!   and once the player can step out of W it can come back in at any border square;
//! - a move pushes a box of W (the player on the square behind it, in its region, or outside
//!   when it can get out), which may take the box out of W (it is then forgotten), or brings
//!   a new box in at a border square from the outside square next to it (the player behind
//!   it), as many as the level has boxes;
//! - no box is put on a dead square, nor frozen off a goal (the freeze test on W's boxes);
//! - W is finished when its boxes stand exactly on its goals.
//!
//! Why it is sound: follow a solution of the whole level, looking only at W. Boxes leave W
//! and come in only across its border, emptying the outside never makes a push illegal nor
//! shrinks the player's region, and a box the freeze test calls stuck among W's boxes alone is
//! stuck with more boxes round it. So the solution, seen through W, is a path of this search,
//! and it ends with W finished. If the search runs out of positions without finishing W, the
//! position has no solution.
//!
//! Why it pays: the forward search proves such an area dead only by exhausting everything
//! the rest of the level can do meanwhile, boxes on goals pushed off and back included. On
//! Sasquatch 38 the 258th push of the search's path leaves the left-hand goal area (57
//! squares, one border square at two steps from the goals) dead: the test proves it in
//! thousands of positions; the search itself spent its whole run below that push
//! (`benches/results/2026-11-27-dead-roots.txt`).
//!
//! The test is asked after a push onto a goal of an area; verdicts are cached per thread
//! by the area, its boxes and the player's region in it (a search that gave up counts as
//! "not dead"). Each area's searches have a budget of positions that shrinks while they give
//! up and grows while they prove deadlocks ([`START_STATES`]), and all searches together a
//! share of the main search's work ([`FREE_STATES`], [`CALLS_PER_STATE`]), so a level where
//! the test never pays costs little: at a fixed budget of 2M states on one thread, XSokoban
//! 1-45 and Sasquatch took 0.4% more time than without it.

use std::collections::{HashSet, VecDeque};
use std::hash::BuildHasherDefault;

use crate::freeze::FreezeCheck;
use crate::subset::VerdictCache;
use bisolve_board::{Board, BoxMap, Cell, Dir, PassThrough, NO_CELL};

/// The distances from the goals (steps over floor) that make areas: each connected set of
/// the squares within `r` steps of some goal is an area, for each `r` here.
pub const RADII: [u32; 3] = [1, 2, 3];

/// Areas of more floor squares than this are left out (the search would be as hard as the
/// level's).
pub const MAX_CELLS: usize = 160;

/// Areas of more than this share of the board's floor (in percent) are left out.
pub const MAX_SHARE: usize = 60;

/// An area is left out when it holds an area already taken (of a smaller radius) that has at
/// least this share (in percent) of its squares: their verdicts would be nearly the same.
pub const NEAR_SAME: usize = 90;

/// The most positions one search of an area visits before it gives up without a verdict, at
/// first. Each area has its own budget (per thread), which starts here, halves each time a
/// search of the area gives up (down to [`MIN_STATES`]) and doubles each time one proves a
/// deadlock (up to [`MAX_STATES`]): an area whose searches cost without paying costs little,
/// and one whose searches pay may search further.
pub const START_STATES: usize = 10_000;

/// See [`START_STATES`].
pub const MIN_STATES: usize = 2_000;

/// See [`START_STATES`].
pub const MAX_STATES: usize = 100_000;

/// The searches may visit this many positions in all, plus one for every
/// [`CALLS_PER_STATE`] positions the test is asked about; a cache miss past that share gets
/// no search (and no verdict). It counts positions, not time, so one thread stays
/// deterministic.
pub const FREE_STATES: u64 = 20_000;

/// See [`FREE_STATES`].
pub const CALLS_PER_STATE: u64 = 32;

/// One area.
#[derive(Debug, Clone)]
struct Area {
    /// Its squares, ascending.
    cells: Vec<Cell>,
    /// Per cell of the board: in the area.
    inside: Vec<bool>,
    /// Its goals.
    n_goals: usize,
    /// Its squares next to a floor square outside it.
    border: Vec<Cell>,
    /// The ways a box can come in: the square it enters, the outside square it comes from,
    /// and where the player stands to push it (inside or outside).
    entries: Vec<(Cell, Cell, Cell)>,
    /// A floor square outside the area, which names the player's position when it is outside
    /// and every border square is taken.
    outside: Cell,
    /// Salt of the area's cache keys.
    salt: u128,
}

/// The goal areas of one board, computed once.
#[derive(Debug, Clone)]
pub struct GoalAreas {
    areas: Vec<Area>,
    /// Per cell: the areas of which it is a goal, smallest first.
    of_goal: Vec<Vec<u16>>,
}

impl GoalAreas {
    /// The areas of `board` (see [`RADII`]); none when every candidate is too large.
    pub fn new(board: &Board) -> GoalAreas {
        let n = board.n_cells();
        let mut areas: Vec<Area> = Vec::new();
        let mut dist = vec![u32::MAX; n];
        let mut queue = VecDeque::new();
        for &g in board.goals() {
            dist[g as usize] = 0;
            queue.push_back(g);
        }
        let max_r = RADII.iter().copied().max().unwrap_or(0);
        while let Some(c) = queue.pop_front() {
            let d = dist[c as usize];
            if d == max_r {
                continue;
            }
            for &nb in board.neighbours(c) {
                if nb != NO_CELL && dist[nb as usize] == u32::MAX {
                    dist[nb as usize] = d + 1;
                    queue.push_back(nb);
                }
            }
        }
        for r in RADII {
            let mut label = vec![false; n];
            for &g in board.goals() {
                if label[g as usize] {
                    continue;
                }
                let mut cells = vec![g];
                label[g as usize] = true;
                let mut head = 0;
                while head < cells.len() {
                    for &nb in board.neighbours(cells[head]) {
                        if nb != NO_CELL && !label[nb as usize] && dist[nb as usize] <= r {
                            label[nb as usize] = true;
                            cells.push(nb);
                        }
                    }
                    head += 1;
                }
                cells.sort_unstable();
                if cells.len() > MAX_CELLS || cells.len() * 100 > n * MAX_SHARE {
                    continue;
                }
                // The same area, or one barely larger than an area it holds: its verdicts would
                // be nearly the same.
                let holds = |a: &Area| a.cells.iter().all(|c| cells.binary_search(c).is_ok());
                if areas.iter().any(|a| holds(a) && a.cells.len() * 100 >= cells.len() * NEAR_SAME) {
                    continue;
                }
                let salt = board.zobrist().player_key(cells[0]).0.rotate_left(17 + 7 * areas.len() as u32);
                areas.push(Area::new(board, cells, salt));
            }
        }
        let mut of_goal = vec![Vec::new(); n];
        for (i, a) in areas.iter().enumerate() {
            for &c in &a.cells {
                if board.is_goal(c) {
                    of_goal[c as usize].push(i as u16);
                }
            }
        }
        for list in &mut of_goal {
            list.sort_by_key(|&i| areas[i as usize].cells.len());
        }
        GoalAreas { areas, of_goal }
    }

    /// True if the board has no area.
    pub fn is_empty(&self) -> bool {
        self.areas.is_empty()
    }

    /// How many areas the board has.
    pub fn len(&self) -> usize {
        self.areas.len()
    }

    /// The squares of area `i`, ascending.
    pub fn cells(&self, i: usize) -> &[Cell] {
        &self.areas[i].cells
    }

    /// The goals of area `i`.
    pub fn goals(&self, i: usize) -> usize {
        self.areas[i].n_goals
    }

    /// The border squares of area `i` (next to a floor square outside it).
    pub fn border(&self, i: usize) -> &[Cell] {
        &self.areas[i].border
    }
}

impl Area {
    fn new(board: &Board, cells: Vec<Cell>, salt: u128) -> Area {
        let n = board.n_cells();
        let mut inside = vec![false; n];
        for &c in &cells {
            inside[c as usize] = true;
        }
        let is_out = |c: Cell| c != NO_CELL && !inside[c as usize];
        let border: Vec<Cell> =
            cells.iter().copied().filter(|&c| board.neighbours(c).iter().any(|&nb| is_out(nb))).collect();
        let mut entries = Vec::new();
        for &e in &border {
            if board.is_push_dead(e) {
                continue;
            }
            for d in Dir::ALL {
                let from = board.neighbour(e, d.opposite());
                if !is_out(from) {
                    continue;
                }
                let stand = board.neighbour(from, d.opposite());
                if stand != NO_CELL {
                    entries.push((e, from, stand));
                }
            }
        }
        let outside = (0..n as Cell).find(|&c| !inside[c as usize]).unwrap_or(NO_CELL);
        let n_goals = cells.iter().filter(|&&c| board.is_goal(c)).count();
        Area { cells, inside, n_goals, border, entries, outside, salt }
    }
}

/// Working memory of the goal-area test, one per thread.
#[derive(Debug)]
pub struct AreaCheck {
    /// The area's boxes alone.
    map: BoxMap,
    freeze: FreezeCheck,
    cache: VerdictCache,
    seen: HashSet<u128, BuildHasherDefault<PassThrough>>,
    /// Positions to expand, by how far they are from finishing the area (its empty goals plus
    /// its boxes off goals), each a stack of the boxes, the player's square and the number
    /// of boxes: the search goes best first, so that a way to finish an area that can be
    /// finished comes early (a dead one costs every position whatever the order).
    open: Vec<Vec<Cell>>,
    current: Vec<Cell>,
    /// The moves of the position being expanded (see [`AreaCheck::search`]).
    moves: Vec<(Cell, Cell, Cell)>,
    kept: Vec<Cell>,
    /// The player's region in the area, by stamps.
    region: Vec<u32>,
    stamp: u32,
    stack: Vec<Cell>,
    /// Per area: the most positions one of its searches may visit (see [`START_STATES`]).
    budget: Vec<usize>,
    /// Positions the test was asked about.
    calls: u64,
    /// Positions the searches visited.
    spent: u64,
    /// Boxes of the level: no more can be in an area.
    n_boxes: usize,
    /// Areas looked up (not finished).
    pub checks: u64,
    /// Searches run (cache misses).
    pub searches: u64,
    /// Searches that saw their area's budget of positions without a verdict, and cache misses
    /// left unsearched past the searches' share ([`FREE_STATES`]).
    pub gave_up: u64,
    /// Deadlocks proved (cached verdicts included).
    pub proved: u64,
}

impl AreaCheck {
    /// Working memory for `board`.
    pub fn new(board: &Board) -> AreaCheck {
        let n = board.n_cells();
        AreaCheck {
            map: BoxMap::new(n),
            freeze: FreezeCheck::default(),
            cache: VerdictCache::default(),
            seen: HashSet::default(),
            open: Vec::new(),
            current: Vec::new(),
            moves: Vec::new(),
            kept: Vec::new(),
            region: vec![0; n],
            stamp: 0,
            stack: Vec::new(),
            budget: Vec::new(),
            calls: 0,
            spent: 0,
            n_boxes: board.n_boxes(),
            checks: 0,
            searches: 0,
            gave_up: 0,
            proved: 0,
        }
    }

    /// True if a push onto `to`, giving the position `boxes` with the player in the region of
    /// `player`, leaves an area of which `to` is a goal unable to be finished.
    pub fn is_dead(
        &mut self,
        areas: &GoalAreas,
        board: &Board,
        boxes: &BoxMap,
        to: Cell,
        player: Cell,
    ) -> bool {
        self.calls += 1;
        if self.budget.len() < areas.len() {
            self.budget.resize(areas.len(), START_STATES);
        }
        for &i in &areas.of_goal[to as usize] {
            let area = &areas.areas[i as usize];
            self.kept.clear();
            self.kept.extend(area.cells.iter().copied().filter(|&c| boxes.is_box(c)));
            if self.kept.len() == area.n_goals && self.kept.iter().all(|&c| board.is_goal(c)) {
                continue;
            }
            self.checks += 1;
            // The verdict belongs to the area's boxes and the player's region in it, so any
            // square of that region keys it: the child's player square first, which spares
            // the fill when the same content comes back.
            let zobrist = board.zobrist();
            let quick = zobrist.fingerprint(&self.kept, player).0 ^ area.salt;
            let dead = match self.cache.get(quick) {
                Some(dead) => dead,
                None if self.spent > FREE_STATES + self.calls / CALLS_PER_STATE => {
                    self.gave_up += 1;
                    continue;
                }
                None => {
                    self.map.set_all(&self.kept);
                    let (region, _) = self.fill(board, area, player);
                    self.map.clear_all(&self.kept);
                    let key = zobrist.fingerprint(&self.kept, region).0 ^ area.salt;
                    let dead = match self.cache.get(key) {
                        Some(dead) => dead,
                        None => {
                            let gave_up = self.gave_up;
                            let budget = self.budget[i as usize];
                            let dead = self.search(board, area, region, budget);
                            self.budget[i as usize] = if self.gave_up > gave_up {
                                (budget / 2).max(MIN_STATES)
                            } else if dead {
                                (budget * 2).min(MAX_STATES)
                            } else {
                                budget
                            };
                            // A search that gave up is not asked again about the same content.
                            self.cache.insert(key, dead);
                            dead
                        }
                    };
                    self.cache.insert(quick, dead);
                    dead
                }
            };
            if dead {
                self.proved += 1;
                return true;
            }
        }
        false
    }

    /// The verdict of a fresh search of area `i` (no cache, no share): `Some(true)` if its
    /// goals can no longer all be filled, `Some(false)` if the search filled them (or they
    /// are full), `None` past [`MAX_STATES`] positions. For tests and measurements.
    pub fn verdict(
        &mut self,
        areas: &GoalAreas,
        board: &Board,
        boxes: &BoxMap,
        player: Cell,
        i: usize,
    ) -> Option<bool> {
        let area = &areas.areas[i];
        self.kept.clear();
        self.kept.extend(area.cells.iter().copied().filter(|&c| boxes.is_box(c)));
        self.seen.clear();
        if self.kept.len() == area.n_goals && self.kept.iter().all(|&c| board.is_goal(c)) {
            return Some(false);
        }
        self.map.set_all(&self.kept);
        let (region, _) = self.fill(board, area, player);
        self.map.clear_all(&self.kept);
        let gave_up = self.gave_up;
        let dead = self.search(board, area, region, MAX_STATES);
        if self.gave_up > gave_up {
            None
        } else {
            Some(dead)
        }
    }

    /// The positions the last search visited.
    pub fn states_seen(&self) -> usize {
        self.seen.len()
    }

    /// Marks the player's region in the area from `from` (inside or outside it) with the
    /// area's boxes in `map`; returns the square that names it (its smallest square, or the
    /// area's outside square when the player is outside and every border square is taken) and
    /// whether the player can get out.
    fn fill(&mut self, board: &Board, area: &Area, from: Cell) -> (Cell, bool) {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.region.fill(0);
            self.stamp = 1;
        }
        let stamp = self.stamp;
        self.stack.clear();
        let mut out = !area.inside[from as usize];
        let mut min = NO_CELL;
        if !out {
            self.region[from as usize] = stamp;
            self.stack.push(from);
            min = from;
        }
        let mut border_done = false;
        loop {
            while let Some(c) = self.stack.pop() {
                for &nb in board.neighbours(c) {
                    if nb == NO_CELL || self.region[nb as usize] == stamp {
                        continue;
                    }
                    if !area.inside[nb as usize] {
                        out = true;
                    } else if !self.map.is_box(nb) {
                        self.region[nb as usize] = stamp;
                        min = min.min(nb);
                        self.stack.push(nb);
                    }
                }
            }
            if !out || border_done {
                break;
            }
            border_done = true;
            for &c in &area.border {
                if self.region[c as usize] != stamp && !self.map.is_box(c) {
                    self.region[c as usize] = stamp;
                    min = min.min(c);
                    self.stack.push(c);
                }
            }
        }
        (if min == NO_CELL { area.outside } else { min }, out)
    }

    /// Whether the player can stand on `c` in the region last filled (`out`: it can get out).
    #[inline]
    fn reaches(&self, area: &Area, c: Cell, out: bool) -> bool {
        if area.inside[c as usize] {
            self.region[c as usize] == self.stamp
        } else {
            out
        }
    }

    /// Searches the area from its boxes in `kept` and the player's region named by `region`:
    /// true if it runs out of positions without finishing the area.
    fn search(&mut self, board: &Board, area: &Area, region: Cell, max_states: usize) -> bool {
        self.searches += 1;
        let zobrist = board.zobrist();
        self.seen.clear();
        for bucket in &mut self.open {
            bucket.clear();
        }
        let on = self.kept.iter().filter(|&&c| board.is_goal(c)).count();
        let h = area.n_goals + self.kept.len() - 2 * on;
        if self.open.len() <= area.n_goals + self.n_boxes {
            self.open.resize(area.n_goals + self.n_boxes + 1, Vec::new());
        }
        self.open[h].extend_from_slice(&self.kept);
        self.open[h].push(region);
        self.open[h].push(self.kept.len() as Cell);
        let mut low = h;
        self.seen.insert(zobrist.fingerprint(&self.kept, region).0);
        let mut moves = std::mem::take(&mut self.moves);
        let mut verdict = Some(true);
        'search: loop {
            while low < self.open.len() && self.open[low].is_empty() {
                low += 1;
            }
            if low == self.open.len() {
                break;
            }
            if self.seen.len() > max_states {
                verdict = None;
                break;
            }
            let bucket = &mut self.open[low];
            let k = bucket.pop().unwrap_or(0) as usize;
            let player = bucket.pop().unwrap_or(NO_CELL);
            self.current.clear();
            self.current.extend_from_slice(&bucket[bucket.len() - k..]);
            bucket.truncate(bucket.len() - k);
            self.current.push(player);
            let on = self.current[..k].iter().filter(|&&c| board.is_goal(c)).count();
            // The key of the boxes alone (the player's key taken out again).
            let boxes_fp = zobrist.fingerprint(&self.current[..k], player) ^ zobrist.player_key(player);
            self.map.set_all(&self.current[..k]);
            let (_, out) = self.fill(board, area, player);
            // The moves: the box leaving (or NO_CELL), the box arriving (or NO_CELL), and
            // where the player ends.
            moves.clear();
            for &b in &self.current[..k] {
                for d in Dir::ALL {
                    let stand = board.neighbour(b, d.opposite());
                    let to = board.neighbour(b, d);
                    if stand == NO_CELL || to == NO_CELL || !self.reaches(area, stand, out) {
                        continue;
                    }
                    if self.map.is_box(to) || board.is_push_dead(to) {
                        continue;
                    }
                    let arrive = if area.inside[to as usize] { to } else { NO_CELL };
                    moves.push((b, arrive, b));
                }
            }
            if k < self.n_boxes {
                for &(e, from, stand) in &area.entries {
                    if !self.map.is_box(e) && self.reaches(area, stand, out) {
                        moves.push((NO_CELL, e, from));
                    }
                }
            }
            for &(leave, arrive, after) in &moves {
                if leave != NO_CELL {
                    self.map.clear(leave);
                }
                if arrive != NO_CELL {
                    self.map.set(arrive, 0);
                }
                let frozen = arrive != NO_CELL && self.freeze.is_deadlock(board, &self.map, arrive);
                let named = if frozen { NO_CELL } else { self.fill(board, area, after).0 };
                if arrive != NO_CELL {
                    self.map.clear(arrive);
                }
                if leave != NO_CELL {
                    self.map.set(leave, 0);
                }
                if frozen {
                    continue;
                }
                let n_child = k - usize::from(leave != NO_CELL) + usize::from(arrive != NO_CELL);
                let on_child = on - usize::from(leave != NO_CELL && board.is_goal(leave))
                    + usize::from(arrive != NO_CELL && board.is_goal(arrive));
                // How far from finished: 0 exactly when the boxes stand on all the goals.
                let h = area.n_goals + n_child - 2 * on_child;
                if h == 0 {
                    verdict = Some(false);
                    self.map.clear_all(&self.current[..k]);
                    break 'search;
                }
                let mut fp = boxes_fp ^ zobrist.player_key(named);
                if leave != NO_CELL {
                    fp ^= zobrist.box_key(leave);
                }
                if arrive != NO_CELL {
                    fp ^= zobrist.box_key(arrive);
                }
                if self.seen.insert(fp.0) {
                    low = low.min(h);
                    let bucket = &mut self.open[h];
                    bucket.extend(self.current[..k].iter().copied().filter(|&c| c != leave));
                    if arrive != NO_CELL {
                        bucket.push(arrive);
                    }
                    bucket.push(named);
                    bucket.push(n_child as Cell);
                }
            }
            self.map.clear_all(&self.current[..k]);
        }
        self.moves = moves;
        self.spent += self.seen.len() as u64;
        if verdict.is_none() {
            self.gave_up += 1;
        }
        verdict == Some(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bisolve_board::Level;

    /// A position the forward search reached on a generated level (`bisolve generate --seed 11
    /// --size 12x8 --boxes 6 --min-pushes 30`, level 6), with every other test on and none
    /// calling it dead. A plain search of the whole position finds no solution; the area
    /// round the goals of the pocket at the bottom left, searched alone, cannot be finished.
    const POCKET: &str = "\
###########
#  *@  .  #
#* $    $ #
#  ########
#.*#
# *#
####
";

    /// The level of `text`, its areas, a check and the start's boxes on a map.
    fn setup(text: &str) -> (Level, GoalAreas, AreaCheck, BoxMap) {
        let level = Level::parse(text).expect("valid level");
        let board = level.board();
        let areas = GoalAreas::new(board);
        let check = AreaCheck::new(board);
        let mut map = BoxMap::new(board.n_cells());
        map.set_all(&level.start().boxes);
        (level, areas, check, map)
    }

    /// The test's verdict on the start of `text`, taking each box on a goal in turn as the
    /// one just pushed, and the check afterwards.
    fn dead(text: &str) -> (bool, AreaCheck) {
        let (level, areas, mut check, map) = setup(text);
        let (board, start) = (level.board(), level.start());
        let dead = start
            .boxes
            .iter()
            .filter(|&&b| board.is_goal(b))
            .any(|&to| check.is_dead(&areas, board, &map, to, start.player));
        (dead, check)
    }

    #[test]
    fn a_pocket_filled_in_the_wrong_order_is_dead() {
        let (dead, check) = dead(POCKET);
        assert!(dead);
        assert_eq!(check.proved, 1);
        assert!(check.searches >= 1);
    }

    #[test]
    fn a_fresh_search_of_each_area_agrees() {
        // Some area of the pocket is dead; a fresh search of each gives a verdict in budget.
        let (level, areas, mut check, map) = setup(POCKET);
        let board = level.board();
        let verdicts: Vec<Option<bool>> =
            (0..areas.len()).map(|i| check.verdict(&areas, board, &map, level.start().player, i)).collect();
        assert!(verdicts.contains(&Some(true)), "{verdicts:?}");
        assert!(verdicts.iter().all(Option::is_some), "{verdicts:?}");
        assert!(check.states_seen() <= MAX_STATES + 1);
    }

    #[test]
    fn the_verdict_comes_from_the_cache_the_second_time() {
        let (level, areas, mut check, map) = setup(POCKET);
        let board = level.board();
        let to = board.cell(2, 5).expect("floor");
        let player = level.start().player;
        assert!(check.is_dead(&areas, board, &map, to, player));
        let searches = check.searches;
        assert!(check.is_dead(&areas, board, &map, to, player));
        assert_eq!((check.searches, check.proved), (searches, 2));
    }

    #[test]
    fn a_pocket_that_can_still_be_filled_is_not_dead() {
        // The start of the generated level: the pocket holds one box, on its back goal, and
        // the level has a solution of 33 pushes.
        let start = "\
###########
#  .   .$@#
#. $ $ $  #
# $########
#..#
# *#
####
";
        let (dead, check) = dead(start);
        assert!(!dead);
        assert!(check.searches >= 1);
    }

    #[test]
    fn a_wrong_fill_that_looks_open_is_dead_too() {
        // The pocket's mouth empty and a box above it, which looks as if it could still go
        // in; `bisolve` proves the whole position unsolvable, and so does the area.
        let closed = "\
###########
#  *@  .  #
#* $    $ #
# $########
#..#
# *#
####
";
        assert!(dead(closed).0);
    }

    #[test]
    fn areas_are_local_and_nested_areas_are_kept_apart() {
        let level = Level::parse(POCKET).expect("valid level");
        let board = level.board();
        let areas = GoalAreas::new(board);
        assert!(!areas.is_empty());
        for i in 0..areas.len() {
            let cells = areas.cells(i);
            assert!(cells.len() * 100 <= board.n_cells() * MAX_SHARE, "area {i} is most of the board");
            assert!(cells.windows(2).all(|w| w[0] < w[1]));
            assert!(areas.goals(i) > 0);
            for j in 0..i {
                assert_ne!(areas.cells(j), cells, "areas {j} and {i} are the same");
            }
        }
        // Every area holds its border squares, each next to a floor square outside it.
        for i in 0..areas.len() {
            for &c in areas.border(i) {
                assert!(areas.cells(i).binary_search(&c).is_ok());
                assert!(board
                    .neighbours(c)
                    .iter()
                    .any(|&n| n != NO_CELL && areas.cells(i).binary_search(&n).is_err()));
            }
        }
    }

    #[test]
    fn a_finished_area_is_never_searched() {
        // The area round the goal at the bottom left holds its box.
        let (level, areas, mut check, map) = setup("########\n#@ $  .#\n#*######\n########\n");
        let board = level.board();
        assert!(!areas.is_empty());
        let to = board.cell(1, 2).expect("floor");
        assert!(!check.is_dead(&areas, board, &map, to, level.start().player));
        assert_eq!((check.checks, check.searches), (0, 0));
    }
}
