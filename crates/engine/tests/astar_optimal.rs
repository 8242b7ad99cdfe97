//! A* must be push-optimal: its push count equals that of a plain breadth-first search over
//! pushes written here (no pruning at all); the other orderings never beat it.

mod common;

use bisolve_board::Level;
use bisolve_deadlock::bound::BoundKind;
use bisolve_engine::{Config, Outcome, PullConfig, PushConfig};
use common::{config, expect_solved, run, run_named, time_limit};

/// The most states the breadth-first search may visit before the test gives up on a level.
const BFS_STATE_CAP: usize = 2_000_000;

/// The fewest pushes that solve the level, by the plain breadth-first search of
/// [`common::bfs_min_pushes`]: `Some(None)` when unsolvable, `None` past the state cap.
fn bfs_min_pushes(level: &Level) -> Option<Option<usize>> {
    common::bfs_min_pushes(level.board(), level.start(), BFS_STATE_CAP)
}

/// Microban levels among the first 40 with at most 4 boxes, and among levels 41-100 those
/// with at most 3 (their BFS takes milliseconds).
fn small_microban() -> Vec<Level> {
    let Some(levels) = common::shared_collection("microban.xsb") else {
        return Vec::new();
    };
    levels
        .into_iter()
        .take(100)
        .filter(|l| l.board().n_boxes() <= if l.index() <= 40 { 4 } else { 3 })
        .collect()
}

/// The hand-made levels of `levels/engine/` that BFS can settle.
fn hand_made() -> Vec<Level> {
    let mut levels = Vec::new();
    for file in ["trivial.xsb", "corridor.xsb", "optimal.xsb", "unsolvable.xsb"] {
        levels.extend(common::valid_levels(&common::engine_level_path(file)));
    }
    levels
}

fn name(level: &Level) -> String {
    format!("{} (index {})", level.name(), level.index())
}

/// Solves with A* on one thread, with the default pruning and with every pruning switch
/// and bound, and checks each push count against BFS.
fn assert_astar_matches_bfs(level: &Level) -> Option<usize> {
    if level.walled_off().is_some() {
        // BFS sees only the player's area; the level text says unsolvable.
        let report = run_named(level, "astar", 1);
        assert_eq!(report.outcome, Outcome::Unsolvable, "{}", name(level));
        assert!(report.note.is_some(), "{}: no note says why", name(level));
        return None;
    }
    let bfs = bfs_min_pushes(level).unwrap_or_else(|| panic!("{}: BFS visited too many states", name(level)));
    let Some(best) = bfs else {
        let report = run_named(level, "astar", 1);
        assert_eq!(report.outcome, Outcome::Unsolvable, "{}: BFS proves it unsolvable", name(level));
        return None;
    };
    let report = run_named(level, "astar", 1);
    let solution = expect_solved(level, &report);
    assert_eq!(
        solution.pushes,
        best,
        "{}: astar (1 thread) found {} pushes, BFS {best}\nLURD: {}",
        name(level),
        solution.pushes,
        solution.lurd
    );
    for bound in [BoundKind::Matching, BoundKind::Nearest, BoundKind::Zero] {
        for (dead_squares, freeze) in [(true, true), (false, false)] {
            // Switches added to the configs later keep their defaults.
            #[allow(clippy::needless_update)]
            let cfg = Config {
                push: PushConfig { dead_squares, freeze, bound, ..PushConfig::default() },
                pull: PullConfig { dead_squares, bound, ..PullConfig::default() },
                ..config("astar", 1)
            };
            let report = run(level, &cfg, &time_limit(10.0));
            let solution = expect_solved(level, &report);
            assert_eq!(
                solution.pushes,
                best,
                "{}: astar with bound {bound:?}, dead squares {dead_squares}, freeze {freeze} \
                 found {} pushes, BFS {best}",
                name(level),
                solution.pushes
            );
        }
    }
    Some(best)
}

/// The non-optimal orderings may find longer solutions but never shorter ones than BFS.
fn assert_never_below_bfs(level: &Level, best: usize) {
    for strategy in ["bidirectional-astar", "wastar", "backward-astar", "bidirectional"] {
        for threads in [1, 2] {
            let report = run_named(level, strategy, threads);
            let solution = expect_solved(level, &report);
            assert!(
                solution.pushes >= best,
                "{}: {strategy} with {threads} threads found {} pushes, fewer than BFS's {best}\n\
                 LURD: {}",
                name(level),
                solution.pushes,
                solution.lurd
            );
        }
    }
}

#[test]
fn astar_matches_bfs_on_small_microban() {
    let levels = small_microban();
    if levels.is_empty() {
        return;
    }
    assert!(levels.len() >= 30, "expected at least 30 small levels");
    for level in &levels {
        let best =
            assert_astar_matches_bfs(level).unwrap_or_else(|| panic!("{}: BFS says unsolvable", name(level)));
        assert_never_below_bfs(level, best);
    }
}

#[test]
fn astar_matches_bfs_on_hand_made_levels() {
    for level in &hand_made() {
        if let Some(best) = assert_astar_matches_bfs(level) {
            assert_never_below_bfs(level, best);
        }
    }
}

/// The expectation written in each hand-made file agrees with BFS, so the fixtures
/// themselves are right.
#[test]
fn hand_made_expectations_agree_with_bfs() {
    for (file, solvable) in
        [("trivial.xsb", true), ("corridor.xsb", true), ("optimal.xsb", true), ("unsolvable.xsb", false)]
    {
        for level in common::valid_levels(&common::engine_level_path(file)) {
            if level.walled_off().is_some() {
                assert!(!solvable, "{file} {}: walled off", name(&level));
                continue;
            }
            let bfs = bfs_min_pushes(&level)
                .unwrap_or_else(|| panic!("{file} {}: BFS visited too many states", name(&level)));
            assert_eq!(bfs.is_some(), solvable, "{file} {}: BFS says {bfs:?}", name(&level));
        }
    }
}

/// A small deterministic generator (xorshift64*), so a failing random level can be rebuilt
/// from its seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// A random closed room of `w` x `h` squares (walls included) with some inner walls and
/// `boxes` boxes and goals, as XSB text; `None` when the dice made an invalid level.
fn random_level(seed: u64, w: usize, h: usize, boxes: usize) -> Option<(String, Level)> {
    let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let mut grid = vec![vec!['#'; w]; h];
    let mut floor = Vec::new();
    for (y, row) in grid.iter_mut().enumerate().take(h - 1).skip(1) {
        for (x, sq) in row.iter_mut().enumerate().take(w - 1).skip(1) {
            if rng.below(100) >= 12 {
                *sq = ' ';
                floor.push((x, y));
            }
        }
    }
    if floor.len() < 2 * boxes + 3 {
        return None;
    }
    // Distinct squares for the boxes, the goals and the player (a box may start on a goal).
    let mut pick = || floor.swap_remove(rng.below(floor.len()));
    for _ in 0..boxes {
        let (x, y) = pick();
        grid[y][x] = '$';
    }
    let mut goals = 0;
    while goals < boxes {
        let (x, y) = pick();
        grid[y][x] = '.';
        goals += 1;
    }
    let (x, y) = pick();
    grid[y][x] = '@';
    // One area: every floor square reachable from the player walking through boxes, so no
    // box or goal is walled off (that case is tested on its own).
    let open: Vec<(usize, usize)> =
        (0..h).flat_map(|y| (0..w).map(move |x| (x, y))).filter(|&(x, y)| grid[y][x] != '#').collect();
    let mut seen = vec![(x, y)];
    let mut stack = vec![(x, y)];
    while let Some((cx, cy)) = stack.pop() {
        for (nx, ny) in [(cx - 1, cy), (cx + 1, cy), (cx, cy - 1), (cx, cy + 1)] {
            if grid[ny][nx] != '#' && !seen.contains(&(nx, ny)) {
                seen.push((nx, ny));
                stack.push((nx, ny));
            }
        }
    }
    if seen.len() != open.len() {
        return None;
    }
    let text: String = grid.iter().map(|r| r.iter().collect::<String>() + "\n").collect();
    let level = Level::parse(&text).unwrap_or_else(|e| panic!("generated level: {e}\n{text}"));
    Some((text, level))
}

/// Differential test on random small rooms: the engine agrees with BFS on which levels are
/// solvable (under every direction, with and without pruning, on 1 and 2 threads), and A*
/// finds exactly BFS's push count.
#[test]
fn random_rooms_agree_with_bfs() {
    let mut checked = (0, 0);
    for seed in 0..1200u64 {
        let (w, h, boxes) = match seed % 4 {
            0 => (6, 6, 1),
            1 => (7, 6, 2),
            2 => (7, 7, 2),
            _ => (7, 7, 3),
        };
        let Some((text, level)) = random_level(seed, w, h, boxes) else {
            continue;
        };
        let Some(best) = bfs_min_pushes(&level) else {
            continue;
        };
        let what = format!("random level seed {seed}:\n{text}");
        if best.is_some() {
            checked.0 += 1;
        } else {
            checked.1 += 1;
        }
        // Several workers per direction (hash-distributed) on a quarter of the levels: their
        // termination test must not call a solvable level unsolvable, nor hang on an
        // unsolvable one.
        let threaded: &[(&str, usize)] =
            if seed % 4 == 1 { &[("forward", 3), ("backward", 2), ("bidirectional", 4)] } else { &[] };
        let single =
            [("bidirectional", 1), ("bidirectional", 2), ("forward", 1), ("backward", 1), ("astar", 1)];
        for &(strategy, threads) in single.iter().chain(threaded) {
            let report = run_named(&level, strategy, threads);
            match (best, &report.outcome) {
                (Some(best), Outcome::Solved(s)) => {
                    assert!(s.pushes >= best, "{what}{strategy}: {} < BFS {best}", s.pushes);
                    if strategy == "astar" {
                        assert_eq!(s.pushes, best, "{what}astar pushes");
                    }
                }
                (None, Outcome::Unsolvable) => {}
                (_, outcome) => panic!("{what}{strategy} with {threads} threads: {outcome:?}, BFS {best:?}"),
            }
        }
        // Without the basic pruning (dead squares, freeze, bound) the searches must agree too;
        // switches added later keep their defaults.
        #[allow(clippy::needless_update)]
        let bare = Config {
            push: PushConfig {
                dead_squares: false,
                freeze: false,
                bound: BoundKind::Zero,
                ..PushConfig::default()
            },
            pull: PullConfig { dead_squares: false, bound: BoundKind::Zero, ..PullConfig::default() },
            ..config("bidirectional", 1)
        };
        let report = run(&level, &bare, &time_limit(10.0));
        assert_eq!(
            matches!(report.outcome, Outcome::Solved(_)),
            best.is_some(),
            "{what}no pruning: {:?}, BFS {best:?}",
            report.outcome
        );
    }
    // The generator must make both kinds, or the test proves little.
    eprintln!("random rooms: {} solvable, {} unsolvable", checked.0, checked.1);
    assert!(checked.0 >= 150 && checked.1 >= 150, "solvable, unsolvable: {checked:?}");
}
