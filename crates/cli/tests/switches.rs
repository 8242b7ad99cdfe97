//! Every switch of the options: accepted, still solving the demo levels with verified solutions,
//! and the counts of what a pruning switch turns off stay at zero.

mod harness;

use harness::bisolve;

/// Every switch of `bisolve options` flipped, one at a time, and the settings that change how
/// the runs are scheduled, each as one `--set=KEY=VALUE` argument.
fn switches() -> Vec<String> {
    let run = bisolve(&["options"]);
    run.expect_code(0);
    let mut table = String::new();
    let mut flips = Vec::new();
    for line in run.stdout.lines() {
        if let Some(name) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            table = name.to_string();
        } else if let Some((key, value)) = line.split_once(" = ") {
            let flipped = match value {
                "true" => "false",
                "false" => "true",
                _ => continue,
            };
            let key = if table.is_empty() { key.to_string() } else { format!("{table}.{key}") };
            flips.push(format!("--set={key}={flipped}"));
        }
    }
    assert!(flips.len() > 30, "the switches of `bisolve options`: {flips:?}");
    flips.extend(
        ["--set=restarts.mode=auto", "--set=forward_weight=1", "--set=deal=searches"].map(String::from),
    );
    flips
}

#[test]
fn every_switch_still_solves_the_demo_levels() {
    for switch in switches() {
        let run = bisolve(&["levels/demo.xsb", "--json", "--time-limit", "60", &switch]);
        run.expect_code(0);
        let records = run.records();
        assert!(!records.is_empty(), "{switch}\n{run}");
        for r in &records {
            assert_eq!(r["status"], "solved", "{switch}: {}\n{run}", r["title"]);
        }
    }
}

/// The count `key` of one side's `pruned` object, summed over the levels of `file`, solved with
/// `strategy` (a forward or backward strategy reads its own side; bidirectional, the
/// forward one) and the switches `extra`.
fn pruned(file: &str, strategy: &str, key: &str, extra: &[&str]) -> u64 {
    // One thread: the counts repeat.
    let run =
        bisolve(&[&[file, "--json", "--stats", "--threads", "1", "--strategy", strategy], extra].concat());
    run.expect_code(0);
    let side = if strategy == "backward" { "backward" } else { "forward" };
    run.records().iter().map(|r| r[side]["pruned"][key].as_u64().expect("a count")).sum()
}

/// The forward search's count of what a pruning switch turns off: some on these levels with
/// the technique on, none with it off.
#[test]
fn a_technique_switched_off_prunes_nothing() {
    for (file, switch, key) in [
        ("levels/edge/closed-diagonal.xsb", "--set=push.diagonals=false", "closed diagonal"),
        ("levels/demo.xsb", "--set=push.freeze=false", "freeze"),
        ("levels/demo.xsb", "--set=push.pair_deadlocks=false", "pair deadlock"),
        ("levels/edge/sealed-goal.xsb", "--set=push.jams=false", "jam deadlock"),
        ("levels/demo.xsb", "--set=push.shut_in=false", "shut-in deadlock"),
        ("levels/demo.xsb", "--set=push.frozen_walls=false", "frozen wall searches"),
    ] {
        let count = |extra: &[&str]| pruned(file, "forward", key, extra);
        assert!(count(&[]) > 0, "{file}: no {key} pruned with the technique on");
        assert_eq!(count(&[switch]), 0, "{file} {switch}");
    }
    // Goal-area deadlocks only with `--goal-areas`.
    let areas = |extra: &[&str]| pruned("levels/edge/goal-area.xsb", "forward", "goal area deadlock", extra);
    assert_eq!(areas(&[]), 0);
    assert!(areas(&["--set=push.goal_areas=true"]) > 0);
    // Goal macros through rooms with several entrances come only with `--room-entrances`.
    let macros =
        |extra: &[&str]| pruned("levels/edge/two-entrance-room.xsb", "forward", "goal macros", extra);
    assert_eq!(macros(&[]), 0);
    assert!(macros(&["--set=push.room_entrances=true"]) > 0);
    // The backward search runs bridges only with `--backward-bridges`, the forward one by
    // default and not with `--no-bridges`.
    let bridges = |extra: &[&str], side: &str| -> u64 {
        let run = bisolve(&[&["levels/demo.xsb", "--json", "--threads", "1"], extra].concat());
        run.expect_code(0);
        run.records().iter().map(|r| r[side]["bridges"].as_u64().unwrap_or(0)).sum()
    };
    assert_eq!(bridges(&[], "backward"), 0);
    assert!(bridges(&["--set=search.backward_bridges=true"], "backward") > 0);
    assert!(bridges(&[], "forward") > 0);
    assert_eq!(bridges(&["--set=search.bridges=false"], "forward"), 0);
    // Box moves, each side by its own switch.
    let pulls =
        |extra: &[&str]| pruned("levels/demo.xsb", "backward", "box moves past the first pull", extra);
    assert!(pulls(&["--set=pull.box_moves=true"]) > 0);
    assert_eq!(pulls(&["--set=push.box_moves=true"]), 0);
    // Backward jams only with `--pull-jams`.
    let jams = |extra: &[&str]| pruned("levels/demo.xsb", "backward", "pull jam deadlock", extra);
    assert_eq!(jams(&[]), 0);
    assert!(jams(&["--set=pull.jams=true"]) > 0);
    // Room discipline needs the goal cut (off by default), which only a bidirectional search
    // makes.
    let cut = "--set=push.goal_cut=true";
    let discipline =
        |extra: &[&str]| pruned("levels/edge/goal-room.xsb", "bidirectional", "room discipline", extra);
    assert!(discipline(&[cut]) > 0);
    assert_eq!(discipline(&[cut, "--set=push.room_discipline=false"]), 0);
    assert_eq!(discipline(&[]), 0);
    assert_eq!(pruned("levels/edge/goal-room.xsb", "forward", "room discipline", &[cut]), 0);
    // Parking plans need the room discipline and the goal cut too.
    let plans = |extra: &[&str]| pruned("levels/edge/parking-room.xsb", "bidirectional", "room plan", extra);
    assert!(plans(&[cut]) > 0);
    assert_eq!(plans(&[cut, "--set=push.room_plans=false"]), 0);
    assert_eq!(plans(&[cut, "--set=push.room_discipline=false"]), 0);
    assert_eq!(plans(&[]), 0);
    // Triple deadlocks are off unless asked for.
    let run = bisolve(&["levels/demo.xsb", "--json", "--stats", "--strategy", "forward"]);
    for r in run.records() {
        assert_eq!(r["forward"]["pruned"]["triple deadlock"], 0, "{}\n{run}", r["title"]);
    }
}
