//! Shorter solutions: vicinity search around a solution's path, after Sébastien Gouezel's
//! method as YASS's and JSoko's optimizers use it.
//!
//! [`optimize`] replays a solution, then searches the positions near its path (see
//! [`search`]) for the cheapest solution by the [`Objective`]. An improvement becomes the
//! new path and the search repeats around it. When a vicinity yields nothing, a wider one is
//! tried ([`LADDER`]), until the widest yields nothing, the time runs out or the caller
//! cancels. Before the vicinities, a cheap pass ([`order`]) makes the same pushes in another
//! order when the walks between them get shorter, or the box lines and box changes fewer.
//! Several threads search different vicinities at once. The result is replayed before it is
//! returned and is never worse than the input by the objective, then box lines, then box
//! changes.

pub mod order;
pub mod search;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Condvar, Mutex};
use std::time::{Duration, Instant};

use bisolve_board::moves::{
    pushes_to_steps, replay, steps_to_lurd, steps_to_pushes, Push, ReplayError, ReplayStats, Step,
};
use bisolve_board::{Cell, Level};

use crate::search::{cheapest, Bounds, Ended, Keys, Near, Vicinity};

pub use bisolve_board::Objective;

/// The objective's key of a solution's length: moves and pushes in the objective's order,
/// then box lines, then box changes.
fn key_of(objective: Objective, l: Length) -> (u32, u32, u32, u32) {
    let (first, second) = objective.key(l.moves as u32, l.pushes as u32);
    (first, second, l.box_lines as u32, l.box_changes as u32)
}

/// Rungs of one round around a path: the move-order pass, then the [`LADDER`].
const RUNGS: usize = LADDER.len() + 1;

/// The vicinities tried in turn: one box a little way off the path, two boxes, then wider,
/// then three boxes.
pub const LADDER: [Vicinity; 8] = [
    Vicinity { boxes: 1, radius: 3 },
    Vicinity { boxes: 2, radius: 2 },
    Vicinity { boxes: 1, radius: 8 },
    Vicinity { boxes: 2, radius: 4 },
    Vicinity { boxes: 1, radius: 40 },
    Vicinity { boxes: 2, radius: 8 },
    Vicinity { boxes: 3, radius: 2 },
    Vicinity { boxes: 3, radius: 4 },
];

/// How to optimise.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    /// What to minimise.
    pub objective: Objective,
    /// Wall-clock time for the whole optimisation (`None`: until no vicinity improves).
    pub time: Option<Duration>,
    /// Searches run at once, each on its own vicinity.
    pub threads: usize,
    /// Positions one search may hold before it gives up (about 60 bytes each).
    pub max_states: usize,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings { objective: Objective::Moves, time: None, threads: 1, max_states: 2_000_000 }
    }
}

/// Moves, pushes, box lines and box changes of a solution.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Length {
    /// Player moves, pushes included.
    pub moves: usize,
    /// Pushes.
    pub pushes: usize,
    /// Box lines ([`ReplayStats::box_lines`]).
    pub box_lines: usize,
    /// Box changes ([`ReplayStats::box_changes`]).
    pub box_changes: usize,
}

impl From<ReplayStats> for Length {
    fn from(c: ReplayStats) -> Length {
        Length { moves: c.moves, pushes: c.pushes, box_lines: c.box_lines, box_changes: c.box_changes }
    }
}

/// What [`optimize`] made of a solution.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Optimized {
    /// The solution, replayed on the level: the input when nothing better was found.
    pub steps: Vec<Step>,
    /// The same as LURD.
    pub lurd: String,
    /// The input's length.
    pub before: Length,
    /// The result's length, never worse than `before` by the objective, then box lines, then
    /// box changes.
    pub after: Length,
    /// Searches run (vicinity searches and move-order passes).
    pub searches: usize,
    /// Improvements found.
    pub improvements: usize,
    /// Positions the searches reached, all together.
    pub states: u64,
    /// True when the move-order pass and every vicinity of the [`LADDER`] ran around the final
    /// path to their end (nothing better is near it); false when time, the caller or a state
    /// limit cut them.
    pub exhausted: bool,
}

/// Why a solution could not be optimised.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OptimizeError {
    /// The moves given do not solve the level.
    #[error("the solution to optimise does not solve the level: {0}")]
    NotASolution(#[from] ReplayError),
    /// A result failed its replay (a bug; never returned as a solution).
    #[error("internal error: an optimised solution does not replay: {0}")]
    Internal(String),
}

/// Optimises `steps`, a solution of `level`, within `settings`; `cancel` stops it early with
/// the best found so far.
pub fn optimize(
    level: &Level,
    steps: &[Step],
    settings: &Settings,
    cancel: &AtomicBool,
) -> Result<Optimized, OptimizeError> {
    let board = level.board();
    let start = level.start();
    let counts = replay(board, start, steps)?;
    let before = Length::from(counts);
    let started = Instant::now();
    let deadline = settings.time.and_then(|t| started.checked_add(t));
    let keys = Keys::new(board.n_cells());
    let objective = settings.objective;
    let mut result = Optimized {
        steps: steps.to_vec(),
        lurd: steps_to_lurd(steps),
        before,
        after: before,
        searches: 0,
        improvements: 0,
        states: 0,
        exhausted: false,
    };
    let threads = settings.threads.clamp(1, RUNGS);
    let progress = Mutex::new(Progress {
        pushes: steps_to_pushes(board, start, steps),
        best: before,
        generation: 0,
        next_rung: 0,
        running: 0,
        cut: false,
        stopped: false,
        searches: 0,
        improvements: 0,
        states: 0,
    });
    let run = Run {
        level,
        keys: &keys,
        objective,
        max_states: settings.max_states,
        deadline,
        cancel,
        progress,
        wake: Condvar::new(),
    };
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| run.rungs());
        }
    });
    let progress = run.progress.into_inner().unwrap_or_else(|e| e.into_inner());
    let best = progress.best;
    result.searches = progress.searches;
    result.improvements = progress.improvements;
    result.states = progress.states;
    result.exhausted = !progress.stopped && !progress.cut && progress.next_rung >= RUNGS;
    if result.improvements > 0 {
        let steps = pushes_to_steps(board, start, &progress.pushes)
            .map_err(|e| OptimizeError::Internal(e.to_string()))?;
        let counts = replay(board, start, &steps).map_err(|e| OptimizeError::Internal(e.to_string()))?;
        let after = Length::from(counts);
        if after != best || key_of(objective, after) >= key_of(objective, before) {
            return Err(OptimizeError::Internal(format!("expected {best:?}, replayed {after:?}")));
        }
        result.lurd = steps_to_lurd(&steps);
        result.steps = steps;
        result.after = after;
    }
    Ok(result)
}

/// Where an optimisation stands, shared by its threads.
struct Progress {
    /// The best solution found so far, as pushes, and its length.
    pushes: Vec<Push>,
    best: Length,
    /// Raised each time `pushes` improves.
    generation: u64,
    /// The next rung to run around `pushes`: 0 the move-order pass, `r` rung `r - 1` of the
    /// [`LADDER`].
    next_rung: usize,
    /// Searches under way.
    running: usize,
    /// True when a search around the present path stopped at its state limit.
    cut: bool,
    /// True when the time ran out or the caller cancelled.
    stopped: bool,
    searches: usize,
    improvements: usize,
    states: u64,
}

/// An optimisation under way: what its threads share.
struct Run<'a> {
    level: &'a Level,
    keys: &'a Keys,
    objective: Objective,
    max_states: usize,
    deadline: Option<Instant>,
    cancel: &'a AtomicBool,
    progress: Mutex<Progress>,
    /// Signalled when a search ends or the run stops.
    wake: Condvar,
}

impl Run<'_> {
    /// One thread of the run: it takes the next rung to search around the best path so far,
    /// searches it, and takes the result when it beats the best by then; an improvement starts
    /// the ladder again around the new path. Threads do not wait for each other: a wider search
    /// around an older path runs on while narrow ones improve the path, and what it finds counts
    /// when it is still better. With one thread the rungs go strictly in turn.
    fn rungs(&self) {
        let objective = self.objective;
        let lock = || self.progress.lock().unwrap_or_else(|e| e.into_inner());
        loop {
            let (rung, generation, pushes, upper) = {
                let mut p = lock();
                loop {
                    if self.cancel.load(Ordering::Relaxed)
                        || self.deadline.is_some_and(|d| Instant::now() >= d)
                    {
                        p.stopped = true;
                    }
                    if p.stopped || (p.next_rung >= RUNGS && p.running == 0) {
                        self.wake.notify_all();
                        return;
                    }
                    if p.next_rung < RUNGS {
                        break;
                    }
                    // Wait for a search under way: it may improve the path and restart the ladder.
                    p = self.wake.wait(p).unwrap_or_else(|e| e.into_inner());
                }
                p.next_rung += 1;
                p.running += 1;
                (p.next_rung - 1, p.generation, p.pushes.clone(), key_of(objective, p.best))
            };
            let found = if rung == 0 {
                self.reorder(&pushes)
            } else {
                self.vicinity(&pushes, LADDER[rung - 1], (upper.0, upper.1))
            };
            let mut p = lock();
            p.running -= 1;
            p.searches += 1;
            match found {
                Ok((better, states)) => {
                    p.states += states;
                    if let Some((pushes, length)) =
                        better.filter(|(_, l)| key_of(objective, *l) < key_of(objective, p.best))
                    {
                        p.pushes = pushes;
                        p.best = length;
                        p.improvements += 1;
                        p.generation += 1;
                        p.cut = false;
                        // Run the pass and the narrow vicinities again around the new path.
                        p.next_rung = 0;
                    }
                }
                Err((ended, states)) => {
                    p.states += states as u64;
                    p.stopped |= ended == Ended::Stopped;
                    p.cut |= ended == Ended::Full && generation == p.generation;
                }
            }
            self.wake.notify_all();
        }
    }
}

impl Run<'_> {
    /// The move-order pass on `pushes`: the new order and its length when it kept one.
    fn reorder(&self, pushes: &[Push]) -> RungResult {
        let (board, start) = (self.level.board(), self.level.start());
        let Some(done) = order::reorder(board, start, pushes, self.deadline, self.cancel) else {
            return Ok((None, 0));
        };
        let length = Length {
            moves: pushes.len() + done.after.walks as usize,
            pushes: pushes.len(),
            box_lines: done.after.box_lines as usize,
            box_changes: done.after.box_changes as usize,
        };
        Ok(((done.changes > 0).then_some((done.pushes, length)), 0))
    }

    /// The vicinity search `vicinity` around `pushes` for a solution cheaper than `upper`.
    fn vicinity(&self, pushes: &[Push], vicinity: Vicinity, upper: (u32, u32)) -> RungResult {
        let (board, start) = (self.level.board(), self.level.start());
        let path = configurations(start.boxes.clone(), pushes, board);
        let near = Near::new(board, self.keys, &path, vicinity);
        let bounds =
            Bounds { upper, max_states: self.max_states, deadline: self.deadline, cancel: self.cancel };
        let f = cheapest(board, self.keys, &near, (&start.boxes, start.player), self.objective, &bounds)?;
        let (moves, n_pushes) = self.objective.unkey(f.cost);
        // A vicinity result is cheaper by moves or pushes already; its box lines and changes
        // are what the order pass then compares with (pushes that cannot be made count none
        // here, and the replay at the end refuses them).
        let tally = order::tally(board, start, &f.pushes).unwrap_or_default();
        let length = Length {
            moves: moves as usize,
            pushes: n_pushes as usize,
            box_lines: tally.box_lines as usize,
            box_changes: tally.box_changes as usize,
        };
        Ok((Some((f.pushes, length)), f.states as u64))
    }
}

/// What one rung found: a better path and its length (or nothing), and the positions it
/// reached; or why a vicinity search ended without a result.
type RungResult = Result<(Option<(Vec<Push>, Length)>, u64), (Ended, usize)>;

/// The box configurations along a push list from `boxes`, sorted, the start's first.
fn configurations(mut boxes: Vec<Cell>, pushes: &[Push], board: &bisolve_board::Board) -> Vec<Vec<Cell>> {
    boxes.sort_unstable();
    let mut out = vec![boxes.clone()];
    for p in pushes {
        let to = board.neighbour(p.from, p.dir);
        if let Some(b) = boxes.iter_mut().find(|b| **b == p.from) {
            *b = to;
        }
        boxes.sort_unstable();
        out.push(boxes.clone());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use bisolve_board::moves::parse_lurd;

    fn run(xsb: &str, lurd: &str, objective: Objective) -> Optimized {
        let level = Level::parse(xsb).expect("a level");
        let steps = parse_lurd(lurd).expect("LURD");
        let settings = Settings { objective, ..Settings::default() };
        optimize(&level, &steps, &settings, &AtomicBool::new(false)).expect("optimised")
    }

    #[test]
    fn a_detour_is_cut() {
        // One box, pushed right three times; the player first steps up and down twice.
        let xsb = "#######\n#     #\n#@$  .#\n#     #\n#######\n";
        let out = run(xsb, "ududRRR", Objective::Moves);
        assert_eq!(out.before, Length { moves: 7, pushes: 3, box_lines: 1, box_changes: 1 });
        assert_eq!(out.after, Length { moves: 3, pushes: 3, box_lines: 1, box_changes: 1 });
        assert_eq!(out.lurd, "RRR");
        assert!(out.exhausted && out.improvements >= 1);
    }

    #[test]
    fn nothing_better_leaves_the_solution_as_it_was() {
        let xsb = "#####\n#@$.#\n#####\n";
        let out = run(xsb, "R", Objective::Moves);
        assert_eq!((out.lurd.as_str(), out.improvements), ("R", 0));
        assert_eq!(out.after, out.before);
        assert!(out.exhausted);
    }

    #[test]
    fn pushes_come_first_for_the_push_objective() {
        // Pushing the box back one square and on again wastes two pushes.
        let xsb = "#######\n#     #\n#@$  .#\n#     #\n#######\n";
        let out = run(xsb, "RRurrdLulldRR", Objective::Pushes);
        assert!(out.before.pushes > 3);
        assert_eq!(out.after.pushes, 3);
        let moves = run(xsb, "RRurrdLulldRR", Objective::Moves);
        assert_eq!((moves.after.moves, moves.after.pushes), (3, 3));
    }

    #[test]
    fn threads_that_do_not_wait_for_each_other_still_reach_the_end_of_the_ladder() {
        // Two boxes, each walked round a detour; any number of threads ends where one does.
        let xsb = "#########\n#       #\n# $  .  #\n#@      #\n# $  .  #\n#       #\n#########\n";
        let level = Level::parse(xsb).expect("a level");
        let steps = parse_lurd("uduRRRdllldRRR").expect("LURD");
        let one = optimize(&level, &steps, &Settings::default(), &AtomicBool::new(false)).expect("optimised");
        for threads in [2, 3, 8] {
            let settings = Settings { threads, ..Settings::default() };
            let out = optimize(&level, &steps, &settings, &AtomicBool::new(false)).expect("optimised");
            assert!(out.exhausted, "{threads} threads");
            assert_eq!(out.after, one.after, "{threads} threads");
            assert!(out.searches >= LADDER.len());
            replay(level.board(), level.start(), &out.steps).expect("a solution");
        }
    }

    #[test]
    fn the_order_pass_and_the_vicinities_together_leave_one_line_per_box() {
        // Box A pushed once, box B all the way, then A again: the reordered solution pushes
        // each box in one line and walks no more than the best order needs.
        let xsb = "#########\n#       #\n# $  .  #\n#@      #\n# $  .  #\n#       #\n#########\n";
        let out = run(xsb, "uRlddRRRulluRR", Objective::Moves);
        assert_eq!(out.before, Length { moves: 14, pushes: 6, box_lines: 3, box_changes: 3 });
        assert_eq!(out.after, Length { moves: 12, pushes: 6, box_lines: 2, box_changes: 2 });
        assert!(out.exhausted);
    }

    #[test]
    fn a_cancelled_optimisation_keeps_its_input() {
        let xsb = "#######\n#     #\n#@$  .#\n#     #\n#######\n";
        let level = Level::parse(xsb).expect("a level");
        let steps = parse_lurd("ududRRR").expect("LURD");
        let settings = Settings { threads: 2, ..Settings::default() };
        let out = optimize(&level, &steps, &settings, &AtomicBool::new(true)).expect("optimised");
        assert_eq!((out.lurd.as_str(), out.after, out.exhausted), ("ududRRR", out.before, false));
    }

    #[test]
    fn a_move_list_that_does_not_solve_is_an_error() {
        let level = Level::parse("#####\n#@$.#\n#####\n").unwrap();
        let steps = parse_lurd("r").unwrap_or_default();
        let err = optimize(&level, &steps, &Settings::default(), &AtomicBool::new(false));
        assert!(matches!(err, Err(OptimizeError::NotASolution(_))), "{err:?}");
    }

    #[test]
    fn objectives_read_and_print() {
        for o in [Objective::Moves, Objective::Pushes] {
            assert_eq!(o.to_string().parse::<Objective>(), Ok(o));
            assert_eq!(o.unkey(o.key(7, 3)), (7, 3));
        }
        assert!("fast".parse::<Objective>().is_err());
    }
}
