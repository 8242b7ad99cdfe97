//! The fixed part of a picture: which grid squares are wall, floor or goal.

use bisolve_board::{Board, Cell};

/// What a grid square shows when nothing stands on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Square {
    /// Outside the level, or floor the player can never reach: drawn as background.
    Outside,
    /// A wall (`#` in the level text).
    Wall,
    /// Floor in the player's area.
    Floor(Cell),
    /// A goal in the player's area.
    Goal(Cell),
}

/// The board's squares, row by row.
#[derive(Clone, Debug)]
pub struct Scene {
    /// Columns.
    pub width: usize,
    /// Rows.
    pub height: usize,
    /// `width * height` squares, row-major.
    pub squares: Vec<Square>,
}

impl Scene {
    /// The squares of a board.
    pub fn new(board: &Board) -> Scene {
        let (width, height) = (board.width(), board.height());
        let mut squares = Vec::with_capacity(width * height);
        for y in 0..height {
            for x in 0..width {
                squares.push(match board.cell(x, y) {
                    Some(c) if board.is_goal(c) => Square::Goal(c),
                    Some(c) => Square::Floor(c),
                    None if board.is_wall_char(x, y) => Square::Wall,
                    None => Square::Outside,
                });
            }
        }
        Scene { width, height, squares }
    }

    /// The square at column `x`, row `y`.
    pub fn at(&self, x: usize, y: usize) -> Square {
        self.squares[y * self.width + x]
    }

    /// Runs of consecutive squares in a row that `pick` accepts: `(x, y, length)`.
    pub fn runs(&self, pick: impl Fn(Square) -> bool) -> Vec<(usize, usize, usize)> {
        let mut runs = Vec::new();
        for y in 0..self.height {
            let mut x = 0;
            while x < self.width {
                if pick(self.at(x, y)) {
                    let start = x;
                    while x < self.width && pick(self.at(x, y)) {
                        x += 1;
                    }
                    runs.push((start, y, x - start));
                } else {
                    x += 1;
                }
            }
        }
        runs
    }
}
