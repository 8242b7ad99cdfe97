//! Positions: the box set plus the player.

use crate::board::Board;
use crate::cell::Cell;
use crate::reach::{BoxMap, Reach};
use crate::zobrist::Fingerprint;

/// A position: where the boxes are and where the player stands.
///
/// `player` is the real square, which matters for writing moves; the canonical form used for
/// duplicate detection replaces it with the smallest cell of the player's reachable region
/// ([`State::normalized_player`]).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct State {
    /// Box cells, sorted ascending.
    pub boxes: Vec<Cell>,
    /// The player's cell.
    pub player: Cell,
}

impl State {
    /// A state from box cells in any order.
    pub fn new(mut boxes: Vec<Cell>, player: Cell) -> State {
        boxes.sort_unstable();
        State { boxes, player }
    }

    /// The smallest cell the player can walk to without pushing.
    pub fn normalized_player(&self, board: &Board) -> Cell {
        let mut map = BoxMap::new(board.n_cells());
        map.set_all(&self.boxes);
        Reach::new(board.n_cells()).fill(board, &map, self.player)
    }

    /// The canonical fingerprint: boxes plus normalized player.
    pub fn fingerprint(&self, board: &Board) -> Fingerprint {
        board.zobrist().fingerprint(&self.boxes, self.normalized_player(board))
    }

    /// True when every box stands on a goal.
    pub fn is_solved(&self, board: &Board) -> bool {
        self.boxes.iter().all(|&b| board.is_goal(b))
    }

    /// Moves the box on `from` to `to` (keeping the boxes sorted) and puts the player on
    /// `player`. Does not check legality.
    pub fn move_box(&mut self, from: Cell, to: Cell, player: Cell) {
        if let Some(i) = self.boxes.iter().position(|&b| b == from) {
            self.boxes[i] = to;
            self.boxes.sort_unstable();
        }
        self.player = player;
    }
}
