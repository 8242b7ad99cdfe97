//! The closest approach each side reports (`SideStats::closest_h`, `closest_unplaced`): a side
//! that reaches its targets reports 0, a side that does not run reports nothing, and a
//! search cut off early reports how far it got, the way from the start to its closest
//! state (`SideStats::closest_path`), which replays, and each side's closest state itself
//! (`SideStats::closest_state`).

mod common;

use std::sync::atomic::AtomicBool;

use bisolve_board::moves::{parse_lurd, replay, ReplayError};
use bisolve_engine::portfolio::{default_members, DIVES};
use bisolve_engine::strategy::FORWARD_WEIGHT;
use bisolve_engine::{solve_portfolio, Limits, Outcome, Portfolio, TableMode};

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

/// Replays a closest path on `level`: every move legal, the boxes not all home (a closest
/// state of an unsolved search). Returns the pushes.
fn replayed_pushes(level: &bisolve_board::Level, lurd: &str) -> usize {
    let steps = parse_lurd(lurd).expect("LURD");
    match replay(level.board(), level.start(), &steps) {
        Err(ReplayError::Unsolved { pushes, .. }) => pushes,
        other => panic!("{}: closest path replays as {other:?}", level.name()),
    }
}

#[test]
fn a_search_cut_off_early_reports_how_far_it_got_and_the_way_there() {
    // One box pushed 30 squares: after a handful of states the forward search is still far
    // from the goal, but closer than at the start (bound 30). Single pushes: one expansion
    // with box moves takes the box the whole way. The closest state is `h` squares short, so
    // the way there pushes the box exactly 30 - h times.
    let level = engine_level("corridor.xsb", 1);
    let limits = Limits { states: Some(5), ..time_limit(10.0) };
    let mut config = config("forward-greedy", 1);
    config.push.box_moves = false;
    let report = run(&level, &config, &limits);
    assert!(matches!(report.outcome, Outcome::Cutoff(_)), "{:?}", report.outcome);
    let closest = report.stats.forward.closest_h.expect("children were generated");
    assert!((1..30).contains(&closest), "closest {closest}");
    let path = report.stats.forward.closest_path.as_ref().expect("a closest path");
    assert_eq!(path.h, closest);
    assert_eq!(replayed_pushes(&level, &path.lurd), 30 - path.h as usize);
    assert_eq!(report.stats.backward.closest_path, None, "only the forward side has one");
    // The state is where the path ends: the box 30 - h squares along, the player behind it.
    let state = report.stats.forward.closest_state.as_ref().expect("a closest state");
    assert_eq!(state, &end_of(&level, &path.lurd));
    assert_eq!(report.stats.backward.closest_state, None, "the backward search did not run");
}

/// The position (normalized as the searches store it) after `lurd` on `level`.
fn end_of(level: &bisolve_board::Level, lurd: &str) -> bisolve_board::State {
    let board = level.board();
    let mut boxes = level.start().boxes.clone();
    let mut player = level.start().player;
    for step in parse_lurd(lurd).expect("LURD") {
        let next = board.neighbour(player, step.dir);
        if let Some(i) = boxes.iter().position(|&b| b == next) {
            boxes[i] = board.neighbour(next, step.dir);
        }
        player = next;
    }
    let state = bisolve_board::State::new(boxes, player);
    let player = state.normalized_player(board);
    bisolve_board::State { player, ..state }
}

#[test]
fn the_backward_side_reports_its_closest_state_too() {
    // Twenty boxes and a budget of a few hundred states: neither side gets there. The
    // backward state is a position of the level (its boxes on distinct squares, the player on
    // none of them, on the smallest square of its region); one thread gives the same state
    // every time.
    let level = engine_level("open-room.xsb", 1);
    let board = level.board();
    let limits = Limits { states: Some(400), ..time_limit(10.0) };
    let report = run(&level, &config("bidirectional", 1), &limits);
    assert!(matches!(report.outcome, Outcome::Cutoff(_)), "{:?}", report.outcome);
    let bwd = &report.stats.backward;
    let state = bwd.closest_state.as_ref().expect("a backward closest state");
    assert_eq!(state.boxes.len(), board.n_boxes());
    assert!(state.boxes.windows(2).all(|w| w[0] < w[1]), "sorted, distinct: {state:?}");
    assert!(!state.boxes.contains(&state.player), "{state:?}");
    assert_ne!(state.boxes, level.start().boxes, "not reached");
    assert_eq!(state.player, state.normalized_player(board), "the player on its region's smallest square");
    let again = run(&level, &config("bidirectional", 1), &limits);
    assert_eq!(again.stats.backward.closest_state.as_ref(), Some(state), "one thread is deterministic");
    // The forward side's state is where its closest path ends.
    let fwd = &report.stats.forward;
    let path = fwd.closest_path.as_ref().expect("a closest path");
    assert_eq!(fwd.closest_state.as_ref(), Some(&end_of(&level, &path.lurd)));
}

#[test]
fn solved_levels_have_no_closest_path() {
    let level = engine_level("corridor.xsb", 1);
    for strategy in ["forward", "bidirectional"] {
        let report = run_named(&level, strategy, 1);
        assert!(matches!(report.outcome, Outcome::Solved(_)));
        assert_eq!(report.stats.forward.closest_path, None, "{strategy}");
        assert_eq!(report.stats.forward.closest_state, None, "{strategy}");
        assert_eq!(report.stats.backward.closest_state, None, "{strategy}");
    }
}

/// The closest path of a cut-off search's forward side replays. With one thread the forward
/// side always runs before the cutoff; with two, on a loaded machine the backward thread can
/// spend the whole budget before the forward one is scheduled (seen under load: 0 forward
/// states generated), so there it is checked whenever the forward side generated something.
fn check_forward_closest(
    level: &bisolve_board::Level,
    what: &str,
    threads: usize,
    fwd: &bisolve_engine::SideStats,
) {
    if threads > 1 && fwd.generated == 0 {
        return;
    }
    let path = fwd
        .closest_path
        .as_ref()
        .unwrap_or_else(|| panic!("{what}, {threads} threads: no closest path: {fwd:?}"));
    assert!(replayed_pushes(level, &path.lurd) > 0, "{what}, {threads} threads");
    assert!(path.h >= fwd.closest_h.expect("children"), "{what}, {threads} threads");
}

#[test]
fn bidirectional_and_portfolio_searches_cut_off_give_a_legal_closest_path() {
    // Twenty boxes: a few hundred states get nowhere near the goals. The goal room below
    // them gives goal macros, which the path must write out as their pushes.
    let level = engine_level("open-room.xsb", 1);
    let limits = Limits { states: Some(400), ..time_limit(10.0) };
    for threads in [1, 2] {
        let report = run(&level, &config("bidirectional", threads), &limits);
        assert!(matches!(report.outcome, Outcome::Cutoff(_)), "{:?}", report.outcome);
        check_forward_closest(&level, "bidirectional", threads, &report.stats.forward);

        let portfolio = Portfolio {
            members: default_members(),
            threads,
            tables: TableMode::Shared,
            forward_weight: FORWARD_WEIGHT,
            deal: bisolve_engine::Deal::Members,
            dives: DIVES,
            restarts: Vec::new(),
            keep_table: true,
            early_perimeter: false,
        };
        let report = solve_portfolio(&level, &portfolio, &limits, &AtomicBool::new(false)).expect("runs");
        assert!(matches!(report.outcome, Outcome::Cutoff(_)), "{:?}", report.outcome);
        check_forward_closest(&level, "portfolio", threads, &report.stats.forward);
    }
}
