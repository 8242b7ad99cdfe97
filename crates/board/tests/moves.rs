//! Moves: reading LURD text, shortest walks, writing pushes as LURD, and replay, which accepts
//! the verified solutions of the demo levels and names the exact first bad move of corrupted
//! ones. Random move strings are replayed against a small reference implementation.

mod common;

use std::collections::HashSet;
use std::sync::OnceLock;

use proptest::prelude::*;
use proptest::test_runner::Config as ProptestConfig;

use bisolve_board::moves::{
    parse_lurd, pushes_to_steps, replay, steps_to_lurd, steps_to_pushes, walk_path, BadMove, Push,
    ReplayError, ReplayStats, Step, MAX_STEPS,
};
use bisolve_board::{BoxMap, Dir, Level};
use common::{cell, load, repo_file};

/// Solutions of `levels/demo.xsb`, push-optimal, found by an independent brute-force search
/// and checked with `bisolve verify`: (moves, pushes, LURD).
const DEMO_SOLUTIONS: [(usize, usize, &str); 10] = [
    (2, 2, "RR"),
    (6, 3, "dRurDD"),
    (14, 6, "urrDldRRRlluRR"),
    (46, 8, "uluuullDlldddrruUddlluRluurRdDuuurrdddLruuLulD"),
    (29, 11, "rruullDDDDuuuurDDDullluRurDDD"),
    (87, 12, "uruulLLrrrddlUruLddddllluuuluurrdLulDrddddrruuruuLLrrddddllluuuUruLrdrrdddlLruruulllddD"),
    (47, 8, "lDulllddrrRRluurruullllDurrrrddllUdddllluuRDldR"),
    (42, 8, "ururDlddlldlUluRdrruurrrdLrdLLruulllulldRR"),
    (34, 11, "rdddlluLrdrruLLULDrdLurrruulLLrrDD"),
    (72, 18, "uuruuRlddrrrruruulldRurDlddlllddlUluRRRRllluurDuRRurrdDDuuulldRurDldDrDL"),
];

/// The demo levels, loaded once for all tests of this file.
fn demo_levels() -> &'static [Level] {
    static LEVELS: OnceLock<Vec<Level>> = OnceLock::new();
    LEVELS.get_or_init(|| {
        load(&repo_file("demo.xsb"))
            .entries
            .into_iter()
            .map(|e| e.level.expect("demo levels are valid"))
            .collect()
    })
}

fn steps(text: &str) -> Vec<Step> {
    parse_lurd(text).unwrap_or_else(|e| panic!("{text:?}: {e}"))
}

fn replay_on(level: &Level, text: &str) -> Result<ReplayStats, ReplayError> {
    replay(level.board(), level.start(), &steps(text))
}

fn bad(number: usize, letter: char, why: BadMove) -> Result<ReplayStats, ReplayError> {
    Err(ReplayError::BadMove { number, letter, why })
}

// ---------------------------------------------------------------------------------------------
// Reading LURD

#[test]
fn parse_lurd_reads_letters_and_ignores_white_space() {
    let s = steps(" l u\nr\r\n\td  LURD ");
    assert_eq!(steps_to_lurd(&s), "lurdLURD");
    assert_eq!(s[0], Step { dir: Dir::Left, push: false });
    assert_eq!(s[4], Step { dir: Dir::Left, push: true });
    assert_eq!(steps(""), []);
    assert_eq!(steps(" \n\t"), []);
}

#[test]
fn parse_lurd_expands_run_length_counts() {
    assert_eq!(steps_to_lurd(&steps("3r2U")), "rrrUU");
    assert_eq!(steps_to_lurd(&steps("l10dR")), "lddddddddddR");
    assert_eq!(steps_to_lurd(&steps("1u")), "u");
    // A count may be separated from its letter by white space.
    assert_eq!(steps_to_lurd(&steps("2 r")), "rr");
}

#[test]
fn parse_lurd_reports_errors_with_character_positions() {
    let err = |text: &str| parse_lurd(text).expect_err(text);
    let e = err("rx");
    assert_eq!(e.position, 2);
    assert!(e.what.contains("'x'"), "{}", e.what);
    // Positions count characters, white space and multi-byte ones included.
    assert_eq!(err("r\n x").position, 4);
    assert_eq!(err("ü").position, 1);
    // A no-break space is white space (two bytes in UTF-8, one character).
    assert_eq!(err("r\u{a0}x").position, 3);
    // A count of zero is reported at its first digit.
    let e = err("ll0r");
    assert_eq!(e.position, 3);
    assert!(e.what.contains('0'), "{}", e.what);
    assert_eq!(err("ll00r").position, 3);
    // A count with nothing after it, at the end of the text.
    let e = err("r12");
    assert_eq!(e.position, 2);
    assert!(e.what.contains("no letter"), "{}", e.what);
    assert_eq!(err("5").position, 1);
    // A count above the limit, reported at its first digit without expanding anything.
    let e = err(&format!("uu{}r", MAX_STEPS + 1));
    assert_eq!(e.position, 3);
    assert!(e.what.contains("too large"), "{}", e.what);
    assert_eq!(err("u99999999999999999999999r").position, 2);
    // The message names the position.
    assert_eq!(err("rx").to_string(), "'x' is not a LURD letter at character 2");
}

#[test]
fn steps_to_lurd_round_trips_through_parse_lurd() {
    for (_, _, text) in DEMO_SOLUTIONS {
        assert_eq!(steps_to_lurd(&steps(text)), text);
    }
}

// ---------------------------------------------------------------------------------------------
// Walks

#[test]
fn walk_path_finds_shortest_walks_around_boxes() {
    let level = common::level(
        "\
#######
#     #
# $$  #
#@   .#
#    .#
#######
",
    );
    let board = level.board();
    let mut boxes = BoxMap::new(board.n_cells());
    boxes.set_all(&level.start().boxes);
    let len = |from: (usize, usize), to: (usize, usize)| {
        walk_path(board, &boxes, cell(board, from.0, from.1), cell(board, to.0, to.1)).map(|p| p.len())
    };
    assert_eq!(len((1, 3), (1, 3)), Some(0));
    assert_eq!(len((1, 3), (5, 4)), Some(5));
    // Straight up through the boxes' row is blocked at (2,2): round by (1,2), (1,1).
    assert_eq!(len((2, 3), (2, 1)), Some(4));
    assert_eq!(len((1, 1), (5, 1)), Some(4));
    // The walk is a real path: replaying it as walks ends on the target.
    let from = cell(board, 2, 3);
    let to = cell(board, 3, 1);
    let path = walk_path(board, &boxes, from, to).expect("path");
    assert_eq!(path.len(), 5);
    let mut at = from;
    for d in path {
        at = board.neighbour(at, d);
        assert!(!boxes.is_box(at));
    }
    assert_eq!(at, to);
}

#[test]
fn walk_path_is_none_when_boxes_shut_the_player_in() {
    let level = common::level("#######\n#@$ . #\n#######\n");
    let board = level.board();
    let mut boxes = BoxMap::new(board.n_cells());
    boxes.set_all(&level.start().boxes);
    assert_eq!(walk_path(board, &boxes, cell(board, 1, 1), cell(board, 3, 1)), None);
    // Onto the box itself: never.
    assert_eq!(walk_path(board, &boxes, cell(board, 1, 1), cell(board, 2, 1)), None);
}

// ---------------------------------------------------------------------------------------------
// Pushes to steps and back

#[test]
fn pushes_to_steps_and_replay_round_trip_on_every_demo_level() {
    for (level, (moves, pushes, text)) in demo_levels().iter().zip(DEMO_SOLUTIONS) {
        let (board, start) = (level.board(), level.start());
        let original = steps(text);
        let push_list = steps_to_pushes(board, start, &original);
        assert_eq!(push_list.len(), pushes, "{}", level.name());
        let rebuilt =
            pushes_to_steps(board, start, &push_list).unwrap_or_else(|e| panic!("{}: {e}", level.name()));
        // Shortest walks between the same pushes: never longer than the original.
        assert!(rebuilt.len() <= moves, "{}", level.name());
        let stats = replay(board, start, &rebuilt).unwrap_or_else(|e| panic!("{}: {e}", level.name()));
        assert_eq!((stats.moves, stats.pushes), (rebuilt.len(), pushes));
        assert_eq!(steps_to_pushes(board, start, &rebuilt), push_list, "{}", level.name());
    }
}

#[test]
fn pushes_to_steps_names_the_push_that_cannot_be_played() {
    let level = common::level("########\n#@     #\n#  $$ .#\n#     .#\n########\n");
    let board = level.board();
    let start = level.start();
    let push = |x, y, dir| Push { from: cell(board, x, y), dir };
    // Legal pushes get the shortest walks filled in.
    let ok = pushes_to_steps(board, start, &[push(3, 2, Dir::Up), push(4, 2, Dir::Right)]).expect("legal");
    assert_eq!(steps_to_lurd(&ok), "rddrUR");
    let err = |pushes: &[Push]| pushes_to_steps(board, start, pushes).expect_err("illegal");
    let e = err(&[push(3, 2, Dir::Up), push(3, 2, Dir::Up)]);
    assert_eq!((e.index, e.x, e.y, e.why), (2, 3, 2, "no box there"));
    let e = err(&[push(3, 2, Dir::Right)]);
    assert_eq!((e.index, e.dir, e.why), (1, Dir::Right, "the square ahead is blocked"));
    assert_eq!(
        e.to_string(),
        "push 1 (right from column 3, row 2) cannot be played: the square ahead is blocked"
    );
    // Down to the bottom row, then up again: the player would have to stand in the wall.
    let e = err(&[push(4, 2, Dir::Down), push(4, 3, Dir::Up)]);
    assert_eq!((e.index, e.x, e.y, e.why), (2, 4, 3, "no floor behind the box for the player"));
}

#[test]
fn pushes_to_steps_reports_a_player_shut_out() {
    // The box shuts the player in the west end; it cannot get east of it to push it west.
    let level = common::level("#######\n#@$ . #\n#######\n");
    let board = level.board();
    let push = Push { from: cell(board, 2, 1), dir: Dir::Left };
    let e = pushes_to_steps(board, level.start(), &[push]).expect_err("shut out");
    assert_eq!((e.index, e.why), (1, "the player cannot walk behind the box"));
}

// ---------------------------------------------------------------------------------------------
// Replay

#[test]
fn replay_accepts_the_verified_demo_solutions() {
    let levels = demo_levels();
    assert_eq!(levels.len(), DEMO_SOLUTIONS.len());
    for (level, (moves, pushes, text)) in levels.iter().zip(DEMO_SOLUTIONS) {
        let stats = replay_on(level, text).unwrap_or_else(|e| panic!("{}: {e}", level.name()));
        assert_eq!((stats.moves, stats.pushes), (moves, pushes), "{}", level.name());
        // Written with run-length counts and line breaks, it replays the same.
        let packed = pack(text);
        assert_eq!(replay_on(level, &packed), Ok(stats), "{packed}");
    }
}

/// Writes LURD with run-length counts and a line break every ten runs.
fn pack(text: &str) -> String {
    let mut out = String::new();
    let mut runs = 0;
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let mut j = i;
        while j < chars.len() && chars[j] == chars[i] {
            j += 1;
        }
        if j - i > 1 {
            out.push_str(&(j - i).to_string());
        }
        out.push(chars[i]);
        runs += 1;
        if runs % 10 == 0 {
            out.push('\n');
        }
        i = j;
    }
    out
}

#[test]
fn replay_names_the_first_bad_move_of_corrupted_solutions() {
    let levels = demo_levels();
    let level = |i: usize| &levels[i - 1];
    // Warm-up: walk into the west wall; push the box into the east wall; a push in lower case;
    // a walk in upper case.
    assert_eq!(replay_on(level(1), "ll"), bad(2, 'l', BadMove::Wall));
    assert_eq!(replay_on(level(1), "RRR"), bad(3, 'R', BadMove::Blocked));
    assert_eq!(replay_on(level(1), "r"), bad(1, 'r', BadMove::PushWrittenAsWalk));
    assert_eq!(replay_on(level(1), "U"), bad(1, 'U', BadMove::WalkWrittenAsPush));
    // Round the bend: one push too many, into the wall below the goal.
    assert_eq!(replay_on(level(2), "dRurDDD"), bad(7, 'D', BadMove::Blocked));
    // Side by side: a box pushed into the box next to it.
    assert_eq!(replay_on(level(3), "rR"), bad(2, 'R', BadMove::Blocked));
    // Written in lower case, the same move is first of all a push written as a walk.
    assert_eq!(replay_on(level(3), "rr"), bad(2, 'r', BadMove::PushWrittenAsWalk));
    // Corner shop: the first push written in lower case, or the first walk in upper case.
    let s4 = DEMO_SOLUTIONS[3].2;
    assert_eq!(
        replay_on(level(4), &format!("{}d{}", &s4[..7], &s4[8..])),
        bad(8, 'd', BadMove::PushWrittenAsWalk)
    );
    assert_eq!(replay_on(level(4), &format!("U{}", &s4[1..])), bad(1, 'U', BadMove::WalkWrittenAsPush));
    // Cellar: an extra step north walks into the wall.
    let s5 = DEMO_SOLUTIONS[4].2;
    assert_eq!(replay_on(level(5), &format!("rruuu{}", &s5[4..])), bad(5, 'u', BadMove::Wall));
    // Double back: an extra step north half-way through; three moves on, a walk runs into a box.
    let s6 = DEMO_SOLUTIONS[5].2;
    assert_eq!(
        replay_on(level(6), &format!("{}u{}", &s6[..40], &s6[40..])),
        bad(44, 'r', BadMove::PushWrittenAsWalk)
    );
    // Crossroads: a third push east where two were right.
    let s7 = DEMO_SOLUTIONS[6].2;
    assert_eq!(
        replay_on(level(7), &format!("{}RRR{}", &s7[..10], &s7[12..])),
        bad(13, 'R', BadMove::Blocked)
    );
    // Storeroom: one push west too many, late in the solution.
    assert_eq!(replay_on(level(9), "rdddlluLrdrruLLULDrdLurrruulLLLrDD"), bad(31, 'L', BadMove::Blocked));
}

#[test]
fn replay_reports_unsolved_when_every_move_is_legal_but_boxes_remain() {
    let levels = demo_levels();
    let unsolved = |moves, pushes, off_goal| Err(ReplayError::Unsolved { moves, pushes, off_goal });
    assert_eq!(replay_on(&levels[0], ""), unsolved(0, 0, 1));
    assert_eq!(replay_on(&levels[0], "R"), unsolved(1, 1, 1));
    assert_eq!(replay_on(&levels[0], "RRL"), bad(3, 'L', BadMove::WalkWrittenAsPush));
    // Prefixes of real solutions.
    assert_eq!(replay_on(&levels[3], &DEMO_SOLUTIONS[3].2[..20]), unsolved(20, 2, 3));
    assert_eq!(replay_on(&levels[4], &DEMO_SOLUTIONS[4].2[..10]), unsolved(10, 4, 2));
    assert_eq!(replay_on(&levels[5], &DEMO_SOLUTIONS[5].2[..60]), unsolved(60, 8, 2));
    assert_eq!(replay_on(&levels[9], &DEMO_SOLUTIONS[9].2[..30]), unsolved(30, 3, 3));
    // A solution followed by one more push: legal, but it pushes a box off its goal.
    assert_eq!(replay_on(&levels[6], &format!("{}R", DEMO_SOLUTIONS[6].2)), unsolved(48, 9, 1));
    let e = replay_on(&levels[0], "R").expect_err("unsolved");
    assert_eq!(e.to_string(), "not solved after 1 moves and 1 pushes: 1 boxes are not on goals");
}

#[test]
fn replay_allows_walking_on_after_the_last_push() {
    let levels = demo_levels();
    let one_line = ReplayStats { moves: 5, pushes: 2, box_lines: 1, box_changes: 1 };
    assert_eq!(replay_on(&levels[0], "RRuld"), Ok(one_line));
}

// ---------------------------------------------------------------------------------------------
// Random move strings against a reference replay

/// The outcome of a replay, as plain values.
#[derive(Debug, PartialEq, Eq)]
enum Outcome {
    Solved(usize, usize),
    Bad(usize, char, BadMove),
    Unsolved(usize, usize, usize),
}

fn outcome(r: Result<ReplayStats, ReplayError>) -> Outcome {
    match r {
        Ok(s) => Outcome::Solved(s.moves, s.pushes),
        Err(ReplayError::BadMove { number, letter, why }) => Outcome::Bad(number, letter, why),
        Err(ReplayError::Unsolved { moves, pushes, off_goal }) => Outcome::Unsolved(moves, pushes, off_goal),
    }
}

/// A replay on the level's text, square by square, written independently of the crate.
struct Reference {
    walls: HashSet<(i64, i64)>,
    goals: HashSet<(i64, i64)>,
    boxes: HashSet<(i64, i64)>,
    player: (i64, i64),
}

impl Reference {
    fn new(level: &Level) -> Reference {
        let mut r =
            Reference { walls: HashSet::new(), goals: HashSet::new(), boxes: HashSet::new(), player: (0, 0) };
        for (y, row) in level.rows().iter().enumerate() {
            for (x, ch) in row.chars().enumerate() {
                let p = (x as i64, y as i64);
                match ch {
                    '#' => {
                        r.walls.insert(p);
                    }
                    '$' => {
                        r.boxes.insert(p);
                    }
                    '*' => {
                        r.boxes.insert(p);
                        r.goals.insert(p);
                    }
                    '.' => {
                        r.goals.insert(p);
                    }
                    '@' => r.player = p,
                    '+' => {
                        r.player = p;
                        r.goals.insert(p);
                    }
                    _ => {}
                }
            }
        }
        r
    }

    fn clone_state(&self) -> Reference {
        Reference {
            walls: self.walls.clone(),
            goals: self.goals.clone(),
            boxes: self.boxes.clone(),
            player: self.player,
        }
    }

    fn delta(c: char) -> (i64, i64) {
        match c.to_ascii_lowercase() {
            'u' => (0, -1),
            'd' => (0, 1),
            'l' => (-1, 0),
            _ => (1, 0),
        }
    }

    /// Plays one letter; `Err` with the reason when it is illegal.
    fn step(&mut self, c: char) -> Result<bool, BadMove> {
        let (dx, dy) = Reference::delta(c);
        let next = (self.player.0 + dx, self.player.1 + dy);
        if self.walls.contains(&next) {
            return Err(BadMove::Wall);
        }
        let mut pushed = false;
        if self.boxes.contains(&next) {
            if c.is_ascii_lowercase() {
                return Err(BadMove::PushWrittenAsWalk);
            }
            let to = (next.0 + dx, next.1 + dy);
            if self.walls.contains(&to) || self.boxes.contains(&to) {
                return Err(BadMove::Blocked);
            }
            self.boxes.remove(&next);
            self.boxes.insert(to);
            pushed = true;
        } else if c.is_ascii_uppercase() {
            return Err(BadMove::WalkWrittenAsPush);
        }
        self.player = next;
        Ok(pushed)
    }

    /// The letter for a direction index, in the case this state needs (push or walk).
    fn letter(&self, dir: u8) -> char {
        let c = ['u', 'r', 'd', 'l'][usize::from(dir % 4)];
        let (dx, dy) = Reference::delta(c);
        if self.boxes.contains(&(self.player.0 + dx, self.player.1 + dy)) {
            c.to_ascii_uppercase()
        } else {
            c
        }
    }

    fn replay(mut self, text: &str) -> Outcome {
        let mut pushes = 0;
        for (i, c) in text.chars().enumerate() {
            match self.step(c) {
                Ok(pushed) => pushes += usize::from(pushed),
                Err(why) => return Outcome::Bad(i + 1, c, why),
            }
        }
        let off_goal = self.boxes.iter().filter(|b| !self.goals.contains(b)).count();
        let moves = text.chars().count();
        if off_goal == 0 {
            Outcome::Solved(moves, pushes)
        } else {
            Outcome::Unsolved(moves, pushes, off_goal)
        }
    }
}

/// Box lines and box changes of a move string, counted on the reference: a push goes on
/// with the box pushed last exactly when it pushes the square that box was pushed onto.
fn reference_lines_and_changes(level: &Level, text: &str) -> (usize, usize) {
    let mut r = Reference::new(level);
    let (mut lines, mut changes) = (0, 0);
    let mut last: Option<((i64, i64), char)> = None;
    for c in text.chars() {
        let (dx, dy) = Reference::delta(c);
        let ahead = (r.player.0 + dx, r.player.1 + dy);
        if r.step(c).expect("a legal move") {
            let dir = c.to_ascii_lowercase();
            let same_box = last.is_some_and(|(at, _)| at == ahead);
            changes += usize::from(!same_box);
            lines += usize::from(!same_box || last.is_some_and(|(_, d)| d != dir));
            last = Some(((ahead.0 + dx, ahead.1 + dy), dir));
        }
    }
    (lines, changes)
}

#[test]
fn box_lines_and_box_changes_count_like_the_reference() {
    for (level, (_, pushes, text)) in demo_levels().iter().zip(DEMO_SOLUTIONS) {
        let stats = replay_on(level, text).unwrap_or_else(|e| panic!("{}: {e}", level.name()));
        let want = reference_lines_and_changes(level, text);
        assert_eq!((stats.box_lines, stats.box_changes), want, "{}", level.name());
        assert!(stats.box_changes <= stats.box_lines && stats.box_lines <= pushes, "{}", level.name());
    }
    // One box pushed right twice, then down: two lines, one box.
    let turn = common::level("#######\n#     #\n#@$   #\n#   . #\n#######\n");
    let want = ReplayStats { moves: 5, pushes: 3, box_lines: 2, box_changes: 1 };
    assert_eq!(replay_on(&turn, "RRurD"), Ok(want));
    // A walk between two pushes of one box the same way keeps the line; the second box is a
    // change and a line.
    let two = common::level("#######\n#     #\n#@$ . #\n#  $. #\n#     #\n#######\n");
    let want = ReplayStats { moves: 7, pushes: 3, box_lines: 2, box_changes: 2 };
    assert_eq!(replay_on(&two, "RduRldR"), Ok(want));
    assert_eq!(reference_lines_and_changes(&two, "RduRldR"), (2, 2));
}

fn config(cases: u32) -> ProptestConfig {
    common::proptest_config(cases, 0x5EED_0002)
}

#[test]
fn reference_replay_agrees_on_the_demo_solutions() {
    for (level, (moves, pushes, text)) in demo_levels().iter().zip(DEMO_SOLUTIONS) {
        assert_eq!(Reference::new(level).replay(text), Outcome::Solved(moves, pushes));
    }
}

proptest! {
    #![proptest_config(config(256))]

    /// Arbitrary text never makes `parse_lurd` or `replay` panic, and when it parses, the replay
    /// gives exactly what the reference gives.
    #[test]
    fn random_text_never_panics_and_replays_like_the_reference(
        level_index in 0usize..10,
        text in "([lurdLURD \n\t?x]|[0-9]{1,2}[lurdLURD]){0,30}",
    ) {
        let level = &demo_levels()[level_index];
        if let Ok(parsed) = parse_lurd(&text) {
            let got = outcome(replay(level.board(), level.start(), &parsed));
            let want = Reference::new(level).replay(&steps_to_lurd(&parsed));
            prop_assert_eq!(got, want);
        }
    }

    /// Any text at all: no panic.
    #[test]
    fn arbitrary_text_never_panics(level_index in 0usize..10, text in "\\PC{0,40}") {
        let level = &demo_levels()[level_index];
        if let Ok(parsed) = parse_lurd(&text) {
            let _ = replay(level.board(), level.start(), &parsed);
        }
    }

    /// Mostly legal move strings (each letter in the case the position needs, a few flipped)
    /// go deep into the levels; the replay still agrees with the reference move for move.
    #[test]
    fn near_legal_move_strings_replay_like_the_reference(
        level_index in 0usize..10,
        moves in prop::collection::vec((0u8..4, 0u8..40), 0..120),
    ) {
        let level = &demo_levels()[level_index];
        let mut sim = Reference::new(level);
        let mut text = String::new();
        for (dir, luck) in moves {
            // Mostly one of the legal moves; now and then any direction, or the wrong case.
            let legal: Vec<u8> = (0..4).filter(|&d| sim.clone_state().step(sim.letter(d)).is_ok()).collect();
            let mut c = match (luck, legal.len()) {
                (1, _) | (_, 0) => sim.letter(dir),
                _ => sim.letter(legal[usize::from(dir) % legal.len()]),
            };
            if luck == 0 {
                c = if c.is_ascii_uppercase() { c.to_ascii_lowercase() } else { c.to_ascii_uppercase() };
            }
            text.push(c);
            if sim.step(c).is_err() {
                break;
            }
        }
        let got = outcome(replay(level.board(), level.start(), &steps(&text)));
        let want = Reference::new(level).replay(&text);
        prop_assert_eq!(got, want);
    }
}
