//! Fixtures shared by bisolve's criterion benchmarks: where the level sets are, the levels the
//! benchmarks use, and real mid-search states taken from a solution path.
//!
//! The benchmark sets live in `../shared/levels/` next to the project. When that folder is
//! absent the benchmarks fall back to the project's own `levels/demo.xsb` (always present), so
//! `cargo bench` still runs, on smaller levels.

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use bisolve_board::moves::{parse_lurd, steps_to_pushes};
use bisolve_board::search::NodeRef;
use bisolve_board::{load_collection, Board, BoxMap, Cell, Dir, Fingerprint, Level, Reach, NO_CELL};
use bisolve_engine::{solve, Config, Limits, Outcome};

/// Warm-up time of every benchmark: short, the functions measured are small.
pub const WARM_UP: Duration = Duration::from_millis(500);

/// Measurement time of every benchmark: enough for a stable median of microsecond functions,
/// short enough that `cargo bench -p bisolve-benches` finishes in a few minutes on 2 cores.
pub const MEASUREMENT: Duration = Duration::from_millis(1500);

/// The shared benchmark sets (`../shared/levels/`), when present.
pub fn shared_levels() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/levels");
    dir.is_dir().then_some(dir)
}

/// The project's own level files (`levels/`), always present.
pub fn project_levels() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../levels")
}

/// The collection files `parse` measures: every `*.xsb` of the shared sets and one Boxoban
/// file, or the project's demo levels when the shared sets are absent. Name and bytes, sorted
/// by name.
pub fn collection_files() -> Vec<(String, Vec<u8>)> {
    let mut files = Vec::new();
    match shared_levels() {
        Some(dir) => {
            let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
                .map(|entries| entries.filter_map(|e| e.ok().map(|e| e.path())).collect())
                .unwrap_or_default();
            paths.retain(|p| {
                let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
                name.ends_with(".xsb") || name == "boxoban-hard-000.txt"
            });
            paths.sort();
            for path in paths {
                if let Ok(bytes) = std::fs::read(&path) {
                    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("?").to_string();
                    files.push((name, bytes));
                }
            }
        }
        None => {
            eprintln!("{}", absent_message());
            if let Ok(bytes) = std::fs::read(project_levels().join("demo.xsb")) {
                files.push(("demo.xsb".to_string(), bytes));
            }
        }
    }
    files
}

fn absent_message() -> String {
    format!(
        "bisolve-benches: {} is absent; measuring the project's levels/demo.xsb instead",
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/levels").display()
    )
}

/// One level of a file by 1-based index, if the file reads and the level is valid.
pub fn load_level(path: &Path, index: usize) -> Option<Level> {
    let bytes = std::fs::read(path).ok()?;
    let collection = load_collection(&bytes).ok()?;
    collection.entries.into_iter().nth(index.checked_sub(1)?)?.level.ok()
}

/// A state on a solution path, stored as the search stores a node: boxes in a fixed index
/// order (box `i` is the same box in every state of the path), the normalized player and the
/// canonical fingerprint.
#[derive(Clone, Debug)]
pub struct PathState {
    /// Box cells; entry `i` is the same box along the whole path.
    pub boxes: Vec<Cell>,
    /// The smallest cell of the player's region.
    pub player: Cell,
    /// The canonical fingerprint.
    pub fp: Fingerprint,
    /// Pushes from the start.
    pub g: u32,
}

impl PathState {
    /// The state as the expanders take it.
    pub fn node(&self) -> NodeRef<'_> {
        NodeRef {
            boxes: &self.boxes,
            player: self.player,
            fp: self.fp,
            g: self.g,
            moved: bisolve_board::NO_CELL,
        }
    }
}

/// A level and the states along one of its solutions: the start position and every position
/// after a push, except the solved one.
#[derive(Debug)]
pub struct Fixture {
    /// A short name for benchmark ids, e.g. `microban-93`.
    pub name: String,
    /// The level.
    pub level: Level,
    /// The states along the solution path (at least the start position).
    pub states: Vec<PathState>,
}

impl Fixture {
    /// Solves `level` (bidirectional, one thread, at most `limit`) and records the states along
    /// the solution. `None` when it is not solved in time.
    pub fn solve(name: &str, level: Level, limit: Duration) -> Option<Fixture> {
        let config = Config { threads: 1, ..Config::default() };
        let limits = Limits { time: Some(limit), ..Limits::default() };
        let report = solve(&level, &config, &limits, &AtomicBool::new(false)).ok()?;
        let Outcome::Solved(solution) = report.outcome else {
            return None;
        };
        let steps = parse_lurd(&solution.lurd).ok()?;
        let board = level.board();
        let pushes = steps_to_pushes(board, level.start(), &steps);
        let mut map = BoxMap::new(board.n_cells());
        let mut reach = Reach::new(board.n_cells());
        let mut boxes = level.start().boxes.clone();
        let mut player = level.start().player;
        let mut states = Vec::with_capacity(pushes.len());
        for (g, push) in pushes.iter().enumerate() {
            states.push(path_state(board, &mut map, &mut reach, &boxes, player, g as u32));
            let i = boxes.iter().position(|&b| b == push.from)?;
            boxes[i] = board.neighbour(push.from, push.dir);
            player = push.from;
        }
        if states.is_empty() {
            states.push(path_state(board, &mut map, &mut reach, &boxes, player, 0));
        }
        Some(Fixture { name: name.to_string(), level, states })
    }

    /// Every push possible in `state` that does not put a box on a dead square: (box index,
    /// from, to). `map` and `reach` must hold the state's boxes and player region.
    pub fn pushes(board: &Board, map: &BoxMap, reach: &Reach, state: &PathState) -> Vec<(usize, Cell, Cell)> {
        let mut pushes = Vec::new();
        for (i, &b) in state.boxes.iter().enumerate() {
            for d in Dir::ALL {
                let to = board.neighbour(b, d);
                let behind = board.neighbour(b, d.opposite());
                if to != NO_CELL
                    && behind != NO_CELL
                    && !map.is_box(to)
                    && reach.contains(behind)
                    && !board.is_push_dead(to)
                {
                    pushes.push((i, b, to));
                }
            }
        }
        pushes
    }
}

fn path_state(
    board: &Board,
    map: &mut BoxMap,
    reach: &mut Reach,
    boxes: &[Cell],
    player: Cell,
    g: u32,
) -> PathState {
    map.set_all(boxes);
    let player = reach.fill(board, map, player);
    map.clear_all(boxes);
    let fp = board.zobrist().fingerprint(boxes, player);
    PathState { boxes: boxes.to_vec(), player, fp, g }
}

/// The levels the state benchmarks use, solved: Microban 93 and 146, Sasquatch 1 and XSokoban
/// 1 from the shared sets, or two demo levels when those are absent. A level that does not
/// solve within 30 s is left out (with a message).
pub fn fixtures() -> Vec<Fixture> {
    let picks: Vec<(&str, PathBuf, usize)> = match shared_levels() {
        Some(dir) => vec![
            ("microban-93", dir.join("microban.xsb"), 93),
            ("microban-146", dir.join("microban.xsb"), 146),
            ("sasquatch-1", dir.join("sasquatch.xsb"), 1),
            ("xsokoban-1", dir.join("xsokoban-1-45.xsb"), 1),
        ],
        None => {
            eprintln!("{}", absent_message());
            let demo = project_levels().join("demo.xsb");
            vec![("demo-5", demo.clone(), 5), ("demo-10", demo, 10)]
        }
    };
    let mut fixtures = Vec::new();
    for (name, path, index) in picks {
        match load_level(&path, index).and_then(|level| Fixture::solve(name, level, Duration::from_secs(30)))
        {
            Some(f) => fixtures.push(f),
            None => {
                eprintln!("bisolve-benches: skipping {name}: level {index} of {} not solved", path.display())
            }
        }
    }
    fixtures
}

/// SplitMix64, for reproducible random fingerprints.
pub fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// `n` random fingerprints from `seed` (distinct seeds give disjoint streams in practice).
pub fn random_fingerprints(seed: u64, n: usize) -> Vec<Fingerprint> {
    let mut s = seed;
    (0..n)
        .map(|_| Fingerprint((u128::from(splitmix64(&mut s)) << 64) | u128::from(splitmix64(&mut s))))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn demo_fixture_walks_a_solution_path() {
        let level = load_level(&project_levels().join("demo.xsb"), 5).expect("demo level 5");
        let f = Fixture::solve("demo-5", level, Duration::from_secs(30)).expect("solved");
        let board = f.level.board();
        assert_eq!(f.states[0].boxes, f.level.start().boxes);
        for pair in f.states.windows(2) {
            let moved = pair[0].boxes.iter().zip(&pair[1].boxes).filter(|(a, b)| a != b).count();
            assert_eq!(moved, 1, "one box moves per push");
            assert_eq!(pair[1].g, pair[0].g + 1);
        }
        let mut map = BoxMap::new(board.n_cells());
        let mut reach = Reach::new(board.n_cells());
        for s in &f.states {
            map.set_all(&s.boxes);
            assert_eq!(reach.fill(board, &map, s.player), s.player, "player is normalized");
            assert!(!Fixture::pushes(board, &map, &reach, s).is_empty(), "a path state has a push");
            map.clear_all(&s.boxes);
        }
    }

    #[test]
    fn random_streams_differ() {
        let a = random_fingerprints(1, 100);
        let b = random_fingerprints(2, 100);
        assert!(a.iter().all(|x| !b.contains(x)));
    }
}
