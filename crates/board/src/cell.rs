//! Cells, the distances between them, and the limits on their number: the vocabulary every
//! other module of the board speaks.

/// A floor cell, as a dense index. Cells are numbered row by row, so the smallest index of a
/// region is its top-left cell.
pub type Cell = u16;

/// "No cell": a wall or the outside, in neighbour tables and maps.
pub const NO_CELL: Cell = Cell::MAX;

/// The most floor cells a board may have. Cell indices fit in 14 bits, so a push or pull packs
/// into 16 bits with its direction (see [`crate::search::PackedMove`]).
pub const MAX_CELLS: usize = 0x3FFF;

/// The most boxes a level may have.
pub const MAX_BOXES: usize = 1024;

/// A distance that cannot be covered.
pub const UNREACHABLE: u16 = u16::MAX;

/// Box distances from every cell to each of a set of targets (goals, or start squares), in
/// pushes (resp. pulls) of a lone box that respect walls and which side the player must
/// stand on. Rows are cells, so the costs of one box to every target are contiguous.
#[derive(Debug, Clone)]
pub struct DistanceTable {
    n_targets: usize,
    data: Vec<u16>,
    nearest: Vec<u16>,
}

impl DistanceTable {
    /// A table of `n_cells` rows of `n_targets` distances each (`data` is row by row, a row
    /// per cell).
    pub fn new(n_targets: usize, n_cells: usize, data: Vec<u16>) -> DistanceTable {
        debug_assert_eq!(data.len(), n_targets * n_cells);
        let nearest = if n_targets == 0 {
            vec![UNREACHABLE; n_cells]
        } else {
            data.chunks(n_targets).map(|row| row.iter().copied().min().unwrap_or(UNREACHABLE)).collect()
        };
        DistanceTable { n_targets, data, nearest }
    }

    /// The number of targets.
    #[inline]
    pub fn n_targets(&self) -> usize {
        self.n_targets
    }

    /// Distance from `cell` to target number `target`, or [`UNREACHABLE`].
    #[inline]
    pub fn get(&self, cell: Cell, target: usize) -> u16 {
        self.data[cell as usize * self.n_targets + target]
    }

    /// Distances from `cell` to every target, in target order.
    #[inline]
    pub fn row(&self, cell: Cell) -> &[u16] {
        let start = cell as usize * self.n_targets;
        &self.data[start..start + self.n_targets]
    }

    /// Distance from `cell` to its nearest target, or [`UNREACHABLE`].
    #[inline]
    pub fn nearest(&self, cell: Cell) -> u16 {
        self.nearest[cell as usize]
    }
}

/// Bit in [`crate::Board::tunnel_flags`]: walls on both sides left and right (a vertical corridor).
pub const TUNNEL_VERTICAL: u8 = 1;
/// Bit in [`crate::Board::tunnel_flags`]: walls above and below (a horizontal corridor).
pub const TUNNEL_HORIZONTAL: u8 = 2;
