//! Unit tests of the runs of box moves.

use super::*;
use bisolve_board::search::children_of;
use bisolve_board::Level;
use std::collections::HashSet;

/// An open room with a pillar, three boxes and a goal room behind a door: runs go round
/// the pillar and along the walls.
const ROOM: &str = "##########\n#  .     #\n# $  #   #\n#    $  .#\n#@   $   #\n#.       #\n##########";

/// The children of `state` (reached by moving the box now on `moved`, or a root).
fn expand(forward: &Forward<'_>, level: &Level, state: &State, moved: Cell) -> Vec<(State, Child)> {
    children_of(forward, &mut forward.new_scratch(), level.board(), state, moved)
}

fn config(box_moves: bool) -> PushConfig {
    PushConfig { box_moves, goal_macros: false, goal_cut: false, ..PushConfig::default() }
}

/// Every child of a run undoes, one push back, to the node or to a child listed before
/// it, one step shorter; the first pushes are the plain expansion's children.
#[test]
fn each_push_of_a_run_undoes_to_an_earlier_child() {
    let level = Level::parse(ROOM).expect("valid level");
    let board = level.board();
    let start = level.start().clone();
    let forward = Forward::new(board, level.start(), config(true));
    let children = expand(&forward, &level, &start, NO_CELL);
    let mut seen: Vec<(Fingerprint, u16)> = vec![(start.fingerprint(board), 0)];
    let mut longest = 0;
    for (state, child) in &children {
        let parent = forward.parent(state, child.packed()).expect("a run's push undoes");
        let parent_fp = parent.fingerprint(board);
        assert!(
            seen.iter().any(|&(fp, steps)| fp == parent_fp && steps + 1 == child.steps),
            "{child:?}: the state one push back was not listed before it, one step shorter"
        );
        assert_eq!(child.fp, state.fingerprint(board));
        seen.push((child.fp, child.steps));
        longest = longest.max(child.steps);
    }
    assert!(longest >= 4, "no long run in the open room: {longest}");
    let plain = Forward::new(board, level.start(), config(false));
    let firsts: HashSet<Fingerprint> =
        children.iter().filter(|(_, c)| c.steps == 1).map(|(_, c)| c.fp).collect();
    let singles: HashSet<Fingerprint> =
        expand(&plain, &level, &start, NO_CELL).iter().map(|(_, c)| c.fp).collect();
    assert_eq!(firsts, singles);
}

/// A box that a run moved into a node is not moved again from there: every push of it
/// from the node makes a state the run already made (or the node's parent itself).
#[test]
fn the_box_a_run_moved_needs_no_run_from_its_child() {
    let level = Level::parse(ROOM).expect("valid level");
    let board = level.board();
    let start = level.start().clone();
    let forward = Forward::new(board, level.start(), config(true));
    let plain = Forward::new(board, level.start(), config(false));
    let children = expand(&forward, &level, &start, NO_CELL);
    let mut made: HashSet<Fingerprint> = children.iter().map(|(_, c)| c.fp).collect();
    made.insert(start.fingerprint(board));
    let mut checked = 0;
    for (state, child) in &children {
        // Box indices are into the state's sorted list.
        let moves_it = |c: &Child| state.boxes[c.box_index as usize] == child.to;
        let skipped = expand(&forward, &level, state, child.to);
        assert!(!skipped.iter().any(|(_, c)| moves_it(c)), "the moved box moved again");
        assert!(!skipped.is_empty(), "the other boxes still move");
        for (_, again) in expand(&plain, &level, state, NO_CELL) {
            if moves_it(&again) {
                assert!(made.contains(&again.fp), "{child:?} then {again:?} is a state the run missed");
                checked += 1;
            }
        }
    }
    assert!(checked > 20, "too few pushes checked: {checked}");
}
