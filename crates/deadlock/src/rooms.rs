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
//! the room holds every goal and this is the last box). A room with no such order gets no
//! macros.
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
//!
//! The order is searched depth first: when the choice nearest an entrance leaves a room that
//! cannot be emptied, the next one is tried ([`MAX_ORDER_SEARCHES`] path searches at most).
//! A room with one entrance that has no such order (a box must wait inside, off its goal or
//! on a goal filled again later, while others pass) can get a **parking plan** instead
//! ([`PlanRoom`], [`GoalRooms::with_plans`]): a sequence of pushes that fills the room from
//! empty, boxes arriving on the entrance one at a time and any box of the room pushed in
//! between, found by a search backwards from the full room. A plan gives no macros: the
//! forward search keeps to it by allowing only pushes that change what the room holds the
//! way a step (or a run of steps of one box) of the plan does ([`GoalRooms::plan_allows`]),
//! with what each plan room holds kept as a key per position ([`GoalRooms::plan_keys`]).

use std::collections::{HashSet, VecDeque};

use bisolve_board::moves::{pushes_along, Push};
use bisolve_board::{Board, BoxMap, Cell, Dir, Reach, State, NO_CELL};

mod plan;
pub use plan::{PlanKeys, PlanRoom, MAX_PLAN_ROOMS, MAX_PLAN_STATES, PLAN_WEIGHT};

/// Boards with more floor cells get no rooms (finding entrances takes quadratic time).
pub const MAX_BOARD_CELLS: usize = 3000;
/// Rooms with more cells are skipped (the path search is over box square x player region).
pub const MAX_ROOM_CELLS: usize = 256;
/// Rooms with more entrances are skipped.
pub const MAX_ENTRANCES: usize = 6;
/// The packing order's depth-first search gives up after this many path searches.
pub const MAX_ORDER_SEARCHES: usize = 4000;

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
    plans: Vec<PlanRoom>,
    /// Per cell: 1 + the index of the room with a parking plan holding it, else 0.
    plan_of: Vec<u8>,
    /// Per cell: its key in the contents key of a room with a parking plan (0 elsewhere).
    plan_key: Vec<u64>,
    /// Per room with a parking plan: the (before, after) contents keys of its steps, and of
    /// every run of steps that pushes one box.
    plan_steps: Vec<HashSet<(u64, u64)>>,
}

impl GoalRooms {
    /// Finds the goal rooms of a level and their packing orders: those with one entrance,
    /// and with `several` also those with several (see the module docs).
    pub fn new(board: &Board, start: &State, several: bool) -> GoalRooms {
        GoalRooms::with_plans(board, start, several, false)
    }

    /// Like [`GoalRooms::new`], and with `plans`, a room with one entrance that no packing
    /// order fills one box at a time gets a parking plan ([`PlanRoom`]) when one is found.
    pub fn with_plans(board: &Board, start: &State, several: bool, plans: bool) -> GoalRooms {
        let n = board.n_cells();
        let mut rooms = GoalRooms {
            rooms: Vec::new(),
            entrance_of: vec![(NONE, NONE); n],
            room_of: vec![NONE; n],
            step_of: vec![NONE; n],
            plans: Vec::new(),
            plan_of: Vec::new(),
            plan_key: Vec::new(),
            plan_steps: Vec::new(),
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
            rooms.take(board, c, &mut taken, plans);
        }
        if several {
            for c in corridor_rooms(board, start) {
                rooms.take(board, c, &mut taken, false);
            }
        }
        rooms
    }

    /// Adds the room `c` unless it overlaps one taken or has no packing order (nor, with
    /// `plans`, a parking plan).
    fn take(&mut self, board: &Board, c: Candidate, taken: &mut [bool], plans: bool) {
        let squares = || c.entrances.iter().flat_map(|e| [e.cell, e.outside]).chain(c.cells.iter().copied());
        if squares().any(|x| taken[x as usize]) {
            return;
        }
        let Some((order, paths)) = packing_order(board, &c) else {
            if plans && self.plans.len() < MAX_PLAN_ROOMS {
                if let Some(plan) = PlanRoom::find(board, &c) {
                    for x in squares() {
                        taken[x as usize] = true;
                    }
                    self.add_plan(board, plan);
                }
            }
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

    /// Keys the contents of a room with a parking plan and records its steps.
    fn add_plan(&mut self, board: &Board, plan: PlanRoom) {
        let n = board.n_cells();
        if self.plans.is_empty() {
            self.plan_of = vec![0; n];
            self.plan_key = vec![0; n];
        }
        let id = self.plans.len();
        for &c in plan.cells() {
            self.plan_of[c as usize] = id as u8 + 1;
            let mut seed = (u64::from(c) + 1) ^ ((id as u64 + 1) << 32);
            self.plan_key[c as usize] = bisolve_board::splitmix64(&mut seed) | 1;
        }
        // The contents key before each push (and after the last).
        let mut keys = vec![0u64];
        for p in plan.pushes() {
            let to = board.neighbour(p.from, p.dir);
            let last = keys[keys.len() - 1];
            keys.push(last ^ self.plan_key[p.from as usize] ^ self.plan_key[to as usize]);
        }
        let mut steps = HashSet::new();
        for t in 0..plan.pushes().len() {
            // Every run of pushes of the box that push `t` moves.
            let mut u = t;
            loop {
                steps.insert((keys[t], keys[u + 1]));
                let at = board.neighbour(plan.pushes()[u].from, plan.pushes()[u].dir);
                if u + 1 == plan.pushes().len() || plan.pushes()[u + 1].from != at {
                    break;
                }
                u += 1;
            }
        }
        self.plan_steps.push(steps);
        self.plans.push(plan);
    }

    /// The rooms found.
    pub fn rooms(&self) -> &[GoalRoom] {
        &self.rooms
    }

    /// The rooms with a parking plan.
    pub fn plans(&self) -> &[PlanRoom] {
        &self.plans
    }

    /// True if the level has no room with a packing order or a parking plan.
    pub fn is_empty(&self) -> bool {
        self.rooms.is_empty() && self.plans.is_empty()
    }

    /// The contents keys of the rooms with a parking plan when the boxes stand on `boxes`.
    pub fn plan_keys(&self, boxes: &[Cell]) -> PlanKeys {
        let mut keys = [0; MAX_PLAN_ROOMS];
        if !self.plans.is_empty() {
            for &b in boxes {
                let r = self.plan_of[b as usize];
                if r != 0 {
                    keys[r as usize - 1] ^= self.plan_key[b as usize];
                }
            }
        }
        keys
    }

    /// True unless moving the box on `from` to `to` (by one push or a run of pushes of that
    /// box) changes what a room with a parking plan holds other than by a step of its plan;
    /// `keys` are [`GoalRooms::plan_keys`] of the position before the move.
    #[inline]
    pub fn plan_allows(&self, keys: &PlanKeys, from: Cell, to: Cell) -> bool {
        if self.plans.is_empty() {
            return true;
        }
        let (a, b) = (self.plan_of[from as usize], self.plan_of[to as usize]);
        if a != 0 && b != 0 && a != b {
            return false;
        }
        let r = a.max(b);
        if r == 0 {
            return true;
        }
        let before = keys[r as usize - 1];
        let after = before ^ self.plan_key[from as usize] ^ self.plan_key[to as usize];
        self.plan_steps[r as usize - 1].contains(&(before, after))
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
                if is_box[c as usize] || cells.len() > MAX_ROOM_CELLS {
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
/// when the room cannot be filled one box at a time (or the search gives up).
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
    let mut order = Order {
        search: BoxPath::new(board, room, &in_room),
        goals: filled.len(),
        all_goals: room.all_goals,
        dead: HashSet::new(),
        budget: MAX_ORDER_SEARCHES,
        order: Vec::with_capacity(filled.len()),
        paths: Vec::with_capacity(filled.len()),
    };
    let ok = order.empty(&filled);
    if !ok {
        return None;
    }
    Some((order.order, order.paths))
}

/// The depth-first search for a packing order: it takes boxes out of the room one at a time,
/// trying the goals nearest an entrance first, and backs up when it gets stuck.
struct Order<'a> {
    search: BoxPath<'a>,
    /// The goals in the room.
    goals: usize,
    all_goals: bool,
    /// Sets of filled goals known to get stuck.
    dead: HashSet<Vec<Cell>>,
    /// Path searches left.
    budget: usize,
    /// The fill order found, first goal first (the last one taken out), and its paths.
    order: Vec<Cell>,
    paths: Vec<Vec<Option<Vec<Dir>>>>,
}

impl Order<'_> {
    /// True (with the steps pushed on the order) if the room holding boxes on
    /// `filled` (sorted nearest an entrance first) can be emptied.
    fn empty(&mut self, filled: &[Cell]) -> bool {
        if filled.is_empty() {
            return true;
        }
        let mut key = filled.to_vec();
        key.sort_unstable();
        if self.dead.contains(&key) {
            return false;
        }
        let need_exit = filled.len() < self.goals || !self.all_goals;
        let m = self.search.room.entrances.len();
        for t in 0..filled.len() {
            let g = filled[t];
            let others: Vec<Cell> = filled.iter().copied().filter(|&x| x != g).collect();
            let mut first = None;
            for e in 0..m {
                if self.budget == 0 {
                    return false;
                }
                self.budget -= 1;
                if let Some(path) = self.search.find(&others, e, g, need_exit) {
                    first = Some((e, path));
                    break;
                }
            }
            let Some((first, path)) = first else { continue };
            if !self.empty(&others) {
                if self.budget == 0 {
                    return false;
                }
                continue;
            }
            // The paths from the other entrances to the goal taken out.
            let paths: Vec<Option<Vec<Dir>>> = (0..m)
                .map(|e| match e.cmp(&first) {
                    std::cmp::Ordering::Less => None,
                    std::cmp::Ordering::Equal => Some(path.clone()),
                    std::cmp::Ordering::Greater => self.search.find(&others, e, g, need_exit),
                })
                .collect();
            // The goals of `others` were pushed by the call that emptied them: `g` comes after.
            self.order.push(g);
            self.paths.push(paths);
            return true;
        }
        self.dead.insert(key);
        false
    }
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
mod tests;
