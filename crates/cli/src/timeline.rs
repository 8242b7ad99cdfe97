//! A replayed solution as a sequence of frames: where the player and every box are after each
//! move, for playback and pictures.
//!
//! Frame 0 is the start position and frame `k` the position after move `k`, so a solution of
//! `M` moves has `M + 1` frames. Boxes keep the identity they have at the start (box `i` is the
//! `i`-th of the start position's sorted boxes), so a picture can move each one on its own.

use bisolve_board::moves::{parse_lurd, replay, ReplayStats, Step};
use bisolve_board::{Board, Cell, Dir, Level, State, NO_CELL};

/// "No box here" in [`Cursor`]'s cell map.
const NO_BOX: u32 = u32::MAX;

/// One move of a solution.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Move {
    /// The direction.
    pub dir: Dir,
    /// The player's cell before the move.
    pub from: Cell,
    /// The player's cell after the move.
    pub to: Cell,
    /// The box it pushes: its number and the cell it moves to (it moves from `to`).
    pub push: Option<(usize, Cell)>,
}

/// A solution replayed move by move.
#[derive(Clone, Debug)]
pub struct Timeline {
    start: State,
    moves: Vec<Move>,
    pushes: usize,
}

/// Why a solution cannot be played.
#[derive(Debug, thiserror::Error)]
pub enum TimelineError {
    /// The text is not LURD.
    #[error("the solution is not LURD: {0}")]
    Lurd(#[from] bisolve_board::moves::LurdError),
    /// The moves do not solve the level.
    #[error("not a solution: {0}")]
    Replay(#[from] bisolve_board::moves::ReplayError),
    /// The level can never be solved (a box or goal walled off from the player).
    #[error("not a solution: the level cannot be solved: {0}")]
    Unsolvable(String),
}

impl Timeline {
    /// Reads LURD text, replays it strictly on the level and records every move. Fails unless
    /// the moves solve the level.
    pub fn from_lurd(level: &Level, lurd: &str) -> Result<Timeline, TimelineError> {
        let steps = parse_lurd(lurd)?;
        Timeline::from_steps(level, &steps)
    }

    /// Replays steps strictly on the level and records every move. Fails unless they solve it.
    pub fn from_steps(level: &Level, steps: &[Step]) -> Result<Timeline, TimelineError> {
        let board = level.board();
        let ReplayStats { pushes, .. } = replay(board, level.start(), steps)?;
        if let Some(why) = level.walled_off() {
            return Err(TimelineError::Unsolvable(why.to_string()));
        }
        let start = level.start().clone();
        let mut cursor = CursorState::new(board, &start);
        let mut moves = Vec::with_capacity(steps.len());
        for step in steps {
            let from = cursor.player;
            let to = board.neighbour(from, step.dir);
            debug_assert_ne!(to, NO_CELL, "replay checked every move");
            let push = step.push.then(|| {
                let id = cursor.box_at[to as usize] as usize;
                (id, board.neighbour(to, step.dir))
            });
            let m = Move { dir: step.dir, from, to, push };
            cursor.apply(&m);
            moves.push(m);
        }
        Ok(Timeline { start, moves, pushes })
    }

    /// The moves.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The number of frames: moves + 1.
    pub fn n_frames(&self) -> usize {
        self.moves.len() + 1
    }

    /// The number of pushes.
    pub fn n_pushes(&self) -> usize {
        self.pushes
    }

    /// The start position.
    pub fn start(&self) -> &State {
        &self.start
    }

    /// The solution as LURD text.
    pub fn lurd(&self) -> String {
        self.moves.iter().map(|m| m.dir.lurd(m.push.is_some())).collect()
    }

    /// A cursor on frame 0.
    pub fn cursor<'t>(&'t self, board: &Board) -> Cursor<'t> {
        Cursor { timeline: self, frame: 0, pushes: 0, state: CursorState::new(board, &self.start) }
    }

    /// Each box's positions over time: for box `i`, the frames at which it stands somewhere new
    /// together with the frame just before each push, as `(frame, cell)`, always starting at
    /// frame 0 and ending at the last frame. A box that never moves has two entries.
    pub fn box_tracks(&self) -> Vec<Vec<(usize, Cell)>> {
        let last = self.moves.len();
        let mut tracks: Vec<Vec<(usize, Cell)>> = self.start.boxes.iter().map(|&c| vec![(0, c)]).collect();
        for (k, m) in self.moves.iter().enumerate() {
            if let Some((id, to)) = m.push {
                let track = &mut tracks[id];
                let &(frame, cell) = track.last().expect("starts with frame 0");
                if frame < k {
                    track.push((k, cell));
                }
                track.push((k + 1, to));
            }
        }
        for track in &mut tracks {
            let &(frame, cell) = track.last().expect("starts with frame 0");
            if frame < last || track.len() == 1 {
                track.push((last, cell));
            }
        }
        tracks
    }
}

/// Where everything stands, with a map from cells to box numbers.
#[derive(Clone, Debug)]
struct CursorState {
    player: Cell,
    box_cell: Vec<Cell>,
    box_at: Vec<u32>,
}

impl CursorState {
    fn new(board: &Board, start: &State) -> CursorState {
        let mut box_at = vec![NO_BOX; board.n_cells()];
        for (i, &c) in start.boxes.iter().enumerate() {
            box_at[c as usize] = i as u32;
        }
        CursorState { player: start.player, box_cell: start.boxes.clone(), box_at }
    }

    fn apply(&mut self, m: &Move) {
        if let Some((id, to)) = m.push {
            self.box_at[m.to as usize] = NO_BOX;
            self.box_at[to as usize] = id as u32;
            self.box_cell[id] = to;
        }
        self.player = m.to;
    }

    fn undo(&mut self, m: &Move) {
        if let Some((id, to)) = m.push {
            self.box_at[to as usize] = NO_BOX;
            self.box_at[m.to as usize] = id as u32;
            self.box_cell[id] = m.to;
        }
        self.player = m.from;
    }
}

/// A position in a [`Timeline`] that moves forward and back one frame at a time.
#[derive(Clone, Debug)]
pub struct Cursor<'t> {
    timeline: &'t Timeline,
    frame: usize,
    pushes: usize,
    state: CursorState,
}

impl Cursor<'_> {
    /// The current frame (0 = start).
    pub fn frame(&self) -> usize {
        self.frame
    }

    /// Pushes made up to the current frame.
    pub fn pushes(&self) -> usize {
        self.pushes
    }

    /// True on the last frame.
    pub fn at_end(&self) -> bool {
        self.frame == self.timeline.moves.len()
    }

    /// The current position.
    pub fn state(&self) -> State {
        let mut boxes = self.state.box_cell.clone();
        boxes.sort_unstable();
        State::new(boxes, self.state.player)
    }

    /// Plays the next move and returns it; `None` on the last frame.
    pub fn forward(&mut self) -> Option<Move> {
        let m = *self.timeline.moves.get(self.frame)?;
        self.state.apply(&m);
        self.pushes += usize::from(m.push.is_some());
        self.frame += 1;
        Some(m)
    }

    /// Takes back the last move and returns it; `None` on frame 0.
    pub fn back(&mut self) -> Option<Move> {
        let k = self.frame.checked_sub(1)?;
        let m = self.timeline.moves[k];
        self.state.undo(&m);
        self.pushes -= usize::from(m.push.is_some());
        self.frame = k;
        Some(m)
    }

    /// Goes to frame 0.
    pub fn rewind(&mut self) {
        while self.back().is_some() {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LEVEL: &str = "######\n#@   #\n# $  #\n###  #\n  #. #\n  ####\n";

    fn level() -> Level {
        Level::parse(LEVEL).expect("valid level")
    }

    #[test]
    fn frames_and_pushes() {
        let level = level();
        let t = Timeline::from_lurd(&level, "dRurDD").expect("solves");
        assert_eq!(t.n_frames(), 7);
        assert_eq!(t.n_pushes(), 3);
        assert_eq!(t.lurd(), "dRurDD");
        let mut c = t.cursor(level.board());
        let mut frames = 1;
        while c.forward().is_some() {
            frames += 1;
        }
        assert_eq!(frames, t.n_frames());
        assert!(c.at_end());
        assert_eq!(c.pushes(), 3);
        let end = c.state();
        assert!(end.boxes.iter().all(|&b| level.board().is_goal(b)));
        c.back();
        c.back();
        assert_eq!(c.frame(), 4);
        assert_eq!(c.pushes(), 1);
        c.rewind();
        assert_eq!(c.state(), *level.start());
        assert_eq!(c.pushes(), 0);
    }

    #[test]
    fn box_tracks_hold_still_between_pushes() {
        let level = level();
        let t = Timeline::from_lurd(&level, "dRurDD").expect("solves");
        let tracks = t.box_tracks();
        assert_eq!(tracks.len(), 1);
        let frames: Vec<usize> = tracks[0].iter().map(|&(f, _)| f).collect();
        // Pushes are moves 2, 5 and 6 (frames 2, 5, 6); before move 5 it stands still from frame 2.
        assert_eq!(frames, [0, 1, 2, 4, 5, 6]);
        let board = level.board();
        let xy: Vec<(usize, usize)> = tracks[0].iter().map(|&(_, c)| board.xy(c)).collect();
        assert_eq!(xy, [(2, 2), (2, 2), (3, 2), (3, 2), (3, 3), (3, 4)]);
    }

    #[test]
    fn bad_solutions_are_refused() {
        let level = level();
        assert!(matches!(Timeline::from_lurd(&level, "dRx"), Err(TimelineError::Lurd(_))));
        assert!(matches!(Timeline::from_lurd(&level, "dR"), Err(TimelineError::Replay(_))));
        assert!(matches!(Timeline::from_lurd(&level, "L"), Err(TimelineError::Replay(_))));
    }

    #[test]
    fn empty_solution_of_a_solved_level() {
        let level = Level::parse("#####\n#@*.#\n#  $#\n#####\n").expect("valid");
        assert!(Timeline::from_lurd(&level, "").is_err());
        let solved = Level::parse("####\n#@*#\n####\n").expect("valid");
        let t = Timeline::from_lurd(&solved, "").expect("already solved");
        assert_eq!(t.n_frames(), 1);
        assert_eq!(t.box_tracks(), vec![vec![(0, solved.start().boxes[0]), (0, solved.start().boxes[0])]]);
    }
}
