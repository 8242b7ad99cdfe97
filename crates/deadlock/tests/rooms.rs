//! Goal rooms on real levels: every macro of every packing order is a legal push sequence.
//!
//! For each room and each fill step `j`, a position is built with boxes on exactly the first
//! `j` goals of the order, one box on the entrance, the player on the square outside it and
//! the level's other boxes left out; the macro's pushes must replay on it and put the box on
//! goal `j` (and, for every step but the last, leave the player free to walk out).

// The board crate's test helpers (levels by name, cells by coordinates), shared rather than copied.
#[path = "../../board/tests/common/mod.rs"]
mod common;

use bisolve_board::moves::{pushes_to_steps, replay, ReplayError};
use bisolve_board::{Board, Cell, Level, State};
use bisolve_deadlock::rooms::{GoalRoom, GoalRooms, PlanRoom};

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

/// Replays a parking plan: each box arrives on the entrance with the player outside it, and
/// the pushes up to the next arrival must be legal with the room's boxes alone; the player
/// must then be able to walk out, and the room ends with a box on each of its goals.
fn check_plan(what: &str, board: &Board, plan: &PlanRoom) {
    let entrance = plan.entrance();
    let mut boxes: Vec<Cell> = Vec::new();
    let pushes = plan.pushes();
    assert!(!pushes.is_empty(), "{what}: an empty plan");
    let mut k = 0;
    while k < pushes.len() {
        assert_eq!(pushes[k].from, entrance.cell, "{what}: push {k} is no arrival");
        let end = (k + 1..pushes.len()).find(|&j| pushes[j].from == entrance.cell).unwrap_or(pushes.len());
        let mut with_arrival = boxes.clone();
        with_arrival.push(entrance.cell);
        let state = State::new(with_arrival, entrance.outside);
        let segment = &pushes[k..end];
        let steps = pushes_to_steps(board, &state, segment)
            .unwrap_or_else(|err| panic!("{what}: pushes {k}..{end} cannot be walked: {err}"));
        let mut after = state.clone();
        match replay(board, &state, &steps) {
            Ok(_) => {}
            Err(ReplayError::Unsolved { pushes: p, .. }) => assert_eq!(p, segment.len(), "{what}"),
            Err(err) => panic!("{what}: pushes {k}..{end} do not replay: {err}"),
        }
        for push in segment {
            let to = board.neighbour(push.from, push.dir);
            after.move_box(push.from, to, push.from);
        }
        boxes = after.boxes.clone();
        assert!(boxes.iter().all(|b| plan.cells().contains(b)), "{what}: a box left the room");
        if end < pushes.len() {
            assert!(region(board, &after).contains(&entrance.cell), "{what}: shut in after push {end}");
        }
        k = end;
    }
    let mut goals: Vec<Cell> = plan.cells().iter().copied().filter(|&c| board.is_goal(c)).collect();
    goals.sort_unstable();
    boxes.sort_unstable();
    assert_eq!(boxes, goals, "{what}: the plan does not fill the room");
}

fn check_level(what: &str, lv: &Level) -> usize {
    let rooms = GoalRooms::with_plans(lv.board(), lv.start(), true, true);
    for (r, plan) in rooms.plans().iter().enumerate() {
        check_plan(&format!("{what} plan {r}"), lv.board(), plan);
    }
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
    rooms.rooms().len() + rooms.plans().len()
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
fn a_single_entrance_room_may_hold_the_player_at_the_start_but_no_box() {
    // The player starts in the room: it walks out before any box comes in.
    let player_inside = level("######\n#@ ..#\n#    #\n### ##\n# $  #\n# $  #\n#    #\n######\n");
    let rooms = GoalRooms::new(player_inside.board(), player_inside.start(), false);
    assert_eq!(rooms.rooms().len(), 1);
    assert!(rooms.rooms()[0].single_entrance());
    assert_eq!(rooms.rooms()[0].order().len(), 2);
    check_level("player inside", &player_inside);
    let box_inside = level("#######\n# $..##\n### ###\n#@ $  #\n#######\n");
    assert!(GoalRooms::new(box_inside.board(), box_inside.start(), false).is_empty());
    // Counting the corridor squares beside the goals, the two goals have two ways in: the
    // box stands on or outside one of them, not in that room.
    let rooms = GoalRooms::new(box_inside.board(), box_inside.start(), true);
    assert_eq!(rooms.rooms().len(), 1);
    assert_eq!(rooms.rooms()[0].entrances().len(), 2);
    assert_eq!(rooms.rooms()[0].cells().len(), 2);
    check_level("two-entrance room", &box_inside);
}

#[test]
fn a_room_that_needs_a_box_parked_gets_a_plan() {
    let lv = common::repo_level("edge/parking-room.xsb");
    assert!(GoalRooms::new(lv.board(), lv.start(), false).is_empty(), "no packing order");
    let rooms = GoalRooms::with_plans(lv.board(), lv.start(), false, true);
    assert!(rooms.rooms().is_empty());
    assert_eq!(rooms.plans().len(), 1);
    let plan = &rooms.plans()[0];
    // Two boxes come in.
    let arrivals = plan.pushes().iter().filter(|p| p.from == plan.entrance().cell).count();
    assert_eq!(arrivals, 2);
    check_plan("parking room", lv.board(), plan);
    // The first box waits off the goals while the second comes in.
    let board = lv.board();
    let entrance = plan.entrance();
    let second =
        1 + plan.pushes()[1..].iter().position(|p| p.from == entrance.cell).expect("a second arrival");
    let last = plan.pushes()[second - 1];
    assert!(!board.is_goal(board.neighbour(last.from, last.dir)), "the first box waits off the goals");
    // Moves that keep to the plan are allowed, others not: with the first box in the
    // entrance's column, it goes left to wait, not right onto the right-hand goal.
    let inside = board.neighbour(entrance.cell, entrance.dir);
    assert!(rooms.plan_allows(&rooms.plan_keys(&[]), entrance.cell, inside), "the first arrival");
    let at = |x, y| board.cell(x, y).expect("floor");
    let one_in = rooms.plan_keys(&[at(3, 2)]);
    assert!(rooms.plan_allows(&one_in, at(3, 2), at(2, 2)));
    assert!(!rooms.plan_allows(&one_in, at(3, 2), at(4, 2)), "the right-hand goal first");
    // A move outside the room is never the plan's business.
    assert!(rooms.plan_allows(&one_in, at(2, 6), at(1, 6)));
}
