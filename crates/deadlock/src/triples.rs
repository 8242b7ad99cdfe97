//! Deadlock tables for three boxes on small boards, computed before the search by retrograde
//! analysis, for the forward search (the three-box form of [`crate::pairs`]; the backward
//! search has no mirror table: this one measured neutral, see `PushConfig::triple_deadlocks`).
//!
//! Take three boxes alone on the board. From every position with all three on goals (any
//! three goals, the player anywhere), pull them back in every way the rules allow; every
//! three-box position reached can still be finished, and a set of three squares never reached
//! with the player anywhere cannot. A position of the whole level in which three boxes stand
//! on such squares is dead too: the level's solution, with the pushes of the other boxes left
//! out, would finish the three (taking boxes away never makes a push illegal).
//!
//! Unlike the pair table this one does not tell the player's areas apart: a triple is dead
//! only when no area of it is alive, which keeps the table one bit per triple. Only squares a
//! lone box can still push to a goal count ([`Board::is_push_dead`] false), and boards with
//! more of them than [`MAX_LIVE_CELLS`] get no table (the triples grow as the cube).

use std::collections::HashSet;
use std::hash::BuildHasherDefault;

use bisolve_board::Dir;
use bisolve_board::PassThrough;
use bisolve_board::{Board, Cell, NO_CELL};
use bisolve_board::{BoxMap, Reach};

/// Boards with more live squares than this get no table.
pub const MAX_LIVE_CELLS: usize = 100;

/// The retrograde analysis gives up (and the level gets no table) past this many positions.
const MAX_POSITIONS: usize = 2_000_000;

const NONE: u16 = u16::MAX;

/// The triple table of one board.
#[derive(Debug, Clone)]
pub struct TripleTable {
    /// Per cell: its index among the live squares, or `NONE`.
    live: Vec<u16>,
    /// The number of live squares.
    l: usize,
    /// One bit per triple of live squares `i < j < k`, at `(i * l + j) * l + k`: dead.
    dead: Vec<u64>,
    n_dead: usize,
}

impl TripleTable {
    /// Builds the table, or `None` when the board has more than [`MAX_LIVE_CELLS`] live
    /// squares, fewer than three boxes, or too many positions.
    pub fn new(board: &Board) -> Option<TripleTable> {
        let n = board.n_cells();
        let mut live = vec![NONE; n];
        let mut l = 0;
        for c in 0..n as Cell {
            if !board.is_push_dead(c) {
                live[c as usize] = l as u16;
                l += 1;
            }
        }
        if l > MAX_LIVE_CELLS || board.goals().len() < 3 || l < 3 {
            return None;
        }
        let mut table = TripleTable { live, l, dead: vec![0u64; (l * l * l).div_ceil(64)], n_dead: 0 };
        // Mark the triples reached alive, then turn the marks into dead bits.
        for t in Retrograde::new(board).run()? {
            let bit = table.bit(t[0], t[1], t[2])?;
            table.dead[bit / 64] |= 1 << (bit % 64);
        }
        for x in 0..l {
            for y in x + 1..l {
                for z in y + 1..l {
                    let bit = (x * l + y) * l + z;
                    table.dead[bit / 64] ^= 1 << (bit % 64);
                    table.n_dead += usize::from(table.dead[bit / 64] & (1 << (bit % 64)) != 0);
                }
            }
        }
        Some(table)
    }

    /// Triples of live squares the table calls dead.
    pub fn n_dead(&self) -> usize {
        self.n_dead
    }

    /// True if boxes on `a`, `b` and `c` (three different squares), alone on the board, can
    /// never all reach goals, wherever the player is. False when any of them is not a live
    /// square (the table says nothing about those).
    #[inline]
    pub fn is_dead(&self, a: Cell, b: Cell, c: Cell) -> bool {
        self.bit(a, b, c).is_some_and(|bit| self.dead[bit / 64] & (1 << (bit % 64)) != 0)
    }

    /// The bit of three different live squares, in any order.
    #[inline]
    fn bit(&self, a: Cell, b: Cell, c: Cell) -> Option<usize> {
        let mut i = [self.live[a as usize], self.live[b as usize], self.live[c as usize]];
        if i.contains(&NONE) {
            return None;
        }
        i.sort_unstable();
        Some((i[0] as usize * self.l + i[1] as usize) * self.l + i[2] as usize)
    }
}

/// The breadth-first walk backwards from the finished triples.
struct Retrograde<'a> {
    board: &'a Board,
    boxes: BoxMap,
    reach: Reach,
    child_reach: Reach,
}

/// Three box cells, ascending.
type Triple = [Cell; 3];

/// A position's key for the seen set, mixed (splitmix64's finalizer) for the pass-through
/// hasher.
fn key(t: Triple, player: Cell) -> u64 {
    let mut z = u64::from(t[0]) | u64::from(t[1]) << 16 | u64::from(t[2]) << 32 | u64::from(player) << 48;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

impl<'a> Retrograde<'a> {
    fn new(board: &'a Board) -> Retrograde<'a> {
        let n = board.n_cells();
        Retrograde { board, boxes: BoxMap::new(n), reach: Reach::new(n), child_reach: Reach::new(n) }
    }

    /// The triples reached (once per area of the player they were reached in), or `None`
    /// past [`MAX_POSITIONS`] positions.
    fn run(mut self) -> Option<Vec<Triple>> {
        let board = self.board;
        let n = board.n_cells();
        let targets = board.goals();
        let mut seen: HashSet<u64, BuildHasherDefault<PassThrough>> = HashSet::default();
        let mut queue: Vec<(Triple, Cell)> = Vec::new();
        let mut marked = vec![false; n];
        for (x, &a) in targets.iter().enumerate() {
            for (y, &b) in targets.iter().enumerate().skip(x + 1) {
                for &c in &targets[y + 1..] {
                    let mut t = [a, b, c];
                    t.sort_unstable();
                    self.boxes.set_all(&t);
                    // One position per area of free floor around the three.
                    marked.fill(false);
                    for p in 0..n as Cell {
                        if self.boxes.is_box(p) || marked[p as usize] {
                            continue;
                        }
                        let min = self.reach.fill(board, &self.boxes, p);
                        for q in self.reach.cells() {
                            marked[q as usize] = true;
                        }
                        if seen.insert(key(t, min)) {
                            queue.push((t, min));
                        }
                    }
                    self.boxes.clear_all(&t);
                }
            }
        }
        let mut head = 0;
        let mut children = Vec::new();
        while head < queue.len() {
            if seen.len() > MAX_POSITIONS {
                return None;
            }
            let (t, player) = queue[head];
            head += 1;
            children.clear();
            self.moves(t, player, &mut children);
            for &(child, min) in &children {
                if seen.insert(key(child, min)) {
                    queue.push((child, min));
                }
            }
        }
        Some(queue.into_iter().map(|(t, _)| t).collect())
    }

    /// The positions one pull leads to, each with its normalized player.
    fn moves(&mut self, t: Triple, player: Cell, out: &mut Vec<(Triple, Cell)>) {
        let board = self.board;
        self.boxes.set_all(&t);
        self.reach.fill(board, &self.boxes, player);
        for (i, &b) in t.iter().enumerate() {
            for d in Dir::ALL {
                // The player on `to = b + d` steps on to `beyond = b + 2d`; the box follows.
                let to = board.neighbour(b, d);
                if to == NO_CELL || !self.reach.contains(to) {
                    continue;
                }
                let beyond = board.neighbour(to, d);
                if beyond == NO_CELL || self.boxes.is_box(beyond) {
                    continue;
                }
                let mut child = t;
                child[i] = to;
                self.boxes.move_box(b, to);
                let min = self.child_reach.fill(board, &self.boxes, beyond);
                self.boxes.move_box(to, b);
                child.sort_unstable();
                out.push((child, min));
            }
        }
        self.boxes.clear_all(&t);
    }
}
