//! Goal rooms on real levels: every macro of every packing order is a legal push sequence.
//!
//! For each room and each fill step `j`, a position is built with boxes on exactly the first
//! `j` goals of the order, one box on the entrance, the player on the square outside it and
//! the level's other boxes left out; the macro's pushes must replay on it and put the box on
//! goal `j` (and, for every step but the last, leave the player free to walk out).

mod common;

use bisolve_board::moves::{pushes_to_steps, replay, ReplayError};
use bisolve_board::rooms::{GoalRoom, GoalRooms};
use bisolve_board::{Board, Level, State};

use common::{all_repo_valid_levels, level, load, region, shared_levels};

/// Checks every macro of `room` from every entrance with a path; panics naming `what` when
/// one is wrong.
fn check_room(what: &str, board: &Board, room: &GoalRoom) {
    let k = room.order().len();
    for j in 0..k {
        assert!(
            (0..room.entrances().len()).any(|e| room.path(j, e).is_some()),
            "{what}: step {j} has no way in"
        );
        for (e, entrance) in room.entrances().iter().enumerate() {
            if room.path(j, e).is_none() {
                continue;
            }
            let what = format!("{what} entrance {e}");
            let mut boxes: Vec<_> = room.order()[..j].to_vec();
            boxes.push(entrance.cell);
            let state = State::new(boxes, entrance.outside);
            assert_eq!(room.next_step(|c| state.boxes.contains(&c)), Some(j), "{what}: step {j}");
            if !room.single_entrance() {
                assert_eq!(
                    room.entrance_for(j, entrance.dir).map(|f| room.entrances()[f].dir),
                    Some(entrance.dir)
                );
            }
            let mut pushes = Vec::new();
            room.path_pushes(board, j, e, &mut pushes);
            let steps = pushes_to_steps(board, &state, &pushes)
                .unwrap_or_else(|err| panic!("{what}: macro {j} of {k} cannot be walked: {err}"));
            match replay(board, &state, &steps) {
                Ok(_) => {}
                Err(ReplayError::Unsolved { pushes: p, .. }) => {
                    assert_eq!(p, pushes.len(), "{what}: step {j}")
                }
                Err(err) => panic!("{what}: macro {j} of {k} does not replay: {err}"),
            }
            // The box ends on goal j, the player where the room says.
            let mut after = state.clone();
            after.move_box(entrance.cell, room.order()[j], room.player_after(board, j, e));
            if j + 1 < k {
                let walk = region(board, &after);
                let out = room.entrances().iter().any(|x| walk.contains(&x.cell));
                assert!(out, "{what}: after step {j} the player is shut in");
            }
        }
    }
}

fn check_level(what: &str, lv: &Level) -> usize {
    let rooms = GoalRooms::new(lv.board(), lv.start(), true);
    for (r, room) in rooms.rooms().iter().enumerate() {
        check_room(&format!("{what} room {r}"), lv.board(), room);
        for (j, &g) in room.order().iter().enumerate() {
            assert!(lv.board().is_goal(g));
            assert_eq!(rooms.step_of(g).map(|(_, s)| s), Some(j), "{what}");
        }
        for e in room.entrances() {
            assert!(rooms.entered(e.cell, e.dir).is_some());
            assert!(rooms.entered(e.cell, e.dir.opposite()).is_none(), "{what}: pushed out");
        }
    }
    rooms.rooms().len()
}

#[test]
fn macros_replay_on_the_projects_levels() {
    for (name, lv) in all_repo_valid_levels() {
        check_level(&name, &lv);
    }
}

#[test]
fn macros_replay_on_the_shared_collections() {
    let Some(dir) = shared_levels() else { return };
    for file in ["microban.xsb", "microban2.xsb", "sasquatch.xsb", "xsokoban-1-45.xsb"] {
        let c = load(&dir.join(file));
        let mut with_rooms = 0;
        for e in c.entries {
            let Ok(lv) = e.level else { continue };
            if check_level(&format!("{file} #{}", e.index), &lv) > 0 {
                with_rooms += 1;
            }
        }
        eprintln!("{file}: {with_rooms} levels with a goal room");
    }
}

#[test]
fn a_goal_room_behind_a_corridor_gets_an_order() {
    // XSokoban 9's shape in small: goals up in a room reached through one square.
    let lv = level(
        "#########\n\
         # ..... #\n\
         #       #\n\
         #       #\n\
         #### ####\n\
         #  $ $  #\n\
         #  $$$  #\n\
         #@      #\n\
         #########\n",
    );
    let rooms = GoalRooms::new(lv.board(), lv.start(), true);
    assert_eq!(rooms.rooms().len(), 1);
    assert_eq!(rooms.rooms()[0].order().len(), 5);
    check_level("corridor room", &lv);
}

#[test]
fn no_single_entrance_room_where_the_player_starts_inside_or_a_box_waits_inside() {
    let player_inside = level("#######\n#@ ..##\n### ###\n#  $$ #\n#######\n");
    assert!(GoalRooms::new(player_inside.board(), player_inside.start(), false).is_empty());
    let box_inside = level("#######\n# $..##\n### ###\n#@ $  #\n#######\n");
    assert!(GoalRooms::new(box_inside.board(), box_inside.start(), false).is_empty());
    // Counting the corridor squares beside the goals, the two goals have two ways in: the
    // player (resp. the box) stands on or outside one of them, not in that room.
    for lv in [&player_inside, &box_inside] {
        let rooms = GoalRooms::new(lv.board(), lv.start(), true);
        assert_eq!(rooms.rooms().len(), 1);
        assert_eq!(rooms.rooms()[0].entrances().len(), 2);
        assert_eq!(rooms.rooms()[0].cells().len(), 2);
        check_level("two-entrance room", lv);
    }
}
