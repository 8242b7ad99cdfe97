//! Shut-in boxes: boxes off their goals that the player can never push again.
//!
//! A box off its goal must be pushed some time. Take a state whose player region `R` touches
//! no side of such a box. Flood the squares outside `R` from that box (free squares and boxes
//! alike): the flood stops at the boxes next to `R`, the zone's *fence*, and every other box
//! it meets is *inside*. Until the first push of a box inside, every box inside stands where
//! it is, as a wall. So a small search of pushes of the fence boxes alone, the boxes inside
//! standing as walls and every other box removed, that never lets the player push a box
//! inside (stand behind it with the square ahead free and not dead) proves the state dead: a
//! solution, with the pushes of the removed boxes left out, would be such a sequence up to
//! its first push of a box inside (removing boxes never makes a push or a walk illegal, and a
//! freeze with fewer boxes is a freeze with more). See [`bisolve_deadlock::subset`].
//!
//! This is the forward mirror of the backward search's confined players, and it catches what
//! the corral deadlocks cannot: their search removes the boxes inside a corral, so a fence box
//! pushed into an empty corridor "opens" it, though the boxes inside may still block every
//! way through it.
//!
//! Verdicts are cached per thread under the fence boxes, the player's square (the smallest of
//! its region) and the boxes inside. Nearly every zone opens at the first push of a fence box
//! (on XSokoban 28, 323,715 of 332,311 searches ended within 10 states): that is checked
//! first, without the search, by a flood of the zone's squares after each such push.

use bisolve_board::{Board, BoxMap, Cell, Dir, Reach, NO_CELL};
use bisolve_deadlock::freeze::FreezeCheck;
use bisolve_deadlock::pairs::PairMode;
use bisolve_deadlock::subset::{fixed_key, Outcome, SubsetSearch, VerdictCache};

/// The most states one search may see before it gives up (no verdict).
pub const MAX_STATES: usize = 2000;

/// The most fence boxes a zone may have to be searched; zones with more are left alone.
pub const MAX_FENCE: usize = 8;

/// Per-thread working memory and counters of the shut-in test.
#[derive(Debug)]
pub struct ShutInCheck {
    search: SubsetSearch,
    cache: VerdictCache,
    /// Per cell: the stamp of the last zone flood that reached it.
    seen: Vec<u32>,
    stamp: u32,
    stack: Vec<Cell>,
    fence: Vec<Cell>,
    inside: Vec<Cell>,
    /// The pushes of boxes inside that the board allows: where the player stands, where the
    /// box goes.
    pushes: Vec<(Cell, Cell)>,
    /// The fence and the boxes inside on an otherwise empty board, as the search sees them,
    /// for the one-push shortcut ([`ShutInCheck::one_push_opens`]).
    zone_map: BoxMap,
    freeze: FreezeCheck,
    /// Per cell: the stamp of the last shortcut flood that reached it.
    walked: Vec<u32>,
    walk_stamp: u32,
    /// States with a box off its goal out of the player's reach.
    pub checks: u64,
    /// Searches run (cache misses).
    pub searches: u64,
    /// Zones one push of a fence box opened, with no search.
    pub opened: u64,
    /// Searches that ran out of states (no verdict, the state is kept).
    pub gave_up: u64,
    /// States proved dead (cached verdicts and zones without a fence included).
    pub proved: u64,
}

impl ShutInCheck {
    /// Working memory for a board with `n_cells` cells.
    pub fn new(n_cells: usize) -> ShutInCheck {
        ShutInCheck {
            search: SubsetSearch::new(n_cells),
            cache: VerdictCache::default(),
            seen: vec![0; n_cells],
            stamp: 0,
            stack: Vec::new(),
            fence: Vec::new(),
            inside: Vec::new(),
            pushes: Vec::new(),
            zone_map: BoxMap::new(n_cells),
            freeze: FreezeCheck::default(),
            walked: vec![0; n_cells],
            walk_stamp: 0,
            checks: 0,
            searches: 0,
            gave_up: 0,
            proved: 0,
            opened: 0,
        }
    }

    /// True if one push of a fence box, made by the player from its region, lets it push a
    /// box inside the zone (flooded with `stamp`): the search would find that at its first
    /// level, so the zone is not dead. Every reading here is one the search would make or a
    /// weaker one: the push is checked on the search's own board (the fence and the boxes
    /// inside), and the player's walk after it is followed through the zone's squares only.
    /// False means the search must decide.
    fn one_push_opens(&mut self, board: &Board, region: &Reach, stamp: u32) -> bool {
        self.zone_map.set_all(&self.fence);
        self.zone_map.set_all(&self.inside);
        let mut opened = false;
        'fence: for fi in 0..self.fence.len() {
            let f = self.fence[fi];
            for d in Dir::ALL {
                let (stand, to) = (board.neighbour(f, d.opposite()), board.neighbour(f, d));
                if stand == NO_CELL
                    || to == NO_CELL
                    || !region.contains(stand)
                    || self.zone_map.is_box(to)
                    || board.is_push_dead(to)
                {
                    continue;
                }
                self.zone_map.move_box(f, to);
                let ok =
                    !self.freeze.is_deadlock(board, &self.zone_map, to) && self.walk_opens(board, f, stamp);
                self.zone_map.move_box(to, f);
                if ok {
                    opened = true;
                    break 'fence;
                }
            }
        }
        self.zone_map.clear_all(&self.fence);
        self.zone_map.clear_all(&self.inside);
        opened
    }

    /// With the fence box pushed off `from` (already so in `zone_map`), floods the zone's free
    /// squares from `from`, where the player now stands, and says whether it reaches a square
    /// to push a box inside from, the square ahead free.
    fn walk_opens(&mut self, board: &Board, from: Cell, stamp: u32) -> bool {
        if self.walk_stamp == u32::MAX {
            self.walked.fill(0);
            self.walk_stamp = 0;
        }
        self.walk_stamp += 1;
        let walk = self.walk_stamp;
        self.stack.clear();
        self.walked[from as usize] = walk;
        self.stack.push(from);
        while let Some(c) = self.stack.pop() {
            for &n in board.neighbours(c) {
                if n != NO_CELL
                    && self.seen[n as usize] == stamp
                    && self.walked[n as usize] != walk
                    && !self.zone_map.is_box(n)
                {
                    self.walked[n as usize] = walk;
                    self.stack.push(n);
                }
            }
        }
        self.pushes
            .iter()
            .any(|&(stand, to)| self.walked[stand as usize] == walk && !self.zone_map.is_box(to))
    }

    /// True if the player can never push a box of the zone round some box off its goal in the
    /// state with boxes on `boxes` (also on `map`), whose player region is filled in `region`
    /// (smallest square `region_min`): the state is dead.
    pub fn is_dead(
        &mut self,
        board: &Board,
        boxes: &[Cell],
        map: &BoxMap,
        region: &Reach,
        region_min: Cell,
    ) -> bool {
        let touches = |b: Cell| board.neighbours(b).iter().any(|&n| n != NO_CELL && region.contains(n));
        let shut = |b: Cell| !board.is_goal(b) && !touches(b);
        let Some(first) = boxes.iter().position(|&b| shut(b)) else {
            return false;
        };
        self.checks += 1;
        // Each zone flood takes the next stamp, so the floods of this call are the stamps
        // above `before`; a box one of them reached lies inside a zone already searched.
        if self.stamp > u32::MAX - boxes.len() as u32 {
            self.seen.fill(0);
            self.stamp = 0;
        }
        let before = self.stamp;
        for &b in &boxes[first..] {
            if !shut(b) || self.seen[b as usize] > before {
                continue;
            }
            if self.zone_is_dead(board, map, region, region_min, b) {
                self.proved += 1;
                return true;
            }
        }
        false
    }

    /// Floods the zone of the box on `start` (off its goal, out of reach) and searches its
    /// fence: true if the player can never push a box inside it.
    fn zone_is_dead(
        &mut self,
        board: &Board,
        map: &BoxMap,
        region: &Reach,
        region_min: Cell,
        start: Cell,
    ) -> bool {
        // Each zone has its own stamp: zones may share fence boxes, which their floods stop
        // on and must each find. (`is_dead` keeps the stamps from wrapping.)
        self.stamp += 1;
        let stamp = self.stamp;
        self.fence.clear();
        self.inside.clear();
        self.stack.clear();
        self.seen[start as usize] = stamp;
        self.stack.push(start);
        while let Some(c) = self.stack.pop() {
            if map.is_box(c) {
                if board.neighbours(c).iter().any(|&n| n != NO_CELL && region.contains(n)) {
                    self.fence.push(c);
                    continue;
                }
                self.inside.push(c);
            }
            for &n in board.neighbours(c) {
                if n != NO_CELL && self.seen[n as usize] != stamp && !region.contains(n) {
                    self.seen[n as usize] = stamp;
                    self.stack.push(n);
                }
            }
        }
        if self.fence.is_empty() {
            // Walls all round: nothing can ever open the zone.
            return true;
        }
        if self.fence.len() > MAX_FENCE {
            return false;
        }
        self.fence.sort_unstable();
        self.inside.sort_unstable();
        // The player's region among the fence and the boxes inside is the one holding its
        // region among all the boxes, so the search's result is a function of this key.
        let key = board.zobrist().fingerprint(&self.fence, region_min).0 ^ fixed_key(board, &self.inside);
        if let Some(dead) = self.cache.get(key) {
            return dead;
        }
        // Where the player would stand to push a box inside, and the square the box would go
        // to: a wall-free square that is not dead and holds no box inside.
        self.pushes.clear();
        for &b in &self.inside {
            for d in Dir::ALL {
                let (stand, to) = (board.neighbour(b, d.opposite()), board.neighbour(b, d));
                if stand != NO_CELL
                    && to != NO_CELL
                    && !board.is_push_dead(to)
                    && self.inside.binary_search(&to).is_err()
                {
                    self.pushes.push((stand, to));
                }
            }
        }
        if self.pushes.is_empty() {
            // No box inside can ever be pushed, whatever the fence does.
            self.cache.insert(key, true);
            return true;
        }
        // Most zones open at the first push of a fence box: found without the search, which
        // would find the same.
        if self.one_push_opens(board, region, stamp) {
            debug_assert_eq!(self.search_fence(board, region_min), Outcome::Found);
            self.opened += 1;
            self.cache.insert(key, false);
            return false;
        }
        self.searches += 1;
        let outcome = self.search_fence(board, region_min);
        let dead = outcome == Outcome::Exhausted;
        self.gave_up += u64::from(outcome == Outcome::OutOfBudget);
        self.cache.insert(key, dead);
        dead
    }

    /// The search of the zone in `fence`, `inside` and `pushes`: pushes of the fence boxes
    /// alone, the boxes inside standing as walls, until the player can push a box inside.
    fn search_fence(&mut self, board: &Board, region_min: Cell) -> Outcome {
        let pushes = &self.pushes;
        self.search.run(
            board,
            PairMode::Push,
            &self.fence,
            &self.inside,
            region_min,
            MAX_STATES,
            |map, _, reach| pushes.iter().any(|&(stand, to)| reach.contains(stand) && !map.is_box(to)),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bisolve_board::Level;

    /// The shut-in verdict on the level's start, and the test's counters.
    fn checked(text: &str) -> (bool, ShutInCheck) {
        let level = Level::parse(text).expect("valid level");
        let board = level.board();
        let start = level.start();
        let mut map = BoxMap::new(board.n_cells());
        map.set_all(&start.boxes);
        let mut reach = Reach::new(board.n_cells());
        let min = reach.fill(board, &map, start.player);
        let mut check = ShutInCheck::new(board.n_cells());
        let dead = check.is_dead(board, &start.boxes, &map, &reach, min);
        (dead, check)
    }

    /// The shut-in verdict on the level's start, and whether the test had to look at all.
    fn verdict(text: &str) -> (bool, u64) {
        let (dead, check) = checked(text);
        (dead, check.checks)
    }

    #[test]
    fn a_box_behind_a_box_in_a_corridor_is_shut_in() {
        // The player can push the first box up to the second, never past it.
        assert_eq!(verdict("#########\n#@ $ $..#\n#########\n"), (true, 1));
    }

    #[test]
    fn a_door_the_player_can_push_open_does_not_shut_in() {
        // The box in the door goes up three times; then the player walks round the box inside
        // (the level is solvable).
        let level = "########\n#   .  #\n#      #\n#  $   #\n####$###\n#@   . #\n########\n";
        assert_eq!(verdict(level), (false, 1));
    }

    #[test]
    fn a_fence_box_one_push_moves_aside_opens_the_zone_without_a_search() {
        // The box in front of the door goes up once; the player then walks round the room to
        // the box inside. A door that takes three pushes needs the search (below).
        let one_push = "########\n#   .  #\n# $    #\n#   $  #\n#### ###\n#@   . #\n########\n";
        let door = "########\n#   .  #\n#      #\n#  $   #\n####$###\n#@   . #\n########\n";
        for (level, opened, searches) in [(one_push, 1, 0), (door, 0, 1)] {
            let (dead, check) = checked(level);
            assert!(!dead, "{level}");
            assert_eq!((check.checks, check.opened, check.searches), (1, opened, searches), "{level}");
        }
    }

    #[test]
    fn a_box_that_cannot_be_pushed_where_the_player_can_come_is_shut_in() {
        // The box on the left goal can only go right, pushed from the square of the box left
        // of it; the player can push the right box up to it, never get behind either.
        assert_eq!(verdict("########\n#$*..$@#\n########\n"), (true, 1));
    }

    #[test]
    fn parts_that_share_a_fence_box_are_each_searched_with_it() {
        // `levels/edge/shut-in.xsb`: the box right of the player fences off two parts with
        // boxes out of reach; the level is solvable.
        let level = "#####\n#*  #\n##. #\n#  *#\n# $#####\n#. # # #\n# $###*###\n#$.#     #\n#@$ .  $.#\n##########\n";
        assert_eq!(verdict(level), (false, 1));
    }

    #[test]
    fn boxes_on_goals_the_player_cannot_reach_need_no_search() {
        assert_eq!(verdict("#######\n#@ $*.#\n#######\n"), (false, 0));
    }
}
