//! Goal rooms and their packing orders, for goal macros.
//!
//! A goal room is an area of the board that holds goals and is joined to the rest by a single
//! entrance square `E`: the floor without `E` falls apart, and the part on one side of `E`
//! (the room) holds goals, no box and not the player. `E` has exactly one neighbour in the
//! room, `I`, and the square opposite, `O`, is outside, so a box only ever enters the room by
//! arriving on `E` from outside and being pushed from there into `I` by a player on `O`.
//!
//! The packing order is found ahead of the search by taking boxes out of the full room one at
//! a time: the box that can be brought from `E` to its goal with all the others already in
//! place is filled last (the one nearest the entrance, when several can), and so on. Each step
//! keeps the path it found: the pushes that take a box from `E` (player on `O`) to the next
//! goal of the order, with the earlier goals filled and nothing else in the room, ending with
//! the player able to walk out again (unless the room holds every goal and this is the last
//! box). A room for which the greedy choice gets stuck has no order, and no macros.
//!
//! The forward search uses them as goal macros: a push that brings a box onto `E` while the
//! room holds exactly the first `j` goals of its order, after which the player can walk to
//! `O`, is continued along path `j` to goal `j`. Every macro is a sequence of legal pushes, so states reached by macros are real
//! states; what macros can cost is completeness (a room that needs a box parked inside, or
//! another order), which is why the search that generates only macros when it can (the goal
//! cut) never claims a level unsolvable on its own.

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

const NONE: u16 = u16::MAX;

/// One goal room with its packing order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GoalRoom {
    entrance: Cell,
    outside: Cell,
    dir: Dir,
    cells: Vec<Cell>,
    order: Vec<Cell>,
    paths: Vec<Vec<Dir>>,
}

impl GoalRoom {
    /// The entrance square `E`.
    pub fn entrance(&self) -> Cell {
        self.entrance
    }

    /// The square `O` outside the entrance the player pushes from.
    pub fn outside(&self) -> Cell {
        self.outside
    }

    /// The direction from `O` over the entrance into the room.
    pub fn dir(&self) -> Dir {
        self.dir
    }

    /// The squares of the room (without the entrance), ascending.
    pub fn cells(&self) -> &[Cell] {
        &self.cells
    }

    /// The room's goals in the order they are filled.
    pub fn order(&self) -> &[Cell] {
        &self.order
    }

    /// The directions of the pushes that take the box of step `j` from the entrance to
    /// `order()[j]`, the player starting on `O`.
    pub fn path(&self, j: usize) -> &[Dir] {
        &self.paths[j]
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

    /// The pushes of the macro of step `j` after the box has arrived on the entrance: the
    /// player walks to `O` and pushes it along the path to `order()[j]`.
    pub fn path_pushes(&self, board: &Board, j: usize, out: &mut Vec<Push>) {
        pushes_along(board, self.entrance, &self.paths[j], out);
    }

    /// The player's square after the macro of step `j`: behind the box's last push.
    pub fn player_after(&self, board: &Board, j: usize) -> Cell {
        let last = *self.paths[j].last().unwrap_or(&self.dir);
        board.neighbour(self.order[j], last.opposite())
    }
}

/// The goal rooms of a level, with lookups by square.
#[derive(Clone, Debug, Default)]
pub struct GoalRooms {
    rooms: Vec<GoalRoom>,
    /// Per cell: the room whose entrance it is.
    entrance_of: Vec<u16>,
    /// Per cell: the room holding it, and the fill step of a goal there.
    room_of: Vec<u16>,
    step_of: Vec<u16>,
}

impl GoalRooms {
    /// Finds the goal rooms of a level and their packing orders.
    pub fn new(board: &Board, start: &State) -> GoalRooms {
        let n = board.n_cells();
        let mut rooms = GoalRooms {
            rooms: Vec::new(),
            entrance_of: vec![NONE; n],
            room_of: vec![NONE; n],
            step_of: vec![NONE; n],
        };
        if n > MAX_BOARD_CELLS || n == 0 {
            return rooms;
        }
        let mut candidates = candidates(board, start);
        // Rooms with more goals first (a room nested in a bigger one loses to it), then the
        // smallest area for the same goals (the entrance nearest them).
        candidates.sort_by_key(|c| (std::cmp::Reverse(c.goals), c.cells.len(), c.entrance));
        let mut taken = vec![false; n];
        for c in candidates {
            if taken[c.entrance as usize]
                || taken[c.outside as usize]
                || c.cells.iter().any(|&x| taken[x as usize])
            {
                continue;
            }
            let Some((order, paths)) = packing_order(board, &c) else {
                continue;
            };
            taken[c.entrance as usize] = true;
            for &x in &c.cells {
                taken[x as usize] = true;
            }
            let id = rooms.rooms.len() as u16;
            rooms.entrance_of[c.entrance as usize] = id;
            for &x in &c.cells {
                rooms.room_of[x as usize] = id;
            }
            for (j, &g) in order.iter().enumerate() {
                rooms.step_of[g as usize] = j as u16;
            }
            rooms.rooms.push(GoalRoom {
                entrance: c.entrance,
                outside: c.outside,
                dir: c.dir,
                cells: c.cells,
                order,
                paths,
            });
        }
        rooms
    }

    /// The rooms found.
    pub fn rooms(&self) -> &[GoalRoom] {
        &self.rooms
    }

    /// True if the level has no room with a packing order.
    pub fn is_empty(&self) -> bool {
        self.rooms.is_empty()
    }

    /// The room whose entrance `cell` is, when a push in `dir` onto it comes from outside
    /// the room (every direction but the one out of it).
    #[inline]
    pub fn entered(&self, cell: Cell, dir: Dir) -> Option<&GoalRoom> {
        let id = *self.entrance_of.get(cell as usize)?;
        let room = self.rooms.get(id as usize)?;
        (room.dir != dir.opposite()).then_some(room)
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
    entrance: Cell,
    outside: Cell,
    dir: Dir,
    cells: Vec<Cell>,
    /// Goals in the room.
    goals: usize,
    /// The room holds every goal of the level.
    all_goals: bool,
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
            if !ok || in_area(outside) || side_in {
                continue;
            }
            let goals = cells.iter().filter(|&&c| board.is_goal(c)).count();
            if goals == 0 {
                continue;
            }
            cells.sort_unstable();
            out.push(Candidate {
                entrance: e,
                outside,
                dir,
                cells,
                goals,
                all_goals: goals == board.goals().len(),
            });
        }
    }
    out
}

/// The fill order of a room's goals and the path of each step, or `None` when the greedy
/// choice gets stuck.
fn packing_order(board: &Board, room: &Candidate) -> Option<(Vec<Cell>, Vec<Vec<Dir>>)> {
    let n = board.n_cells();
    let mut in_room = vec![false; n];
    for &c in &room.cells {
        in_room[c as usize] = true;
    }
    // Walking distance from the entrance, to prefer the goal nearest it as the last one.
    let mut dist = vec![u32::MAX; n];
    let mut queue = VecDeque::from([room.entrance]);
    dist[room.entrance as usize] = 0;
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
    let mut order_rev = Vec::with_capacity(k);
    let mut paths_rev = Vec::with_capacity(k);
    let mut search = BoxPath::new(board, room, &in_room);
    while !filled.is_empty() {
        let need_exit = filled.len() < k || !room.all_goals;
        let found = (0..filled.len()).find_map(|t| {
            let g = filled[t];
            let others: Vec<Cell> = filled.iter().copied().filter(|&x| x != g).collect();
            search.find(&others, g, need_exit).map(|path| (t, path))
        });
        let (t, path) = found?;
        order_rev.push(filled.remove(t));
        paths_rev.push(path);
    }
    order_rev.reverse();
    paths_rev.reverse();
    Some((order_rev, paths_rev))
}

/// Breadth-first search for pushes that take one box from the entrance (player outside) to a
/// goal of the room, with some boxes fixed in the room. The player's region is the ordinary
/// flood fill over the whole board: the room meets the rest only at the entrance, so walking
/// outside never opens a way to another square of the room.
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

    /// The pushes after the one onto the entrance, or `None` if the box cannot get to `goal`
    /// (or the player cannot walk out afterwards, when `need_exit`).
    fn find(&mut self, others: &[Cell], goal: Cell, need_exit: bool) -> Option<Vec<Dir>> {
        for &c in others {
            self.boxes.set(c, 0);
        }
        let result = self.search(goal, need_exit);
        self.boxes.clear_all(others);
        result
    }

    fn search(&mut self, goal: Cell, need_exit: bool) -> Option<Vec<Dir>> {
        let board = self.board;
        let (entrance, outside) = (self.room.entrance, self.room.outside);
        // Nodes: (box, player cell, parent node, push that led here).
        let mut nodes: Vec<(Cell, Cell, usize, Dir)> = vec![(entrance, outside, usize::MAX, self.room.dir)];
        let mut seen = std::collections::HashSet::new();
        seen.insert((entrance, self.fill(outside, entrance)));
        let mut pushes = Vec::new();
        let mut next = 0;
        while next < nodes.len() {
            let (b, p, _, _) = nodes[next];
            self.fill(p, b);
            if b == goal {
                if !need_exit || self.reached(entrance) {
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
        let rooms = GoalRooms::new(level.board(), level.start());
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
        assert_eq!(room.dir(), Dir::Right);
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
        assert_eq!(room.order().len(), 2);
        // Bring each box under the entrance by hand, then fill step j with the macro.
        let start = level.start();
        assert_eq!(room.next_step(|c| start.boxes.contains(&c)), Some(0));
        for j in 0..2 {
            let g = room.order()[j];
            assert_eq!(rooms.step_of(g).map(|(_, s)| s), Some(j));
            assert!(rooms.entered(room.entrance(), room.dir()).is_some());
        }
        assert!(board.is_goal(room.order()[0]));
        // The macro is a legal push sequence from the box waiting on `O`: first onto the
        // entrance, then along the path.
        assert_eq!(board.xy(room.outside()), (3, 4));
        assert_eq!(board.xy(room.entrance()), (3, 3));
        let mut pushes = vec![Push { from: room.outside(), dir: room.dir() }];
        room.path_pushes(board, 0, &mut pushes);
        let mut state = start.clone();
        state.player = board.cell(3, 5).expect("floor");
        let steps = pushes_to_steps(board, &state, &pushes).expect("walks exist");
        // Every move is legal; the other box is still out, so the level is not solved yet.
        match replay(board, &state, &steps) {
            Err(ReplayError::Unsolved { pushes: p, off_goal: 1, .. }) => assert_eq!(p, pushes.len()),
            other => panic!("the macro should replay legally and leave one box out: {other:?}"),
        }
    }
}
