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

    /// As [`BoxMap::move_box`], but a box may stay where it is.
    #[inline]
    pub fn shift(&mut self, from: Cell, to: Cell) {
        if from != to {
            self.move_box(from, to);
        }
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

/// The areas of free squares of one position (its connectivity), with what one box move
/// would do to them.
///
/// [`Areas::label`] runs one depth-first search over the free squares (Tarjan's cut-vertex
/// search): every area gets an index and its smallest cell (the search starts each area at its
/// smallest unlabelled cell, so the root is the smallest), and every cell its discovery number,
/// the end of its subtree's numbers, its lowest reachable number and its subtree's smallest
/// cell. Blocking a square `v` splits its area into the subtrees of the children `c` of `v`
/// with `low(c) >= disc(v)` (every child when `v` is the root) plus the rest (which holds the
/// root). So [`Areas::after_move`] knows, for any move of one box, the child's area count and
/// the child player's region (its smallest cell) exactly, in time proportional to the few
/// cells around the two squares involved: no flood fill per child.
#[derive(Debug, Clone)]
pub struct Areas {
    /// Per cell: discovery number, `base` or more when the cell is free in the labelled
    /// position (stale numbers of earlier labellings are below `base`).
    disc: Vec<u32>,
    /// Per cell: the smallest discovery number reachable from its subtree by one back edge.
    low: Vec<u32>,
    /// Per cell: one past the largest discovery number in its subtree.
    end: Vec<u32>,
    /// Per cell: its parent in the search tree, or `NO_CELL` for an area's root.
    parent: Vec<Cell>,
    /// Per cell: the smallest cell of its subtree.
    sub_min: Vec<Cell>,
    /// Per cell: the index of its area.
    area: Vec<u32>,
    /// Per area: its root, which is also its smallest cell.
    roots: Vec<Cell>,
    base: u32,
    /// The cells above the one being searched: each with the index of its next neighbour,
    /// its lowest reachable number so far, its subtree's smallest cell so far and its
    /// neighbours (so going back up reloads nothing).
    stack: Vec<(Cell, u8, u32, Cell, [Cell; 4], u8)>,
    /// Per cell: its neighbours with the walls left out (the first entries) and how many there
    /// are, copied from the board by the first labelling.
    adjacent: Vec<([Cell; 4], u8)>,
}

/// The discovery number of a box while [`Areas::label`] runs: above every real number.
const BOX_MARK: u32 = u32::MAX;

/// One piece of the free squares once a square is blocked: a whole area of the labelled
/// position (by index), or the subtree of one child of the blocked square (by slot).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Piece {
    Area(u32),
    Subtree(usize),
}

impl Areas {
    /// Labels for a board with `n_cells` cells.
    pub fn new(n_cells: usize) -> Areas {
        Areas {
            disc: vec![0; n_cells],
            low: vec![0; n_cells],
            end: vec![0; n_cells],
            parent: vec![NO_CELL; n_cells],
            sub_min: vec![0; n_cells],
            area: vec![0; n_cells],
            roots: Vec::new(),
            base: 1,
            stack: Vec::new(),
            adjacent: Vec::new(),
        }
    }

    /// The number of areas the last labelling found.
    #[inline]
    pub fn count(&self) -> u32 {
        self.roots.len() as u32
    }

    /// True if the player on `player` (a free square of the labelled position) can walk to
    /// `cell`: it is free and in the same area.
    #[inline]
    pub fn joins(&self, player: Cell, cell: Cell) -> bool {
        self.is_free(cell) && self.area[cell as usize] == self.area[player as usize]
    }

    /// True if `cell` was free in the labelled position.
    #[inline]
    fn is_free(&self, cell: Cell) -> bool {
        self.disc[cell as usize] >= self.base
    }

    /// Labels the areas of free squares of the position with boxes on `boxes` (distinct
    /// cells) and returns how many there are: 1 when the player could walk everywhere no box
    /// stands. An `Areas` serves one board: the first call copies its neighbours.
    pub fn label(&mut self, board: &Board, boxes: &[Cell]) -> u32 {
        let n = board.n_cells();
        if self.adjacent.len() != n {
            self.compact(board);
        }
        // Discovery numbers of the last labelling end below `base + n`; start above them.
        let mut next = self.base + n as u32;
        if next > u32::MAX - 2 * n as u32 - 2 {
            self.disc.fill(0);
            next = 1;
        }
        let base = next;
        self.base = base;
        self.roots.clear();
        // Boxes count as visited while the search runs, with a number no back edge can lower
        // `low` to, so one load tells whether to enter a neighbour or only note it.
        for &b in boxes {
            self.disc[b as usize] = BOX_MARK;
        }
        // Distinct slices: the compiler keeps their addresses in registers (through `self`
        // it reloads them after every store).
        let Areas { disc, low: lows, end, parent, sub_min, area, roots, stack, adjacent, .. } = self;
        let (disc, lows, end, parent, sub_min, area) = (
            &mut disc[..n],
            &mut lows[..n],
            &mut end[..n],
            &mut parent[..n],
            &mut sub_min[..n],
            &mut area[..n],
        );
        let (stack, adjacent) = (&mut stack[..n], &adjacent[..n]);
        for start in 0..n {
            if disc[start] >= base {
                continue;
            }
            let id = roots.len() as u32;
            roots.push(start as Cell);
            (disc[start], parent[start], area[start]) = (next, NO_CELL, id);
            // The cell being searched, the index of its next neighbour, its lowest reachable
            // number and its subtree's smallest cell stay in registers, with its neighbours;
            // the stack holds the same for the cells above it. `low` and `sub_min` are stored
            // when a cell is done.
            let (mut v, mut k, mut low, mut min) = (start as Cell, 0usize, next, start as Cell);
            let (mut adj, d) = adjacent[start];
            let mut deg = d as usize;
            let mut depth = 0;
            next += 1;
            loop {
                if k < deg {
                    let w = adj[k & 3];
                    k += 1;
                    let wi = w as usize;
                    let dw = disc[wi];
                    if dw >= base {
                        // A visited neighbour: a back edge (or the tree edge to the parent,
                        // which cannot lower `low` below the parent's number), or a box.
                        low = low.min(dw);
                    } else {
                        stack[depth] = (v, k as u8, low, min, adj, deg as u8);
                        depth += 1;
                        (disc[wi], parent[wi], area[wi]) = (next, v, id);
                        (v, k, low, min) = (w, 0, next, w);
                        let (a, d) = adjacent[wi];
                        (adj, deg) = (a, d as usize);
                        next += 1;
                    }
                } else {
                    let vi = v as usize;
                    (end[vi], lows[vi], sub_min[vi]) = (next, low, min);
                    if depth == 0 {
                        break;
                    }
                    depth -= 1;
                    let (p, pk, p_low, p_min, p_adj, p_deg) = stack[depth];
                    (v, k, low, min) = (p, pk as usize, p_low.min(low), p_min.min(min));
                    (adj, deg) = (p_adj, p_deg as usize);
                }
            }
        }
        for &b in boxes {
            self.disc[b as usize] = 0;
        }
        self.count()
    }

    /// Copies the board's neighbours with the walls left out.
    fn compact(&mut self, board: &Board) {
        let n = board.n_cells();
        self.adjacent.clear();
        for c in 0..n as Cell {
            let mut row = [NO_CELL; 4];
            let mut d = 0;
            for &w in board.neighbours(c) {
                if w != NO_CELL {
                    row[d] = w;
                    d += 1;
                }
            }
            self.adjacent.push((row, d as u8));
        }
        // The search path never holds a cell twice.
        self.stack.clear();
        self.stack.resize(n, (NO_CELL, 0, 0, NO_CELL, [NO_CELL; 4], 0));
    }

    /// The area count and the player's region (its smallest cell) of the labelled position
    /// itself with the player on `player`, a free square: what [`Areas::after_move`] gives for
    /// a box that ends where it started.
    pub fn unmoved(&self, player: Cell) -> (u32, Cell) {
        debug_assert!(self.is_free(player));
        (self.count(), self.roots[self.area[player as usize] as usize])
    }

    /// The children of `v` (free in the labelled position) whose subtrees fall off the rest
    /// of its area when `v` is blocked: those with no back edge above `v`, or every child
    /// when `v` is the area's root.
    #[inline]
    fn splits(&self, board: &Board, v: Cell) -> ([Cell; 4], usize) {
        let t = v as usize;
        let root = self.parent[t] == NO_CELL;
        let mut splits = [NO_CELL; 4];
        let mut n_splits = 0;
        for &c in board.neighbours(v) {
            if c != NO_CELL
                && self.is_free(c)
                && self.parent[c as usize] == v
                && (root || self.low[c as usize] >= self.disc[t])
            {
                splits[n_splits] = c;
                n_splits += 1;
            }
        }
        (splits, n_splits)
    }

    /// The piece free cell `w` lies in once `v` is blocked (`splits` being
    /// [`Areas::splits`] of `v`), with the piece's smallest cell.
    #[inline]
    fn piece(&self, v: Cell, splits: &[Cell], w: Cell) -> (Piece, Cell) {
        let a = self.area[w as usize];
        if a == self.area[v as usize] {
            let dw = self.disc[w as usize];
            for (slot, &c) in splits.iter().enumerate() {
                if self.disc[c as usize] <= dw && dw < self.end[c as usize] {
                    return (Piece::Subtree(slot), self.sub_min[c as usize]);
                }
            }
        }
        (Piece::Area(a), self.roots[a as usize])
    }

    /// The distinct pieces (with their smallest cells) around `from`, a box's square that
    /// opens, once `to` is blocked (`piece` says which piece a free cell is in): `from` joins
    /// them into one.
    #[inline]
    fn joined(
        &self,
        board: &Board,
        from: Cell,
        to: Cell,
        piece: impl Fn(Cell) -> (Piece, Cell),
    ) -> ([(Piece, Cell); 4], usize) {
        let mut joined = [(Piece::Area(u32::MAX), NO_CELL); 4];
        let mut n_joined = 0;
        for &w in board.neighbours(from) {
            if w == NO_CELL || w == to || !self.is_free(w) {
                continue;
            }
            let p = piece(w);
            if !joined[..n_joined].iter().any(|&(q, _)| q == p.0) {
                joined[n_joined] = p;
                n_joined += 1;
            }
        }
        (joined, n_joined)
    }

    /// Where the player can walk after one box moves from `from` to `to` (anywhere: the
    /// squares of a run of box moves, `from` itself included) and the player ends on
    /// `player`, worked out from the last labelling, which must be of the position before the
    /// move, as in [`Areas::after_move`]: each [`Moved::reaches`] reads a few cells around
    /// `to`, with no flood fill. The runs of box moves ask it of every square their box
    /// reaches.
    #[inline]
    pub fn moved(&self, board: &Board, from: Cell, to: Cell, player: Cell) -> Moved<'_> {
        debug_assert!(!self.is_free(from) && player != to);
        debug_assert!(player == from || self.is_free(player));
        // A run of box moves can bring the box back round to its square: then nothing splits
        // and nothing opens.
        let back = from == to;
        debug_assert!(back || self.is_free(to));
        let (splits, n_splits) = if back { ([NO_CELL; 4], 0) } else { self.splits(board, to) };
        let piece = |w: Cell| self.piece(to, &splits[..n_splits], w);
        let (joined, n_joined) = if back {
            ([(Piece::Area(u32::MAX), NO_CELL); 4], 0)
        } else {
            self.joined(board, from, to, piece)
        };
        let mut moved = Moved { areas: self, from, to, splits, n_splits, joined, n_joined, player: None };
        if player != from {
            let p = moved.piece(player);
            if !moved.is_joined(p) {
                moved.player = Some(p);
            }
        }
        moved
    }

    /// The area count and the player's normalized position (the smallest cell of the region)
    /// after one box moves from `from` to `to` (neighbours, as a push or pull moves it, or
    /// further, as a macro does) and the player ends on `player`, all worked out from the last
    /// labelling, which must be of the position before the move. `to` and `player` were free
    /// in it, `from` held the moving box, and `player` is not `to`.
    pub fn after_move(&self, board: &Board, from: Cell, to: Cell, player: Cell) -> (u32, Cell) {
        debug_assert!(self.is_free(to) && !self.is_free(from) && player != to);
        debug_assert!(player == from || self.is_free(player));
        // First `to` fills up (`from` still blocked): its area falls into the subtrees of
        // the children that have no way round `to`, plus the rest unless `to` is the root.
        let root = self.parent[to as usize] == NO_CELL;
        let (splits, n_splits) = self.splits(board, to);
        let blocked_count = self.count() - 1 + n_splits as u32 + u32::from(!root);
        let piece = |w: Cell| self.piece(to, &splits[..n_splits], w);
        // Then `from` opens and joins the pieces around it into one.
        let (joined, n_joined) = self.joined(board, from, to, piece);
        let count = blocked_count + 1 - n_joined as u32;
        let around_from = || joined[..n_joined].iter().fold(from, |m, &(_, c)| m.min(c));
        let player_min = if player == from {
            around_from()
        } else {
            let (p, min) = piece(player);
            if joined[..n_joined].iter().any(|&(q, _)| q == p) {
                around_from()
            } else {
                min
            }
        };
        (count, player_min)
    }
}

/// The player's region after one box move, read from the labels of the position before it
/// ([`Areas::moved`]).
#[derive(Debug, Clone, Copy)]
pub struct Moved<'a> {
    areas: &'a Areas,
    from: Cell,
    to: Cell,
    splits: [Cell; 4],
    n_splits: usize,
    /// The pieces the opened square joins (with their smallest cells, unused here).
    joined: [(Piece, Cell); 4],
    n_joined: usize,
    /// The player's piece, or `None` when the player is in the joined one.
    player: Option<Piece>,
}

impl Moved<'_> {
    #[inline]
    fn piece(&self, w: Cell) -> Piece {
        self.areas.piece(self.to, &self.splits[..self.n_splits], w).0
    }

    #[inline]
    fn is_joined(&self, p: Piece) -> bool {
        self.joined[..self.n_joined].iter().any(|&(q, _)| q == p)
    }

    /// True if the player can walk to `cell` after the move.
    #[inline]
    pub fn reaches(&self, cell: Cell) -> bool {
        if cell == self.from {
            return self.player.is_none();
        }
        if cell == self.to || !self.areas.is_free(cell) {
            return false;
        }
        let p = self.piece(cell);
        match self.player {
            None => self.is_joined(p),
            Some(q) => p == q,
        }
    }
}

/// The player's region with a run's box on one of its squares: from the labels of the
/// position the run started from, or (without labels) from a flood fill.
#[derive(Debug, Clone, Copy)]
pub enum RunReach<'a> {
    /// Read from the labels ([`Areas::moved`]).
    Labels(Moved<'a>),
    /// The last fill of this [`Reach`], made with the box on the square.
    Fill(&'a Reach),
}

impl<'a> RunReach<'a> {
    /// Where the player can walk with a run's box moved from `from` to `at` (already so in
    /// `boxes`) and the player on `player`: read from `labels`, the labels of the position
    /// the run started from, when there are some (feature cells on), else filled into `fill`.
    /// Debug builds fill either way and check the labels' reading on every square around `at`
    /// (where the runs ask).
    #[inline]
    pub fn of_run(
        board: &Board,
        boxes: &BoxMap,
        labels: Option<&'a Areas>,
        fill: &'a mut Reach,
        from: Cell,
        at: Cell,
        player: Cell,
    ) -> RunReach<'a> {
        if labels.is_none() || cfg!(debug_assertions) {
            fill.fill(board, boxes, player);
        }
        match labels {
            Some(areas) => {
                let moved = areas.moved(board, from, at, player);
                debug_assert!(board
                    .neighbours(at)
                    .iter()
                    .all(|&c| c == NO_CELL || moved.reaches(c) == fill.contains(c)));
                RunReach::Labels(moved)
            }
            None => RunReach::Fill(fill),
        }
    }

    /// True if the player can walk to `cell`.
    #[inline]
    pub fn reaches(&self, cell: Cell) -> bool {
        match self {
            RunReach::Labels(moved) => moved.reaches(cell),
            RunReach::Fill(reach) => reach.contains(cell),
        }
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
        Reach { stamp: vec![0; n_cells], current: 0, stack: vec![NO_CELL; n_cells] }
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
        // A stack of one entry per cell (`Reach::new`; a cell is stamped before it is pushed,
        // so it is pushed at most once) and distinct slices, whose addresses the compiler
        // keeps in registers.
        let (stamp, stack) = (&mut self.stamp[..], &mut self.stack[..]);
        stamp[from as usize] = cur;
        stack[0] = from;
        let mut depth = 1;
        let mut min = from;
        while depth > 0 {
            depth -= 1;
            let c = stack[depth];
            for &n in board.neighbours(c) {
                if n != NO_CELL && stamp[n as usize] != cur && !boxes.is_box(n) {
                    stamp[n as usize] = cur;
                    min = min.min(n);
                    stack[depth] = n;
                    depth += 1;
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

    /// Marks the region of `player` (a free square) that the last [`Areas::label`] found, as
    /// [`Reach::fill`] would from `player` on the labelled position, and returns its smallest
    /// cell: a scan of the labels, cheaper than a fill.
    pub fn adopt(&mut self, areas: &Areas, player: Cell) -> Cell {
        debug_assert!(areas.is_free(player));
        self.next_stamp();
        let (cur, base, id) = (self.current, areas.base, areas.area[player as usize]);
        let n = areas.adjacent.len();
        let (stamp, disc, area) = (&mut self.stamp[..n], &areas.disc[..n], &areas.area[..n]);
        for ((s, &d), &a) in stamp.iter_mut().zip(disc).zip(area) {
            if d >= base && a == id {
                *s = cur;
            }
        }
        areas.roots[id as usize]
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

/// A set of (square, direction) pairs, such as the positions a box's run of pushes or pulls
/// has reached (the square, the way it moved onto it), kept as generation stamps: clearing
/// it costs nothing.
#[derive(Debug, Clone)]
pub struct SquareDirs {
    stamp: Vec<u32>,
    current: u32,
}

impl SquareDirs {
    /// An empty set for a board with `n_cells` cells.
    pub fn new(n_cells: usize) -> SquareDirs {
        SquareDirs { stamp: vec![0; 4 * n_cells], current: 1 }
    }

    /// Empties the set.
    pub fn next(&mut self) {
        self.current = self.current.wrapping_add(1);
        if self.current == 0 {
            self.stamp.fill(0);
            self.current = 1;
        }
    }

    /// Adds the pair; false if it was there already.
    #[inline]
    pub fn insert(&mut self, cell: Cell, dir: crate::dir::Dir) -> bool {
        let k = 4 * cell as usize + dir.index();
        let new = self.stamp[k] != self.current;
        self.stamp[k] = self.current;
        new
    }
}
