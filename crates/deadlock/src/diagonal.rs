//! Closed diagonal deadlocks: empty squares shut in along a diagonal by boxes and walls.
//!
//! An *inner* square is an empty square the player does not stand on whose four neighbours are
//! all boxes or walls, so the player can never reach it while they stay. Inner squares that
//! touch corner to corner form a diagonal:
//!
//! ```text
//!  C#        C: a cap, a box or a wall;
//!  $ $       x: an inner square;
//!   $x$      $ and #: the pairs, the two neighbours an inner square shares with the next.
//!    $x#
//!     #C
//! ```
//!
//! Each inner square shares two neighbours (a *pair*) with the next. The diagonal is *closed*
//! at each end when the end's outer pair is two walls, or when the cap, the square diagonally
//! beyond the end, is a box or a wall. A closed diagonal is locked: a box of a pair can only
//! be pushed into one of its inner squares (any other push needs the player on an inner
//! square, or a cap out of the way), and a cap can only move after a pair beside it has. So
//! nothing changes until a box of a pair is pushed into an inner square; that opens the part
//! on the side the box came from (the player can walk in behind it) and leaves the part beyond
//! it closed, with the pushed box as its new cap.
//!
//! The test walks the diagonal from the top end. As long as every box above is on a goal, it
//! may stop at the first inner square that is a goal: a box can still be pushed into it from
//! below without spoiling anything above. A pair holding a box off its goal, or a part above
//! that is not finished, has to be opened by pushing a box of the pair into the inner square
//! below it, which leaves that box there, as a cap of what is left below, on a goal only if
//! the square is one. Reaching the bottom end with the part above unfinished, or with a box
//! off its goal as the bottom cap, is a deadlock (after the analysis of closed diagonals in
//! Festival, Y. Shoham and J. Schaeffer, 2020).
//!
//! The forward search asks this of the box just pushed ([`is_deadlock`]): a closed diagonal
//! that was not there before needs that box as a pair or a cap.

use bisolve_board::BoxMap;
use bisolve_board::{Board, Cell};

/// What a square holds, as the test sees it.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Square {
    Wall,
    Box {
        on_goal: bool,
    },
    /// An empty square, with its cell.
    Empty(Cell),
}

/// The position the test looks at: the board, its boxes and the square the player stands on.
struct Position<'a> {
    board: &'a Board,
    boxes: &'a BoxMap,
    player: Cell,
}

/// The pair between the inner square at `(x, y)` and the next one down the diagonal (`s` = 1:
/// down and right, -1: down and left): its square below and its square to the side the
/// diagonal goes.
fn lower_pair(x: isize, y: isize, s: isize) -> [(isize, isize); 2] {
    [(x, y + 1), (x + s, y)]
}

impl Position<'_> {
    /// The square at column `x`, row `y` (anything off the board is a wall).
    fn square(&self, x: isize, y: isize) -> Square {
        if x < 0 || y < 0 {
            return Square::Wall;
        }
        match self.board.cell(x as usize, y as usize) {
            None => Square::Wall,
            Some(c) if self.boxes.is_box(c) => Square::Box { on_goal: self.board.is_goal(c) },
            Some(c) => Square::Empty(c),
        }
    }

    fn is_empty(&self, x: isize, y: isize) -> bool {
        matches!(self.square(x, y), Square::Empty(_))
    }

    /// An empty square, not the player's, whose four neighbours are boxes or walls.
    fn is_inner(&self, x: isize, y: isize) -> bool {
        match self.square(x, y) {
            Square::Empty(c) => {
                c != self.player
                    && [(0, -1), (1, 0), (0, 1), (-1, 0)]
                        .iter()
                        .all(|&(dx, dy)| !self.is_empty(x + dx, y + dy))
            }
            _ => false,
        }
    }

    fn is_empty_goal(&self, x: isize, y: isize) -> bool {
        matches!(self.square(x, y), Square::Empty(c) if self.board.is_goal(c))
    }

    fn off_goal_box(&self, x: isize, y: isize) -> bool {
        self.square(x, y) == Square::Box { on_goal: false }
    }

    fn both_walls(&self, pair: [(isize, isize); 2]) -> bool {
        pair.iter().all(|&(x, y)| self.square(x, y) == Square::Wall)
    }

    fn holds_off_goal_box(&self, pair: [(isize, isize); 2]) -> bool {
        pair.iter().any(|&(x, y)| self.off_goal_box(x, y))
    }

    /// True if the closed diagonal through the inner square `(x, y)` in direction `s` is a
    /// deadlock. A diagonal that is not closed at both ends proves nothing.
    fn diagonal_is_dead(&self, x: isize, y: isize, s: isize) -> bool {
        // The top end: go up while the square above is inner and the pair between is not two
        // walls (two walls split the diagonal into parts that are closed on their own).
        let (mut tx, mut ty) = (x, y);
        while !self.both_walls(lower_pair(tx - s, ty - 1, s)) && self.is_inner(tx - s, ty - 1) {
            tx -= s;
            ty -= 1;
        }
        let (mut bx, mut by) = (x, y);
        while !self.both_walls(lower_pair(bx, by, s)) && self.is_inner(bx + s, by + 1) {
            bx += s;
            by += 1;
        }
        // The number of inner squares from the top end to the bottom end.
        let n = by - ty + 1;

        let top_pair = lower_pair(tx - s, ty - 1, s);
        let top_cap = (tx - s, ty - 1);
        let top_by_cap = !self.both_walls(top_pair);
        if top_by_cap && self.is_empty(top_cap.0, top_cap.1) {
            return false;
        }
        let bottom_pair = lower_pair(bx, by, s);
        let bottom_cap = (bx + s, by + 1);
        let bottom_by_cap = !self.both_walls(bottom_pair);
        if bottom_by_cap && self.is_empty(bottom_cap.0, bottom_cap.1) {
            return false;
        }

        // `finished`: every box above the inner square reached so far is on a goal, so
        // nothing above has to move any more.
        let mut finished = !(top_by_cap && self.off_goal_box(top_cap.0, top_cap.1));
        for k in 0..=n {
            // The pair above inner square k (for k = n, the pair below the last one).
            let pair = lower_pair(tx + (k - 1) * s, ty + k - 1, s);
            let inner = (tx + k * s, ty + k);
            if self.holds_off_goal_box(pair) || !finished {
                if k == n {
                    // Nothing is left below to open the part above with.
                    return true;
                }
                // Open the part above by pushing a box of the pair into inner square k.
                finished = self.is_empty_goal(inner.0, inner.1);
                continue;
            }
            if k == n {
                break;
            }
            if self.is_empty_goal(inner.0, inner.1) {
                // A box can still come into this goal from below; nothing above needs it.
                return false;
            }
        }
        bottom_by_cap && self.off_goal_box(bottom_cap.0, bottom_cap.1)
    }
}

/// True if the box on `moved` (just pushed there, the player on `player`) closes a diagonal
/// of inner squares that can never be finished: see the module docs.
///
/// Sound: the position is never one from which all boxes can reach goals. Only diagonals
/// through the squares next to `moved` (as a pair) or diagonally next to it (as a cap) are
/// looked at.
pub fn is_deadlock(board: &Board, boxes: &BoxMap, player: Cell, moved: Cell) -> bool {
    let p = Position { board, boxes, player };
    let (mx, my) = board.xy(moved);
    let (mx, my) = (mx as isize, my as isize);
    // As a pair, the box is a neighbour of an inner square, which may lie on a diagonal either
    // way. As a cap, it is diagonally beyond an end of one: an inner square at (1, 1) or
    // (-1, -1) from it lies on a down-and-right diagonal (s = 1), one at (-1, 1) or (1, -1)
    // on a down-and-left one (s = -1). Each square is asked whether it is inner once.
    const NEAR: [(isize, isize, &[isize]); 8] = [
        (0, -1, &[1, -1]),
        (1, 0, &[1, -1]),
        (0, 1, &[1, -1]),
        (-1, 0, &[1, -1]),
        (1, 1, &[1]),
        (-1, -1, &[1]),
        (-1, 1, &[-1]),
        (1, -1, &[-1]),
    ];
    NEAR.iter().any(|&(dx, dy, dirs)| {
        let (x, y) = (mx + dx, my + dy);
        p.is_inner(x, y) && dirs.iter().any(|&s| p.diagonal_is_dead(x, y, s))
    })
}
