//! The closest approach each side reports (`SideStats::closest_h`, `closest_unplaced`): a side
//! that reaches its targets reports 0, a side that does not run reports nothing, and a
//! search cut off early reports how far it got.

mod common;

use bisolve_engine::{Limits, Outcome};

use common::{config, engine_level, run, run_named, time_limit};

#[test]
fn a_side_that_reaches_its_targets_came_within_zero() {
    let level = engine_level("corridor.xsb", 1);
    let report = run_named(&level, "forward", 1);
    assert!(matches!(report.outcome, Outcome::Solved(_)));
    let (fwd, bwd) = (&report.stats.forward, &report.stats.backward);
    assert_eq!((fwd.closest_h, fwd.closest_unplaced), (Some(0), Some(0)));
    assert_eq!((bwd.closest_h, bwd.closest_unplaced), (None, None), "the backward search did not run");

    let report = run_named(&level, "backward", 1);
    assert!(matches!(report.outcome, Outcome::Solved(_)));
    let (fwd, bwd) = (&report.stats.forward, &report.stats.backward);
    assert_eq!((bwd.closest_h, bwd.closest_unplaced), (Some(0), Some(0)));
    assert_eq!(fwd.closest_h, None, "the forward search did not run");
}

#[test]
fn boxes_to_place_are_counted_only_with_feature_cells() {
    let level = engine_level("corridor.xsb", 1);
    let report = run_named(&level, "forward-greedy", 1);
    assert!(matches!(report.outcome, Outcome::Solved(_)));
    assert_eq!(report.stats.forward.closest_h, Some(0));
    assert_eq!(report.stats.forward.closest_unplaced, None);
}

#[test]
fn a_search_cut_off_early_reports_how_far_it_got() {
    // One box pushed 30 squares: after a handful of states the forward search is still far
    // from the goal, but closer than at the start (bound 30). Single pushes: one expansion
    // with box moves takes the box the whole way.
    let level = engine_level("corridor.xsb", 1);
    let limits = Limits { states: Some(5), ..time_limit(10.0) };
    let mut config = config("forward-greedy", 1);
    config.push.box_moves = false;
    let report = run(&level, &config, &limits);
    assert!(matches!(report.outcome, Outcome::Cutoff(_)), "{:?}", report.outcome);
    let closest = report.stats.forward.closest_h.expect("children were generated");
    assert!((1..30).contains(&closest), "closest {closest}");
}
