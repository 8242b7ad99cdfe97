//! Unit tests of `rooms`.

use super::*;
use bisolve_board::moves::{pushes_to_steps, replay, ReplayError};
use bisolve_board::Level;

fn rooms(text: &str) -> (Level, GoalRooms) {
    let level = Level::parse(text).expect("valid level");
    let rooms = GoalRooms::new(level.board(), level.start(), true);
    (level, rooms)
}

#[test]
fn a_dead_end_goal_room_is_filled_deepest_first() {
    // Three goals in a row at the end of a corridor: the deepest goal first.
    let (level, rooms) = rooms("###########\n#@ $$$ ...#\n###########\n");
    let board = level.board();
    assert_eq!(rooms.rooms().len(), 1, "{rooms:?}");
    let room = &rooms.rooms()[0];
    let xs: Vec<usize> = room.order().iter().map(|&g| board.xy(g).0).collect();
    assert_eq!(xs, vec![9, 8, 7]);
    assert_eq!(room.entrances()[0].dir, Dir::Right);
    assert!(room.single_entrance());
}

#[test]
fn a_room_with_a_box_inside_is_not_a_goal_room() {
    let (_, rooms) = rooms("##########\n#@ $ #$..#\n#    #   #\n##########\n");
    assert!(rooms.is_empty());
}

#[test]
fn macro_pushes_replay_on_the_level() {
    // A room entered from below through one square; a box already waits below it.
    let text = "#######\n\
                    #.  . #\n\
                    #     #\n\
                    ### ###\n\
                    #@ $$ #\n\
                    #     #\n\
                    #######\n";
    let (level, rooms) = rooms(text);
    let board = level.board();
    assert_eq!(rooms.rooms().len(), 1, "{rooms:?}");
    let room = &rooms.rooms()[0];
    let entrance = room.entrances()[0];
    assert_eq!(room.order().len(), 2);
    // Bring each box under the entrance by hand, then fill step j with the macro.
    let start = level.start();
    assert_eq!(room.next_step(|c| start.boxes.contains(&c)), Some(0));
    for j in 0..2 {
        let g = room.order()[j];
        assert_eq!(rooms.step_of(g).map(|(_, s)| s), Some(j));
        assert!(rooms.entered(entrance.cell, entrance.dir).is_some());
    }
    assert!(board.is_goal(room.order()[0]));
    // The macro is a legal push sequence from the box waiting on `O`: first onto the
    // entrance, then along the path.
    assert_eq!(board.xy(entrance.outside), (3, 4));
    assert_eq!(board.xy(entrance.cell), (3, 3));
    let mut pushes = vec![Push { from: entrance.outside, dir: entrance.dir }];
    room.path_pushes(board, 0, 0, &mut pushes);
    let mut state = start.clone();
    state.player = board.cell(3, 5).expect("floor");
    let steps = pushes_to_steps(board, &state, &pushes).expect("walks exist");
    // Every move is legal; the other box is still out, so the level is not solved yet.
    match replay(board, &state, &steps) {
        Err(ReplayError::Unsolved { pushes: p, off_goal: 1, .. }) => assert_eq!(p, pushes.len()),
        other => panic!("the macro should replay legally and leave one box out: {other:?}"),
    }
}

#[test]
fn a_room_between_two_corridors_is_entered_from_both_ends() {
    // Goals in a room with a corridor square on its left and one on its right (a box on
    // each), and a way round outside.
    let text = "#############\n\
                    #           #\n\
                    #  #######  #\n\
                    #  #     #  #\n\
                    # @$ ... $  #\n\
                    #  #     #  #\n\
                    #  #######  #\n\
                    #     $     #\n\
                    #############\n";
    let (level, rooms) = rooms(text);
    assert!(GoalRooms::new(level.board(), level.start(), false).is_empty(), "two ways in");
    let board = level.board();
    assert_eq!(rooms.rooms().len(), 1, "{rooms:?}");
    let room = &rooms.rooms()[0];
    assert!(!room.single_entrance());
    let cells: Vec<(usize, usize)> = room.entrances().iter().map(|e| board.xy(e.cell)).collect();
    assert_eq!(cells, vec![(3, 4), (9, 4)]);
    assert_eq!(room.order().len(), 3);
    // A push onto an entrance enters only in the entrance's direction.
    let left = room.entrances()[0];
    assert_eq!(left.dir, Dir::Right);
    assert!(rooms.entered(left.cell, Dir::Right).is_some());
    assert!(rooms.entered(left.cell, Dir::Left).is_none());
    // The first goal can be filled from either side; both macros replay.
    for e in 0..2 {
        assert_eq!(room.entrance_for(0, room.entrances()[e].dir), Some(e));
        let ent = room.entrances()[e];
        let mut pushes = vec![Push { from: ent.outside, dir: ent.dir }];
        room.path_pushes(board, 0, e, &mut pushes);
        let behind = board.neighbour(ent.outside, ent.dir.opposite());
        let state = State::new(vec![ent.outside], behind);
        let steps = pushes_to_steps(board, &state, &pushes).expect("walks exist");
        // One box alone on a goal: the replay calls that solved.
        let stats = replay(board, &state, &steps).expect("the macro replays");
        assert_eq!(stats.pushes, pushes.len());
        let last = pushes.last().expect("pushes");
        assert_eq!(board.neighbour(last.from, last.dir), room.order()[0]);
    }
}
