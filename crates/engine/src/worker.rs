//! One best-first search worker, generic over the direction it searches in.

use bisolve_board::search::{Child, Expander, FeatureCell, NodeRef, PackedMove, Root, Side};
use bisolve_board::{Cell, PassThrough, State, Zobrist};

use dashmap::DashSet;
use std::hash::BuildHasherDefault;
use std::time::Duration;

use crate::advisors::{advise, Advisors};
use crate::closest::{Aim, Closest};
use crate::hda::{Idle, Mailbox};
use crate::limits::{Due, Stop};
use crate::open::OpenList;
use crate::stats::SideStats;
use crate::strategy::{Strategy, Weighting};
use crate::table::{Insert, VisitedTable, MAX_DEPTH};

/// What a worker found.
#[derive(Clone, Debug)]
pub enum Found {
    /// A state that is a goal of its own side (forward: solved; backward: the start). It is
    /// in the table.
    Goal {
        /// The side that reached it.
        side: Side,
        /// The state.
        state: State,
    },
    /// The side `side` reached `child` from `parent` by `mv`, and the other side had already
    /// recorded `child`.
    Meeting {
        /// The side that made the move.
        side: Side,
        /// The state the move was made from (in the table, on `side`).
        parent: State,
        /// The move.
        mv: PackedMove,
        /// The meeting state (in the table, on the other side).
        child: State,
    },
}

/// The result of one step of a worker.
#[derive(Debug)]
pub enum Step {
    /// Expanded a node (or skipped a stale one); more to do.
    Continue,
    /// The open list is empty: this side has searched everything it can reach.
    Exhausted,
    /// A solution can be stitched from this.
    Found(Found),
}

/// Short searches a worker runs between its own steps, recording what they make as the
/// worker's states (the bridges of [`crate::bridge`]). The worker holds them and knows them by
/// this trait alone, so the search loop does not depend on what they are.
pub trait Detours<E: Expander>: std::fmt::Debug + Send {
    /// Runs one if it is due; returns a meeting or a solution it found.
    fn maybe_run(
        &mut self,
        worker: &mut Worker<'_, E>,
        table: &VisitedTable,
        stop: &Stop<'_>,
    ) -> Option<Found>;

    /// The runs so far and the nodes they expanded, for the worker's counters.
    fn effort(&self) -> (u64, u64);
}

/// A best-first search in one direction with its own open list.
#[derive(Debug)]
pub struct Worker<'a, E: Expander> {
    pub(crate) exp: &'a E,
    pub(crate) zobrist: &'a Zobrist,
    side: Side,
    pub(crate) weighting: Weighting,
    inertia: bool,
    /// Queue a child in the better of its own cell and its parent's ([`Strategy::best_past`]).
    best_past: bool,
    /// Room links and hotspots split the cells ([`Strategy::link_cells`]).
    link_cells: bool,
    /// Order each cell by FESS's weights ([`Strategy::advisors`]), and which children of
    /// the last expansion an advisor recommended.
    advisors: bool,
    advised: Vec<bool>,
    /// The advisors on ([`Strategy::advisor_set`]).
    advisor_set: Advisors,
    pub(crate) scratch: E::Scratch,
    pub(crate) open: OpenList,
    children: Vec<Child>,
    node: Vec<u16>,
    child_node: Vec<u16>,
    /// Counters of this worker.
    pub stats: SideStats,
    slot: usize,
    /// How to offer targets to the other direction's bridges.
    aim: Option<Aim<'a>>,
    /// Short searches run between this worker's steps (the bridges towards the other
    /// direction's closest state).
    detours: Option<Box<dyn Detours<E> + 'a>>,
    /// The states this worker's search has queued, when it shares a table with another
    /// search of its direction (see [`Worker::with_own_visited`]), and whether this worker
    /// reports the set's bytes.
    own: Option<(&'a OwnVisited, bool)>,
    /// The first child made with the smallest bound so far (that bound is
    /// `stats.closest_h`; see [`Worker::closest_state`]).
    closest: Option<State>,
}

/// Whole fingerprints (exact: a search that runs dry with it has searched everything) of the
/// states one search (the workers of one portfolio member's direction) has queued.
pub type OwnVisited = DashSet<u128, BuildHasherDefault<PassThrough>>;

/// Bytes per entry of an [`OwnVisited`] set: the key and hashbrown's control byte.
const OWN_ENTRY_BYTES: usize = std::mem::size_of::<u128>() + 1;

pub(crate) const HEADER: usize = 2;

impl<'a, E: Expander> Worker<'a, E> {
    /// A worker for `exp` ordering its nodes as `strategy` says, publishing memory use in
    /// `slot` of the stop flag.
    pub fn new(exp: &'a E, zobrist: &'a Zobrist, n_boxes: usize, strategy: Strategy, slot: usize) -> Self {
        Worker {
            exp,
            zobrist,
            side: exp.side(),
            weighting: strategy.weighting,
            inertia: strategy.inertia,
            best_past: strategy.best_past && strategy.weighting.cycle().is_some(),
            link_cells: strategy.link_cells,
            advisors: strategy.advisors && strategy.weighting.cycle().is_some(),
            advised: Vec::new(),
            advisor_set: strategy.advisor_set(),
            scratch: exp.new_scratch(),
            open: match strategy.weighting.cycle() {
                Some(k) => OpenList::cycling(HEADER + n_boxes, k)
                    .cell_modes(strategy.best_cell, strategy.new_cells_first),
                None => OpenList::new(HEADER + n_boxes),
            }
            .packing_cells(zobrist.n_cells()),
            children: Vec::new(),
            node: Vec::new(),
            child_node: Vec::new(),
            stats: SideStats::default(),
            slot,
            aim: None,
            detours: None,
            own: None,
            closest: None,
        }
    }

    /// This worker decides what to queue by a visited set of its own instead of by the
    /// table: for a search that shares its table with another search of the same direction.
    /// By the table alone, the second of two such searches queues only what the first has not
    /// seen, and since both start from the same roots it ran dry after its first few states
    /// (`bwd-fess` beside `bi-fess` generated 3-5 states on XSokoban 40 and Sasquatch 17). With
    /// its own set each searches its whole space in its own order; the table still records
    /// every state for meetings and paths. The workers of one search share its set (`reports`:
    /// this one counts its bytes with its open list, 17 bytes per state queued).
    pub fn with_own_visited(mut self, set: &'a OwnVisited, reports: bool) -> Self {
        self.own = Some((set, reports));
        self
    }

    /// This worker offers its closest states to `closest`, for the bridges of the other
    /// direction's workers of the same table.
    pub fn publishing(mut self, closest: &'a Closest, live_targets: bool) -> Self {
        self.aim = Some(Aim::new(closest, live_targets));
        self
    }

    /// This worker runs `detours` (the bridges, see [`crate::bridge`]) when [`Worker::bridge`]
    /// is called.
    pub fn with_bridges(mut self, detours: impl Detours<E> + 'a) -> Self {
        self.detours = Some(Box::new(detours));
        self
    }

    /// Runs a bridge if this worker has bridges and they are due; returns what it found.
    /// Call it between steps: it checks `stop` as often as the steps do.
    pub fn bridge(&mut self, table: &VisitedTable, stop: &Stop<'_>) -> Option<Found> {
        let mut detours = self.detours.take()?;
        let found = detours.maybe_run(self, table, stop);
        self.detours = Some(detours);
        found
    }

    /// The first state this worker made with the smallest lower bound, and that bound (`None`
    /// before any child). For a forward worker the table holds its path from the start until
    /// the search ends (see [`crate::ClosestPath`]).
    pub fn closest_state(&self) -> Option<(u32, &State)> {
        self.stats.closest_h.zip(self.closest.as_ref())
    }

    /// The direction this worker searches in.
    pub fn side(&self) -> Side {
        self.side
    }

    /// False when this worker's expander may skip moves, so that running dry proves nothing.
    pub fn complete(&self) -> bool {
        self.exp.complete()
    }

    /// The slot this worker publishes its memory use in.
    pub fn slot(&self) -> usize {
        self.slot
    }

    /// Like [`Worker::seed`], but queues the roots even when another search of the same side
    /// has already recorded them in a shared table (portfolio members each start from the
    /// roots).
    pub fn seed_always(&mut self, table: &VisitedTable) -> Option<Found> {
        for root in self.exp.roots(&mut self.scratch) {
            let node = NodeRef::root(&root);
            if self.exp.is_goal(&mut self.scratch, node) {
                table.insert(root.fp, self.side, 0, PackedMove::ROOT);
                return Some(Found::Goal { side: self.side, state: root.state });
            }
            if let Insert::Meeting(_) = table.insert(root.fp, self.side, 0, PackedMove::ROOT) {
                return Some(Found::Goal { side: self.side.other(), state: root.state });
            }
            if let Some((own, _)) = self.own {
                own.insert(root.fp.0);
            }
            self.queue_root(&root);
        }
        None
    }

    fn queue_root(&mut self, root: &Root) {
        self.child_node.clear();
        self.child_node.extend_from_slice(&[root.state.player, 0]);
        self.child_node.extend_from_slice(&root.state.boxes);
        let (p, mut s) = self.weighting.root_keys(root.h, self.queue_cell(root.cell));
        if self.advisors {
            s = 0;
        }
        self.open.push(p, s, &self.child_node);
    }

    /// The cell a node of feature cell `cell` is queued in: without its room links and
    /// hotspots unless they split the cells ([`Strategy::link_cells`]).
    #[inline]
    fn queue_cell(&self, cell: u32) -> u32 {
        if self.link_cells {
            cell
        } else {
            FeatureCell::without_links(cell)
        }
    }

    /// Nodes waiting in this worker's open list.
    pub fn open_len(&self) -> usize {
        self.open.len()
    }

    /// Puts this direction's roots in the table and the open list. A root that is already a
    /// goal, or that the other side has recorded, is returned at once.
    pub fn seed(&mut self, table: &VisitedTable) -> Option<Found> {
        for root in self.exp.roots(&mut self.scratch) {
            let node = NodeRef::root(&root);
            if self.exp.is_goal(&mut self.scratch, node) {
                table.insert(root.fp, self.side, 0, PackedMove::ROOT);
                return Some(Found::Goal { side: self.side, state: root.state });
            }
            match table.insert(root.fp, self.side, 0, PackedMove::ROOT) {
                Insert::Meeting(_) => {
                    // The other side reached this root: stitch with an empty chain on this side.
                    return Some(Found::Goal { side: self.side.other(), state: root.state });
                }
                Insert::New => self.queue_root(&root),
                Insert::Improved | Insert::Duplicate => {}
            }
        }
        None
    }

    /// Moves nodes that other workers sent into this worker's open list.
    pub fn receive(&mut self, mailbox: &mut Mailbox<'_>) -> bool {
        mailbox.receive(&mut self.open)
    }

    /// Waits briefly for work with an empty open list; true if the whole group ran dry.
    pub fn idle(&mut self, mailbox: &mut Mailbox<'_>) -> bool {
        mailbox.idle(&mut self.open)
    }

    /// Looks for work with an empty open list, waiting at most `patience` (see
    /// [`Mailbox::wait_for_work`]).
    pub fn wait_for_work(&mut self, mailbox: &mut Mailbox<'_>, patience: Duration) -> Idle {
        mailbox.wait_for_work(&mut self.open, patience)
    }

    /// Expands the best node. New children go to this worker's open list, or with a mailbox
    /// to the open list of the worker that owns them.
    pub fn step(&mut self, table: &VisitedTable, mut mailbox: Option<&mut Mailbox<'_>>) -> Step {
        let Some(parent_keys) = self.open.pop(&mut self.node) else {
            return Step::Exhausted;
        };
        let player = self.node[0];
        let boxes: &[Cell] = &self.node[HEADER..];
        let fp = self.zobrist.fingerprint(boxes, player);
        let record = table.get(fp).filter(|r| r.side() == self.side);
        let recorded = record.map(|r| r.depth());
        // The box the last move moved: with inertia, ties prefer moving it again.
        let last_moved = record.filter(|_| self.inertia).map_or(bisolve_board::NO_CELL, |r| r.mv().to());
        let mut g = u32::from(self.node[1]);
        if let Some(depth) = recorded.filter(|&d| d < g) {
            if self.weighting.optimal() {
                // A* queued this state again when it found the shorter path: this copy is stale.
                self.stats.stale += 1;
                return Step::Continue;
            }
            // The other orderings queue a state once and keep its shortest known path in the
            // table; carry on from that.
            g = depth;
        }
        // The box the move into this node moved (not a macro's), which box moves leave to
        // the run that moved it.
        let moved = record.map_or(bisolve_board::NO_CELL, |r| {
            if r.mv().is_macro() {
                bisolve_board::NO_CELL
            } else {
                r.mv().to()
            }
        });
        let node = NodeRef { boxes, player, fp, g, moved };
        if self.weighting.optimal() && self.exp.is_goal(&mut self.scratch, node) {
            return Step::Found(Found::Goal { side: self.side, state: State::new(boxes.to_vec(), player) });
        }
        self.children.clear();
        self.exp.expand(&mut self.scratch, node, &mut self.children);
        self.stats.expanded += 1;
        self.stats.generated += self.children.len() as u64;
        let closer = note_closest(&mut self.stats, &self.children, self.weighting.cycle().is_some());
        if let Some(child) = closer {
            let mut moved = boxes.to_vec();
            moved[child.box_index as usize] = child.to;
            self.closest = Some(State::new(moved, child.player));
        }
        if let Some(aim) = &mut self.aim {
            aim.consider(self.exp, &mut self.scratch, boxes, &self.children, self.stats.expanded);
        }
        if self.advisors {
            let cell = self.exp.node_cell(&mut self.scratch, boxes);
            advise(cell, &self.children, self.advisor_set, &mut self.advised);
        }
        for (k, child) in self.children.iter().enumerate() {
            let depth = (g + u32::from(child.steps)).min(MAX_DEPTH);
            let mut inserted = table.insert(child.fp, self.side, depth, child.packed());
            // New to the table (the state limit counts those), whatever this worker queues.
            let recorded_new = inserted == Insert::New;
            if inserted == Insert::Improved {
                self.stats.improved += 1;
            }
            if let Some((own, _)) = self.own {
                // Queued once per search, whoever recorded the state first; A* also queues
                // a shorter path again.
                let new_here = own.insert(child.fp.0);
                inserted = match inserted {
                    Insert::Meeting(_) => inserted,
                    Insert::Improved if self.weighting.optimal() => inserted,
                    _ if new_here => Insert::New,
                    _ => Insert::Duplicate,
                };
            } else if inserted == Insert::Improved && !self.weighting.optimal() {
                // Queued once already; the table now holds the shorter path.
                continue;
            }
            match inserted {
                Insert::New | Insert::Improved => {
                    self.stats.inserted += u64::from(recorded_new);
                    self.child_node.clear();
                    self.child_node.extend_from_slice(&[child.player, depth as u16]);
                    self.child_node.extend_from_slice(boxes);
                    self.child_node[HEADER + child.box_index as usize] = child.to;
                    if child.goal && !self.weighting.optimal() {
                        let state = State::new(self.child_node[HEADER..].to_vec(), child.player);
                        return Step::Found(Found::Goal { side: self.side, state });
                    }
                    let same_box = boxes[child.box_index as usize] == last_moved;
                    let (mut p, mut s) =
                        self.weighting.child_keys(depth, child.h, self.queue_cell(child.cell), same_box);
                    if self.advisors {
                        let weight = parent_keys.1 / 2 + usize::from(!self.advised[k]);
                        s = 2 * weight + usize::from(!same_box);
                    }
                    if self.best_past {
                        p = p.min(parent_keys.0);
                    }
                    match mailbox.as_deref_mut() {
                        // Children stay with this worker unless another worker is waiting
                        // for work; then the ones worse than their parent go to their hash
                        // owners. Sending every child to its owner (plain HDA*) scattered
                        // greedy dives: an open room that one thread solves in 240
                        // expansions took over 300,000 on two threads. "Worse" is by the
                        // primary key only: judged with the tie-break too, inertia sent away
                        // every equal child that moves another box, which scattered the dive
                        // again (forward, 4 threads: the open room timed out 3 times in 30).
                        Some(m) if self.weighting.worse((p, s), parent_keys) && m.someone_hungry() => {
                            let owner = m.owner(child.fp.key());
                            if owner == m.id() {
                                self.open.push(p, s, &self.child_node);
                            } else {
                                m.send(owner, p, s, &self.child_node);
                            }
                        }
                        _ => self.open.push(p, s, &self.child_node),
                    }
                }
                Insert::Duplicate => self.stats.duplicates += 1,
                Insert::Meeting(_) => {
                    let mut moved = boxes.to_vec();
                    moved[child.box_index as usize] = child.to;
                    let child_state = State::new(moved, child.player);
                    let parent = self.parent_of(boxes, player, child, &child_state);
                    return Step::Found(Found::Meeting {
                        side: self.side,
                        parent,
                        mv: child.packed(),
                        child: child_state,
                    });
                }
            }
        }
        Step::Continue
    }

    /// The state `child` (which is `child_state`) came from: the node expanded (`boxes`,
    /// `player`), or for a later push of a box's run the child made just before it.
    pub(crate) fn parent_of(
        &self,
        boxes: &[Cell],
        player: Cell,
        child: &Child,
        child_state: &State,
    ) -> State {
        if child.steps > 1 {
            if let Some(parent) = self.exp.parent(child_state, child.packed()) {
                return parent;
            }
        }
        State::new(boxes.to_vec(), player)
    }

    /// Queues `child` (laid out in `node`), which a bridge has just recorded in the table,
    /// for this worker, which would not meet it as new any more.
    pub(crate) fn queue_bridged(&mut self, depth: u32, child: &Child, node: &[u16]) {
        if let Some((own, _)) = self.own {
            if !own.insert(child.fp.0) {
                return;
            }
        }
        let (p, mut s) = self.weighting.child_keys(depth, child.h, self.queue_cell(child.cell), false);
        if self.advisors {
            // Off the search's own paths: as if no advisor recommended any move to it.
            s = 2 * depth as usize + 1;
        }
        self.open.push(p, s, node);
    }

    /// Publishes how many states this worker has added to the table (for the state limit).
    pub fn report_inserted(&self, stop: &Stop<'_>) {
        stop.report_inserted(self.slot, self.stats.inserted as usize);
    }

    /// Checks the time limit and, when `due` says so, publishes this worker's memory use and
    /// checks the memory limit.
    pub fn check_limits(&mut self, stop: &Stop<'_>, table: &VisitedTable, due: Due) {
        if due == Due::Nothing {
            return;
        }
        stop.check_time();
        if due == Due::All {
            stop.report_open_bytes(self.slot, self.open_bytes());
            stop.report_closest(self.side, self.stats.closest_h);
            stop.check_memory(table.bytes(), || table.len());
        }
    }

    /// The final counters, with the pruning counts of this worker's scratch.
    pub fn finish(mut self) -> SideStats {
        self.stats.pruned = self.exp.prune_counts(&self.scratch);
        if let Some(d) = &self.detours {
            let (runs, expanded) = d.effort();
            self.stats.bridges += runs;
            self.stats.bridge_expanded += expanded;
        }
        self.stats
    }

    /// The bytes this worker's open list holds now.
    pub fn open_bytes(&self) -> usize {
        let own = match self.own {
            Some((own, true)) => own.capacity() * OWN_ENTRY_BYTES,
            _ => 0,
        };
        self.open.bytes() + own
    }
}

/// Records how close `children` come to their side's targets in `stats`; returns the first
/// child whose bound is smaller than any before it (the first of equal ones, so one thread
/// stays deterministic).
fn note_closest<'c>(stats: &mut SideStats, children: &'c [Child], features: bool) -> Option<&'c Child> {
    let mut best: Option<&Child> = None;
    let mut unplaced = u32::MAX;
    for child in children {
        if best.is_none_or(|b| child.h < b.h) {
            best = Some(child);
        }
        if features {
            unplaced = unplaced.min(FeatureCell::unpack(child.cell).unplaced);
        }
    }
    if unplaced != u32::MAX {
        stats.closest_unplaced = Some(stats.closest_unplaced.map_or(unplaced, |c| c.min(unplaced)));
    }
    let best = best?;
    let before = stats.closest_h.unwrap_or(u32::MAX);
    stats.closest_h = Some(before.min(best.h));
    (best.h < before).then_some(best)
}
