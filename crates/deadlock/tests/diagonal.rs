//! Closed diagonal deadlocks: hand-made positions, and a property test that every position the
//! test calls dead is unsolvable by an exhaustive search written here.

// The board crate's test helpers (levels by name, cells by coordinates), shared rather than copied.
#[path = "../../board/tests/common/mod.rs"]
mod common;

use std::collections::{HashSet, VecDeque};

use bisolve_board::{Board, BoxMap, Cell, Dir, Level, Reach, NO_CELL};
use bisolve_deadlock::diagonal;
use bisolve_deadlock::freeze::{FreezeCheck, Verdict};
use common::{cell, level, proptest_config};
use proptest::prelude::*;

/// A checkerboard diagonal of six boxes between two wall caps (`x` marks its two inner
/// squares; the goals are far away).
const CLOSED: &str = "\
##########
#  @     #
# #$     #
# $ $    #
#  $ $   #
#   $#   #
#        #
#  ...   #
#  ...   #
##########";

fn map_of(level: &Level) -> BoxMap {
    let mut map = BoxMap::new(level.board().n_cells());
    map.set_all(&level.start().boxes);
    map
}

fn dead_at(level: &Level, x: usize, y: usize) -> bool {
    let board = level.board();
    diagonal::is_deadlock(board, &map_of(level), level.start().player, cell(board, x, y))
}

#[test]
fn a_closed_diagonal_of_boxes_off_goals_is_dead_where_freeze_sees_nothing() {
    let level = level(CLOSED);
    let board = level.board();
    let map = map_of(&level);
    for &b in &level.start().boxes {
        let (x, y) = board.xy(b);
        assert!(dead_at(&level, x, y), "box at ({x}, {y})");
        assert!(!board.is_push_dead(b), "({x}, {y}) is a live square");
        assert_eq!(FreezeCheck::default().check(board, &map, b), Verdict::Free, "({x}, {y})");
    }
}

#[test]
fn goals_inside_the_diagonal_leave_it_alive() {
    // The inner squares are goals, and the boxes that stay beside them are on goals: pushing
    // the top box down and the bottom box up finishes it.
    let alive = "\
##########
#  @     #
# #$     #
# *.*    #
#  *.*   #
#   $#   #
#        #
#        #
#        #
##########";
    let level = level(alive);
    for &b in &level.start().boxes {
        let (x, y) = level.board().xy(b);
        assert!(!dead_at(&level, x, y), "box at ({x}, {y})");
    }
}

#[test]
fn an_open_end_or_the_player_inside_proves_nothing() {
    // The bottom cap is floor: the bottom pair's boxes can be pushed sideways out of the way.
    let open = CLOSED.replace("#   $#   #", "#   $    #");
    let opened = level(&open);
    for &b in &opened.start().boxes {
        let (x, y) = opened.board().xy(b);
        assert!(!dead_at(&opened, x, y), "box at ({x}, {y})");
    }
    // The player stands on the first inner square: it is not shut off from the player.
    let inside = CLOSED.replace("#  @     #", "#        #").replace("# $ $    #", "# $@$    #");
    let player_inside = level(&inside);
    for &b in &player_inside.start().boxes {
        let (x, y) = player_inside.board().xy(b);
        assert!(!dead_at(&player_inside, x, y), "box at ({x}, {y})");
    }
    // Two walls as the top pair close the diagonal without a cap.
    let walls = CLOSED.replace("# #$     #", "#  #     #").replace("# $ $    #", "# # $    #");
    let walled = level(&walls.replace("#  ...   #", "#  ..    #"));
    assert!(dead_at(&walled, 4, 3));
}

/// A small level from random numbers: squares of one colour of a checkerboard are mostly
/// boxes and walls, the others mostly floor, so closed diagonals are common. At most five
/// boxes; as many goals, on the squares with the highest `goal_keys`.
fn random_level(kinds: &[u8], goal_keys: &[u8], player: usize) -> Option<String> {
    const SIDE: usize = 5;
    let mut grid = [b' '; SIDE * SIDE];
    let mut boxes = 0;
    for (i, &k) in kinds.iter().enumerate() {
        let (x, y) = (i % SIDE, i / SIDE);
        grid[i] = match ((x + y) % 2, k % 10) {
            (0, 0..=2) | (1, 0..=1) => b'#',
            (0, 3..=6) if boxes < 5 => {
                boxes += 1;
                b'$'
            }
            _ => b' ',
        };
    }
    if boxes == 0 || grid[player] != b' ' {
        return None;
    }
    grid[player] = b'@';
    let mut open: Vec<usize> = (0..grid.len()).filter(|&i| grid[i] != b'#').collect();
    open.sort_by_key(|&i| std::cmp::Reverse((goal_keys[i], i)));
    for &i in &open[..boxes] {
        grid[i] = match grid[i] {
            b'$' => b'*',
            b'@' => b'+',
            _ => b'.',
        };
    }
    Some(common::walled(&grid, SIDE))
}

fn diagonal_verdicts(board: &Board, level: &Level) -> bool {
    let map = map_of(level);
    level.start().boxes.iter().any(|&b| diagonal::is_deadlock(board, &map, level.start().player, b))
}

proptest! {
    #![proptest_config(proptest_config(3000, 0xd1a6))]

    /// Soundness: a position the test calls dead has no solution at all.
    #[test]
    fn every_diagonal_deadlock_is_unsolvable(
        kinds in proptest::collection::vec(any::<u8>(), 25),
        goal_keys in proptest::collection::vec(any::<u8>(), 25),
        player in 0usize..25,
    ) {
        let Some(text) = random_level(&kinds, &goal_keys, player) else { return Ok(()) };
        let Ok(level) = Level::parse(&text) else { return Ok(()) };
        prop_assume!(level.walled_off().is_none());
        if diagonal_verdicts(level.board(), &level) {
            prop_assert!(!common::solvable(level.board(), std::slice::from_ref(level.start())), "called dead but solvable:\n{}", text);
        }
    }
}

/// Boxes (sorted) and the player's square.
type Position = (Vec<Cell>, Cell);

/// The level of `text` and the positions its solved position pulls back to, breadth-first, up
/// to `cap` of them: every one solvable (push the pulls back).
fn pulled_positions(text: &str, cap: usize) -> Option<(Level, Vec<Position>)> {
    let level = Level::parse(text).ok()?;
    if level.walled_off().is_some() {
        return None;
    }
    let board = level.board();
    let n = board.n_cells();
    let mut map = BoxMap::new(n);
    let mut reach = Reach::new(n);
    let solved: Vec<Cell> = board.goals().to_vec();
    map.set_all(&solved);
    let mut seen = HashSet::new();
    let mut queue = VecDeque::new();
    for p in 0..n as Cell {
        if !map.is_box(p) {
            let min = reach.fill(board, &map, p);
            if seen.insert((solved.clone(), min)) {
                queue.push_back((solved.clone(), p));
            }
        }
    }
    map.clear_all(&solved);
    let mut out = Vec::new();
    while let Some((boxes, player)) = queue.pop_front() {
        if out.len() >= cap {
            break;
        }
        map.set_all(&boxes);
        reach.fill(board, &map, player);
        let mut next = Vec::new();
        for p in reach.cells().collect::<Vec<_>>() {
            for d in Dir::ALL {
                let b = board.neighbour(p, d);
                let back = board.neighbour(p, d.opposite());
                if b == NO_CELL || back == NO_CELL || !map.is_box(b) || map.is_box(back) {
                    continue;
                }
                let mut moved = boxes.clone();
                let i = moved.iter().position(|&c| c == b).expect("a box");
                moved[i] = p;
                moved.sort_unstable();
                next.push((moved, back));
            }
        }
        map.clear_all(&boxes);
        for (moved, back) in next {
            map.set_all(&moved);
            let min = reach.fill(board, &map, back);
            map.clear_all(&moved);
            if seen.insert((moved.clone(), min)) {
                queue.push_back((moved, back));
            }
        }
        out.push((boxes, player));
    }
    Some((level, out))
}

/// A board of checkerboard walls with goals (boxes on them) and the player from random
/// numbers, for [`pulled_positions`].
fn random_solved(kinds: &[u8], goal_keys: &[u8]) -> Option<String> {
    const SIDE: usize = 5;
    let mut grid: Vec<u8> = (0..SIDE * SIDE)
        .map(|i| match ((i % SIDE + i / SIDE) % 2, kinds[i] % 10) {
            (0, 0..=2) | (1, 0) => b'#',
            _ => b' ',
        })
        .collect();
    let mut open: Vec<usize> = (0..grid.len()).filter(|&i| grid[i] == b' ').collect();
    if open.len() < 4 {
        return None;
    }
    open.sort_by_key(|&i| {
        std::cmp::Reverse((goal_keys[i] / 2 + 64 * u8::from((i % SIDE + i / SIDE) % 2 == 0), i))
    });
    let goals = 2 + usize::from(goal_keys[0] % 4);
    for &i in &open[..goals.min(open.len() - 1)] {
        grid[i] = b'*';
    }
    grid[open[open.len() - 1]] = b'@';
    Some(common::walled(&grid, SIDE))
}

proptest! {
    #![proptest_config(proptest_config(300, 0xd1a7))]

    /// Soundness from the other side: no position a solved position pulls back to (every one
    /// of them solvable) is called dead.
    #[test]
    fn no_solvable_position_is_called_dead(
        kinds in proptest::collection::vec(any::<u8>(), 25),
        goal_keys in proptest::collection::vec(any::<u8>(), 25),
    ) {
        let Some(text) = random_solved(&kinds, &goal_keys) else { return Ok(()) };
        let Some((level, positions)) = pulled_positions(&text, 5_000) else { return Ok(()) };
        let board = level.board();
        let mut map = BoxMap::new(board.n_cells());
        for (boxes, player) in positions {
            map.set_all(&boxes);
            let dead = boxes.iter().find(|&&b| diagonal::is_deadlock(board, &map, player, b));
            map.clear_all(&boxes);
            prop_assert!(dead.is_none(), "boxes {:?}, player {}, called dead:\n{}", boxes, player, text);
        }
    }
}

/// The property test above is not empty: its generator makes closed diagonals the test calls
/// dead, and some it does not.
#[test]
fn the_generator_makes_diagonal_deadlocks() {
    let mut dead = 0;
    let mut alive = 0;
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for _ in 0..2000 {
        let kinds: Vec<u8> = (0..25).map(|_| next() as u8).collect();
        let keys: Vec<u8> = (0..25).map(|_| next() as u8).collect();
        let Some(text) = random_level(&kinds, &keys, (next() % 25) as usize) else { continue };
        let Ok(level) = Level::parse(&text) else { continue };
        if level.walled_off().is_some() {
            continue;
        }
        if diagonal_verdicts(level.board(), &level) {
            dead += 1;
        } else {
            alive += 1;
        }
    }
    assert!(dead >= 20, "{dead} dead of {} levels", dead + alive);
}
