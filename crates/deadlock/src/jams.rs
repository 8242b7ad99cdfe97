//! Jams: boxes pushed together so tightly that, alone on the board, none of them can ever get
//! away from the squares around them, while some of them stand off goals (forward search), and
//! the mirror for pulls, with start squares for goals (backward search).
//!
//! After a push, the test takes the boxes around the one just pushed: those joined to it
//! through boxes on neighbouring squares, diagonals included (at most [`MAX_BOXES`], nearest
//! first). From three boxes on (two are the pair tables' job), it marks the squares within
//! [`RADIUS`] steps of them (walls blocking the way) as their *window*, and searches the
//! pushes of those boxes alone, the others removed ([`crate::subset`]), for a position in which
//! one of them has left the window or all of them stand on goals. If there is none, the state
//! is dead.
//!
//! Why: in a solution every box ends on a goal. Follow the kept boxes along it. Either one of
//! them leaves the window at some push, or none ever does and they all end on goals inside
//! it. The kept boxes' pushes, replayed alone, are a path of the search (removing boxes never
//! makes a push illegal), so it meets such a position unless the start already is one, which
//! the test rules out (every kept box is in the window, and not all are on goals).
//!
//! Pulling is the mirror image: the backward search must bring every box onto a start square,
//! removing boxes never makes a pull illegal either, and the search pulls.
//!
//! The test is the general form of the closed jams that the freeze test misses because one
//! box of the knot can still move a square or two: three boxes wedged into a dead-end pocket,
//! or a block that can only be pushed deeper into a corner. Verdicts are cached per thread under
//! the kept boxes and the player's region among them (keyed first by the square that names the
//! child's player region in the whole position, so a knot seen again costs one lookup and no
//! flood fill), like the sealed-goal test's.
//!
//! Boxes frozen on goals (they never move again) in and near the knot are not kept but
//! *fixed*: they stand on the board as walls in the search ([`crate::subset`]), so a knot
//! wedged against a packed goal area is seen as the real position has it. They count
//! towards [`MIN_BOXES`] and [`MAX_BOXES`] as before, and the verdict is keyed by them too.

use crate::pairs::PairMode;
use crate::subset::{fixed_key, fixed_near, Outcome, SubsetSearch, VerdictCache};
use bisolve_board::{Board, BoxMap, Cell, NO_CELL};

/// How far (in steps over floor, walls blocking) from the kept boxes their window reaches.
pub const RADIUS: u32 = 2;

/// Fewer boxes around the one pushed than this are not tested (pairs have their own table).
pub const MIN_BOXES: usize = 3;

/// The most boxes one search keeps (the first found outwards from the one pushed); more are
/// left out, which only makes the test weaker.
pub const MAX_BOXES: usize = 8;

/// The most states one search visits before it gives up without a verdict.
pub const MAX_STATES: usize = 400;

/// The searches may visit this many states in all (fewer on boards of over 100 cells:
/// [`FREE_WORK`]), plus one for every [`CALLS_PER_STATE`] positions the test is asked about; a
/// cache miss past that share gets no search (and no verdict). Where knots of many boxes are
/// everywhere and few of them are jams (a room full of boxes), the searches would otherwise
/// cost several times the main search: Microban 146, 12 boxes in a 45-square room, went from
/// 1.6 s to 9.3 s with every portfolio member on one thread. The share counts states, not
/// time, so one thread stays deterministic.
pub const FREE_STATES: u64 = 50_000;

/// The free states times the board's cells at most: a search state costs a flood fill of the
/// board, and on a board of 16,000 cells 50,000 of them would take seconds in one expansion.
pub const FREE_WORK: u64 = 5_000_000;

/// See [`FREE_STATES`].
pub const CALLS_PER_STATE: u64 = 2;

/// Working memory of the jam test, one per thread.
#[derive(Debug)]
pub struct JamCheck {
    /// Pushes (targets: goals) or pulls (targets: start squares).
    mode: PairMode,
    search: SubsetSearch,
    /// Verdicts by the kept boxes and a square of the player's region.
    cache: VerdictCache,
    kept: Vec<Cell>,
    /// Boxes frozen on goals in and near the knot, walls for the search.
    fixed: Vec<Cell>,
    /// Per cell: the floor squares of the eight around it ([`NO_CELL`] for walls), built on
    /// the first call (a check serves one board).
    around: Vec<[Cell; 8]>,
    /// Per cell: `stamp` when it is in the current window.
    window: Vec<u32>,
    stamp: u32,
    /// Breadth-first queue for the window: cell and distance.
    queue: Vec<(Cell, u32)>,
    /// Positions the test was asked about.
    calls: u64,
    /// States the searches visited.
    spent: u64,
    /// The free states of this board (see [`FREE_STATES`]).
    free: u64,
    /// Knots of at least [`MIN_BOXES`] boxes not all on goals that were looked up.
    pub checks: u64,
    /// Searches run (cache misses).
    pub searches: u64,
    /// Searches that saw [`MAX_STATES`] states without a verdict, and cache misses left
    /// unsearched past the searches' share ([`FREE_STATES`]).
    pub gave_up: u64,
    /// Searches run with frozen boxes as walls.
    pub fixed_searches: u64,
    /// Deadlocks proved (cached verdicts included).
    pub proved: u64,
}

impl JamCheck {
    /// Working memory for a board with `n_cells` cells, for pushes or pulls.
    pub fn new(n_cells: usize, mode: PairMode) -> JamCheck {
        JamCheck {
            mode,
            search: SubsetSearch::new(n_cells),
            cache: VerdictCache::default(),
            kept: Vec::with_capacity(MAX_BOXES),
            fixed: Vec::new(),
            around: Vec::new(),
            window: vec![0; n_cells],
            stamp: 0,
            queue: Vec::new(),
            calls: 0,
            spent: 0,
            free: FREE_STATES.min(FREE_WORK / n_cells.max(1) as u64),
            checks: 0,
            searches: 0,
            gave_up: 0,
            fixed_searches: 0,
            proved: 0,
        }
    }

    /// Whether `c` is a target: a goal pushing, a start square pulling.
    #[inline]
    fn is_target(mode: PairMode, board: &Board, c: Cell) -> bool {
        match mode {
            PairMode::Push => board.is_goal(c),
            PairMode::Pull => board.is_start_square(c),
        }
    }

    /// True if the move onto `to`, giving the position `boxes` with the player in the region
    /// of `player`, leaves the boxes knotted around `to` unable to get away or home. `frozen`
    /// (sorted) are boxes of the position that never move again, none of them the one on
    /// `to`; `&[]` is always sound.
    pub fn is_dead(
        &mut self,
        board: &Board,
        boxes: &BoxMap,
        to: Cell,
        player: Cell,
        frozen: &[Cell],
    ) -> bool {
        self.calls += 1;
        self.gather(board, boxes, to);
        let mode = self.mode;
        if self.kept.len() < MIN_BOXES || self.kept.iter().all(|&c| Self::is_target(mode, board, c)) {
            return false;
        }
        // The knot's frozen boxes (all on goals, so the test above reads the same without
        // them) become fixed, with those near it.
        fixed_near(board, frozen, &self.kept, RADIUS, &mut self.fixed);
        if !frozen.is_empty() {
            self.kept.retain(|c| frozen.binary_search(c).is_err());
        }
        let fixed = fixed_key(board, &self.fixed);
        self.checks += 1;
        self.kept.sort_unstable();
        let zobrist = board.zobrist();
        let quick = zobrist.fingerprint(&self.kept, player).0 ^ fixed;
        let dead = match self.cache.get(quick) {
            Some(dead) => dead,
            None if self.spent > self.free + self.calls / CALLS_PER_STATE => {
                self.gave_up += 1;
                return false;
            }
            None => {
                let region = self.search.region_min(board, &self.kept, &self.fixed, player);
                let key = zobrist.fingerprint(&self.kept, region).0 ^ fixed;
                let dead = match self.cache.get(key) {
                    Some(dead) => dead,
                    None => {
                        let dead = self.search_knot(board, region);
                        self.cache.insert(key, dead);
                        dead
                    }
                };
                self.cache.insert(quick, dead);
                dead
            }
        };
        self.proved += u64::from(dead);
        dead
    }

    /// The boxes joined to `to` through boxes on the eight squares around each, outwards from
    /// `to`, at most [`MAX_BOXES`], into `kept`.
    fn gather(&mut self, board: &Board, boxes: &BoxMap, to: Cell) {
        if self.around.is_empty() {
            self.around = (0..board.n_cells() as Cell).map(|c| Self::around(board, c)).collect();
        }
        self.kept.clear();
        self.kept.push(to);
        let mut head = 0;
        while head < self.kept.len() {
            for &c in &self.around[self.kept[head] as usize] {
                if c != NO_CELL && boxes.is_box(c) && !self.kept.contains(&c) {
                    self.kept.push(c);
                    if self.kept.len() == MAX_BOXES {
                        return;
                    }
                }
            }
            head += 1;
        }
    }

    /// The floor squares of the eight around `c`.
    fn around(board: &Board, c: Cell) -> [Cell; 8] {
        let (x, y) = board.xy(c);
        let mut out = [NO_CELL; 8];
        let offsets = [(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)];
        for (slot, (dx, dy)) in out.iter_mut().zip(offsets) {
            if let (Some(nx), Some(ny)) = (x.checked_add_signed(dx), y.checked_add_signed(dy)) {
                *slot = board.cell(nx, ny).unwrap_or(NO_CELL);
            }
        }
        out
    }

    /// Marks the window of the kept boxes and searches their moves alone from the player's
    /// region `region`: true if no position has a box out of the window or every box on a
    /// target.
    fn search_knot(&mut self, board: &Board, region: Cell) -> bool {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.window.fill(0);
            self.stamp = 1;
        }
        let stamp = self.stamp;
        self.queue.clear();
        for &c in &self.kept {
            self.window[c as usize] = stamp;
            self.queue.push((c, 0));
        }
        let mut head = 0;
        while head < self.queue.len() {
            let (c, d) = self.queue[head];
            head += 1;
            if d == RADIUS {
                continue;
            }
            for &nb in board.neighbours(c) {
                if nb != NO_CELL && self.window[nb as usize] != stamp {
                    self.window[nb as usize] = stamp;
                    self.queue.push((nb, d + 1));
                }
            }
        }
        self.searches += 1;
        self.fixed_searches += u64::from(!self.fixed.is_empty());
        let (window, mode) = (&self.window, self.mode);
        let outcome =
            self.search.run(board, mode, &self.kept, &self.fixed, region, MAX_STATES, |_, kept, _| {
                kept.iter().any(|&c| window[c as usize] != stamp)
                    || kept.iter().all(|&c| Self::is_target(mode, board, c))
            });
        self.gave_up += u64::from(outcome == Outcome::OutOfBudget);
        self.spent += self.search.states_seen() as u64;
        outcome == Outcome::Exhausted
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bisolve_board::Level;

    /// Whether the test calls the start position of `text` dead with the box on `(x, y)` as
    /// the one just pushed, and the check's counters after it.
    fn dead_after(text: &str, x: usize, y: usize) -> (bool, JamCheck) {
        let level = Level::parse(text).expect("valid level");
        let board = level.board();
        let start = level.start();
        let mut check = JamCheck::new(board.n_cells(), PairMode::Push);
        let mut map = BoxMap::new(board.n_cells());
        map.set_all(&start.boxes);
        let to = board.cell(x, y).expect("a floor square");
        assert!(map.is_box(to), "no box on ({x}, {y})");
        let dead = check.is_dead(board, &map, to, start.player, &[]);
        (dead, check)
    }

    /// A position Sasquatch 17's forward search reached (a whole search proves it unsolvable):
    /// three boxes in the middle room, two of them shutting the mouth of the pocket on its left
    /// and the third, just pushed left, stopping the one that could come back out. No box is
    /// frozen yet (the top one can still go left twice) and each pair alone can get away.
    const POCKET: &str = "    ###########
   ##@* * * * ###
   #            #
   #   ######## # #####
 #### ##  $     # #   #
 #    #  $$  #  ### # #
##  # #   ####        #
#***  #####    #### ###
#*..             #    #
#**.############      #
#####          #####  #
                   ####
";

    #[test]
    fn three_boxes_knotted_in_a_pocket_are_dead() {
        let (dead, check) = dead_after(POCKET, 10, 5);
        assert!(dead);
        assert_eq!((check.checks, check.searches, check.proved), (1, 1, 1));
    }

    #[test]
    fn the_verdict_comes_from_the_cache_the_second_time() {
        let level = Level::parse(POCKET).expect("valid level");
        let board = level.board();
        let mut check = JamCheck::new(board.n_cells(), PairMode::Push);
        let mut map = BoxMap::new(board.n_cells());
        map.set_all(&level.start().boxes);
        let to = board.cell(10, 5).expect("floor");
        assert!(check.is_dead(board, &map, to, level.start().player, &[]));
        assert!(check.is_dead(board, &map, to, level.start().player, &[]));
        assert_eq!((check.checks, check.searches, check.proved), (2, 1, 2));
    }

    #[test]
    fn a_knot_that_can_be_pushed_apart_is_not_dead() {
        // The same three boxes in an open room: the player walks round and pushes them out.
        let open = "\
##########
#        #
#  $     #
# $$     #
#        #
#...    @#
##########
";
        let (dead, check) = dead_after(open, 2, 3);
        assert!(!dead);
        assert_eq!(check.searches, 1);
    }

    #[test]
    fn pairs_and_boxes_on_goals_are_never_searched() {
        // Two boxes alone: below the test's size.
        let pair = "#######\n#     #\n# $$  #\n#..  @#\n#######\n";
        let (dead, check) = dead_after(pair, 2, 2);
        assert!(!dead);
        assert_eq!((check.checks, check.searches), (0, 0));
        // Three boxes all on goals.
        let home = "#######\n#     #\n# *** #\n#    @#\n#######\n";
        let (dead, check) = dead_after(home, 3, 2);
        assert!(!dead);
        assert_eq!((check.checks, check.searches), (0, 0));
    }

    #[test]
    fn a_knot_that_solves_inside_its_window_is_not_dead() {
        // Three boxes above three goals: pushed down, each lands on its goal in the window.
        let near = "#########\n#       #\n# $$$   #\n# ...  @#\n#########\n";
        let (dead, _) = dead_after(near, 3, 2);
        assert!(!dead);
    }
}
