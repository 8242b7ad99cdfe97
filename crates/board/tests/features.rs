//! Feature cells of the feature-space search: the areas count (and the player's region, before
//! and after a move) agrees with repeated player fills, and packing a cell into one number loses
//! nothing.

mod common;

use std::collections::HashSet;

use proptest::prelude::*;
use proptest::test_runner::Config as ProptestConfig;

use bisolve_board::search::FeatureCell;
use bisolve_board::{Areas, BoxMap, Cell, Level, Reach};

/// A room with a pillar and a side pocket: boxes can close off several areas.
const ROOMS: &str = "\
##########
#@   #   #
# #  $   #
#  $ # # #
###  #   #
  #  #####
  #..  #
  ######
";

/// Pillars, dead ends and one-wide corridors: blocking almost any square splits an area.
const MAZE: &str = "\
###########
#@  #   # #
# # # #   #
# #   ### #
# ##$ #   #
#   # # # #
### #   # #
#.  ### $ #
#  .      #
###########
";

/// One of the two boards (the maze or the rooms), boxes on the picked cells (sorted, no
/// repeats, at least one) and the box `which` picks among them.
fn position(maze: bool, picks: &[u16], which: usize) -> (Level, Vec<Cell>, Cell) {
    let level = Level::parse(if maze { MAZE } else { ROOMS }).unwrap();
    let n = level.board().n_cells() as u16;
    let mut boxes: Vec<Cell> = picks.iter().map(|p| p % n).collect();
    boxes.sort_unstable();
    boxes.dedup();
    let from = boxes[which % boxes.len()];
    (level, boxes, from)
}

fn config(cases: u32) -> ProptestConfig {
    common::proptest_config(cases, 0x5EED_0002)
}

/// Areas counted the slow way: fill from every free cell no earlier fill reached.
fn areas_by_fills(level: &Level, boxes: &[Cell]) -> u32 {
    let board = level.board();
    let mut map = BoxMap::new(board.n_cells());
    map.set_all(boxes);
    let mut reach = Reach::new(board.n_cells());
    let mut seen = HashSet::new();
    let mut areas = 0;
    for c in 0..board.n_cells() as Cell {
        if map.is_box(c) || seen.contains(&c) {
            continue;
        }
        areas += 1;
        reach.fill(board, &map, c);
        seen.extend(reach.cells());
    }
    areas
}

#[test]
fn an_empty_board_is_one_area() {
    let level = Level::parse(ROOMS).unwrap();
    let board = level.board();
    assert_eq!(Areas::new(board.n_cells()).label(board, &[]), 1);
}

#[test]
fn a_box_in_a_corridor_splits_it() {
    let level = Level::parse("#######\n#@ $ .#\n#######\n").unwrap();
    let board = level.board();
    let mut map = BoxMap::new(board.n_cells());
    map.set_all(&level.start().boxes);
    assert_eq!(Areas::new(board.n_cells()).label(board, &level.start().boxes), 2);
}

proptest! {
    #![proptest_config(config(512))]

    /// Any set of boxes: the one-pass count equals the count by repeated fills.
    #[test]
    fn areas_match_repeated_fills(picks in proptest::collection::vec(any::<u16>(), 0..12)) {
        let level = Level::parse(ROOMS).unwrap();
        let n = level.board().n_cells() as u16;
        let mut boxes: Vec<Cell> = picks.iter().map(|p| p % n).collect();
        boxes.sort_unstable();
        boxes.dedup();
        let board = level.board();
        let mut map = BoxMap::new(board.n_cells());
        map.set_all(&boxes);
        let mut areas = Areas::new(board.n_cells());
        // Twice with the same buffers: the count does not depend on earlier calls.
        for _ in 0..2 {
            prop_assert_eq!(areas.label(board, &boxes), areas_by_fills(&level, &boxes));
        }
    }

    /// The player's region read from the labels marks the same cells, and names the same
    /// smallest cell, as a fill from the player, wherever the player stands; a second reading
    /// with the same buffers forgets the first.
    #[test]
    fn region_from_labels_matches_a_fill(
        maze in any::<bool>(),
        picks in proptest::collection::vec(any::<u16>(), 1..16),
        starts in proptest::collection::vec(any::<u16>(), 2..4),
    ) {
        let (level, boxes, _) = position(maze, &picks, 0);
        let board = level.board();
        let mut map = BoxMap::new(board.n_cells());
        map.set_all(&boxes);
        let mut areas = Areas::new(board.n_cells());
        areas.label(board, &boxes);
        let (mut adopted, mut filled) = (Reach::new(board.n_cells()), Reach::new(board.n_cells()));
        let free: Vec<Cell> = (0..board.n_cells() as Cell).filter(|&c| !map.is_box(c)).collect();
        prop_assume!(!free.is_empty());
        for s in starts {
            let player = free[s as usize % free.len()];
            prop_assert_eq!(adopted.adopt(&areas, player), filled.fill(board, &map, player));
            for c in 0..board.n_cells() as Cell {
                prop_assert_eq!(adopted.contains(c), filled.contains(c), "cell {}", c);
            }
        }
    }

    /// After one box moves anywhere (to a neighbour, as a push or pull does, or further, as a
    /// macro does) and the player ends anywhere free, the areas and the player's region worked
    /// out from the parent's labelling equal a fresh count and a fresh fill. Two boards: the
    /// rooms above and a maze of pillars and corridors, where many squares are cut squares.
    #[test]
    fn areas_after_a_move_match_a_fresh_count(
        maze in any::<bool>(),
        picks in proptest::collection::vec(any::<u16>(), 1..16),
        which in any::<usize>(),
        target in any::<u16>(),
        adjacent in any::<bool>(),
        stand in any::<u16>(),
    ) {
        let (level, boxes, from) = position(maze, &picks, which);
        let board = level.board();
        let n = board.n_cells() as u16;
        let to = if adjacent {
            let options: Vec<Cell> = board.neighbours(from).iter().copied()
                .filter(|&c| c != bisolve_board::NO_CELL && !boxes.contains(&c)).collect();
            if options.is_empty() { return Ok(()); }
            options[target as usize % options.len()]
        } else {
            target % n
        };
        prop_assume!(!boxes.contains(&to));
        let after: Vec<Cell> = boxes.iter().map(|&b| if b == from { to } else { b }).collect();
        // The player stands where the box was (a push), or on any other free square.
        let free: Vec<Cell> = (0..n).filter(|c| !after.contains(c)).collect();
        let player = if stand % 3 == 0 { from } else { free[stand as usize % free.len()] };
        let mut map = BoxMap::new(board.n_cells());
        map.set_all(&boxes);
        let mut areas = Areas::new(board.n_cells());
        prop_assert_eq!(areas.label(board, &boxes), areas_by_fills(&level, &boxes));
        map.move_box(from, to);
        let (count, player_min) = areas.after_move(board, from, to, player);
        prop_assert_eq!(count, areas_by_fills(&level, &after));
        prop_assert_eq!(player_min, Reach::new(board.n_cells()).fill(board, &map, player));
    }

    /// Where the player can walk after one box moves anywhere (the box of a run of box
    /// moves, back on its own square too), read from the parent's labels, is exactly where a
    /// fresh fill of the child reaches, for every square of the board.
    #[test]
    fn reach_after_a_move_matches_a_fresh_fill(
        maze in any::<bool>(),
        picks in proptest::collection::vec(any::<u16>(), 1..16),
        which in any::<usize>(),
        target in any::<u16>(),
        stay in any::<bool>(),
        stand in any::<u16>(),
    ) {
        let (level, boxes, from) = position(maze, &picks, which);
        let board = level.board();
        let n = board.n_cells() as u16;
        let to = if stay { from } else { target % n };
        prop_assume!(to == from || !boxes.contains(&to));
        let after: Vec<Cell> = boxes.iter().map(|&b| if b == from { to } else { b }).collect();
        let free: Vec<Cell> = (0..n).filter(|c| !after.contains(c)).collect();
        prop_assume!(!free.is_empty());
        let player = free[stand as usize % free.len()];
        let mut areas = Areas::new(board.n_cells());
        areas.label(board, &boxes);
        let moved = areas.moved(board, from, to, player);
        let mut map = BoxMap::new(board.n_cells());
        map.set_all(&after);
        let mut fill = Reach::new(board.n_cells());
        fill.fill(board, &map, player);
        for c in 0..n {
            prop_assert_eq!(moved.reaches(c), fill.contains(c), "square {}", c);
        }
    }

    /// Packing keeps every feature (areas and cut links up to their caps) and orders by boxes
    /// placed first.
    #[test]
    fn feature_cells_pack_and_unpack(
        unplaced in 0u32..2000,
        areas in 1u32..40,
        cut_links in 0u32..20,
        hotspots in 0u32..20,
        out_of_plan in 0u32..20,
        other in 0u32..2000,
    ) {
        let cell = FeatureCell { unplaced, areas, cut_links, hotspots, out_of_plan };
        let back = FeatureCell::unpack(cell.pack());
        prop_assert_eq!(back.unplaced, unplaced);
        prop_assert_eq!(back.areas, areas.min(FeatureCell::MAX_AREAS));
        prop_assert_eq!(back.cut_links, cut_links.min(FeatureCell::MAX_CUT_LINKS));
        prop_assert_eq!(back.hotspots, hotspots.min(FeatureCell::MAX_HOTSPOTS));
        prop_assert_eq!(back.out_of_plan, out_of_plan.min(FeatureCell::MAX_OUT_OF_PLAN));
        let placed_more = FeatureCell { unplaced: other, areas: 1, ..FeatureCell::default() };
        if other < unplaced {
            prop_assert!(placed_more.pack() < cell.pack());
        }
        // Without links and hotspots: those two gone, the rest kept, and two cells that
        // differ only in them the same cell.
        let bare = FeatureCell::unpack(FeatureCell::without_links(cell.pack()));
        prop_assert_eq!(bare, FeatureCell { cut_links: 0, hotspots: 0, ..back });
        let other_links = FeatureCell { cut_links: other % 20, hotspots: other % 7, ..cell };
        prop_assert_eq!(FeatureCell::without_links(other_links.pack()), FeatureCell::without_links(cell.pack()));
    }
}
