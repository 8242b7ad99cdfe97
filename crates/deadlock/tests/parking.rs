//! Parking plans on real levels: every plan, the forward search's and the backward search's,
//! is consistent. A step that moves a box on names a later step that takes it from there, no
//! square is where two boxes end up for good, and a plan that took every box home ends with a
//! box on every goal (every start square, for the backward search's plan), which then counts
//! as all packed.

// The board crate's test helpers (levels by name, cells by coordinates), shared rather than copied.
#[path = "../../board/tests/common/mod.rs"]
mod common;

use bisolve_board::{Cell, Level};
use bisolve_deadlock::parking::{From, ParkingPlan, PlanOrder, PLAN_POSITIONS};

use common::{all_repo_valid_levels, load, shared_levels};

/// Checks both plans of `lv` (the forward search's and the backward search's), and the
/// forward plan of each search alone; panics naming `what` when one is inconsistent. Returns
/// whether each took every box home: the forward plan, the backward plan, and the forward
/// plan of the greedy search alone.
fn check_level(what: &str, lv: &Level) -> [bool; 3] {
    let board = lv.board();
    let backward = ParkingPlan::backward(board, lv.start().player, true);
    if let Some(plan) = &backward {
        check_plan(&format!("{what} (backward)"), plan, board.start_squares());
    }
    let backward = backward.is_some_and(|p| p.is_complete());
    let Some(plan) = ParkingPlan::new(board) else { return [false, backward, false] };
    check_plan(what, &plan, board.goals());
    let greedy = ParkingPlan::forward(board, false).expect("the same level has a greedy plan");
    check_plan(&format!("{what} (greedy)"), &greedy, board.goals());
    if !greedy.is_complete() {
        let cells = ParkingPlan::with_budget(board, PLAN_POSITIONS, PlanOrder::Cells).expect("a plan");
        check_plan(&format!("{what} (cells)"), &cells, board.goals());
        assert_eq!(
            plan.is_complete(),
            cells.is_complete(),
            "{what}: the second search's plan is taken when it finishes"
        );
    } else {
        assert_eq!(plan, greedy, "{what}: a finished greedy plan is kept");
    }
    if plan.is_complete() {
        plan.prepare_out_of_plan(board);
        let steps = plan.steps().len() as u32;
        assert_eq!(plan.out_of_plan(steps, board.goals().iter().copied()), 0, "{what}");
    }
    [plan.is_complete(), backward, greedy.is_complete()]
}

/// Checks one plan whose boxes end on `ends` (the goals, or the start squares for the
/// backward search's plan).
fn check_plan(what: &str, plan: &ParkingPlan, ends: &[Cell]) {
    let steps = plan.steps();
    assert!(steps[..plan.initial()].iter().all(|s| s.from == From::Initial), "{what}: initial steps first");
    assert!(steps[plan.initial()..].iter().all(|s| s.from != From::Initial), "{what}");
    for (i, s) in steps.iter().enumerate() {
        if let Some(j) = s.until() {
            assert!(j > i, "{what}: step {i} moves on at step {j}");
            assert_eq!(steps[j].from, From::Parked(s.to), "{what}: step {j} takes step {i}'s box");
        }
    }
    let mut finals: Vec<_> = steps.iter().filter(|s| s.until().is_none()).map(|s| s.to).collect();
    finals.sort_unstable();
    let n = finals.len();
    finals.dedup();
    assert_eq!(finals.len(), n, "{what}: two boxes end on one square");
    if plan.is_complete() {
        let mut ends = ends.to_vec();
        ends.sort_unstable();
        assert_eq!(finals, ends, "{what}: a finished plan fills every square it aims at");
        assert_eq!(
            plan.unpacked(|c| ends.binary_search(&c).is_ok()),
            0,
            "{what}: its last position packs it all"
        );
    }
}

#[test]
fn plans_are_consistent_on_the_projects_levels() {
    for (name, lv) in all_repo_valid_levels() {
        check_level(&name, &lv);
    }
}

#[test]
fn plans_are_consistent_on_the_shared_collections() {
    let Some(dir) = shared_levels() else { return };
    for file in ["microban.xsb", "microban2.xsb", "sasquatch.xsb", "xsokoban-1-45.xsb"] {
        let c = load(&dir.join(file));
        let (mut levels, mut complete) = (0, [0, 0, 0]);
        for e in c.entries {
            let Ok(lv) = e.level else { continue };
            levels += 1;
            let done = check_level(&format!("{file} #{}", e.index), &lv);
            for k in 0..3 {
                complete[k] += usize::from(done[k]);
            }
        }
        let [forward, backward, greedy] = complete;
        assert!(2 * forward > levels, "{file}: {forward} of {levels} plans finished");
        // The second search finishes plans the greedy one leaves (on Sasquatch: 4 of the 7 it
        // leaves).
        if file == "sasquatch.xsb" {
            assert!(
                forward > greedy,
                "{file}: {forward} plans finished, {greedy} by the greedy search alone"
            );
        }
        // Every XSokoban plan finishes: level 18 finishes only with the boxes left matched to
        // start squares as a whole, not with each box checked alone.
        if file == "xsokoban-1-45.xsb" {
            assert_eq!(forward, levels, "{file}: {forward} of {levels} plans finished");
        }
        // Pushing boxes home from the start finishes far less often (7 of 45 XSokoban levels,
        // 33 of 50 Sasquatch): no share is asserted for the backward plans.
        eprintln!(
            "{file}: {forward} of {levels} plans finished ({greedy} greedy), {backward} backward plans"
        );
    }
}
