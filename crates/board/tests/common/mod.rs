//! Helpers shared by the board crate's integration tests: where level files live, loading them,
//! inline boards, cells by column and row, replaying LURD text, and the player's region.

// Each test binary uses its own subset of these helpers.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use bisolve_board::moves::{self, ReplayStats};
use bisolve_board::{load_collection, Board, BoxMap, Cell, Collection, Dir, Level, Reach, State, NO_CELL};
use proptest::test_runner::{Config as ProptestConfig, RngSeed};

/// The project's own levels: `levels/` at the workspace root.
pub fn repo_levels() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../levels")
}

/// `/work/shared/levels`, or `None` (with a message) when this checkout has no shared data.
pub fn shared_levels() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/levels");
    if dir.is_dir() {
        Some(dir)
    } else {
        eprintln!("skipping: shared levels not found at {}", dir.display());
        None
    }
}

/// A file of the project's levels, by its path under `levels/` (`"edge/tunnel.xsb"`).
pub fn repo_file(name: &str) -> PathBuf {
    repo_levels().join(name)
}

/// The bytes of a file, or a panic that names it.
pub fn read(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

/// Loads a level file that must hold at least one level (valid or not).
pub fn load(path: &Path) -> Collection {
    load_collection(&read(path)).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Loads `levels/NAME` and returns its only level, which must be valid.
pub fn repo_level(name: &str) -> Level {
    let c = load(&repo_file(name));
    assert_eq!(c.entries.len(), 1, "{name}: one level expected");
    let entry = c.entries.into_iter().next().expect("one entry");
    entry.level.unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// Parses inline level text that must be valid.
pub fn level(text: &str) -> Level {
    Level::parse(text).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

/// The cell at column `x`, row `y`, which must be floor.
pub fn cell(board: &Board, x: usize, y: usize) -> Cell {
    board.cell(x, y).unwrap_or_else(|| panic!("({x}, {y}) is not a floor cell"))
}

/// Every file directly in `dir` whose name ends with one of `exts`, sorted by name.
pub fn files_in(dir: &Path, exts: &[&str]) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.is_file() && p.extension().and_then(|e| e.to_str()).is_some_and(|e| exts.contains(&e)))
        .collect();
    files.sort();
    files
}

/// Every level file (`.xsb`, `.sok`, `.txt`) anywhere under `levels/`, sorted.
pub fn all_repo_level_files() -> Vec<PathBuf> {
    let root = repo_levels();
    let mut out = files_in(&root, &["xsb", "sok", "txt"]);
    for sub in ["edge", "invalid", "formats", "optimize"] {
        out.extend(files_in(&root.join(sub), &["xsb", "sok", "txt"]));
    }
    out
}

/// Every valid level of every file under `levels/`, with a name for messages. Files that are
/// unreadable as a whole (the invalid fixtures) are skipped.
pub fn all_repo_valid_levels() -> Vec<(String, Level)> {
    let mut out = Vec::new();
    for path in all_repo_level_files() {
        let Ok(c) = load_collection(&read(&path)) else {
            continue;
        };
        for e in c.entries {
            if let Ok(level) = e.level {
                out.push((format!("{} #{}", path.display(), e.index), level));
            }
        }
    }
    out
}

/// Replays LURD text on a level.
pub fn replay_text(level: &Level, lurd: &str) -> Result<ReplayStats, moves::ReplayError> {
    let steps = moves::parse_lurd(lurd).unwrap_or_else(|e| panic!("{lurd:?}: {e}"));
    moves::replay(level.board(), level.start(), &steps)
}

/// The cells the player can walk to in `state`, by a plain breadth-first search written here
/// (independent of [`Reach`]).
pub fn region(board: &Board, state: &State) -> Vec<Cell> {
    let mut seen = vec![false; board.n_cells()];
    let mut queue = std::collections::VecDeque::from([state.player]);
    seen[state.player as usize] = true;
    while let Some(c) = queue.pop_front() {
        for d in Dir::ALL {
            let n = board.neighbour(c, d);
            if n != bisolve_board::NO_CELL && !seen[n as usize] && !state.boxes.contains(&n) {
                seen[n as usize] = true;
                queue.push_back(n);
            }
        }
    }
    (0..board.n_cells() as Cell).filter(|&c| seen[c as usize]).collect()
}

/// A proptest configuration with a fixed seed and no persistence files: the same `cases`
/// cases on every run.
pub fn proptest_config(cases: u32, seed: u64) -> ProptestConfig {
    ProptestConfig {
        cases,
        rng_seed: RngSeed::Fixed(seed),
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

/// Whether some position reachable from any of `starts` by pushes has every box on a goal (a
/// breadth-first search over all pushes, boxes sorted, player normalized, no pruning at all).
/// The boxes need not match the goals in number.
pub fn solvable(board: &Board, starts: &[State]) -> bool {
    let n = board.n_cells();
    let mut map = BoxMap::new(n);
    let mut reach = Reach::new(n);
    let mut key = |state: &State, map: &mut BoxMap| {
        map.set_all(&state.boxes);
        let min = reach.fill(board, map, state.player);
        map.clear_all(&state.boxes);
        (state.boxes.clone(), min)
    };
    let mut seen = std::collections::HashSet::new();
    let mut queue = std::collections::VecDeque::new();
    for s in starts {
        if seen.insert(key(s, &mut map)) {
            queue.push_back(s.clone());
        }
    }
    let mut fill = Reach::new(n);
    while let Some(state) = queue.pop_front() {
        if state.is_solved(board) {
            return true;
        }
        map.set_all(&state.boxes);
        fill.fill(board, &map, state.player);
        let mut children = Vec::new();
        for &b in &state.boxes {
            for d in Dir::ALL {
                let from = board.neighbour(b, d.opposite());
                let to = board.neighbour(b, d);
                if from == NO_CELL || to == NO_CELL || map.is_box(to) || !fill.contains(from) {
                    continue;
                }
                let mut child = state.clone();
                child.move_box(b, to, b);
                children.push(child);
            }
        }
        map.clear_all(&state.boxes);
        for child in children {
            if seen.insert(key(&child, &mut map)) {
                queue.push_back(child);
            }
        }
    }
    false
}

/// XSB text of a rectangle of squares (`side` to a row) inside a ring of walls.
pub fn walled(grid: &[u8], side: usize) -> String {
    let mut text = "#".repeat(side + 2) + "\n";
    for row in grid.chunks(side) {
        text.push('#');
        text.extend(row.iter().map(|&c| c as char));
        text.push_str("#\n");
    }
    text.push_str(&"#".repeat(side + 2));
    text
}
