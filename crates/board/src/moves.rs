//! Moves: walking paths, pushes written out as LURD, LURD read back, and replay.
//!
//! LURD: `l u r d` are walks, `L U R D` pushes. Replay is strict, as other Sokoban programs
//! are: a push written in lower case, or an upper-case letter that pushes nothing, is a bad
//! move. Reading accepts white space anywhere and run-length counts (`3r` = `rrr`).

use std::collections::VecDeque;
use std::fmt;

use crate::board::{Board, Cell, NO_CELL};
use crate::dir::Dir;
use crate::reach::BoxMap;
use crate::state::State;

/// A push: the box on `from` moves one step in `dir`; the player stands behind it, on the
/// cell opposite `dir`, and ends where the box was.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Push {
    /// The box's cell before the push.
    pub from: Cell,
    /// The direction of the push.
    pub dir: Dir,
}

/// One LURD letter: a step in a direction, written as a walk or as a push.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    /// The direction.
    pub dir: Dir,
    /// Written in upper case.
    pub push: bool,
}

/// A character that is not LURD.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{what} at character {position}")]
pub struct LurdError {
    /// 1-based character position in the text.
    pub position: usize,
    /// What is wrong.
    pub what: String,
}

/// The most steps a LURD text may expand to (run-length counts included).
pub const MAX_STEPS: usize = 50_000_000;

/// Reads LURD text: letters `lurdLURD`, white space ignored, decimal counts repeat the next
/// letter.
pub fn parse_lurd(text: &str) -> Result<Vec<Step>, LurdError> {
    let mut steps = Vec::new();
    let mut count: Option<usize> = None;
    let mut count_pos = 0;
    for (i, ch) in text.chars().enumerate() {
        let position = i + 1;
        if ch.is_whitespace() {
            continue;
        }
        if let Some(digit) = ch.to_digit(10) {
            if count.is_none() {
                count_pos = position;
            }
            let c = count.unwrap_or(0).saturating_mul(10).saturating_add(digit as usize);
            if c > MAX_STEPS {
                return Err(LurdError { position: count_pos, what: "run-length count too large".into() });
            }
            count = Some(c);
            continue;
        }
        let Some((dir, push)) = Dir::from_lurd(ch) else {
            return Err(LurdError { position, what: format!("{ch:?} is not a LURD letter") });
        };
        let n = count.take().unwrap_or(1);
        if n == 0 {
            return Err(LurdError { position: count_pos, what: "run-length count 0".into() });
        }
        if steps.len() + n > MAX_STEPS {
            return Err(LurdError { position, what: format!("more than {MAX_STEPS} moves") });
        }
        steps.extend(std::iter::repeat_n(Step { dir, push }, n));
    }
    if count.is_some() {
        return Err(LurdError {
            position: count_pos,
            what: "run-length count with no letter after it".into(),
        });
    }
    Ok(steps)
}

/// Writes steps as LURD text.
pub fn steps_to_lurd(steps: &[Step]) -> String {
    steps.iter().map(|s| s.dir.lurd(s.push)).collect()
}

/// The shortest walk from `from` to `to` that pushes nothing, or `None` if boxes or walls
/// are in the way.
pub fn walk_path(board: &Board, boxes: &BoxMap, from: Cell, to: Cell) -> Option<Vec<Dir>> {
    if from == to {
        return Some(Vec::new());
    }
    let n = board.n_cells();
    let mut came: Vec<u8> = vec![u8::MAX; n];
    let mut queue = VecDeque::new();
    came[from as usize] = 4;
    queue.push_back(from);
    while let Some(c) = queue.pop_front() {
        for d in Dir::ALL {
            let next = board.neighbour(c, d);
            if next == NO_CELL || came[next as usize] != u8::MAX || boxes.is_box(next) {
                continue;
            }
            came[next as usize] = d.index() as u8;
            if next == to {
                let mut path = Vec::new();
                let mut at = to;
                while at != from {
                    let d = Dir::from_index(came[at as usize] as usize);
                    path.push(d);
                    at = board.neighbour(at, d.opposite());
                }
                path.reverse();
                return Some(path);
            }
            queue.push_back(next);
        }
    }
    None
}

/// A push list that cannot be played from the given state.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("push {index} ({dir} from column {x}, row {y}) cannot be played: {why}")]
pub struct PushError {
    /// 1-based number of the push.
    pub index: usize,
    /// Its direction.
    pub dir: Dir,
    /// Column of the box.
    pub x: usize,
    /// Row of the box.
    pub y: usize,
    /// What is wrong.
    pub why: &'static str,
}

/// Appends the pushes of one box driven from `start` along `dirs`, one square per direction
/// (the paths of goal-room and packing macros).
pub fn pushes_along(board: &Board, start: Cell, dirs: &[Dir], out: &mut Vec<Push>) {
    let mut at = start;
    for &dir in dirs {
        out.push(Push { from: at, dir });
        at = board.neighbour(at, dir);
    }
}

/// Writes pushes as LURD steps, filling in the shortest walks between them.
pub fn pushes_to_steps(board: &Board, start: &State, pushes: &[Push]) -> Result<Vec<Step>, PushError> {
    let mut boxes = BoxMap::new(board.n_cells());
    boxes.set_all(&start.boxes);
    let mut player = start.player;
    let mut steps = Vec::new();
    for (i, push) in pushes.iter().enumerate() {
        let (x, y) = board.xy(push.from);
        let fail = |why| PushError { index: i + 1, dir: push.dir, x, y, why };
        if !boxes.is_box(push.from) {
            return Err(fail("no box there"));
        }
        let behind = board.neighbour(push.from, push.dir.opposite());
        let to = board.neighbour(push.from, push.dir);
        if behind == NO_CELL {
            return Err(fail("no floor behind the box for the player"));
        }
        if to == NO_CELL || boxes.is_box(to) {
            return Err(fail("the square ahead is blocked"));
        }
        let walk = walk_path(board, &boxes, player, behind)
            .ok_or_else(|| fail("the player cannot walk behind the box"))?;
        steps.extend(walk.into_iter().map(|dir| Step { dir, push: false }));
        steps.push(Step { dir: push.dir, push: true });
        boxes.move_box(push.from, to);
        player = push.from;
    }
    Ok(steps)
}

/// Counts of a replayed solution.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReplayStats {
    /// Player moves (walks and pushes).
    pub moves: usize,
    /// Pushes.
    pub pushes: usize,
    /// Box lines: pushes in one straight line of one box count once, walks between them or
    /// not; pushing another box, or this one another way, starts a new line.
    pub box_lines: usize,
    /// Box changes: how often the pushes go on with a box other than the one pushed last,
    /// the first push counting as one.
    pub box_changes: usize,
}

/// Why a move list does not solve a level.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReplayError {
    /// A move cannot be made.
    #[error("move {number} ({letter}): {why}")]
    BadMove {
        /// 1-based move number.
        number: usize,
        /// The move as written.
        letter: char,
        /// What is wrong.
        why: BadMove,
    },
    /// Every move is legal but boxes are left off goals.
    #[error("not solved after {moves} moves and {pushes} pushes: {off_goal} boxes are not on goals")]
    Unsolved {
        /// Moves made.
        moves: usize,
        /// Pushes made.
        pushes: usize,
        /// Boxes left off goals.
        off_goal: usize,
    },
}

/// What makes a move illegal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BadMove {
    /// The player walks into a wall.
    Wall,
    /// The box ahead cannot move: a wall or another box behind it.
    Blocked,
    /// A push written as a walk (lower case).
    PushWrittenAsWalk,
    /// A walk written as a push (upper case, no box ahead).
    WalkWrittenAsPush,
}

impl fmt::Display for BadMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            BadMove::Wall => "walks into a wall",
            BadMove::Blocked => "pushes a box into a wall or another box",
            BadMove::PushWrittenAsWalk => "pushes a box but is written in lower case",
            BadMove::WalkWrittenAsPush => "is written in upper case but pushes nothing",
        })
    }
}

/// Plays the steps from `start`. Returns the counts when they are all legal and end with
/// every box on a goal; otherwise names the first bad move or says the level is unsolved.
pub fn replay(board: &Board, start: &State, steps: &[Step]) -> Result<ReplayStats, ReplayError> {
    let mut boxes = BoxMap::new(board.n_cells());
    boxes.set_all(&start.boxes);
    let mut off_goal = start.boxes.iter().filter(|&&b| !board.is_goal(b)).count();
    let mut player = start.player;
    let mut pushes = 0;
    let (mut box_lines, mut box_changes) = (0, 0);
    // The box pushed last (by its number in `start`) and the way it went.
    let mut last: Option<(usize, Dir)> = None;
    for (i, step) in steps.iter().enumerate() {
        let bad = |why| ReplayError::BadMove { number: i + 1, letter: step.dir.lurd(step.push), why };
        let next = board.neighbour(player, step.dir);
        if next == NO_CELL {
            return Err(bad(BadMove::Wall));
        }
        if boxes.is_box(next) {
            if !step.push {
                return Err(bad(BadMove::PushWrittenAsWalk));
            }
            let to = board.neighbour(next, step.dir);
            if to == NO_CELL || boxes.is_box(to) {
                return Err(bad(BadMove::Blocked));
            }
            let pushed = boxes.box_at(next).unwrap_or(usize::MAX);
            let other_box = last.is_none_or(|(b, _)| b != pushed);
            box_changes += usize::from(other_box);
            box_lines += usize::from(other_box || last.is_some_and(|(_, d)| d != step.dir));
            last = Some((pushed, step.dir));
            boxes.move_box(next, to);
            off_goal = off_goal + usize::from(!board.is_goal(to)) - usize::from(!board.is_goal(next));
            pushes += 1;
        } else if step.push {
            return Err(bad(BadMove::WalkWrittenAsPush));
        }
        player = next;
    }
    let moves = steps.len();
    if off_goal > 0 {
        return Err(ReplayError::Unsolved { moves, pushes, off_goal });
    }
    Ok(ReplayStats { moves, pushes, box_lines, box_changes })
}

/// The pushes of a step list, with the boxes they move, from `start`. Assumes the steps were
/// replayed successfully.
pub fn steps_to_pushes(board: &Board, start: &State, steps: &[Step]) -> Vec<Push> {
    let mut player = start.player;
    let mut pushes = Vec::new();
    for step in steps {
        let next = board.neighbour(player, step.dir);
        if next == NO_CELL {
            break;
        }
        if step.push {
            pushes.push(Push { from: next, dir: step.dir });
        }
        player = next;
    }
    pushes
}
