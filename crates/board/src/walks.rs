//! Walking distances from the player's square, boxes in the way.

use crate::board::{Board, Cell, NO_CELL};

/// Walking distances from the player's square around the boxes (breadth first), with
/// generation stamps so nothing is cleared between positions: the moves a walk to a push
/// costs, for the searches that count moves.
#[derive(Clone, Debug)]
pub struct Walks {
    generation: u32,
    boxes: Vec<u32>,
    seen: Vec<u32>,
    dist: Vec<u32>,
    queue: Vec<Cell>,
}

impl Walks {
    /// Distances on a board of `cells` cells.
    pub fn new(cells: usize) -> Walks {
        Walks {
            generation: 0,
            boxes: vec![0; cells],
            seen: vec![0; cells],
            dist: vec![0; cells],
            queue: Vec::new(),
        }
    }

    /// Fills the distances from `player` around `boxes`.
    pub fn fill(&mut self, board: &Board, boxes: &[Cell], player: Cell) {
        if self.generation == u32::MAX {
            self.boxes.fill(0);
            self.seen.fill(0);
            self.generation = 0;
        }
        self.generation += 1;
        let g = self.generation;
        for &b in boxes {
            self.boxes[b as usize] = g;
        }
        self.queue.clear();
        self.queue.push(player);
        self.seen[player as usize] = g;
        self.dist[player as usize] = 0;
        let mut head = 0;
        while let Some(&c) = self.queue.get(head) {
            head += 1;
            let d = self.dist[c as usize] + 1;
            for &n in board.neighbours(c) {
                if n != NO_CELL && self.seen[n as usize] != g && self.boxes[n as usize] != g {
                    self.seen[n as usize] = g;
                    self.dist[n as usize] = d;
                    self.queue.push(n);
                }
            }
        }
    }

    /// The walk to `cell`, if the player can get there.
    #[inline]
    pub fn to(&self, cell: Cell) -> Option<u32> {
        (cell != NO_CELL && self.seen[cell as usize] == self.generation).then(|| self.dist[cell as usize])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Level;

    #[test]
    fn walks_go_round_boxes_and_never_through_walls() {
        let level = Level::parse("#######\n#@ $ .#\n#     #\n#######").expect("a level");
        let board = level.board();
        let start = level.start();
        let mut walks = Walks::new(board.n_cells());
        for _ in 0..2 {
            walks.fill(board, &start.boxes, start.player);
            let at = |x, y| board.cell(x, y).expect("a floor cell");
            assert_eq!(walks.to(start.player), Some(0));
            assert_eq!(walks.to(at(2, 1)), Some(1));
            // Round the box on (3, 1): down, along and up.
            assert_eq!(walks.to(at(4, 1)), Some(5));
            assert_eq!(walks.to(at(3, 1)), None, "the box's own square");
            assert_eq!(walks.to(NO_CELL), None);
        }
        // Without the box the way is straight.
        walks.fill(board, &[], start.player);
        assert_eq!(walks.to(board.cell(4, 1).expect("floor")), Some(3));
    }
}
