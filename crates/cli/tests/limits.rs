//! Limits through the command line: `--time-limit`, `--memory` and `--states` stop a search
//! that cannot finish with the right status, exit 1, and the statistics gathered so far.
//! Margins are wide: these run on loaded two-core machines.

mod harness;

use harness::{arg, bisolve, temp_file, HARD_LEVEL, NEVER_FINISHES};

/// Runs the hard level with the never-finishing search and these extra arguments.
fn hard(name: &str, extra: &[&str]) -> harness::Run {
    let path = temp_file(name, HARD_LEVEL);
    let mut args = vec![arg(&path), "--json"];
    args.extend_from_slice(&NEVER_FINISHES);
    args.extend_from_slice(extra);
    bisolve(&args)
}

/// The effort counters of a record that was cut off are filled in.
fn assert_stats(record: &serde_json::Value) {
    for field in ["states", "expanded", "visited", "table_bytes"] {
        assert!(record[field].as_u64().is_some_and(|n| n > 0), "{field} in {record}");
    }
    assert!(record.get("solution").is_none(), "{record}");
}

#[test]
fn time_limit_gives_timeout_and_statistics() {
    for threads in ["1", "2"] {
        let run = hard(&format!("time-{threads}.xsb"), &["--time-limit", "1", "--threads", threads]);
        run.expect_code(1);
        let record = &run.records()[0];
        assert_eq!(record["status"], "timeout", "{run}");
        assert_eq!(record["threads"].as_u64(), threads.parse().ok());
        let seconds = record["seconds"].as_f64().unwrap_or_default();
        assert!((1.0..6.0).contains(&seconds), "stopped after {seconds} s\n{run}");
        assert_stats(record);
    }
    // The text output says so too.
    let path = temp_file("time-text.xsb", HARD_LEVEL);
    let mut args = vec![arg(&path), "--time-limit", "0.5"];
    args.extend_from_slice(&NEVER_FINISHES);
    let run = bisolve(&args);
    run.expect_code(1);
    assert!(run.stdout.contains("level 1 (\"Goal room\"): timeout, "), "{run}");
}

#[test]
fn memory_limit_gives_memory_and_statistics() {
    for threads in ["1", "2"] {
        let run = hard(
            &format!("memory-{threads}.xsb"),
            &["--memory", "2M", "--time-limit", "60", "--threads", threads],
        );
        run.expect_code(1);
        let record = &run.records()[0];
        assert_eq!(record["status"], "memory", "{run}");
        assert_stats(record);
        // What the search held when it stopped: the limit, give or take one table resize.
        let held = record["table_bytes"].as_u64().unwrap_or_default()
            + record["open_bytes"].as_u64().unwrap_or_default();
        assert!(held <= 4 << 20, "{held} bytes held under a 2 MiB limit\n{run}");
    }
}

#[test]
fn state_limit_gives_states() {
    let run = hard("states.xsb", &["--states", "5000", "--time-limit", "60"]);
    run.expect_code(1);
    let record = &run.records()[0];
    assert_eq!(record["status"], "states", "{run}");
    assert!(record["visited"].as_u64().is_some_and(|n| n >= 5000), "{run}");
    assert_stats(record);
    // The way to the forward search's closest state (the engine's tests replay it).
    let lurd = record["forward"]["closest_lurd"].as_str().expect("a closest path");
    assert!(lurd.chars().all(|c| "lurdLURD".contains(c)), "{lurd}");
    assert!(lurd.chars().any(|c| c.is_ascii_uppercase()), "no push in {lurd}");
    // Each side's closest state, drawn as XSB rows: a board of the level with as many boxes.
    let boxes = HARD_LEVEL.chars().filter(|&c| c == '$' || c == '*').count();
    for side in ["forward", "backward"] {
        let Some(rows) = record[side].get("closest_xsb") else {
            // Two threads on a loaded machine: a side may not have run before the limit.
            assert_eq!(record[side]["generated"].as_u64().unwrap_or_default(), 0, "{side}\n{run}");
            continue;
        };
        let rows = rows.as_str().expect("a string");
        assert_eq!(rows.chars().filter(|&c| c == '$' || c == '*').count(), boxes, "{side}:\n{rows}");
        assert_eq!(rows.chars().filter(|&c| c == '@' || c == '+').count(), 1, "{side}:\n{rows}");
    }
}

/// Each level of a collection gets its own time limit: a level that times out does not stop
/// the next one from being solved.
#[test]
fn time_limit_is_per_level() {
    let path = temp_file("per-level.xsb", format!("{HARD_LEVEL}\n{}\n{HARD_LEVEL}", harness::EASY_LEVEL));
    let mut args = vec![arg(&path), "--json", "--time-limit", "0.5"];
    args.extend_from_slice(&NEVER_FINISHES);
    let run = bisolve(&args);
    run.expect_code(1);
    let statuses: Vec<String> =
        run.records().iter().map(|r| r["status"].as_str().unwrap_or_default().to_string()).collect();
    assert_eq!(statuses, ["timeout", "solved", "timeout"], "{run}");
    let paths: Vec<bool> = run.records().iter().map(|r| r["forward"].get("closest_lurd").is_some()).collect();
    assert_eq!(paths, [true, false, true], "only unsolved levels get a closest path\n{run}");
    let states: Vec<bool> = run.records().iter().map(|r| r["forward"].get("closest_xsb").is_some()).collect();
    assert_eq!(states, [true, false, true], "only unsolved levels get a closest state\n{run}");
}
