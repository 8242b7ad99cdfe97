//! Forward search for bisolve: pushes from the player's region, forward deadlock tests and
//! forward lower bounds. Implements [`Expander`] for the engine's search loop.
//!
//! Pruning, each technique switchable in [`PushConfig`]:
//! - dead squares: a box pushed where no goal can be reached from;
//! - freeze deadlocks ([`bisolve_deadlock::freeze`]): boxes frozen on both axes with one off its
//!   goal;
//! - closed diagonal deadlocks ([`bisolve_deadlock::diagonal`]): empty squares shut in along a
//!   diagonal by boxes and walls that can never all be finished;
//! - the lower bound: no perfect matching of boxes to goals means a deadlock;
//! - boxes frozen on goals are walls for the others ([`frozen`]): goals they cut off make the
//!   matching fail;
//! - the sound tunnel rule ([`tunnel`]): a box that can only leave its square one way goes
//!   first;
//! - PI-corrals ([`corral`]): only pushes into a PI-corral, and corrals nobody can enter are
//!   dead.
//! - corral deadlocks ([`corral_deadlock`]), sealed goals ([`bisolve_deadlock::sealed`]) and jams
//!   ([`bisolve_deadlock::jams`]): small searches on a few boxes alone
//!   ([`bisolve_deadlock::subset`]) prove that a corral can never open, that an empty goal can
//!   never be entered again, or that boxes knotted together can never get away or home;
//!   sealed-goal and jam verdicts are remembered as patterns. The boxes frozen on goals near
//!   the searched ones stand in these searches as walls (frozen walls; they would otherwise
//!   be left out or pushed about).
//! - goal areas ([`bisolve_deadlock::goal_areas`]): after a push onto a goal, a search of the
//!   squares round that goal's cluster alone, boxes leaving and coming in across their
//!   border, proves that the cluster's goals can never all be filled; verdicts remembered per
//!   area content (off by default).
//!
//! The last two restrict a state to pushes that some solution can make first (the same
//! solution reordered, so push-optimal A* stays push-optimal); the others only cut dead
//! states.
//!
//! Goal macros ([`bisolve_deadlock::rooms`]): a box that arrives on the entrance of a goal room
//! is taken on to the room's next goal in its packing order in one move; with the goal cut, a
//! state where such a macro exists gets only its macros. The cut may lose solutions (a room
//! that needs another order), so a forward search with it says it is not
//! [`Expander::complete`]. With the cut and room discipline, a room with one entrance that
//! no order fills one box at a time keeps to a parking plan instead (boxes may wait inside
//! while others pass): only pushes that change the room's contents by a step of the plan.

pub mod corral;
pub mod corral_deadlock;
pub mod frozen;
pub mod shut_in;
pub mod tunnel;

mod config;
mod expand;
mod imagine;
mod macros;
mod opener;

pub use config::PushConfig;
use macros::{discipline_map, MacroWay};

use bisolve_board::moves::{pushes_along, Push};
use bisolve_board::search::{
    Child, Expander, FeatureCell, NodeRef, PackedMove, PruneCount, Root, Side, BOX_MOVE_MAX_CELLS,
};
use bisolve_board::{
    child_region, Areas, Board, BoxMap, BoxRuns, Cell, Dir, Fingerprint, Hotspots, LinkScratch, Reach,
    RoomLinks, State, NO_CELL,
};
use bisolve_deadlock::bound::LowerBound;
use bisolve_deadlock::checks::{
    any_dead, AfterMove, DeadlockTest, GoalAreaTest, JamTest, PairTest, SealedTest, TestCaches, TripleTest,
};
use bisolve_deadlock::diagonal;
use bisolve_deadlock::goal_areas::{AreaCheck, GoalAreas};
use bisolve_deadlock::packing::PackingOrder;
use bisolve_deadlock::pair_costs::{PairCosts, PairGains, PairScratch};
use bisolve_deadlock::pairs::{PairMode, PairTable};
use bisolve_deadlock::parking::ParkingPlan;
use bisolve_deadlock::rooms::{GoalRoom, GoalRooms, PlanKeys, MAX_PLAN_ROOMS};
use bisolve_deadlock::sealed::SealedTargets;
use bisolve_deadlock::shared;
use bisolve_deadlock::triples::TripleTable;

use std::sync::Arc;

use bisolve_board::DistanceTable;

use crate::corral::{Corral, CorralCheck};
use crate::corral_deadlock::CorralDeadlocks;
use crate::frozen::{frozen_goal_boxes, FrozenTables};
use crate::imagine::Imagine;
use crate::opener::Opener;
use crate::shut_in::ShutInCheck;
use crate::tunnel::{forced_box, Forced};
use bisolve_deadlock::freeze::{FreezeCheck, Verdict};

/// Every direction, as the bits of `Forward::move_box`'s `dirs`.
const ALL_DIRS: u8 = 0b1111;

/// The forward move generator for one level.
#[derive(Debug)]
pub struct Forward<'a> {
    board: &'a Board,
    start: &'a State,
    config: PushConfig,
    pairs: Option<Arc<PairTable>>,
    /// The pushes of every two-box position, when the pair bound is on and the board is small
    /// enough for one.
    pair_costs: Option<Arc<PairCosts>>,
    /// The triple deadlock table, when it is on and the board is small enough for one.
    triples: Option<Arc<TripleTable>>,
    /// The tests a child is put to once its player's region is known, in order: pairs,
    /// triples, sealed goals, jams, goal areas (those switched on).
    tests: Vec<Box<dyn DeadlockTest>>,
    /// Goal rooms with packing orders or parking plans, when goal or packing macros are on
    /// (empty when the level has none; packing macros leave room goals to room macros,
    /// whichever macros are on, so that a macro move decodes the same way for every
    /// configuration).
    rooms: Option<Arc<GoalRooms>>,
    /// The goals' packing order, when feature cells count packed goals or packing macros
    /// are on.
    packing: Option<PackingOrder>,
    /// The level's parking plan, when the feature cells count its steps.
    plan: Option<Arc<ParkingPlan>>,
    /// The opener's distances, when it marks children ([`PushConfig::opener`]) and there is a
    /// plan.
    opener: Option<Opener>,
    /// The plan's waiting squares, when the imagine advisor's marks are made
    /// ([`PushConfig::imagine`]) and there is a plan.
    imagine: Option<Imagine>,
    /// Feature cells count packed goals: the packing feature is on and the order ranks
    /// something.
    counts_packed: bool,
    /// Room discipline, per cell: [`DISCIPLINED_ROOM`] for the squares of the goal rooms with
    /// one entrance, [`DISCIPLINED_ENTRANCE`] for their entrances; `None` when the discipline
    /// is off or the level has no such room.
    discipline: Option<Vec<u8>>,
    /// Rooms with parking plans are kept to their plans ([`PushConfig::room_plans`]).
    plans_on: bool,
    /// The rooms whose cut links the feature cells count ([`PushConfig::room_links`]); none when
    /// they are not counted.
    links: RoomLinks,
    /// Which boxes block which, for the feature cells' hotspots ([`PushConfig::hotspots`]);
    /// empty when they are not counted.
    hotspots: Hotspots,
}

/// A square of a room under room discipline (see [`PushConfig::room_discipline`]).
const DISCIPLINED_ROOM: u8 = 1;
/// The entrance of a room under room discipline.
const DISCIPLINED_ENTRANCE: u8 = 2;

/// How a box arrives on its square in a child.
#[derive(Clone, Copy, Debug)]
enum Arrival {
    /// One push from the node: the player stands where the box was.
    Push,
    /// A macro: the player ends on the given square; its first push is push number `.1` of a
    /// run of box moves (1 for a push from the node).
    Macro(Cell, u16),
    /// Push number `steps` of a run of box moves: the player stands on the given square,
    /// where the box was before this push.
    Run(Cell, u16),
}

impl Arrival {
    /// Where the player ends, unless that is the square the box left in the node.
    fn player(self) -> Option<Cell> {
        match self {
            Arrival::Push => None,
            Arrival::Macro(p, _) | Arrival::Run(p, _) => Some(p),
        }
    }

    /// Moves from the node: every kind counts as one but the later pushes of a run.
    fn steps(self) -> u16 {
        match self {
            Arrival::Run(_, steps) | Arrival::Macro(_, steps) => steps,
            Arrival::Push => 1,
        }
    }
}

impl<'a> Forward<'a> {
    /// A forward search from `start` on `board`.
    pub fn new(board: &'a Board, start: &'a State, config: PushConfig) -> Forward<'a> {
        Forward::sharing(board, start, config, &[])
    }

    /// Like [`Forward::new`], but takes the pair deadlock table from the first of `others`
    /// (forward searches on the same board) that has one, instead of building it again (the
    /// table depends on the board only; building it is most of the time a small level takes).
    pub fn sharing(
        board: &'a Board,
        start: &'a State,
        config: PushConfig,
        others: &[Forward<'_>],
    ) -> Forward<'a> {
        let pairs = shared(config.pair_deadlocks, others.iter().map(|o| o.pairs.clone()), || {
            PairTable::new(board, PairMode::Push)
        });
        let pair_costs =
            shared(config.pair_bound, others.iter().map(|o| o.pair_costs.clone()), || PairCosts::new(board));
        let triples = shared(config.triple_deadlocks, others.iter().map(|o| o.triples.clone()), || {
            TripleTable::new(board)
        });
        let plans_on = config.goal_macros && config.goal_cut && config.room_discipline && config.room_plans;
        // The rooms depend on the level and on which kinds are looked for (a parking plan's
        // search can take a tenth of a second): shared with a search that looked for the same.
        let rooms = (config.goal_macros || config.packing_macros).then(|| {
            let same =
                |o: &&Forward<'_>| o.config.room_entrances == config.room_entrances && o.plans_on == plans_on;
            others.iter().filter(same).find_map(|o| o.rooms.clone()).unwrap_or_else(|| {
                Arc::new(GoalRooms::with_plans(board, start, config.room_entrances, plans_on))
            })
        });
        let packing = ((config.features && config.packing) || config.packing_macros)
            .then(|| PackingOrder::new(board, Side::Forward));
        let counts_packed =
            config.features && config.packing && packing.as_ref().is_some_and(PackingOrder::has_order);
        let same_plan = others.iter().filter(|o| o.config.plan_cells == config.plan_cells);
        let plan = shared(config.features && config.parking_plan, same_plan.map(|o| o.plan.clone()), || {
            ParkingPlan::forward(board, config.plan_cells)
        });
        if config.out_of_plan {
            plan.iter().for_each(|p| p.prepare_out_of_plan(board));
        }
        let opener = plan.as_deref().filter(|_| config.opener).map(Opener::new);
        let imagine = plan.as_deref().filter(|_| config.imagine).map(Imagine::new);
        let sealed = config.sealed_goals.then(|| SealedTargets::new(board, PairMode::Push));
        let goal_areas = config.goal_areas.then(|| GoalAreas::new(board)).filter(|a| !a.is_empty());
        let mut config = config;
        config.box_moves &= board.n_cells() <= BOX_MOVE_MAX_CELLS;
        let discipline = if config.goal_macros && config.goal_cut && config.room_discipline {
            rooms.as_deref().and_then(|r| discipline_map(board, r))
        } else {
            None
        };
        let mut tests: Vec<Box<dyn DeadlockTest>> = Vec::new();
        if let Some(p) = &pairs {
            tests.push(Box::new(PairTest(p.clone())));
        }
        if let Some(t) = &triples {
            tests.push(Box::new(TripleTest(t.clone())));
        }
        if let Some(s) = sealed {
            tests.push(Box::new(SealedTest(s)));
        }
        if config.jams {
            tests.push(Box::new(JamTest));
        }
        if let Some(a) = goal_areas {
            tests.push(Box::new(GoalAreaTest(a)));
        }
        let links =
            if config.features && config.room_links { RoomLinks::new(board) } else { RoomLinks::default() };
        let hotspots =
            if config.features && config.hotspots { Hotspots::new(board) } else { Hotspots::default() };
        Forward {
            board,
            start,
            config,
            pairs,
            pair_costs,
            triples,
            tests,
            rooms,
            packing,
            plan,
            opener,
            imagine,
            counts_packed,
            discipline,
            plans_on,
            links,
            hotspots,
        }
    }

    /// The goal rooms, when some have parking plans and the search keeps to them.
    #[inline]
    fn plan_rooms(&self) -> Option<&GoalRooms> {
        self.rooms.as_deref().filter(|r| self.plans_on && !r.plans().is_empty())
    }

    /// The goal rooms macros use, when goal macros are on and the level has any.
    pub fn goal_rooms(&self) -> Option<&GoalRooms> {
        self.rooms.as_deref().filter(|r| self.config.goal_macros && !r.is_empty())
    }

    /// True if the room discipline forbids a plain move (a push or a push of a run, not a
    /// macro) of the box on `from` onto `to`: onto a disciplined room's entrance or into the
    /// room, or of a box inside it.
    #[inline]
    fn undisciplined(&self, from: Cell, to: Cell) -> bool {
        self.discipline.as_ref().is_some_and(|m| m[to as usize] != 0 || m[from as usize] == DISCIPLINED_ROOM)
    }

    /// True if moving the box on `from` to `to` (a push or a push of a run) changes what a
    /// room with a parking plan holds other than by a step of its plan.
    #[inline]
    fn off_plan(&self, ctx: &Context, from: Cell, to: Cell) -> bool {
        self.plan_rooms().is_some_and(|r| !r.plan_allows(&ctx.plan_keys, from, to))
    }

    /// The pair deadlock table, when it is on and the board is small enough for one.
    pub fn pair_table(&self) -> Option<&PairTable> {
        self.pairs.as_deref()
    }

    /// The configuration.
    pub fn config(&self) -> PushConfig {
        self.config
    }

    /// The packing order feature cells count with, when they do and it orders anything.
    fn counts_packing(&self) -> Option<&PackingOrder> {
        self.packing.as_ref().filter(|_| self.counts_packed)
    }

    /// The unplaced count of the feature cells when the parking plan or a packing order gives
    /// it, for boxes where `is_box` says, and the boxes out of plan (0 unless counted) among
    /// `boxes`, the same boxes.
    fn unpacked(
        &self,
        is_box: impl Fn(Cell) -> bool,
        boxes: impl Iterator<Item = Cell>,
    ) -> (Option<u32>, u32) {
        match (&self.plan, self.counts_packing()) {
            (Some(plan), _) => {
                let packed = plan.packed(is_box);
                let oop = if self.config.out_of_plan { plan.out_of_plan(packed, boxes) } else { 0 };
                (Some(plan.steps().len() as u32 - packed), oop)
            }
            (None, Some(order)) => (Some(order.unpacked(is_box)), 0),
            (None, None) => (None, 0),
        }
    }

    /// The feature cell of the position of `boxes`, which `s.boxes` holds, whose free squares
    /// fall into `areas` areas.
    fn feature_cell(&self, s: &mut PushScratch, boxes: &[Cell], areas: u32) -> u32 {
        let (unpacked, out_of_plan) = self.unpacked(|c| s.boxes.is_box(c), boxes.iter().copied());
        let unplaced =
            unpacked.unwrap_or_else(|| boxes.iter().filter(|&&b| !self.board.is_goal(b)).count() as u32);
        let cut_links = self.links.cut(&s.boxes, &mut s.links);
        let hotspots = self.hotspots.count(boxes);
        FeatureCell { unplaced, areas, cut_links, hotspots, out_of_plan }.pack()
    }
}

/// Facts about the state being expanded, shared by all its pushes.
struct Context {
    region_min: Cell,
    /// What the rooms with parking plans hold, when there are any.
    plan_keys: PlanKeys,
    off_goal: usize,
    base: Fingerprint,
    /// Distances around the boxes frozen on goals, when there are any.
    table: Option<Arc<DistanceTable>>,
}

impl Forward<'_> {
    /// The distance table for a state: around its boxes frozen on goals when that technique
    /// is on and there are some. Also collects the state's boxes frozen on goals into
    /// `s.frozen` when that technique or the frozen walls need them (and empties it when
    /// neither does).
    fn table_for(&self, s: &mut PushScratch, boxes: &[Cell]) -> Option<Arc<DistanceTable>> {
        if !self.config.frozen_goals && !self.config.frozen_walls {
            s.frozen.clear();
            return None;
        }
        frozen_goal_boxes(self.board, &s.boxes, boxes, &mut s.freeze, &mut s.frozen);
        if !self.config.frozen_goals {
            return None;
        }
        s.tables.get(self.board, &s.frozen)
    }

    /// The boxes that the small searches may keep as walls: the expanded state's boxes
    /// frozen on goals with the frozen walls on, none otherwise.
    fn walls<'a>(&self, frozen: &'a [Cell]) -> &'a [Cell] {
        if self.config.frozen_walls {
            frozen
        } else {
            &[]
        }
    }

    /// `h`, or the pair bound of the position of `boxes` with box `i` moved to `to` (a child of
    /// the node being expanded, whose boxes `boxes` are) or of `boxes` themselves, the player
    /// on `player`, when that is larger (with the pair bound on).
    fn with_pairs(
        &self,
        s: &mut PushScratch,
        h: u32,
        boxes: &[Cell],
        moved: Option<(usize, Cell)>,
        player: Cell,
    ) -> u32 {
        let Some(costs) = &self.pair_costs else { return h };
        let pairs = match moved {
            // A child: from the gains of its parent, which `expand` worked out; `s.boxes` holds
            // the child's boxes.
            Some((i, to)) => {
                let map = &s.boxes;
                costs.child_bound(&s.pair_gains, boxes, i, to, player, |c| map.box_at(c), &mut s.pairs)
            }
            None => costs.bound(boxes, player, &mut s.pairs),
        };
        h.max(pairs)
    }

    /// The bound of a child whose push froze a box on a goal: its frozen set grew, so its
    /// distances are those around the larger set, and the matching is solved afresh.
    fn bound_after_freezing(
        &self,
        s: &mut PushScratch,
        node: NodeRef<'_>,
        i: usize,
        to: Cell,
    ) -> Option<u32> {
        s.child_boxes.clear();
        s.child_boxes.extend_from_slice(node.boxes);
        s.child_boxes[i] = to;
        frozen_goal_boxes(self.board, &s.boxes, &s.child_boxes, &mut s.freeze, &mut s.child_frozen);
        let table = s.tables.get(self.board, &s.child_frozen);
        s.fresh.prepare(table.as_deref().unwrap_or(self.board.goal_distances()), &s.child_boxes)
    }

    /// True if the fence boxes of the PI-corral just found can never open or finish it.
    fn corral_is_dead(&self, s: &mut PushScratch, node: NodeRef<'_>) -> bool {
        s.child_boxes.clear();
        s.child_boxes.extend(s.corral.found_fence().iter().map(|&i| node.boxes[i]));
        let frozen = self.walls(&s.frozen);
        s.corral_search.is_dead(self.board, &s.child_boxes, s.corral.found_cells(), node.player, frozen)
    }

    /// Appends the children made by pushing box `i` (in `only` direction, or in every one).
    fn push_box(
        &self,
        s: &mut PushScratch,
        node: NodeRef<'_>,
        ctx: &Context,
        i: usize,
        only: Option<Dir>,
        out: &mut Vec<Child>,
    ) {
        let board = self.board;
        let b = node.boxes[i];
        let neighbours = *board.neighbours(b);
        for (d, &to) in neighbours.iter().enumerate() {
            if to == NO_CELL || s.boxes.is_box(to) || only.is_some_and(|o| o.index() != d) {
                continue;
            }
            let behind = neighbours[(d + 2) & 3];
            if behind == NO_CELL || !s.reach.contains(behind) {
                continue;
            }
            let dir = Dir::from_index(d);
            if self.discipline.as_ref().is_some_and(|m| m[b as usize] == DISCIPLINED_ENTRANCE) {
                // A box on a disciplined room's entrance (where it stood at the start) goes
                // in by the room's macro too.
                let room = self.goal_rooms().and_then(|r| r.entered(b, dir)).map(|(r, _)| r);
                if let Some(room) = room.filter(|r| r.single_entrance() && r.entrances()[0].dir == dir) {
                    self.push_from_entrance(s, node, ctx, i, room, out);
                }
            }
            if let Some((room, e)) = self.goal_rooms().and_then(|r| r.entered(to, dir)) {
                self.push_macro(s, node, ctx, i, room, e, dir, (b, 1), out);
            }
            if self.config.packing_macros {
                if let Some(order) = &self.packing {
                    for t in order.entered_from(to) {
                        if self.rooms.as_deref().is_none_or(|r| r.step_of(t).is_none()) {
                            self.push_way_in(s, node, ctx, i, order, t, dir, out);
                        }
                    }
                }
            }
            if self.config.dead_squares && board.is_push_dead(to) {
                s.pruned_dead += 1;
                continue;
            }
            self.add_child(s, node, ctx, i, to, dir, Arrival::Push, out);
        }
    }

    /// Appends the children made by moving box `i` with first pushes in the directions of
    /// the bits of `dirs`: one push each, or with box moves every position of the box's runs.
    fn move_box(
        &self,
        s: &mut PushScratch,
        node: NodeRef<'_>,
        ctx: &Context,
        i: usize,
        dirs: u8,
        out: &mut Vec<Child>,
    ) {
        if !self.config.box_moves {
            let only = (dirs != ALL_DIRS).then(|| Dir::from_index(dirs.trailing_zeros() as usize));
            debug_assert!(only.is_none_or(|d| dirs == 1 << d.index()));
            self.push_box(s, node, ctx, i, only, out);
            return;
        }
        let b = node.boxes[i];
        if b == node.moved {
            // The run that moved it here went on from here in every way it could.
            s.runs_skipped += 1;
            return;
        }
        let first = out.len();
        for d in Dir::ALL {
            if dirs & (1 << d.index()) != 0 {
                self.push_box(s, node, ctx, i, Some(d), out);
            }
        }
        let board = self.board;
        let firsts_end = out.len();
        s.runs.start(out[first..].iter().filter(|c| !c.is_macro).map(|c| (c.to, c.dir)));
        loop {
            let labels = self.config.features.then_some(&s.areas);
            let Some(step) = s.runs.step(Side::Forward, board, &mut s.boxes, labels, &mut s.child_reach, b)
            else {
                break;
            };
            let (at, steps) = (step.at, step.steps);
            for &(ahead, d) in step.moves() {
                if self.config.dead_squares && board.is_push_dead(ahead) {
                    s.pruned_dead += 1;
                    continue;
                }
                if self.discipline.as_ref().is_some_and(|m| m[ahead as usize] == DISCIPLINED_ENTRANCE) {
                    // Room discipline: the run's box goes in by the room's macro, or not at all.
                    if let Some((room, e)) = self.goal_rooms().and_then(|r| r.entered(ahead, d)) {
                        self.push_macro(s, node, ctx, i, room, e, d, (at, steps), out);
                    }
                    continue;
                }
                if self.add_child(s, node, ctx, i, ahead, d, Arrival::Run(at, steps), out) {
                    s.runs.go_on(ahead, d, steps);
                }
            }
        }
        s.run_pushes += (out.len() - firsts_end) as u64;
    }

    /// Appends the child in which box `i` has moved to `to`, unless a test prunes it, and says
    /// whether it did. `dir` is the push onto `to`, or a macro's first push.
    #[allow(clippy::too_many_arguments)]
    fn add_child(
        &self,
        s: &mut PushScratch,
        node: NodeRef<'_>,
        ctx: &Context,
        i: usize,
        to: Cell,
        dir: Dir,
        how: Arrival,
        out: &mut Vec<Child>,
    ) -> bool {
        let board = self.board;
        let macro_player = how.player();
        let zobrist = board.zobrist();
        let b = node.boxes[i];
        if !matches!(how, Arrival::Macro(..)) {
            if self.undisciplined(b, to) {
                s.pruned_discipline += 1;
                return false;
            }
            if self.off_plan(ctx, b, to) {
                s.pruned_plan += 1;
                return false;
            }
        }
        s.boxes.shift(b, to);
        let verdict = if self.config.freeze || self.config.frozen_goals {
            s.freeze.check(board, &s.boxes, to)
        } else {
            Verdict::Free
        };
        if self.config.freeze && verdict == Verdict::Deadlock {
            s.pruned_freeze += 1;
            s.boxes.shift(to, b);
            return false;
        }
        if self.config.diagonals && diagonal::is_deadlock(board, &s.boxes, macro_player.unwrap_or(b), to) {
            s.pruned_diagonals += 1;
            s.boxes.shift(to, b);
            return false;
        }
        let h = if self.config.frozen_goals && verdict == Verdict::FrozenOnGoals {
            let h = self.bound_after_freezing(s, node, i, to);
            if h.is_none() {
                s.pruned_frozen_goals += 1;
            }
            h
        } else {
            let h = s.bound.after_move(ctx.table.as_deref().unwrap_or(board.goal_distances()), i, to);
            if h.is_none() {
                s.pruned_bound += 1;
            }
            h
        };
        let Some(h) = h else {
            s.boxes.shift(to, b);
            return false;
        };
        let labels = self.config.features.then_some(&s.areas);
        let (player, areas) = child_region(
            board,
            &s.boxes,
            labels,
            &s.reach,
            &mut s.child_reach,
            ctx.region_min,
            (b, to),
            macro_player.unwrap_or(b),
            macro_player.is_none(),
        );
        let h = self.with_pairs(s, h, node.boxes, Some((i, to)), player);
        let child = AfterMove {
            board,
            before: node.boxes,
            index: i,
            to,
            boxes: &s.boxes,
            player,
            walls: self.walls(&s.frozen),
        };
        if any_dead(&self.tests, &mut s.checks, &child) {
            s.boxes.shift(to, b);
            return false;
        }
        let moved = node.boxes.iter().enumerate().map(|(k, &c)| if k == i { to } else { c });
        let (unpacked, out_of_plan) = self.unpacked(|c| s.boxes.is_box(c), moved);
        let cut_links = self.links.cut_child(&s.boxes, b, to, &mut s.links);
        let explores = self.config.features
            && self.config.explorer
            && !matches!(how, Arrival::Macro(..))
            && self.explores(s, node, i, (b, to), dir, macro_player.unwrap_or(b), ctx.region_min);
        s.boxes.shift(to, b);
        let fp = zobrist.after_move(ctx.base, b, to, player);
        let child_off = ctx.off_goal + usize::from(!board.is_goal(to)) - usize::from(!board.is_goal(b));
        out.push(Child {
            box_index: i as u16,
            to,
            dir,
            player,
            fp,
            h,
            goal: child_off == 0,
            is_macro: matches!(how, Arrival::Macro(..)),
            cell: if self.config.features {
                FeatureCell {
                    unplaced: unpacked.unwrap_or(child_off as u32),
                    areas,
                    cut_links,
                    hotspots: self.hotspots.count_moved_with(node.boxes, &s.hot_counts, i, to),
                    out_of_plan,
                }
                .pack()
            } else {
                0
            },
            steps: how.steps(),
            explores,
            opens: false,
            imagines: false,
        });
        true
    }

    /// True if moving box `i` of `node` from `b` to `to`, its last push in direction `dir`,
    /// the player ending on `player`, lets the player reach a side of another box that it
    /// could not reach before, from which it can push that box onto a square that is neither
    /// occupied nor dead, and the move's last push can be pushed back on the empty board (see
    /// [`PushConfig::explorer`]). `s.boxes` holds the child's boxes and `s.areas` the node's
    /// labels; `region` is a square of the node's player region.
    #[allow(clippy::too_many_arguments)]
    fn explores(
        &self,
        s: &PushScratch,
        node: NodeRef<'_>,
        i: usize,
        (b, to): (Cell, Cell),
        dir: Dir,
        player: Cell,
        region: Cell,
    ) -> bool {
        let board = self.board;
        if board.neighbour(to, dir) == NO_CELL {
            return false;
        }
        let moved = s.areas.moved(board, b, to, player);
        node.boxes.iter().enumerate().filter(|&(j, _)| j != i).any(|(_, &c)| {
            Dir::ALL.into_iter().any(|d| {
                let side = board.neighbour(c, d.opposite());
                let ahead = board.neighbour(c, d);
                side != NO_CELL
                    && ahead != NO_CELL
                    && side != b
                    && !s.boxes.is_box(side)
                    && !s.boxes.is_box(ahead)
                    && !board.is_push_dead(ahead)
                    && !s.areas.joins(region, side)
                    && moved.reaches(side)
            })
        })
    }
}

/// Per-thread working memory of the forward search.
#[derive(Debug)]
pub struct PushScratch {
    boxes: BoxMap,
    reach: Reach,
    child_reach: Reach,
    /// The areas of the state being expanded and where they split: every child's area count
    /// and player region (when the feature cells are on).
    areas: Areas,
    bound: LowerBound,
    freeze: FreezeCheck,
    tables: FrozenTables,
    corral: CorralCheck,
    corral_search: CorralDeadlocks,
    shut_in: ShutInCheck,
    /// A bridge is expanding (see [`Expander::set_light`]): no shut-in test.
    light: bool,
    /// The caches and counters of the tests in [`Forward::tests`].
    checks: TestCaches,
    /// Boxes frozen on goals in the state being expanded, and in a child.
    frozen: Vec<Cell>,
    child_frozen: Vec<Cell>,
    /// A second bound for children whose frozen set differs from their parent's.
    fresh: LowerBound,
    child_boxes: Vec<Cell>,
    /// Box moves: the walk of a box's runs.
    runs: BoxRuns,
    runs_skipped: u64,
    run_pushes: u64,
    pruned_dead: u64,
    pruned_freeze: u64,
    pruned_diagonals: u64,
    pruned_bound: u64,
    pruned_forced: u64,
    pruned_frozen_goals: u64,
    pruned_corral: u64,
    corral_dead: u64,
    macros: u64,
    packing_macros: u64,
    goal_cuts: u64,
    pruned_discipline: u64,
    pruned_plan: u64,
    links: LinkScratch,
    /// The pair bound's working memory, and the gains of the node being expanded.
    pairs: PairScratch,
    pair_gains: PairGains,
    /// Per box of the state being expanded: how many others it blocks (empty unless the
    /// feature cells count hotspots).
    hot_counts: Vec<u16>,
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod box_move_tests;
