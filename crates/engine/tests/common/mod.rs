//! Helpers shared by the engine's integration tests: finding and loading level files,
//! running a solve, and checking every solution independently by replaying its LURD.

// Each test binary compiles this module on its own and uses only part of it.
#![allow(dead_code)]

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use bisolve_board::moves::{parse_lurd, replay, steps_to_pushes, Push};
use bisolve_board::{load_collection, Board, Cell, Collection, Dir, Level, State, NO_CELL};
use bisolve_engine::{solve, Config, Limits, Outcome, Report, Solution, Strategy};

/// The project's own `levels/` folder.
pub fn repo_levels() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../levels")
}

/// A file in `levels/engine/` (the hand-made levels of these tests).
pub fn engine_level_path(name: &str) -> PathBuf {
    repo_levels().join("engine").join(name)
}

/// `../shared/levels` (relative to the project root), or `None` with a message when this
/// checkout has no shared data.
pub fn shared_levels() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/levels");
    if dir.is_dir() {
        Some(dir)
    } else {
        eprintln!("skipping shared-level checks: {} not found", dir.display());
        None
    }
}

/// Reads and parses a level file; panics with the path on failure.
pub fn load_file(path: &Path) -> Collection {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    load_collection(&bytes).unwrap_or_else(|e| panic!("cannot parse {}: {e}", path.display()))
}

/// Every valid level of a file, in file order.
pub fn valid_levels(path: &Path) -> Vec<Level> {
    load_file(path)
        .entries
        .into_iter()
        .map(|e| e.level.unwrap_or_else(|err| panic!("{} level {}: {err}", path.display(), e.index)))
        .collect()
}

/// A hand-made level from `levels/engine/`, by 1-based index in its file.
pub fn engine_level(file: &str, index: usize) -> Level {
    let path = engine_level_path(file);
    let collection = load_file(&path);
    let entry = collection
        .entries
        .into_iter()
        .nth(index - 1)
        .unwrap_or_else(|| panic!("{} has no level {index}", path.display()));
    entry.level.unwrap_or_else(|e| panic!("{} level {index}: {e}", path.display()))
}

/// The levels of a shared collection (`microban.xsb`, ...), or `None` when shared data is
/// absent.
pub fn shared_collection(file: &str) -> Option<Vec<Level>> {
    let dir = shared_levels()?;
    Some(valid_levels(&dir.join(file)))
}

/// A level parsed from text (for small levels written inline).
pub fn level(text: &str) -> Level {
    Level::parse(text).unwrap_or_else(|e| panic!("bad test level: {e}\n{text}"))
}

/// A configuration with the default switches, this strategy and thread count.
pub fn config(strategy: &str, threads: usize) -> Config {
    Config {
        strategy: Strategy::parse(strategy).unwrap_or_else(|e| panic!("{e}")),
        threads,
        ..Config::default()
    }
}

/// A time limit and nothing else.
pub fn time_limit(secs: f64) -> Limits {
    Limits { time: Some(Duration::from_secs_f64(secs)), ..Limits::default() }
}

/// Runs a solve that must not fail internally, and checks any solution it returns.
pub fn run(level: &Level, config: &Config, limits: &Limits) -> Report {
    let cancel = AtomicBool::new(false);
    let report = solve(level, config, limits, &cancel).unwrap_or_else(|e| {
        panic!("{}: solve failed ({} with {} threads): {e}", level.name(), config.strategy, config.threads)
    });
    check_solution(level, &report);
    report
}

/// Solves with this strategy and thread count under a 10 s limit (checked).
pub fn run_named(level: &Level, strategy: &str, threads: usize) -> Report {
    run(level, &config(strategy, threads), &time_limit(10.0))
}

/// The steps of a LURD text; panics when it is not LURD.
fn steps_of(level: &Level, lurd: &str) -> Vec<bisolve_board::moves::Step> {
    parse_lurd(lurd).unwrap_or_else(|e| panic!("{}: bad LURD {lurd:?}: {e}", level.name()))
}

/// If the report holds a solution, replays its LURD on the level and checks that it solves
/// it with exactly the moves and pushes the report claims. Returns the solution, if any.
pub fn check_solution<'r>(level: &Level, report: &'r Report) -> Option<&'r Solution> {
    let Outcome::Solved(solution) = &report.outcome else {
        return None;
    };
    let steps = steps_of(level, &solution.lurd);
    let counts = replay(level.board(), level.start(), &steps).unwrap_or_else(|e| {
        panic!(
            "{}: the solution of {} with {} threads does not replay: {e}\nLURD: {}",
            level.name(),
            report.strategy,
            report.threads,
            solution.lurd
        )
    });
    assert_eq!(
        (counts.moves, counts.pushes),
        (solution.moves, solution.pushes),
        "{}: replayed (moves, pushes) differ from the report ({} with {} threads)",
        level.name(),
        report.strategy,
        report.threads
    );
    assert_eq!(
        solution.lurd.chars().filter(char::is_ascii_uppercase).count(),
        solution.pushes,
        "{}: upper-case letters and pushes differ",
        level.name()
    );
    Some(solution)
}

/// Like [`check_solution`], but the level must have been solved.
pub fn expect_solved<'r>(level: &Level, report: &'r Report) -> &'r Solution {
    check_solution(level, report).unwrap_or_else(|| {
        panic!(
            "{}: expected a solution from {} with {} threads, got {:?} ({:?})",
            level.name(),
            report.strategy,
            report.threads,
            report.outcome,
            report.note
        )
    })
}

/// The pushes of a solution's LURD (which must replay).
pub fn solution_pushes(level: &Level, lurd: &str) -> Vec<Push> {
    let steps = steps_of(level, lurd);
    steps_to_pushes(level.board(), level.start(), &steps)
}

/// The states a push list passes through: the start, then the state after each push (with
/// the real player square, where the pusher stands).
pub fn state_sequence(board: &Board, start: &State, pushes: &[Push]) -> Vec<State> {
    let mut states = vec![start.clone()];
    let mut at = start.clone();
    for (i, push) in pushes.iter().enumerate() {
        let to = board.neighbour(push.from, push.dir);
        assert!(
            at.boxes.binary_search(&push.from).is_ok() && to != bisolve_board::NO_CELL,
            "push {} does not move a box",
            i + 1
        );
        at.move_box(push.from, to, push.from);
        states.push(at.clone());
    }
    states
}

// ---------------------------------------------------------------------------------------------
// A plain push search, written here so the checks share no code with the solver they check.

/// The player's region: marks in `seen` every cell reachable from `from` without pushing
/// (`boxes[c]` says a box stands on `c`) and returns the smallest (the normalized player).
fn region(board: &Board, boxes: &[bool], from: Cell, seen: &mut Vec<bool>) -> Cell {
    seen.clear();
    seen.resize(board.n_cells(), false);
    seen[from as usize] = true;
    let mut stack = vec![from];
    let mut min = from;
    while let Some(c) = stack.pop() {
        for d in Dir::ALL {
            let n = board.neighbour(c, d);
            if n != NO_CELL && !seen[n as usize] && !boxes[n as usize] {
                seen[n as usize] = true;
                min = min.min(n);
                stack.push(n);
            }
        }
    }
    min
}

/// A canonical position: sorted box cells and the normalized player.
pub type Canonical = (Vec<Cell>, Cell);

/// The canonical form of a state.
pub fn canonical(board: &Board, state: &State) -> Canonical {
    let mut boxes_map = vec![false; board.n_cells()];
    for &b in &state.boxes {
        boxes_map[b as usize] = true;
    }
    let mut boxes = state.boxes.clone();
    boxes.sort_unstable();
    (boxes, region(board, &boxes_map, state.player, &mut Vec::new()))
}

/// Every legal push from a canonical position, with the position it leads to. No pruning.
pub fn legal_pushes(board: &Board, (boxes, player): &Canonical) -> Vec<(Push, Canonical)> {
    let mut boxes_map = vec![false; board.n_cells()];
    for &b in boxes {
        boxes_map[b as usize] = true;
    }
    let mut reach = Vec::new();
    region(board, &boxes_map, *player, &mut reach);
    let mut seen = Vec::new();
    let mut out = Vec::new();
    for (i, &b) in boxes.iter().enumerate() {
        for d in Dir::ALL {
            let to = board.neighbour(b, d);
            let behind = board.neighbour(b, d.opposite());
            if to == NO_CELL || boxes_map[to as usize] || behind == NO_CELL || !reach[behind as usize] {
                continue;
            }
            let mut child = boxes.clone();
            child[i] = to;
            child.sort_unstable();
            boxes_map[b as usize] = false;
            boxes_map[to as usize] = true;
            let child_player = region(board, &boxes_map, b, &mut seen);
            boxes_map[to as usize] = false;
            boxes_map[b as usize] = true;
            out.push((Push { from: b, dir: d }, (child, child_player)));
        }
    }
    out
}

/// The fewest pushes that solve the level from `start`, by breadth-first search over
/// canonical positions with no pruning at all. `Some(None)`: proven unsolvable; `None`: more
/// than `cap` positions visited.
pub fn bfs_min_pushes(board: &Board, start: &State, cap: usize) -> Option<Option<usize>> {
    let solved = |boxes: &[Cell]| boxes.iter().all(|&b| board.is_goal(b));
    let start = canonical(board, start);
    if solved(&start.0) {
        return Some(Some(0));
    }
    let mut visited: HashSet<Canonical> = HashSet::new();
    visited.insert(start.clone());
    let mut layer = vec![start];
    let mut depth = 0;
    while !layer.is_empty() {
        depth += 1;
        let mut next = Vec::new();
        for position in &layer {
            for (_, child) in legal_pushes(board, position) {
                if solved(&child.0) {
                    return Some(Some(depth));
                }
                if visited.insert(child.clone()) {
                    next.push(child);
                }
            }
        }
        if visited.len() > cap {
            return None;
        }
        layer = next;
    }
    Some(None)
}

/// Every legal pull from a canonical position, with the position it leads to. No pruning.
/// The pull is written as the push that undoes it.
pub fn legal_pulls(board: &Board, (boxes, player): &Canonical) -> Vec<(Push, Canonical)> {
    let mut boxes_map = vec![false; board.n_cells()];
    for &b in boxes {
        boxes_map[b as usize] = true;
    }
    let mut reach = Vec::new();
    region(board, &boxes_map, *player, &mut reach);
    let mut seen = Vec::new();
    let mut out = Vec::new();
    for (i, &b) in boxes.iter().enumerate() {
        for d in Dir::ALL {
            // The player stands on `to`, steps back to `beyond`, and the box follows.
            let to = board.neighbour(b, d);
            if to == NO_CELL || !reach[to as usize] {
                continue;
            }
            let beyond = board.neighbour(to, d);
            if beyond == NO_CELL || boxes_map[beyond as usize] {
                continue;
            }
            let mut child = boxes.clone();
            child[i] = to;
            child.sort_unstable();
            boxes_map[b as usize] = false;
            boxes_map[to as usize] = true;
            let child_player = region(board, &boxes_map, beyond, &mut seen);
            boxes_map[to as usize] = false;
            boxes_map[b as usize] = true;
            out.push((Push { from: to, dir: d.opposite() }, (child, child_player)));
        }
    }
    out
}

/// Every position reachable from `start` by pushes, or `None` past `cap` positions.
pub fn reachable_positions(board: &Board, start: &State, cap: usize) -> Option<HashSet<Canonical>> {
    let start = canonical(board, start);
    let mut visited: HashSet<Canonical> = HashSet::new();
    visited.insert(start.clone());
    let mut stack = vec![start];
    while let Some(position) = stack.pop() {
        for (_, child) in legal_pushes(board, &position) {
            if visited.insert(child.clone()) {
                if visited.len() > cap {
                    return None;
                }
                stack.push(child);
            }
        }
    }
    Some(visited)
}
