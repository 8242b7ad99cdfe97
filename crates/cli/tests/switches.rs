//! Every technique switch: accepted, still solving the demo levels with verified solutions,
//! and the counts of what a pruning switch turns off stay at zero.

mod harness;

use harness::bisolve;

/// The switches that turn a technique off or on (README, "Switching techniques off").
const SWITCHES: &[&str] = &[
    "--no-dead-squares",
    "--no-freeze",
    "--no-diagonals",
    "--no-tunnels",
    "--no-frozen-goals",
    "--no-corrals",
    "--no-corral-deadlocks",
    "--no-shut-in",
    "--no-pair-deadlocks",
    "--no-sealed-goals",
    "--no-jams",
    "--no-frozen-walls",
    "--no-pull-dead-squares",
    "--no-pull-pair-deadlocks",
    "--no-pull-start-freeze",
    "--no-inertia",
    "--no-bridges",
    "--no-perimeter",
    "--no-early-perimeter",
    "--no-restart",
    "--no-second-restart",
    "--equal-turns",
    "--no-goal-macros",
    "--no-goal-cut",
    "--no-room-discipline",
    "--no-room-plans",
    "--packing",
    "--packing-macros",
    "--pull-sealed-starts",
    "--pull-jams",
    "--goal-areas",
    "--live-targets",
    "--pull-confinement",
    "--triple-deadlocks",
    "--room-entrances",
    "--backward-bridges",
    "--box-moves",
    "--pull-box-moves",
];

#[test]
fn every_switch_still_solves_the_demo_levels() {
    for switch in SWITCHES {
        let run = bisolve(&["levels/demo.xsb", "--json", "--time-limit", "60", switch]);
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
    let run = bisolve(&[&[file, "--json", "--strategy", strategy], extra].concat());
    run.expect_code(0);
    let side = if strategy == "backward" { "backward" } else { "forward" };
    run.records().iter().map(|r| r[side]["pruned"][key].as_u64().expect("a count")).sum()
}

/// The forward search's count of what a pruning switch turns off: some on these levels with
/// the technique on, none with it off.
#[test]
fn a_technique_switched_off_prunes_nothing() {
    for (file, switch, key) in [
        ("levels/edge/closed-diagonal.xsb", "--no-diagonals", "closed diagonal"),
        ("levels/demo.xsb", "--no-freeze", "freeze"),
        ("levels/demo.xsb", "--no-pair-deadlocks", "pair deadlock"),
        ("levels/demo.xsb", "--no-jams", "jam deadlock"),
        ("levels/demo.xsb", "--no-shut-in", "shut-in deadlock"),
        ("levels/demo.xsb", "--no-frozen-walls", "frozen wall searches"),
    ] {
        let count = |extra: &[&str]| pruned(file, "forward", key, extra);
        assert!(count(&[]) > 0, "{file}: no {key} pruned with the technique on");
        assert_eq!(count(&[switch]), 0, "{file} {switch}");
    }
    // Goal-area deadlocks only with `--goal-areas`.
    let areas = |extra: &[&str]| pruned("levels/edge/goal-area.xsb", "forward", "goal area deadlock", extra);
    assert_eq!(areas(&[]), 0);
    assert!(areas(&["--goal-areas"]) > 0);
    // Goal macros through rooms with several entrances come only with `--room-entrances`.
    let macros =
        |extra: &[&str]| pruned("levels/edge/two-entrance-room.xsb", "forward", "goal macros", extra);
    assert_eq!(macros(&[]), 0);
    assert!(macros(&["--room-entrances"]) > 0);
    // The backward search runs bridges only with `--backward-bridges`, the forward one by
    // default and not with `--no-bridges`.
    let bridges = |extra: &[&str], side: &str| -> u64 {
        let run = bisolve(&[&["levels/demo.xsb", "--json"], extra].concat());
        run.expect_code(0);
        run.records().iter().map(|r| r[side]["bridges"].as_u64().unwrap_or(0)).sum()
    };
    assert_eq!(bridges(&[], "backward"), 0);
    assert!(bridges(&["--backward-bridges"], "backward") > 0);
    assert!(bridges(&[], "forward") > 0);
    assert_eq!(bridges(&["--no-bridges"], "forward"), 0);
    // Box moves, each side by its own switch.
    let pulls =
        |extra: &[&str]| pruned("levels/demo.xsb", "backward", "box moves past the first pull", extra);
    assert!(pulls(&["--pull-box-moves"]) > 0);
    assert_eq!(pulls(&["--box-moves"]), 0);
    // Backward jams only with `--pull-jams`.
    let jams = |extra: &[&str]| pruned("levels/demo.xsb", "backward", "pull jam deadlock", extra);
    assert_eq!(jams(&[]), 0);
    assert!(jams(&["--pull-jams"]) > 0);
    // Room discipline needs the goal cut, which a bidirectional search makes.
    let discipline =
        |extra: &[&str]| pruned("levels/edge/goal-room.xsb", "bidirectional", "room discipline", extra);
    assert!(discipline(&[]) > 0);
    assert_eq!(discipline(&["--no-room-discipline"]), 0);
    assert_eq!(discipline(&["--no-goal-cut"]), 0);
    // Parking plans need the room discipline and the goal cut too.
    let plans = |extra: &[&str]| pruned("levels/edge/parking-room.xsb", "bidirectional", "room plan", extra);
    assert!(plans(&[]) > 0);
    assert_eq!(plans(&["--no-room-plans"]), 0);
    assert_eq!(plans(&["--no-room-discipline"]), 0);
    assert_eq!(plans(&["--no-goal-cut"]), 0);
    // Triple deadlocks are off unless asked for.
    let run = bisolve(&["levels/demo.xsb", "--json", "--strategy", "forward"]);
    for r in run.records() {
        assert_eq!(r["forward"]["pruned"]["triple deadlock"], 0, "{}\n{run}", r["title"]);
    }
}
