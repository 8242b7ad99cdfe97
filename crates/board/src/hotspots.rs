//! Hotspots: boxes in the way of other boxes (after the feature of the same name in FESS,
//! Shoham and Schaeffer 2020).
//!
//! A box off its goal on square `y` *blocks* a box off its goal on square `x` when, with `y` a
//! wall, a lone box on `x` can be pushed to fewer goals than on the empty board. A position's
//! hotspots are its boxes off goals that block at least one other box off its goal; a solution
//! has to move them out of the way, so fewer hotspots is progress.
//!
//! The table holds one bit per pair of squares, built before the search with one push-distance
//! computation per square (the square as a wall, [`Board::goal_distances_with_frozen`]): linear
//! in squares per goal each, so boards of more than [`Hotspots::MAX_CELLS`] cells get an empty
//! table, as [`Hotspots::default`] is, and every position counts 0.

use crate::cell::UNREACHABLE;
use crate::{Board, Cell};

/// Which boxes block which, square by square.
#[derive(Clone, Debug, Default)]
pub struct Hotspots {
    /// 64-bit words per square's row.
    words: usize,
    /// Row `y`: the squares `x` that a box on `y` blocks.
    rows: Vec<u64>,
}

impl Hotspots {
    /// Boards of more cells get no table (building it grows with the square of the cells).
    pub const MAX_CELLS: usize = 400;

    /// The table of `board`, or an empty one when it has more than [`Hotspots::MAX_CELLS`]
    /// cells.
    pub fn new(board: &Board) -> Hotspots {
        let n = board.n_cells();
        if n > Hotspots::MAX_CELLS {
            return Hotspots::default();
        }
        let reachable = |row: &[u16]| row.iter().filter(|&&d| d != UNREACHABLE).count();
        let base = board.goal_distances();
        let counts: Vec<usize> = (0..n as Cell).map(|c| reachable(base.row(c))).collect();
        // The squares a box off its goal can stand on and still be pushed to one.
        let live: Vec<Cell> = (0..n as Cell)
            .filter(|&c| !board.is_goal(c) && !board.is_push_dead(c) && counts[c as usize] > 0)
            .collect();
        let words = n.div_ceil(64);
        let mut rows = vec![0u64; n * words];
        for &y in &live {
            let walled = board.goal_distances_with_frozen(&[y]);
            for &x in &live {
                if x != y && reachable(walled.row(x)) < counts[x as usize] {
                    rows[y as usize * words + x as usize / 64] |= 1 << (x % 64);
                }
            }
        }
        Hotspots { words, rows }
    }

    /// Whether a box on `y` blocks a box on `x` (both off goals).
    #[inline]
    pub fn blocks(&self, y: Cell, x: Cell) -> bool {
        self.words > 0 && self.rows[y as usize * self.words + x as usize / 64] & (1 << (x % 64)) != 0
    }

    /// The hotspots among `boxes`: boxes that block at least one other of them.
    pub fn count(&self, boxes: &[Cell]) -> u32 {
        if self.words == 0 {
            return 0;
        }
        boxes.iter().filter(|&&y| boxes.iter().any(|&x| x != y && self.blocks(y, x))).count() as u32
    }

    /// Per box of `boxes`: how many of the others it blocks (none without a table), into
    /// `counts`, for [`Hotspots::count_moved_with`].
    pub fn blocked_counts(&self, boxes: &[Cell], counts: &mut Vec<u16>) {
        counts.clear();
        if self.words == 0 {
            return;
        }
        counts.extend(
            boxes.iter().map(|&y| boxes.iter().filter(|&&x| x != y && self.blocks(y, x)).count() as u16),
        );
    }

    /// The hotspots among `boxes` with box `moved` on `to` instead, from the
    /// [`Hotspots::blocked_counts`] of `boxes`: each box that stays gains or loses only the
    /// moved box, and the moved box is counted afresh.
    pub fn count_moved_with(&self, boxes: &[Cell], counts: &[u16], moved: usize, to: Cell) -> u32 {
        if self.words == 0 {
            return 0;
        }
        let from = boxes[moved];
        let mut hot = 0;
        for (y, (&c, &n)) in boxes.iter().zip(counts).enumerate() {
            let blocks = if y == moved {
                boxes.iter().enumerate().any(|(x, &o)| x != moved && self.blocks(to, o))
            } else {
                n - u16::from(self.blocks(c, from)) + u16::from(self.blocks(c, to)) > 0
            };
            hot += u32::from(blocks);
        }
        hot
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Level;

    #[test]
    fn a_box_in_the_only_corridor_to_the_goals_blocks_the_boxes_behind_it() {
        // The goals lie at the end of a corridor; the box in it blocks the box in the room, and
        // the box in the room blocks nothing.
        let level = Level::parse(
            "#########\n\
             #   #####\n\
             # $ $ ..#\n\
             #   #####\n\
             #@   ####\n\
             #########\n",
        )
        .expect("a level");
        let board = level.board();
        let h = Hotspots::new(board);
        let (room, corridor) = (level.start().boxes[0], level.start().boxes[1]);
        assert!(h.blocks(corridor, room));
        assert!(!h.blocks(room, corridor));
        assert_eq!(h.count(&[room, corridor]), 1);
        assert_eq!(h.count(&[room]), 0);
        assert_eq!(Hotspots::default().count(&[room, corridor]), 0);
    }

    #[test]
    fn boxes_in_an_open_room_block_nothing() {
        let level = Level::parse("#######\n#     #\n# $$  #\n#@  ..#\n#     #\n#######\n").expect("a level");
        let h = Hotspots::new(level.board());
        assert_eq!(h.count(&level.start().boxes), 0);
    }

    use proptest::prelude::*;

    /// The hotspots among `boxes` with box `moved` on `to` instead, counted afresh.
    fn count_moved(h: &Hotspots, boxes: &[Cell], moved: usize, to: Cell) -> u32 {
        let mut after = boxes.to_vec();
        after[moved] = to;
        h.count(&after)
    }

    proptest! {
        /// Counting a move from the counts before it gives what counting afresh gives.
        #[test]
        fn counting_a_move_from_the_counts_before_it_counts_it_afresh(
            picks in prop::collection::vec(any::<prop::sample::Index>(), 1..12),
            moved in any::<prop::sample::Index>(),
            to in any::<prop::sample::Index>(),
        ) {
            // Corridors and rooms: boxes block each other in many ways.
            let level = Level::parse(
                "###########\n\
                 #     #   #\n\
                 # $ # # . #\n\
                 #   #   . #\n\
                 ### ### ###\n\
                 #@      . #\n\
                 # $$  ### #\n\
                 ###########\n",
            )
            .expect("a level");
            let board = level.board();
            let h = Hotspots::new(board);
            let n = board.n_cells();
            let mut boxes: Vec<Cell> = picks.iter().map(|p| p.index(n) as Cell).collect();
            boxes.sort_unstable();
            boxes.dedup();
            let (moved, to) = (moved.index(boxes.len()), to.index(n) as Cell);
            prop_assume!(!boxes.contains(&to));
            let mut counts = Vec::new();
            h.blocked_counts(&boxes, &mut counts);
            prop_assert_eq!(h.count_moved_with(&boxes, &counts, moved, to), count_moved(&h, &boxes, moved, to));
        }
    }
}
