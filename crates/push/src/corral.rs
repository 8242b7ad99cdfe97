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
    /// Per cell, the stamp of the corral that holds it; stamps grow with each corral, so a
    /// cell belongs to a corral of the current call when its stamp is above the call's base.
    stamp: Vec<u32>,
    current: u32,
    stack: Vec<Cell>,
    fence: Vec<usize>,
    fence_seen: Vec<u32>,
}

impl CorralCheck {
    /// Working memory for a board with `n_cells` cells.
    pub fn new(n_cells: usize) -> CorralCheck {
        CorralCheck {
            stamp: vec![0; n_cells],
            current: 0,
            stack: Vec::new(),
            fence: Vec::new(),
            fence_seen: vec![0; n_cells],
        }
    }

    fn next_stamp(&mut self) -> u32 {
        self.current += 1;
        self.current
    }

    /// Looks for the PI-corral with the fewest pushes. `reach` holds the player's region of the
    /// state whose boxes `boxes` maps (box index per cell, `box_list` in index order).
    pub fn find(&mut self, board: &Board, boxes: &BoxMap, box_list: &[Cell], reach: &Reach) -> Corral {
        let mut best: Option<Vec<(usize, Dir)>> = None;
        let n = board.n_cells();
        // One call uses at most one stamp per cell; start afresh well before they run out.
        if self.current > u32::MAX - n as u32 - 2 {
            self.stamp.fill(0);
            self.fence_seen.fill(0);
            self.current = 0;
        }
        let base = self.current;
        for start in 0..n as Cell {
            if reach.contains(start) || boxes.is_box(start) || self.stamp[start as usize] > base {
                continue;
            }
            // A new corral: label its area with a fresh stamp, collect its fence.
            let id = self.next_stamp();
            self.fence.clear();
            let mut holds_empty_goal = false;
            self.stack.push(start);
            self.stamp[start as usize] = id;
            while let Some(c) = self.stack.pop() {
                holds_empty_goal |= board.is_goal(c);
                for &m in board.neighbours(c) {
                    if m == NO_CELL {
                        continue;
                    }
                    if let Some(i) = boxes.box_at(m) {
                        if self.fence_seen[m as usize] != id {
                            self.fence_seen[m as usize] = id;
                            self.fence.push(i);
                        }
                    } else if self.stamp[m as usize] != id {
                        self.stamp[m as usize] = id;
                        self.stack.push(m);
                    }
                }
            }
            let in_corral = |c: Cell, this: &CorralCheck| this.stamp[c as usize] == id && !boxes.is_box(c);
            let is_fence = |c: Cell, this: &CorralCheck| this.fence_seen[c as usize] == id && boxes.is_box(c);
            let unfinished = holds_empty_goal || self.fence.iter().any(|&i| !board.is_goal(box_list[i]));
            if !unfinished {
                continue;
            }
            let mut pushes = Vec::new();
            let mut pi = true;
            'fence: for &i in &self.fence {
                let b = box_list[i];
                for d in Dir::ALL {
                    let behind = board.neighbour(b, d.opposite());
                    let ahead = board.neighbour(b, d);
                    if behind == NO_CELL || in_corral(behind, self) || is_fence(behind, self) {
                        continue;
                    }
                    if ahead == NO_CELL || is_fence(ahead, self) {
                        continue;
                    }
                    if !in_corral(ahead, self) || !reach.contains(behind) {
                        pi = false;
                        break 'fence;
                    }
                    pushes.push((i, d));
                }
            }
            if !pi {
                continue;
            }
            if pushes.is_empty() {
                return Corral::Dead;
            }
            if best.as_ref().is_none_or(|b| pushes.len() < b.len()) {
                best = Some(pushes);
            }
        }
        match best {
            Some(p) => Corral::Only(p),
            None => Corral::None,
        }
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
