//! FESS's opener advisor, on the forward side: when no move packs a step more of the level's
//! parking plan, the move that best clears the way to the square of the plan's next step.

use std::cmp::Reverse;
use std::sync::OnceLock;

use bisolve_board::search::{Child, FeatureCell};
use bisolve_board::{Board, Cell, Walks};
use bisolve_deadlock::parking::ParkingPlan;

/// The opener's walking distances, one table per step of the plan.
#[derive(Debug)]
pub(crate) struct Opener {
    /// Per step, the walking distances from its square on the empty board, worked out the
    /// first time that step is next.
    walks: Vec<OnceLock<Vec<u32>>>,
}

impl Opener {
    /// An opener for `plan`.
    pub(crate) fn new(plan: &ParkingPlan) -> Opener {
        Opener { walks: (0..plan.steps().len()).map(|_| OnceLock::new()).collect() }
    }

    /// Marks [`Child::opens`] on the child of `children` (the moves of the position of
    /// `boxes`, which `is_box` answers for, whose own feature cell is `base`) that the opener
    /// recommends, if any: none when some child packs a step more, or when the plan has no
    /// next step for the position. Otherwise, among the children that keep the packed steps,
    /// the areas and the cut links, the one whose box stood nearest the next step's square and
    /// ends no nearer to it, then the one that ends farthest, then the first.
    pub(crate) fn mark(
        &self,
        board: &Board,
        plan: &ParkingPlan,
        (boxes, is_box): (&[Cell], impl Fn(Cell) -> bool),
        base: FeatureCell,
        children: &mut [Child],
    ) {
        if children.iter().any(|c| FeatureCell::unpack(c.cell).unplaced < base.unplaced) {
            return;
        }
        let Some(k) = plan.next_step(is_box) else { return };
        let walk = self.walks[k].get_or_init(|| empty_board_walks(board, plan.steps()[k].to));
        let mut best: Option<(usize, (u32, Reverse<u32>))> = None;
        for (i, c) in children.iter().enumerate() {
            let cell = FeatureCell::unpack(c.cell);
            if cell.unplaced > base.unplaced || cell.areas > base.areas || cell.cut_links > base.cut_links {
                continue;
            }
            let (near, far) = (walk[boxes[c.box_index as usize] as usize], walk[c.to as usize]);
            if far < near {
                continue;
            }
            let key = (near, Reverse(far));
            if best.is_none_or(|(_, b)| key < b) {
                best = Some((i, key));
            }
        }
        if let Some((i, _)) = best {
            children[i].opens = true;
        }
    }
}

/// Walking distances from `from` to every square of the empty board, `u32::MAX` where no walk
/// leads.
pub(crate) fn empty_board_walks(board: &Board, from: Cell) -> Vec<u32> {
    let mut walks = Walks::new(board.n_cells());
    walks.fill(board, &[], from);
    (0..board.n_cells() as Cell).map(|c| walks.to(c).unwrap_or(u32::MAX)).collect()
}
