//! Degenerate levels: already solved, dead from the start, boxes the player can never reach.
//! The answer comes at once, with the right status and exit code.

mod harness;

use harness::bisolve;

/// Solved by the empty solution: exit 0, an empty LURD string.
#[test]
fn already_solved_prints_an_empty_solution() {
    let file = "levels/edge/already-solved.xsb";
    let json = bisolve(&[file, "--json"]);
    json.expect_code(0);
    let record = &json.records()[0];
    assert_eq!(record["status"], "solved");
    assert_eq!(record["solution"], "");
    assert_eq!((record["moves"].as_u64(), record["pushes"].as_u64()), (Some(0), Some(0)));
    assert_eq!(record["states"], 0, "no search at all");
    let text = bisolve(&[file]);
    text.expect_code(0);
    assert!(text.stdout.contains("solved, 0 moves, 0 pushes"), "{text}");
    assert!(text.stdout.contains("(empty solution: already solved)"), "{text}");
    // `verify` agrees: the empty move list solves it.
    bisolve(&["verify", file, ""]).expect_code(0);
}

/// Dead from the start, boxed in, or with a box walled off from the player: `unsolvable`,
/// exit 1, decided before any state is generated.
#[test]
fn hopeless_levels_are_unsolvable_at_once() {
    for (file, note) in [
        ("dead-at-start.xsb", None),
        ("unsolvable-2x2.xsb", None),
        ("unsolvable-no-match.xsb", None),
        ("boxed-in.xsb", None),
        ("walled-off-box.xsb", Some("a box at column 3 on line 9 is walled off from the player")),
    ] {
        let path = format!("levels/edge/{file}");
        for strategy in ["bidirectional", "forward", "backward", "astar", "portfolio", "bwd-greedy"] {
            let (how, value) = match strategy {
                "bwd-greedy" => ("--set", "members=bwd-greedy".to_string()),
                _ => ("--strategy", strategy.to_string()),
            };
            let run = bisolve(&[&path, "--json", how, &value]);
            run.expect_code(1);
            let record = &run.records()[0];
            assert_eq!(record["status"], "unsolvable", "{file} ({strategy})\n{run}");
            assert_eq!(record["states"], 0, "{file} ({strategy}): not at once\n{run}");
            assert!(record.get("solution").is_none(), "{file} ({strategy})");
            if let Some(note) = note {
                assert_eq!(record["note"], note, "{file} ({strategy})");
            }
        }
        let text = bisolve(&[&path, "--threads", "2"]);
        text.expect_code(1);
        assert!(text.stdout.contains(": unsolvable,"), "{file}\n{text}");
    }
}

/// A level only search proves unsolvable: exit 1 after an exhaustive (small) search, with any
/// number of workers per search and of threads.
#[test]
fn exhaustive_unsolvable_level() {
    let run = bisolve(&["levels/edge/unsolvable-exhaustive.xsb", "--json", "--time-limit", "60"]);
    run.expect_code(1);
    assert_eq!(run.records()[0]["status"], "unsolvable", "{run}");
    for (dives, forward, threads) in [("1", "1", "1"), ("3", "1", "2"), ("2", "2", "5"), ("3", "2", "1")] {
        let args = [
            "levels/edge/unsolvable-exhaustive.xsb",
            "--json",
            "--set",
            &format!("dives.backward={dives}"),
            "--set",
            &format!("dives.forward={forward}"),
            "--threads",
            threads,
        ];
        let run = bisolve(&args);
        run.expect_code(1);
        let record = &run.records()[0];
        assert_eq!(record["status"], "unsolvable", "{args:?}\n{run}");
        assert_eq!(record["threads"], threads.parse::<u64>().unwrap_or_default(), "{args:?}\n{run}");
    }
}

/// Regression: a search in one direction only did not look at the other direction's start.
/// Here four boxes of twenty stand in a 2x2 block in the open, frozen off their goals: the
/// forward search sees it at its root, but the backward search alone used to run until its
/// time limit (each box's square can be pulled to, so no backward test sees anything wrong).
#[test]
fn one_direction_alone_still_sees_a_dead_start() {
    const LEVEL: &str = "\
; Frozen block
##########################
#@                       #
#  $ $ $ $ $ $ $ $       #
#    #       #      #    #
#  $ $ $ $ $ $  $$ $ $   #
#               $$       #
############ ############
       #           #
       #.....  ....#
       #...........#
       #############
";
    let path = harness::temp_file("frozen-block.xsb", LEVEL);
    for (how, strategy) in
        [("--strategy", "backward"), ("--strategy", "backward-astar"), ("--set", "members=bwd-greedy")]
    {
        let run = bisolve(&[harness::arg(&path), "--json", "--time-limit", "60", how, strategy]);
        run.expect_code(1);
        let record = &run.records()[0];
        assert_eq!(record["status"], "unsolvable", "{strategy}\n{run}");
        assert_eq!(record["states"], 0, "{strategy}\n{run}");
    }
}
