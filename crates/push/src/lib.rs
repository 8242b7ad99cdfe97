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

use bisolve_board::moves::{pushes_along, Push};
use bisolve_board::search::{
    Child, Expander, FeatureCell, NodeRef, PackedMove, PruneCount, Root, Side, BOX_MOVE_MAX_CELLS,
};
use bisolve_board::{
    Areas, Board, BoxMap, Cell, Dir, Fingerprint, Reach, RunReach, SquareDirs, State, NO_CELL,
};
use bisolve_deadlock::bound::{BoundKind, LowerBound};
use bisolve_deadlock::diagonal;
use bisolve_deadlock::goal_areas::{AreaCheck, GoalAreas};
use bisolve_deadlock::jams::JamCheck;
use bisolve_deadlock::packing::PackingOrder;
use bisolve_deadlock::pairs::{PairMode, PairTable};
use bisolve_deadlock::rooms::{GoalRoom, GoalRooms, PlanKeys, MAX_PLAN_ROOMS};
use bisolve_deadlock::sealed::{SealedCheck, SealedTargets};
use bisolve_deadlock::triples::TripleTable;

use std::sync::Arc;

use bisolve_board::DistanceTable;

use crate::corral::{Corral, CorralCheck};
use crate::corral_deadlock::CorralDeadlocks;
use crate::frozen::{frozen_goal_boxes, FrozenTables};
use crate::shut_in::ShutInCheck;
use crate::tunnel::{forced_box, Forced};
use bisolve_deadlock::freeze::{FreezeCheck, Verdict};

/// Every direction, as the bits of `Forward::move_box`'s `dirs`.
const ALL_DIRS: u8 = 0b1111;

/// How far (row plus column distance) from the pushed box the other two boxes of a triple
/// checked against the triple table may be.
const TRIPLE_REACH: usize = 4;

/// Switches and choices of the forward search.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PushConfig {
    /// Prune pushes onto dead squares. Default on.
    pub dead_squares: bool,
    /// Prune freeze deadlocks. Default on.
    pub freeze: bool,
    /// Prune closed diagonal deadlocks: a diagonal of empty squares shut in by boxes and
    /// walls, which no push can finish (see [`bisolve_deadlock::diagonal`]). Default on.
    pub diagonals: bool,
    /// The lower bound that orders the search and detects matching deadlocks. Default
    /// [`BoundKind::Matching`].
    pub bound: BoundKind,
    /// Sound tunnel handling: a box that can only ever leave its square one way (a one-way
    /// tunnel) is pushed before anything else, and a box that can never move prunes the state
    /// (see [`tunnel`]). Default on.
    pub tunnels: bool,
    /// Boxes frozen on goals are walls for the others: distances to the remaining goals are
    /// recomputed around them (cached per frozen set), which both sharpens the bound and
    /// finds goals no box can reach any more. Default on.
    pub frozen_goals: bool,
    /// PI-corral pruning: when a PI-corral exists, only pushes into it are generated, and an
    /// unfinished corral that no push can enter is a deadlock (see [`corral`]). Default on.
    pub corrals: bool,
    /// Corral deadlocks: when a PI-corral is found, a small search on its fence boxes alone
    /// checks that they can still open or finish it, and prunes the state when they cannot
    /// (see [`corral_deadlock`]). Needs `corrals`. Default on.
    pub corral_deadlocks: bool,
    /// Shut-in boxes: when a box off its goal has no side the player can reach, a small search
    /// of pushes of the boxes fencing its zone off, the boxes inside standing as walls, checks
    /// that the player can still come to push one of those inside, and prunes the state when
    /// it cannot (see [`shut_in`]). Run at each expansion of the search, not in the bridges
    /// ([`Expander::set_light`]). Default on (`--no-shut-in`).
    pub shut_in: bool,
    /// Pair deadlocks: a table, built before the search by pulling pairs of boxes back from
    /// the goals, of the two-box positions that can never be finished; a push that makes one
    /// with any other box is pruned (see [`bisolve_deadlock::pairs`]). Boards of up to
    /// [`bisolve_deadlock::pairs::MAX_CELLS`] cells. Default on.
    pub pair_deadlocks: bool,
    /// Triple deadlocks: the three-box table of [`bisolve_deadlock::triples`] (boards of up to
    /// [`bisolve_deadlock::triples::MAX_LIVE_CELLS`] live squares), checked between the pushed
    /// box and every two other boxes within four steps of it. Default off: on XSokoban 1-45
    /// and Sasquatch at a fixed budget it left the levels solved and the states to them as
    /// they were (the other tests already catch nearly every dead triple), and building the
    /// table took up to 0.9 s a level (`--triple-deadlocks`).
    pub triple_deadlocks: bool,
    /// Sealed goals: when a push leaves an empty goal that no box can enter now, a small
    /// search on the boxes near it checks that they can still let one in, and prunes the
    /// state when they cannot; verdicts are cached per thread (see [`bisolve_deadlock::sealed`]).
    /// Default on.
    pub sealed_goals: bool,
    /// Jams: when a push leaves three or more boxes knotted together (joined through
    /// neighbouring squares, diagonals included), a small search on those boxes alone checks
    /// that one of them can still get away from the squares around them, or all of them
    /// onto goals there, and prunes the state when none can; verdicts are cached per thread
    /// (see [`bisolve_deadlock::jams`]). Default on (`--no-jams`).
    pub jams: bool,
    /// Frozen walls: in the small searches of the corral deadlocks, sealed goals and jams,
    /// the boxes frozen on goals near the searched ones stand as walls (they never move
    /// again), where without it they are left out or pushed like the others (see
    /// [`bisolve_deadlock::subset`]). Default on (`--no-frozen-walls`).
    pub frozen_walls: bool,
    /// Goal areas: when a push puts a box onto a goal of an area (the squares within one to
    /// three steps of a cluster of goals), a search of the area alone, boxes leaving it and
    /// coming in across its border, checks that its goals can still all be filled, and
    /// prunes the state when they cannot; verdicts are cached per thread (see
    /// [`bisolve_deadlock::goal_areas`]). Default off (`--goal-areas`): measured neutral (XSokoban
    /// 1-45 and Sasquatch at 2M states a level, one thread, bidirectional: the same 57 levels,
    /// 0.07% fewer states, 3% more time; at 60 s on 2 threads the same 37 + 39 levels).
    pub goal_areas: bool,
    /// Goal macros: a box pushed onto the entrance of a goal room is taken on to the next
    /// goal of the room's packing order in one move (see [`bisolve_deadlock::rooms`]). Adds
    /// moves, removes none. Default on.
    pub goal_macros: bool,
    /// Goal rooms with several entrances (corridor squares) get macros too; their paths are
    /// checked push by push with the boxes of the state, since the player may walk round
    /// outside the room (see [`bisolve_deadlock::rooms`]). Needs `goal_macros` or
    /// `packing_macros`. Default off: measured neutral (`--room-entrances`; XSokoban 1-45
    /// and Sasquatch at 2M states a level, one thread: the same 21 + 34 levels, 0.5% more
    /// states; 5 XSokoban and 3 Sasquatch levels the default leaves unsolved get such rooms,
    /// none of them solved at 20 s on 2 threads).
    pub room_entrances: bool,
    /// The goal cut: a state with a goal macro gets only its macros. Makes the forward search
    /// incomplete (never sound to prove a level unsolvable with), so the engine turns it off
    /// when the forward search runs alone. Needs `goal_macros`. Default on.
    pub goal_cut: bool,
    /// Room discipline: with the goal cut, a box enters a goal room with one entrance only by
    /// a goal macro, and a box in such a room is never pushed again, so the room always holds
    /// the first goals of its packing order and a box arriving on its entrance always gets a
    /// macro. The room is a dead end behind its entrance, so the only solutions this leaves
    /// out are those that park a box inside the room or fill it in another order. A box that
    /// stands on the entrance at the start goes in by a macro too (one without a push onto
    /// the entrance). With box moves, a run that brings its box onto the entrance goes on by
    /// the macro. Needs `goal_cut`. Default on (`--no-room-discipline`): at 60 s a level on 2
    /// threads it solves XSokoban 26 in 1.7 s (unsolved without), and Microban I + II at 10 s
    /// stay 290/290 (see `benches/results/2026-11-27-room-discipline.txt`).
    pub room_discipline: bool,
    /// Parking plans: a goal room with one entrance that no packing order fills one box at a
    /// time (a box must wait inside, off its goal, while others pass) gets a parking plan,
    /// found by a search backwards from the full room (see
    /// [`bisolve_deadlock::rooms::PlanRoom`]); the search then changes what the room holds only
    /// by the plan's steps. Needs `room_discipline`. Default on (`--no-room-plans`): at 2M
    /// states a level, one thread, XSokoban 1-45 and Sasquatch solve the same 57 levels,
    /// with 0.99 times the states (Sasquatch 27, the only solved level with a plan, 0.66);
    /// at 60 s on 2 threads 38 + 39 levels, the unsolved levels of earlier runs (see
    /// `benches/results/2026-11-27-parking-plans.txt`).
    pub room_plans: bool,
    /// Compute each child's feature cell (boxes off goals, areas of free squares) for the
    /// feature-cell ordering; costs one labelling of the board's areas and their cut squares
    /// per expansion, from which every child's areas and player region follow (so the
    /// children need no flood fill either). Set by the engine for that ordering only. Default
    /// off.
    pub features: bool,
    /// With `features`: count goals packed in their packing order (see
    /// [`bisolve_deadlock::packing`]) instead of boxes on goals in the feature cell, so a box
    /// on a goal out of turn counts for nothing. Default off: measured neutral to slightly
    /// worse (`--packing`; see `Weighting::Features`).
    pub packing: bool,
    /// Packing macros: a box pushed onto the square a goal's way in starts from (see
    /// [`bisolve_deadlock::packing`]), while that goal is next to fill and its way is free, is
    /// taken on to the goal in one move. Goals of goal rooms keep their room macros. Adds
    /// moves, removes none. Default off: measured neutral to slightly worse
    /// (`--packing-macros`; see `Weighting::Features`).
    pub packing_macros: bool,
    /// Box moves (after Festival's move model): an expansion moves a box to every square it
    /// can reach by a run of pushes of that box alone, the player walking between them,
    /// and every position on the way is a child. Each is recorded as one push from the one
    /// before it, so paths read back as plain pushes; the first push of each run is one the
    /// other rules allow (PI-corrals, tunnels, macros), the later ones are tested for
    /// deadlocks as any child. A box that the move into a node moved is not moved again
    /// from there ([`NodeRef::moved`]): its runs continue the run that moved it. Default off
    /// (`--box-moves`), but the default portfolio's first restart turns it on for its run
    /// (`Restart::box_moves` in the engine). Only on boards of up to [`BOX_MOVE_MAX_CELLS`] cells.
    pub box_moves: bool,
}

impl Default for PushConfig {
    fn default() -> PushConfig {
        PushConfig {
            dead_squares: true,
            freeze: true,
            diagonals: true,
            bound: BoundKind::Matching,
            tunnels: true,
            frozen_goals: true,
            corrals: true,
            corral_deadlocks: true,
            shut_in: true,
            pair_deadlocks: true,
            triple_deadlocks: false,
            sealed_goals: true,
            jams: true,
            frozen_walls: true,
            goal_areas: false,
            goal_macros: true,
            room_entrances: false,
            goal_cut: true,
            room_discipline: true,
            room_plans: true,
            features: false,
            packing: false,
            packing_macros: false,
            box_moves: false,
        }
    }
}

/// The forward move generator for one level.
#[derive(Debug)]
pub struct Forward<'a> {
    board: &'a Board,
    start: &'a State,
    config: PushConfig,
    pairs: Option<Arc<PairTable>>,
    /// The triple deadlock table, when it is on and the board is small enough for one.
    triples: Option<Arc<TripleTable>>,
    /// The goals' neighbourhoods for the sealed-goal test, when it is on.
    sealed: Option<SealedTargets>,
    /// The goal areas, when the test is on and the board has some.
    goal_areas: Option<GoalAreas>,
    /// Goal rooms with packing orders or parking plans, when goal or packing macros are on
    /// (empty when the level has none; packing macros leave room goals to room macros,
    /// whichever macros are on, so that a macro move decodes the same way for every
    /// configuration).
    rooms: Option<Arc<GoalRooms>>,
    /// The goals' packing order, when feature cells count packed goals or packing macros
    /// are on.
    packing: Option<PackingOrder>,
    /// Feature cells count packed goals: the packing feature is on and the order ranks
    /// something.
    counts_packed: bool,
    /// Room discipline, per cell: [`DISCIPLINED_ROOM`] for the squares of the goal rooms with
    /// one entrance, [`DISCIPLINED_ENTRANCE`] for their entrances; `None` when the discipline
    /// is off or the level has no such room.
    discipline: Option<Vec<u8>>,
    /// Rooms with parking plans are kept to their plans ([`PushConfig::room_plans`]).
    plans_on: bool,
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

/// Where a macro move goes after its first push.
enum MacroWay<'r> {
    /// Along step `j` of a goal room's order, from entrance `e`: `Room(room, j, e)`.
    Room(&'r GoalRoom, usize, usize),
    /// Along step `j` of the order of a room with one entrance, for a box that stood on the
    /// entrance (room discipline): no push onto the entrance comes first. Stored with the
    /// direction out of the room, which no other macro of the room has.
    FromEntrance(&'r GoalRoom, usize),
    /// Along a target's way in, from the square it starts on.
    Packing(Cell, &'r [Dir]),
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
        let pairs = if config.pair_deadlocks {
            others
                .iter()
                .find_map(|o| o.pairs.clone())
                .or_else(|| PairTable::new(board, PairMode::Push).map(Arc::new))
        } else {
            None
        };
        let triples = if config.triple_deadlocks {
            others.iter().find_map(|o| o.triples.clone()).or_else(|| TripleTable::new(board).map(Arc::new))
        } else {
            None
        };
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
        let sealed = config.sealed_goals.then(|| SealedTargets::new(board, PairMode::Push));
        let goal_areas = config.goal_areas.then(|| GoalAreas::new(board)).filter(|a| !a.is_empty());
        let mut config = config;
        config.box_moves &= board.n_cells() <= BOX_MOVE_MAX_CELLS;
        let discipline = if config.goal_macros && config.goal_cut && config.room_discipline {
            rooms.as_deref().and_then(|r| discipline_map(board, r))
        } else {
            None
        };
        Forward {
            board,
            start,
            config,
            pairs,
            triples,
            sealed,
            goal_areas,
            rooms,
            packing,
            counts_packed,
            discipline,
            plans_on,
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
        s.run_seen.next();
        s.run.clear();
        for c in out[first..].iter().filter(|c| !c.is_macro) {
            s.run_seen.insert(c.to, c.dir);
            s.run.push((c.to, c.dir, 1));
        }
        let mut k = 0;
        while k < s.run.len() {
            let (at, last, steps) = s.run[k];
            k += 1;
            // The box on `at`, the player behind it: where can it go next?
            s.boxes.shift(b, at);
            let player = board.neighbour(at, last.opposite());
            let labels = self.config.features.then_some(&s.areas);
            let reach = RunReach::of_run(board, &s.boxes, labels, &mut s.child_reach, b, at, player);
            let mut next = [(NO_CELL, Dir::Up); 4];
            let mut n = 0;
            let neighbours = *board.neighbours(at);
            for (d, &ahead) in neighbours.iter().enumerate() {
                let behind = neighbours[(d + 2) & 3];
                if ahead == NO_CELL
                    || s.boxes.is_box(ahead)
                    || behind == NO_CELL
                    || !reach.reaches(behind)
                    || !s.run_seen.insert(ahead, Dir::from_index(d))
                {
                    continue;
                }
                if self.config.dead_squares && board.is_push_dead(ahead) {
                    s.pruned_dead += 1;
                    continue;
                }
                next[n] = (ahead, Dir::from_index(d));
                n += 1;
            }
            s.boxes.shift(at, b);
            let steps = steps.saturating_add(1);
            for &(ahead, d) in &next[..n] {
                if self.discipline.as_ref().is_some_and(|m| m[ahead as usize] == DISCIPLINED_ENTRANCE) {
                    // Room discipline: the run's box goes in by the room's macro, or not at all.
                    if let Some((room, e)) = self.goal_rooms().and_then(|r| r.entered(ahead, d)) {
                        self.push_macro(s, node, ctx, i, room, e, d, (at, steps), out);
                    }
                    continue;
                }
                if self.add_child(s, node, ctx, i, ahead, d, Arrival::Run(at, steps), out) {
                    s.run.push((ahead, d, steps));
                }
            }
        }
        s.run_pushes += (out.len() - firsts_end) as u64;
    }

    /// Appends the goal macro that follows pushing box `i` in `dir` onto entrance `e` of
    /// `room`, if the room is at a step of its order with a path from there and the player can
    /// then get behind the box (and, for a room with several entrances, behind it at every
    /// push of the path, with the boxes as they are).
    #[allow(clippy::too_many_arguments)]
    fn push_macro(
        &self,
        s: &mut PushScratch,
        node: NodeRef<'_>,
        ctx: &Context,
        i: usize,
        room: &GoalRoom,
        e: usize,
        dir: Dir,
        (from, steps): (Cell, u16),
        out: &mut Vec<Child>,
    ) {
        // The box comes from outside the room, so the room's contents are the parent's.
        let Some(j) = room.next_step(|c| s.boxes.is_box(c)) else {
            return;
        };
        // The stored move (goal, first direction) must name this entrance.
        if room.entrance_for(j, dir) != Some(e) {
            return;
        }
        let (b, entrance) = (node.boxes[i], room.entrances()[e]);
        if !room.single_entrance() {
            debug_assert_eq!(from, b, "runs of box moves make macros of rooms with one entrance only");
            // A corridor entrance: the box came from `O`, where the player now stands.
            let Some(path) = room.path(j, e) else { return };
            s.boxes.move_box(b, entrance.cell);
            let free = self.way_is_free(s, entrance.cell, b, path);
            s.boxes.move_box(entrance.cell, b);
            if !free {
                return;
            }
        } else if dir != entrance.dir {
            // Pushed onto the entrance from the side: the player, now where the box was,
            // must walk round to the square behind it.
            s.boxes.move_box(b, entrance.cell);
            s.child_reach.fill(self.board, &s.boxes, from);
            s.boxes.move_box(entrance.cell, b);
            if !s.child_reach.contains(entrance.outside) {
                return;
            }
        }
        s.macros += 1;
        let player = room.player_after(self.board, j, e);
        self.add_child(s, node, ctx, i, room.order()[j], dir, Arrival::Macro(player, steps), out);
    }

    /// Appends the goal macro of box `i`, which stands on the entrance of `room` (a room with
    /// one entrance under room discipline) with the player behind it, if the room is at a
    /// step of its order.
    fn push_from_entrance(
        &self,
        s: &mut PushScratch,
        node: NodeRef<'_>,
        ctx: &Context,
        i: usize,
        room: &GoalRoom,
        out: &mut Vec<Child>,
    ) {
        let Some(j) = room.next_step(|c| s.boxes.is_box(c)) else {
            return;
        };
        if room.path(j, 0).is_none() {
            return;
        }
        s.macros += 1;
        let player = room.player_after(self.board, j, 0);
        let out_of_room = room.entrances()[0].dir.opposite();
        self.add_child(s, node, ctx, i, room.order()[j], out_of_room, Arrival::Macro(player, 1), out);
    }

    /// Appends the packing macro that follows pushing box `i` in `dir` onto the square target
    /// `t`'s way in starts from, if `t` is next to fill and the way is free.
    #[allow(clippy::too_many_arguments)]
    fn push_way_in(
        &self,
        s: &mut PushScratch,
        node: NodeRef<'_>,
        ctx: &Context,
        i: usize,
        order: &PackingOrder,
        t: Cell,
        dir: Dir,
        out: &mut Vec<Child>,
    ) {
        let Some((start, dirs)) = order.way_in(t) else { return };
        let b = node.boxes[i];
        if t == b || t == self.board.neighbour(b, dir.opposite()) {
            // The box would come back to where it was, or to where the player stood for the
            // first push: no use, and the move could not be undone from the child alone.
            return;
        }
        s.boxes.move_box(b, start);
        let free = order.is_next(t, |c| s.boxes.is_box(c)) && self.way_is_free(s, start, b, dirs);
        s.boxes.move_box(start, b);
        let Some(&last) = dirs.last() else { return };
        if free {
            s.packing_macros += 1;
            let player = self.board.neighbour(t, last.opposite());
            self.add_child(s, node, ctx, i, t, dir, Arrival::Macro(player, 1), out);
        }
    }

    /// True if the box on `start` (already there in `s.boxes`) can be pushed along `dirs` with
    /// the player starting on `player`: every square ahead of the box is free and the player
    /// can walk behind it before each turn. Leaves `s.boxes` as it found it.
    fn way_is_free(&self, s: &mut PushScratch, start: Cell, mut player: Cell, dirs: &[Dir]) -> bool {
        let board = self.board;
        let mut at = start;
        let mut free = true;
        for &d in dirs {
            let (behind, ahead) = (board.neighbour(at, d.opposite()), board.neighbour(at, d));
            if ahead == NO_CELL || behind == NO_CELL || s.boxes.is_box(ahead) {
                free = false;
                break;
            }
            if behind != player {
                s.child_reach.fill(board, &s.boxes, player);
                if !s.child_reach.contains(behind) {
                    free = false;
                    break;
                }
            }
            s.boxes.move_box(at, ahead);
            player = at;
            at = ahead;
        }
        if at != start {
            s.boxes.move_box(at, start);
        }
        free
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
        let (player, areas) = if self.config.features {
            let (areas, player) = if to == b {
                // A run of box moves brought the box back round to its square.
                s.areas.unmoved(macro_player.unwrap_or(b))
            } else {
                s.areas.after_move(board, b, to, macro_player.unwrap_or(b))
            };
            (player, areas)
        } else {
            let player = match macro_player {
                Some(p) => s.child_reach.fill(board, &s.boxes, p),
                None => match s.reach.child_min(board, &s.boxes, ctx.region_min, b, to) {
                    Some(p) => p,
                    None => s.child_reach.fill(board, &s.boxes, b),
                },
            };
            (player, 0)
        };
        debug_assert_eq!(player, s.child_reach.fill(board, &s.boxes, macro_player.unwrap_or(b)));
        if let Some(pairs) = &self.pairs {
            if pairs.is_dead_with_any(to, node.boxes, i, &s.boxes, player) {
                s.pruned_pairs += 1;
                s.boxes.shift(to, b);
                return false;
            }
        }
        if let Some(triples) = &self.triples {
            if self.triple_dead(triples, node.boxes, i, to) {
                s.pruned_triples += 1;
                s.boxes.shift(to, b);
                return false;
            }
        }
        if let Some(sealed) = &self.sealed {
            if s.sealed.is_dead(sealed, board, &s.boxes, to, player, self.walls(&s.frozen)) {
                s.boxes.shift(to, b);
                return false;
            }
        }
        if self.config.jams && s.jams.is_dead(board, &s.boxes, to, player, self.walls(&s.frozen)) {
            s.boxes.shift(to, b);
            return false;
        }
        if let Some(areas) = &self.goal_areas {
            if s.goal_areas.is_dead(areas, board, &s.boxes, to, player) {
                s.boxes.shift(to, b);
                return false;
            }
        }
        let unpacked = self.counts_packing().map(|p| p.unpacked(|c| s.boxes.is_box(c)));
        s.boxes.shift(to, b);
        let fp = ctx.base ^ zobrist.box_key(b) ^ zobrist.box_key(to) ^ zobrist.player_key(player);
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
                FeatureCell { unplaced: unpacked.unwrap_or(child_off as u32), areas }.pack()
            } else {
                0
            },
            steps: how.steps(),
        });
        true
    }

    /// True if box `i`, moved to `to`, makes a dead triple with two other boxes within
    /// [`TRIPLE_REACH`] steps (row plus column distance) of `to` (the first eight such boxes in
    /// box order; checking fewer triples only prunes less).
    fn triple_dead(&self, triples: &TripleTable, boxes: &[Cell], i: usize, to: Cell) -> bool {
        let (x, y) = self.board.xy(to);
        let mut near = [0 as Cell; 8];
        let mut k = 0;
        for (j, &c) in boxes.iter().enumerate() {
            let (cx, cy) = self.board.xy(c);
            if j != i && x.abs_diff(cx) + y.abs_diff(cy) <= TRIPLE_REACH && k < near.len() {
                near[k] = c;
                k += 1;
            }
        }
        let near = &near[..k];
        near.iter().enumerate().any(|(a, &p)| near[a + 1..].iter().any(|&q| triples.is_dead(to, p, q)))
    }

    /// Where a macro move went after its first push, the square its box came from and the
    /// square the player stood on before it.
    fn macro_of(&self, mv: PackedMove) -> Option<(MacroWay<'_>, Cell, Cell)> {
        let back = mv.dir().opposite();
        let behind = |from: Cell| {
            let player = self.board.neighbour(from, back);
            (from != NO_CELL && player != NO_CELL).then_some((from, player))
        };
        if let Some((room, j)) = self.rooms.as_deref().and_then(|r| r.step_of(mv.to())) {
            let first = room.entrances()[0];
            if room.single_entrance() && mv.dir() == first.dir.opposite() {
                room.path(j, 0)?;
                return Some((MacroWay::FromEntrance(room, j), first.cell, first.outside));
            }
            let e = room.entrance_for(j, mv.dir())?;
            let (from, player) = behind(self.board.neighbour(room.entrances()[e].cell, back))?;
            return Some((MacroWay::Room(room, j, e), from, player));
        }
        let (start, dirs) = self.packing.as_ref().filter(|_| self.config.packing_macros)?.way_in(mv.to())?;
        let (from, player) = behind(self.board.neighbour(start, back))?;
        Some((MacroWay::Packing(start, dirs), from, player))
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
    sealed: SealedCheck,
    /// The jam test's working memory and verdicts.
    jams: JamCheck,
    /// The goal-area test's working memory and verdicts.
    goal_areas: AreaCheck,
    /// Boxes frozen on goals in the state being expanded, and in a child.
    frozen: Vec<Cell>,
    child_frozen: Vec<Cell>,
    /// A second bound for children whose frozen set differs from their parent's.
    fresh: LowerBound,
    child_boxes: Vec<Cell>,
    /// Box moves: the positions of the box's runs still to extend (square, last push,
    /// pushes so far) and the (square, last push) pairs already reached.
    run: Vec<(Cell, Dir, u16)>,
    run_seen: SquareDirs,
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
    pruned_pairs: u64,
    pruned_triples: u64,
    macros: u64,
    packing_macros: u64,
    goal_cuts: u64,
    pruned_discipline: u64,
    pruned_plan: u64,
}

impl Expander for Forward<'_> {
    type Scratch = PushScratch;

    fn side(&self) -> Side {
        Side::Forward
    }

    fn new_scratch(&self) -> PushScratch {
        let n = self.board.n_cells();
        PushScratch {
            boxes: BoxMap::new(n),
            reach: Reach::new(n),
            child_reach: Reach::new(n),
            areas: Areas::new(n),
            bound: LowerBound::new(self.config.bound),
            freeze: FreezeCheck::default(),
            tables: FrozenTables::default(),
            corral: CorralCheck::new(n),
            corral_search: CorralDeadlocks::new(n),
            shut_in: ShutInCheck::new(n),
            light: false,
            sealed: SealedCheck::new(n),
            jams: JamCheck::new(n, PairMode::Push),
            goal_areas: AreaCheck::new(self.board),
            frozen: Vec::new(),
            child_frozen: Vec::new(),
            fresh: LowerBound::new(self.config.bound),
            child_boxes: Vec::new(),
            run: Vec::new(),
            run_seen: SquareDirs::new(n),
            runs_skipped: 0,
            run_pushes: 0,
            pruned_dead: 0,
            pruned_freeze: 0,
            pruned_diagonals: 0,
            pruned_bound: 0,
            pruned_forced: 0,
            pruned_frozen_goals: 0,
            pruned_corral: 0,
            corral_dead: 0,
            pruned_pairs: 0,
            pruned_triples: 0,
            macros: 0,
            packing_macros: 0,
            goal_cuts: 0,
            pruned_discipline: 0,
            pruned_plan: 0,
        }
    }

    fn roots(&self, s: &mut PushScratch) -> Vec<Root> {
        let board = self.board;
        let boxes = &self.start.boxes;
        if self.config.dead_squares && boxes.iter().any(|&b| board.is_push_dead(b)) {
            return Vec::new();
        }
        s.boxes.set_all(boxes);
        let player = s.reach.fill(board, &s.boxes, self.start.player);
        let frozen = self.config.freeze && boxes.iter().any(|&b| s.freeze.is_deadlock(board, &s.boxes, b));
        s.boxes.clear_all(boxes);
        if frozen {
            return Vec::new();
        }
        let Some(h) = s.bound.prepare(board.goal_distances(), boxes) else {
            return Vec::new();
        };
        let cell = if self.config.features {
            s.boxes.set_all(boxes);
            let areas = s.areas.label(board, boxes);
            let unpacked = self.counts_packing().map(|p| p.unpacked(|c| s.boxes.is_box(c)));
            s.boxes.clear_all(boxes);
            let unplaced = boxes.iter().filter(|&&b| !board.is_goal(b)).count() as u32;
            FeatureCell { unplaced: unpacked.unwrap_or(unplaced), areas }.pack()
        } else {
            0
        };
        let state = State::new(boxes.clone(), player);
        let fp = board.zobrist().fingerprint(&state.boxes, player);
        vec![Root { state, fp, h, cell }]
    }

    fn is_goal(&self, _s: &mut PushScratch, node: NodeRef<'_>) -> bool {
        node.boxes.iter().all(|&b| self.board.is_goal(b))
    }

    fn expand(&self, s: &mut PushScratch, node: NodeRef<'_>, out: &mut Vec<Child>) {
        let board = self.board;
        s.boxes.set_all(node.boxes);
        // With feature cells the labels say where the player can walk: no fill.
        let region_min = if self.config.features {
            s.areas.label(board, node.boxes);
            let region_min = s.reach.adopt(&s.areas, node.player);
            // Debug builds fill too (into the children's scratch fill, refilled per child).
            debug_assert!({
                let fill = &mut s.child_reach;
                fill.fill(board, &s.boxes, node.player) == region_min
                    && (0..board.n_cells() as Cell).all(|c| fill.contains(c) == s.reach.contains(c))
            });
            region_min
        } else {
            s.reach.fill(board, &s.boxes, node.player)
        };
        if self.config.shut_in
            && !s.light
            && s.shut_in.is_dead(board, node.boxes, &s.boxes, &s.reach, region_min)
        {
            s.boxes.clear_all(node.boxes);
            return;
        }
        let table = self.table_for(s, node.boxes);
        if s.bound.prepare(table.as_deref().unwrap_or(board.goal_distances()), node.boxes).is_none() {
            // Only a root or a state found before a configuration change can get here.
            s.boxes.clear_all(node.boxes);
            return;
        }
        let ctx = Context {
            region_min,
            plan_keys: self.plan_rooms().map_or([0; MAX_PLAN_ROOMS], |r| r.plan_keys(node.boxes)),
            off_goal: node.boxes.iter().filter(|&&b| !board.is_goal(b)).count(),
            base: node.fp ^ board.zobrist().player_key(node.player),
            table,
        };
        let forced =
            if self.config.tunnels { forced_box(board, &s.boxes, node.boxes, &s.reach) } else { Forced::No };
        match forced {
            Forced::No => {
                let corral = if self.config.corrals {
                    s.corral.find(board, &s.boxes, node.boxes, &s.reach)
                } else {
                    Corral::None
                };
                match corral {
                    Corral::None => {
                        for i in 0..node.boxes.len() {
                            self.move_box(s, node, &ctx, i, ALL_DIRS, out);
                        }
                    }
                    Corral::Only(pushes) => {
                        s.pruned_corral += 1;
                        if self.config.corral_deadlocks && self.corral_is_dead(s, node) {
                            s.boxes.clear_all(node.boxes);
                            return;
                        }
                        if self.config.box_moves {
                            // One run per box, from every first push the corral allows it.
                            let mut pushes = pushes;
                            pushes.sort_unstable_by_key(|&(i, _)| i);
                            for run in pushes.chunk_by(|a, b| a.0 == b.0) {
                                let dirs = run.iter().fold(0, |m, &(_, d)| m | 1 << d.index());
                                self.move_box(s, node, &ctx, run[0].0, dirs, out);
                            }
                        } else {
                            for (i, dir) in pushes {
                                self.push_box(s, node, &ctx, i, Some(dir), out);
                            }
                        }
                    }
                    Corral::Dead => s.corral_dead += 1,
                }
            }
            Forced::Box(i, dir) => {
                s.pruned_forced += 1;
                self.move_box(s, node, &ctx, i, 1 << dir.index(), out);
            }
            Forced::Stuck => s.pruned_forced += 1,
        }
        s.boxes.clear_all(node.boxes);
        // The cut keeps the macros that start with a push from the node: a macro at the end
        // of a run of box moves is recorded as a move from the run's position before it,
        // which must stay among the children for the macro's parent to be on record.
        let first_macro = |c: &Child| c.is_macro && c.steps == 1;
        if self.config.goal_cut && self.goal_rooms().is_some() && out.iter().any(first_macro) {
            s.goal_cuts += 1;
            out.retain(first_macro);
        }
    }

    fn complete(&self) -> bool {
        !(self.config.goal_cut && self.goal_rooms().is_some())
    }

    fn parent(&self, state: &State, mv: PackedMove) -> Option<State> {
        let back = mv.dir().opposite();
        let to = mv.to();
        if mv.is_root() || state.boxes.binary_search(&to).is_err() {
            return None;
        }
        if mv.is_macro() {
            // The box came from next to the room's entrance or the way's start, the player
            // behind it.
            let (_, from, player) = self.macro_of(mv)?;
            if [from, player].iter().any(|c| state.boxes.binary_search(c).is_ok()) {
                return None;
            }
            let mut parent = state.clone();
            parent.move_box(to, from, player);
            return Some(parent);
        }
        let from = self.board.neighbour(to, back);
        if from == NO_CELL || state.boxes.binary_search(&from).is_ok() {
            return None;
        }
        let player = self.board.neighbour(from, back);
        if player == NO_CELL || state.boxes.binary_search(&player).is_ok() {
            return None;
        }
        let mut parent = state.clone();
        parent.move_box(to, from, player);
        Some(parent)
    }

    fn as_pushes(&self, mv: PackedMove, out: &mut Vec<Push>) {
        if mv.is_macro() {
            if let Some((way, from, _)) = self.macro_of(mv) {
                match way {
                    MacroWay::Room(room, j, e) => {
                        out.push(Push { from, dir: mv.dir() });
                        room.path_pushes(self.board, j, e, out);
                    }
                    MacroWay::FromEntrance(room, j) => room.path_pushes(self.board, j, 0, out),
                    MacroWay::Packing(start, dirs) => {
                        out.push(Push { from, dir: mv.dir() });
                        pushes_along(self.board, start, dirs, out);
                    }
                }
                return;
            }
        }
        out.push(Push { from: self.board.neighbour(mv.to(), mv.dir().opposite()), dir: mv.dir() });
    }

    /// Bridges leave out the shut-in test. On XSokoban 23, where nearly every position has a
    /// box the player cannot reach, the test costs a quarter more per expansion, and the
    /// bridges and the perimeter, which solve that level a few seconds after a restart, no
    /// longer did (default, 2 threads, 20 s: 0 of 7 runs with the test in the bridges too, 6
    /// of 10 with it in the main search only, 5 of 7 without it).
    fn set_light(&self, s: &mut PushScratch, light: bool) {
        s.light = light;
    }

    fn prune_counts(&self, s: &PushScratch) -> Vec<PruneCount> {
        vec![
            ("dead squares", s.pruned_dead),
            ("freeze", s.pruned_freeze),
            ("closed diagonal", s.pruned_diagonals),
            ("bound", s.pruned_bound),
            ("tunnel (forced box)", s.pruned_forced),
            ("frozen goals", s.pruned_frozen_goals),
            ("frozen goal tables", s.tables.built()),
            ("PI-corral (restricted expansions)", s.pruned_corral),
            ("corral deadlock", s.corral_dead),
            ("corral search deadlock", s.corral_search.proved),
            ("corral searches", s.corral_search.searches),
            ("shut-in deadlock", s.shut_in.proved),
            ("shut-in searches", s.shut_in.searches),
            ("shut-in searches given up", s.shut_in.gave_up),
            ("shut-in zones opened by one push", s.shut_in.opened),
            ("shut-in checks", s.shut_in.checks),
            ("pair deadlock", s.pruned_pairs),
            ("triple deadlock", s.pruned_triples),
            ("sealed goal deadlock", s.sealed.proved),
            ("sealed goal searches", s.sealed.searches),
            ("sealed goal searches given up", s.sealed.gave_up),
            ("sealed goal checks", s.sealed.checks),
            ("jam deadlock", s.jams.proved),
            ("jam searches", s.jams.searches),
            ("jam searches given up", s.jams.gave_up),
            ("jam checks", s.jams.checks),
            (
                "frozen wall searches",
                s.corral_search.fixed_searches + s.sealed.fixed_searches + s.jams.fixed_searches,
            ),
            ("goal area deadlock", s.goal_areas.proved),
            ("goal area searches", s.goal_areas.searches),
            ("goal area searches given up", s.goal_areas.gave_up),
            ("goal area checks", s.goal_areas.checks),
            ("goal macros", s.macros),
            ("packing macros", s.packing_macros),
            ("goal cut (restricted expansions)", s.goal_cuts),
            ("room discipline", s.pruned_discipline),
            ("room plan", s.pruned_plan),
            ("box moves past the first push", s.run_pushes),
            ("box moves left to the run before (moved last)", s.runs_skipped),
        ]
    }
}

/// The room discipline's map (see [`Forward::discipline`]), or `None` when no room qualifies.
fn discipline_map(board: &Board, rooms: &GoalRooms) -> Option<Vec<u8>> {
    let mut map = vec![0; board.n_cells()];
    let mut any = false;
    for room in rooms.rooms().iter().filter(|r| r.single_entrance()) {
        let entrance = room.entrances()[0].cell;
        any = true;
        map[entrance as usize] = DISCIPLINED_ENTRANCE;
        for &c in room.cells() {
            map[c as usize] = DISCIPLINED_ROOM;
        }
    }
    any.then_some(map)
}

#[cfg(test)]
mod tests {
    use super::*;
    use bisolve_board::search::children_of;
    use bisolve_board::Level;

    /// Every technique off, and no bound.
    fn nothing() -> PushConfig {
        PushConfig {
            dead_squares: false,
            freeze: false,
            diagonals: false,
            bound: BoundKind::Zero,
            tunnels: false,
            frozen_goals: false,
            corrals: false,
            corral_deadlocks: false,
            shut_in: false,
            pair_deadlocks: false,
            triple_deadlocks: false,
            sealed_goals: false,
            jams: false,
            frozen_walls: false,
            goal_areas: false,
            goal_macros: false,
            room_entrances: false,
            goal_cut: false,
            room_discipline: false,
            room_plans: false,
            features: false,
            packing: false,
            packing_macros: false,
            box_moves: false,
        }
    }

    /// Where the pushes of the level's start take boxes, with the given configuration.
    fn targets(level: &Level, config: PushConfig) -> Vec<Cell> {
        let board = level.board();
        let forward = Forward::new(board, level.start(), config);
        let mut scratch = forward.new_scratch();
        let start = level.start();
        children_of(&forward, &mut scratch, board, start, NO_CELL).iter().map(|(_, c)| c.to).collect()
    }

    #[test]
    fn the_push_that_closes_a_diagonal_is_pruned_only_with_the_switch_on() {
        // Pushing the lowest box up closes a diagonal of six boxes off their goals between
        // two walls (see bisolve_deadlock::diagonal).
        let level = Level::parse(
            "##########\n#        #\n# #$     #\n# $ $    #\n#  $ $   #\n#    #   #\n\
             #   $    #\n#   @    #\n#  ...   #\n#  ...   #\n##########",
        )
        .expect("valid level");
        let closing = level.board().cell(4, 5).expect("floor");
        assert!(targets(&level, nothing()).contains(&closing));
        let pruned = targets(&level, PushConfig { diagonals: true, ..nothing() });
        assert!(!pruned.contains(&closing));
        // The push the other way, which opens nothing, is kept.
        assert!(pruned.contains(&level.board().cell(4, 7).expect("floor")));
    }

    #[test]
    fn a_room_with_a_parking_plan_changes_only_by_its_steps() {
        // levels/edge/parking-room.xsb: the first box into the room at the top must wait on
        // the square left of the entrance's column while the second passes.
        let level = Level::parse(
            "######\n#  # #\n#   .#\n# .  #\n### #####\n#      .#\n# $$ $  #\n#@      #\n#########",
        )
        .expect("valid level");
        let board = level.board();
        let at = |x, y| board.cell(x, y).expect("floor");
        // The first box has come in and up; the player stands below it.
        let state = State::new(vec![at(3, 2), at(3, 6), at(5, 6)], at(3, 3));
        let rooms = PushConfig {
            goal_macros: true,
            goal_cut: true,
            room_discipline: true,
            room_plans: true,
            ..nothing()
        };
        let moves_of_the_box = |config: PushConfig| {
            let forward = Forward::new(board, level.start(), config);
            let mut scratch = forward.new_scratch();
            let children = children_of(&forward, &mut scratch, board, &state, NO_CELL);
            let mut to: Vec<Cell> =
                children.iter().filter(|(s, _)| !s.boxes.contains(&at(3, 2))).map(|(_, c)| c.to).collect();
            to.sort_unstable();
            to
        };
        // Without the plan it can go right, onto the right-hand goal, which would leave the
        // left-hand goal no way in; the plan parks it on the left.
        assert_eq!(moves_of_the_box(PushConfig { room_plans: false, ..rooms }), vec![at(2, 2), at(4, 2)]);
        assert_eq!(moves_of_the_box(rooms), vec![at(2, 2)]);
        let forward = Forward::new(board, level.start(), rooms);
        assert!(!forward.complete(), "a search kept to a plan is not complete");
    }

    #[test]
    fn the_push_that_makes_a_dead_triple_is_pruned_only_with_the_switch_on() {
        // Pushing the box below the top row up makes three boxes on a row they can never
        // leave, which has two goals; any two of them could still be finished.
        let level = Level::parse("#########\n#.$ $  .#\n#     $ #\n#   .   #\n#@      #\n#########")
            .expect("valid level");
        let third = level.board().cell(6, 1).expect("floor");
        let pairs = PushConfig { pair_deadlocks: true, ..nothing() };
        assert!(targets(&level, pairs).contains(&third));
        let pruned = targets(&level, PushConfig { triple_deadlocks: true, ..pairs });
        assert!(!pruned.contains(&third));
        assert!(pruned.contains(&level.board().cell(6, 3).expect("floor")));
    }
}

#[cfg(test)]
mod box_move_tests {
    use super::*;
    use bisolve_board::search::children_of;
    use bisolve_board::Level;
    use std::collections::HashSet;

    /// An open room with a pillar, three boxes and a goal room behind a door: runs go round
    /// the pillar and along the walls.
    const ROOM: &str = "##########\n#  .     #\n# $  #   #\n#    $  .#\n#@   $   #\n#.       #\n##########";

    /// The children of `state` (reached by moving the box now on `moved`, or a root).
    fn expand(forward: &Forward<'_>, level: &Level, state: &State, moved: Cell) -> Vec<(State, Child)> {
        children_of(forward, &mut forward.new_scratch(), level.board(), state, moved)
    }

    fn config(box_moves: bool) -> PushConfig {
        PushConfig { box_moves, goal_macros: false, goal_cut: false, ..PushConfig::default() }
    }

    /// Every child of a run undoes, one push back, to the node or to a child listed before
    /// it, one step shorter; the first pushes are the plain expansion's children.
    #[test]
    fn each_push_of_a_run_undoes_to_an_earlier_child() {
        let level = Level::parse(ROOM).expect("valid level");
        let board = level.board();
        let start = level.start().clone();
        let forward = Forward::new(board, level.start(), config(true));
        let children = expand(&forward, &level, &start, NO_CELL);
        let mut seen: Vec<(Fingerprint, u16)> = vec![(start.fingerprint(board), 0)];
        let mut longest = 0;
        for (state, child) in &children {
            let parent = forward.parent(state, child.packed()).expect("a run's push undoes");
            let parent_fp = parent.fingerprint(board);
            assert!(
                seen.iter().any(|&(fp, steps)| fp == parent_fp && steps + 1 == child.steps),
                "{child:?}: the state one push back was not listed before it, one step shorter"
            );
            assert_eq!(child.fp, state.fingerprint(board));
            seen.push((child.fp, child.steps));
            longest = longest.max(child.steps);
        }
        assert!(longest >= 4, "no long run in the open room: {longest}");
        let plain = Forward::new(board, level.start(), config(false));
        let firsts: HashSet<Fingerprint> =
            children.iter().filter(|(_, c)| c.steps == 1).map(|(_, c)| c.fp).collect();
        let singles: HashSet<Fingerprint> =
            expand(&plain, &level, &start, NO_CELL).iter().map(|(_, c)| c.fp).collect();
        assert_eq!(firsts, singles);
    }

    /// A box that a run moved into a node is not moved again from there: every push of it
    /// from the node makes a state the run already made (or the node's parent itself).
    #[test]
    fn the_box_a_run_moved_needs_no_run_from_its_child() {
        let level = Level::parse(ROOM).expect("valid level");
        let board = level.board();
        let start = level.start().clone();
        let forward = Forward::new(board, level.start(), config(true));
        let plain = Forward::new(board, level.start(), config(false));
        let children = expand(&forward, &level, &start, NO_CELL);
        let mut made: HashSet<Fingerprint> = children.iter().map(|(_, c)| c.fp).collect();
        made.insert(start.fingerprint(board));
        let mut checked = 0;
        for (state, child) in &children {
            // Box indices are into the state's sorted list.
            let moves_it = |c: &Child| state.boxes[c.box_index as usize] == child.to;
            let skipped = expand(&forward, &level, state, child.to);
            assert!(!skipped.iter().any(|(_, c)| moves_it(c)), "the moved box moved again");
            assert!(!skipped.is_empty(), "the other boxes still move");
            for (_, again) in expand(&plain, &level, state, NO_CELL) {
                if moves_it(&again) {
                    assert!(made.contains(&again.fp), "{child:?} then {again:?} is a state the run missed");
                    checked += 1;
                }
            }
        }
        assert!(checked > 20, "too few pushes checked: {checked}");
    }
}
