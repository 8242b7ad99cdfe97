//! The static board: floor cells as dense indices, walls, goals, start squares and neighbours,
//! plus everything [`crate::analysis`] derives from them once per level.

use crate::analysis::{self, SideComponents};
pub use crate::cell::{
    Cell, DistanceTable, MAX_BOXES, MAX_CELLS, NO_CELL, TUNNEL_HORIZONTAL, TUNNEL_VERTICAL, UNREACHABLE,
};
use crate::dir::Dir;
use crate::zobrist::Zobrist;

/// Where a lone box can go by pushes, walls being the only obstacles: for every square, the
/// set of squares a box on it can be pushed to (itself included), as bits.
#[derive(Debug, Clone)]
pub struct PushReach {
    words: usize,
    rows: Vec<u64>,
}

impl PushReach {
    /// The largest board (in floor cells) [`Board::push_reach`] builds the sets for: they take
    /// `n * n` bits.
    pub const MAX_CELLS: usize = 1024;

    /// 64-bit words per set of squares.
    #[inline]
    pub fn words(&self) -> usize {
        self.words
    }

    /// How many squares a box on `from` can be pushed to (itself included).
    pub fn count(&self, from: Cell) -> usize {
        self.row(from).iter().map(|w| w.count_ones() as usize).sum()
    }

    #[inline]
    fn row(&self, from: Cell) -> &[u64] {
        &self.rows[from as usize * self.words..(from as usize + 1) * self.words]
    }

    /// True if a box on `from` can be pushed to some square of `targets` (a set of
    /// [`PushReach::words`] words, bit `c` for square `c`).
    #[inline]
    pub fn reaches_any(&self, from: Cell, targets: &[u64]) -> bool {
        self.row(from).iter().zip(targets).any(|(a, b)| a & b != 0)
    }
}

/// Everything about a level that does not change while it is solved. Built once, then shared
/// read-only by every search thread.
#[derive(Debug, Clone)]
pub struct Board {
    width: usize,
    height: usize,
    /// Grid position (`y * width + x`) to cell, or [`NO_CELL`].
    cell_at: Vec<Cell>,
    /// Cell to grid position.
    pos_of: Vec<u32>,
    /// Grid positions that hold a wall character (`#`) in the level text.
    wall_char: Vec<bool>,
    neighbours: Vec<[Cell; 4]>,
    goals: Vec<Cell>,
    goal_index: Vec<u16>,
    start_squares: Vec<Cell>,
    start_index: Vec<u16>,
    push_dead: Vec<bool>,
    pull_dead: Vec<bool>,
    goal_distance: DistanceTable,
    start_distance: DistanceTable,
    side_components: Vec<SideComponents>,
    push_options: Vec<[u8; 4]>,
    tunnel: Vec<u8>,
    zobrist: Zobrist,
}

/// The plain facts a [`Board`] is built from: the grid and where things are.
#[derive(Debug, Clone)]
pub(crate) struct BoardSpec {
    pub width: usize,
    pub height: usize,
    /// Floor in the player's area, by grid position.
    pub floor: Vec<bool>,
    /// `#` in the level text, by grid position.
    pub wall_char: Vec<bool>,
    /// Grid positions of goals in the player's area.
    pub goals: Vec<usize>,
    /// Grid positions of boxes in the player's area.
    pub boxes: Vec<usize>,
}

impl Board {
    /// Builds the board and runs the static analysis. The spec has been validated: at most
    /// [`MAX_CELLS`] floor cells, as many goals as boxes.
    pub(crate) fn new(spec: BoardSpec) -> Board {
        let BoardSpec { width, height, floor, wall_char, goals, boxes } = spec;
        let mut cell_at = vec![NO_CELL; width * height];
        let mut pos_of = Vec::new();
        for (pos, &is_floor) in floor.iter().enumerate() {
            if is_floor {
                cell_at[pos] = pos_of.len() as Cell;
                pos_of.push(pos as u32);
            }
        }
        let n = pos_of.len();
        let neighbours: Vec<[Cell; 4]> = pos_of
            .iter()
            .map(|&pos| {
                let (x, y) = ((pos as usize) % width, (pos as usize) / width);
                Dir::ALL.map(|d| {
                    let (dx, dy) = d.delta();
                    let (nx, ny) = (x as isize + dx, y as isize + dy);
                    if nx < 0 || ny < 0 || nx >= width as isize || ny >= height as isize {
                        NO_CELL
                    } else {
                        cell_at[ny as usize * width + nx as usize]
                    }
                })
            })
            .collect();
        let to_cells = |list: Vec<usize>| -> Vec<Cell> {
            let mut cells: Vec<Cell> = list.into_iter().map(|p| cell_at[p]).collect();
            cells.sort_unstable();
            cells
        };
        let goals = to_cells(goals);
        let start_squares = to_cells(boxes);
        let index_of = |cells: &[Cell]| {
            let mut index = vec![u16::MAX; n];
            for (i, &c) in cells.iter().enumerate() {
                index[c as usize] = i as u16;
            }
            index
        };
        let goal_index = index_of(&goals);
        let start_index = index_of(&start_squares);
        let side_components = analysis::side_components(&neighbours);
        let goal_distance = analysis::box_distances(&neighbours, &side_components, &goals, true);
        let start_distance = analysis::box_distances(&neighbours, &side_components, &start_squares, false);
        let push_dead = (0..n).map(|c| goal_distance.nearest(c as Cell) == UNREACHABLE).collect();
        let pull_dead = (0..n).map(|c| start_distance.nearest(c as Cell) == UNREACHABLE).collect();
        let push_options = analysis::push_options(&neighbours, &side_components);
        let tunnel = analysis::tunnel_flags(&neighbours);
        let zobrist = Zobrist::new(n);
        Board {
            width,
            height,
            cell_at,
            pos_of,
            wall_char,
            neighbours,
            goals,
            goal_index,
            start_squares,
            start_index,
            push_dead,
            pull_dead,
            goal_distance,
            start_distance,
            side_components,
            push_options,
            tunnel,
            zobrist,
        }
    }

    /// Width of the grid in columns.
    #[inline]
    pub fn width(&self) -> usize {
        self.width
    }

    /// Height of the grid in rows.
    #[inline]
    pub fn height(&self) -> usize {
        self.height
    }

    /// The number of floor cells the player can ever stand on or a box can ever occupy.
    #[inline]
    pub fn n_cells(&self) -> usize {
        self.pos_of.len()
    }

    /// The number of boxes (and of goals).
    #[inline]
    pub fn n_boxes(&self) -> usize {
        self.goals.len()
    }

    /// The cell at column `x`, row `y`, if it is floor in the player's area.
    #[inline]
    pub fn cell(&self, x: usize, y: usize) -> Option<Cell> {
        if x >= self.width || y >= self.height {
            return None;
        }
        let c = self.cell_at[y * self.width + x];
        (c != NO_CELL).then_some(c)
    }

    /// Column and row of a cell.
    #[inline]
    pub fn xy(&self, cell: Cell) -> (usize, usize) {
        let pos = self.pos_of[cell as usize] as usize;
        (pos % self.width, pos / self.width)
    }

    /// True where the level text has a wall character `#` (for drawing).
    #[inline]
    pub fn is_wall_char(&self, x: usize, y: usize) -> bool {
        x < self.width && y < self.height && self.wall_char[y * self.width + x]
    }

    /// The neighbour of `cell` in direction `dir`, or [`NO_CELL`] for a wall.
    #[inline]
    pub fn neighbour(&self, cell: Cell, dir: Dir) -> Cell {
        self.neighbours[cell as usize][dir.index()]
    }

    /// The four neighbours of `cell`, indexed by [`Dir::index`].
    #[inline]
    pub fn neighbours(&self, cell: Cell) -> &[Cell; 4] {
        &self.neighbours[cell as usize]
    }

    /// Goal cells, sorted.
    #[inline]
    pub fn goals(&self) -> &[Cell] {
        &self.goals
    }

    /// True if `cell` is a goal.
    #[inline]
    pub fn is_goal(&self, cell: Cell) -> bool {
        self.goal_index[cell as usize] != u16::MAX
    }

    /// The index of a goal cell in [`Board::goals`], if it is one.
    #[inline]
    pub fn goal_index(&self, cell: Cell) -> Option<usize> {
        let i = self.goal_index[cell as usize];
        (i != u16::MAX).then_some(i as usize)
    }

    /// The squares boxes start on, sorted (the targets of the backward search).
    #[inline]
    pub fn start_squares(&self) -> &[Cell] {
        &self.start_squares
    }

    /// The index of a start square in [`Board::start_squares`], if it is one.
    #[inline]
    pub fn start_index(&self, cell: Cell) -> Option<usize> {
        let i = self.start_index[cell as usize];
        (i != u16::MAX).then_some(i as usize)
    }

    /// True if a box starts on `cell`.
    #[inline]
    pub fn is_start_square(&self, cell: Cell) -> bool {
        self.start_index[cell as usize] != u16::MAX
    }

    /// True if a box on `cell` can never be pushed to any goal (a dead square for pushing).
    #[inline]
    pub fn is_push_dead(&self, cell: Cell) -> bool {
        self.push_dead[cell as usize]
    }

    /// True if a box on `cell` can never be pulled back to any start square.
    #[inline]
    pub fn is_pull_dead(&self, cell: Cell) -> bool {
        self.pull_dead[cell as usize]
    }

    /// Push distances of a lone box from every cell to every goal.
    #[inline]
    pub fn goal_distances(&self) -> &DistanceTable {
        &self.goal_distance
    }

    /// Push distances to every goal when the boxes on `frozen` (goal cells whose boxes can
    /// never move again) are walls: every other box must reach the remaining goals around
    /// them. Rows for the frozen cells themselves cost 0 to their own goal, and every frozen
    /// goal costs 0 from its own cell only, so a matching over all boxes stays square.
    /// Computed on demand (linear in cells per goal); callers cache it per frozen set.
    /// `frozen` must be sorted.
    pub fn goal_distances_with_frozen(&self, frozen: &[Cell]) -> DistanceTable {
        debug_assert!(frozen.windows(2).all(|w| w[0] < w[1]), "frozen cells must be sorted");
        let n = self.n_cells();
        let is_frozen = |c: Cell| frozen.binary_search(&c).is_ok();
        let neighbours = self.neighbours_with_walls(frozen);
        let sides = analysis::side_components(&neighbours);
        let free_goals: Vec<Cell> = self.goals.iter().copied().filter(|&g| !is_frozen(g)).collect();
        let free = analysis::box_distances(&neighbours, &sides, &free_goals, true);
        let t = self.goals.len();
        let mut data = vec![UNREACHABLE; n * t];
        let mut free_index = 0;
        for (j, &g) in self.goals.iter().enumerate() {
            if is_frozen(g) {
                data[g as usize * t + j] = 0;
            } else {
                for c in 0..n {
                    if !is_frozen(c as Cell) {
                        data[c * t + j] = free.get(c as Cell, free_index);
                    }
                }
                free_index += 1;
            }
        }
        DistanceTable::new(t, n, data)
    }

    /// Push distances of a lone box from every cell to each of `targets` when the squares of
    /// `walls` (sorted) are walls. The rows of the walls themselves mean nothing, and no
    /// target may be a wall.
    pub fn push_distances_with_walls(&self, walls: &[Cell], targets: &[Cell]) -> DistanceTable {
        debug_assert!(walls.windows(2).all(|w| w[0] < w[1]), "walls must be sorted");
        let neighbours = self.neighbours_with_walls(walls);
        let sides = analysis::side_components(&neighbours);
        analysis::box_distances(&neighbours, &sides, targets, true)
    }

    /// The neighbour table with the squares of `walls` (sorted) made walls: they have no
    /// neighbours and are no one's neighbour.
    fn neighbours_with_walls(&self, walls: &[Cell]) -> Vec<[Cell; 4]> {
        let is_wall = |c: Cell| walls.binary_search(&c).is_ok();
        (0..self.n_cells())
            .map(|c| {
                if is_wall(c as Cell) {
                    [NO_CELL; 4]
                } else {
                    self.neighbours[c].map(|m| if m != NO_CELL && is_wall(m) { NO_CELL } else { m })
                }
            })
            .collect()
    }

    /// Push distances of a lone box from every cell to each of `targets` (any squares, in the
    /// given order): the table a search aimed at a particular box layout measures with.
    pub fn push_distances_to(&self, targets: &[Cell]) -> DistanceTable {
        analysis::box_distances(&self.neighbours, &self.side_components, targets, true)
    }

    /// Pull distances of a lone box from every cell to each of `targets`: the backward
    /// counterpart of [`Board::push_distances_to`].
    pub fn pull_distances_to(&self, targets: &[Cell]) -> DistanceTable {
        analysis::box_distances(&self.neighbours, &self.side_components, targets, false)
    }

    /// Pull distances of a lone box from every cell to every start square.
    #[inline]
    pub fn start_distances(&self) -> &DistanceTable {
        &self.start_distance
    }

    /// For every square, the squares a lone box on it can be pushed to; `None` on boards of
    /// more than [`PushReach::MAX_CELLS`] cells. One search per square, so build it once.
    pub fn push_reach(&self) -> Option<PushReach> {
        let n = self.n_cells();
        if n > PushReach::MAX_CELLS {
            return None;
        }
        let all: Vec<Cell> = (0..n as Cell).collect();
        let table = analysis::box_distances(&self.neighbours, &self.side_components, &all, true);
        let words = n.div_ceil(64);
        let mut rows = vec![0u64; n * words];
        for from in 0..n {
            for (to, &d) in table.row(from as Cell).iter().enumerate() {
                if d != UNREACHABLE {
                    rows[from * words + to / 64] |= 1 << (to % 64);
                }
            }
        }
        Some(PushReach { words, rows })
    }

    /// Whether a player on side `a` of a box on `cell` can walk to side `b` when that box is
    /// the only one on the board.
    #[inline]
    pub fn sides_connected(&self, cell: Cell, a: Dir, b: Dir) -> bool {
        self.side_components[cell as usize].connected(a, b)
    }

    /// The directions a box on `cell` could ever be pushed in by a player standing on side
    /// `side` of it, as a bit mask indexed by [`Dir::index`]: the player must be able to walk
    /// round to the side opposite the push (other boxes ignored) and the square ahead must be
    /// floor. A mask with one bit means that box can only ever leave `cell` one way while the
    /// player stays on that side; an empty mask means it can never move.
    #[inline]
    pub fn push_options(&self, cell: Cell, side: Dir) -> u8 {
        self.push_options[cell as usize][side.index()]
    }

    /// Tunnel bits of a cell: [`TUNNEL_VERTICAL`], [`TUNNEL_HORIZONTAL`].
    #[inline]
    pub fn tunnel_flags(&self, cell: Cell) -> u8 {
        self.tunnel[cell as usize]
    }

    /// The Zobrist keys used to fingerprint states on this board.
    #[inline]
    pub fn zobrist(&self) -> &Zobrist {
        &self.zobrist
    }
}
