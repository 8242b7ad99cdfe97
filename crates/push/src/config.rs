//! The forward search's switches and choices.

use bisolve_deadlock::bound::BoundKind;

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
    /// (see [`tunnel`](crate::tunnel)). Default on.
    pub tunnels: bool,
    /// Boxes frozen on goals are walls for the others: distances to the remaining goals are
    /// recomputed around them (cached per frozen set), which both sharpens the bound and
    /// finds goals no box can reach any more. Default on.
    pub frozen_goals: bool,
    /// PI-corral pruning: when a PI-corral exists, only pushes into it are generated, and an
    /// unfinished corral that no push can enter is a deadlock (see [`corral`](crate::corral)). Default on.
    pub corrals: bool,
    /// Corral deadlocks: when a PI-corral is found, a small search on its fence boxes alone
    /// checks that they can still open or finish it, and prunes the state when they cannot
    /// (see [`corral_deadlock`](crate::corral_deadlock)). Needs `corrals`. Default on.
    pub corral_deadlocks: bool,
    /// Shut-in boxes: when a box off its goal has no side the player can reach, a small search of
    /// pushes of the boxes fencing its zone off, the boxes inside standing as walls, checks that
    /// the player can still come to push one of those inside, and prunes the state when it cannot
    /// (see [`shut_in`](crate::shut_in)). Run at each expansion of the search, not in the bridges
    /// ([`Expander::set_light`](bisolve_board::search::Expander::set_light)). Default on (`--set
    /// push.shut_in=false`).
    pub shut_in: bool,
    /// Pair deadlocks: a table, built before the search by pulling pairs of boxes back from
    /// the goals, of the two-box positions that can never be finished; a push that makes one
    /// with any other box is pruned (see [`bisolve_deadlock::pairs`]). Boards of up to
    /// [`bisolve_deadlock::pairs::MAX_CELLS`] cells. Default on.
    pub pair_deadlocks: bool,
    /// The pair bound: a table, built before the search by the same retrograde analysis, of
    /// the pushes every two-box position needs alone; a position's bound is the larger of the
    /// matching and the costs of disjoint pairs of its boxes plus the distances of the others
    /// (see [`bisolve_deadlock::pair_costs`]). Boards of up to
    /// [`bisolve_deadlock::pairs::MAX_CELLS`] cells. Default off.
    pub pair_bound: bool,
    /// Triple deadlocks: the three-box table of [`bisolve_deadlock::triples`] (boards of up to
    /// [`bisolve_deadlock::triples::MAX_LIVE_CELLS`] live squares), checked between the pushed
    /// box and every two other boxes within four steps of it. Default off: on XSokoban 1-45
    /// and Sasquatch at a fixed budget it left the levels solved and the states to them as
    /// they were (the other tests already catch nearly every dead triple), and building the
    /// table took up to 0.9 s a level (`--set push.triple_deadlocks=true`).
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
    /// (see [`bisolve_deadlock::jams`]). Default on (`--set push.jams=false`).
    pub jams: bool,
    /// Frozen walls: in the small searches of the corral deadlocks, sealed goals and jams,
    /// the boxes frozen on goals near the searched ones stand as walls (they never move
    /// again), where without it they are left out or pushed like the others (see
    /// [`bisolve_deadlock::subset`]). Default on (`--set push.frozen_walls=false`).
    pub frozen_walls: bool,
    /// Goal areas: when a push puts a box onto a goal of an area (the squares within one to three
    /// steps of a cluster of goals), a search of the area alone, boxes leaving it and coming in
    /// across its border, checks that its goals can still all be filled, and prunes the state when
    /// they cannot; verdicts are cached per thread (see [`bisolve_deadlock::goal_areas`]). Default
    /// off (`--set push.goal_areas=true`): measured neutral (XSokoban 1-45 and Sasquatch at 2M
    /// states a level, one thread, bidirectional: the same 57 levels, 0.07% fewer states, 3% more
    /// time; at 60 s on 2 threads the same 37 + 39 levels).
    pub goal_areas: bool,
    /// Goal macros: a box pushed onto the entrance of a goal room is taken on to the next
    /// goal of the room's packing order in one move (see [`bisolve_deadlock::rooms`]). Adds
    /// moves, removes none. Default on.
    pub goal_macros: bool,
    /// Goal rooms with several entrances (corridor squares) get macros too; their paths are
    /// checked push by push with the boxes of the state, since the player may walk round
    /// outside the room (see [`bisolve_deadlock::rooms`]). Needs `goal_macros` or
    /// `packing_macros`. Default off: measured neutral (`--set push.room_entrances=true`; XSokoban 1-45
    /// and Sasquatch at 2M states a level, one thread: the same 21 + 34 levels, 0.5% more
    /// states; 5 XSokoban and 3 Sasquatch levels the default leaves unsolved get such rooms,
    /// none of them solved at 20 s on 2 threads).
    pub room_entrances: bool,
    /// The goal cut: a state with a goal macro gets only its macros. Makes the forward search
    /// incomplete (never sound to prove a level unsolvable with), so the engine turns it off
    /// when the forward search runs alone. Needs `goal_macros`. Default off
    /// (`--set push.goal_cut=true`): its macros fill a goal room in the room's own packing order,
    /// and where that is not the parking plan's order the cut keeps the search from following
    /// the plan (on XSokoban 11, `bi-fess-planned` alone never packed the plan's first step in
    /// 36,854 forward expansions with the cut, and solved the level in 6,699 without it). At 2M
    /// states a level on one thread, XSokoban 1-45 and Sasquatch, the portfolio of 2026-12-07
    /// solved 36 + 37 levels with the cut and 37 + 37 without (XSokoban 28 gained, none lost;
    /// `benches/results/2026-12-07-forward-member.txt`).
    pub goal_cut: bool,
    /// Room discipline: with the goal cut, a box enters a goal room with one entrance only by
    /// a goal macro, and a box in such a room is never pushed again, so the room always holds
    /// the first goals of its packing order and a box arriving on its entrance always gets a
    /// macro. The room is a dead end behind its entrance, so the only solutions this leaves
    /// out are those that park a box inside the room or fill it in another order. A box that
    /// stands on the entrance at the start goes in by a macro too (one without a push onto
    /// the entrance). With box moves, a run that brings its box onto the entrance goes on by
    /// the macro. Needs `goal_cut`, so it does nothing by default. On by default
    /// (`--set push.room_discipline=false`), for when the cut is on: at a fixed
    /// budget of 2M states a level on one thread, XSokoban 1-45 and Sasquatch solve 58 levels
    /// with it and 57 without (`benches/results/2026-12-03-techniques.txt`), and Microban I + II
    /// at 10 s stay 290/290 (`benches/results/2026-11-27-room-discipline.txt`).
    pub room_discipline: bool,
    /// Parking plans: a goal room with one entrance that no packing order fills one box at a
    /// time (a box must wait inside, off its goal, while others pass) gets a parking plan,
    /// found by a search backwards from the full room (see
    /// [`bisolve_deadlock::rooms::PlanRoom`]); the search then changes what the room holds only
    /// by the plan's steps. Needs `room_discipline` (and so the goal cut). Default on (`--set push.room_plans=false`): at 2M
    /// states a level, one thread, XSokoban 1-45 and Sasquatch solve the same 57 levels,
    /// with 0.99 times the states; at 60 s on 2 threads 38 + 39 levels, the unsolved levels of earlier runs (see
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
    /// worse (`--set push.packing=true`; see `Weighting::Features`).
    pub packing: bool,
    /// With `features`: the feature cells also count the links between rooms that the boxes cut
    /// (room connectivity, see [`bisolve_board::RoomLinks`]); one walk over the free squares per
    /// child. Default off.
    pub room_links: bool,
    /// With `features`: the feature cells also count hotspots, boxes off goals in the way of
    /// other boxes off goals (see [`bisolve_board::Hotspots`]); a table of one bit per pair of
    /// squares built before the search (boards of up to
    /// [`Hotspots::MAX_CELLS`](bisolve_board::Hotspots::MAX_CELLS) cells), and a look at every
    /// pair of boxes per child. Default off.
    pub hotspots: bool,
    /// Packing macros: a box pushed onto the square a goal's way in starts from (see
    /// [`bisolve_deadlock::packing`]), while that goal is next to fill and its way is free, is
    /// taken on to the goal in one move. Goals of goal rooms keep their room macros. Adds
    /// moves, removes none. Default off: measured neutral to slightly worse
    /// (`--set push.packing_macros=true`; see `Weighting::Features`).
    pub packing_macros: bool,
    /// Box moves (after Festival's move model): an expansion moves a box to every square it can
    /// reach by a run of pushes of that box alone, the player walking between them, and every
    /// position on the way is a child. Each is recorded as one push from the one before it, so
    /// paths read back as plain pushes; the first push of each run is one the other rules allow
    /// (PI-corrals, tunnels, macros), the later ones are tested for deadlocks as any child. A box
    /// that the move into a node moved is not moved again from there
    /// ([`NodeRef::moved`](bisolve_board::search::NodeRef::moved)): its runs continue the run that
    /// moved it. Default off (`--set push.box_moves=true`), but the default portfolio's first
    /// restart turns it on for its run (`Restart::box_moves` in the engine). Only on boards of up
    /// to [`BOX_MOVE_MAX_CELLS`](bisolve_board::search::BOX_MOVE_MAX_CELLS) cells.
    pub box_moves: bool,
    /// With `features`: mark each child whose move lets the player reach, for the first time,
    /// a side of another box from which it can push that box onto a square that is neither
    /// occupied nor dead ([`Child::explores`](bisolve_board::search::Child::explores), for
    /// FESS's explorer advisor), when the move can be undone on the empty board (the box's
    /// last push can be pushed back). Read from the node's area labels, a few cells per side
    /// of each box per child. Default off; the engine keeps it only for a search whose
    /// advisors read the marks.
    pub explorer: bool,
    /// With `features`: count the steps of the level's parking plan packed (see
    /// [`bisolve_deadlock::parking`]) instead of boxes on goals in the feature cell: a plan
    /// found before the search by pulling boxes from the solved position to start squares,
    /// which orders the goals and parks boxes where that needs it. Takes the place of
    /// `packing`. Default on (the member `bi-fess-advised` turns it off for its packing
    /// order): with it in `bi-fess` and `bi-fess-box`, at 2M states a level on one thread,
    /// XSokoban 1-45 and Sasquatch solved 32 + 36 levels against 31 + 36, losing none, and at
    /// 20 s on 2 threads 37 + 38 against 36 + 38 (`benches/results/2026-12-06-parking-plan.txt`);
    /// the default members `bi-fess-planned` and `fwd-fess-planned` read it with the advisors.
    pub parking_plan: bool,
    /// With `parking_plan`: when the plan's greedy search does not finish, search again in
    /// feature cells with FESS's advisors (after Festival's packing search), and take that
    /// plan if it finishes (see [`bisolve_deadlock::parking`]). Default on: at 2M states a
    /// level on one thread, XSokoban 1-45 and Sasquatch solved 41 + 37 levels against 41 + 35,
    /// losing none (`benches/results/2026-12-07-plan-cells.txt`).
    pub plan_cells: bool,
    /// With `parking_plan`: the feature cells also count the boxes out of plan, on squares
    /// from which a box can no longer reach a square of a later step of the plan once its next
    /// steps are done (see [`bisolve_deadlock::parking`]). Default off; the default member
    /// `fwd-fess-planned` turns it on: at 2M states a level on one thread, XSokoban 1-45 and
    /// Sasquatch solved 42 + 38 levels with it there against 41 + 37 without, and 41 + 38 with
    /// it in every member (`benches/results/2026-12-07-forward-out-of-plan.txt`).
    pub out_of_plan: bool,
    /// With `parking_plan`: when no child packs a step more, mark the child that best clears
    /// the way to the square of the plan's next step ([`Child::opens`](bisolve_board::search::Child::opens),
    /// for FESS's opener advisor): among the moves that keep the packed steps, the player's
    /// areas and the links between rooms, the one whose box stands nearest that square (by
    /// walking distance on the empty board) and ends no nearer, the farther the better. Default
    /// off; the engine keeps it only for a search whose advisors read the marks. The default
    /// member `fwd-fess-planned` turns it on: alone at 2M states a level on one thread, that
    /// member solved XSokoban 11 in 7,701 expansions with the opener and not in 201,645
    /// without, and in the portfolio it is worth XSokoban 11 and 16
    /// (`benches/results/2026-12-07-forward-member.txt`).
    pub opener: bool,
    /// With `parking_plan`: mark the child that brings a box onto a square where the plan
    /// keeps boxes waiting before it next places a box for good, when the position has fewer
    /// there ([`Child::imagines`](bisolve_board::search::Child::imagines), for FESS's imagine
    /// advisor; see `crates/push/src/imagine.rs`). Default off; the engine keeps it only for a
    /// search whose advisors read the marks.
    pub imagine: bool,
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
            pair_bound: false,
            triple_deadlocks: false,
            sealed_goals: true,
            jams: true,
            frozen_walls: true,
            goal_areas: false,
            goal_macros: true,
            room_entrances: false,
            goal_cut: false,
            room_discipline: true,
            room_plans: true,
            features: false,
            packing: false,
            room_links: false,
            hotspots: false,
            packing_macros: false,
            box_moves: false,
            explorer: false,
            parking_plan: true,
            plan_cells: true,
            out_of_plan: false,
            opener: false,
            imagine: false,
        }
    }
}
