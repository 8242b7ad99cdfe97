//! Parking plans: how a goal room that no packing order fills one box at a time is filled
//! from empty, boxes waiting inside while later ones pass.

use std::collections::{HashSet, VecDeque};

use bisolve_board::moves::Push;
use bisolve_board::{Board, BoxMap, Cell, Dir, Reach, NO_CELL};

use super::{Candidate, Entrance};

/// A goal room with one entrance filled by a parking plan: pushes that take it from empty to full,
/// boxes arriving on the entrance one at a time, where a box may wait on a square that is not its
/// goal (or on another goal) while later boxes pass. Found by weighted A* backwards from the full
/// room ([`PLAN_WEIGHT`], at most [`MAX_PLAN_STATES`] positions) when no packing order fills the
/// room one box at a time. The search keeps to it through
/// [`GoalRooms::plan_allows`](super::GoalRooms::plan_allows): every push that changes what the room
/// holds must be a step of the plan.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlanRoom {
    entrance: Entrance,
    cells: Vec<Cell>,
    pushes: Vec<Push>,
}

/// The most positions of a room the parking plan's search looks at.
pub const MAX_PLAN_STATES: usize = 200_000;

/// The weight of the distance to the way out in the parking plan's search (weighted A*:
/// pulls so far plus this times the lone-box pushes of the boxes from the entrance). Greedy
/// (distance only) found a 208-push plan for Sasquatch 38's left room, weight 3 one of 160.
pub const PLAN_WEIGHT: u32 = 3;

/// The most rooms with a parking plan a level gets (their contents are keyed per room).
pub const MAX_PLAN_ROOMS: usize = 4;

/// The keys of what each room with a parking plan holds, for
/// [`GoalRooms::plan_allows`](super::GoalRooms::plan_allows).
pub type PlanKeys = [u64; MAX_PLAN_ROOMS];

impl PlanRoom {
    /// The entrance.
    pub fn entrance(&self) -> Entrance {
        self.entrance
    }

    /// The squares of the room (without the entrance), ascending.
    pub fn cells(&self) -> &[Cell] {
        &self.cells
    }

    /// The plan's pushes, from the empty room to the full one. Each box comes in by a push
    /// from the entrance (the box on it, the player on the square outside it); between those,
    /// the pushes of boxes inside the room, the player walking in the room only.
    pub fn pushes(&self) -> &[Push] {
        &self.pushes
    }

    /// A parking plan for a room with one entrance, or `None` when the search finds none
    /// within [`MAX_PLAN_STATES`] positions.
    ///
    /// The search pulls boxes out of the full room, the player starting where it can walk
    /// out (or anywhere, for a room that holds every goal): a box pulled from the square
    /// inside the entrance onto it, the player stepping out, has left. Positions are keyed
    /// by boxes and the player's region in the room; a box is never pulled onto a square
    /// that a lone box pushed in from the entrance cannot reach. The order is weighted A*
    /// ([`PLAN_WEIGHT`]) on the pulls so far and the lone-box pushes from the entrance to
    /// each box, plus one per box; an empty room ends it, and the pulls read backwards are the
    /// plan's pushes.
    pub(super) fn find(board: &Board, room: &Candidate) -> Option<PlanRoom> {
        let [entrance] = room.entrances[..] else { return None };
        let n = board.n_cells();
        let (e, o) = (entrance.cell, entrance.outside);
        // The player's space: the room, the entrance and the square outside it, which stands
        // for everything outside; a fill never leaves it.
        let mut walls = BoxMap::new(n);
        let mut in_room = vec![false; n];
        for &c in &room.cells {
            in_room[c as usize] = true;
        }
        for c in 0..n as Cell {
            if !in_room[c as usize] && c != e && c != o {
                walls.set(c, 0);
            }
        }
        let depth = lone_box_depths(board, &entrance, &in_room, &walls);
        let goals: Vec<Cell> = room.cells.iter().copied().filter(|&c| board.is_goal(c)).collect();
        if goals.iter().any(|&g| depth[g as usize] == u32::MAX) {
            return None;
        }
        let h = |boxes: &[Cell]| boxes.iter().map(|&b| depth[b as usize] + 1).sum::<u32>();
        let mut reach = Reach::new(n);
        let mut map = walls.clone();
        // The positions: boxes (ascending), the player's square, the parent, the forward
        // push that leads from this position to the parent, and the pulls so far.
        let mut nodes: Vec<(Vec<Cell>, Cell, usize, Push, u32)> = Vec::new();
        let key = |g: u32, h: u32| g + PLAN_WEIGHT * h;
        let mut seen: HashSet<(Vec<Cell>, Cell)> = HashSet::new();
        let mut open = std::collections::BinaryHeap::new();
        let none = Push { from: NO_CELL, dir: Dir::Up };
        map.set_all(&goals);
        let mut starts = vec![e];
        if room.all_goals {
            starts.extend(room.cells.iter().copied().filter(|c| !board.is_goal(*c)));
        }
        for p in starts {
            let min = reach.fill(board, &map, p);
            if seen.insert((goals.clone(), min)) {
                open.push((std::cmp::Reverse(key(0, h(&goals))), nodes.len()));
                nodes.push((goals.clone(), p, usize::MAX, none, 0));
            }
        }
        map.clear_all(&goals);
        while let Some((_, at)) = open.pop() {
            if nodes.len() > MAX_PLAN_STATES {
                return None;
            }
            let (boxes, player) = (nodes[at].0.clone(), nodes[at].1);
            if boxes.is_empty() {
                let mut pushes = Vec::new();
                let mut k = at;
                while nodes[k].2 != usize::MAX {
                    pushes.push(nodes[k].3);
                    k = nodes[k].2;
                }
                return Some(PlanRoom { entrance, cells: room.cells.clone(), pushes });
            }
            map.set_all(&boxes);
            reach.fill(board, &map, player);
            let mut children = Vec::new();
            for (i, &b) in boxes.iter().enumerate() {
                for d in Dir::ALL {
                    // The player on `p` beside the box steps on to `p2`; the box follows to `p`.
                    let p = board.neighbour(b, d);
                    if p == NO_CELL || !reach.contains(p) {
                        continue;
                    }
                    let p2 = board.neighbour(p, d);
                    if p2 == NO_CELL || map.is_box(p2) {
                        continue;
                    }
                    let mut child = boxes.clone();
                    if p == e {
                        child.remove(i);
                    } else if in_room[p as usize] && depth[p as usize] != u32::MAX {
                        child[i] = p;
                        child.sort_unstable();
                    } else {
                        continue;
                    }
                    children.push((child, p2, Push { from: p, dir: d.opposite() }));
                }
            }
            map.clear_all(&boxes);
            for (child, p2, push) in children {
                map.set_all(&child);
                let min = reach.fill(board, &map, p2);
                map.clear_all(&child);
                if seen.insert((child.clone(), min)) {
                    let g = nodes[at].4 + 1;
                    open.push((std::cmp::Reverse(key(g, h(&child))), nodes.len()));
                    nodes.push((child, p2, at, push, g));
                }
            }
        }
        None
    }
}

/// Per square of the room, the fewest pushes that take a lone box there from the entrance
/// (the player starting outside it); `u32::MAX` where none do.
fn lone_box_depths(board: &Board, entrance: &Entrance, in_room: &[bool], walls: &BoxMap) -> Vec<u32> {
    let n = board.n_cells();
    let mut depth = vec![u32::MAX; n];
    let mut map = walls.clone();
    let mut reach = Reach::new(n);
    let mut seen = HashSet::new();
    let mut queue = VecDeque::new();
    queue.push_back((entrance.cell, entrance.outside, 0u32));
    while let Some((b, p, k)) = queue.pop_front() {
        map.set(b, 0);
        let min = reach.fill(board, &map, p);
        if !seen.insert((b, min)) {
            map.clear(b);
            continue;
        }
        if in_room[b as usize] {
            depth[b as usize] = depth[b as usize].min(k);
        }
        for d in Dir::ALL {
            let to = board.neighbour(b, d);
            let behind = board.neighbour(b, d.opposite());
            if to != NO_CELL && in_room[to as usize] && behind != NO_CELL && reach.contains(behind) {
                queue.push_back((to, b, k + 1));
            }
        }
        map.clear(b);
    }
    depth
}
