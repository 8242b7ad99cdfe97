//! Goal rooms and their packing orders, for goal macros.
//!
//! A goal room is an area of the board that holds goals and no box at the start, joined to the
//! rest through a few entrance squares; a box only ever enters it by arriving on an entrance
//! `E` from outside and being pushed from there into the room's square `I` next to `E` by a
//! player on the square `O` on the other side of `E`. Two kinds are found:
//!
//! - **One entrance**: the floor without `E` falls apart and the part on one side (the room)
//!   holds goals, no box and not the player. `E` has exactly one neighbour in the room, and
//!   a box may arrive on it from `O` or from the side.
//! - **Several entrances** (up to [`MAX_ENTRANCES`], [`GoalRooms::new`]'s `several`): the
//!   floor is cut at its corridor squares (two opposite floor neighbours, walls on the other
//!   two sides; not goals), and a part that holds goals and no box, with at least two of
//!   those squares around it, is a room entered through each of them. The player may start
//!   inside: it can leave by another entrance. The single-entrance rooms are taken first; a
//!   room of this kind never overlaps one.
//!
//! The packing order is found ahead of the search by taking boxes out of the full room one at
//! a time: the box that can be brought from an entrance to its goal with all the others
//! already in place is filled last (the one nearest an entrance, when several can), and so on.
//! Each step keeps, for each entrance, the path it found from there (if any): the pushes that
//! take a box from `E` (player on `O`) to the next goal of the order, with the earlier goals
//! filled and nothing else in the room, ending with the player able to walk out again (unless
//! the room holds every goal and this is the last box). A room for which the greedy choice
//! gets stuck has no order, and no macros.
//!
//! The forward search uses them as goal macros: a push that brings a box onto an entrance
//! while the room holds exactly the first `j` goals of its order, after which the player can
//! walk to `O`, is continued along that entrance's path `j` to goal `j`. The paths of a room
//! with one entrance hold whatever stands outside (the player walks only in the room and
//! behind the box); those of a room with several were found with nothing outside, where the
//! player may walk out of one entrance and in by another, so the search checks them push by
//! push with the boxes it has. Every macro is a sequence of legal pushes, so states reached
//! by macros are real states; what macros can cost is completeness (a room that needs a box
//! parked inside, or another order), which is why the search that generates only macros when
//! it can (the goal cut) never claims a level unsolvable on its own.
//!
//! A macro move is stored as its goal and the direction of its first push (onto the
//! entrance). For a room with several entrances the direction must name the entrance, so at
//! each step only the first entrance of each direction with a path gets macros
//! ([`GoalRoom::entrance_for`]).

use std::collections::VecDeque;

use crate::board::{Board, Cell, NO_CELL};
use crate::dir::Dir;
use crate::moves::{pushes_along, Push};
use crate::reach::{BoxMap, Reach};
use crate::state::State;

/// Boards with more floor cells get no rooms (finding entrances takes quadratic time).
pub const MAX_BOARD_CELLS: usize = 3000;
/// Rooms with more cells are skipped (the path search is over box square x player region).
pub const MAX_ROOM_CELLS: usize = 256;
/// Rooms with more entrances are skipped.
pub const MAX_ENTRANCES: usize = 6;

const NONE: u16 = u16::MAX;

/// A way into a goal room.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entrance {
    /// The entrance square `E` (outside the room).
    pub cell: Cell,
    /// The square `O` outside the entrance the player pushes from.
    pub outside: Cell,
    /// The direction from `O` over the entrance into the room.
    pub dir: Dir,
}

/// One goal room with its packing order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GoalRoom {
    entrances: Vec<Entrance>,
    cells: Vec<Cell>,
    order: Vec<Cell>,
    /// Per fill step, per entrance: the pushes after the one onto the entrance, if any.
    paths: Vec<Vec<Option<Vec<Dir>>>>,
}

impl GoalRoom {
    /// The entrances, the first one for a room with a single entrance.
    pub fn entrances(&self) -> &[Entrance] {
        &self.entrances
    }

    /// True for a room with one entrance, whose macros need no check of what stands outside.
    pub fn single_entrance(&self) -> bool {
        self.entrances.len() == 1
    }

    /// The squares of the room (without the entrances), ascending.
    pub fn cells(&self) -> &[Cell] {
        &self.cells
    }

    /// The room's goals in the order they are filled.
    pub fn order(&self) -> &[Cell] {
        &self.order
    }

    /// The directions of the pushes that take the box of step `j` from entrance `e` to
    /// `order()[j]`, the player starting on the entrance's `O`; `None` when there is no way
    /// from that entrance.
    pub fn path(&self, j: usize, e: usize) -> Option<&[Dir]> {
        self.paths.get(j)?.get(e)?.as_deref()
    }

    /// The entrance whose macro of step `j` starts with a push in `dir`: the only entrance of
    /// a room with one, else the first entrance facing `dir` with a path for step `j`.
    pub fn entrance_for(&self, j: usize, dir: Dir) -> Option<usize> {
        if self.single_entrance() {
            return self.path(j, 0).map(|_| 0);
        }
        (0..self.entrances.len()).find(|&e| self.entrances[e].dir == dir && self.path(j, e).is_some())
    }

    /// The fill step the room is at: `Some(j)` when it holds boxes on exactly the first `j`
    /// goals of its order and nothing else, with goals left to fill; `None` otherwise.
    pub fn next_step(&self, is_box: impl Fn(Cell) -> bool) -> Option<usize> {
        let j = self.order.iter().take_while(|&&g| is_box(g)).count();
        if j == self.order.len() {
            return None;
        }
        let inside = self.cells.iter().filter(|&&c| is_box(c)).count();
        (inside == j).then_some(j)
    }

    /// The pushes of the macro of step `j` through entrance `e` after the box has arrived on
    /// the entrance: the player walks to `O` and pushes it along the path to `order()[j]`
    /// (nothing when there is no such path).
    pub fn path_pushes(&self, board: &Board, j: usize, e: usize, out: &mut Vec<Push>) {
        if let Some(path) = self.path(j, e) {
            pushes_along(board, self.entrances[e].cell, path, out);
        }
    }

    /// The player's square after the macro of step `j` through entrance `e`: behind the box's
    /// last push.
    pub fn player_after(&self, board: &Board, j: usize, e: usize) -> Cell {
        let entrance = &self.entrances[e];
        let last = self.path(j, e).and_then(|p| p.last()).copied().unwrap_or(entrance.dir);
        board.neighbour(self.order[j], last.opposite())
    }
}

/// The goal rooms of a level, with lookups by square.
#[derive(Clone, Debug, Default)]
pub struct GoalRooms {
    rooms: Vec<GoalRoom>,
    /// Per cell: the room whose entrance it is, and which entrance.
    entrance_of: Vec<(u16, u16)>,
    /// Per cell: the room holding it, and the fill step of a goal there.
    room_of: Vec<u16>,
    step_of: Vec<u16>,
}

impl GoalRooms {
    /// Finds the goal rooms of a level and their packing orders: those with one entrance,
    /// and with `several` also those with several (see the module docs).
    pub fn new(board: &Board, start: &State, several: bool) -> GoalRooms {
        let n = board.n_cells();
        let mut rooms = GoalRooms {
            rooms: Vec::new(),
            entrance_of: vec![(NONE, NONE); n],
            room_of: vec![NONE; n],
            step_of: vec![NONE; n],
        };
        if n > MAX_BOARD_CELLS || n == 0 {
            return rooms;
        }
        let mut candidates = candidates(board, start);
        // Rooms with more goals first (a room nested in a bigger one loses to it), then the
        // smallest area for the same goals (the entrance nearest them).
        candidates.sort_by_key(|c| (std::cmp::Reverse(c.goals), c.cells.len(), c.entrances[0].cell));
        let mut taken = vec![false; n];
        for c in candidates {
            rooms.take(board, c, &mut taken);
        }
        if several {
            for c in corridor_rooms(board, start) {
                rooms.take(board, c, &mut taken);
            }
        }
        rooms
    }

    /// Adds the room `c` unless it overlaps one taken or has no packing order.
    fn take(&mut self, board: &Board, c: Candidate, taken: &mut [bool]) {
        let squares = || c.entrances.iter().flat_map(|e| [e.cell, e.outside]).chain(c.cells.iter().copied());
        if squares().any(|x| taken[x as usize]) {
            return;
        }
        let Some((order, paths)) = packing_order(board, &c) else {
            return;
        };
        let id = self.rooms.len() as u16;
        for (k, e) in c.entrances.iter().enumerate() {
            taken[e.cell as usize] = true;
            self.entrance_of[e.cell as usize] = (id, k as u16);
        }
        for &x in &c.cells {
            taken[x as usize] = true;
            self.room_of[x as usize] = id;
        }
        for (j, &g) in order.iter().enumerate() {
            self.step_of[g as usize] = j as u16;
        }
        self.rooms.push(GoalRoom { entrances: c.entrances, cells: c.cells, order, paths });
    }

    /// The rooms found.
    pub fn rooms(&self) -> &[GoalRoom] {
        &self.rooms
    }

    /// True if the level has no room with a packing order.
    pub fn is_empty(&self) -> bool {
        self.rooms.is_empty()
    }

    /// The room and entrance `cell` is, when a push in `dir` onto it comes from outside the
    /// room: any direction but the one out of it for a room with one entrance, the
    /// entrance's direction for one with several (whose entrances are corridor squares).
    #[inline]
    pub fn entered(&self, cell: Cell, dir: Dir) -> Option<(&GoalRoom, usize)> {
        let (id, e) = *self.entrance_of.get(cell as usize)?;
        let room = self.rooms.get(id as usize)?;
        let entrance = room.entrances.get(e as usize)?;
        let enters =
            if room.single_entrance() { entrance.dir != dir.opposite() } else { entrance.dir == dir };
        enters.then_some((room, e as usize))
    }

    /// The room and fill step of a goal in a room's order.
    pub fn step_of(&self, goal: Cell) -> Option<(&GoalRoom, usize)> {
        let id = *self.room_of.get(goal as usize)?;
        let step = *self.step_of.get(goal as usize)?;
        let room = self.rooms.get(id as usize)?;
        (step != NONE).then_some((room, step as usize))
    }
}

/// A room before its order is known.
struct Candidate {
    entrances: Vec<Entrance>,
    cells: Vec<Cell>,
    /// Goals in the room.
    goals: usize,
    /// The room holds every goal of the level.
    all_goals: bool,
}

impl Candidate {
    fn new(board: &Board, entrances: Vec<Entrance>, mut cells: Vec<Cell>) -> Candidate {
        let goals = cells.iter().filter(|&&c| board.is_goal(c)).count();
        cells.sort_unstable();
        Candidate { entrances, cells, goals, all_goals: goals == board.goals().len() }
    }
}

/// Every (entrance, direction) that cuts off a box-free area with goals and without the
/// player, entered through a single square.
fn candidates(board: &Board, start: &State) -> Vec<Candidate> {
    let n = board.n_cells();
    let mut is_box = vec![false; n];
    for &b in &start.boxes {
        is_box[b as usize] = true;
    }
    let mut seen = vec![u32::MAX; n];
    let mut stack = Vec::new();
    let mut out = Vec::new();
    let mut stamp = 0u32;
    for e in 0..n as Cell {
        for dir in Dir::ALL {
            let inner = board.neighbour(e, dir);
            let outside = board.neighbour(e, dir.opposite());
            if inner == NO_CELL || outside == NO_CELL || board.is_goal(e) {
                continue;
            }
            // The area on the inner side of `e`, without `e`.
            stamp += 1;
            seen[e as usize] = stamp;
            seen[inner as usize] = stamp;
            stack.clear();
            stack.push(inner);
            let mut cells = Vec::new();
            let mut ok = true;
            while let Some(c) = stack.pop() {
                cells.push(c);
                if is_box[c as usize] || c == start.player || cells.len() > MAX_ROOM_CELLS {
                    ok = false;
                    break;
                }
                for &m in board.neighbours(c) {
                    if m != NO_CELL && seen[m as usize] != stamp {
                        seen[m as usize] = stamp;
                        stack.push(m);
                    }
                }
            }
            // Not cut off (the outside square is in it), or entered from the side too.
            // (A completed fill stamped exactly `e` and the area's cells.)
            let in_area = |m: Cell| m != NO_CELL && seen[m as usize] == stamp;
            let side_in = dir.perpendicular().iter().any(|&p| in_area(board.neighbour(e, p)));
            if !ok || in_area(outside) || side_in || !cells.iter().any(|&c| board.is_goal(c)) {
                continue;
            }
            out.push(Candidate::new(board, vec![Entrance { cell: e, outside, dir }], cells));
        }
    }
    out
}

/// The rooms with several entrances: the parts the floor falls into when its corridor squares
/// (not goals) are taken out, that hold goals and no box, with two to [`MAX_ENTRANCES`]
/// corridor squares next to them. A corridor square with both neighbours in one part belongs
/// to it.
fn corridor_rooms(board: &Board, start: &State) -> Vec<Candidate> {
    let n = board.n_cells();
    // The direction along a corridor square, or `None`.
    let along = |c: Cell| -> Option<Dir> {
        if board.is_goal(c) {
            return None;
        }
        let open = |d: Dir| board.neighbour(c, d) != NO_CELL;
        [Dir::Right, Dir::Down]
            .into_iter()
            .find(|&d| open(d) && open(d.opposite()) && d.perpendicular().iter().all(|&p| !open(p)))
    };
    let corridor: Vec<Option<Dir>> = (0..n as Cell).map(along).collect();
    let mut part = vec![NONE; n];
    let mut parts: Vec<Vec<Cell>> = Vec::new();
    for s in 0..n as Cell {
        if corridor[s as usize].is_some() || part[s as usize] != NONE {
            continue;
        }
        let id = parts.len() as u16;
        let mut cells = vec![s];
        part[s as usize] = id;
        let mut k = 0;
        while k < cells.len() {
            let c = cells[k];
            k += 1;
            for &m in board.neighbours(c) {
                if m != NO_CELL && corridor[m as usize].is_none() && part[m as usize] == NONE {
                    part[m as usize] = id;
                    cells.push(m);
                }
            }
        }
        parts.push(cells);
    }
    // Corridor squares between two squares of one part are inside it.
    let mut entrances: Vec<Vec<Entrance>> = vec![Vec::new(); parts.len()];
    for c in 0..n as Cell {
        let Some(d) = corridor[c as usize] else { continue };
        let (a, b) = (board.neighbour(c, d.opposite()), board.neighbour(c, d));
        let (pa, pb) = (part[a as usize], part[b as usize]);
        if pa != NONE && pa == pb {
            parts[pa as usize].push(c);
            continue;
        }
        // An entrance of each part beside it, entered from the other side.
        if pa != NONE {
            entrances[pa as usize].push(Entrance { cell: c, outside: b, dir: d.opposite() });
        }
        if pb != NONE {
            entrances[pb as usize].push(Entrance { cell: c, outside: a, dir: d });
        }
    }
    let is_box = |c: Cell| start.boxes.binary_search(&c).is_ok();
    parts
        .into_iter()
        .zip(entrances)
        .filter(|(cells, ents)| {
            (2..=MAX_ENTRANCES).contains(&ents.len())
                && cells.len() <= MAX_ROOM_CELLS
                && cells.iter().any(|&c| board.is_goal(c))
                && !cells.iter().any(|&c| is_box(c))
        })
        .map(|(cells, ents)| Candidate::new(board, ents, cells))
        .collect()
}

/// The fill order of a room's goals and the paths of each step from each entrance, or `None`
/// when the greedy choice gets stuck.
#[allow(clippy::type_complexity)]
fn packing_order(board: &Board, room: &Candidate) -> Option<(Vec<Cell>, Vec<Vec<Option<Vec<Dir>>>>)> {
    let n = board.n_cells();
    let mut in_room = vec![false; n];
    for &c in &room.cells {
        in_room[c as usize] = true;
    }
    // Walking distance from the nearest entrance, to prefer the goal nearest one as the last.
    let mut dist = vec![u32::MAX; n];
    let mut queue: VecDeque<Cell> = room.entrances.iter().map(|e| e.cell).collect();
    for e in &room.entrances {
        dist[e.cell as usize] = 0;
    }
    while let Some(c) = queue.pop_front() {
        for &m in board.neighbours(c) {
            if m != NO_CELL && in_room[m as usize] && dist[m as usize] == u32::MAX {
                dist[m as usize] = dist[c as usize] + 1;
                queue.push_back(m);
            }
        }
    }
    let mut filled: Vec<Cell> = room.cells.iter().copied().filter(|&c| board.is_goal(c)).collect();
    filled.sort_by_key(|&g| (dist[g as usize], g));
    let k = filled.len();
    let m = room.entrances.len();
    let mut order_rev = Vec::with_capacity(k);
    let mut paths_rev = Vec::with_capacity(k);
    let mut search = BoxPath::new(board, room, &in_room);
    while !filled.is_empty() {
        let need_exit = filled.len() < k || !room.all_goals;
        // The first goal (nearest an entrance) some entrance has a path to; then the paths
        // from the other entrances to it.
        let found = (0..filled.len()).find_map(|t| {
            let g = filled[t];
            let others: Vec<Cell> = filled.iter().copied().filter(|&x| x != g).collect();
            (0..m)
                .find_map(|e| search.find(&others, e, g, need_exit).map(|path| (t, e, others.clone(), path)))
        });
        let (t, first, others, path) = found?;
        let g = filled.remove(t);
        let paths: Vec<Option<Vec<Dir>>> = (0..m)
            .map(|e| match e.cmp(&first) {
                std::cmp::Ordering::Less => None,
                std::cmp::Ordering::Equal => Some(path.clone()),
                std::cmp::Ordering::Greater => search.find(&others, e, g, need_exit),
            })
            .collect();
        order_rev.push(g);
        paths_rev.push(paths);
    }
    order_rev.reverse();
    paths_rev.reverse();
    Some((order_rev, paths_rev))
}

/// Breadth-first search for pushes that take one box from an entrance (player outside) to a
/// goal of the room, with some boxes fixed in the room. The player's region is the ordinary
/// flood fill over the whole board with nothing outside the room: for a room with one
/// entrance walking outside never opens a way to another square of the room; for one with
/// several it may, and the search checks such paths again with its boxes.
struct BoxPath<'a> {
    board: &'a Board,
    room: &'a Candidate,
    in_room: &'a [bool],
    boxes: BoxMap,
    reach: Reach,
}

impl<'a> BoxPath<'a> {
    fn new(board: &'a Board, room: &'a Candidate, in_room: &'a [bool]) -> BoxPath<'a> {
        let n = board.n_cells();
        BoxPath { board, room, in_room, boxes: BoxMap::new(n), reach: Reach::new(n) }
    }

    /// Marks the player's region from `from` with the moving box on `b`; returns its smallest
    /// cell.
    fn fill(&mut self, from: Cell, b: Cell) -> Cell {
        self.boxes.set(b, 0);
        let min = self.reach.fill(self.board, &self.boxes, from);
        self.boxes.clear(b);
        min
    }

    fn reached(&self, c: Cell) -> bool {
        c != NO_CELL && self.reach.contains(c)
    }

    /// The pushes after the one onto entrance `e`, or `None` if the box cannot get from there
    /// to `goal` (or the player cannot walk out afterwards, when `need_exit`).
    fn find(&mut self, others: &[Cell], e: usize, goal: Cell, need_exit: bool) -> Option<Vec<Dir>> {
        for &c in others {
            self.boxes.set(c, 0);
        }
        let result = self.search(self.room.entrances[e], goal, need_exit);
        self.boxes.clear_all(others);
        result
    }

    fn search(&mut self, from: Entrance, goal: Cell, need_exit: bool) -> Option<Vec<Dir>> {
        let board = self.board;
        let (entrance, outside) = (from.cell, from.outside);
        // Nodes: (box, player cell, parent node, push that led here).
        let mut nodes: Vec<(Cell, Cell, usize, Dir)> = vec![(entrance, outside, usize::MAX, from.dir)];
        let mut seen = std::collections::HashSet::new();
        seen.insert((entrance, self.fill(outside, entrance)));
        let mut pushes = Vec::new();
        let mut next = 0;
        while next < nodes.len() {
            let (b, p, _, _) = nodes[next];
            self.fill(p, b);
            if b == goal {
                if !need_exit || self.room.entrances.iter().any(|e| self.reached(e.cell)) {
                    let mut path = Vec::new();
                    let mut at = next;
                    while nodes[at].2 != usize::MAX {
                        path.push(nodes[at].3);
                        at = nodes[at].2;
                    }
                    path.reverse();
                    return Some(path);
                }
                next += 1;
                continue;
            }
            pushes.clear();
            for d in Dir::ALL {
                let to = board.neighbour(b, d);
                let behind = board.neighbour(b, d.opposite());
                if to != NO_CELL
                    && self.in_room[to as usize]
                    && !self.boxes.is_box(to)
                    && self.reached(behind)
                {
                    pushes.push((to, d));
                }
            }
            // The player ends on the box's old square; a child is new when its box square and
            // player region are.
            for &(to, d) in &pushes {
                let region = self.fill(b, to);
                if seen.insert((to, region)) {
                    nodes.push((to, b, next, d));
                }
            }
            next += 1;
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::Level;
    use crate::moves::{pushes_to_steps, replay, ReplayError};

    fn rooms(text: &str) -> (Level, GoalRooms) {
        let level = Level::parse(text).expect("valid level");
        let rooms = GoalRooms::new(level.board(), level.start(), true);
        (level, rooms)
    }

    #[test]
    fn a_dead_end_goal_room_is_filled_deepest_first() {
        // Three goals in a row at the end of a corridor: the deepest goal first.
        let (level, rooms) = rooms("###########\n#@ $$$ ...#\n###########\n");
        let board = level.board();
        assert_eq!(rooms.rooms().len(), 1, "{rooms:?}");
        let room = &rooms.rooms()[0];
        let xs: Vec<usize> = room.order().iter().map(|&g| board.xy(g).0).collect();
        assert_eq!(xs, vec![9, 8, 7]);
        assert_eq!(room.entrances()[0].dir, Dir::Right);
        assert!(room.single_entrance());
    }

    #[test]
    fn a_room_with_a_box_inside_is_not_a_goal_room() {
        let (_, rooms) = rooms("##########\n#@ $ #$..#\n#    #   #\n##########\n");
        assert!(rooms.is_empty());
    }

    #[test]
    fn macro_pushes_replay_on_the_level() {
        // A room entered from below through one square; a box already waits below it.
        let text = "#######\n\
                    #.  . #\n\
                    #     #\n\
                    ### ###\n\
                    #@ $$ #\n\
                    #     #\n\
                    #######\n";
        let (level, rooms) = rooms(text);
        let board = level.board();
        assert_eq!(rooms.rooms().len(), 1, "{rooms:?}");
        let room = &rooms.rooms()[0];
        let entrance = room.entrances()[0];
        assert_eq!(room.order().len(), 2);
        // Bring each box under the entrance by hand, then fill step j with the macro.
        let start = level.start();
        assert_eq!(room.next_step(|c| start.boxes.contains(&c)), Some(0));
        for j in 0..2 {
            let g = room.order()[j];
            assert_eq!(rooms.step_of(g).map(|(_, s)| s), Some(j));
            assert!(rooms.entered(entrance.cell, entrance.dir).is_some());
        }
        assert!(board.is_goal(room.order()[0]));
        // The macro is a legal push sequence from the box waiting on `O`: first onto the
        // entrance, then along the path.
        assert_eq!(board.xy(entrance.outside), (3, 4));
        assert_eq!(board.xy(entrance.cell), (3, 3));
        let mut pushes = vec![Push { from: entrance.outside, dir: entrance.dir }];
        room.path_pushes(board, 0, 0, &mut pushes);
        let mut state = start.clone();
        state.player = board.cell(3, 5).expect("floor");
        let steps = pushes_to_steps(board, &state, &pushes).expect("walks exist");
        // Every move is legal; the other box is still out, so the level is not solved yet.
        match replay(board, &state, &steps) {
            Err(ReplayError::Unsolved { pushes: p, off_goal: 1, .. }) => assert_eq!(p, pushes.len()),
            other => panic!("the macro should replay legally and leave one box out: {other:?}"),
        }
    }

    #[test]
    fn a_room_between_two_corridors_is_entered_from_both_ends() {
        // Goals in a room with a corridor square on its left and one on its right (a box on
        // each), and a way round outside.
        let text = "#############\n\
                    #           #\n\
                    #  #######  #\n\
                    #  #     #  #\n\
                    # @$ ... $  #\n\
                    #  #     #  #\n\
                    #  #######  #\n\
                    #     $     #\n\
                    #############\n";
        let (level, rooms) = rooms(text);
        assert!(GoalRooms::new(level.board(), level.start(), false).is_empty(), "two ways in");
        let board = level.board();
        assert_eq!(rooms.rooms().len(), 1, "{rooms:?}");
        let room = &rooms.rooms()[0];
        assert!(!room.single_entrance());
        let cells: Vec<(usize, usize)> = room.entrances().iter().map(|e| board.xy(e.cell)).collect();
        assert_eq!(cells, vec![(3, 4), (9, 4)]);
        assert_eq!(room.order().len(), 3);
        // A push onto an entrance enters only in the entrance's direction.
        let left = room.entrances()[0];
        assert_eq!(left.dir, Dir::Right);
        assert!(rooms.entered(left.cell, Dir::Right).is_some());
        assert!(rooms.entered(left.cell, Dir::Left).is_none());
        // The first goal can be filled from either side; both macros replay.
        for e in 0..2 {
            assert_eq!(room.entrance_for(0, room.entrances()[e].dir), Some(e));
            let ent = room.entrances()[e];
            let mut pushes = vec![Push { from: ent.outside, dir: ent.dir }];
            room.path_pushes(board, 0, e, &mut pushes);
            let behind = board.neighbour(ent.outside, ent.dir.opposite());
            let state = State::new(vec![ent.outside], behind);
            let steps = pushes_to_steps(board, &state, &pushes).expect("walks exist");
            // One box alone on a goal: the replay calls that solved.
            let stats = replay(board, &state, &steps).expect("the macro replays");
            assert_eq!(stats.pushes, pushes.len());
            let last = pushes.last().expect("pushes");
            assert_eq!(board.neighbour(last.from, last.dir), room.order()[0]);
        }
    }
}
