//! The level's parking plan (after FESS's packing plan, as Festival builds it): an order in
//! which boxes come in and fill the goals, boxes waiting on other squares (parked) where the
//! order needs that, found before the search by a backward search on an easier problem.
//!
//! The easier problem starts from the solved position and moves one box at a time, by pulls,
//! to any square it can reach with the other boxes standing still (a box move, as in
//! Festival); a box that reaches a start square (a *base*) not used yet leaves the board and
//! uses it up. Boxes are told apart only by where they stand, so every box may go home to any
//! base, and a box gone home is out of the way of the others. A box may take a base only if
//! the other boxes can still each have a base of their own among those left, one each reaches
//! as a lone box (a matching), and a box that stands on a base (a goal that is also a start
//! square) goes home where it stands. When some box can go home, only such moves are made
//! (for each box, to the first base its walk reaches that it may take). A greedy
//! best-first search (fewest boxes left, then the smallest sum of each box's pulls to its
//! nearest unused base, then a box parked off the goals going home, or the box the last move
//! moved) looks for a position with no box left, and takes the position nearest that when
//! its budget runs out ([`PLAN_POSITIONS`], [`MAX_FILLS`]).
//!
//! When the greedy search does not finish, a second search ([`PlanOrder::Cells`], after
//! Festival's packing search) runs with the same budget and moves, in FESS's order: its
//! feature cells are the boxes left, the boxes still on the squares they started on, and the
//! player's separate regions; every second expansion takes the next cell in turn, the others
//! the best cell; inside a cell the position whose path has the fewest moves no advisor
//! recommended comes first. The advisors: when boxes can go home, a box parked off the goals
//! goes, else the one whose way home leaves the fewest regions, the longest first; otherwise
//! the move that takes a box off its goal furthest without adding a region, and the move
//! that leaves the fewest regions when that is fewer than before. Greed fills the goals
//! nearest home first and parks boxes at the first square that serves; the cells keep
//! positions with more boxes parked (or taken off the goals) in play, and the advisors prefer
//! long pulls, so boxes wait deep in other rooms. The second plan is taken when it finishes.
//!
//! Read forwards, the moves on the way there are the plan: each *step* brings a box to a
//! square, from its start square, from where an earlier step parked it, or (for the boxes
//! the search left on the board, the *initial* steps) from nowhere: the box stands there
//! from the start. A step's box may move on at a later step (it was parked). Consecutive
//! moves of one box are one step. An unfinished plan keeps only the steps that place a box
//! for good.
//!
//! A position has *packed* the plan's first `k` steps when each of them has a box on its
//! square, or a later step within the first `k` has moved it on; its packed count is the
//! largest such `k`, less the initial steps without their box (and, while an initial box
//! that never moves is missing, only the count of such boxes in place). The forward search
//! counts `steps - packed` as its unplaced boxes in the feature cells
//! (`push.parking_plan`). The count guides the search only: it prunes nothing.
//!
//! The backward search has a plan of its own ([`ParkingPlan::backward`], `pull.parking_plan`):
//! the same search run the other way, from the start position (the player where it stands)
//! by pushes, a box leaving the board at the first unused goal it reaches. Read backwards,
//! its moves are the order in which the backward search fills the start squares, and where
//! boxes wait on the way.

use std::sync::OnceLock;

use bisolve_board::search::Side;
use bisolve_board::{Board, Cell, UNREACHABLE};

mod search;

/// The most positions the plan's search makes.
pub const PLAN_POSITIONS: usize = 100_000;

/// The most flood fills the plan's search makes (its walks of single boxes make most of
/// them).
pub const MAX_FILLS: usize = 100_000;

/// Levels with more start squares (goals, for the backward search's plan) than this get no
/// plan (a position's unused bases are one 128-bit set).
pub const MAX_BASES: usize = 128;

/// How the plan's search picks the next position to expand (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlanOrder {
    /// Fewest boxes left, then the least sum of moves home.
    Greedy,
    /// FESS's order: feature cells in turn, and inside a cell the fewest moves no advisor
    /// recommended.
    Cells,
}

/// No later step moves the box on.
const NEVER: u32 = u32::MAX;

/// Where a step's box comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum From {
    /// It stands on the step's square from the start: the search left it on the board.
    Initial,
    /// Its home square: its start square in the forward search's plan, a goal in the
    /// backward search's.
    Home,
    /// The square an earlier step parked it on.
    Parked(Cell),
}

/// One step of the plan.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    /// Where the box comes from.
    pub from: From,
    /// The square it is brought to.
    pub to: Cell,
    /// The later step that moves it on ([`NEVER`] when none does).
    until: u32,
}

impl Step {
    /// The index of the later step that moves this step's box on, if one does.
    pub fn until(&self) -> Option<usize> {
        (self.until != NEVER).then_some(self.until as usize)
    }
}

/// The parking plan of one level.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParkingPlan {
    /// The initial steps first (those that never move on before the others), then the rest
    /// in order.
    steps: Vec<Step>,
    /// How many steps are initial.
    initial: usize,
    /// True if the search took every box home.
    complete: bool,
    /// The out-of-plan zones, worked out when first asked for
    /// ([`ParkingPlan::prepare_out_of_plan`]).
    zones: OnceLock<Zones>,
}

/// Where boxes are out of plan.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Zones {
    /// Per packed count, an index into `sets`.
    read: Vec<u32>,
    /// The distinct zones, a bit per square.
    sets: Vec<Vec<u64>>,
}

impl ParkingPlan {
    /// The plan of `board`'s level, or `None` when the level has more than [`MAX_BASES`]
    /// start squares, no box to place, or a goal from which no box can be pulled to a start
    /// square: [`ParkingPlan::forward`] with the second search in feature cells.
    pub fn new(board: &Board) -> Option<ParkingPlan> {
        ParkingPlan::forward(board, true)
    }

    /// The forward search's plan: the greedy search first, then, when it does not finish and
    /// `cells` holds, the search in feature cells, whose plan is taken if that one finishes
    /// (see the module docs).
    pub fn forward(board: &Board, cells: bool) -> Option<ParkingPlan> {
        ParkingPlan::two_searches(board, Side::Forward, None, cells)
    }

    /// [`ParkingPlan::new`] with one search of at most `budget` positions in `order`.
    pub fn with_budget(board: &Board, budget: usize, order: PlanOrder) -> Option<ParkingPlan> {
        ParkingPlan::search(board, Side::Forward, None, budget, order)
    }

    /// The plan of the backward search, which pulls boxes from the solved position onto the
    /// start squares (the player starting on `player`): the same searches run the other way,
    /// from the start position, pushing boxes one box move at a time and taking a box off
    /// the board when it reaches a goal not used yet. Read backwards, its moves say in which
    /// order the start squares fill and where boxes wait on the way. `None` as for
    /// [`ParkingPlan::new`], with goals and start squares swapped; `cells` as for
    /// [`ParkingPlan::forward`].
    pub fn backward(board: &Board, player: Cell, cells: bool) -> Option<ParkingPlan> {
        ParkingPlan::two_searches(board, Side::Backward, Some(player), cells)
    }

    /// The greedy search, then the one in feature cells when the first does not finish and
    /// `cells` holds; the second's plan if it finishes.
    fn two_searches(board: &Board, side: Side, player: Option<Cell>, cells: bool) -> Option<ParkingPlan> {
        let plan = ParkingPlan::search(board, side, player, PLAN_POSITIONS, PlanOrder::Greedy)?;
        if plan.complete || !cells {
            return Some(plan);
        }
        let second = ParkingPlan::search(board, side, player, PLAN_POSITIONS, PlanOrder::Cells);
        Some(second.filter(|p| p.complete).unwrap_or(plan))
    }

    /// Works out the out-of-plan zones (see `Zones::new`), once per plan however many
    /// searches share it; [`ParkingPlan::out_of_plan`] counts nothing before.
    pub fn prepare_out_of_plan(&self, board: &Board) {
        self.zones.get_or_init(|| Zones::new(&self.steps, board));
    }

    /// How many of `boxes` stand out of plan in a position that has packed `packed` steps (0
    /// before [`ParkingPlan::prepare_out_of_plan`]).
    pub fn out_of_plan(&self, packed: u32, boxes: impl Iterator<Item = Cell>) -> u32 {
        let Some(zones) = self.zones.get() else { return 0 };
        let Some(&k) = zones.read.get(packed as usize) else { return 0 };
        let zone = &zones.sets[k as usize];
        boxes.filter(|&c| zone[c as usize / 64] >> (c % 64) & 1 == 1).count() as u32
    }

    /// The steps, the initial ones first.
    pub fn steps(&self) -> &[Step] {
        &self.steps
    }

    /// How many steps are initial: boxes the plan leaves where they stand at the start.
    pub fn initial(&self) -> usize {
        self.initial
    }

    /// True if the plan's search took every box home: no initial steps.
    pub fn is_complete(&self) -> bool {
        self.complete
    }

    /// How many steps the position with boxes where `is_box` says has packed (see the
    /// module docs).
    pub fn packed(&self, is_box: impl Fn(Cell) -> bool) -> u32 {
        let packed = match self.first_unpacked(&is_box) {
            Ok(i) => i,
            Err(fixed_in) => return fixed_in,
        };
        let good =
            self.steps[..self.initial].iter().filter(|s| is_box(s.to) || (s.until as usize) < packed).count();
        (packed - (self.initial - good)) as u32
    }

    /// The first step after the initial ones that the position with boxes where `is_box` says
    /// has not packed (the number of steps when it has packed them all); `Err` with how many
    /// are in place when some initial box that never moves is not.
    fn first_unpacked(&self, is_box: impl Fn(Cell) -> bool) -> Result<usize, u32> {
        let steps = &self.steps;
        let fixed = steps[..self.initial].iter().filter(|s| s.until == NEVER).count();
        let fixed_in = steps[..fixed].iter().filter(|s| is_box(s.to)).count();
        if fixed_in < fixed {
            return Err(fixed_in as u32);
        }
        let mut packed = steps.len();
        for i in (self.initial..steps.len()).rev() {
            let s = &steps[i];
            if !is_box(s.to) && (s.until == NEVER || s.until as usize >= packed) {
                packed = i;
            }
        }
        Ok(packed)
    }

    /// The index of the step the position with boxes where `is_box` says takes next: the
    /// first it has not packed, when every initial box that never moves is in place and some
    /// step is left (FESS's opener clears the way to its square).
    pub fn next_step(&self, is_box: impl Fn(Cell) -> bool) -> Option<usize> {
        self.first_unpacked(is_box).ok().filter(|&i| i < self.steps.len())
    }

    /// Steps not packed: the number of steps less [`ParkingPlan::packed`].
    pub fn unpacked(&self, is_box: impl Fn(Cell) -> bool) -> u32 {
        self.steps.len() as u32 - self.packed(is_box)
    }
}

impl Zones {
    /// Works out the out-of-plan zones (after Festival's): once step `i` is done, the squares
    /// from which a lone box can reach no square of a later step, the boxes that stay put
    /// after the steps up to `i` standing as walls (dead squares left out). A position that has
    /// packed `k` steps reads the zone of the first step from `k` on where the zone changes,
    /// so boxes are cleared out of a zone before the plan closes it.
    fn new(steps: &[Step], board: &Board) -> Zones {
        let n = board.n_cells();
        let words = n.div_ceil(64);
        let len = steps.len();
        let mut own: Vec<Vec<u64>> = Vec::with_capacity(len);
        let mut walls: Vec<Cell> = Vec::new();
        for i in 0..len {
            if steps[i].until == NEVER {
                walls.push(steps[i].to);
                walls.sort_unstable();
            }
            let mut zone = vec![0u64; words];
            let later: Vec<Cell> = steps[i + 1..].iter().map(|s| s.to).collect();
            if !later.is_empty() {
                let dist = board.push_distances_with_walls(&walls, &later);
                for c in 0..n as Cell {
                    if walls.binary_search(&c).is_err()
                        && !board.is_push_dead(c)
                        && dist.nearest(c) == UNREACHABLE
                    {
                        zone[c as usize / 64] |= 1 << (c % 64);
                    }
                }
            }
            own.push(zone);
        }
        // Each step reads the zone of the next step where it changes.
        let mut read = own.clone();
        let mut last = 0;
        let empty = vec![0u64; words];
        let mut current = &empty;
        // The last step has no later one: its zone (empty) changes nothing before it.
        for i in 0..len.saturating_sub(1) {
            if own[i] == *current {
                continue;
            }
            current = &own[i];
            for r in &mut read[last..=i] {
                r.clone_from(current);
            }
            last = i;
        }
        let mut sets: Vec<Vec<u64>> = Vec::new();
        let read = read
            .into_iter()
            .map(|z| match sets.iter().position(|s| *s == z) {
                Some(k) => k as u32,
                None => {
                    sets.push(z);
                    (sets.len() - 1) as u32
                }
            })
            .collect();
        Zones { read, sets }
    }
}

/// Sets each step's `until`: the first later step whose box comes from its square.
fn set_until(steps: &mut [Step]) {
    for i in 0..steps.len() {
        let to = steps[i].to;
        steps[i].until =
            (i + 1..steps.len()).find(|&j| steps[j].from == From::Parked(to)).map_or(NEVER, |j| j as u32);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bisolve_board::Level;

    fn level(rows: &str) -> Level {
        Level::parse(rows).expect("valid level")
    }

    #[test]
    fn a_corridor_is_filled_from_its_far_end() {
        // Goals in a dead-end corridor: the deepest is filled first, each box straight from
        // its start square.
        let l = level("#######\n#@$$ ..#\n#######\n");
        let plan = ParkingPlan::new(l.board()).unwrap();
        assert!(plan.is_complete());
        let b = l.board();
        let cell = |x, y| b.cell(x, y).unwrap();
        let steps: Vec<(From, Cell)> = plan.steps().iter().map(|s| (s.from, s.to)).collect();
        assert_eq!(steps, vec![(From::Home, cell(6, 1)), (From::Home, cell(5, 1))]);
        // Packed: the far goal alone counts; the near goal alone counts for nothing.
        assert_eq!(plan.packed(|c| c == cell(6, 1)), 1);
        assert_eq!(plan.packed(|c| c == cell(5, 1)), 0);
        assert_eq!(plan.packed(|c| c == cell(5, 1) || c == cell(6, 1)), 2);
        assert_eq!(plan.unpacked(|_| false), 2);
    }

    #[test]
    fn the_search_in_cells_finishes_small_plans_and_stops_at_its_budget() {
        // A dead-end goal corridor: the search in cells makes the greedy search's plan. A goal
        // room where the first box in must wait off its goal: it finishes, every goal filled
        // for good.
        let l = level("#######\n#@$$ ..#\n#######\n");
        let greedy = ParkingPlan::with_budget(l.board(), PLAN_POSITIONS, PlanOrder::Greedy).unwrap();
        let cells = ParkingPlan::with_budget(l.board(), PLAN_POSITIONS, PlanOrder::Cells).unwrap();
        assert!(cells.is_complete());
        assert_eq!(cells.steps(), greedy.steps());
        let room =
            level("######\n#  # #\n#   .#\n# .  #\n### #####\n#      .#\n# $$ $  #\n#@      #\n#########\n");
        let b = room.board();
        let cells = ParkingPlan::with_budget(b, PLAN_POSITIONS, PlanOrder::Cells).unwrap();
        assert!(cells.is_complete());
        let mut last: Vec<Cell> =
            cells.steps().iter().filter(|s| s.until().is_none()).map(|s| s.to).collect();
        last.sort_unstable();
        assert_eq!(last, b.goals());
        // With a budget of one position neither search finishes: the plan keeps the boxes.
        let cut = ParkingPlan::with_budget(b, 1, PlanOrder::Cells).unwrap();
        assert!(!cut.is_complete());
    }

    #[test]
    fn a_box_standing_on_a_goal_and_a_start_square_goes_home_where_it_stands() {
        // The box on the left starts on its goal, in a pocket no box can be pulled into. Taken
        // elsewhere it would leave the other box no start square it can reach: it stays, and
        // the plan brings the other box from its start square to the far goal.
        let l = level("######\n##  .#\n#*@  #\n## $ #\n##   #\n######\n");
        let b = l.board();
        let cell = |x, y| b.cell(x, y).unwrap();
        let plan = ParkingPlan::new(b).unwrap();
        assert!(plan.is_complete());
        let steps: Vec<(From, Cell)> = plan.steps().iter().map(|s| (s.from, s.to)).collect();
        assert!(steps.contains(&(From::Home, cell(1, 2))), "{steps:?}");
        assert!(steps.contains(&(From::Home, cell(4, 1))), "{steps:?}");
        assert_eq!(plan.unpacked(|c| c == cell(1, 2) || c == cell(4, 1)), 0);
    }

    #[test]
    fn a_box_goes_home_only_to_a_start_square_that_leaves_the_others_one() {
        // Pulled from the upper goal, a box reaches the start square below it first; taking
        // that one would leave the lower goal's box no start square it can reach. The plan
        // finishes, each box home to a start square it leaves the other.
        let l = level("#######\n#@$.  #\n## $  #\n#   # #\n# #.# #\n#######\n");
        let plan = ParkingPlan::with_budget(l.board(), PLAN_POSITIONS, PlanOrder::Greedy).unwrap();
        assert!(plan.is_complete());
        assert!(plan.steps().iter().all(|s| s.from == From::Home));
    }

    #[test]
    fn the_backward_plan_reads_the_pushes_from_the_start_backwards() {
        // From the start, the plan's search pushes the left box home first (it is nearer
        // the player), then the right one: read backwards, the backward search fills the
        // right box's start square first, and a box there alone packs one step.
        let l = level("########\n#      #\n# $$   #\n#@   ..#\n########\n");
        let b = l.board();
        let plan = ParkingPlan::backward(b, l.start().player, true).unwrap();
        assert!(plan.is_complete());
        let cell = |x, y| b.cell(x, y).unwrap();
        let steps: Vec<(From, Cell)> = plan.steps().iter().map(|s| (s.from, s.to)).collect();
        assert_eq!(steps, vec![(From::Home, cell(3, 2)), (From::Home, cell(2, 2))]);
        assert_eq!(plan.packed(|c| c == cell(3, 2)), 1);
        assert_eq!(plan.packed(|c| c == cell(2, 2)), 0);
        assert_eq!(plan.unpacked(|c| b.is_start_square(c)), 0);
        // A start with no room to push fails to finish: the boxes stay, as initial steps.
        let stuck = level("#######\n#@$$..#\n#######\n");
        let plan = ParkingPlan::backward(stuck.board(), stuck.start().player, true).unwrap();
        assert!(!plan.is_complete());
        assert!(plan.steps().iter().all(|s| s.from == From::Initial));
    }

    #[test]
    fn a_parked_box_counts_until_a_later_packed_step_moves_it_on() {
        // Cells 0..3 stand for squares A, B, C: A is parked on, then moved on to C.
        let (a, b, c) = (0, 1, 2);
        let mut steps = vec![
            Step { from: From::Home, to: a, until: NEVER },
            Step { from: From::Home, to: b, until: NEVER },
            Step { from: From::Parked(a), to: c, until: NEVER },
        ];
        set_until(&mut steps);
        assert_eq!(steps[0].until(), Some(2));
        let plan = ParkingPlan { steps, initial: 0, complete: true, zones: OnceLock::new() };
        let packed = |boxes: &[Cell]| plan.packed(|x| boxes.contains(&x));
        assert_eq!(packed(&[a]), 1);
        assert_eq!(packed(&[a, b]), 2);
        // A has moved on to C: all three steps are packed.
        assert_eq!(packed(&[b, c]), 3);
        // C without B: B's step is missing, and A's box left before its time.
        assert_eq!(packed(&[c]), 0);
    }

    #[test]
    fn initial_boxes_that_never_move_must_stand_first() {
        let mut steps = vec![
            Step { from: From::Initial, to: 5, until: NEVER },
            Step { from: From::Home, to: 1, until: NEVER },
        ];
        set_until(&mut steps);
        let plan = ParkingPlan { steps, initial: 1, complete: false, zones: OnceLock::new() };
        assert_eq!(plan.packed(|x| x == 1), 0);
        assert_eq!(plan.packed(|x| x == 5), 1);
        assert_eq!(plan.packed(|x| x == 5 || x == 1), 2);
    }

    #[test]
    fn a_box_that_can_reach_no_later_step_is_out_of_plan() {
        // Two goals at the end of a corridor; the far one can also be filled from below. Once
        // it is, a box below it can reach no goal left: with nothing packed, the search is
        // told to clear that square before the first step closes it.
        let l = level("#########\n#@ $ $..#\n#### ## #\n   #    #\n   ######\n");
        let b = l.board();
        let cell = |x, y| b.cell(x, y).unwrap();
        let plan = ParkingPlan::new(b).unwrap();
        assert!(plan.is_complete());
        let oop = |packed, boxes: &[Cell]| plan.out_of_plan(packed, boxes.iter().copied());
        assert_eq!(oop(0, &[cell(7, 2)]), 0, "nothing before the zones are prepared");
        plan.prepare_out_of_plan(b);
        let order: Vec<Cell> = plan.steps().iter().map(|s| s.to).collect();
        assert_eq!(order, vec![cell(7, 1), cell(6, 1)]);
        assert!(!b.is_push_dead(cell(7, 2)));
        assert_eq!(oop(0, &[cell(3, 1), cell(7, 2)]), 1);
        assert_eq!(oop(0, &[cell(3, 1), cell(5, 1)]), 0);
        // The last step closes nothing.
        assert_eq!(oop(1, &[cell(7, 1), cell(7, 2)]), 0);
    }
}
