//! Any bytes as a level file, solved under small limits: the engine never panics, every
//! solution replays, and its verdicts agree with an independent brute-force search on the
//! level's text ("unsolvable" only when no push sequence solves it; A* push-optimal).
//!
//! The first byte picks the strategy; the rest is the level file.
#![no_main]

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use bisolve_board::load_collection;
use bisolve_board::moves::{parse_lurd, replay};
use bisolve_engine::{solve, Config, Limits, Outcome, PullConfig, PushConfig, Strategy};
use bisolve_fuzz::Grid;
use libfuzzer_sys::fuzz_target;

const STRATEGIES: [&str; 6] = ["bidirectional", "forward", "backward", "astar", "greedy", "wastar"];

/// Positions the brute-force search may visit before it gives up on a level.
const CAP: usize = 20_000;

fuzz_target!(|data: &[u8]| {
    let Some((&pick, file)) = data.split_first() else {
        return;
    };
    let name = STRATEGIES[pick as usize % STRATEGIES.len()];
    let Ok(collection) = load_collection(file) else {
        return;
    };
    for entry in collection.entries.iter().take(4) {
        let Ok(level) = &entry.level else {
            continue;
        };
        if level.board().n_cells() > 120 || level.board().n_boxes() > 8 {
            continue;
        }
        let strategy = Strategy::parse(name).expect("known strategy");
        let config = Config {
            strategy,
            threads: 1,
            push: PushConfig::default(),
            pull: PullConfig::default(),
            ..Config::default()
        };
        let limits = Limits {
            time: Some(Duration::from_secs(10)),
            memory: Some(64 << 20),
            states: Some(50_000),
            progress: None,
        };
        let report = solve(level, &config, &limits, &AtomicBool::new(false)).expect("solve never fails");
        let truth = Grid::new(level.rows()).expect("one player").min_pushes(CAP);
        match &report.outcome {
            Outcome::Solved(s) => {
                let steps = parse_lurd(&s.lurd).expect("engine LURD parses");
                let counts = replay(level.board(), level.start(), &steps).expect("engine solution replays");
                assert_eq!((counts.moves, counts.pushes), (s.moves, s.pushes));
                assert!(level.walled_off().is_none(), "solved a walled-off level");
                if let Some(best) = truth {
                    let best = best.expect("the brute-force search finds no solution, the engine one");
                    assert!(s.pushes >= best, "{} pushes, fewer than the fewest {best}", s.pushes);
                    if name == "astar" {
                        assert_eq!(s.pushes, best, "A* is not push-optimal");
                    }
                }
            }
            Outcome::Unsolvable => {
                if let Some(Some(best)) = truth {
                    panic!("{name}: reported unsolvable; solvable in {best} pushes");
                }
            }
            Outcome::Cutoff(_) => {}
        }
    }
});
