//! Runs of box moves: one box moved on and on by pushes (or pulls) of it alone, the other boxes
//! fixed, every position on the way a child of the node the runs start from. The breadth-first
//! walk over (square, last move) pairs is the same in both directions; only where the player
//! must stand for the next move differs, and the direction's own tests judge each child.
//! [`child_region`] gives a child's player region the same way for every move of either
//! direction.

use crate::board::Board;
use crate::cell::{Cell, NO_CELL};
use crate::dir::Dir;
use crate::reach::{Areas, BoxMap, Reach, RunReach, SquareDirs};
use crate::search::Side;

/// The walk of one box's runs, reused from node to node.
#[derive(Debug, Clone)]
pub struct BoxRuns {
    /// The (square, last move) pairs reached.
    seen: SquareDirs,
    /// Positions to go on from: the box's square, the move onto it, the moves from the node.
    queue: Vec<(Cell, Dir, u16)>,
    /// The next position of `queue` to go on from.
    next: usize,
}

/// A position of a run to go on from, and the moves of its box from there that no position
/// of the runs has made yet.
#[derive(Debug, Clone, Copy)]
pub struct RunStep {
    /// The box's square.
    pub at: Cell,
    /// The moves a child made from here is from the node (one more than to get here).
    pub steps: u16,
    moves: [(Cell, Dir); 4],
    n: usize,
}

impl RunStep {
    /// Where the box can go next, and the way it moves there.
    pub fn moves(&self) -> &[(Cell, Dir)] {
        &self.moves[..self.n]
    }
}

impl BoxRuns {
    /// Runs for a board of `n_cells` cells.
    pub fn new(n_cells: usize) -> BoxRuns {
        BoxRuns { seen: SquareDirs::new(n_cells), queue: Vec::new(), next: 0 }
    }

    /// Starts the runs of one box from the squares its first moves from the node took it to,
    /// each with the way it moved there.
    pub fn start(&mut self, firsts: impl Iterator<Item = (Cell, Dir)>) {
        self.seen.next();
        self.queue.clear();
        self.next = 0;
        for (to, dir) in firsts {
            self.seen.insert(to, dir);
            self.queue.push((to, dir, 1));
        }
    }

    /// The next position to go on from, with the moves of box `from` (the box's square in
    /// `boxes`, the node's position) that can be made there by the `side` direction's rules:
    /// pushing, the square ahead free and the player able to get behind the box; pulling, the
    /// player able to reach the square the box moves to (the child's own test checks the
    /// square beyond). `labels`, the node's areas when there are some, spare a fill into
    /// `fill`. `None` once the runs are done.
    pub fn step(
        &mut self,
        side: Side,
        board: &Board,
        boxes: &mut BoxMap,
        labels: Option<&Areas>,
        fill: &mut Reach,
        from: Cell,
    ) -> Option<RunStep> {
        let &(at, last, steps) = self.queue.get(self.next)?;
        self.next += 1;
        boxes.shift(from, at);
        let player = match side {
            // The player stands behind the box it pushed, beyond the box it pulled.
            Side::Forward => board.neighbour(at, last.opposite()),
            Side::Backward => board.neighbour(at, last),
        };
        let reach = RunReach::of_run(board, boxes, labels, fill, from, at, player);
        let mut moves = [(NO_CELL, Dir::Up); 4];
        let mut n = 0;
        let neighbours = *board.neighbours(at);
        for (d, &to) in neighbours.iter().enumerate() {
            let dir = Dir::from_index(d);
            let possible = match side {
                Side::Forward => {
                    let behind = neighbours[(d + 2) & 3];
                    to != NO_CELL && !boxes.is_box(to) && behind != NO_CELL && reach.reaches(behind)
                }
                Side::Backward => to != NO_CELL && reach.reaches(to),
            };
            if possible && self.seen.insert(to, dir) {
                moves[n] = (to, dir);
                n += 1;
            }
        }
        boxes.shift(at, from);
        Some(RunStep { at, steps: steps.saturating_add(1), moves, n })
    }

    /// Goes on from `to`, where a move `dir` took the box `steps` moves from the node.
    pub fn go_on(&mut self, to: Cell, dir: Dir, steps: u16) {
        self.queue.push((to, dir, steps));
    }
}

/// The normalized player square and the area count (0 without labels) of the child in which
/// the box on `from` has moved to `to` and the player stands on `stands`; `boxes` shows the
/// child. With `labels`, the node's areas, both are read from them. Without, the ring test on
/// `reach`, the node's fill (its smallest square `region_min`), answers for a `single` move
/// from the node (the player on `from`), and anything else is filled into `fill`.
#[allow(clippy::too_many_arguments)]
#[inline]
pub fn child_region(
    board: &Board,
    boxes: &BoxMap,
    labels: Option<&Areas>,
    reach: &Reach,
    fill: &mut Reach,
    region_min: Cell,
    (from, to): (Cell, Cell),
    stands: Cell,
    single: bool,
) -> (Cell, u32) {
    let (player, areas) = match labels {
        Some(areas) => {
            // A run of box moves may bring the box back round to its square.
            let (count, player) =
                if to == from { areas.unmoved(stands) } else { areas.after_move(board, from, to, stands) };
            (player, count)
        }
        None => {
            let ring = if single { reach.child_min(board, boxes, region_min, from, to) } else { None };
            (ring.unwrap_or_else(|| fill.fill(board, boxes, stands)), 0)
        }
    };
    debug_assert_eq!(player, fill.fill(board, boxes, stands));
    (player, areas)
}
