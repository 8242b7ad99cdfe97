//! FESS's "imagine" advisor (in Festival's source, not in the paper), on the forward side: the
//! parking plan says where boxes wait while it fills the next square for good; a move that
//! brings a box onto one of those waiting squares, in any order, is recommended.
//!
//! For each number `k` of packed steps, the *waiting squares* are the squares that boxes of
//! earlier steps hold, parked for a later step to move on, just before the first step from
//! `k` on that places a box for good (a step whose box never moves again, not one standing
//! there from the start). A position's score is the number of its boxes on the waiting
//! squares of its packed count.

use bisolve_board::search::{Child, FeatureCell};
use bisolve_board::Cell;
use bisolve_deadlock::parking::{From, ParkingPlan};

/// The waiting squares of a plan, per packed count.
#[derive(Debug)]
pub(crate) struct Imagine {
    /// Per packed count `k` (0 to the number of steps): the waiting squares, sorted.
    waiting: Vec<Vec<Cell>>,
}

impl Imagine {
    /// The waiting squares of `plan` (see the module docs).
    pub(crate) fn new(plan: &ParkingPlan) -> Imagine {
        let steps = plan.steps();
        // The parked squares held before each step.
        let mut held: Vec<(Cell, bool)> = Vec::new();
        let mut before: Vec<Vec<Cell>> = Vec::with_capacity(steps.len());
        for step in steps {
            let mut parked: Vec<Cell> = held.iter().filter(|h| !h.1).map(|h| h.0).collect();
            parked.sort_unstable();
            before.push(parked);
            if let From::Parked(c) = step.from {
                if let Some(at) = held.iter().position(|h| h.0 == c) {
                    held.swap_remove(at);
                }
            }
            held.push((step.to, step.until().is_none()));
        }
        let for_good = |j: usize| steps[j].until().is_none() && steps[j].from != From::Initial;
        let waiting = (0..=steps.len())
            .map(|k| (k..steps.len()).find(|&j| for_good(j)).map(|j| before[j].clone()).unwrap_or_default())
            .collect();
        Imagine { waiting }
    }

    /// How many of `boxes` stand on the waiting squares of packed count `packed`.
    fn score(&self, packed: usize, boxes: impl Iterator<Item = Cell>) -> usize {
        let Some(waiting) = self.waiting.get(packed) else { return 0 };
        if waiting.is_empty() {
            return 0;
        }
        boxes.filter(|c| waiting.binary_search(c).is_ok()).count()
    }

    /// Marks [`Child::imagines`] on the child of `children` (the moves of the position of
    /// `boxes`, whose own feature cell is `base`, with a plan of `steps` steps) that the
    /// advisor recommends, if any: among the children that keep the packed steps and stand
    /// more boxes on their waiting squares than the position does, the one of the best cell,
    /// then of the smallest bound.
    pub(crate) fn mark(&self, steps: usize, boxes: &[Cell], base: FeatureCell, children: &mut [Child]) {
        let packed_of = |unplaced: u32| steps.saturating_sub(unplaced as usize);
        let own = self.score(packed_of(base.unplaced), boxes.iter().copied());
        let mut best: Option<(usize, (u32, u32))> = None;
        for (i, c) in children.iter().enumerate() {
            let cell = FeatureCell::unpack(c.cell);
            if cell.unplaced > base.unplaced {
                continue;
            }
            let moved = c.box_index as usize;
            let after = boxes.iter().enumerate().map(|(j, &b)| if j == moved { c.to } else { b });
            if self.score(packed_of(cell.unplaced), after) <= own {
                continue;
            }
            let key = (c.cell, c.h);
            if best.is_none_or(|(_, b)| key < b) {
                best = Some((i, key));
            }
        }
        if let Some((i, _)) = best {
            children[i].imagines = true;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bisolve_board::{Dir, Fingerprint, Level};

    /// `levels/edge/parking-room.xsb`: the plan parks two boxes in the room (A, B), moves
    /// them on to its goals (C from A, D from B), then fills the goal below (E).
    fn parking_room() -> Level {
        Level::parse("######\n#  # #\n#   .#\n# .  #\n### #####\n#      .#\n# $$ $  #\n#@      #\n#########")
            .expect("valid level")
    }

    fn child(box_index: u16, to: Cell, unplaced: u32, h: u32) -> Child {
        Child {
            box_index,
            dir: Dir::Up,
            to,
            player: 0,
            fp: Fingerprint::default(),
            h,
            goal: false,
            is_macro: false,
            cell: FeatureCell { unplaced, ..FeatureCell::default() }.pack(),
            steps: 1,
            explores: false,
            opens: false,
            imagines: false,
        }
    }

    #[test]
    fn the_waiting_squares_are_the_parked_boxes_before_each_placing_for_good() {
        let level = parking_room();
        let board = level.board();
        let at = |x, y| board.cell(x, y).expect("floor");
        let plan = ParkingPlan::forward(board, true).expect("a plan");
        let steps: Vec<Cell> = plan.steps().iter().map(|s| s.to).collect();
        assert_eq!(steps, vec![at(2, 2), at(3, 2), at(2, 3), at(4, 2), at(7, 5)], "the plan of the drawing");
        let waiting = Imagine::new(&plan).waiting;
        let (a, b) = (at(2, 2), at(3, 2));
        // Before C (the first step for good) both wait; before D only B; then none.
        assert_eq!(waiting, vec![vec![a, b], vec![a, b], vec![a, b], vec![b], vec![], vec![]]);
    }

    #[test]
    fn the_move_onto_a_waiting_square_is_marked_in_any_order() {
        let level = parking_room();
        let board = level.board();
        let at = |x, y| board.cell(x, y).expect("floor");
        let plan = ParkingPlan::forward(board, true).expect("a plan");
        let imagine = Imagine::new(&plan);
        let boxes = level.start().boxes.clone();
        let base = FeatureCell { unplaced: 5, ..FeatureCell::default() };
        let marked = |children: &mut [Child]| {
            imagine.mark(5, &boxes, base, children);
            children.iter().map(|c| c.imagines).collect::<Vec<_>>()
        };
        // B's square before A's packs no step, but stands a box where the plan waits.
        let mut children = [child(0, at(3, 5), 5, 4), child(1, at(3, 2), 5, 9), child(2, at(6, 5), 5, 3)];
        assert_eq!(marked(&mut children), vec![false, true, false]);
        // Packing A's step as well: the better cell wins.
        let mut children = [child(1, at(3, 2), 5, 9), child(0, at(2, 2), 4, 9)];
        assert_eq!(marked(&mut children), vec![false, true]);
        // A child that unpacks a step is never marked.
        let mut children = [child(1, at(3, 2), 6, 1)];
        assert_eq!(marked(&mut children), vec![false]);
    }
}
