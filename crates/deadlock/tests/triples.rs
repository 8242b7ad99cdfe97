//! The triple deadlock table: a hand-made dead triple whose pairs are all alive, and a property
//! test that every triple the table calls dead is unsolvable by an exhaustive search of the
//! three boxes alone, with the player anywhere.

// The board crate's test helpers (levels by name, cells by coordinates), shared rather than copied.
#[path = "../../board/tests/common/mod.rs"]
mod common;

use bisolve_board::{Board, BoxMap, Cell, Level, Reach, State};
use bisolve_deadlock::pairs::{PairMode, PairTable};
use bisolve_deadlock::triples::TripleTable;
use common::{cell, level, proptest_config};
use proptest::prelude::*;

#[test]
fn three_boxes_on_a_wall_with_two_goals_are_dead_though_every_two_are_not() {
    // Boxes on the top row can never leave it, and it has two goals.
    let level = level("#########\n#.$ $ $.#\n#       #\n#   .   #\n#@      #\n#########");
    let board = level.board();
    let [a, b, c] = [cell(board, 2, 1), cell(board, 4, 1), cell(board, 6, 1)];
    let triples = TripleTable::new(board).expect("a small board");
    assert!(triples.is_dead(a, b, c));
    assert!(triples.is_dead(c, a, b), "any order");
    let pairs = PairTable::new(board, PairMode::Push).expect("a small board");
    let player = cell(board, 1, 4);
    assert!(!pairs.is_dead(a, b, player) && !pairs.is_dead(b, c, player) && !pairs.is_dead(a, c, player));
    // One box off the top row leaves a triple that can be finished.
    assert!(!triples.is_dead(a, b, cell(board, 4, 2)));
    assert!(triples.n_dead() > 0);
}

#[test]
fn no_table_for_fewer_than_three_boxes() {
    let level = level("######\n#@$$.#\n#   .#\n######");
    assert!(TripleTable::new(level.board()).is_none());
}

/// The squares a lone box can still push to a goal from (the table's squares).
fn live_squares(board: &Board) -> Vec<Cell> {
    (0..board.n_cells() as Cell).filter(|&c| !board.is_push_dead(c)).collect()
}

/// One state per area of free floor around `boxes`.
fn every_player(board: &Board, boxes: &[Cell]) -> Vec<State> {
    let mut map = BoxMap::new(board.n_cells());
    map.set_all(boxes);
    let mut reach = Reach::new(board.n_cells());
    let mut covered = vec![false; board.n_cells()];
    let mut out = Vec::new();
    for p in 0..board.n_cells() as Cell {
        if !map.is_box(p) && !covered[p as usize] {
            reach.fill(board, &map, p);
            for q in reach.cells() {
                covered[q as usize] = true;
            }
            out.push(State::new(boxes.to_vec(), p));
        }
    }
    out
}

/// A 5x5 room with random walls, three to five goals and as many boxes, from random numbers.
fn random_level(kinds: &[u8], goal_keys: &[u8]) -> Option<Level> {
    const SIDE: usize = 5;
    let mut grid: Vec<u8> = kinds.iter().map(|&k| if k % 10 < 2 { b'#' } else { b' ' }).collect();
    let mut open: Vec<usize> = (0..grid.len()).filter(|&i| grid[i] == b' ').collect();
    let goals = 3 + usize::from(goal_keys[0] % 3);
    if open.len() < 2 * goals + 1 {
        return None;
    }
    open.sort_by_key(|&i| (goal_keys[i], i));
    for &i in &open[..goals] {
        grid[i] = b'.';
    }
    for &i in &open[goals..2 * goals] {
        grid[i] = b'$';
    }
    grid[open[2 * goals]] = b'@';
    let text = common::walled(&grid, SIDE);
    Level::parse(&text).ok().filter(|l| l.walled_off().is_none())
}

proptest! {
    #![proptest_config(proptest_config(64, 0x7217))]

    /// Soundness: three boxes the table calls dead, alone on the board, reach no position with
    /// all three on goals, wherever the player starts (checked for up to 40 dead triples of
    /// each board).
    #[test]
    fn every_dead_triple_is_unsolvable_alone(
        kinds in proptest::collection::vec(any::<u8>(), 25),
        goal_keys in proptest::collection::vec(any::<u8>(), 25),
    ) {
        let Some(level) = random_level(&kinds, &goal_keys) else { return Ok(()) };
        let board = level.board();
        let Some(table) = TripleTable::new(board) else { return Ok(()) };
        let live = live_squares(board);
        let mut checked = 0;
        for (x, &a) in live.iter().enumerate() {
            for (y, &b) in live.iter().enumerate().skip(x + 1) {
                for &c in &live[y + 1..] {
                    if checked < 40 && table.is_dead(a, b, c) {
                        checked += 1;
                        let starts = every_player(board, &[a, b, c]);
                        prop_assert!(
                            !common::solvable(board, &starts),
                            "{a} {b} {c} called dead but solvable:\n{}",
                            level.rows().join("\n")
                        );
                    }
                }
            }
        }
    }

    /// Completeness of the walk: three boxes that can be finished alone (from some player
    /// square) are never called dead.
    #[test]
    fn a_solvable_triple_is_never_dead(
        kinds in proptest::collection::vec(any::<u8>(), 25),
        goal_keys in proptest::collection::vec(any::<u8>(), 25),
        picks in proptest::collection::vec(any::<u8>(), 3),
    ) {
        let Some(level) = random_level(&kinds, &goal_keys) else { return Ok(()) };
        let board = level.board();
        let Some(table) = TripleTable::new(board) else { return Ok(()) };
        let live = live_squares(board);
        let mut t: Vec<Cell> = picks.iter().map(|&p| live[p as usize % live.len()]).collect();
        t.sort_unstable();
        t.dedup();
        prop_assume!(t.len() == 3);
        if common::solvable(board, &every_player(board, &t)) {
            prop_assert!(!table.is_dead(t[0], t[1], t[2]));
        }
    }
}
