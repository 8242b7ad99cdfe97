//! `bisolve optimize`: shorter solutions that replay, never longer than their input, for a
//! solution given or the ones a SOK file stores (`levels/optimize/wasteful.sok`).

mod harness;

use harness::{arg, bisolve, temp_file};

const FIXTURE: &str = "levels/optimize/wasteful.sok";

/// The moves and pushes `bisolve verify` reports for `solution` on level `level` of `file`.
fn verified(file: &str, level: &str, solution: &str) -> (u64, u64) {
    let run = bisolve(&["verify", file, "--level", level, solution]);
    run.expect_code(0);
    let words: Vec<&str> = run.stdout.split_whitespace().collect();
    let number = |unit: &str| -> u64 {
        let at = words.iter().position(|w| w.trim_end_matches(',').starts_with(unit)).expect(unit);
        words[at - 1].parse().expect("a count")
    };
    (number("move"), number("push"))
}

#[test]
fn stored_solutions_get_shorter_and_still_solve() {
    let run = bisolve(&["optimize", FIXTURE, "--json", "--threads", "2", "--time-limit", "30"]);
    // The third level has nothing stored to optimise.
    run.expect_code(1);
    let records = run.records();
    assert_eq!(records.len(), 3, "{run}");
    let first = &records[0];
    assert_eq!(first["status"], "optimized", "{run}");
    assert_eq!(first["solution"], "RR", "{run}");
    assert_eq!((first["after"]["moves"].as_u64(), first["after"]["pushes"].as_u64()), (Some(2), Some(2)));
    let second = &records[1];
    assert_eq!(second["before"]["moves"], 111, "{run}");
    let solution = second["solution"].as_str().expect("a solution");
    let (moves, pushes) = verified(FIXTURE, "2", solution);
    assert_eq!(
        (moves, pushes),
        (second["after"]["moves"].as_u64().unwrap(), second["after"]["pushes"].as_u64().unwrap())
    );
    assert!(moves < 45, "{run}");
    // Box lines and box changes come before and after: at least one change, no more changes
    // than lines, and no more lines than pushes.
    for r in &records[..2] {
        let n = |side: &str, key: &str| r[side][key].as_u64().expect(key);
        assert!(
            1 <= n("after", "box_changes") && n("after", "box_changes") <= n("after", "box_lines"),
            "{run}"
        );
        assert!(
            n("after", "box_lines") <= n("after", "pushes")
                && n("before", "box_lines") <= n("before", "pushes"),
            "{run}"
        );
    }
    assert_eq!(records[2]["status"], "no solution", "{run}");
}

#[test]
fn the_push_objective_never_adds_pushes() {
    let run =
        bisolve(&["optimize", FIXTURE, "--level", "2", "--objective", "pushes", "--json", "--threads", "1"]);
    run.expect_code(0);
    let r = &run.records()[0];
    let solution = r["solution"].as_str().expect("a solution");
    let (moves, pushes) = verified(FIXTURE, "2", solution);
    assert!(pushes <= 12 && moves < 111, "{moves} moves, {pushes} pushes\n{run}");
    assert_eq!(r["objective"], "pushes");
}

#[test]
fn a_solution_given_is_shortened_and_written_as_sok() {
    let out = temp_file("optimized.sok", "");
    let run = bisolve(&[
        "optimize",
        "levels/demo.xsb",
        "--level",
        "1",
        "udRR",
        "--sok",
        arg(&out),
        "--threads",
        "1",
    ]);
    run.expect_code(0);
    assert!(run.stdout.contains("4 -> 2 moves, 2 -> 2 pushes"), "{run}");
    assert_eq!(run.stdout.lines().nth(1), Some("RR"), "{run}");
    let check = bisolve(&["verify", arg(&out)]);
    check.expect_code(0);
    assert!(check.stdout.contains("solved: 2 moves, 2 pushes, 1 box line, 1 box change"), "{check}");
    // A solution that cannot be shortened is printed as it was.
    let same = bisolve(&["optimize", "levels/demo.xsb", "--level", "1", "RR", "--threads", "1"]);
    same.expect_code(0);
    assert!(same.stdout.contains("nothing shorter found near it (2 moves, 2 pushes)"), "{same}");
}

#[test]
fn bad_input_is_refused_with_exit_2() {
    for (args, message) in [
        (&["optimize", "levels/demo.xsb", "--level", "1", "LL"][..], "does not solve the level"),
        (&["optimize", "levels/demo.xsb", "RR"][..], "holds 10 levels"),
        (&["optimize", "levels/demo.xsb", "--level", "1", "xyz"][..], "not LURD"),
        (&["optimize", "levels/demo.xsb", "--objective", "speed"][..], "unknown objective"),
        (&["optimize", "levels/demo.xsb", "--time-limit", "0"][..], "--time-limit"),
        (&["optimize", "levels/invalid/no-player.xsb", "R"][..], "no player"),
    ] {
        let run = bisolve(args);
        run.expect_code(2);
        assert!(run.stderr.contains(message), "{args:?}\n{run}");
        assert!(run.stderr.starts_with("bisolve: error: "), "{run}");
    }
}
