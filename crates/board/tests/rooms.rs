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

/// Checks every macro of `room`; panics naming `what` when one is wrong.
fn check_room(what: &str, board: &Board, room: &GoalRoom) {
    let k = room.order().len();
    for j in 0..k {
        let mut boxes: Vec<_> = room.order()[..j].to_vec();
        boxes.push(room.entrance());
        let state = State::new(boxes, room.outside());
        assert_eq!(room.next_step(|c| state.boxes.contains(&c)), Some(j), "{what}: step {j}");
        let mut pushes = Vec::new();
        room.path_pushes(board, j, &mut pushes);
        let steps = pushes_to_steps(board, &state, &pushes)
            .unwrap_or_else(|e| panic!("{what}: macro {j} of {k} cannot be walked: {e}"));
        match replay(board, &state, &steps) {
            Ok(_) => {}
            Err(ReplayError::Unsolved { pushes: p, .. }) => assert_eq!(p, pushes.len(), "{what}: step {j}"),
            Err(e) => panic!("{what}: macro {j} of {k} does not replay: {e}"),
        }
        // The box ends on goal j, the player where the room says.
        let mut after = state.clone();
        after.move_box(room.entrance(), room.order()[j], room.player_after(board, j));
        if j + 1 < k {
            let walk = region(board, &after);
            assert!(walk.contains(&room.entrance()), "{what}: after step {j} the player is shut in");
        }
    }
}

fn check_level(what: &str, lv: &Level) -> usize {
    let rooms = GoalRooms::new(lv.board(), lv.start());
    for (r, room) in rooms.rooms().iter().enumerate() {
        check_room(&format!("{what} room {r}"), lv.board(), room);
        for (j, &g) in room.order().iter().enumerate() {
            assert!(lv.board().is_goal(g));
            assert_eq!(rooms.step_of(g).map(|(_, s)| s), Some(j), "{what}");
        }
        assert!(rooms.entered(room.entrance(), room.dir()).is_some());
        assert!(rooms.entered(room.entrance(), room.dir().opposite()).is_none(), "{what}: pushed out");
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
    let rooms = GoalRooms::new(lv.board(), lv.start());
    assert_eq!(rooms.rooms().len(), 1);
    assert_eq!(rooms.rooms()[0].order().len(), 5);
    check_level("corridor room", &lv);
}

#[test]
fn no_room_where_the_player_starts_inside_or_boxes_wait_inside() {
    let player_inside = level("#######\n#@ ..##\n### ###\n#  $$ #\n#######\n");
    assert!(GoalRooms::new(player_inside.board(), player_inside.start()).is_empty());
    let box_inside = level("#######\n# $..##\n### ###\n#@ $  #\n#######\n");
    assert!(GoalRooms::new(box_inside.board(), box_inside.start()).is_empty());
}
