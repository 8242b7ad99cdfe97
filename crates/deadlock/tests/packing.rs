//! Packing orders on real levels: the needs are consistent with the filling order, and every
//! way in is a legal push sequence.
//!
//! For each target with a way in, a position is built with boxes on exactly the targets it
//! needs, one box on the square the way starts from, the player behind it and the level's other
//! boxes left out; the way's pushes must replay on it and put the box on the target.

// The board crate's test helpers (levels by name, cells by coordinates), shared rather than copied.
#[path = "../../board/tests/common/mod.rs"]
mod common;

use bisolve_board::moves::{pushes_along, pushes_to_steps, replay, ReplayError};
use bisolve_board::search::Side;
use bisolve_board::{Level, State, NO_CELL};
use bisolve_deadlock::packing::PackingOrder;

use common::{all_repo_valid_levels, load, shared_levels};

/// Checks the orders of both sides of `lv`; panics naming `what` when one is wrong. Returns
/// how many ways in were replayed.
fn check_level(what: &str, lv: &Level) -> usize {
    let board = lv.board();
    let mut replayed = 0;
    for side in [Side::Forward, Side::Backward] {
        let order = PackingOrder::new(board, side);
        let targets = match side {
            Side::Forward => board.goals(),
            Side::Backward => board.start_squares(),
        };
        let mut seen: Vec<_> = order.groups().concat();
        seen.sort_unstable();
        assert_eq!(seen, targets, "{what}: every target in exactly one group");
        for group in order.groups() {
            for (i, &t) in group.iter().enumerate() {
                for &n in order.needs(t) {
                    let j = group
                        .iter()
                        .position(|&c| c == n)
                        .unwrap_or_else(|| panic!("{what}: needs outside the group"));
                    assert!(j < i, "{what}: a target needs one filled after it");
                }
                assert!(order.is_next(t, |c| order.needs(t).contains(&c)), "{what}");
                assert_eq!(
                    order.packed(|c| c == t || order.needs(t).contains(&c)),
                    order.needs(t).len() as u32 + 1
                );
            }
        }
        assert_eq!(order.unpacked(|c| targets.contains(&c)), 0, "{what}: all filled is all packed");
        if side == Side::Backward {
            assert!(targets.iter().all(|&t| order.way_in(t).is_none()), "{what}: ways in are forward only");
            continue;
        }
        for &t in targets {
            let Some((from, dirs)) = order.way_in(t) else { continue };
            assert!(order.entered_from(from).any(|c| c == t), "{what}");
            assert!(!dirs.is_empty());
            let player = board.neighbour(from, dirs[0].opposite());
            assert_ne!(player, NO_CELL, "{what}: no square behind the way's first push");
            let mut boxes = order.needs(t).to_vec();
            boxes.push(from);
            let state = State::new(boxes, player);
            let mut pushes = Vec::new();
            pushes_along(board, from, dirs, &mut pushes);
            let last = pushes.last().expect("a push");
            assert_eq!(board.neighbour(last.from, last.dir), t, "{what}: the way ends on its target");
            let steps = pushes_to_steps(board, &state, &pushes)
                .unwrap_or_else(|e| panic!("{what}: the way in to {:?} cannot be walked: {e}", board.xy(t)));
            match replay(board, &state, &steps) {
                Ok(_) => {}
                Err(ReplayError::Unsolved { pushes: p, .. }) => assert_eq!(p, pushes.len(), "{what}"),
                Err(e) => panic!("{what}: the way in to {:?} does not replay: {e}", board.xy(t)),
            }
            replayed += 1;
        }
    }
    replayed
}

#[test]
fn ways_in_replay_on_the_projects_levels() {
    for (name, lv) in all_repo_valid_levels() {
        check_level(&name, &lv);
    }
}

#[test]
fn ways_in_replay_on_the_shared_collections() {
    let Some(dir) = shared_levels() else { return };
    for file in ["microban.xsb", "microban2.xsb", "sasquatch.xsb", "xsokoban-1-45.xsb"] {
        let c = load(&dir.join(file));
        let mut ways = 0;
        for e in c.entries {
            let Ok(lv) = e.level else { continue };
            ways += check_level(&format!("{file} #{}", e.index), &lv);
        }
        assert!(ways > 0, "{file}: no way in found at all");
        eprintln!("{file}: {ways} ways in replayed");
    }
}
