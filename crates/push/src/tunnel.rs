//! The sound form of the tunnel macro: a box that can only ever leave its square one way is
//! pushed before anything else.
//!
//! A naive tunnel macro (push a box through a tunnel in one go) is unsound: a box may have to
//! park inside a tunnel while the player walks round. The rule here fires only when walking
//! round is impossible: the squares beyond the box are reachable only through its square, so
//! the box can never be pushed back, and it is off its goal, so it can never stay.

use bisolve_board::{Board, BoxMap, Cell, Dir, Reach, NO_CELL};

/// What [`forced_box`] found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Forced {
    /// No box must move first.
    No,
    /// Box `.0` can only ever leave its square in direction `.1`, and can do so now.
    Box(usize, Dir),
    /// A box off its goal can never move again.
    Stuck,
}

/// Looks for a box off its goal that, with the player on its side, can only ever be pushed
/// in one direction (a box in a one-way tunnel: the squares beyond it are reachable only
/// through its square). Any solution pushes that box in that direction before it touches
/// anything the push could affect, so that push can be made first: the other pushes of a
/// solution happen in the player's part of the board, which the push only enlarges, and
/// the box can never be parked where it stands (not a goal) nor pushed back (the player
/// can never reach the far side). This is the sound form of the tunnel macro: a tunnel
/// that the player can walk round is never forced, so a box can still park inside it.
pub fn forced_box(board: &Board, map: &BoxMap, boxes: &[Cell], reach: &Reach) -> Forced {
    for (i, &t) in boxes.iter().enumerate() {
        if board.is_goal(t) {
            continue;
        }
        let Some(side) = Dir::ALL.into_iter().find(|&d| {
            let n = board.neighbour(t, d);
            n != NO_CELL && reach.contains(n)
        }) else {
            continue;
        };
        let options = board.push_options(t, side);
        if options == 0 {
            return Forced::Stuck;
        }
        if options.count_ones() != 1 {
            continue;
        }
        let dir = Dir::from_index(options.trailing_zeros() as usize);
        if map.is_box(board.neighbour(t, dir)) {
            // The square ahead lies beyond the player's reach for as long as this box
            // stays: the box in it can never move, so neither can this one.
            return Forced::Stuck;
        }
        if reach.contains(board.neighbour(t, dir.opposite())) {
            return Forced::Box(i, dir);
        }
    }
    Forced::No
}
