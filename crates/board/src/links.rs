//! Rooms and the passages between them: the room-connectivity feature of a position (after the
//! feature of the same name in FESS, Shoham and Schaeffer 2020).
//!
//! A **room** is a connected stretch of open floor: the squares of the board's 2x2 blocks of
//! floor, blocks joined when they lie side by side, a block with no such neighbour left out (a
//! lone 2x2 is a wide spot in a corridor, not a room). Every other floor square, and a square
//! two rooms both claim, is a **passage** square. Two rooms are *linked* when a walk from one
//! through free passage squares (and its own free squares) comes to a square of the other.
//!
//! The feature counts the links of the empty board that a position has cut: a link between
//! rooms `a` and `b` holds when every free part of `a` (its free squares, split by the boxes
//! into the pieces a walk can join) reaches `b` and every free part of `b` reaches `a`; a room
//! with no free square has no link. Boxes parked in passages cut links; a solution usually
//! opens them again, so fewer cut links is progress.
//!
//! One position costs one walk over its free squares ([`RoomLinks::cut`]). A board with at most
//! one room, or more than [`MAX_ROOMS`], has no links to cut, and every position counts 0, as
//! it does with [`RoomLinks::default`] (no rooms: for a search that does not count links).

use crate::{Board, BoxMap, Cell, NO_CELL};

/// Boards with more rooms count no links (one bit per room in a word).
pub const MAX_ROOMS: usize = 64;

/// The room of a passage square.
const PASSAGE: u8 = u8::MAX;

/// The rooms of a board and the links between them on the empty board.
#[derive(Clone, Debug, Default)]
pub struct RoomLinks {
    /// Per cell: its room, or [`PASSAGE`].
    room: Vec<u8>,
    /// The cells of every room, in cell order (a walk starts from each one not yet walked).
    room_cells: Vec<Cell>,
    rooms: usize,
    /// Per room: the rooms it is linked to on the empty board.
    base: Vec<u64>,
    /// Per cell: its floor neighbours, [`NO_CELL`] for walls.
    adjacent: Vec<[Cell; 4]>,
}

/// Working memory for [`RoomLinks::cut`], one per thread.
#[derive(Clone, Debug, Default)]
pub struct LinkScratch {
    /// Per cell: the walk that last reached it.
    walk: Vec<u32>,
    /// Per cell: the position whose walk reached it, for room squares (each is walked once).
    done: Vec<u32>,
    walk_no: u32,
    position_no: u32,
    queue: Vec<Cell>,
    /// Per room: the rooms every free part of it reaches.
    reach: Vec<u64>,
}

impl RoomLinks {
    /// Finds the rooms of `board` and their links on the empty board.
    pub fn new(board: &Board) -> RoomLinks {
        let n = board.n_cells();
        // A block: the 2x2 of floor whose top-left square is the cell.
        let right_down = |c: Cell| {
            let r = board.neighbour(c, crate::Dir::Right);
            let d = board.neighbour(c, crate::Dir::Down);
            if r == NO_CELL || d == NO_CELL {
                return None;
            }
            let rd = board.neighbour(r, crate::Dir::Down);
            (rd != NO_CELL && rd == board.neighbour(d, crate::Dir::Right)).then_some([c, r, d, rd])
        };
        let block: Vec<Option<[Cell; 4]>> = (0..n as Cell).map(right_down).collect();
        // Blocks side by side are joined (union-find over top-left squares).
        let mut parent: Vec<usize> = (0..n).collect();
        fn find(parent: &mut [usize], mut x: usize) -> usize {
            while parent[x] != x {
                parent[x] = parent[parent[x]];
                x = parent[x];
            }
            x
        }
        let mut joined = vec![false; n];
        for c in 0..n {
            if block[c].is_none() {
                continue;
            }
            for dir in [crate::Dir::Right, crate::Dir::Down] {
                let o = board.neighbour(c as Cell, dir);
                if o != NO_CELL && block[o as usize].is_some() {
                    joined[c] = true;
                    joined[o as usize] = true;
                    let (a, b) = (find(&mut parent, c), find(&mut parent, o as usize));
                    parent[a] = b;
                }
            }
        }
        // Number the rooms in the order of their first block; mark their squares.
        let mut number = vec![usize::MAX; n];
        let mut claim = vec![usize::MAX; n];
        let mut shared = vec![false; n];
        let mut rooms = 0;
        for c in 0..n {
            let Some(cells) = block[c].filter(|_| joined[c]) else { continue };
            let root = find(&mut parent, c);
            if number[root] == usize::MAX {
                number[root] = rooms;
                rooms += 1;
            }
            let r = number[root];
            for x in cells {
                let x = x as usize;
                if claim[x] != usize::MAX && claim[x] != r {
                    shared[x] = true;
                }
                claim[x] = r;
            }
        }
        if rooms > MAX_ROOMS {
            rooms = 0;
        }
        let room: Vec<u8> = (0..n)
            .map(|c| if rooms == 0 || shared[c] || claim[c] == usize::MAX { PASSAGE } else { claim[c] as u8 })
            .collect();
        let room_cells = (0..n as Cell).filter(|&c| room[c as usize] != PASSAGE).collect();
        let adjacent = (0..n as Cell).map(|c| *board.neighbours(c)).collect();
        let mut links = RoomLinks { room, room_cells, rooms, base: vec![0; rooms], adjacent };
        if rooms > 1 {
            let mut scratch = LinkScratch::default();
            links.base = links.linked(|_| false, &mut scratch).to_vec();
        } else {
            links.rooms = 0;
        }
        links
    }

    /// The number of rooms (0 when the board has at most one, or too many to count links).
    pub fn rooms(&self) -> usize {
        self.rooms
    }

    /// The room of `cell`, or `None` for a passage square.
    pub fn room_of(&self, cell: Cell) -> Option<usize> {
        let r = self.room[cell as usize];
        (r != PASSAGE && self.rooms > 0).then_some(r as usize)
    }

    /// The links of the empty board: pairs of linked rooms.
    pub fn base_links(&self) -> u32 {
        self.base.iter().map(|m| m.count_ones()).sum::<u32>() / 2
    }

    /// How many links of the empty board the position with `boxes` has cut.
    #[inline]
    pub fn cut(&self, boxes: &BoxMap, scratch: &mut LinkScratch) -> u32 {
        if self.rooms == 0 {
            return 0;
        }
        let linked = self.linked(|c| boxes.is_box(c), scratch);
        let mut cut = 0;
        for (a, (&now, &base)) in linked.iter().zip(&self.base).enumerate() {
            // Symmetric: a link holds only if each side reaches the other.
            let mut held = now;
            let mut rest = now;
            while rest != 0 {
                let b = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                if linked[b] >> a & 1 == 0 {
                    held &= !(1 << b);
                }
            }
            cut += (base & !held).count_ones();
        }
        cut / 2
    }

    /// Per room: the rooms every free part of it reaches (none for a room with no free square).
    fn linked<'s>(&self, is_box: impl Fn(Cell) -> bool, s: &'s mut LinkScratch) -> &'s [u64] {
        let n = self.room.len();
        if s.walk.len() != n {
            *s = LinkScratch { walk: vec![0; n], done: vec![0; n], ..LinkScratch::default() };
        }
        s.position_no = s.position_no.wrapping_add(1);
        if s.position_no == 0 {
            s.done.fill(0);
            s.position_no = 1;
        }
        s.reach.clear();
        s.reach.resize(self.rooms, !0);
        let mut free = 0u64;
        for &start in &self.room_cells {
            if s.done[start as usize] == s.position_no || is_box(start) {
                continue;
            }
            let own = self.room[start as usize];
            s.walk_no = s.walk_no.wrapping_add(1);
            if s.walk_no == 0 {
                s.walk.fill(0);
                s.walk_no = 1;
            }
            let mut seen = 0u64;
            s.queue.clear();
            s.queue.push(start);
            s.walk[start as usize] = s.walk_no;
            s.done[start as usize] = s.position_no;
            while let Some(c) = s.queue.pop() {
                for &o in &self.adjacent[c as usize] {
                    if o == NO_CELL {
                        continue;
                    }
                    let r = self.room[o as usize];
                    if r != PASSAGE && r != own {
                        seen |= 1 << r;
                        continue;
                    }
                    if s.walk[o as usize] == s.walk_no || is_box(o) {
                        continue;
                    }
                    s.walk[o as usize] = s.walk_no;
                    if r == own {
                        s.done[o as usize] = s.position_no;
                    }
                    s.queue.push(o);
                }
            }
            s.reach[own as usize] &= seen;
            free |= 1 << own;
        }
        for (r, reach) in s.reach.iter_mut().enumerate() {
            if free >> r & 1 == 0 {
                *reach = 0;
            } else {
                *reach &= free;
            }
        }
        &s.reach
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Level;

    /// Two rooms joined by a corridor of three squares, and a pocket of floor off the corridor.
    const TWO_ROOMS: &str = "\
##########
#@ #######
#  #######
#  ###   #
#    $   #
####.#   #
##########
";

    fn cut_with(level: &Level, links: &RoomLinks, boxes: &[(usize, usize)]) -> u32 {
        let board = level.board();
        let cells: Vec<Cell> = boxes.iter().map(|&(x, y)| board.cell(x, y).unwrap()).collect();
        let mut map = BoxMap::new(board.n_cells());
        map.set_all(&cells);
        links.cut(&map, &mut LinkScratch::default())
    }

    #[test]
    fn two_rooms_and_their_link() {
        let level = Level::parse(TWO_ROOMS).unwrap();
        let links = RoomLinks::new(level.board());
        assert_eq!(links.rooms(), 2);
        assert_eq!(links.base_links(), 1);
        let board = level.board();
        assert_eq!(links.room_of(board.cell(1, 1).unwrap()), Some(0));
        assert_eq!(links.room_of(board.cell(7, 4).unwrap()), Some(1));
        assert_eq!(links.room_of(board.cell(4, 4).unwrap()), None);
        // Nothing in the way; a box in the passage; a box in a room's corner.
        assert_eq!(cut_with(&level, &links, &[]), 0);
        assert_eq!(cut_with(&level, &links, &[(4, 4)]), 1);
        assert_eq!(cut_with(&level, &links, &[(8, 3)]), 0);
        // A box off the passage (the pocket below it) cuts nothing.
        assert_eq!(cut_with(&level, &links, &[(4, 5)]), 0);
    }

    #[test]
    fn a_room_split_by_boxes_keeps_a_link_only_if_every_part_reaches() {
        let level = Level::parse(TWO_ROOMS).unwrap();
        let links = RoomLinks::new(level.board());
        // Boxes across the right room cut its far column off from the passage.
        assert_eq!(cut_with(&level, &links, &[(7, 3), (7, 4), (7, 5)]), 1);
        // A room full of boxes has no link.
        let full: Vec<(usize, usize)> = (1..3).flat_map(|x| (1..5).map(move |y| (x, y))).collect();
        assert_eq!(cut_with(&level, &links, &full), 1);
    }

    #[test]
    fn corridors_and_lone_blocks_are_no_rooms() {
        let level = Level::parse("#######\n#@ $ .#\n#######\n").unwrap();
        assert_eq!(RoomLinks::new(level.board()).rooms(), 0);
        // A lone 2x2 wide spot in a corridor is no room; one room alone has no links.
        let level = Level::parse("#########\n###  ####\n#@ $  .##\n#########\n").unwrap();
        assert_eq!(RoomLinks::new(level.board()).rooms(), 0);
        let level = Level::parse("########\n#@   ###\n#  $  .#\n#######\n").unwrap();
        let links = RoomLinks::new(level.board());
        assert_eq!(links.rooms(), 0);
        assert_eq!(cut_with(&level, &links, &[(5, 2)]), 0);
        // No rooms at all: what a search that does not count links holds.
        assert_eq!(RoomLinks::default().cut(&BoxMap::new(4), &mut LinkScratch::default()), 0);
    }
}
