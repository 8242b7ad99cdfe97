//! Bidirectional search: the two halves meet in the middle and are stitched into one
//! solution that replays; one thread is deterministic; the smallest cases (a solved start, a
//! one-push level) come out right under every strategy.

mod common;

use bisolve_board::Level;
use bisolve_engine::{FoundBy, Report};
use common::{engine_level, expect_solved, run_named, valid_levels};

const ALL_STRATEGIES: [&str; 12] = [
    "bidirectional",
    "forward",
    "backward",
    "astar",
    "wastar",
    "bidirectional-astar",
    "backward-astar",
    "bidirectional-wastar",
    "greedy",
    "backward-greedy",
    "bidirectional-greedy",
    "bidirectional-fess1",
];

fn corridors() -> Vec<Level> {
    valid_levels(&common::engine_level_path("corridor.xsb"))
}

/// What must be the same when one thread solves the same level twice.
fn fingerprint_of(level: &Level, report: &Report) -> (String, FoundBy, u64, u64, usize) {
    let s = expect_solved(level, report);
    (s.lurd.clone(), s.found_by, report.stats.generated(), report.stats.expanded(), report.stats.states)
}

#[test]
fn corridors_meet_in_the_middle_on_one_thread() {
    let mut meetings = Vec::new();
    let mut both_sides_worked = Vec::new();
    for level in &corridors() {
        let first = run_named(level, "bidirectional", 1);
        let solution = expect_solved(level, &first);
        if solution.found_by == FoundBy::Meeting {
            meetings.push(level.name());
            let (f, b) = (first.stats.forward.expanded, first.stats.backward.expanded);
            if f > 0 && b > 0 {
                both_sides_worked.push(level.name());
            }
        }
        let second = run_named(level, "bidirectional", 1);
        assert_eq!(
            fingerprint_of(level, &first),
            fingerprint_of(level, &second),
            "{}: one thread must be deterministic",
            level.name()
        );
    }
    assert_eq!(
        meetings.len(),
        corridors().len(),
        "every corridor level must be found by a meeting; meetings: {meetings:?}"
    );
    // A meeting in the middle: both searches expanded nodes before they met.
    assert!(
        !both_sides_worked.is_empty(),
        "no corridor level met with both sides searching; meetings: {meetings:?}"
    );
}

#[test]
fn straight_corridor_halves_follow_the_turns() {
    let level = engine_level("corridor.xsb", 1);
    assert_eq!(level.name(), "corridor-30");
    // The turn-taking itself, without bridges (a bridge would walk the corridor from the
    // start towards the backward search's closest state in one go). Each side has one node in
    // its open list at every turn, so the cardinality rule ties all the way; the sides must
    // still take turns and cover the 30 pushes in the shares the forward weight gives them
    // (equal turns: about half each; the default weight 3: a quarter forward), rather than
    // one side walking the whole corridor into the other's root.
    for (weight, forward) in [(1, 10..=20), (bisolve_engine::strategy::FORWARD_WEIGHT, 5..=11)] {
        let mut cfg = common::config("bidirectional", 1);
        cfg.strategy.bridges = false;
        cfg.forward_weight = weight;
        let report = common::run(&level, &cfg, &common::time_limit(10.0));
        let solution = expect_solved(&level, &report);
        assert_eq!(solution.found_by, FoundBy::Meeting);
        assert_eq!(solution.pushes, 30);
        assert_eq!(solution.lurd, "R".repeat(30));
        let (f, b) = (report.stats.forward.expanded, report.stats.backward.expanded);
        assert!(
            forward.contains(&f) && (25..=35).contains(&(f + b)),
            "weight {weight}: forward expanded {f}, backward {b}: not the expected meeting point"
        );
    }
}

#[test]
fn corridors_solve_under_every_strategy_and_thread_count() {
    for level in &corridors() {
        for strategy in ALL_STRATEGIES {
            for threads in [1, 2, 3] {
                let report = run_named(level, strategy, threads);
                expect_solved(level, &report);
            }
        }
    }
}

#[test]
fn two_threads_meet_and_replay() {
    // With two threads the race decides who finds it; whoever does, the answer replays.
    for level in &corridors() {
        for _ in 0..5 {
            let report = run_named(level, "bidirectional", 2);
            expect_solved(level, &report);
        }
    }
}

#[test]
fn solved_start_is_found_by_start_with_no_moves() {
    let level = engine_level("trivial.xsb", 1);
    assert_eq!(level.name(), "solved-at-start");
    for strategy in ALL_STRATEGIES {
        for threads in [1, 2] {
            let report = run_named(&level, strategy, threads);
            let solution = expect_solved(&level, &report);
            assert_eq!(
                (solution.found_by, solution.lurd.as_str(), solution.moves, solution.pushes),
                (FoundBy::Start, "", 0, 0),
                "{strategy} with {threads} threads"
            );
        }
    }
}

#[test]
fn first_push_solves() {
    for (index, name, lurd) in [(2, "first-push", "R"), (3, "walk-then-push", "rR")] {
        let level = engine_level("trivial.xsb", index);
        assert_eq!(level.name(), name);
        for strategy in ALL_STRATEGIES {
            for threads in [1, 2] {
                let report = run_named(&level, strategy, threads);
                let solution = expect_solved(&level, &report);
                assert_eq!(solution.lurd, lurd, "{name}: {strategy} with {threads} threads");
                assert_ne!(solution.found_by, FoundBy::Start, "{name}: {strategy}");
                let expected_by = match strategy {
                    "forward" | "astar" | "wastar" | "greedy" => Some(FoundBy::Forward),
                    "backward" | "backward-astar" | "backward-greedy" => Some(FoundBy::Backward),
                    _ => None,
                };
                if let Some(by) = expected_by {
                    assert_eq!(solution.found_by, by, "{name}: {strategy}");
                }
            }
        }
    }
}

#[test]
fn single_direction_strategies_report_their_side() {
    let Some(levels) = common::shared_collection("microban.xsb") else {
        return;
    };
    for level in levels.iter().take(20) {
        for (strategy, by) in [
            ("forward", FoundBy::Forward),
            ("astar", FoundBy::Forward),
            ("backward", FoundBy::Backward),
            ("backward-astar", FoundBy::Backward),
        ] {
            let report = run_named(level, strategy, 1);
            let solution = expect_solved(level, &report);
            assert_eq!(solution.found_by, by, "Microban {}: {strategy}", level.index());
            let idle = if by == FoundBy::Forward { &report.stats.backward } else { &report.stats.forward };
            assert_eq!(idle.expanded, 0, "Microban {}: {strategy}", level.index());
        }
    }
}

/// Meetings on real levels: bidirectional search on Microban finds some of its solutions
/// by meeting, and every stitched solution replays and is deterministic on one thread.
#[test]
fn microban_meetings_replay_and_repeat() {
    let Some(levels) = common::shared_collection("microban.xsb") else {
        return;
    };
    let mut meetings = 0;
    for level in levels.iter().take(100) {
        let a = run_named(level, "bidirectional", 1);
        let b = run_named(level, "bidirectional", 1);
        assert_eq!(
            fingerprint_of(level, &a),
            fingerprint_of(level, &b),
            "Microban {}: one thread must be deterministic",
            level.index()
        );
        if expect_solved(level, &a).found_by == FoundBy::Meeting {
            meetings += 1;
        }
    }
    assert!(meetings > 0, "no Microban level among 1-100 was solved by a meeting");
}

/// The feature-cell ordering (the default) cycles over its cells in a fixed order, so one
/// thread gives the same answer twice, and every answer replays.
#[test]
fn feature_cell_orderings_repeat_on_one_thread() {
    let Some(levels) = common::shared_collection("microban.xsb") else {
        return;
    };
    for level in levels.iter().take(40) {
        for strategy in ["bidirectional", "forward", "bidirectional-fess1"] {
            let a = run_named(level, strategy, 1);
            let b = run_named(level, strategy, 1);
            assert_eq!(
                fingerprint_of(level, &a),
                fingerprint_of(level, &b),
                "Microban {} with {strategy}: one thread must be deterministic",
                level.index()
            );
        }
    }
}
