//! Where the player can walk: a box map and a flood fill that reuses its buffers.

use crate::board::{Board, Cell, NO_CELL};

/// Which box (by index) stands on each cell, or none. Reused across states: set the boxes of
/// one state, use it, clear them again.
#[derive(Debug, Clone)]
pub struct BoxMap {
    at: Vec<u16>,
}

/// "No box" in a [`BoxMap`].
const EMPTY: u16 = u16::MAX;

impl BoxMap {
    /// An empty map for a board with `n_cells` cells.
    pub fn new(n_cells: usize) -> BoxMap {
        BoxMap { at: vec![EMPTY; n_cells] }
    }

    /// True if a box stands on `cell`.
    #[inline]
    pub fn is_box(&self, cell: Cell) -> bool {
        self.at[cell as usize] != EMPTY
    }

    /// The index of the box on `cell`, if any.
    #[inline]
    pub fn box_at(&self, cell: Cell) -> Option<usize> {
        let i = self.at[cell as usize];
        (i != EMPTY).then_some(i as usize)
    }

    /// Puts box number `index` on `cell`.
    #[inline]
    pub fn set(&mut self, cell: Cell, index: usize) {
        self.at[cell as usize] = index as u16;
    }

    /// Removes whatever box stands on `cell`.
    #[inline]
    pub fn clear(&mut self, cell: Cell) {
        self.at[cell as usize] = EMPTY;
    }

    /// Puts the boxes of a list on the map, box `i` on `boxes[i]`.
    #[inline]
    pub fn set_all(&mut self, boxes: &[Cell]) {
        for (i, &b) in boxes.iter().enumerate() {
            self.at[b as usize] = i as u16;
        }
    }

    /// Removes the boxes of a list from the map.
    #[inline]
    pub fn clear_all(&mut self, boxes: &[Cell]) {
        for &b in boxes {
            self.at[b as usize] = EMPTY;
        }
    }

    /// Moves the box on `from` to `to`, keeping its index.
    #[inline]
    pub fn move_box(&mut self, from: Cell, to: Cell) {
        debug_assert_ne!(from, to, "a box moved onto its own square would vanish from the map");
        self.at[to as usize] = self.at[from as usize];
        self.at[from as usize] = EMPTY;
    }
}

/// True if the free orthogonal neighbours of `cell` are connected to each other through free
/// cells of the ring of eight around it, so that blocking `cell` cannot split the area it is
/// in. `free` says whether a floor cell is free.
fn ring_is_one_run(board: &Board, cell: Cell, free: impl Fn(Cell) -> bool) -> bool {
    use crate::dir::Dir;
    let free = |c: Cell| c != NO_CELL && free(c);
    let nb = board.neighbours(cell);
    // Ring in order N, NE, E, SE, S, SW, W, NW; even slots are orthogonal.
    let mut ring = [false; 8];
    for k in 0..4 {
        let d = Dir::from_index(k);
        let next = Dir::from_index(k + 1);
        ring[2 * k] = free(nb[k]);
        // The diagonal between `d` and `next`, reached through whichever side is floor.
        let diagonal = if nb[k] != NO_CELL {
            board.neighbour(nb[k], next)
        } else if nb[next.index()] != NO_CELL {
            board.neighbour(nb[next.index()], d)
        } else {
            NO_CELL
        };
        ring[2 * k + 1] = free(diagonal);
    }
    // Count runs of free cells that contain an orthogonal cell; one such run is fine.
    let mut runs_with_orthogonal = 0;
    let start = match ring.iter().position(|&f| !f) {
        Some(i) => i,
        None => return true,
    };
    let mut in_run = false;
    let mut run_has_orthogonal = false;
    for step in 1..=8 {
        let i = (start + step) % 8;
        if ring[i] {
            if !in_run {
                in_run = true;
                run_has_orthogonal = false;
            }
            run_has_orthogonal |= i % 2 == 0;
        } else if in_run {
            in_run = false;
            runs_with_orthogonal += usize::from(run_has_orthogonal);
        }
    }
    runs_with_orthogonal <= 1
}

/// The areas of free squares of one position (its connectivity), labelled so that the count
/// of a child one box move away can usually be worked out locally.
#[derive(Debug, Clone)]
pub struct Areas {
    /// Per cell, `base + k` when the cell lies in area `k` of the last labelling.
    label: Vec<u32>,
    base: u32,
    count: u32,
    stack: Vec<Cell>,
}

impl Areas {
    /// Labels for a board with `n_cells` cells.
    pub fn new(n_cells: usize) -> Areas {
        Areas { label: vec![0; n_cells], base: 1, count: 0, stack: Vec::new() }
    }

    /// Labels the areas of free squares of the position `boxes` shows and returns how many
    /// there are: 1 when the player could walk everywhere no box stands.
    pub fn label(&mut self, board: &Board, boxes: &BoxMap) -> u32 {
        let n = board.n_cells();
        self.base += self.count + 1;
        if self.base > u32::MAX - 2 * n as u32 - 2 {
            self.label.fill(0);
            self.base = 1;
        }
        let base = self.base;
        let mut count = 0;
        for start in 0..n as Cell {
            if self.label[start as usize] >= base || boxes.is_box(start) {
                continue;
            }
            let id = base + count;
            count += 1;
            self.label[start as usize] = id;
            self.stack.clear();
            self.stack.push(start);
            while let Some(c) = self.stack.pop() {
                for &m in board.neighbours(c) {
                    if m != NO_CELL && self.label[m as usize] != id && !boxes.is_box(m) {
                        self.label[m as usize] = id;
                        self.stack.push(m);
                    }
                }
            }
        }
        self.count = count;
        count
    }

    /// The number of areas after one box moves from `from` to `to`, worked out from the
    /// last labelling (of the position before the move) without a new one; `None` when that
    /// cannot be done locally (blocking `to` might split its area). `boxes` already shows the
    /// position after the move.
    pub fn after_move(&self, board: &Board, boxes: &BoxMap, from: Cell, to: Cell) -> Option<u32> {
        let mut count = self.count;
        // First `to` fills up, `from` still blocked: its area loses a cell, vanishes when
        // that was its only one, and may split unless its neighbours stay joined around it.
        let free_before = |c: Cell| c != from && !boxes.is_box(c);
        let free_neighbours =
            board.neighbours(to).iter().filter(|&&m| m != NO_CELL && free_before(m)).count();
        if free_neighbours == 0 {
            count -= 1;
        } else if !ring_is_one_run(board, to, free_before) {
            return None;
        }
        // Then `from` opens and joins the areas around it into one.
        let mut seen = [0u32; 4];
        let mut joined = 0;
        for &m in board.neighbours(from) {
            if m == NO_CELL || boxes.is_box(m) {
                continue;
            }
            let l = self.label[m as usize];
            if !seen[..joined].contains(&l) {
                seen[joined] = l;
                joined += 1;
            }
        }
        Some(count + 1 - joined as u32)
    }

    /// The number of areas after one box moves from `from` to `to`: worked out from the last
    /// labelling when [`Areas::after_move`] can, else counted afresh with `spare` (whose
    /// labels this overwrites). `boxes` already shows the position after the move.
    pub fn count_after_move(
        &self,
        board: &Board,
        boxes: &BoxMap,
        from: Cell,
        to: Cell,
        spare: &mut Areas,
    ) -> u32 {
        let count = match self.after_move(board, boxes, from, to) {
            Some(count) => count,
            None => spare.label(board, boxes),
        };
        debug_assert_eq!(count, spare.label(board, boxes), "areas after moving a box {from} -> {to}");
        count
    }
}

/// A reusable flood fill of the player's region. Marks are generation stamps, so a new fill
/// costs only the cells it reaches.
#[derive(Debug, Clone)]
pub struct Reach {
    stamp: Vec<u32>,
    current: u32,
    stack: Vec<Cell>,
}

impl Reach {
    /// A flood fill for a board with `n_cells` cells.
    pub fn new(n_cells: usize) -> Reach {
        Reach { stamp: vec![0; n_cells], current: 0, stack: Vec::with_capacity(n_cells) }
    }

    fn next_stamp(&mut self) {
        self.current = self.current.wrapping_add(1);
        if self.current == 0 {
            self.stamp.fill(0);
            self.current = 1;
        }
    }

    /// Marks every cell the player can walk to from `from` without pushing, and returns the
    /// smallest of them: the normalized player position.
    #[inline]
    pub fn fill(&mut self, board: &Board, boxes: &BoxMap, from: Cell) -> Cell {
        self.next_stamp();
        let cur = self.current;
        self.stamp[from as usize] = cur;
        self.stack.clear();
        self.stack.push(from);
        let mut min = from;
        while let Some(c) = self.stack.pop() {
            for &n in board.neighbours(c) {
                if n != NO_CELL && self.stamp[n as usize] != cur && !boxes.is_box(n) {
                    self.stamp[n as usize] = cur;
                    min = min.min(n);
                    self.stack.push(n);
                }
            }
        }
        min
    }

    /// The normalized player position after one box moves, worked out from this fill of the
    /// parent's region without a new fill, when that can be done locally; `None` otherwise.
    ///
    /// The box leaves `freed` and enters `blocked`, two neighbouring cells; `boxes` already
    /// shows the child's boxes, and `parent_min` is what the last fill returned. The child's
    /// region is the parent's region plus `freed` (when it touches the region) minus
    /// `blocked`, provided that `freed` opens no floor outside the region and that removing
    /// `blocked` cannot split the region: the free cells of the ring of eight around it that
    /// touch it must form one run around the ring.
    #[inline]
    pub fn child_min(
        &self,
        board: &Board,
        boxes: &BoxMap,
        parent_min: Cell,
        freed: Cell,
        blocked: Cell,
    ) -> Option<Cell> {
        let mut freed_joins = false;
        for &n in board.neighbours(freed) {
            if n == NO_CELL || n == blocked || boxes.is_box(n) {
                continue;
            }
            if !self.contains(n) {
                return None;
            }
            freed_joins = true;
        }
        if self.contains(blocked)
            && (blocked == parent_min || !ring_is_one_run(board, blocked, |c| !boxes.is_box(c)))
        {
            return None;
        }
        Some(if freed_joins { parent_min.min(freed) } else { parent_min })
    }

    /// True if the last fill reached `cell`.
    #[inline]
    pub fn contains(&self, cell: Cell) -> bool {
        self.stamp[cell as usize] == self.current
    }

    /// The cells the last fill reached, in no particular order.
    pub fn cells(&self) -> impl Iterator<Item = Cell> + '_ {
        self.stamp.iter().enumerate().filter(move |&(_, &s)| s == self.current).map(|(c, _)| c as Cell)
    }
}
