//! Backward search for bisolve: pulls from the player's region, starting from every solved
//! position; backward dead squares and the backward lower bound. Implements [`Expander`].
//!
//! The backward search looks for the level's start position. Its pruning, each test
//! switchable in [`PullConfig`]:
//! - pull dead squares: a box pulled where it can never return to a start square;
//! - the lower bound: no perfect matching of boxes to start squares means a deadlock;
//! - pair deadlocks: the mirror of the forward pair table;
//! - start freeze ([`start_freeze`]): the start position, with the state's boxes as goals,
//!   has a box frozen off them, so the start can never be pushed into the state;
//! - confined players ([`confine`]): the player's region misses the start player's square and
//!   no pulls of the boxes around it ever let the player out;
//! - jams ([`bisolve_deadlock::jams`]): boxes pulled into a knot that, alone on the board, none
//!   of them can ever be pulled away from, while not all stand on start squares.
//!
//! Freeze tests do not carry over to the state itself: a box pulled against a wall can still
//! be pulled away along the wall, and boxes only block pulls for as long as they stay. Board
//! symmetries are not used either: they do not preserve the start squares.

pub mod confine;
pub mod start_freeze;

use bisolve_board::moves::Push;
use bisolve_board::search::{
    Child, Expander, FeatureCell, NodeRef, PackedMove, PruneCount, Root, Side, BOX_MOVE_MAX_CELLS,
};
use bisolve_board::{
    child_region, Areas, Board, BoxMap, BoxRuns, Cell, Dir, Fingerprint, LinkScratch, Reach, RoomLinks,
    State, NO_CELL,
};
use bisolve_deadlock::bound::{BoundKind, LowerBound};
use bisolve_deadlock::checks::{
    any_dead, AfterMove, DeadlockTest, JamTest, PairTest, SealedTest, TestCaches,
};
use bisolve_deadlock::packing::PackingOrder;
use bisolve_deadlock::pairs::{PairMode, PairTable};
use bisolve_deadlock::parking::ParkingPlan;
use bisolve_deadlock::sealed::SealedTargets;
use bisolve_deadlock::shared;

use std::sync::Arc;

use crate::confine::ConfineCheck;
use crate::start_freeze::{StartFreeze, StartScratch};

/// Switches and choices of the backward search.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PullConfig {
    /// Prune pulls onto squares from which no start square can be reached. Default on.
    pub dead_squares: bool,
    /// The lower bound (over pull distances to start squares). Default
    /// [`BoundKind::Matching`].
    pub bound: BoundKind,
    /// Prune pulls that leave two boxes in a position from which they alone can never both
    /// reach start squares. Default on.
    pub pair_deadlocks: bool,
    /// Compute each child's feature cell (boxes off start squares, areas of free squares) for
    /// the feature-cell ordering; costs one labelling of the board's areas and their cut
    /// squares per expansion, from which every child's areas and player region follow. Set by
    /// the engine for that ordering only. Default off.
    pub features: bool,
    /// Prune backward states the start position can never be pushed into because a start box
    /// is frozen off the state's squares (see [`start_freeze`]). Default on.
    pub start_freeze: bool,
    /// Sealed start squares: when a pull leaves an empty start square that no box can be
    /// pulled onto now, a small search on the boxes near it checks that they can still let
    /// one in, and prunes the state when they cannot; verdicts are cached per thread (see
    /// [`bisolve_deadlock::sealed`]). Default off: measured neutral to slightly worse against the
    /// clock (`--set pull.sealed_starts=true`), though it cuts states at a fixed budget.
    pub sealed_starts: bool,
    /// Jams, the mirror of `PushConfig::jams`: when a pull leaves three or more boxes knotted
    /// together, a small search on them alone checks that one can still be pulled away from
    /// the squares around them, or all onto start squares there (see
    /// [`bisolve_deadlock::jams`]). Default off (`--set pull.jams=true`): like the confinement test, it
    /// cuts dead ends that lead the backward search close to the start, where the bridges
    /// aim from; see `benches/results/2026-11-27-jams.txt`.
    pub jams: bool,
    /// Prune backward states whose player is shut in a region without the start player's
    /// square that no pulls of the boxes around it can open (see [`confine`]). Default off:
    /// sound, and it cuts 40% of the backward expansions on some hard levels, but the states
    /// it cuts lead the backward search close to the start, where the bridges aim from.
    pub confinement: bool,
    /// With `features`: count start squares packed in their packing order (see
    /// [`bisolve_deadlock::packing`]) instead of boxes on start squares in the feature cell.
    /// Default off (`--set pull.packing=true`).
    pub packing: bool,
    /// With `features`: the feature cells also count the links between rooms that the boxes cut
    /// (room connectivity, see [`bisolve_board::RoomLinks`]). Default off.
    pub room_links: bool,
    /// Box moves, the mirror of `PushConfig::box_moves`: an expansion pulls a box to every
    /// square it can reach by pulls of it alone, the player walking between them, every
    /// position on the way a child recorded as one pull from the one before it; a box that
    /// the pull into a node moved is not pulled again from there. Default off
    /// (`--set pull.box_moves=true`), but the default portfolio's first restart turns it on for its run
    /// (`Restart::box_moves` in the engine). Only on boards of up to [`BOX_MOVE_MAX_CELLS`] cells.
    pub box_moves: bool,
    /// With `features`: count the steps of the backward search's own parking plan packed
    /// (see [`ParkingPlan::backward`]) instead of boxes on start squares in the feature cell:
    /// a plan found before the search by pushing boxes from the start position to the goals,
    /// which, read backwards, orders the start squares and parks boxes where that needs it.
    /// Takes the place of `packing`.
    pub parking_plan: bool,
    /// With `parking_plan`: when the plan's greedy search does not finish, search again in
    /// feature cells (as `PushConfig::plan_cells` does for the forward search's plan).
    /// Default on.
    pub plan_cells: bool,
}

impl Default for PullConfig {
    fn default() -> PullConfig {
        PullConfig {
            dead_squares: true,
            bound: BoundKind::Matching,
            pair_deadlocks: true,
            start_freeze: true,
            sealed_starts: false,
            jams: false,
            confinement: false,
            features: false,
            packing: false,
            room_links: false,
            box_moves: false,
            parking_plan: false,
            plan_cells: true,
        }
    }
}

/// The backward move generator for one level.
#[derive(Debug)]
pub struct Backward<'a> {
    board: &'a Board,
    config: PullConfig,
    start_fp: Fingerprint,
    /// The start player's square: every backward solution ends with the player's region
    /// holding it.
    start_player: Cell,
    pairs: Option<Arc<PairTable>>,
    /// The start squares' packing order, when feature cells count packed start squares.
    packing: Option<PackingOrder>,
    /// The backward search's parking plan, when the feature cells count its steps.
    plan: Option<Arc<ParkingPlan>>,
    start_freeze: Option<Arc<StartFreeze>>,
    /// The tests a child is put to once its player's region is known, in order: pairs,
    /// sealed start squares, jams (those switched on).
    tests: Vec<Box<dyn DeadlockTest>>,
    /// The rooms whose cut links the feature cells count ([`PullConfig::room_links`]); none when
    /// they are not counted.
    links: RoomLinks,
}

impl<'a> Backward<'a> {
    /// A backward search towards `start` on `board`.
    pub fn new(board: &'a Board, start: &State, config: PullConfig) -> Backward<'a> {
        Backward::sharing(board, start, config, &[])
    }

    /// Like [`Backward::new`], but takes the pair deadlock table and the start freeze's
    /// squares from the first of `others` (backward searches on the same level) that has them,
    /// instead of building them again (they depend on the board and the start only).
    pub fn sharing(
        board: &'a Board,
        start: &State,
        config: PullConfig,
        others: &[Backward<'_>],
    ) -> Backward<'a> {
        let pairs = shared(config.pair_deadlocks, others.iter().map(|o| o.pairs.clone()), || {
            PairTable::new(board, PairMode::Pull)
        });
        let packing = (config.features && config.packing).then(|| PackingOrder::new(board, Side::Backward));
        let packing = packing.filter(PackingOrder::has_order);
        let same_plan = others.iter().filter(|o| o.config.plan_cells == config.plan_cells);
        let plan = shared(config.features && config.parking_plan, same_plan.map(|o| o.plan.clone()), || {
            ParkingPlan::backward(board, start.player, config.plan_cells)
        });
        let start_freeze = shared(config.start_freeze, others.iter().map(|o| o.start_freeze.clone()), || {
            StartFreeze::new(board, start).filter(|t| !t.is_idle())
        });
        let mut tests: Vec<Box<dyn DeadlockTest>> = Vec::new();
        if let Some(p) = &pairs {
            tests.push(Box::new(PairTest(p.clone())));
        }
        if config.sealed_starts {
            tests.push(Box::new(SealedTest(SealedTargets::new(board, PairMode::Pull))));
        }
        if config.jams {
            tests.push(Box::new(JamTest));
        }
        let links =
            if config.features && config.room_links { RoomLinks::new(board) } else { RoomLinks::default() };
        let mut config = config;
        config.box_moves &= board.n_cells() <= BOX_MOVE_MAX_CELLS;
        Backward {
            board,
            config,
            start_fp: start.fingerprint(board),
            start_player: start.player,
            pairs,
            packing,
            plan,
            start_freeze,
            tests,
            links,
        }
    }

    /// The configuration.
    pub fn config(&self) -> PullConfig {
        self.config
    }
}

/// Per-thread working memory of the backward search.
#[derive(Debug)]
pub struct PullScratch {
    boxes: BoxMap,
    reach: Reach,
    child_reach: Reach,
    /// The areas of the state being expanded and where they split: every child's area count
    /// and player region (when the feature cells are on).
    areas: Areas,
    bound: LowerBound,
    pruned_dead: u64,
    pruned_bound: u64,
    start_freeze: Option<StartScratch>,
    pruned_start_freeze: u64,
    /// The caches and counters of the tests in [`Backward::tests`].
    checks: TestCaches,
    confine: ConfineCheck,
    /// The confinement test for bridge targets ([`Expander::worth_aiming_at`]), with its own
    /// counters and cache: it runs whether or not `confine` prunes.
    aim_confine: ConfineCheck,
    /// Box moves: the walk of a box's runs; how many boxes were left to the run that moved
    /// them, and how many children came after a run's first pull.
    runs: BoxRuns,
    runs_skipped: u64,
    run_pulls: u64,
    links: LinkScratch,
}

/// What every child of one expansion shares.
struct PullContext {
    /// The node's normalized player.
    region_min: Cell,
    /// The node's fingerprint without its player.
    base: Fingerprint,
    /// Boxes off start squares in the node (with feature cells).
    unplaced: usize,
}

impl Backward<'_> {
    /// The steps of the plan, or the start squares of the packing order, that the position
    /// with boxes where `is_box` says has not packed; `None` when the cells count neither.
    fn unpacked(&self, is_box: impl Fn(Cell) -> bool) -> Option<u32> {
        match (&self.plan, &self.packing) {
            (Some(plan), _) => Some(plan.unpacked(is_box)),
            (None, Some(order)) => Some(order.unpacked(is_box)),
            (None, None) => None,
        }
    }

    /// The feature cell of the position of `boxes`, which `s.boxes` holds, whose free squares
    /// fall into `areas` areas.
    fn feature_cell(&self, s: &mut PullScratch, boxes: &[Cell], areas: u32) -> u32 {
        let unplaced = self
            .unpacked(|c| s.boxes.is_box(c))
            .unwrap_or_else(|| boxes.iter().filter(|&&b| !self.board.is_start_square(b)).count() as u32);
        let cut_links = self.links.cut(&s.boxes, &mut s.links);
        FeatureCell { unplaced, areas, cut_links, ..FeatureCell::default() }.pack()
    }

    /// Appends the child in which box `i` is pulled onto `to` (next to where it stands, in
    /// direction `d`), unless a test prunes it, and says whether it did. `steps` is the pull's
    /// place in its run (1 for a pull from the node).
    #[allow(clippy::too_many_arguments)]
    fn pull_child(
        &self,
        s: &mut PullScratch,
        node: NodeRef<'_>,
        ctx: &PullContext,
        i: usize,
        to: Cell,
        d: Dir,
        steps: u16,
        out: &mut Vec<Child>,
    ) -> bool {
        let board = self.board;
        let zobrist = board.zobrist();
        let b = node.boxes[i];
        let beyond = board.neighbour(to, d);
        // `s.boxes` holds the node, where box `i` is still on `b`: a later pull of its run
        // may take the player onto that square.
        if beyond == NO_CELL || (s.boxes.is_box(beyond) && beyond != b) {
            return false;
        }
        if self.config.dead_squares && board.is_pull_dead(to) {
            s.pruned_dead += 1;
            return false;
        }
        let Some(h) = s.bound.after_move(board.start_distances(), i, to) else {
            s.pruned_bound += 1;
            return false;
        };
        s.boxes.shift(b, to);
        let labels = self.config.features.then_some(&s.areas);
        let (player, areas) = child_region(
            board,
            &s.boxes,
            labels,
            &s.reach,
            &mut s.child_reach,
            ctx.region_min,
            (b, to),
            beyond,
            steps == 1,
        );
        let child =
            AfterMove { board, before: node.boxes, index: i, to, boxes: &s.boxes, player, walls: &[] };
        if any_dead(&self.tests, &mut s.checks, &child) {
            s.boxes.shift(to, b);
            return false;
        }
        let unpacked = self.unpacked(|c| s.boxes.is_box(c));
        let cut_links = self.links.cut(&s.boxes, &mut s.links);
        s.boxes.shift(to, b);
        let fp = zobrist.after_move(ctx.base, b, to, player);
        out.push(Child {
            box_index: i as u16,
            to,
            dir: d,
            player,
            fp,
            h,
            goal: fp == self.start_fp,
            is_macro: false,
            cell: if self.config.features {
                let unplaced = ctx.unplaced + usize::from(!board.is_start_square(to))
                    - usize::from(!board.is_start_square(b));
                FeatureCell {
                    unplaced: unpacked.unwrap_or(unplaced as u32),
                    areas,
                    cut_links,
                    ..FeatureCell::default()
                }
                .pack()
            } else {
                0
            },
            steps,
            explores: false,
            opens: false,
            imagines: false,
        });
        true
    }

    /// Box moves: extends the pulls of box `i` from the node (the children from `first` on)
    /// into runs, every position a run reaches a child.
    fn run_on(
        &self,
        s: &mut PullScratch,
        node: NodeRef<'_>,
        ctx: &PullContext,
        i: usize,
        first: usize,
        out: &mut Vec<Child>,
    ) {
        let board = self.board;
        let b = node.boxes[i];
        let firsts_end = out.len();
        s.runs.start(out[first..].iter().map(|c| (c.to, c.dir)));
        loop {
            let labels = self.config.features.then_some(&s.areas);
            let Some(step) = s.runs.step(Side::Backward, board, &mut s.boxes, labels, &mut s.child_reach, b)
            else {
                break;
            };
            for &(to, d) in step.moves() {
                if self.pull_child(s, node, ctx, i, to, d, step.steps, out) {
                    s.runs.go_on(to, d, step.steps);
                }
            }
        }
        s.run_pulls += (out.len() - firsts_end) as u64;
    }
}

impl Expander for Backward<'_> {
    type Scratch = PullScratch;

    fn side(&self) -> Side {
        Side::Backward
    }

    fn new_scratch(&self) -> PullScratch {
        let n = self.board.n_cells();
        PullScratch {
            boxes: BoxMap::new(n),
            reach: Reach::new(n),
            child_reach: Reach::new(n),
            areas: Areas::new(n),
            bound: LowerBound::new(self.config.bound),
            pruned_dead: 0,
            pruned_bound: 0,
            start_freeze: self.start_freeze.as_deref().map(StartFreeze::scratch),
            pruned_start_freeze: 0,
            checks: TestCaches::new(self.board, PairMode::Pull, false),
            confine: ConfineCheck::new(n),
            aim_confine: ConfineCheck::new(n),
            runs: BoxRuns::new(n),
            runs_skipped: 0,
            run_pulls: 0,
            links: LinkScratch::default(),
        }
    }

    /// One root per player region next to a box in the solved position: the last push of a
    /// solution leaves the player beside the box it pushed.
    fn roots(&self, s: &mut PullScratch) -> Vec<Root> {
        let board = self.board;
        let goals = board.goals();
        let Some(h) = s.bound.prepare(board.start_distances(), goals) else {
            return Vec::new();
        };
        s.boxes.set_all(goals);
        let cell = if self.config.features {
            let areas = s.areas.label(board, goals);
            self.feature_cell(s, goals, areas)
        } else {
            0
        };
        let mut seen = vec![false; board.n_cells()];
        let mut roots = Vec::new();
        for &g in goals {
            for &n in board.neighbours(g) {
                if n == NO_CELL || s.boxes.is_box(n) || seen[n as usize] {
                    continue;
                }
                let player = s.reach.fill(board, &s.boxes, n);
                for c in s.reach.cells() {
                    seen[c as usize] = true;
                }
                let state = State::new(goals.to_vec(), player);
                let fp = board.zobrist().fingerprint(goals, player);
                roots.push(Root { state, fp, h, cell });
            }
        }
        s.boxes.clear_all(goals);
        roots
    }

    fn is_goal(&self, _s: &mut PullScratch, node: NodeRef<'_>) -> bool {
        node.fp == self.start_fp
    }

    fn expand(&self, s: &mut PullScratch, node: NodeRef<'_>, out: &mut Vec<Child>) {
        let board = self.board;
        let zobrist = board.zobrist();
        s.boxes.set_all(node.boxes);
        if let (Some(test), Some(scratch)) = (&self.start_freeze, &mut s.start_freeze) {
            if test.unreachable(board, scratch, node.boxes, &s.boxes) {
                s.pruned_start_freeze += 1;
                s.boxes.clear_all(node.boxes);
                return;
            }
        }
        // With feature cells the labels say where the player can walk; the confinement test
        // needs a fill.
        let labels = self.config.features && !self.config.confinement;
        let region_min = if labels {
            s.areas.label(board, node.boxes);
            // Debug builds fill too, to check every reading of the labels against the fill.
            let (_, region_min) = s.areas.unmoved(node.player);
            debug_assert_eq!(region_min, s.reach.fill(board, &s.boxes, node.player));
            region_min
        } else {
            s.reach.fill(board, &s.boxes, node.player)
        };
        if self.config.confinement
            && s.confine.is_dead(board, node.boxes, &s.reach, region_min, self.start_player)
        {
            s.boxes.clear_all(node.boxes);
            return;
        }
        if self.config.features && !labels {
            s.areas.label(board, node.boxes);
        }
        if s.bound.prepare(board.start_distances(), node.boxes).is_none() {
            s.boxes.clear_all(node.boxes);
            return;
        }
        let base = node.fp ^ zobrist.player_key(node.player);
        let unplaced = if self.config.features {
            node.boxes.iter().filter(|&&b| !board.is_start_square(b)).count()
        } else {
            0
        };
        let ctx = PullContext { region_min, base, unplaced };
        for (i, &b) in node.boxes.iter().enumerate() {
            if self.config.box_moves && b == node.moved {
                // The run that pulled it here went on from here in every way it could.
                s.runs_skipped += 1;
                continue;
            }
            let first = out.len();
            for d in Dir::ALL {
                // The player stands on `to`, steps back to `beyond`, and the box follows.
                let to = board.neighbour(b, d);
                if to == NO_CELL {
                    continue;
                }
                let reached = if labels { s.areas.joins(node.player, to) } else { s.reach.contains(to) };
                debug_assert_eq!(reached, s.reach.contains(to));
                if !reached {
                    continue;
                }
                self.pull_child(s, node, &ctx, i, to, d, 1, out);
            }
            if self.config.box_moves {
                self.run_on(s, node, &ctx, i, first, out);
            }
        }
        s.boxes.clear_all(node.boxes);
    }

    fn parent(&self, state: &State, mv: PackedMove) -> Option<State> {
        let to = mv.to();
        if mv.is_root() || mv.is_macro() || state.boxes.binary_search(&to).is_err() {
            return None;
        }
        let from = self.board.neighbour(to, mv.dir().opposite());
        if from == NO_CELL || state.boxes.binary_search(&from).is_ok() {
            return None;
        }
        let mut parent = state.clone();
        parent.move_box(to, from, to);
        Some(parent)
    }

    fn as_pushes(&self, mv: PackedMove, out: &mut Vec<Push>) {
        out.push(Push { from: mv.to(), dir: mv.dir().opposite() });
    }

    /// A backward state is no target for the forward search when the start freeze or the
    /// confinement test ([`confine`]) proves it out of the start's reach. The confinement test
    /// runs here even when it does not prune: the states it would cut are where the backward
    /// search comes closest to the start (every box on its start square, the player shut in
    /// the wrong region), and a bridge aimed at one of those can never arrive.
    fn worth_aiming_at(&self, s: &mut PullScratch, boxes: &[Cell], player: Cell) -> bool {
        let board = self.board;
        s.boxes.set_all(boxes);
        let frozen = match (&self.start_freeze, &mut s.start_freeze) {
            (Some(test), Some(scratch)) => test.unreachable(board, scratch, boxes, &s.boxes),
            _ => false,
        };
        let dead = frozen || {
            let region_min = s.reach.fill(board, &s.boxes, player);
            s.aim_confine.is_dead(board, boxes, &s.reach, region_min, self.start_player)
        };
        s.boxes.clear_all(boxes);
        !dead
    }

    fn node_cell(&self, s: &mut PullScratch, boxes: &[Cell]) -> u32 {
        if !self.config.features {
            return 0;
        }
        // The expansion left the node's labels in place: its area count.
        let areas = s.areas.count();
        s.boxes.set_all(boxes);
        let cell = self.feature_cell(s, boxes, areas);
        s.boxes.clear_all(boxes);
        cell
    }

    fn prune_counts(&self, s: &PullScratch) -> Vec<PruneCount> {
        vec![
            ("pull dead squares", s.pruned_dead),
            ("pull bound", s.pruned_bound),
            ("pull pair deadlock", s.checks.pruned_pairs),
            ("pull start freeze", s.pruned_start_freeze),
            ("pull sealed start deadlock", s.checks.sealed.proved),
            ("pull sealed start searches", s.checks.sealed.searches),
            ("pull sealed start searches given up", s.checks.sealed.gave_up),
            ("pull sealed start checks", s.checks.sealed.checks),
            ("pull jam deadlock", s.checks.jams.proved),
            ("pull jam searches", s.checks.jams.searches),
            ("pull jam searches given up", s.checks.jams.gave_up),
            ("pull jam checks", s.checks.jams.checks),
            ("pull confined player", s.confine.proved),
            ("pull confinement searches", s.confine.searches),
            ("pull confinement searches given up", s.confine.gave_up),
            ("pull confinement checks", s.confine.checks),
            ("bridge targets confined", s.aim_confine.proved),
            ("box moves past the first pull", s.run_pulls),
            ("box moves left to the run before (moved last)", s.runs_skipped),
        ]
    }
}

#[cfg(test)]
mod box_move_tests {
    use super::*;
    use bisolve_board::search::children_of;
    use bisolve_board::Level;
    use std::collections::HashSet;

    /// An open room with a pillar and three goals: pulls from the solved position run round
    /// the pillar and along the walls.
    const ROOM: &str = "##########\n#  .     #\n# $  #   #\n#    $  .#\n#@   $   #\n#.       #\n##########";

    /// The children of `state` (reached by moving the box now on `moved`, or a root).
    fn expand(backward: &Backward<'_>, level: &Level, state: &State, moved: Cell) -> Vec<(State, Child)> {
        children_of(backward, &mut backward.new_scratch(), level.board(), state, moved)
    }

    fn setup(level: &Level, box_moves: bool) -> (Backward<'_>, State) {
        let backward =
            Backward::new(level.board(), level.start(), PullConfig { box_moves, ..PullConfig::default() });
        let mut scratch = backward.new_scratch();
        let root = backward.roots(&mut scratch).into_iter().next().expect("a solved position");
        (backward, root.state)
    }

    /// Every child of a run undoes, one pull back, to the node or to a child listed before
    /// it, one step shorter; the first pulls are the plain expansion's children.
    #[test]
    fn each_pull_of_a_run_undoes_to_an_earlier_child() {
        let level = Level::parse(ROOM).expect("valid level");
        let board = level.board();
        let (backward, solved) = setup(&level, true);
        let children = expand(&backward, &level, &solved, NO_CELL);
        let mut seen: Vec<(Fingerprint, u16)> = vec![(solved.fingerprint(board), 0)];
        let mut longest = 0;
        for (state, child) in &children {
            let parent = backward.parent(state, child.packed()).expect("a run's pull undoes");
            let parent_fp = parent.fingerprint(board);
            assert!(
                seen.iter().any(|&(fp, steps)| fp == parent_fp && steps + 1 == child.steps),
                "{child:?}: the state one pull back was not listed before it, one step shorter"
            );
            assert_eq!(child.fp, state.fingerprint(board));
            seen.push((child.fp, child.steps));
            longest = longest.max(child.steps);
        }
        assert!(longest >= 4, "no long run in the open room: {longest}");
        let (plain, _) = setup(&level, false);
        let firsts: HashSet<Fingerprint> =
            children.iter().filter(|(_, c)| c.steps == 1).map(|(_, c)| c.fp).collect();
        let singles: HashSet<Fingerprint> =
            expand(&plain, &level, &solved, NO_CELL).iter().map(|(_, c)| c.fp).collect();
        assert_eq!(firsts, singles);
    }

    /// A box that a run pulled into a node is not pulled again from there: every pull of it
    /// from the node makes a state the run already made (or the node's parent itself).
    #[test]
    fn the_box_a_run_pulled_needs_no_run_from_its_child() {
        let level = Level::parse(ROOM).expect("valid level");
        let board = level.board();
        let (backward, solved) = setup(&level, true);
        let (plain, _) = setup(&level, false);
        let children = expand(&backward, &level, &solved, NO_CELL);
        let mut made: HashSet<Fingerprint> = children.iter().map(|(_, c)| c.fp).collect();
        made.insert(solved.fingerprint(board));
        let mut checked = 0;
        for (state, child) in &children {
            // Box indices are into the state's sorted list.
            let moves_it = |c: &Child| state.boxes[c.box_index as usize] == child.to;
            let skipped = expand(&backward, &level, state, child.to);
            assert!(!skipped.iter().any(|(_, c)| moves_it(c)), "the pulled box moved again");
            for (_, again) in expand(&plain, &level, state, NO_CELL) {
                if moves_it(&again) {
                    assert!(made.contains(&again.fp), "{child:?} then {again:?} is a state the run missed");
                    checked += 1;
                }
            }
        }
        assert!(checked > 20, "too few pulls checked: {checked}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bisolve_board::search::children_of;
    use bisolve_board::Level;

    #[test]
    fn the_node_cell_of_an_expansion_is_the_cell_its_parent_gave_it() {
        // The advisors compare each child's cell with its node's, read after the expansion.
        let level = Level::parse(
            "##########\n#  #######\n#  #######\n#  ###   #\n#  .  $@ #\n#### # $ #\n# .    $.#\n##########",
        )
        .expect("valid level");
        let board = level.board();
        for room_links in [false, true] {
            let config = PullConfig { features: true, room_links, ..PullConfig::default() };
            let backward = Backward::new(board, level.start(), config);
            let mut scratch = backward.new_scratch();
            let roots = backward.roots(&mut scratch);
            assert!(!roots.is_empty());
            let mut cells = std::collections::HashSet::new();
            for root in &roots {
                let children = children_of(&backward, &mut scratch, board, &root.state, NO_CELL);
                assert_eq!(
                    backward.node_cell(&mut scratch, &root.state.boxes),
                    root.cell,
                    "a root, room links {room_links}"
                );
                for (state, child) in &children {
                    children_of(&backward, &mut scratch, board, state, child.to);
                    assert_eq!(backward.node_cell(&mut scratch, &state.boxes), child.cell, "child {state:?}");
                    cells.insert(child.cell);
                }
            }
            assert!(cells.len() > 1, "the children's cells differ");
        }
    }
}
