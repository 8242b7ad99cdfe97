//! Freeze deadlocks: boxes that can never move again (walls, dead squares or other frozen
//! boxes block them on both axes) while one of them is off its goal. Covers 2x2 blocks.
//!
//! The forward search asks with the board's goals and push-dead squares
//! ([`FreezeCheck::check`]); the backward search asks about the start position with the
//! squares of one of its states as the goals ([`FreezeCheck::check_with`]), since a state the
//! start's boxes cannot all be pushed into is one no pull sequence from it reaches the start.

use bisolve_board::BoxMap;
use bisolve_board::Dir;
use bisolve_board::{Board, Cell, NO_CELL};

/// Working memory for the freeze test: the boxes assumed frozen on the current path.
#[derive(Debug, Clone, Default)]
pub struct FreezeCheck {
    assumed: Vec<Cell>,
}

/// What the freeze test says about one box.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The box can still move.
    Free,
    /// The box is frozen together with boxes that are all on goals: they stay there for good.
    FrozenOnGoals,
    /// The box is frozen in a group with a box off its goal.
    Deadlock,
}

/// The verdict for one box: frozen or not, and whether the group that proves it frozen holds
/// a box off its goal.
#[derive(Clone, Copy)]
struct Frozen {
    frozen: bool,
    off_goal: bool,
}

const NOT_FROZEN: Frozen = Frozen { frozen: false, off_goal: false };

impl FreezeCheck {
    /// True if the box on `cell` (just pushed there) is frozen together with a group of boxes
    /// of which at least one is off a goal.
    ///
    /// Sound: the group is the set of boxes whose verdicts the proof uses; each is blocked on
    /// both axes when the others are walls, so none of them can ever move first. A box's
    /// verdict that the proof does not use (a branch that failed) adds nothing to it.
    pub fn is_deadlock(&mut self, board: &Board, boxes: &BoxMap, cell: Cell) -> bool {
        self.check(board, boxes, cell) == Verdict::Deadlock
    }

    /// Whether the box on `cell` is frozen, and if so whether its group is all on goals.
    pub fn check(&mut self, board: &Board, boxes: &BoxMap, cell: Cell) -> Verdict {
        self.check_with(board, boxes, cell, &|c| board.is_push_dead(c), &|c| board.is_goal(c))
    }

    /// [`FreezeCheck::check`] with other dead squares and goals: `dead(c)` when a box on `c`
    /// can never reach a goal, `goal(c)` when `c` is one.
    pub fn check_with<D, G>(
        &mut self,
        board: &Board,
        boxes: &BoxMap,
        cell: Cell,
        dead: &D,
        goal: &G,
    ) -> Verdict
    where
        D: Fn(Cell) -> bool,
        G: Fn(Cell) -> bool,
    {
        self.assumed.clear();
        match self.frozen(board, boxes, cell, dead, goal) {
            Frozen { frozen: false, .. } => Verdict::Free,
            Frozen { off_goal: true, .. } => Verdict::Deadlock,
            Frozen { off_goal: false, .. } => Verdict::FrozenOnGoals,
        }
    }

    fn frozen<D, G>(&mut self, board: &Board, boxes: &BoxMap, cell: Cell, dead: &D, goal: &G) -> Frozen
    where
        D: Fn(Cell) -> bool,
        G: Fn(Cell) -> bool,
    {
        self.assumed.push(cell);
        let horizontal = self.blocked(board, boxes, cell, Dir::Left, dead, goal);
        let verdict = if horizontal.frozen {
            let vertical = self.blocked(board, boxes, cell, Dir::Up, dead, goal);
            Frozen {
                frozen: vertical.frozen,
                off_goal: horizontal.off_goal || vertical.off_goal || !goal(cell),
            }
        } else {
            NOT_FROZEN
        };
        self.assumed.pop();
        verdict
    }

    /// Whether the box on `cell` can never move along the axis of `dir`, and whether the boxes
    /// that block it include one off its goal.
    fn blocked<D, G>(
        &mut self,
        board: &Board,
        boxes: &BoxMap,
        cell: Cell,
        dir: Dir,
        dead: &D,
        goal: &G,
    ) -> Frozen
    where
        D: Fn(Cell) -> bool,
        G: Fn(Cell) -> bool,
    {
        let a = board.neighbour(cell, dir);
        let b = board.neighbour(cell, dir.opposite());
        let clean = Frozen { frozen: true, off_goal: false };
        if a == NO_CELL || b == NO_CELL {
            return clean;
        }
        if dead(a) && dead(b) {
            return clean;
        }
        for n in [a, b] {
            if !boxes.is_box(n) {
                continue;
            }
            if self.assumed.contains(&n) {
                return clean;
            }
            let v = self.frozen(board, boxes, n, dead, goal);
            if v.frozen {
                return v;
            }
        }
        NOT_FROZEN
    }
}
