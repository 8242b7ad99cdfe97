//! Unit tests of the forward search's pruning switches.

use super::*;
use bisolve_board::search::children_of;
use bisolve_board::Level;
use bisolve_deadlock::bound::BoundKind;

/// Every technique off, and no bound.
fn nothing() -> PushConfig {
    PushConfig {
        dead_squares: false,
        freeze: false,
        diagonals: false,
        bound: BoundKind::Zero,
        tunnels: false,
        frozen_goals: false,
        corrals: false,
        corral_deadlocks: false,
        shut_in: false,
        pair_deadlocks: false,
        pair_bound: false,
        triple_deadlocks: false,
        sealed_goals: false,
        jams: false,
        frozen_walls: false,
        goal_areas: false,
        goal_macros: false,
        room_entrances: false,
        goal_cut: false,
        room_discipline: false,
        room_plans: false,
        features: false,
        packing: false,
        room_links: false,
        hotspots: false,
        packing_macros: false,
        box_moves: false,
        explorer: false,
        parking_plan: false,
        plan_cells: false,
        out_of_plan: false,
        opener: false,
        imagine: false,
    }
}

/// The children of the level's start, with the given configuration.
fn start_children(level: &Level, config: PushConfig) -> Vec<Child> {
    let board = level.board();
    let forward = Forward::new(board, level.start(), config);
    let mut scratch = forward.new_scratch();
    children_of(&forward, &mut scratch, board, level.start(), NO_CELL).into_iter().map(|(_, c)| c).collect()
}

/// Where the pushes of the level's start take boxes, with the given configuration.
fn targets(level: &Level, config: PushConfig) -> Vec<Cell> {
    start_children(level, config).iter().map(|c| c.to).collect()
}

#[test]
fn the_push_that_closes_a_diagonal_is_pruned_only_with_the_switch_on() {
    // Pushing the lowest box up closes a diagonal of six boxes off their goals between
    // two walls (see bisolve_deadlock::diagonal).
    let level = Level::parse(
        "##########\n#        #\n# #$     #\n# $ $    #\n#  $ $   #\n#    #   #\n\
             #   $    #\n#   @    #\n#  ...   #\n#  ...   #\n##########",
    )
    .expect("valid level");
    let closing = level.board().cell(4, 5).expect("floor");
    assert!(targets(&level, nothing()).contains(&closing));
    let pruned = targets(&level, PushConfig { diagonals: true, ..nothing() });
    assert!(!pruned.contains(&closing));
    // The push the other way, which opens nothing, is kept.
    assert!(pruned.contains(&level.board().cell(4, 7).expect("floor")));
}

#[test]
fn a_room_with_a_parking_plan_changes_only_by_its_steps() {
    // levels/edge/parking-room.xsb: the first box into the room at the top must wait on
    // the square left of the entrance's column while the second passes.
    let level =
        Level::parse("######\n#  # #\n#   .#\n# .  #\n### #####\n#      .#\n# $$ $  #\n#@      #\n#########")
            .expect("valid level");
    let board = level.board();
    let at = |x, y| board.cell(x, y).expect("floor");
    // The first box has come in and up; the player stands below it.
    let state = State::new(vec![at(3, 2), at(3, 6), at(5, 6)], at(3, 3));
    let rooms = PushConfig {
        goal_macros: true,
        goal_cut: true,
        room_discipline: true,
        room_plans: true,
        ..nothing()
    };
    let moves_of_the_box = |config: PushConfig| {
        let forward = Forward::new(board, level.start(), config);
        let mut scratch = forward.new_scratch();
        let children = children_of(&forward, &mut scratch, board, &state, NO_CELL);
        let mut to: Vec<Cell> =
            children.iter().filter(|(s, _)| !s.boxes.contains(&at(3, 2))).map(|(_, c)| c.to).collect();
        to.sort_unstable();
        to
    };
    // Without the plan it can go right, onto the right-hand goal, which would leave the
    // left-hand goal no way in; the plan parks it on the left.
    assert_eq!(moves_of_the_box(PushConfig { room_plans: false, ..rooms }), vec![at(2, 2), at(4, 2)]);
    assert_eq!(moves_of_the_box(rooms), vec![at(2, 2)]);
    let forward = Forward::new(board, level.start(), rooms);
    assert!(!forward.complete(), "a search kept to a plan is not complete");
}

#[test]
fn the_push_that_makes_a_dead_triple_is_pruned_only_with_the_switch_on() {
    // Pushing the box below the top row up makes three boxes on a row they can never
    // leave, which has two goals; any two of them could still be finished.
    let level = Level::parse("#########\n#.$ $  .#\n#     $ #\n#   .   #\n#@      #\n#########")
        .expect("valid level");
    let third = level.board().cell(6, 1).expect("floor");
    let pairs = PushConfig { pair_deadlocks: true, ..nothing() };
    assert!(targets(&level, pairs).contains(&third));
    let pruned = targets(&level, PushConfig { triple_deadlocks: true, ..pairs });
    assert!(!pruned.contains(&third));
    assert!(pruned.contains(&level.board().cell(6, 3).expect("floor")));
}

#[test]
fn feature_cells_count_the_room_links_a_push_cuts_only_with_the_switch_on() {
    // Two rooms joined by a passage. The box stands in the right room at the passage's mouth,
    // where it already cuts the link: pushing it left into the passage keeps the link cut,
    // pushing it up or down opens it.
    let level =
        Level::parse("##########\n#  #######\n#  #######\n#  ###   #\n#     $@ #\n####.#   #\n##########")
            .expect("valid level");
    let into_passage = level.board().cell(5, 4).expect("floor");
    for on in [false, true] {
        let children = start_children(&level, PushConfig { features: true, room_links: on, ..nothing() });
        assert_eq!(children.len(), 3, "left, up and down");
        for child in &children {
            let cut = FeatureCell::unpack(child.cell).cut_links;
            let want = u32::from(on && child.to == into_passage);
            assert_eq!(cut, want, "push to {} with room links {on}", child.to);
        }
        assert!(children.iter().any(|c| c.to == into_passage));
    }
}

#[test]
fn a_push_that_opens_the_way_to_another_box_is_marked_only_with_the_explorer_on() {
    // The player stands in the doorway below a box. Pushing it up lets the player into the
    // room, round to the sides of the room's other box, from which that box can be pushed.
    let level =
        Level::parse("#######\n#  .  #\n# $ . #\n#  $  #\n### ###\n###@###\n#######").expect("valid level");
    for on in [false, true] {
        let children = start_children(&level, PushConfig { features: true, explorer: on, ..nothing() });
        assert_eq!(children.len(), 1, "only the doorway's box can move");
        assert_eq!(children[0].explores, on, "explorer {on}");
    }
    // With the player in the room already, no push opens anything new (pushed down into the
    // doorway, the lower box opens only a dead end).
    let inside =
        Level::parse("#######\n#  .  #\n# $ . #\n#  $@ #\n### ###\n### ###\n#######").expect("valid level");
    let children = start_children(&inside, PushConfig { features: true, explorer: true, ..nothing() });
    assert!(children.len() >= 4, "both boxes move");
    assert!(children.iter().all(|c| !c.explores));
}

#[test]
fn feature_cells_count_hotspots_only_with_the_switch_on() {
    // The box in the corridor keeps the box in the room from the goals. Pushing it onto a goal
    // leaves no hotspot; every other push leaves it one. (The table reads a lone box's ways to
    // the goals with the player anywhere: the room's box in the corridor's mouth keeps the
    // player from the corridor's box, but not that box from the goals.)
    let level = Level::parse("#########\n#   #####\n# $  $..#\n#   #####\n#@   ####\n#########")
        .expect("valid level");
    let board = level.board();
    let (on_goal, mouth) = (board.cell(6, 2).expect("floor"), board.cell(3, 2).expect("floor"));
    for on in [false, true] {
        let children = start_children(&level, PushConfig { features: true, hotspots: on, ..nothing() });
        assert!(children.iter().any(|c| c.to == on_goal) && children.iter().any(|c| c.to == mouth));
        for child in &children {
            let hotspots = FeatureCell::unpack(child.cell).hotspots;
            let want = match (on, child.to) {
                (false, _) => 0,
                // A box on a dead square counts in no pair: the search drops it anyway.
                (true, to) if to == on_goal || board.is_push_dead(to) => 0,
                (true, _) => 1,
            };
            assert_eq!(hotspots, want, "push to {} with hotspots {on}", child.to);
        }
    }
}

#[test]
fn feature_cells_count_the_parking_plan_only_with_the_switch_on() {
    // The plan fills the dead end's far goal first: a box pushed onto the near goal places a
    // box, but packs no step of the plan.
    let level = Level::parse("########\n#  @$..#\n#  $ ###\n#    #\n######").expect("valid level");
    let board = level.board();
    let near = board.cell(5, 1).expect("floor");
    let plan = ParkingPlan::new(board).expect("a plan");
    assert_eq!(plan.steps()[0].to, board.cell(6, 1).expect("floor"));
    for on in [false, true] {
        let children = start_children(&level, PushConfig { features: true, parking_plan: on, ..nothing() });
        let onto_goal = children.iter().find(|c| c.to == near).expect("a push onto the near goal");
        let want = if on { 2 } else { 1 };
        assert_eq!(FeatureCell::unpack(onto_goal.cell).unplaced, want, "parking plan {on}");
    }
}

#[test]
fn the_node_cell_of_an_expansion_is_the_cell_its_parent_gave_it() {
    // The advisors compare each child's cell with its node's, read after the expansion: the
    // two must count alike. Two rooms and a passage, so areas and cut links both vary.
    let level = Level::parse(
        "##########\n#  #######\n#  #######\n#  ###   #\n#  .  $@ #\n#### # $ #\n# .    $.#\n##########",
    )
    .expect("valid level");
    let board = level.board();
    for (room_links, hotspots) in [(false, false), (true, false), (false, true), (true, true)] {
        let config = PushConfig { features: true, room_links, hotspots, ..PushConfig::default() };
        let forward = Forward::new(board, level.start(), config);
        let mut scratch = forward.new_scratch();
        let roots = forward.roots(&mut scratch);
        assert_eq!(roots.len(), 1);
        let children = children_of(&forward, &mut scratch, board, &roots[0].state, NO_CELL);
        assert_eq!(
            forward.node_cell(&mut scratch, &roots[0].state.boxes),
            roots[0].cell,
            "the root, room links {room_links}"
        );
        assert!(children.len() >= 3);
        let mut seen = std::collections::HashSet::new();
        for (state, child) in &children {
            children_of(&forward, &mut scratch, board, state, child.to);
            assert_eq!(
                forward.node_cell(&mut scratch, &state.boxes),
                child.cell,
                "child {state:?}, room links {room_links}"
            );
            seen.insert(child.cell);
        }
        assert!(seen.len() > 1, "the children's cells differ");
    }
}

#[test]
fn the_pair_bound_raises_the_bound_only_with_the_switch_on() {
    // The box on the goal in the nook must come out for the other box to pass, and go back:
    // the two need 6 pushes alone, where their distances to the goals add up to 2.
    let level = Level::parse("#######\n#  # ##\n#  #* #\n#   $ #\n#    +#\n#######").expect("valid level");
    let board = level.board();
    let matching = PushConfig { bound: BoundKind::Matching, ..nothing() };
    let root_h = |config: PushConfig| {
        let forward = Forward::new(board, level.start(), config);
        let mut scratch = forward.new_scratch();
        forward.roots(&mut scratch)[0].h
    };
    let (without, with) = (root_h(matching), root_h(PushConfig { pair_bound: true, ..matching }));
    assert_eq!((without, with), (2, 6));
    // The children: the same pushes, each bound at least the matching's.
    let plain = start_children(&level, matching);
    let paired = start_children(&level, PushConfig { pair_bound: true, ..matching });
    assert_eq!(plain.len(), paired.len());
    assert!(!plain.is_empty());
    for (a, b) in plain.iter().zip(&paired) {
        assert_eq!((a.to, a.dir), (b.to, b.dir));
        assert!(b.h >= a.h, "{} against {}", b.h, a.h);
    }
    assert!(paired.iter().zip(&plain).any(|(b, a)| b.h > a.h));
}

#[test]
fn the_opener_marks_the_push_that_clears_the_plans_next_square_only_with_the_switch_on() {
    // No box stands next to a goal: no push packs the plan's first step. The opener marks
    // the push that takes the box nearest that step's square away from it (or along), and
    // nothing without the switch.
    let level =
        Level::parse("########\n#.     #\n#   $  #\n#. $$  #\n#    @.#\n########").expect("valid level");
    let board = level.board();
    let plan = ParkingPlan::new(board).expect("a plan");
    let start = level.start();
    let next = plan.next_step(|c| start.boxes.binary_search(&c).is_ok()).expect("a next step");
    let square = plan.steps()[next].to;
    let walk = crate::opener::empty_board_walks(board, square);
    for on in [false, true] {
        let config = PushConfig { features: true, parking_plan: true, opener: on, ..nothing() };
        let children = start_children(&level, config);
        let base = children.iter().map(|c| FeatureCell::unpack(c.cell).unplaced).max().expect("children");
        assert!(children.iter().all(|c| FeatureCell::unpack(c.cell).unplaced == base), "none packs a step");
        let marked: Vec<&Child> = children.iter().filter(|c| c.opens).collect();
        if !on {
            assert!(marked.is_empty());
            continue;
        }
        assert_eq!(marked.len(), 1, "one move marked");
        let from = start.boxes[marked[0].box_index as usize];
        assert!(walk[marked[0].to as usize] >= walk[from as usize], "the box goes no nearer");
        let nearest = start.boxes.iter().map(|&b| walk[b as usize]).min().expect("boxes");
        assert_eq!(walk[from as usize], nearest, "the nearest box: {:?}", board.xy(from));
        // Here: the plan fills the left wall's lower goal first, and its nearest box goes up
        // (left would take it nearer; right is blocked).
        assert_eq!((board.xy(square), board.xy(from), board.xy(marked[0].to)), ((1, 3), (3, 3), (3, 2)));
    }
}
