//! PI-corral pruning: when part of the board is fenced off from the player by boxes that can
//! only ever be pushed into it, and the player can make every one of those pushes now, a
//! solution can start with one of them, so only those pushes need to be generated.
//!
//! A corral is a connected area of free squares the player cannot reach; its fence is every
//! box next to it. It is a PI-corral when:
//! - (I) no fence box can ever be pushed anywhere but into the corral: for each fence box and
//!   each direction, either the player could never stand behind it (a wall, the corral, or
//!   another fence box), or the square ahead is a wall, another fence box, or in the corral;
//! - (P) every push of a fence box into the corral that might ever be possible is possible now:
//!   the square behind the box is in the player's region;
//! - the corral is unfinished: a fence box is off its goal or the corral holds an empty goal.
//!
//! Why a solution can start with a fence push: until some fence box is pushed into the
//! corral, no fence box moves (I) and the player never enters the corral, so an unfinished
//! corral forces such a push P somewhere in every solution. Everything before P happens
//! outside the corral and never touches its fence; P is possible at the start (P), it only
//! frees the fence square (which those earlier pushes never used) and fills a corral square
//! (which they never reached), so P can be made first and the rest replayed unchanged,
//! ending in the same position. The same argument shows that an unfinished corral satisfying
//! (I) with no possible fence push at all can never be finished: the state is dead.
//!
//! Corrals are merged: when a fence box could be pushed from one corral into another, or out
//! of another corral, neither is a PI-corral alone, but their union may be (the push then
//! stays inside the union, made by a player who cannot be there yet). A union that fails (I)
//! because a fence box can be pushed within the player's area fails for every larger union
//! too, since that box stays on the fence; so each corral is tried in at most one union.

use bisolve_board::{Board, BoxMap, Cell, Dir, Reach, NO_CELL};

/// What [`CorralCheck::find`] found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Corral {
    /// No PI-corral: generate every push.
    None,
    /// Generate only these pushes: (box index, direction) pairs, all into one PI-corral.
    Only(Vec<(usize, Dir)>),
    /// An unfinished corral no push can ever enter: the state is dead.
    Dead,
}

/// Working memory of the corral search.
#[derive(Debug, Clone)]
pub struct CorralCheck {
    /// Per cell, `base + k` when the cell lies in corral `k` of the current call (values
    /// below the call's base are left from earlier calls).
    label: Vec<u32>,
    base: u32,
    /// Per cell, a stamp marking the fence boxes of the union being tested.
    fence_seen: Vec<u32>,
    fence_stamp: u32,
    stack: Vec<Cell>,
    /// Cells of every corral, corral `k` at `cells[starts[k]..starts[k + 1]]`.
    cells: Vec<Cell>,
    starts: Vec<usize>,
    /// Per cell, `base + k` when the cell holds a box of corral `k`'s fence (as `label`).
    fence_label: Vec<u32>,
    /// The fence boxes (indices) of every corral, corral `k` at
    /// `fences[fence_starts[k]..fence_starts[k + 1]]`, in the order a scan of its cells in
    /// `cells` order meets them, so a union's fence reads off these in the order a scan of the
    /// union's cells would give.
    fences: Vec<usize>,
    fence_starts: Vec<usize>,
    /// Per corral: it holds an empty goal.
    has_goal: Vec<bool>,
    /// Per corral: in the union being tested; tried already (in a union that failed or won).
    in_union: Vec<bool>,
    tried: Vec<bool>,
    union: Vec<usize>,
    fence: Vec<usize>,
    /// The cells of the PI-corral last returned by [`CorralCheck::find`] (the union).
    found_cells: Vec<Cell>,
    found_fence: Vec<usize>,
}

/// The best PI-corral so far: its pushes, the corrals of the union and its fence.
struct Found {
    pushes: Vec<(usize, Dir)>,
    union: Vec<usize>,
    fence: Vec<usize>,
}

/// Why a union of corrals is not a PI-corral, or what it needs.
enum Test {
    /// A PI-corral: these pushes enter it.
    Pi(Vec<(usize, Dir)>),
    /// Add this corral and test again.
    Merge(usize),
    /// Not a PI-corral, nor any union containing it.
    Fails,
    /// Finished: every fence box on a goal and no empty goal inside.
    Finished,
}

impl CorralCheck {
    /// Working memory for a board with `n_cells` cells.
    pub fn new(n_cells: usize) -> CorralCheck {
        CorralCheck {
            label: vec![0; n_cells],
            base: 1,
            fence_seen: vec![0; n_cells],
            fence_stamp: 0,
            stack: Vec::new(),
            cells: Vec::new(),
            starts: Vec::new(),
            fence_label: vec![0; n_cells],
            fences: Vec::new(),
            fence_starts: Vec::new(),
            has_goal: Vec::new(),
            in_union: Vec::new(),
            tried: Vec::new(),
            union: Vec::new(),
            fence: Vec::new(),
            found_cells: Vec::new(),
            found_fence: Vec::new(),
        }
    }

    /// The corral of a free cell the player cannot reach, in the current call.
    #[inline]
    fn corral_of(&self, cell: Cell) -> Option<usize> {
        let l = self.label[cell as usize];
        (l >= self.base).then(|| (l - self.base) as usize)
    }

    /// Labels every corral (the areas of free cells the player cannot reach) and notes its
    /// fence boxes and whether it holds an empty goal.
    fn label_corrals(&mut self, board: &Board, boxes: &BoxMap, reach: &Reach) {
        let n = board.n_cells();
        // Labels of earlier calls stay below the new base. Each call uses at most one label
        // per cell; start afresh well before they run out.
        self.base += self.starts.len().saturating_sub(1) as u32 + 1;
        if self.base > u32::MAX - 2 * n as u32 - 2 {
            self.label.fill(0);
            self.fence_label.fill(0);
            self.base = 1;
        }
        self.cells.clear();
        self.starts.clear();
        self.fences.clear();
        self.fence_starts.clear();
        self.has_goal.clear();
        for start in 0..n as Cell {
            if reach.contains(start) || boxes.is_box(start) || self.corral_of(start).is_some() {
                continue;
            }
            let id = self.base + self.starts.len() as u32;
            self.starts.push(self.cells.len());
            self.fence_starts.push(self.fences.len());
            self.stack.push(start);
            self.label[start as usize] = id;
            let mut has_goal = false;
            while let Some(c) = self.stack.pop() {
                self.cells.push(c);
                has_goal |= board.is_goal(c);
                for &m in board.neighbours(c) {
                    if m == NO_CELL {
                        continue;
                    }
                    match boxes.box_at(m) {
                        Some(i) => {
                            if self.fence_label[m as usize] != id {
                                self.fence_label[m as usize] = id;
                                self.fences.push(i);
                            }
                        }
                        None => {
                            if self.label[m as usize] != id {
                                self.label[m as usize] = id;
                                self.stack.push(m);
                            }
                        }
                    }
                }
            }
            self.has_goal.push(has_goal);
        }
        self.starts.push(self.cells.len());
        self.fence_starts.push(self.fences.len());
    }

    /// Looks for the PI-corral (a single corral or a union) with the fewest pushes. `reach`
    /// holds the player's region of the state whose boxes `boxes` maps (box index per cell,
    /// `box_list` in index order).
    pub fn find(&mut self, board: &Board, boxes: &BoxMap, box_list: &[Cell], reach: &Reach) -> Corral {
        self.label_corrals(board, boxes, reach);
        let n_corrals = self.starts.len() - 1;
        let mut best: Option<Found> = None;
        self.tried.clear();
        self.tried.resize(n_corrals, false);
        self.in_union.clear();
        self.in_union.resize(n_corrals, false);
        for seed in 0..n_corrals {
            if self.tried[seed] {
                continue;
            }
            self.union.clear();
            self.union.push(seed);
            self.in_union[seed] = true;
            let verdict = loop {
                match self.test_union(board, boxes, box_list, reach) {
                    Test::Merge(k) => {
                        self.union.push(k);
                        self.in_union[k] = true;
                    }
                    other => break other,
                }
            };
            for &k in &self.union {
                self.in_union[k] = false;
                self.tried[k] = true;
            }
            match verdict {
                Test::Pi(pushes) if pushes.is_empty() => {
                    self.remember_union();
                    return Corral::Dead;
                }
                Test::Pi(pushes) => {
                    if best.as_ref().is_none_or(|b| pushes.len() < b.pushes.len()) {
                        best = Some(Found { pushes, union: self.union.clone(), fence: self.fence.clone() });
                    }
                }
                Test::Fails | Test::Finished | Test::Merge(_) => {}
            }
        }
        match best {
            Some(found) => {
                self.union = found.union;
                self.fence = found.fence;
                self.remember_union();
                Corral::Only(found.pushes)
            }
            None => Corral::None,
        }
    }

    /// Keeps the cells and fence of the current union as the corral found.
    fn remember_union(&mut self) {
        self.found_cells.clear();
        for &k in &self.union {
            self.found_cells.extend_from_slice(&self.cells[self.starts[k]..self.starts[k + 1]]);
        }
        self.found_fence.clear();
        self.found_fence.extend_from_slice(&self.fence);
    }

    /// The free cells of the corral the last [`CorralCheck::find`] returned (`Only` or `Dead`).
    pub fn found_cells(&self) -> &[Cell] {
        &self.found_cells
    }

    /// The indices of its fence boxes.
    pub fn found_fence(&self) -> &[usize] {
        &self.found_fence
    }

    /// The union's empty goal and fence the slow way, by a scan of its cells: what
    /// [`CorralCheck::test_union`] reads off the corrals' fences.
    fn scanned_fence(&self, board: &Board, boxes: &BoxMap) -> (bool, Vec<usize>) {
        let mut holds_empty_goal = false;
        let mut fence = Vec::new();
        for &k in &self.union {
            for &c in &self.cells[self.starts[k]..self.starts[k + 1]] {
                holds_empty_goal |= board.is_goal(c);
                for &m in board.neighbours(c) {
                    if let Some(i) = (m != NO_CELL).then(|| boxes.box_at(m)).flatten() {
                        if !fence.contains(&i) {
                            fence.push(i);
                        }
                    }
                }
            }
        }
        (holds_empty_goal, fence)
    }

    fn test_union(&mut self, board: &Board, boxes: &BoxMap, box_list: &[Cell], reach: &Reach) -> Test {
        // The fence: every box next to a cell of the union.
        self.fence_stamp = self.fence_stamp.wrapping_add(1);
        if self.fence_stamp == 0 {
            self.fence_seen.fill(0);
            self.fence_stamp = 1;
        }
        let stamp = self.fence_stamp;
        self.fence.clear();
        // The union's fence: its corrals' fences in union order, each box once (the order a
        // scan of the union's cells meets them).
        let mut holds_empty_goal = false;
        for &k in &self.union {
            holds_empty_goal |= self.has_goal[k];
            for &i in &self.fences[self.fence_starts[k]..self.fence_starts[k + 1]] {
                let m = box_list[i];
                if self.fence_seen[m as usize] != stamp {
                    self.fence_seen[m as usize] = stamp;
                    self.fence.push(i);
                }
            }
        }
        debug_assert_eq!((holds_empty_goal, self.fence.clone()), self.scanned_fence(board, boxes));
        if !holds_empty_goal && self.fence.iter().all(|&i| board.is_goal(box_list[i])) {
            return Test::Finished;
        }
        let in_union = |c: Cell, this: &CorralCheck| this.corral_of(c).is_some_and(|k| this.in_union[k]);
        let is_fence = |c: Cell| boxes.is_box(c) && self.fence_seen[c as usize] == stamp;
        let mut pushes = Vec::new();
        for &i in &self.fence {
            let b = box_list[i];
            for d in Dir::ALL {
                let behind = board.neighbour(b, d.opposite());
                let ahead = board.neighbour(b, d);
                if behind == NO_CELL || in_union(behind, self) || is_fence(behind) {
                    continue;
                }
                if ahead == NO_CELL || is_fence(ahead) {
                    continue;
                }
                // The player could stand behind the box some day, and the square ahead is free
                // (or holds a box that may move away).
                if let Some(k) = self.corral_of(behind).filter(|&k| !self.in_union[k]) {
                    return Test::Merge(k);
                }
                if in_union(ahead, self) {
                    if !reach.contains(behind) {
                        // A push into the corral that cannot be made now (a box is behind).
                        return Test::Fails;
                    }
                    pushes.push((i, d));
                    continue;
                }
                if let Some(k) = self.corral_of(ahead).filter(|&k| !self.in_union[k]) {
                    return Test::Merge(k);
                }
                // The box could leave the fence into the player's area, or towards a box.
                return Test::Fails;
            }
        }
        Test::Pi(pushes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bisolve_board::Level;

    fn find(text: &str) -> (Level, Corral) {
        let level = Level::parse(text).expect("valid level");
        let board = level.board();
        let start = level.start();
        let mut boxes = BoxMap::new(board.n_cells());
        boxes.set_all(&start.boxes);
        let mut reach = Reach::new(board.n_cells());
        reach.fill(board, &boxes, start.player);
        let corral = CorralCheck::new(board.n_cells()).find(board, &boxes, &start.boxes, &reach);
        (level, corral)
    }

    #[test]
    fn a_fenced_goal_room_restricts_pushes_to_its_fence() {
        // The two goals on the right are fenced off by two boxes that can only go in; the
        // box in the open must wait.
        let (level, corral) = find(
            "########\n\
             #@ $ $.#\n\
             #.   $.#\n\
             ########\n",
        );
        let Corral::Only(pushes) = corral else { panic!("expected a PI-corral, got {corral:?}") };
        let board = level.board();
        let moved: Vec<(usize, usize)> =
            pushes.iter().map(|&(i, _)| board.xy(level.start().boxes[i])).collect();
        assert!(!moved.is_empty());
        assert!(moved.iter().all(|&(x, _)| x == 5), "only fence boxes in column 5 move: {moved:?}");
        assert!(pushes.iter().all(|&(_, d)| d == Dir::Right));
    }

    #[test]
    fn corrals_joined_by_a_fence_box_merge_into_one() {
        // The cell between the two boxes and the goals beyond the second are two corrals;
        // the second box can be pushed from one into the other, so neither is a PI-corral
        // alone, but together they are, entered only by pushing the first box right.
        let (_, corral) = find("########\n#@$ $..#\n########\n");
        assert_eq!(corral, Corral::Only(vec![(0, Dir::Right)]));
    }

    #[test]
    fn an_open_room_has_no_corral() {
        let (_, corral) = find(
            "#######\n\
             #@ $ .#\n\
             #     #\n\
             #######\n",
        );
        assert_eq!(corral, Corral::None);
    }

    #[test]
    fn a_corral_no_push_can_enter_is_dead() {
        // The goal's room is sealed by a box the player can only reach from above, with walls
        // to its left and below: no push can ever enter.
        let (_, corral) = find(
            "#######\n\
             #@ #  #\n\
             ##$.  #\n\
             #######\n",
        );
        assert_eq!(corral, Corral::Dead);
    }
}
