//! The seam between the search loop and the move generators: one trait that the forward
//! (push) and backward (pull) crates implement and the engine's loop is generic over.

use crate::board::{Board, Cell, NO_CELL};
use crate::dir::Dir;
use crate::moves::Push;
use crate::state::State;
use crate::zobrist::Fingerprint;

/// Which way a search runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    /// From the start position, pushing boxes.
    Forward,
    /// From the solved positions, pulling boxes.
    Backward,
}

impl Side {
    /// The other side.
    pub fn other(self) -> Side {
        match self {
            Side::Forward => Side::Backward,
            Side::Backward => Side::Forward,
        }
    }

    /// `forward` or `backward`.
    pub fn name(self) -> &'static str {
        match self {
            Side::Forward => "forward",
            Side::Backward => "backward",
        }
    }
}

/// A push or a pull in 17 bits: the cell the box moved to (14 bits), the direction it moved
/// in (2 bits), and whether the move is a macro (several pushes of one box, which only the
/// expander that made it knows how to undo; the goal rooms of `bisolve-deadlock`). [`PackedMove::ROOT`]
/// marks a state that no move led to.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct PackedMove(u32);

/// The bit of [`PackedMove::bits`] that marks a macro.
pub const MACRO_BIT: u32 = 1 << 16;

impl PackedMove {
    /// No move: the state is a root of its search.
    pub const ROOT: PackedMove = PackedMove(u16::MAX as u32);

    /// The box moved in `dir` and arrived on `to`.
    #[inline]
    pub fn new(to: Cell, dir: Dir) -> PackedMove {
        debug_assert!((to as usize) < crate::board::MAX_CELLS);
        PackedMove((u32::from(to) << 2) | dir as u32)
    }

    /// A macro that ended with the box on `to`; `dir` is whatever its expander needs to undo
    /// it.
    #[inline]
    pub fn new_macro(to: Cell, dir: Dir) -> PackedMove {
        PackedMove(PackedMove::new(to, dir).0 | MACRO_BIT)
    }

    /// The 17 bits.
    #[inline]
    pub fn bits(self) -> u32 {
        self.0
    }

    /// From bits written by [`PackedMove::bits`] (higher bits ignored).
    #[inline]
    pub fn from_bits(bits: u32) -> PackedMove {
        PackedMove(bits & (MACRO_BIT | 0xFFFF))
    }

    /// True for a macro move.
    #[inline]
    pub fn is_macro(self) -> bool {
        self.0 & MACRO_BIT != 0
    }

    /// True for [`PackedMove::ROOT`].
    #[inline]
    pub fn is_root(self) -> bool {
        self == PackedMove::ROOT
    }

    /// The box's cell after the move ([`NO_CELL`] for the root).
    #[inline]
    pub fn to(self) -> Cell {
        if self.is_root() {
            NO_CELL
        } else {
            ((self.0 & 0xFFFF) >> 2) as Cell
        }
    }

    /// The direction the box moved in.
    #[inline]
    pub fn dir(self) -> Dir {
        Dir::from_index((self.0 & 3) as usize)
    }
}

impl std::fmt::Debug for PackedMove {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.is_root() {
            f.write_str("ROOT")
        } else if self.is_macro() {
            write!(f, "macro {}->{}", self.dir(), self.to())
        } else {
            write!(f, "{}->{}", self.dir(), self.to())
        }
    }
}

/// The most cells a board may have for box moves (`PushConfig::box_moves` and its pull
/// mirror): a run fills the player's region once per position it reaches, so one expansion
/// costs up to boxes x 4 cells x cells steps, and on larger boards (the limit tests' open
/// 125 x 125 room with 600 boxes) one expansion would outlast every limit's check. The
/// searches make single moves there.
pub const BOX_MOVE_MAX_CELLS: usize = 1024;

/// A state being expanded, as the search loop stores it.
#[derive(Clone, Copy, Debug)]
pub struct NodeRef<'a> {
    /// Box cells, in the order the node was stored (not necessarily sorted).
    pub boxes: &'a [Cell],
    /// Any cell of the player's region (the search stores the normalized one).
    pub player: Cell,
    /// The canonical fingerprint.
    pub fp: Fingerprint,
    /// Moves from the root of its search.
    pub g: u32,
    /// The cell of the box that a single push or pull (not a macro) last moved to reach this
    /// node, when the search knows it and every move of that box from here was already made
    /// by the expansion that moved it (see `PushConfig::box_moves`); [`NO_CELL`] otherwise.
    pub moved: Cell,
}

impl<'a> NodeRef<'a> {
    /// A root as a node: depth 0, no box moved into it.
    pub fn root(root: &'a Root) -> NodeRef<'a> {
        NodeRef { boxes: &root.state.boxes, player: root.state.player, fp: root.fp, g: 0, moved: NO_CELL }
    }

    /// `state` as a node at depth `g` (the player normalized, the fingerprint computed), with
    /// `moved` as [`NodeRef::moved`].
    pub fn of_state(board: &Board, state: &'a State, g: u32, moved: Cell) -> NodeRef<'a> {
        NodeRef {
            boxes: &state.boxes,
            player: state.normalized_player(board),
            fp: state.fingerprint(board),
            g,
            moved,
        }
    }
}

/// The children an expander makes from `state` (at depth 0, reached by moving the box now on
/// `moved`, or [`NO_CELL`]), each with the state it stands for: for tests and tools.
pub fn children_of<E: Expander>(
    exp: &E,
    scratch: &mut E::Scratch,
    board: &Board,
    state: &State,
    moved: Cell,
) -> Vec<(State, Child)> {
    let mut out = Vec::new();
    exp.expand(scratch, NodeRef::of_state(board, state, 0, moved), &mut out);
    out.into_iter()
        .map(|c| {
            let mut boxes = state.boxes.clone();
            boxes[c.box_index as usize] = c.to;
            (State::new(boxes, c.player), c)
        })
        .collect()
}

/// A successor found by expanding a node.
#[derive(Clone, Copy, Debug)]
pub struct Child {
    /// Which box of the parent's list moved.
    pub box_index: u16,
    /// The box's new cell.
    pub to: Cell,
    /// The direction it moved in.
    pub dir: Dir,
    /// The normalized player position after the move.
    pub player: Cell,
    /// The child's canonical fingerprint.
    pub fp: Fingerprint,
    /// The child's heuristic value (a lower bound when the bound is admissible).
    pub h: u32,
    /// True if the child is a goal of its search.
    pub goal: bool,
    /// True if the move is a macro (several pushes of one box).
    pub is_macro: bool,
    /// The child's feature cell (see [`FeatureCell`]), when the expander computes features;
    /// 0 otherwise.
    pub cell: u32,
    /// Moves from the node expanded to this child: 1, or more for a box moved several times
    /// in one expansion (box moves), where the move undone gives the child made just before
    /// it from the same expansion, which the search records first.
    pub steps: u16,
    /// True if the move lets the player reach, for the first time, a side of another box from
    /// which that box can be moved (FESS's explorer advisor watches for these moves); marked
    /// only by an expander asked to, false otherwise.
    pub explores: bool,
    /// True if the move best clears the way to the square the level's plan fills next, when
    /// no move fills it (FESS's opener advisor recommends it); marked only by an expander
    /// asked to, false otherwise.
    pub opens: bool,
    /// True if the move best brings a box onto a square where the level's plan keeps boxes
    /// waiting (FESS's imagine advisor recommends it); marked only by an expander asked to,
    /// false otherwise.
    pub imagines: bool,
}

impl Child {
    /// The move that made this child, packed.
    #[inline]
    pub fn packed(&self) -> PackedMove {
        if self.is_macro {
            PackedMove::new_macro(self.to, self.dir)
        } else {
            PackedMove::new(self.to, self.dir)
        }
    }
}

/// A root state of a search, with its heuristic value.
#[derive(Clone, Debug)]
pub struct Root {
    /// The state, with the player already normalized.
    pub state: State,
    /// Its fingerprint.
    pub fp: Fingerprint,
    /// Its heuristic value.
    pub h: u32,
    /// Its feature cell, when the expander computes features; 0 otherwise.
    pub cell: u32,
}

/// The features of a position that the feature-space search cycles over (after FESS,
/// Shoham and Schaeffer 2020), packed into one small number: how many boxes are still off
/// their targets (goals forward, start squares backward), how many areas the free squares
/// fall into (connectivity: 1 when the player could walk everywhere no box stands), and how
/// many links between rooms the boxes cut (room connectivity, see
/// [`RoomLinks`](crate::RoomLinks); 0 when the expander does not count them), and how many
/// boxes stand in other boxes' way (hotspots, see [`Hotspots`](crate::Hotspots); 0 when the
/// expander does not count them).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct FeatureCell {
    /// Boxes not on a target.
    pub unplaced: u32,
    /// Areas of free squares, at least 1; counted up to [`FeatureCell::MAX_AREAS`].
    pub areas: u32,
    /// Links between rooms cut; counted up to [`FeatureCell::MAX_CUT_LINKS`].
    pub cut_links: u32,
    /// Hotspots; counted up to [`FeatureCell::MAX_HOTSPOTS`].
    pub hotspots: u32,
    /// Boxes out of plan (where the plan will soon need the room); counted up to
    /// [`FeatureCell::MAX_OUT_OF_PLAN`].
    pub out_of_plan: u32,
}

impl FeatureCell {
    /// Areas beyond this count as this many.
    pub const MAX_AREAS: u32 = 16;
    /// Cut links beyond this count as this many.
    pub const MAX_CUT_LINKS: u32 = 7;
    /// Hotspots beyond this count as this many.
    pub const MAX_HOTSPOTS: u32 = 3;
    /// Boxes out of plan beyond this count as this many: a cell tells only whether any box
    /// is. With [`FeatureCell::MAX_HOTSPOTS`], it keeps the cells of a level within the range
    /// they had before this feature came (the open lists hold a bucket per cell number up to
    /// the largest seen, 40 bytes each).
    pub const MAX_OUT_OF_PLAN: u32 = 1;

    /// The cell as one number: distinct cells give distinct numbers, and fewer unplaced boxes
    /// give smaller ones.
    #[inline]
    pub fn pack(self) -> u32 {
        let links = self.cut_links.min(FeatureCell::MAX_CUT_LINKS);
        let hotspots = self.hotspots.min(FeatureCell::MAX_HOTSPOTS);
        let oop = self.out_of_plan.min(FeatureCell::MAX_OUT_OF_PLAN);
        (((self.unplaced * (FeatureCell::MAX_CUT_LINKS + 1) + links) * (FeatureCell::MAX_OUT_OF_PLAN + 1)
            + oop)
            * (FeatureCell::MAX_HOTSPOTS + 1)
            + hotspots)
            * FeatureCell::MAX_AREAS
            + self.areas.clamp(1, FeatureCell::MAX_AREAS)
            - 1
    }

    /// The packed cell `packed` with no links cut and no hotspots: the cell of a search whose
    /// cells leave those two out, for the advisors alone to read.
    #[inline]
    pub fn without_links(packed: u32) -> u32 {
        FeatureCell { cut_links: 0, hotspots: 0, ..FeatureCell::unpack(packed) }.pack()
    }

    /// The cell [`FeatureCell::pack`] made `packed` from.
    #[inline]
    pub fn unpack(packed: u32) -> FeatureCell {
        let rest = packed / FeatureCell::MAX_AREAS;
        let hotspots = rest % (FeatureCell::MAX_HOTSPOTS + 1);
        let rest = rest / (FeatureCell::MAX_HOTSPOTS + 1);
        let out_of_plan = rest % (FeatureCell::MAX_OUT_OF_PLAN + 1);
        let rest = rest / (FeatureCell::MAX_OUT_OF_PLAN + 1);
        FeatureCell {
            unplaced: rest / (FeatureCell::MAX_CUT_LINKS + 1),
            areas: packed % FeatureCell::MAX_AREAS + 1,
            cut_links: rest % (FeatureCell::MAX_CUT_LINKS + 1),
            hotspots,
            out_of_plan,
        }
    }
}

/// Counters of one pruning test: its name and how many children it cut.
pub type PruneCount = (&'static str, u64);

/// A move generator for one direction of search. The engine's best-first loop is generic
/// over this trait, so forward and backward searches share one loop.
pub trait Expander: Sync {
    /// Per-thread working memory (box maps, flood-fill buffers, matching state, counters).
    type Scratch: Send;

    /// The direction of this search.
    fn side(&self) -> Side;

    /// Fresh working memory for one thread.
    fn new_scratch(&self) -> Self::Scratch;

    /// The states the search starts from, deduplicated, with their heuristic values; roots
    /// that are already known to be dead are left out.
    fn roots(&self, scratch: &mut Self::Scratch) -> Vec<Root>;

    /// True if the node is a goal of this search (forward: every box on a goal; backward: the
    /// level's start position).
    fn is_goal(&self, scratch: &mut Self::Scratch, node: NodeRef<'_>) -> bool;

    /// Appends every child of `node` that survives this direction's pruning to `out`.
    fn expand(&self, scratch: &mut Self::Scratch, node: NodeRef<'_>, out: &mut Vec<Child>);

    /// The state a move came from: `state` with the move undone (player not normalized), or
    /// `None` if the move cannot have led to `state`.
    fn parent(&self, state: &State, mv: PackedMove) -> Option<State>;

    /// The move written as forward pushes, appended to `out`: one push, or several for a
    /// macro. A pull read in reverse is a push.
    fn as_pushes(&self, mv: PackedMove, out: &mut Vec<Push>);

    /// False when the search may leave out moves that every solution needs (macros with a
    /// cut): running out of states then proves nothing, and the engine lets only the other
    /// direction decide that a level is unsolvable.
    fn complete(&self) -> bool {
        true
    }

    /// Whether `boxes` (sorted) with the player on `player` is worth aiming the other
    /// direction at (the bridges' targets, see the engine): false when a test too costly to
    /// run on every child proves that no solution passes through it. Asked of a few states
    /// only. Default: true.
    fn worth_aiming_at(&self, scratch: &mut Self::Scratch, boxes: &[Cell], player: Cell) -> bool {
        let _ = (scratch, boxes, player);
        true
    }

    /// Bridges (short searches aimed at one state, run inside a worker, see the engine) ask
    /// for light expansions while they run (`light` true), and for full ones again after: the
    /// expander may then leave out node tests whose cost a bridge's short budget does not earn
    /// back. Default: no change.
    fn set_light(&self, scratch: &mut Self::Scratch, light: bool) {
        let _ = (scratch, light);
    }

    /// The feature cell ([`FeatureCell::pack`]) of the node whose boxes are `boxes`, asked
    /// right after [`Expander::expand`] expanded it in this scratch, when the expander computes
    /// features (0 otherwise): the advisors compare each child's cell with it. Computed only
    /// when asked, so a search without advisors pays nothing for it.
    fn node_cell(&self, scratch: &mut Self::Scratch, boxes: &[Cell]) -> u32 {
        let _ = (scratch, boxes);
        0
    }

    /// How many children each pruning test cut in this scratch so far.
    fn prune_counts(&self, scratch: &Self::Scratch) -> Vec<PruneCount>;
}
