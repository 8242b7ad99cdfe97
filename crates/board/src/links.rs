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
    /// The cells of every room, room by room and in cell order inside a room (a walk starts
    /// from each one not yet walked).
    room_cells: Vec<Cell>,
    /// Where each room's cells start in `room_cells` (one more entry at the end).
    room_start: Vec<u32>,
    rooms: usize,
    /// Per room: the rooms it is linked to on the empty board.
    base: Vec<u64>,
    /// Per cell: its floor neighbours, [`NO_CELL`] for walls.
    adjacent: Vec<[Cell; 4]>,
    /// Per cell, for [`RoomLinks::keeps`]: the eight squares around it, clockwise from the
    /// one above ([`NO_CELL`] for a wall, or a corner square whose two sides are walls), when
    /// a box there can matter to no room but its own (see [`RoomLinks::keeps`]); `None`
    /// otherwise.
    ring: Vec<Option<[Cell; 8]>>,
    /// Per cell: which of its ring's squares lie in its own room (none for a passage square).
    own_ring: Vec<u8>,
}

/// Of the free squares around a square (bits clockwise from the one above, the sides on the
/// even bits), the run of free squares side by side that holds every free side, when there
/// is one such run; 0 when the free sides fall into several runs or there is none.
fn side_run(free: u8) -> u8 {
    const SIDES: u8 = 0b0101_0101;
    if free & SIDES == 0 {
        return 0;
    }
    if free == u8::MAX {
        return free;
    }
    // Grow the run from the first free side both ways round the ring.
    let first = (free & SIDES).trailing_zeros();
    let mut run = 1u8 << first;
    for step in [1u32, 7] {
        let mut at = first;
        loop {
            at = (at + step) % 8;
            if free >> at & 1 == 0 || run >> at & 1 != 0 {
                break;
            }
            run |= 1 << at;
        }
    }
    if free & SIDES & !run == 0 {
        run
    } else {
        0
    }
}

/// Working memory for [`RoomLinks::cut`], one per thread, and what
/// [`RoomLinks::cut_parent`] keeps of a position for [`RoomLinks::cut_child`].
#[derive(Clone, Debug, Default)]
pub struct LinkScratch {
    /// Per cell: the walk that last reached it.
    walk: Vec<u32>,
    /// Per cell: the position whose walk reached it, for room squares (each is walked once).
    done: Vec<u32>,
    walk_no: u32,
    position_no: u32,
    queue: Vec<Cell>,
    /// Per room: the rooms that every one of its free parts reaches (all rooms for a room
    /// with no free part), before the rooms without free squares are taken out.
    reach: Vec<u64>,
    /// Per room: the rooms every free part of it reaches, with the other rooms linked.
    linked: Vec<u64>,
    /// The parent position: its `reach`, its rooms with free squares, its cut links, and per
    /// cell the rooms whose walks went through it.
    parent_reach: Vec<u64>,
    parent_free: u64,
    parent_cut: u32,
    walked_by: Vec<u64>,
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
        let mut room_cells: Vec<Cell> = (0..n as Cell).filter(|&c| room[c as usize] != PASSAGE).collect();
        room_cells.sort_by_key(|&c| room[c as usize]);
        let room_start = (0..=rooms)
            .map(|r| room_cells.partition_point(|&c| (room[c as usize] as usize) < r) as u32)
            .collect();
        let adjacent: Vec<[Cell; 4]> = (0..n as Cell).map(|c| *board.neighbours(c)).collect();
        let (ring, own_ring) = (0..n as Cell).map(|c| ring_of(board, &room, c)).unzip();
        let mut links =
            RoomLinks { room, room_cells, room_start, rooms, base: vec![0; rooms], adjacent, ring, own_ring };
        if rooms > 1 {
            let mut scratch = LinkScratch::default();
            links.prepare(&mut scratch);
            let free = links.walk_rooms(|_| false, &mut scratch, links.all_rooms(), false);
            links.count_cut(&mut scratch, free);
            links.base = scratch.linked;
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
        self.prepare(scratch);
        let free = self.walk_rooms(|c| boxes.is_box(c), scratch, self.all_rooms(), false);
        self.count_cut(scratch, free)
    }

    /// [`RoomLinks::cut`] of a position whose children [`RoomLinks::cut_child`] counts next:
    /// it keeps what they need in `scratch`.
    pub fn cut_parent(&self, boxes: &BoxMap, scratch: &mut LinkScratch) -> u32 {
        if self.rooms == 0 {
            return 0;
        }
        self.prepare(scratch);
        scratch.walked_by.clear();
        scratch.walked_by.resize(self.room.len(), 0);
        let free = self.walk_rooms(|c| boxes.is_box(c), scratch, self.all_rooms(), true);
        scratch.parent_reach.clone_from(&scratch.reach);
        scratch.parent_free = free;
        scratch.parent_cut = self.count_cut(scratch, free);
        scratch.parent_cut
    }

    /// [`RoomLinks::cut`] of the child of the last [`RoomLinks::cut_parent`] position that
    /// moves a box from `from` to `to`, `boxes` holding the child's boxes. Only the rooms whose
    /// walks the move can change walk again: those whose walks went through `to`, and for
    /// `from` its own room, or for a passage square the rooms whose walks came next to it.
    pub fn cut_child(&self, boxes: &BoxMap, from: Cell, to: Cell, scratch: &mut LinkScratch) -> u32 {
        if self.rooms == 0 || self.keeps(boxes, from, to) {
            return scratch.parent_cut;
        }
        let mut changed = scratch.walked_by[to as usize];
        match self.room[from as usize] {
            PASSAGE => {
                for &o in &self.adjacent[from as usize] {
                    if o != NO_CELL {
                        changed |= scratch.walked_by[o as usize];
                    }
                }
            }
            r => changed |= 1 << r,
        }
        if changed == 0 {
            return scratch.parent_cut;
        }
        self.prepare(scratch);
        scratch.reach.clone_from(&scratch.parent_reach);
        let free = self.walk_rooms(|c| boxes.is_box(c), scratch, changed, false);
        self.count_cut(scratch, (scratch.parent_free & !changed) | free)
    }

    /// Every room, as a mask.
    fn all_rooms(&self) -> u64 {
        if self.rooms == 64 {
            u64::MAX
        } else {
            (1 << self.rooms) - 1
        }
    }

    /// Sizes `s` for the board and starts a new position.
    fn prepare(&self, s: &mut LinkScratch) {
        let n = self.room.len();
        if s.walk.len() != n {
            s.walk = vec![0; n];
            s.done = vec![0; n];
            s.walk_no = 0;
            s.position_no = 0;
        }
        s.reach.resize(self.rooms, !0);
        s.position_no = s.position_no.wrapping_add(1);
        if s.position_no == 0 {
            s.done.fill(0);
            s.position_no = 1;
        }
    }

    /// The cut links of the position whose walks `s.reach` holds, `free` its rooms with free
    /// squares.
    fn count_cut(&self, s: &mut LinkScratch, free: u64) -> u32 {
        s.linked.clear();
        s.linked.extend(
            s.reach.iter().enumerate().map(|(r, &reach)| if free >> r & 1 == 0 { 0 } else { reach & free }),
        );
        let linked = &s.linked;
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

    /// True when moving a box from `from` to `to`, `boxes` holding the boxes after the move,
    /// leaves the cut links as they were before it: a local test that may say false when
    /// they stay the same, never true when they change.
    ///
    /// It holds when each of the two squares, taken in turn (first `to` filled, then `from`
    /// emptied), has around it only walls, passage squares and squares of its own room, its
    /// free sides joined by free squares around it (so no walk needs it to get from one side
    /// to another), and, for a room square, one of those free squares in its room (so it
    /// neither makes nor ends a free part of its room). Such a square touches no other room,
    /// and no walk gains or loses a way or a room it reaches.
    fn keeps(&self, boxes: &BoxMap, from: Cell, to: Cell) -> bool {
        self.rooms == 0
            || (self.quiet(to, |c| c != from && !boxes.is_box(c)) && self.quiet(from, |c| !boxes.is_box(c)))
    }

    /// Whether filling or emptying `cell` changes no walk, squares being free where `free`
    /// says (see [`RoomLinks::keeps`]).
    #[inline]
    fn quiet(&self, cell: Cell, free: impl Fn(Cell) -> bool) -> bool {
        let Some(ring) = &self.ring[cell as usize] else { return false };
        let mut mask = 0u8;
        for (k, &c) in ring.iter().enumerate() {
            if c != NO_CELL && free(c) {
                mask |= 1 << k;
            }
        }
        let run = side_run(mask);
        run != 0 && (self.room[cell as usize] == PASSAGE || run & self.own_ring[cell as usize] != 0)
    }

    /// Walks from every free square of the rooms in `rooms` (a mask) not yet walked in this
    /// position, through the room's own free squares and the free passage squares, and sets
    /// the rooms' rows of `s.reach` to the rooms every walk touched (every room for a room
    /// with no free square). Returns which of those rooms have free squares. With `record`,
    /// marks in `s.walked_by` the rooms whose walks went through each square.
    fn walk_rooms(
        &self,
        is_box: impl Fn(Cell) -> bool,
        s: &mut LinkScratch,
        rooms: u64,
        record: bool,
    ) -> u64 {
        let mut free = 0u64;
        let mut rest = rooms;
        while rest != 0 {
            let own = rest.trailing_zeros() as u8;
            rest &= rest - 1;
            s.reach[own as usize] = !0;
            let cells = &self.room_cells
                [self.room_start[own as usize] as usize..self.room_start[own as usize + 1] as usize];
            for &start in cells {
                if s.done[start as usize] == s.position_no || is_box(start) {
                    continue;
                }
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
                    if record {
                        s.walked_by[c as usize] |= 1 << own;
                    }
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
        }
        free
    }

    /// Per room: the rooms every free part of it reaches (none for a room with no free square).
    #[cfg(test)]
    fn linked<'s>(&self, is_box: impl Fn(Cell) -> bool, s: &'s mut LinkScratch) -> &'s [u64] {
        self.prepare(s);
        let free = self.walk_rooms(is_box, s, self.all_rooms(), false);
        self.count_cut(s, free);
        &s.linked
    }
}

/// The ring of `cell` and which of its squares lie in the cell's room, for
/// [`RoomLinks::ring`]: `None` when a square around it lies in another room, or, for a
/// passage square, in any room.
fn ring_of(board: &Board, room: &[u8], cell: Cell) -> (Option<[Cell; 8]>, u8) {
    use crate::Dir::{Down, Left, Right, Up};
    let step = |c: Cell, d| if c == NO_CELL { NO_CELL } else { board.neighbour(c, d) };
    let corner = |a, b| {
        let via_a = step(step(cell, a), b);
        if via_a != NO_CELL {
            via_a
        } else {
            step(step(cell, b), a)
        }
    };
    let ring = [
        step(cell, Up),
        corner(Up, Right),
        step(cell, Right),
        corner(Right, Down),
        step(cell, Down),
        corner(Down, Left),
        step(cell, Left),
        corner(Left, Up),
    ];
    let own = room[cell as usize];
    let mut own_ring = 0u8;
    for (k, &c) in ring.iter().enumerate() {
        if c == NO_CELL {
            continue;
        }
        let r = room[c as usize];
        if r != PASSAGE && r != own {
            return (None, 0);
        }
        if r == own && own != PASSAGE {
            own_ring |= 1 << k;
        }
    }
    (Some(ring), own_ring)
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
    fn the_local_test_passes_moves_inside_a_room_and_not_across_a_passage() {
        let level = Level::parse(
            "\
##########
#@    ####
#     ####
#     #  #
#*       #
#######  #
##########
",
        )
        .unwrap();
        let links = RoomLinks::new(level.board());
        assert_eq!(links.rooms(), 2);
        let board = level.board();
        let at = |x, y| board.cell(x, y).unwrap();
        let moved = |from, to| {
            let mut map = BoxMap::new(board.n_cells());
            map.set_all(&[to]);
            links.keeps(&map, from, to)
        };
        // In the middle of the big room: nothing changes.
        assert!(moved(at(2, 2), at(3, 2)));
        // Into the passage between the rooms: it cuts the link.
        assert!(!moved(at(4, 4), at(6, 4)));
        assert_eq!(cut_with(&level, &links, &[(6, 4)]), 1);
        // Onto the room's one square beside the passage: that cuts the link too.
        assert!(!moved(at(5, 3), at(5, 4)));
        assert_eq!(cut_with(&level, &links, &[(5, 4)]), 1);
        // No rooms, nothing to keep.
        assert!(RoomLinks::default().keeps(&BoxMap::new(4), 0, 1));
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

    /// What [`RoomLinks::linked`] must give: one fresh walk from every free part of every
    /// room, through its own free squares and all the free passage squares it comes to.
    fn linked_by_walks(links: &RoomLinks, boxes: &BoxMap) -> Vec<u64> {
        let n = links.room.len();
        let mut part = vec![false; n];
        let mut reach = vec![!0u64; links.rooms];
        let mut free = 0u64;
        for &start in &links.room_cells {
            if part[start as usize] || boxes.is_box(start) {
                continue;
            }
            let own = links.room[start as usize];
            let mut walked = vec![false; n];
            let mut queue = vec![start];
            walked[start as usize] = true;
            let mut seen = 0u64;
            while let Some(c) = queue.pop() {
                if links.room[c as usize] == own {
                    part[c as usize] = true;
                }
                for &o in links.adjacent[c as usize].iter().filter(|&&o| o != NO_CELL) {
                    let r = links.room[o as usize];
                    if r != PASSAGE && r != own {
                        seen |= 1 << r;
                    } else if !walked[o as usize] && !boxes.is_box(o) {
                        walked[o as usize] = true;
                        queue.push(o);
                    }
                }
            }
            reach[own as usize] &= seen;
            free |= 1 << own;
        }
        (0..links.rooms).map(|r| if free >> r & 1 == 0 { 0 } else { reach[r] & free }).collect()
    }

    use proptest::prelude::*;

    /// Boards of up to 12 x 10 squares inside a wall, a fifth of them walls, with the player in
    /// the top-left corner and one box and goal beside it (so the board always parses).
    fn open_board() -> impl Strategy<Value = String> {
        (4usize..13, 4usize..11).prop_flat_map(|(w, h)| {
            prop::collection::vec(prop::bool::weighted(0.2), w * h).prop_map(move |walls| {
                let mut text = "#".repeat(w + 2) + "\n";
                for y in 0..h {
                    text.push('#');
                    for x in 0..w {
                        text.push(match (x, y) {
                            (0, 0) => '@',
                            (1, 0) => '*',
                            _ if walls[y * w + x] => '#',
                            _ => ' ',
                        });
                    }
                    text.push_str("#\n");
                }
                text + &"#".repeat(w + 2)
            })
        })
    }

    /// Boards of rooms: two to five rectangles of floor, 2 to 5 squares a side, in a 16 x 12
    /// field, joined in turn by corridors one square wide that bend once, with the player and
    /// a box on its goal in the first rectangle's top row.
    fn rooms_board() -> impl Strategy<Value = String> {
        let rect = (0usize..14, 0usize..10, 2usize..6, 2usize..6);
        (prop::collection::vec(rect, 2..6), prop::collection::vec(any::<bool>(), 5)).prop_map(
            |(rects, bends)| {
                let (w, h) = (16, 12);
                let mut floor = vec![vec![false; w]; h];
                let clip =
                    |(x, y, rw, rh): (usize, usize, usize, usize)| (x, y, rw.min(w - x), rh.min(h - y));
                let rects: Vec<_> = rects.into_iter().map(clip).collect();
                for &(x, y, rw, rh) in &rects {
                    for row in floor.iter_mut().skip(y).take(rh) {
                        row[x..x + rw].iter_mut().for_each(|f| *f = true);
                    }
                }
                for (k, pair) in rects.windows(2).enumerate() {
                    let ((ax, ay), (bx, by)) = ((pair[0].0, pair[0].1), (pair[1].0, pair[1].1));
                    let corner = if bends[k] { (bx, ay) } else { (ax, by) };
                    for (from, to) in [((ax, ay), corner), (corner, (bx, by))] {
                        let (x0, x1) = (from.0.min(to.0), from.0.max(to.0));
                        let (y0, y1) = (from.1.min(to.1), from.1.max(to.1));
                        for row in floor.iter_mut().take(y1 + 1).skip(y0) {
                            row[x0..=x1].iter_mut().for_each(|f| *f = true);
                        }
                    }
                }
                let (px, py) = (rects[0].0, rects[0].1);
                let mut text = "#".repeat(w + 2) + "\n";
                for (y, row) in floor.iter().enumerate() {
                    text.push('#');
                    for (x, &f) in row.iter().enumerate() {
                        text.push(match (x, y) {
                            _ if (x, y) == (px, py) => '@',
                            _ if (x, y) == (px + 1, py) => '*',
                            _ if f => ' ',
                            _ => '#',
                        });
                    }
                    text.push_str("#\n");
                }
                text + &"#".repeat(w + 2)
            },
        )
    }

    /// The distinct cells `picks` choose among `n`, in order.
    fn distinct_cells(picks: &[prop::sample::Index], n: usize) -> Vec<Cell> {
        let mut cells: Vec<Cell> = picks.iter().map(|p| p.index(n) as Cell).collect();
        cells.sort_unstable();
        cells.dedup();
        cells
    }

    /// The box map of `boxes` with the box on `from` moved to `to`, on a board of `n` cells.
    fn moved(boxes: &[Cell], from: Cell, to: Cell, n: usize) -> BoxMap {
        let after: Vec<Cell> = boxes.iter().map(|&b| if b == from { to } else { b }).collect();
        let mut map = BoxMap::new(n);
        map.set_all(&after);
        map
    }

    /// Either kind of board.
    fn any_board() -> impl Strategy<Value = String> {
        prop_oneof![open_board(), rooms_board()]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(1000))]

        /// The walks with their marks kept from position to position give what fresh walks
        /// give, for boxes anywhere.
        #[test]
        fn walks_that_reuse_their_marks_give_what_fresh_walks_give(
            text in any_board(),
            picks in prop::collection::vec(any::<prop::sample::Index>(), 0..30),
        ) {
            let level = Level::parse(&text).expect("a level");
            let board = level.board();
            let links = RoomLinks::new(board);
            prop_assume!(links.rooms() > 0);
            let mut scratch = LinkScratch::default();
            let mut boxes = Vec::new();
            let mut map = BoxMap::new(board.n_cells());
            // Boxes added one at a time, the same scratch reused, as a search does.
            for pick in picks {
                let cell = pick.index(board.n_cells()) as Cell;
                if !boxes.contains(&cell) {
                    boxes.push(cell);
                }
                map.set_all(&boxes);
                let want = linked_by_walks(&links, &map);
                prop_assert_eq!(links.linked(|c| map.is_box(c), &mut scratch), &want[..]);
            }
        }

        /// A move the local test passes leaves the cut links as they were.
        #[test]
        fn a_move_that_keeps_the_links_by_the_local_test_keeps_them(
            text in any_board(),
            picks in prop::collection::vec(any::<prop::sample::Index>(), 1..30),
            from in any::<prop::sample::Index>(),
            to in any::<prop::sample::Index>(),
        ) {
            let level = Level::parse(&text).expect("a level");
            let board = level.board();
            let links = RoomLinks::new(board);
            let n = board.n_cells();
            let boxes = distinct_cells(&picks, n);
            let (from, to) = (boxes[from.index(boxes.len())], to.index(n) as Cell);
            prop_assume!(!boxes.contains(&to));
            let mut scratch = LinkScratch::default();
            let mut map = BoxMap::new(n);
            map.set_all(&boxes);
            let before = links.cut(&map, &mut scratch);
            let map = moved(&boxes, from, to, n);
            if links.keeps(&map, from, to) {
                prop_assert_eq!(links.cut(&map, &mut scratch), before);
            }
        }

        /// A child's count from its parent's walks is the count afresh, for several children
        /// of one parent in turn.
        #[test]
        fn a_child_counted_from_its_parent_is_counted_as_afresh(
            text in any_board(),
            picks in prop::collection::vec(any::<prop::sample::Index>(), 1..30),
            moves in prop::collection::vec((any::<prop::sample::Index>(), any::<prop::sample::Index>()), 1..8),
        ) {
            let level = Level::parse(&text).expect("a level");
            let board = level.board();
            let links = RoomLinks::new(board);
            let n = board.n_cells();
            let boxes = distinct_cells(&picks, n);
            let (mut scratch, mut fresh) = (LinkScratch::default(), LinkScratch::default());
            let mut map = BoxMap::new(n);
            map.set_all(&boxes);
            let parent = links.cut_parent(&map, &mut scratch);
            prop_assert_eq!(parent, links.cut(&map, &mut fresh));
            for (from, to) in moves {
                let (from, to) = (boxes[from.index(boxes.len())], to.index(n) as Cell);
                if boxes.contains(&to) {
                    continue;
                }
                let child = moved(&boxes, from, to, n);
                prop_assert_eq!(links.cut_child(&child, from, to, &mut scratch), links.cut(&child, &mut fresh));
                // A fresh count between children, with the same scratch, changes nothing.
                links.cut(&map, &mut scratch);
            }
        }
    }
}
