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
//!   no pulls of the boxes around it ever let the player out.
//!
//! Freeze tests do not carry over to the state itself: a box pulled against a wall can still
//! be pulled away along the wall, and boxes only block pulls for as long as they stay. Board
//! symmetries are not used either: they do not preserve the start squares.

pub mod confine;
pub mod start_freeze;

use bisolve_board::bound::{BoundKind, LowerBound};
use bisolve_board::moves::Push;
use bisolve_board::packing::PackingOrder;
use bisolve_board::pairs::{PairMode, PairTable};
use bisolve_board::sealed::{SealedCheck, SealedTargets};
use bisolve_board::search::{Child, Expander, FeatureCell, NodeRef, PackedMove, PruneCount, Root, Side};
use bisolve_board::{Areas, Board, BoxMap, Cell, Dir, Fingerprint, Reach, State, NO_CELL};

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
    /// [`bisolve_board::sealed`]). Default off: measured neutral to slightly worse against the
    /// clock (`--pull-sealed-starts`), though it cuts states at a fixed budget.
    pub sealed_starts: bool,
    /// Prune backward states whose player is shut in a region without the start player's
    /// square that no pulls of the boxes around it can open (see [`confine`]). Default off:
    /// sound, and it cuts 40% of the backward expansions on some hard levels, but the states
    /// it cuts lead the backward search close to the start, where the bridges aim from.
    pub confinement: bool,
    /// With `features`: count start squares packed in their packing order (see
    /// [`bisolve_board::packing`]) instead of boxes on start squares in the feature cell.
    /// Default off (`--packing`).
    pub packing: bool,
}

impl Default for PullConfig {
    fn default() -> PullConfig {
        PullConfig {
            dead_squares: true,
            bound: BoundKind::Matching,
            pair_deadlocks: true,
            start_freeze: true,
            sealed_starts: false,
            confinement: false,
            features: false,
            packing: false,
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
    start_freeze: Option<Arc<StartFreeze>>,
    /// The start squares' neighbourhoods for the sealed-start test, when it is on.
    sealed: Option<SealedTargets>,
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
        let pairs = if config.pair_deadlocks {
            others
                .iter()
                .find_map(|o| o.pairs.clone())
                .or_else(|| PairTable::new(board, PairMode::Pull).map(Arc::new))
        } else {
            None
        };
        let packing = (config.features && config.packing).then(|| PackingOrder::new(board, Side::Backward));
        let packing = packing.filter(PackingOrder::has_order);
        let start_freeze = if config.start_freeze {
            others
                .iter()
                .find_map(|o| o.start_freeze.clone())
                .or_else(|| StartFreeze::new(board, start).filter(|t| !t.is_idle()).map(Arc::new))
        } else {
            None
        };
        let sealed = config.sealed_starts.then(|| SealedTargets::new(board, PairMode::Pull));
        Backward {
            board,
            config,
            start_fp: start.fingerprint(board),
            start_player: start.player,
            pairs,
            packing,
            start_freeze,
            sealed,
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
    pruned_pairs: u64,
    start_freeze: Option<StartScratch>,
    pruned_start_freeze: u64,
    sealed: SealedCheck,
    confine: ConfineCheck,
    /// The confinement test for bridge targets ([`Expander::worth_aiming_at`]), with its own
    /// counters and cache: it runs whether or not `confine` prunes.
    aim_confine: ConfineCheck,
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
            pruned_pairs: 0,
            start_freeze: self.start_freeze.as_deref().map(StartFreeze::scratch),
            pruned_start_freeze: 0,
            sealed: SealedCheck::new(n),
            confine: ConfineCheck::new(n),
            aim_confine: ConfineCheck::new(n),
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
            let unplaced = goals.iter().filter(|&&g| !board.is_start_square(g)).count() as u32;
            let unpacked = self.packing.as_ref().map(|p| p.unpacked(|c| s.boxes.is_box(c)));
            FeatureCell { unplaced: unpacked.unwrap_or(unplaced), areas: s.areas.label(board, &s.boxes) }
                .pack()
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
        let region_min = s.reach.fill(board, &s.boxes, node.player);
        if self.config.confinement
            && s.confine.is_dead(board, node.boxes, &s.reach, region_min, self.start_player)
        {
            s.boxes.clear_all(node.boxes);
            return;
        }
        if self.config.features {
            s.areas.label(board, &s.boxes);
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
        for (i, &b) in node.boxes.iter().enumerate() {
            for d in Dir::ALL {
                // The player stands on `to`, steps back to `beyond`, and the box follows.
                let to = board.neighbour(b, d);
                if to == NO_CELL || !s.reach.contains(to) {
                    continue;
                }
                let beyond = board.neighbour(to, d);
                if beyond == NO_CELL || s.boxes.is_box(beyond) {
                    continue;
                }
                if self.config.dead_squares && board.is_pull_dead(to) {
                    s.pruned_dead += 1;
                    continue;
                }
                let Some(h) = s.bound.after_move(board.start_distances(), i, to) else {
                    s.pruned_bound += 1;
                    continue;
                };
                s.boxes.move_box(b, to);
                let (player, areas) = if self.config.features {
                    let (areas, player) = s.areas.after_move(board, b, to, beyond);
                    (player, areas)
                } else {
                    let player = match s.reach.child_min(board, &s.boxes, region_min, b, to) {
                        Some(p) => p,
                        None => s.child_reach.fill(board, &s.boxes, beyond),
                    };
                    (player, 0)
                };
                debug_assert_eq!(player, s.child_reach.fill(board, &s.boxes, beyond));
                if let Some(pairs) = &self.pairs {
                    if node.boxes.iter().enumerate().any(|(j, &c)| j != i && pairs.is_dead(to, c, player)) {
                        s.pruned_pairs += 1;
                        s.boxes.move_box(to, b);
                        continue;
                    }
                }
                if let Some(sealed) = &self.sealed {
                    if s.sealed.is_dead(sealed, board, &s.boxes, to, player) {
                        s.boxes.move_box(to, b);
                        continue;
                    }
                }
                let unpacked = self.packing.as_ref().map(|p| p.unpacked(|c| s.boxes.is_box(c)));
                s.boxes.move_box(to, b);
                let fp = base ^ zobrist.box_key(b) ^ zobrist.box_key(to) ^ zobrist.player_key(player);
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
                        let unplaced = unplaced + usize::from(!board.is_start_square(to))
                            - usize::from(!board.is_start_square(b));
                        FeatureCell { unplaced: unpacked.unwrap_or(unplaced as u32), areas }.pack()
                    } else {
                        0
                    },
                });
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

    fn prune_counts(&self, s: &PullScratch) -> Vec<PruneCount> {
        vec![
            ("pull dead squares", s.pruned_dead),
            ("pull bound", s.pruned_bound),
            ("pull pair deadlock", s.pruned_pairs),
            ("pull start freeze", s.pruned_start_freeze),
            ("pull sealed start deadlock", s.sealed.proved),
            ("pull sealed start searches", s.sealed.searches),
            ("pull sealed start searches given up", s.sealed.gave_up),
            ("pull sealed start checks", s.sealed.checks),
            ("pull confined player", s.confine.proved),
            ("pull confinement searches", s.confine.searches),
            ("pull confinement searches given up", s.confine.gave_up),
            ("pull confinement checks", s.confine.checks),
            ("bridge targets confined", s.aim_confine.proved),
        ]
    }
}
