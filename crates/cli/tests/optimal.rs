//! `--optimal pushes|moves`: proven-optimal solutions in text and JSON, a lower bound when a
//! limit stops the search (with the strategy's solution found first, when there is one), and
//! bad values refused.

mod harness;

use harness::bisolve;

const DEMO: &str = "levels/demo.xsb";

#[test]
fn both_objectives_prove_their_optimum_on_double_back() {
    // The fewest pushes (12) cost 43 moves; the fewest moves (39) need 16 pushes.
    for (mode, moves, pushes) in [("pushes", 43, 12), ("moves", 39, 16)] {
        let run = bisolve(&[DEMO, "--level", "Double back", "--optimal", mode, "--threads", "2", "--json"]);
        run.expect_code(0);
        let records = run.records();
        let r = &records[0];
        assert_eq!((r["moves"].as_u64(), r["pushes"].as_u64()), (Some(moves), Some(pushes)), "{run}");
        assert_eq!(r["optimal"], mode, "{run}");
        // Box lines and changes come with every solution: at least one change, and no more
        // lines than pushes.
        let (lines, changes) = (r["box_lines"].as_u64().unwrap_or(0), r["box_changes"].as_u64().unwrap_or(0));
        assert!(1 <= changes && changes <= lines && lines <= pushes, "{run}");
        assert!(r.get("lower_bound").is_none() && r.get("optimized").is_none(), "{run}");
        assert_eq!(r["strategy"], format!("optimal-{mode}"), "{run}");
    }
    let run = bisolve(&[DEMO, "--level", "Double back", "--optimal", "pushes", "--threads", "1"]);
    run.expect_code(0);
    assert!(run.stdout.contains("43 moves, 12 pushes, push-optimal"), "{run}");
}

#[test]
fn a_stopped_search_reports_its_lower_bound() {
    let args = ["levels/engine/endless.xsb", "--optimal", "pushes", "--threads", "1", "--time-limit", "0.5"];
    let run = bisolve(&[&args[..], &["--json"]].concat());
    run.expect_code(1);
    let records = run.records();
    let r = &records[0];
    assert_eq!(r["status"], "timeout", "{run}");
    assert!(r["lower_bound"].as_u64().is_some_and(|b| b > 0), "{run}");
    assert!(r.get("optimal").is_none(), "{run}");
    let run = bisolve(&args);
    run.expect_code(1);
    assert!(run.stdout.contains("timeout, at least "), "{run}");
}

/// The strategy solves the open room at once, and the optimal search cannot prove it in
/// 100,000 states: the run reports that solution, unproven, with the bound reached; without
/// the solution in hand it reports the cut-off alone.
#[test]
fn a_stopped_search_reports_the_solution_found_first() {
    let args = ["levels/engine/open-room.xsb", "--optimal", "pushes", "--threads", "1", "--states", "100000"];
    let args = [&args[..], &["--optimize", "0", "--json"]].concat();
    let run = bisolve(&args);
    run.expect_code(0);
    let records = run.records();
    let r = &records[0];
    assert_eq!(r["status"], "solved", "{run}");
    assert!(r.get("optimal").is_none(), "{run}");
    let (pushes, bound) = (r["pushes"].as_u64().unwrap_or(0), r["lower_bound"].as_u64().unwrap_or(0));
    assert!(0 < bound && bound <= pushes, "{run}");
    assert!(r["note"].as_str().is_some_and(|n| n.contains("first solution")), "{run}");
    let run = bisolve(&[&args[..], &["--set", "optimal_incumbent=false"]].concat());
    run.expect_code(1);
    let records = run.records();
    assert_eq!(records[0]["status"], "states", "{run}");
}

#[test]
fn an_unknown_objective_is_a_usage_error() {
    let run = bisolve(&[DEMO, "--optimal", "boxes"]);
    run.expect_code(2);
    assert!(run.stderr.starts_with("bisolve: error:"), "{run}");
}
