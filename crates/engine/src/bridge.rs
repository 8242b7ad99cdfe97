//! Bridges: short forward searches from the start aimed at the state where the backward
//! search came closest to the start, and their mirror, backward bridges.
//!
//! On many hard levels the backward search does nearly all the work: it pulls the boxes out of
//! the goal area in a good order and comes within a few pulls of the start, while the forward
//! search dives towards the goals. The two meet only if the forward search has visited the
//! start's neighbourhood that the backward search arrives in, and a greedy forward dive
//! covers little of it. A bridge is run by a forward worker: a greedy search from the start on
//! the matching bound to the box squares of the backward search's closest state, with the
//! forward search's own moves and pruning. Every state it makes goes into the shared table as a
//! forward state (a state the backward search has recorded is a meeting, then or later) and,
//! when new, into the forward worker's own open list with its usual keys, so the forward
//! search loses nothing (it queues each state once) and stays complete. The bridge keeps its
//! own set of states seen, so it also walks through states the forward search has already
//! recorded.
//!
//! A new bridge starts whenever the backward searches' closest state ([`Closest`], shared by
//! the threads of a table) changes, within a share of the forward worker's effort
//! ([`BridgeConfig`]). Switch: [`crate::Strategy::bridges`] (`--set search.bridges=false`).
//!
//! The perimeter is one larger bridge aimed at the start itself, run once the forward worker
//! has expanded [`PERIMETER_AFTER`] nodes: a greedy search from the start on the matching
//! bound of pull distances to the start squares (the backward search's own bound), so it
//! takes the positions whose boxes stand nearest their start squares first,
//! [`PERIMETER_EXPANSIONS`] of them, and records every state it makes. A bridge aims at one
//! state, the backward search's closest, and on the levels where the backward search ends
//! within a few pulls of the start that state is most often one the start can never be
//! pushed into (the player on the wrong side of the boxes round the start), so nothing
//! meets. The perimeter holds the start's whole neighbourhood instead, and any backward state
//! the backward search makes in it is a meeting (`benches/results/2026-11-27-perimeter.txt`). Switch:
//! [`crate::Strategy::perimeter`] (`--set search.perimeter=false`); it runs only with the bridges.
//!
//! Backward bridges are the mirror ([`crate::Strategy::backward_bridges`],
//! `--set search.backward_bridges=true`): the forward search often ends a few boxes short of the goals in
//! positions whose endings the backward search, diving towards the start, never visited. A
//! backward worker then also runs greedy searches from the solved position (every root of its
//! search) on the matching bound of pull distances to the box squares of the forward search's
//! closest state, recording backward states the forward search can meet. [`Bridges`] serves
//! both: it starts from its worker's roots, measures with push or pull distances by the
//! worker's direction, and records states as its worker's.

use bisolve_board::search::{Expander, NodeRef, Side};
use bisolve_board::{Board, Cell, DistanceTable, State};
use bisolve_deadlock::bound::{BoundKind, LowerBound};
use std::collections::HashSet;

use crate::closest::Closest;
use crate::limits::{Pacer, Stop};
use crate::open::OpenList;
use crate::strategy::Strategy;
use crate::table::{Insert, VisitedTable, MAX_DEPTH};
use crate::worker::{Detours, Found, Worker, HEADER};

/// The most memory one bridge's open list and set of states seen may take; it ends there
/// (it matters on levels with hundreds of boxes, where a node is kilobytes).
const MAX_BYTES: usize = 32 << 20;
/// Bytes per entry of a bridge's set of states seen (key and hash table overhead, roughly).
const SEEN_BYTES: usize = 16;

/// When and how long bridges run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BridgeConfig {
    /// Expansions of one bridge at most.
    pub budget: u64,
    /// Bridges may use at most this many expansions per hundred of the forward search's own.
    pub share_percent: u64,
    /// Expansions of the perimeter, the one search aimed at the worker's own roots (see the
    /// module documentation); 0 for none.
    pub perimeter: u64,
    /// The worker's own expansions before the perimeter runs, so that levels solved sooner
    /// never pay for it.
    pub perimeter_after: u64,
}

/// The perimeter's expansions by default ([`BridgeConfig::perimeter`]).
pub const PERIMETER_EXPANSIONS: u64 = 400_000;
/// The forward worker's own expansions before the perimeter runs, by default.
pub const PERIMETER_AFTER: u64 = 250_000;
/// Expansions of the early perimeter ([`crate::Strategy::early_perimeter`]), which runs before
/// the forward worker's first expansion: half of [`PERIMETER_EXPANSIONS`], so that the
/// forward dive starts among the start's neighbourhood and keeps most of the first run
/// (`benches/results/2026-12-02-early-perimeter.txt` has the runs it was first measured on).
pub const EARLY_PERIMETER_EXPANSIONS: u64 = 200_000;
/// The most memory the perimeter's open list and set of states seen may take: this, or a
/// thirty-second of the memory limit where that is less (the peak stays within the
/// slack the limit allows for what it does not count).
const PERIMETER_MAX_BYTES: usize = 512 << 20;

impl Default for BridgeConfig {
    /// Bridges without a perimeter.
    fn default() -> BridgeConfig {
        BridgeConfig { budget: 20_000, share_percent: 100, perimeter: 0, perimeter_after: 0 }
    }
}

impl BridgeConfig {
    /// The forward worker's bridges, with the default perimeter when `perimeter` is on
    /// ([`crate::Strategy::perimeter`]).
    pub fn forward(perimeter: bool) -> BridgeConfig {
        if perimeter {
            BridgeConfig {
                perimeter: PERIMETER_EXPANSIONS,
                perimeter_after: PERIMETER_AFTER,
                ..BridgeConfig::default()
            }
        } else {
            BridgeConfig::default()
        }
    }

    /// The forward worker's bridges for `strategy`: its perimeter
    /// ([`crate::Strategy::perimeter`]), run early, before the worker's first expansion
    /// ([`EARLY_PERIMETER_EXPANSIONS`] of it), where [`crate::Strategy::early_perimeter`]
    /// says so.
    pub fn for_strategy(strategy: &Strategy) -> BridgeConfig {
        if strategy.perimeter && strategy.early_perimeter {
            BridgeConfig {
                perimeter: EARLY_PERIMETER_EXPANSIONS,
                perimeter_after: 0,
                ..BridgeConfig::default()
            }
        } else {
            BridgeConfig::forward(strategy.perimeter)
        }
    }
}

/// The bridges of one worker: what they aim at, the last target and the effort so far. They
/// start from the roots of the worker's own search: the start for a forward worker, the solved
/// position (one root per player region) for a backward one.
#[derive(Debug)]
pub struct Bridges<'a> {
    config: BridgeConfig,
    board: &'a Board,
    closest: &'a Closest,
    last_version: u64,
    /// Bridges run, the perimeter included.
    pub runs: u64,
    /// Nodes the bridges expanded, the perimeter's included.
    pub expanded: u64,
    /// Whether the perimeter has run (or will never run).
    perimeter_done: bool,
    /// Nodes the perimeter expanded: they do not count against the bridges' share.
    perimeter_expanded: u64,
}

impl<'a> Bridges<'a> {
    /// Bridges towards the states `closest` holds (the other direction's closest).
    pub fn new(config: BridgeConfig, board: &'a Board, closest: &'a Closest) -> Bridges<'a> {
        Bridges {
            config,
            board,
            closest,
            last_version: 0,
            runs: 0,
            expanded: 0,
            perimeter_done: config.perimeter == 0,
            perimeter_expanded: 0,
        }
    }

    /// Runs a bridge with the worker `fw` if the other direction has a new closest state and
    /// the bridges' share of `fw`'s expansions allows; returns a meeting or a solution it
    /// found.
    pub fn maybe_run<F: Expander>(
        &mut self,
        fw: &mut Worker<'_, F>,
        table: &VisitedTable,
        stop: &Stop<'_>,
    ) -> Option<Found> {
        if !self.perimeter_done && fw.stats.expanded >= self.config.perimeter_after {
            self.perimeter_done = true;
            // Aimed at the roots' own boxes: ordered by how far the boxes have moved from them.
            let max_bytes =
                stop.memory_limit().map_or(PERIMETER_MAX_BYTES, |m| (m / 32).min(PERIMETER_MAX_BYTES));
            let before = self.expanded;
            self.runs += 1;
            let found = self.run(fw, None, self.config.perimeter, max_bytes, table, stop);
            self.perimeter_expanded = self.expanded - before;
            return found;
        }
        if self.closest.version() == self.last_version
            || (self.expanded - self.perimeter_expanded) * 100 > fw.stats.expanded * self.config.share_percent
        {
            return None;
        }
        let (version, target) = self.closest.get()?;
        self.last_version = version;
        self.runs += 1;
        self.run(fw, Some(&target), self.config.budget, MAX_BYTES, table, stop)
    }

    /// What the perimeter of a search in direction `side` measures a state with: how many
    /// moves at least its boxes are from the roots' boxes, counted the way the search moves
    /// them. A forward perimeter takes the pull distances to the start squares (a box pushed
    /// from its start square to `x` took at least as many pushes as it takes pulls to bring
    /// it back; the backward search's own bound, which it judges the same states by); a
    /// backward one the push distances to the goals. (The first perimeter measured with push
    /// distances back to the start squares: they are infinite for a box that cannot be pushed
    /// back, so it never expanded a state after a push that cannot be undone.)
    fn perimeter_distances(board: &Board, side: Side) -> &DistanceTable {
        match side {
            Side::Forward => board.start_distances(),
            Side::Backward => board.goal_distances(),
        }
    }

    /// One bridge from the worker's roots towards `target`, or the perimeter round the roots
    /// (`None`, measured as [`Bridges::perimeter_distances`] says): at most `budget`
    /// expansions, and ends once its open list and set of states seen take `max_bytes`.
    fn run<F: Expander>(
        &mut self,
        fw: &mut Worker<'_, F>,
        target: Option<&State>,
        budget: u64,
        max_bytes: usize,
        table: &VisitedTable,
        stop: &Stop<'_>,
    ) -> Option<Found> {
        let board = self.board;
        let side = fw.exp.side();
        let aimed;
        let distances = match (target, side) {
            (None, _) => Bridges::perimeter_distances(board, side),
            (Some(t), Side::Forward) => {
                aimed = board.push_distances_to(&t.boxes);
                &aimed
            }
            (Some(t), Side::Backward) => {
                aimed = board.pull_distances_to(&t.boxes);
                &aimed
            }
        };
        let mut bound = LowerBound::new(BoundKind::Matching);
        let n = board.n_boxes();
        let mut open = OpenList::new(HEADER + n).packing_cells(board.n_cells());
        let mut seen: HashSet<u64> = HashSet::new();
        let mut node: Vec<u16> = Vec::with_capacity(HEADER + n);
        let mut child_node: Vec<u16> = Vec::with_capacity(HEADER + n);
        let mut children = Vec::new();
        for root in fw.exp.roots(&mut fw.scratch) {
            let Some(h) = bound.prepare(distances, &root.state.boxes) else {
                continue;
            };
            if seen.insert(root.fp.key()) {
                node.clear();
                node.extend_from_slice(&[root.state.player, 0]);
                node.extend_from_slice(&root.state.boxes);
                open.push(h as usize, 0, &node);
            }
        }
        let node_bytes = (HEADER + n) * std::mem::size_of::<u16>();
        let mut pacer = Pacer::new();
        for _ in 0..budget {
            // The limits hold inside a bridge as between steps: states, memory, time.
            if stop.counts_states() {
                fw.report_inserted(stop);
            }
            fw.check_limits(stop, table, pacer.tick());
            if stop.is_set() {
                return None;
            }
            // Counted from the lengths, live nodes only (`OpenList::bytes` counts capacity).
            if open.len() * node_bytes + seen.len() * SEEN_BYTES > max_bytes {
                return None;
            }
            open.pop(&mut node)?;
            let (player, g) = (node[0], u32::from(node[1]));
            let boxes: &[Cell] = &node[HEADER..];
            if bound.prepare(distances, boxes).is_none() {
                continue;
            }
            let fp = fw.zobrist.fingerprint(boxes, player);
            children.clear();
            fw.exp.set_light(&mut fw.scratch, true);
            fw.exp.expand(
                &mut fw.scratch,
                NodeRef { boxes, player, fp, g, moved: bisolve_board::NO_CELL },
                &mut children,
            );
            fw.exp.set_light(&mut fw.scratch, false);
            self.expanded += 1;
            // The worker's effort includes its bridges (one thread gives each direction
            // turns by states generated).
            fw.stats.generated += children.len() as u64;
            for child in &children {
                let depth = (g + u32::from(child.steps)).min(MAX_DEPTH);
                if !seen.insert(child.fp.key()) {
                    continue;
                }
                child_node.clear();
                child_node.extend_from_slice(&[child.player, depth as u16]);
                child_node.extend_from_slice(boxes);
                child_node[HEADER + child.box_index as usize] = child.to;
                match table.insert(child.fp, side, depth, child.packed()) {
                    Insert::Meeting(_) => {
                        let child_state = State::new(child_node[HEADER..].to_vec(), child.player);
                        return Some(Found::Meeting {
                            side,
                            parent: fw.parent_of(boxes, player, child, &child_state),
                            mv: child.packed(),
                            child: child_state,
                        });
                    }
                    _ if child.goal => {
                        let state = State::new(child_node[HEADER..].to_vec(), child.player);
                        return Some(Found::Goal { side, state });
                    }
                    Insert::New => {
                        // The worker's search would never queue it now: queue it for it.
                        fw.queue_bridged(depth, child, &child_node);
                        fw.stats.inserted += 1;
                    }
                    Insert::Improved | Insert::Duplicate => {}
                }
                if let Some(h) = bound.after_move(distances, child.box_index as usize, child.to) {
                    open.push(h as usize, 0, &child_node);
                }
            }
        }
        None
    }
}

impl<F: Expander> Detours<F> for Bridges<'_> {
    fn maybe_run(
        &mut self,
        worker: &mut Worker<'_, F>,
        table: &VisitedTable,
        stop: &Stop<'_>,
    ) -> Option<Found> {
        Bridges::maybe_run(self, worker, table, stop)
    }

    fn effort(&self) -> (u64, u64) {
        (self.runs, self.expanded)
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicBool;

    use bisolve_board::moves::pushes_to_steps;
    use bisolve_board::search::PackedMove;
    use bisolve_board::Level;
    use bisolve_pull::{Backward, PullConfig};
    use bisolve_push::{Forward, PushConfig};

    use super::*;
    use crate::closest::Aim;
    use crate::limits::Limits;
    use crate::stitch::stitch;
    use crate::strategy::Strategy;
    use bisolve_board::search::Child;

    const ROOM: &str = "#########\n#@ $   .#\n#  $   .#\n#########\n";
    /// The same room with each box pushed twice to the right.
    const NEAR: &str = "#########\n#   @$ .#\n#    $ .#\n#########\n";

    /// The box squares, sorted, after `pushes` from `start`, which must be legal there.
    fn boxes_after(board: &Board, start: &State, pushes: &[bisolve_board::moves::Push]) -> Vec<Cell> {
        pushes_to_steps(board, start, pushes).expect("the pushes are legal from the start");
        let mut boxes = start.boxes.clone();
        for p in pushes {
            let at = boxes.iter().position(|&b| b == p.from).expect("a box is pushed");
            boxes[at] = board.neighbour(p.from, p.dir);
        }
        boxes.sort_unstable();
        boxes
    }

    #[test]
    fn closest_keeps_the_smallest_bound() {
        let level = Level::parse(ROOM).unwrap();
        let closest = Closest::new();
        assert_eq!((closest.version(), closest.get()), (0, None));
        closest.offer(5, level.start());
        closest.offer(7, level.start());
        assert_eq!(closest.version(), 1, "a larger bound is not taken");
        closest.offer(2, level.start());
        assert_eq!(closest.get().map(|(v, _)| v), Some(2));
    }

    /// A dead end on the left: a box in its mouth with the player below it is shut in for
    /// good; the start player stands outside.
    const DEAD_END: &str = "######\n#    #\n# #$ #\n# #  #\n# #. #\n# ##@#\n######\n";

    /// A child of a one-box state whose box is pulled to `to`, the player then on `player`,
    /// with bound `h`.
    fn pull_child(board: &Board, to: Cell, player: Cell, h: u32) -> Child {
        Child {
            box_index: 0,
            to,
            dir: bisolve_board::Dir::Up,
            player,
            fp: board.zobrist().fingerprint(&[to], player),
            h,
            goal: false,
            is_macro: false,
            cell: 0,
            steps: 1,
            explores: false,
            opens: false,
            imagines: false,
        }
    }

    #[test]
    fn live_targets_skip_states_the_start_cannot_reach() {
        let level = Level::parse(DEAD_END).unwrap();
        let (board, start) = (level.board(), level.start());
        let at = |x: usize, y: usize| board.cell(x, y).expect("floor");
        let bwd = Backward::new(board, start, PullConfig::default());
        let mut scratch = bwd.new_scratch();
        let from = [at(1, 3)];
        // Shut in below the box: never a target.
        let dead = pull_child(board, at(1, 2), at(1, 4), 0);
        let live = pull_child(board, at(1, 2), at(3, 3), 3);
        let worse = pull_child(board, at(1, 4), at(3, 3), 5);
        let closest = Closest::new();
        let mut aim = Aim::new(&closest, true);
        aim.consider(&bwd, &mut scratch, &from, std::slice::from_ref(&dead), 1);
        assert_eq!(closest.version(), 0, "a target the start cannot reach is skipped");
        aim.consider(&bwd, &mut scratch, &from, &[dead, worse, live], 2);
        let (version, target) = closest.get().expect("the closest live child is a target");
        assert_eq!((version, target.boxes.as_slice(), target.player), (1, &[at(1, 2)][..], at(3, 3)));
        aim.consider(&bwd, &mut scratch, &from, &[worse, dead], 3);
        assert_eq!(closest.version(), 1, "a farther child is no new target");
        // Without live targets the closest child is the target, dead or not.
        let closest = Closest::new();
        let mut aim = Aim::new(&closest, false);
        aim.consider(&bwd, &mut scratch, &from, &[live, dead], 1);
        let (_, target) = closest.get().expect("a target");
        assert_eq!(target.player, at(1, 4));
    }

    /// What the near-start tests share: the room's board and start, the position near its start
    /// that the backward search reached ([`NEAR`]), the room's searches, a table holding that
    /// position as a backward state, and a stop flag.
    struct NearStart<'a> {
        board: &'a Board,
        start: &'a State,
        target: &'a State,
        fwd: &'a Forward<'a>,
        bwd: &'a Backward<'a>,
        table: &'a VisitedTable,
        stop: &'a Stop<'a>,
    }

    /// Runs `check` on the near-start set-up, with a forward worker of the default strategy
    /// whose roots are queued.
    fn near_start(check: impl for<'a> FnOnce(&NearStart<'a>, &mut Worker<'a, Forward<'a>>)) {
        let room = Level::parse(ROOM).unwrap();
        let near = Level::parse(NEAR).unwrap();
        let (board, start, target) = (room.board(), room.start(), near.start());
        let fwd = Forward::new(board, start, PushConfig::default());
        let bwd = Backward::new(board, start, PullConfig::default());
        // As if the backward search had reached `target` and found nothing closer.
        let table = table_holding_backward(board, target);
        let cancel = AtomicBool::new(false);
        let stop = Stop::new(Limits::default(), &cancel, 1);
        let mut fw = Worker::new(&fwd, board.zobrist(), board.n_boxes(), Strategy::default(), 0);
        assert!(fw.seed(&table).is_none());
        let set_up = NearStart { board, start, target, fwd: &fwd, bwd: &bwd, table: &table, stop: &stop };
        check(&set_up, &mut fw);
    }

    /// A table holding `target` as a backward state.
    fn table_holding_backward(board: &Board, target: &State) -> VisitedTable {
        let table = VisitedTable::new(4);
        table.insert(target.fingerprint(board), Side::Backward, 0, PackedMove::ROOT);
        table
    }

    /// Checks that `found` is a forward meeting on `target` whose path stitches into legal
    /// pushes from `start` that lead to it, and returns how many pushes.
    fn forward_meeting_pushes(
        fwd: &Forward<'_>,
        bwd: &Backward<'_>,
        board: &Board,
        start: &State,
        table: &VisitedTable,
        found: &Found,
        target: &State,
    ) -> usize {
        let Found::Meeting { side: Side::Forward, ref child, .. } = *found else {
            panic!("expected a forward meeting, got {found:?}");
        };
        assert_eq!(child.fingerprint(board), target.fingerprint(board));
        let pushes = stitch(Some(fwd), Some(bwd), board, table, found).expect("stitched");
        assert_eq!(boxes_after(board, start, &pushes), target.boxes);
        pushes.len()
    }

    /// A room whose goal is reached only along the bottom row, where no box can ever be pushed
    /// up again: every push onto that row is one that cannot be undone.
    const BOTTOM_ROW: &str = "#######\n#     #\n# $  ##\n#@   .#\n#######\n";

    #[test]
    fn the_perimeter_goes_past_pushes_that_cannot_be_undone() {
        let level = Level::parse(BOTTOM_ROW).unwrap();
        let (board, start) = (level.board(), level.start());
        let below_start = board.cell(2, 3).expect("floor");
        // Pushed back to its start square, a box on the bottom row never gets there; pulled, it
        // does in one pull.
        let back = board.push_distances_to(&start.boxes);
        assert_eq!(back.get(below_start, 0), bisolve_board::UNREACHABLE);
        assert_eq!(Bridges::perimeter_distances(board, Side::Forward).get(below_start, 0), 1);
        // No goal macros: the box reaches its goal a push at a time, along the bottom row.
        let config =
            Strategy::default().forward_config(PushConfig { goal_macros: false, ..PushConfig::default() });
        let fwd = Forward::new(board, start, config);
        let table = VisitedTable::new(4);
        let cancel = AtomicBool::new(false);
        let stop = Stop::new(Limits::default(), &cancel, 1);
        let mut fw = Worker::new(&fwd, board.zobrist(), board.n_boxes(), Strategy::default(), 0);
        assert!(fw.seed(&table).is_none());
        let closest = Closest::new();
        let config = BridgeConfig { perimeter_after: 0, ..BridgeConfig::forward(true) };
        let mut bridges = Bridges::new(config, board, &closest);
        let found = bridges.maybe_run(&mut fw, &table, &stop);
        assert!(matches!(found, Some(Found::Goal { side: Side::Forward, .. })), "{found:?}");
        assert_eq!(bridges.runs, 1);
    }

    /// The early perimeter runs before the first expansion, and shorter; it needs the
    /// perimeter on.
    #[test]
    fn the_early_perimeter_comes_first_and_only_with_the_perimeter() {
        let late = BridgeConfig::for_strategy(&Strategy::default());
        assert_eq!(late, BridgeConfig::forward(true));
        assert_eq!((late.perimeter, late.perimeter_after), (PERIMETER_EXPANSIONS, PERIMETER_AFTER));
        let early = BridgeConfig::for_strategy(&Strategy { early_perimeter: true, ..Strategy::default() });
        assert_eq!((early.perimeter, early.perimeter_after), (EARLY_PERIMETER_EXPANSIONS, 0));
        assert_eq!((early.budget, early.share_percent), (late.budget, late.share_percent));
        let off = Strategy { perimeter: false, early_perimeter: true, ..Strategy::default() };
        assert_eq!(BridgeConfig::for_strategy(&off), BridgeConfig::forward(false));
    }

    #[test]
    fn a_bridge_meets_a_backward_state_near_the_start_and_records_its_path() {
        near_start(|n, fw| {
            let closest = Closest::new();
            let mut bridges = Bridges::new(BridgeConfig::default(), n.board, &closest);
            assert!(bridges.maybe_run(fw, n.table, n.stop).is_none(), "no target yet");
            closest.offer(4, n.target);
            let found = bridges.maybe_run(fw, n.table, n.stop).expect("the bridge meets the target");
            // The path is in the table: the stitch rebuilds four legal pushes to the target.
            let pushes = forward_meeting_pushes(n.fwd, n.bwd, n.board, n.start, n.table, &found, n.target);
            assert_eq!(pushes, 4);
            assert_eq!(bridges.runs, 1);
            assert!(bridges.maybe_run(fw, n.table, n.stop).is_none(), "the same target is not bridged twice");
            assert_eq!(bridges.runs, 1);
        });
    }

    /// The perimeter runs once, without any target, after the worker's own expansions it
    /// waits for, and meets a backward state near the start that no bridge aims at; it
    /// stitches into legal pushes from the start.
    #[test]
    fn the_perimeter_meets_a_backward_state_near_the_start_without_a_target() {
        near_start(|n, fw| {
            // The closest state never changes: no bridge would run.
            let closest = Closest::new();
            let config = BridgeConfig { perimeter_after: 1, ..BridgeConfig::forward(true) };
            let mut bridges = Bridges::new(config, n.board, &closest);
            assert!(
                bridges.maybe_run(fw, n.table, n.stop).is_none(),
                "not before the worker's own expansion"
            );
            assert_eq!(bridges.runs, 0);
            assert!(matches!(fw.step(n.table, None), crate::worker::Step::Continue));
            let found =
                bridges.maybe_run(fw, n.table, n.stop).expect("the perimeter meets the backward state");
            forward_meeting_pushes(n.fwd, n.bwd, n.board, n.start, n.table, &found, n.target);
            assert_eq!((bridges.runs, bridges.perimeter_expanded), (1, bridges.expanded));
            assert!(bridges.maybe_run(fw, n.table, n.stop).is_none(), "the perimeter runs once");
            assert_eq!(bridges.runs, 1);
            // Switched off, or by default (the backward workers' bridges), there is none.
            for config in [BridgeConfig::forward(false), BridgeConfig::default()] {
                let mut bridges = Bridges::new(config, n.board, &closest);
                assert!(bridges.maybe_run(fw, n.table, n.stop).is_none());
                assert_eq!(bridges.runs, 0);
            }
        });
    }

    /// The mirror: a backward worker's bridge from the solved position, aimed at the state
    /// where the forward search came closest to the goals, meets it, and the two halves
    /// stitch into a solution.
    #[test]
    fn a_backward_bridge_meets_the_forward_search_near_the_goals() {
        let level = Level::parse(ROOM).unwrap();
        let (board, start) = (level.board(), level.start());
        // Single pushes: two expansions with box moves already finish this room.
        let fwd = Forward::new(board, start, PushConfig { box_moves: false, ..PushConfig::default() });
        let bwd = Backward::new(board, start, PullConfig { box_moves: false, ..PullConfig::default() });
        let table = VisitedTable::new(4);
        let cancel = AtomicBool::new(false);
        let stop = Stop::new(Limits::default(), &cancel, 2);
        let strategy = Strategy::default();
        let closest = Closest::new();
        let mut fw =
            Worker::new(&fwd, board.zobrist(), board.n_boxes(), strategy, 0).publishing(&closest, false);
        assert!(fw.seed(&table).is_none());
        let mut bw = Worker::new(&bwd, board.zobrist(), board.n_boxes(), strategy, 1);
        assert!(bw.seed(&table).is_none());
        let mut bridges = Bridges::new(BridgeConfig::default(), board, &closest);
        assert!(bridges.maybe_run(&mut bw, &table, &stop).is_none(), "no target yet");
        // Two forward expansions: the forward search offers its closest child.
        for _ in 0..2 {
            assert!(matches!(fw.step(&table, None), crate::worker::Step::Continue), "searched on");
        }
        let (_, target) = closest.get().expect("the forward search offered a target");
        assert_ne!(target.boxes, start.boxes);
        let found = bridges.maybe_run(&mut bw, &table, &stop).expect("the bridge meets the forward search");
        let Found::Meeting { side: Side::Backward, ref child, .. } = found else {
            panic!("expected a backward meeting, got {found:?}");
        };
        assert_eq!(table.get(child.fingerprint(board)).map(|r| r.side()), Some(Side::Forward));
        assert_eq!(bridges.runs, 1);
        assert!(bridges.expanded > 0);
        let pushes = stitch(Some(&fwd), Some(&bwd), board, &table, &found).expect("stitched");
        assert_eq!(boxes_after(board, start, &pushes), board.goals(), "the stitched pushes solve the level");
    }

    #[test]
    fn states_a_bridge_records_are_queued_for_the_forward_search() {
        let level = Level::parse(ROOM).unwrap();
        let near = Level::parse(NEAR).unwrap();
        let (board, start) = (level.board(), level.start());
        let fwd = Forward::new(board, start, PushConfig::default());
        let table = VisitedTable::new(4);
        let cancel = AtomicBool::new(false);
        let stop = Stop::new(Limits::default(), &cancel, 1);
        let mut fw = Worker::new(&fwd, board.zobrist(), board.n_boxes(), Strategy::default(), 0);
        assert!(fw.seed(&table).is_none());
        let mut node = Vec::new();
        assert!(fw.open.pop(&mut node).is_some(), "the root");
        assert_eq!(fw.open_len(), 0);
        // No backward state to meet: the bridge records what it makes, and the forward search
        // gets every new state to expand later.
        let closest = Closest::new();
        closest.offer(4, near.start());
        let mut bridges = Bridges::new(BridgeConfig::default(), board, &closest);
        assert!(bridges.maybe_run(&mut fw, &table, &stop).is_none());
        assert!(bridges.expanded > 0);
        assert_eq!(fw.open_len() as u64, fw.stats.inserted);
        assert_eq!(fw.open_len() + 1, table.len(), "every state but the root is queued");
    }
}
