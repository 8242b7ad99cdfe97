//! Every level in the project's `levels/` folder, and a fixed sample of Microban I under
//! each direction and thread count, solved and replayed.
//!
//! Expected outcomes in level files: a comment line `; expect: solved` or
//! `; expect: unsolvable` applies to the next level below it in the file. Written before
//! the first board (in the file's header), it is also the default for every level of the
//! file that has no line of its own. The prose form `; Expected: valid, solved (5 pushes at
//! best).` is read the same way: the first of the words `unsolvable` / `solved` after
//! `Expected:` is the outcome (neither word: no expectation), and `N pushes at best` is the
//! fewest pushes, which A* on one thread must find. `; expect: endless` marks a level no
//! search finishes (the limit tests' stand-in for a hard level): it is searched up to a
//! state limit, which must stop it with neither a solution nor a proof. A level with no
//! expectation must only not fail: any solution it gets must replay, and a time-out is
//! accepted.

mod common;

use std::path::{Path, PathBuf};

use bisolve_board::Level;
use bisolve_engine::{Cutoff, Limits, Outcome};
use common::{expect_solved, load_file, repo_levels, run, run_named};

/// What a level file says a level's outcome must be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Expect {
    /// Solved; with the fewest pushes when the file gives them.
    Solved(Option<usize>),
    Unsolvable,
    /// Neither solved nor proved unsolvable by any search in reasonable time.
    Endless,
}

/// Every `.xsb` and `.sok` file under `dir`, recursively, except under `levels/invalid/`;
/// sorted so failures are reported in a stable order.
fn level_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let entries = std::fs::read_dir(&d).unwrap_or_else(|e| panic!("cannot list {}: {e}", d.display()));
        for entry in entries {
            let path = entry.expect("directory entry").path();
            if path.is_dir() {
                if path.file_name().is_some_and(|n| n == "invalid") && d == dir {
                    continue;
                }
                stack.push(path);
            } else if path
                .extension()
                .and_then(|e| e.to_str())
                .is_some_and(|e| e.eq_ignore_ascii_case("xsb") || e.eq_ignore_ascii_case("sok"))
            {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// Reads the prose form: `valid, solved (5 pushes at best).`, `valid, unsolvable at once.`
fn prose_expectation(text: &str) -> Option<Expect> {
    let text = text.to_ascii_lowercase();
    let words: Vec<&str> =
        text.split(|c: char| !c.is_ascii_alphanumeric()).filter(|w| !w.is_empty()).collect();
    let outcome = words.iter().find(|w| **w == "solved" || **w == "unsolvable")?;
    if *outcome == "unsolvable" {
        return Some(Expect::Unsolvable);
    }
    let best = words
        .windows(4)
        .find(|w| w[1] == "pushes" && w[2] == "at" && w[3] == "best")
        .and_then(|w| w[0].parse().ok());
    Some(Expect::Solved(best))
}

/// `; expect: solved|unsolvable` and `; Expected: ...` lines of a file: (1-based line,
/// expectation).
fn expect_lines(path: &Path, bytes: &[u8]) -> Vec<(usize, Expect)> {
    let text = String::from_utf8_lossy(bytes);
    let mut out = Vec::new();
    // Lines as the parser counts them: LF, CRLF or a lone CR.
    let normalized = text.replace("\r\n", "\n").replace('\r', "\n");
    for (i, line) in normalized.lines().enumerate() {
        let Some(comment) = line.trim_start().strip_prefix(';') else {
            continue;
        };
        let comment = comment.trim();
        let lower = comment.to_ascii_lowercase();
        let expect = if let Some(value) = lower.strip_prefix("expect:") {
            match value.trim() {
                "solved" => Expect::Solved(None),
                "unsolvable" => Expect::Unsolvable,
                "endless" => Expect::Endless,
                other => panic!(
                    "{} line {}: unknown expectation {other:?} (use solved, unsolvable or endless)",
                    path.display(),
                    i + 1
                ),
            }
        } else if let Some(value) = lower.strip_prefix("expected:") {
            let Some(expect) = prose_expectation(value) else {
                continue;
            };
            expect
        } else {
            continue;
        };
        out.push((i + 1, expect));
    }
    out
}

/// The expectation of each level (`first_lines` are the levels' first board lines, in file
/// order): the last `expect:` line between the previous level's board and this one, or the
/// file's default (an `expect:` line before the first board).
fn expectations(lines: &[(usize, Expect)], first_lines: &[usize]) -> Vec<Option<Expect>> {
    let first_board = first_lines.first().copied().unwrap_or(usize::MAX);
    let default = lines.iter().rev().find(|(l, _)| *l < first_board).map(|&(_, e)| e);
    first_lines
        .iter()
        .enumerate()
        .map(|(i, &first)| {
            let after = if i == 0 { 0 } else { first_lines[i - 1] };
            lines.iter().rev().find(|(l, _)| *l > after && *l < first).map(|&(_, e)| e).or(default)
        })
        .collect()
}

/// Solves one repository level with the default configuration and a 10 s limit (`run`
/// replays any solution).
fn check_repo_level(file: &str, level: &Level, expect: Option<Expect>) -> Result<(), String> {
    let what = format!("{file} level {} ({})", level.index(), level.name());
    if expect == Some(Expect::Endless) {
        let limits = Limits { states: Some(200_000), ..Limits::default() };
        let report = run(level, &bisolve_engine::Config::default(), &limits);
        return match report.outcome {
            Outcome::Cutoff(Cutoff::States) => Ok(()),
            other => Err(format!("{what}: expected no end within 200000 states, got {other:?}")),
        };
    }
    let report = run(level, &bisolve_engine::Config::default(), &common::time_limit(10.0));
    if level.walled_off().is_some() && report.outcome != Outcome::Unsolvable {
        return Err(format!(
            "{what}: a walled-off box or goal must make it unsolvable, got {:?}",
            report.outcome
        ));
    }
    if let Some(Expect::Solved(Some(best))) = expect {
        let astar = run_named(level, "astar", 1);
        match &astar.outcome {
            Outcome::Solved(s) if s.pushes == best => {}
            other => {
                return Err(format!("{what}: the file says {best} pushes at best; astar gives {other:?}"));
            }
        }
    }
    match (expect, &report.outcome) {
        (Some(Expect::Solved(_)), Outcome::Solved(_))
        | (Some(Expect::Unsolvable), Outcome::Unsolvable)
        | (None, _) => Ok(()),
        (Some(e), outcome) => {
            Err(format!("{what}: expected {e:?}, got {outcome:?} after {:?}", report.elapsed))
        }
    }
}

#[test]
fn every_repository_level_solves_or_is_proven_unsolvable() {
    let root = repo_levels();
    let files = level_files(&root);
    assert!(!files.is_empty(), "no level files under {}", root.display());
    let mut failures = Vec::new();
    let mut solved_levels = 0;
    let mut with_expectation = 0;
    for path in &files {
        let file = path.strip_prefix(&root).unwrap_or(path).display().to_string();
        let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("cannot read {file}: {e}"));
        let collection = load_file(path);
        let entries = &collection.entries;
        // An invalid level without a line keeps its predecessor's, so the expectation lines
        // around it still go to the right levels.
        let mut last = 0;
        let first_lines: Vec<usize> = entries
            .iter()
            .map(|e| {
                last = match &e.level {
                    Ok(level) => level.first_line(),
                    Err(err) => err.line.unwrap_or(last),
                };
                last
            })
            .collect();
        let expected = expectations(&expect_lines(path, &bytes), &first_lines);
        for (entry, expect) in entries.iter().zip(expected) {
            let Ok(level) = &entry.level else {
                continue;
            };
            if expect.is_some() {
                with_expectation += 1;
            }
            if let Err(e) = check_repo_level(&file, level, expect) {
                failures.push(e);
            }
            solved_levels += 1;
        }
    }
    eprintln!("{solved_levels} levels in {} files, {with_expectation} with an expected outcome", files.len());
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn expectation_lines_apply_to_the_next_level_and_the_header_to_all() {
    let lines = [(2, Expect::Unsolvable), (20, Expect::Solved(None)), (40, Expect::Unsolvable)];
    assert_eq!(
        expectations(&lines, &[5, 10, 25, 50]),
        vec![
            Some(Expect::Unsolvable),
            Some(Expect::Unsolvable),
            Some(Expect::Solved(None)),
            Some(Expect::Unsolvable)
        ]
    );
    let solved = Expect::Solved(None);
    assert_eq!(expectations(&[(12, solved)], &[5, 15, 25]), vec![None, Some(solved), None]);
}

#[test]
fn prose_expectations_are_read() {
    assert_eq!(prose_expectation(" valid, solved (5 pushes at best)."), Some(Expect::Solved(Some(5))));
    assert_eq!(prose_expectation(" valid, unsolvable at once."), Some(Expect::Unsolvable));
    assert_eq!(prose_expectation(" valid, 1 box, solved (3 pushes)."), Some(Expect::Solved(None)));
    assert_eq!(
        prose_expectation(" valid, solved by the empty solution (0 moves, 0 pushes)."),
        Some(Expect::Solved(None))
    );
    assert_eq!(prose_expectation(" invalid: two players."), None);
}

/// The hand-made unsolvable levels are proven unsolvable by every direction, ordering and
/// thread count, never answered with a solution or a time-out.
#[test]
fn hand_made_unsolvable_levels_under_every_strategy() {
    let levels = common::valid_levels(&common::engine_level_path("unsolvable.xsb"));
    assert!(levels.len() >= 3);
    for level in &levels {
        for strategy in [
            "bidirectional",
            "forward",
            "backward",
            "astar",
            "wastar",
            "bidirectional-astar",
            "backward-astar",
            "greedy",
            "backward-greedy",
            "bidirectional-greedy",
            "forward-fess1",
        ] {
            for threads in [1, 2, 4] {
                let report = run_named(level, strategy, threads);
                assert_eq!(
                    report.outcome,
                    Outcome::Unsolvable,
                    "{}: {strategy} with {threads} threads",
                    level.name()
                );
            }
        }
    }
}

/// Microban I levels that every direction solves quickly.
const MICROBAN_SAMPLE: [usize; 10] = [1, 2, 10, 25, 50, 75, 100, 120, 140, 150];

/// The Microban sample and the first `second` levels of Microban II (where that file is
/// there); `None` without the shared levels.
fn microban_sample_and_second(second: usize) -> Option<Vec<Level>> {
    let levels = common::shared_collection("microban.xsb")?;
    let mut sample: Vec<Level> = MICROBAN_SAMPLE.iter().map(|&i| levels[i - 1].clone()).collect();
    if let Some(more) = common::shared_collection("microban2.xsb") {
        sample.extend(more.into_iter().take(second));
    }
    Some(sample)
}

#[test]
fn microban_sample_every_direction_and_thread_count() {
    let Some(levels) = common::shared_collection("microban.xsb") else {
        return;
    };
    for index in MICROBAN_SAMPLE {
        let level = &levels[index - 1];
        assert_eq!(level.index(), index);
        for strategy in ["forward", "backward", "bidirectional", "bidirectional-greedy"] {
            for threads in [1, 2] {
                let report = run_named(level, strategy, threads);
                let solution = expect_solved(level, &report);
                assert!(solution.pushes > 0, "Microban {index} is not solved at the start");
                assert_eq!(report.threads, threads);
                assert_eq!(report.strategy.to_string(), strategy);
            }
        }
    }
}

/// The packing feature and packing macros (off by default) on: every solution still replays,
/// in every direction and with one or two threads, on the Microban sample and the first ten
/// Microban II levels.
#[test]
fn microban_sample_with_the_packing_techniques() {
    let Some(sample) = microban_sample_and_second(10) else {
        return;
    };
    for level in &sample {
        for strategy in ["forward", "bidirectional", "backward"] {
            for threads in [1, 2] {
                let mut config = common::config(strategy, threads);
                config.push.packing = true;
                config.push.packing_macros = true;
                config.pull.packing = true;
                let report = common::run(level, &config, &common::time_limit(10.0));
                expect_solved(level, &report);
            }
        }
    }
}

/// Festival's choices for the feature cells (off by default: the best cell on a node's
/// path, the best cell's pops, new cells first, the advisors' weights), each alone and all
/// together: every solution replays, in every direction and with one or two threads, on the
/// Microban sample and the first ten Microban II levels; and each changes the search (the
/// states generated differ from the default's on some level).
#[test]
fn microban_sample_with_festivals_cell_choices() {
    let Some(sample) = microban_sample_and_second(10) else {
        return;
    };
    type Switch = fn(&mut bisolve_engine::Strategy);
    let switches: [(&str, Switch); 5] = [
        ("best_past", |s| s.best_past = true),
        ("best_cell", |s| s.best_cell = true),
        ("new_cells_first", |s| s.new_cells_first = true),
        ("advisors", |s| s.advisors = true),
        ("all", |s| {
            (s.best_past, s.best_cell, s.new_cells_first, s.advisors) = (true, true, true, true);
        }),
    ];
    for (name, switch) in switches {
        let mut changed = false;
        for level in &sample {
            for strategy in ["forward", "bidirectional", "backward"] {
                for threads in [1, 2] {
                    let mut config = common::config(strategy, threads);
                    switch(&mut config.strategy);
                    let report = common::run(level, &config, &common::time_limit(10.0));
                    expect_solved(level, &report);
                    if threads == 1 {
                        let plain =
                            common::run(level, &common::config(strategy, 1), &common::time_limit(10.0));
                        changed |= plain.stats.generated() != report.stats.generated();
                    }
                }
            }
        }
        assert!(changed, "{name} searched every level as the default does");
    }
}

/// Room links and hotspots counted, in the feature cells (`link_cells`, the default) or only
/// for the advisors: every solution replays, forward and both ways, with one or two threads, on
/// the Microban sample and the first ten Microban II levels; and leaving them out of the cells
/// changes the search.
#[test]
fn microban_sample_with_room_links_and_hotspots_in_the_cells_or_not() {
    let Some(sample) = microban_sample_and_second(10) else {
        return;
    };
    let config = |strategy: &str, threads: usize, link_cells: bool| {
        let mut config = common::config(strategy, threads);
        config.strategy.advisors = true;
        config.strategy.link_cells = link_cells;
        (config.push.room_links, config.push.hotspots, config.push.explorer) = (true, true, true);
        config
    };
    let mut changed = false;
    for level in &sample {
        for strategy in ["forward", "bidirectional"] {
            for threads in [1, 2] {
                // One thread: the states generated with the links in the cells and without.
                let mut generated = [0; 2];
                for (k, link_cells) in [true, false].into_iter().enumerate() {
                    let report =
                        common::run(level, &config(strategy, threads, link_cells), &common::time_limit(10.0));
                    expect_solved(level, &report);
                    generated[k] = report.stats.generated();
                }
                changed |= threads == 1 && generated[0] != generated[1];
            }
        }
    }
    assert!(changed, "leaving links and hotspots out of the cells searched every level as before");
}

/// Each advisor switched off alone (`search.advise_*`), in a forward FESS search with the
/// advisors' weights, the parking plan and boxes out of plan counted, and room links and
/// hotspots counted for the advisors only: every solution replays, with one or two threads, on
/// the Microban sample and the first ten Microban II levels; and each switch changes the search
/// on some level (its advisor recommends moves there).
#[test]
fn microban_sample_with_each_advisor_off() {
    let Some(sample) = microban_sample_and_second(10) else {
        return;
    };
    let config = |threads: usize, switch: fn(&mut bisolve_engine::Strategy)| {
        let mut config = common::config("forward", threads);
        config.strategy.advisors = true;
        config.strategy.link_cells = false;
        (config.push.room_links, config.push.hotspots, config.push.out_of_plan) = (true, true, true);
        switch(&mut config.strategy);
        config
    };
    type Switch = fn(&mut bisolve_engine::Strategy);
    let switches: [(&str, Switch); 5] = [
        ("advise_packing", |s| s.advise_packing = false),
        ("advise_connectivity", |s| s.advise_connectivity = false),
        ("advise_room_links", |s| s.advise_room_links = false),
        ("advise_hotspots", |s| s.advise_hotspots = false),
        ("advise_out_of_plan", |s| s.advise_out_of_plan = false),
    ];
    let limits = common::time_limit(10.0);
    let all: Vec<u64> = sample
        .iter()
        .map(|level| common::run(level, &config(1, |_| {}), &limits).stats.generated())
        .collect();
    for (name, switch) in switches {
        let mut changed = false;
        for (level, &with_all) in sample.iter().zip(&all) {
            for threads in [1, 2] {
                let report = common::run(level, &config(threads, switch), &limits);
                expect_solved(level, &report);
                changed |= threads == 1 && report.stats.generated() != with_all;
            }
        }
        assert!(changed, "{name} off searched every level as with every advisor");
    }
}

/// Backward bridges (off by default) on: every solution replays, with one or two threads, on
/// the Microban sample and the first twenty Microban II levels, and the backward search runs
/// bridges on some of them with each thread count (one thread interleaves both directions on
/// one thread: its backward turns once skipped the bridges, so the switch did nothing there).
#[test]
fn microban_sample_with_backward_bridges() {
    let Some(sample) = microban_sample_and_second(20) else {
        return;
    };
    let mut bridged = [0; 2];
    for level in &sample {
        for threads in [1, 2] {
            let mut config = common::config("bidirectional", threads);
            config.strategy.backward_bridges = true;
            let report = common::run(level, &config, &common::time_limit(10.0));
            expect_solved(level, &report);
            bridged[threads - 1] += usize::from(report.stats.backward.bridges > 0);
        }
    }
    assert!(bridged.iter().all(|&b| b > 0), "backward bridges ran on {bridged:?} levels (1, 2 threads)");
}

/// Box moves (off by default) on both sides: every solution replays, forward alone, backward
/// alone and bidirectional (where runs meet part way), with one or two threads, on the
/// Microban sample and the first twenty Microban II levels, and runs longer than one push and
/// one pull were made.
#[test]
fn microban_sample_with_box_moves() {
    let Some(sample) = microban_sample_and_second(20) else {
        return;
    };
    let count =
        |pruned: &[(&str, u64)], name: &str| pruned.iter().find(|(n, _)| *n == name).map_or(0, |&(_, k)| k);
    let (mut later_pushes, mut later_pulls) = (0, 0);
    for level in &sample {
        for strategy in ["forward", "backward", "bidirectional"] {
            for threads in [1, 2] {
                let mut config = common::config(strategy, threads);
                config.push.box_moves = true;
                config.pull.box_moves = true;
                let report = common::run(level, &config, &common::time_limit(10.0));
                expect_solved(level, &report);
                later_pushes += count(&report.stats.forward.pruned, "box moves past the first push");
                later_pulls += count(&report.stats.backward.pruned, "box moves past the first pull");
            }
        }
    }
    assert!(later_pushes > 0, "no run went past its first push");
    assert!(later_pulls > 0, "no run went past its first pull");
}

/// A level whose player can reach boxes but no goal (every goal is walled off), or goals but
/// no box, is valid text that no search can solve: loading it must work and the solve must
/// say unsolvable, with a note saying why.
#[test]
fn every_goal_or_every_box_walled_off_is_unsolvable() {
    for text in [
        // The player's box; its goal behind a wall.
        "#######\n#@$#. #\n#######\n",
        // The player's goal; the box behind a wall.
        "########\n#@ .#$ #\n########\n",
    ] {
        let collection = bisolve_board::load_collection(text.as_bytes())
            .unwrap_or_else(|e| panic!("cannot read:\n{text}{e}"));
        let level = collection.entries[0]
            .level
            .as_ref()
            .unwrap_or_else(|e| panic!("the level is valid text:\n{text}{e}"));
        assert!(level.walled_off().is_some(), "{text}");
        for strategy in ["bidirectional", "forward", "backward"] {
            let report = run_named(level, strategy, 1);
            assert_eq!(report.outcome, Outcome::Unsolvable, "{strategy}:\n{text}");
            assert!(report.note.is_some(), "{strategy}: no note says why:\n{text}");
        }
    }
}

/// The single bidirectional strategy on one thread gives the forward search a quarter of the
/// turns (by children generated, [`bisolve_engine::Config::forward_weight`]), and weight 1
/// gives both equal turns. On `levels/engine/endless.xsb`, which no search finishes, without
/// bridges: a bridge is up to 20,000 expansions in one forward turn, too coarse for a short run.
#[test]
fn one_thread_of_a_bidirectional_search_shares_its_turns_by_the_forward_weight() {
    let level = common::engine_level("endless.xsb", 1);
    for weight in [bisolve_engine::strategy::FORWARD_WEIGHT, 1] {
        let mut config = common::config("bidirectional", 1);
        config.strategy.bridges = false;
        config.forward_weight = weight;
        let limits = Limits { states: Some(100_000), ..Limits::default() };
        let report = run(&level, &config, &limits);
        assert!(matches!(report.outcome, Outcome::Cutoff(_)), "weight {weight}: {:?}", report.outcome);
        let (fw, bw) = (report.stats.forward.generated as f64, report.stats.backward.generated as f64);
        let ratio = fw * weight as f64 / bw;
        assert!(
            (0.8..1.25).contains(&ratio),
            "weight {weight}: forward generated {fw}, backward {bw} (weighted ratio {ratio:.2})"
        );
    }
}
