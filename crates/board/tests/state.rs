//! States and fingerprints: the normalized player is the smallest cell of the player's region,
//! a fingerprint depends only on the box set and that region, equal canonical states reached
//! in different orders get equal fingerprints, and different ones get different fingerprints.

mod common;

use std::collections::{HashMap, HashSet, VecDeque};

use proptest::prelude::*;
use proptest::test_runner::Config as ProptestConfig;

use bisolve_board::{Board, BoxMap, Cell, Dir, Fingerprint, Level, Reach, State, NO_CELL};
use common::{cell, region};

/// Two rooms joined by a gap in the wall between them, one box in each.
const TWO_ROOMS: &str = "\
###########
#    #    #
# $  #  $ #
#   @     #
#.   #   .#
###########
";

fn config(cases: u32) -> ProptestConfig {
    common::proptest_config(cases, 0x5EED_0001)
}

/// A position with boxes kept in a fixed order, so each box keeps its identity.
#[derive(Clone, Debug)]
struct Pos {
    boxes: Vec<Cell>,
    player: Cell,
}

impl Pos {
    fn start(level: &Level) -> Pos {
        Pos { boxes: level.start().boxes.clone(), player: level.start().player }
    }

    fn state(&self) -> State {
        State::new(self.boxes.clone(), self.player)
    }

    /// Pushes box `i` one step in `dir` if the player can get behind it and the square ahead
    /// is free; checks the incremental fingerprint update on the way.
    fn push(&self, board: &Board, i: usize, dir: Dir) -> Option<Pos> {
        let b = self.boxes[i];
        let behind = board.neighbour(b, dir.opposite());
        let ahead = board.neighbour(b, dir);
        if behind == NO_CELL || ahead == NO_CELL || self.boxes.contains(&ahead) {
            return None;
        }
        let before = self.state();
        if !region(board, &before).contains(&behind) {
            return None;
        }
        let mut next = self.clone();
        next.boxes[i] = ahead;
        next.player = b;
        let after = next.state();
        // What the search does: xor the box out and in, and swap the player keys.
        let z = board.zobrist();
        let incremental = before.fingerprint(board)
            ^ z.box_key(b)
            ^ z.box_key(ahead)
            ^ z.player_key(before.normalized_player(board))
            ^ z.player_key(after.normalized_player(board));
        assert_eq!(incremental, after.fingerprint(board), "incremental update");
        Some(next)
    }

    /// The directions box `i` can be pushed in now.
    fn legal(&self, board: &Board, i: usize) -> Vec<Dir> {
        Dir::ALL.into_iter().filter(|&d| self.push(board, i, d).is_some()).collect()
    }
}

/// A random walk of box `i` alone from `pos`: at each step one of its legal pushes, picked by
/// the next choice. Returns the directions.
fn walk(board: &Board, pos: &Pos, i: usize, choices: &[u8]) -> Vec<Dir> {
    let mut pos = pos.clone();
    let mut dirs = Vec::new();
    for &c in choices {
        let legal = pos.legal(board, i);
        if legal.is_empty() {
            break;
        }
        let d = legal[c as usize % legal.len()];
        pos = pos.push(board, i, d).expect("legal");
        dirs.push(d);
    }
    dirs
}

/// Plays pushes `(box, dir)` in order; `None` if one is illegal. Records every state passed.
fn play(board: &Board, start: &Pos, pushes: &[(usize, Dir)], seen: &mut Vec<State>) -> Option<Pos> {
    let mut pos = start.clone();
    for &(i, d) in pushes {
        pos = pos.push(board, i, d)?;
        seen.push(pos.state());
    }
    Some(pos)
}

/// The canonical form: boxes sorted plus the normalized player.
fn canonical(board: &Board, s: &State) -> (Vec<Cell>, Cell) {
    (s.boxes.clone(), s.normalized_player(board))
}

/// Fingerprints agree exactly when canonical states do, over every pair of `states`.
fn assert_fingerprints_match_canonical_states(board: &Board, states: &[State]) {
    let mut by_fp: HashMap<Fingerprint, (Vec<Cell>, Cell)> = HashMap::new();
    let mut by_canon: HashMap<(Vec<Cell>, Cell), Fingerprint> = HashMap::new();
    for s in states {
        let fp = s.fingerprint(board);
        let canon = canonical(board, s);
        if let Some(other) = by_fp.insert(fp, canon.clone()) {
            assert_eq!(other, canon, "two different states share {fp:?}");
        }
        if let Some(other) = by_canon.insert(canon.clone(), fp) {
            assert_eq!(other, fp, "one state, two fingerprints: {canon:?}");
        }
    }
}

#[test]
fn normalized_player_is_the_top_left_cell_of_the_region() {
    let level = common::level(TWO_ROOMS);
    let board = level.board();
    let start = level.start();
    // Both rooms are one region; its smallest cell is the top-left floor square.
    assert_eq!(start.normalized_player(board), 0);
    assert_eq!(board.xy(0), (1, 1));
    // Shut the player in the right room: put a box in the gap.
    let gap = cell(board, 5, 3);
    let shut = State::new(vec![gap, cell(board, 8, 2)], cell(board, 9, 4));
    assert_eq!(shut.normalized_player(board), cell(board, 6, 1));
    // A player boxed into a single square normalizes to that square.
    let level = common::level("#####\n#.$ #\n#$@$#\n# $ #\n#...#\n#####\n");
    let board = level.board();
    assert_eq!(level.start().normalized_player(board), cell(board, 2, 2));
}

#[test]
fn fingerprint_ignores_where_in_its_region_the_player_stands() {
    let level = common::level(TWO_ROOMS);
    let board = level.board();
    // A box in the gap splits the rooms; the other sits in the top-left corner, so both
    // regions start after the first box.
    let boxes = vec![cell(board, 5, 3), cell(board, 1, 1)];
    let left = region(board, &State::new(boxes.clone(), cell(board, 1, 4)));
    let right = region(board, &State::new(boxes.clone(), cell(board, 9, 4)));
    assert!(left.len() > 10 && right.len() > 10);
    let fp = |p| State::new(boxes.clone(), p).fingerprint(board);
    for &p in &left {
        assert_eq!(fp(p), fp(left[0]), "{:?}", board.xy(p));
    }
    for &p in &right {
        assert_eq!(fp(p), fp(right[0]), "{:?}", board.xy(p));
    }
    assert_ne!(fp(left[0]), fp(right[0]));
}

#[test]
fn fingerprint_is_the_xor_of_box_keys_and_the_normalized_player_key() {
    let level = common::level(TWO_ROOMS);
    let board = level.board();
    let s = level.start();
    let z = board.zobrist();
    let want = z.player_key(0) ^ z.box_key(s.boxes[0]) ^ z.box_key(s.boxes[1]);
    assert_eq!(s.fingerprint(board), want);
    assert_eq!(z.fingerprint(&s.boxes, 0), want);
    // Box order does not matter.
    assert_eq!(z.fingerprint(&[s.boxes[1], s.boxes[0]], 0), want);
    // Keys are fixed: the same level built twice fingerprints the same.
    assert_eq!(common::level(TWO_ROOMS).start().fingerprint(board), want);
    assert_ne!(want, Fingerprint::default());
    assert_eq!(want.key(), want.0 as u64);
    assert_eq!(want.check(), (want.0 >> 64) as u32);
}

#[test]
fn independent_pushes_commute_to_the_same_fingerprint() {
    let level = common::level(TWO_ROOMS);
    let board = level.board();
    let start = Pos::start(&level);
    // Box 0 (left room) goes down, box 1 (right room) goes left, in either order.
    let a = [(0, Dir::Down), (0, Dir::Right)];
    let b = [(1, Dir::Left), (1, Dir::Down)];
    let mut seen = Vec::new();
    let ab: Vec<_> = a.iter().chain(&b).copied().collect();
    let ba: Vec<_> = b.iter().chain(&a).copied().collect();
    let one = play(board, &start, &ab, &mut seen).expect("legal");
    let two = play(board, &start, &ba, &mut seen).expect("legal");
    assert_ne!(one.player, two.player);
    assert_eq!(one.state().fingerprint(board), two.state().fingerprint(board));
    assert_ne!(one.state().fingerprint(board), level.start().fingerprint(board));
    assert_fingerprints_match_canonical_states(board, &seen);
}

proptest! {
    #![proptest_config(config(256))]

    /// Two boxes walk independently; their pushes are played box A first, box B first, and
    /// interleaved. Every legal order ends with the same boxes; fingerprints are equal exactly
    /// when the canonical states are, over every state passed on the way.
    #[test]
    fn pushes_in_commuting_orders_give_equal_fingerprints(
        choices_a in prop::collection::vec(any::<u8>(), 0..8),
        choices_b in prop::collection::vec(any::<u8>(), 0..8),
        mask in prop::collection::vec(any::<bool>(), 16),
    ) {
        let level = common::level(TWO_ROOMS);
        let board = level.board();
        let start = Pos::start(&level);
        let a: Vec<(usize, Dir)> = walk(board, &start, 0, &choices_a).into_iter().map(|d| (0, d)).collect();
        let b: Vec<(usize, Dir)> = walk(board, &start, 1, &choices_b).into_iter().map(|d| (1, d)).collect();
        let mut mixed = Vec::new();
        let (mut ia, mut ib) = (0, 0);
        for &take_a in mask.iter().cycle().take(a.len() + b.len()) {
            if (take_a && ia < a.len()) || ib == b.len() {
                mixed.push(a[ia]);
                ia += 1;
            } else {
                mixed.push(b[ib]);
                ib += 1;
            }
        }
        let orders = [
            a.iter().chain(&b).copied().collect::<Vec<_>>(),
            b.iter().chain(&a).copied().collect(),
            mixed,
        ];
        let mut seen = vec![level.start().clone()];
        let ends: Vec<Pos> = orders.iter().filter_map(|o| play(board, &start, o, &mut seen)).collect();
        prop_assume!(ends.len() >= 2);
        for end in &ends {
            // The same pushes of each box, in any legal order, leave the same boxes.
            prop_assert_eq!(end.state().boxes, ends[0].state().boxes);
        }
        assert_fingerprints_match_canonical_states(board, &seen);
    }

    /// Random positions, several players for each box set: fingerprints agree exactly when
    /// box sets and normalized players do, and the normalized player is the smallest cell of
    /// the region.
    #[test]
    fn fingerprints_differ_for_different_states(
        picks in prop::collection::vec(
            (prop::collection::btree_set(0u16..33, 2..9), prop::collection::vec(0u16..33, 1..6)),
            1..6,
        ),
    ) {
        let level = common::level(TWO_ROOMS);
        let board = level.board();
        prop_assert_eq!(board.n_cells(), 33);
        let mut states = Vec::new();
        for (boxes, players) in picks {
            let boxes: Vec<Cell> = boxes.into_iter().collect();
            for p in players.into_iter().filter(|p| !boxes.contains(p)) {
                states.push(State::new(boxes.clone(), p));
            }
        }
        for s in &states {
            let reachable = region(board, s);
            prop_assert_eq!(s.normalized_player(board), reachable[0]);
            for &p in &reachable {
                let moved = State::new(s.boxes.clone(), p);
                prop_assert_eq!(moved.fingerprint(board), s.fingerprint(board));
            }
        }
        assert_fingerprints_match_canonical_states(board, &states);
    }
}

#[test]
fn move_box_keeps_boxes_sorted_and_moves_the_player() {
    let mut s = State::new(vec![9, 3, 5], 0);
    assert_eq!(s.boxes, [3, 5, 9]);
    s.move_box(9, 1, 9);
    assert_eq!((s.boxes.as_slice(), s.player), (&[1, 3, 5][..], 9));
    // Moving a box that is not there only moves the player.
    s.move_box(7, 8, 2);
    assert_eq!((s.boxes.as_slice(), s.player), (&[1, 3, 5][..], 2));
}

#[test]
fn is_solved_checks_every_box() {
    let level = common::level("######\n#@$.*#\n######\n");
    let board = level.board();
    assert!(!level.start().is_solved(board));
    let solved = State::new(vec![cell(board, 3, 1), cell(board, 4, 1)], cell(board, 2, 1));
    assert!(solved.is_solved(board));
}

/// How often `Reach::child_min` answered, and how often it declined.
#[derive(Default)]
struct ChildMinCounts {
    answered: usize,
    declined: usize,
}

/// Checks `Reach::child_min` against a full search for every push and every pull from `state`;
/// returns the children reached by pushes.
fn check_child_min(board: &Board, state: &State, counts: &mut ChildMinCounts) -> Vec<State> {
    let n = board.n_cells();
    let mut map = BoxMap::new(n);
    map.set_all(&state.boxes);
    let mut reach = Reach::new(n);
    let parent_min = reach.fill(board, &map, state.player);
    assert_eq!(parent_min, region(board, state)[0]);
    let mut children = Vec::new();
    for &b in &state.boxes {
        for d in Dir::ALL {
            // A push: the player behind the box, the square ahead free.
            let behind = board.neighbour(b, d.opposite());
            let ahead = board.neighbour(b, d);
            if behind != NO_CELL && reach.contains(behind) && ahead != NO_CELL && !map.is_box(ahead) {
                let mut child = state.clone();
                child.move_box(b, ahead, b);
                map.move_box(b, ahead);
                let got = reach.child_min(board, &map, parent_min, b, ahead);
                map.move_box(ahead, b);
                check_answer(board, &child, got, counts, "push");
                children.push(child);
            }
            // A pull: the player on the box's `d` side steps further that way.
            let stand = board.neighbour(b, d);
            let beyond = if stand == NO_CELL { NO_CELL } else { board.neighbour(stand, d) };
            if stand != NO_CELL && reach.contains(stand) && beyond != NO_CELL && !map.is_box(beyond) {
                let mut child = state.clone();
                child.move_box(b, stand, beyond);
                map.move_box(b, stand);
                let got = reach.child_min(board, &map, parent_min, b, stand);
                map.move_box(stand, b);
                check_answer(board, &child, got, counts, "pull");
            }
        }
    }
    children
}

fn check_answer(board: &Board, child: &State, got: Option<Cell>, counts: &mut ChildMinCounts, what: &str) {
    match got {
        Some(min) => {
            counts.answered += 1;
            let want = region(board, child)[0];
            assert_eq!(min, want, "{what} to {child:?}");
        }
        None => counts.declined += 1,
    }
}

/// Breadth-first over pushes from the start, up to `limit` states, checking `child_min` at
/// every state.
fn explore(board: &Board, start: &State, limit: usize, counts: &mut ChildMinCounts) {
    let mut seen: HashSet<(Vec<Cell>, Cell)> = HashSet::new();
    let mut queue = VecDeque::from([start.clone()]);
    seen.insert((start.boxes.clone(), start.normalized_player(board)));
    while let Some(state) = queue.pop_front() {
        for child in check_child_min(board, &state, counts) {
            if seen.len() < limit && seen.insert((child.boxes.clone(), child.normalized_player(board))) {
                queue.push_back(child);
            }
        }
    }
}

#[test]
fn child_min_agrees_with_a_full_search_on_every_repo_level() {
    let mut counts = ChildMinCounts::default();
    for (_, level) in common::all_repo_valid_levels() {
        explore(level.board(), level.start(), 400, &mut counts);
    }
    // Both answers occur, so both paths are exercised.
    assert!(counts.answered > 1000, "answered {}", counts.answered);
    assert!(counts.declined > 100, "declined {}", counts.declined);
}

#[test]
fn child_min_agrees_with_a_full_search_on_microban() {
    let Some(dir) = common::shared_levels() else { return };
    let c = common::load(&dir.join("microban.xsb"));
    let mut counts = ChildMinCounts::default();
    for e in c.entries.iter().take(60) {
        let level = e.level.as_ref().expect("valid");
        explore(level.board(), level.start(), 200, &mut counts);
    }
    assert!(counts.answered > 1000, "answered {}", counts.answered);
}
