//! `--optimal pushes|moves`: proven-optimal solutions in text and JSON, a lower bound when a
//! limit stops the search, and bad values refused.

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

#[test]
fn an_unknown_objective_is_a_usage_error() {
    let run = bisolve(&[DEMO, "--optimal", "boxes"]);
    run.expect_code(2);
    assert!(run.stderr.starts_with("bisolve: error:"), "{run}");
}
