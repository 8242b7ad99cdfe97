//! Parking plans on real levels: every plan is consistent. A step that moves a box on names
//! a later step that takes it from there, no square is where two boxes end up for good, and a
//! plan that took every box home ends with a box on every goal, which then counts as all
//! packed.

// The board crate's test helpers (levels by name, cells by coordinates), shared rather than copied.
#[path = "../../board/tests/common/mod.rs"]
mod common;

use bisolve_board::Level;
use bisolve_deadlock::parking::{From, ParkingPlan};

use common::{all_repo_valid_levels, load, shared_levels};

/// Checks the plan of `lv`; panics naming `what` when it is inconsistent. Returns whether the
/// level has a plan that took every box home.
fn check_level(what: &str, lv: &Level) -> bool {
    let board = lv.board();
    let Some(plan) = ParkingPlan::new(board) else { return false };
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
        assert_eq!(finals, board.goals(), "{what}: a finished plan fills every goal");
        assert_eq!(plan.unpacked(|c| board.is_goal(c)), 0, "{what}: the solved position packs it all");
        plan.prepare_out_of_plan(board);
        assert_eq!(plan.out_of_plan(steps.len() as u32, board.goals().iter().copied()), 0, "{what}");
    }
    plan.is_complete()
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
        let (mut levels, mut complete) = (0, 0);
        for e in c.entries {
            let Ok(lv) = e.level else { continue };
            levels += 1;
            complete += usize::from(check_level(&format!("{file} #{}", e.index), &lv));
        }
        assert!(2 * complete > levels, "{file}: {complete} of {levels} plans finished");
        eprintln!("{file}: {complete} of {levels} plans finished");
    }
}
