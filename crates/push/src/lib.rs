//! Forward search for bisolve: pushes from the player's region, forward deadlock tests and
//! forward lower bounds. Implements [`Expander`] for the engine's search loop.
//!
//! Pruning, each test switchable in [`PushConfig`]:
//! - dead squares: a box pushed where no goal can be reached from;
//! - freeze deadlocks ([`freeze`]): boxes frozen on both axes with one off its goal;
//! - the lower bound: no perfect matching of boxes to goals means a deadlock.

pub mod freeze;

use bisolve_board::bound::{BoundKind, LowerBound};
use bisolve_board::moves::Push;
use bisolve_board::search::{Child, Expander, NodeRef, PackedMove, PruneCount, Root, Side};
use bisolve_board::{Board, BoxMap, Dir, Reach, State, NO_CELL};

use crate::freeze::FreezeCheck;

/// Switches and choices of the forward search.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PushConfig {
    /// Prune pushes onto dead squares. Default on.
    pub dead_squares: bool,
    /// Prune freeze deadlocks. Default on.
    pub freeze: bool,
    /// The lower bound that orders the search and detects matching deadlocks. Default
    /// [`BoundKind::Matching`].
    pub bound: BoundKind,
}

impl Default for PushConfig {
    fn default() -> PushConfig {
        PushConfig { dead_squares: true, freeze: true, bound: BoundKind::Matching }
    }
}

/// The forward move generator for one level.
#[derive(Debug)]
pub struct Forward<'a> {
    board: &'a Board,
    start: &'a State,
    config: PushConfig,
}

impl<'a> Forward<'a> {
    /// A forward search from `start` on `board`.
    pub fn new(board: &'a Board, start: &'a State, config: PushConfig) -> Forward<'a> {
        Forward { board, start, config }
    }

    /// The configuration.
    pub fn config(&self) -> PushConfig {
        self.config
    }
}

/// Per-thread working memory of the forward search.
#[derive(Debug)]
pub struct PushScratch {
    boxes: BoxMap,
    reach: Reach,
    child_reach: Reach,
    bound: LowerBound,
    freeze: FreezeCheck,
    pruned_dead: u64,
    pruned_freeze: u64,
    pruned_bound: u64,
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
            bound: LowerBound::new(self.config.bound),
            freeze: FreezeCheck::default(),
            pruned_dead: 0,
            pruned_freeze: 0,
            pruned_bound: 0,
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
        let state = State::new(boxes.clone(), player);
        let fp = board.zobrist().fingerprint(&state.boxes, player);
        vec![Root { state, fp, h }]
    }

    fn is_goal(&self, _s: &mut PushScratch, node: NodeRef<'_>) -> bool {
        node.boxes.iter().all(|&b| self.board.is_goal(b))
    }

    fn expand(&self, s: &mut PushScratch, node: NodeRef<'_>, out: &mut Vec<Child>) {
        let board = self.board;
        let zobrist = board.zobrist();
        s.boxes.set_all(node.boxes);
        let region_min = s.reach.fill(board, &s.boxes, node.player);
        if s.bound.prepare(board.goal_distances(), node.boxes).is_none() {
            // Only a root or a state found before a configuration change can get here.
            s.boxes.clear_all(node.boxes);
            return;
        }
        let off_goal = node.boxes.iter().filter(|&&b| !board.is_goal(b)).count();
        let base = node.fp ^ zobrist.player_key(node.player);
        for (i, &b) in node.boxes.iter().enumerate() {
            let neighbours = *board.neighbours(b);
            for (d, &to) in neighbours.iter().enumerate() {
                if to == NO_CELL || s.boxes.is_box(to) {
                    continue;
                }
                let behind = neighbours[(d + 2) & 3];
                if behind == NO_CELL || !s.reach.contains(behind) {
                    continue;
                }
                if self.config.dead_squares && board.is_push_dead(to) {
                    s.pruned_dead += 1;
                    continue;
                }
                s.boxes.move_box(b, to);
                if self.config.freeze && s.freeze.is_deadlock(board, &s.boxes, to) {
                    s.pruned_freeze += 1;
                    s.boxes.move_box(to, b);
                    continue;
                }
                let Some(h) = s.bound.after_move(board.goal_distances(), i, to) else {
                    s.pruned_bound += 1;
                    s.boxes.move_box(to, b);
                    continue;
                };
                let player = match s.reach.child_min(board, &s.boxes, region_min, b, to) {
                    Some(p) => p,
                    None => s.child_reach.fill(board, &s.boxes, b),
                };
                debug_assert_eq!(player, s.child_reach.fill(board, &s.boxes, b));
                s.boxes.move_box(to, b);
                let fp = base ^ zobrist.box_key(b) ^ zobrist.box_key(to) ^ zobrist.player_key(player);
                let child_off = off_goal + usize::from(!board.is_goal(to)) - usize::from(!board.is_goal(b));
                out.push(Child {
                    box_index: i as u16,
                    to,
                    dir: Dir::from_index(d),
                    player,
                    fp,
                    h,
                    goal: child_off == 0,
                });
            }
        }
        s.boxes.clear_all(node.boxes);
    }

    fn parent(&self, state: &State, mv: PackedMove) -> Option<State> {
        let back = mv.dir().opposite();
        let to = mv.to();
        if mv.is_root() || state.boxes.binary_search(&to).is_err() {
            return None;
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

    fn as_push(&self, mv: PackedMove) -> Push {
        Push { from: self.board.neighbour(mv.to(), mv.dir().opposite()), dir: mv.dir() }
    }

    fn prune_counts(&self, s: &PushScratch) -> Vec<PruneCount> {
        vec![("dead squares", s.pruned_dead), ("freeze", s.pruned_freeze), ("bound", s.pruned_bound)]
    }
}
