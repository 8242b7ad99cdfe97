//! The project's own level files (`levels/`) load as designed: demo titles and box counts,
//! each edge case valid with the features it was made for, each invalid file rejected with the
//! right error at the right place, and a README that lists them all.

mod common;

use bisolve_board::moves;
use bisolve_board::{
    load_collection, Board, Cell, Dir, Level, LevelErrorKind, ParseError, TUNNEL_HORIZONTAL, TUNNEL_VERTICAL,
    UNREACHABLE,
};
use common::{cell, load, read, replay_text, repo_file, repo_level};

/// Titles and box counts of `levels/demo.xsb`, in file order.
const DEMO: [(&str, usize); 10] = [
    ("Warm-up", 1),
    ("Round the bend", 1),
    ("Side by side", 2),
    ("Corner shop", 3),
    ("Cellar", 3),
    ("Double back", 3),
    ("Crossroads", 4),
    ("Pinwheel", 4),
    ("Storeroom", 5),
    ("Warehouse", 4),
];

/// One file of `levels/edge/`: its title, its box count after loading, and a solution checked
/// with `bisolve verify` and an independent brute-force search (`None` for the unsolvable ones).
struct Edge {
    file: &'static str,
    title: &'static str,
    n_boxes: usize,
    solution: Option<&'static str>,
}

const EDGE: [Edge; 20] = [
    Edge { file: "already-solved.xsb", title: "Already solved", n_boxes: 3, solution: Some("") },
    Edge { file: "boxed-in.xsb", title: "Boxed in", n_boxes: 8, solution: None },
    Edge {
        file: "closed-diagonal.xsb",
        title: "Closed diagonal",
        n_boxes: 2,
        solution: Some("luurDldRRRulluuRurDDD"),
    },
    Edge { file: "dead-at-start.xsb", title: "Dead at start", n_boxes: 2, solution: None },
    Edge {
        file: "entrance-box-room.xsb",
        title: "Box on the entrance",
        n_boxes: 2,
        solution: Some("DDuuulldRurDD"),
    },
    Edge {
        file: "goal-room.xsb",
        title: "Goal room",
        n_boxes: 4,
        solution: Some(
            "lluRurrrrddLruulllDDDDrddlUluRuuuurrrddlLrruullldDDDldRuuuuurrDrdLLruulldDDDuuuurDrdLulDD",
        ),
    },
    Edge {
        file: "player-on-goal.xsb",
        title: "Player on goal",
        n_boxes: 2,
        solution: Some("rrDullddrRRllUruL"),
    },
    Edge {
        file: "ragged-rows.xsb",
        title: "Ragged rows",
        n_boxes: 2,
        solution: Some("lldRRurruulDrdddlluuRurrddlU"),
    },
    Edge {
        file: "goal-area.xsb",
        title: "Goal area",
        n_boxes: 6,
        solution: Some(
            "LLLLLdLLulDDurDurrurrdLulLrrrrrdLulllldlluRRRRRRlldLLullddrUluRdrrurrrdLLLLLrrrrrrruL",
        ),
    },
    Edge {
        file: "parking-room.xsb",
        title: "Parking room",
        n_boxes: 3,
        solution: Some("rrruRRdrUdllllUUUUruLdddlldRdrUUUUlluurDR"),
    },
    Edge {
        file: "sealed-goal.xsb",
        title: "Sealed goal",
        n_boxes: 4,
        solution: Some("RlddrUdlddrURlluurDuluurDDuurrdLullddrUdldddrruLdlUUdrUdrdrruLLLdlU"),
    },
    Edge {
        file: "shut-in.xsb",
        title: "Shut in",
        n_boxes: 8,
        solution: Some("RRRlllUUUrUUddlddrdrrurrdRullldlluluurDuuulDrddlddrrrurrdL"),
    },
    Edge { file: "start-freeze.xsb", title: "Corner box", n_boxes: 2, solution: Some("luRR") },
    Edge { file: "tunnel.xsb", title: "Tunnel", n_boxes: 1, solution: Some("RuurrrrddllLLLLLLL") },
    Edge {
        file: "two-entrance-room.xsb",
        title: "Two-entrance room",
        n_boxes: 3,
        solution: Some("RRRRllldddrrrrrrrruuruLLLullldllluluurDDldRRR"),
    },
    Edge { file: "unsolvable-2x2.xsb", title: "Two by two", n_boxes: 4, solution: None },
    Edge { file: "unsolvable-exhaustive.xsb", title: "Exhaustive", n_boxes: 3, solution: None },
    Edge { file: "unsolvable-no-match.xsb", title: "No match", n_boxes: 2, solution: None },
    Edge {
        file: "walled-off-box.xsb",
        title: "Walled-off box",
        // The sealed box and goal are left out of the board; the player's area has one of each.
        n_boxes: 1,
        solution: None,
    },
    Edge {
        file: "walled-off-decoration.xsb",
        title: "Walled-off decoration",
        n_boxes: 1,
        solution: Some("rRRR"),
    },
];

/// What loading a file of `levels/invalid/` must give.
enum Expect {
    /// The whole file is rejected.
    File(ParseError),
    /// One level, rejected with this kind at this line and (when tied to one) column.
    Level(LevelErrorKind, usize, Option<usize>),
}

fn invalid_table() -> Vec<(&'static str, Expect)> {
    use Expect::{File, Level};
    vec![
        (
            "bad-rle.xsb",
            Level(
                LevelErrorKind::BadRunLength(String::new()), // message not compared
                6,
                Some(3),
            ),
        ),
        ("empty.xsb", File(ParseError::Empty)),
        ("more-boxes-than-goals.xsb", Level(LevelErrorKind::BoxGoalMismatch { boxes: 3, goals: 2 }, 5, None)),
        ("no-boxes.xsb", Level(LevelErrorKind::NoBoxes, 5, None)),
        ("no-player.xsb", Level(LevelErrorKind::NoPlayer, 5, None)),
        ("non-utf8-row.xsb", Level(LevelErrorKind::UnknownChar('\u{ff}'), 7, Some(4))),
        ("open-edge.xsb", Level(LevelErrorKind::OpenToEdge, 5, Some(4))),
        ("rle-huge-count.xsb", Level(LevelErrorKind::BadRunLength(String::new()), 6, Some(2))),
        ("text-only.xsb", File(ParseError::NoLevel)),
        (
            "too-large.xsb",
            Level(
                LevelErrorKind::TooLarge {
                    what: "floor squares in the player's area",
                    actual: 128 * 128,
                    limit: bisolve_board::MAX_CELLS,
                },
                6,
                None,
            ),
        ),
        (
            "too-many-boxes.xsb",
            Level(LevelErrorKind::TooLarge { what: "boxes", actual: 1025, limit: 1024 }, 6, None),
        ),
        ("two-players.xsb", Level(LevelErrorKind::SeveralPlayers { count: 2 }, 7, Some(4))),
        ("unknown-char.xsb", Level(LevelErrorKind::UnknownChar('X'), 7, Some(5))),
        ("utf16.xsb", File(ParseError::Utf16)),
        ("utf16-be.xsb", File(ParseError::Utf16)),
    ]
}

fn file_names(dir: &str) -> Vec<String> {
    common::files_in(&repo_file(dir), &["xsb", "sok", "txt"])
        .iter()
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect()
}

fn edge(name: &str) -> Level {
    repo_level(&format!("edge/{name}"))
}

#[test]
fn demo_has_ten_valid_levels_with_titles_and_box_counts() {
    let c = load(&repo_file("demo.xsb"));
    assert_eq!(c.entries.len(), DEMO.len());
    for (i, (entry, &(title, n_boxes))) in c.entries.iter().zip(DEMO.iter()).enumerate() {
        assert_eq!(entry.index, i + 1);
        assert_eq!(entry.title.as_deref(), Some(title));
        let level = entry.level.as_ref().unwrap_or_else(|e| panic!("demo {title}: {e}"));
        assert_eq!(level.title(), Some(title));
        assert_eq!(level.board().n_boxes(), n_boxes, "{title}");
        assert_eq!(level.walled_off(), None, "{title}");
        assert!(!level.start().is_solved(level.board()), "{title}");
    }
    assert_eq!(c.header.first().map(String::as_str), Some("bisolve demo levels"));
}

#[test]
fn demo_levels_are_found_by_title_and_index() {
    let c = load(&repo_file("demo.xsb"));
    assert_eq!(c.find("Pinwheel").map(|e| e.index), Some(8));
    assert_eq!(c.find("pinwheel").map(|e| e.index), Some(8));
    assert_eq!(c.find("3").and_then(|e| e.title.as_deref()), Some("Side by side"));
    assert!(c.find("11").is_none());
}

/// Parsed but not yet validated levels are found the same way, and build the same levels.
#[test]
fn raw_levels_are_found_like_loaded_ones() {
    let bytes = read(&repo_file("demo.xsb"));
    let c = load(&repo_file("demo.xsb"));
    let raw = bisolve_board::parse::parse_collection(&bytes).expect("demo parses");
    for key in ["Pinwheel", "pinwheel", "3", " 10 ", "11", "0", "Nothing", ""] {
        let built = raw.find(key).map(|r| bisolve_board::LevelEntry::from_raw(r.clone()));
        assert_eq!(built.as_ref().map(|e| e.index), c.find(key).map(|e| e.index), "{key:?}");
        assert_eq!(built.as_ref().map(|e| e.title.clone()), c.find(key).map(|e| e.title.clone()), "{key:?}");
        if let Some(entry) = built {
            assert!(entry.level.is_ok(), "{key:?}");
        }
    }
}

#[test]
fn edge_table_covers_every_file_in_levels_edge() {
    let mut expected: Vec<&str> = EDGE.iter().map(|e| e.file).collect();
    expected.sort_unstable();
    assert_eq!(file_names("edge"), expected);
}

#[test]
fn every_edge_file_is_one_valid_level_with_its_title_and_box_count() {
    for e in &EDGE {
        let c = load(&repo_file(&format!("edge/{}", e.file)));
        assert_eq!(c.entries.len(), 1, "{}", e.file);
        let level = c.entries[0].level.as_ref().unwrap_or_else(|err| panic!("{}: {err}", e.file));
        assert_eq!(level.title(), Some(e.title), "{}", e.file);
        assert_eq!(level.board().n_boxes(), e.n_boxes, "{}", e.file);
        assert_eq!(level.start().boxes.len(), e.n_boxes, "{}", e.file);
        assert!(!c.header.is_empty(), "{}: the comment saying what it tests", e.file);
        assert!(
            c.header.iter().any(|l| l.starts_with("Expected:")),
            "{}: no `Expected:` line in {:?}",
            e.file,
            c.header
        );
    }
}

#[test]
fn solvable_edge_levels_replay_their_verified_solutions() {
    for e in &EDGE {
        let Some(solution) = e.solution else { continue };
        let level = edge(e.file);
        let stats = replay_text(&level, solution).unwrap_or_else(|err| panic!("{}: {err}", e.file));
        assert_eq!(stats.moves, solution.len(), "{}", e.file);
    }
}

#[test]
fn walled_off_is_some_exactly_for_walled_off_box() {
    let mut seen = 0;
    for (name, level) in common::all_repo_valid_levels() {
        let expected = name.ends_with("walled-off-box.xsb #1");
        assert_eq!(level.walled_off().is_some(), expected, "{name}");
        seen += usize::from(expected);
    }
    assert_eq!(seen, 1);
}

#[test]
fn walled_off_box_names_the_sealed_box_position() {
    let level = edge("walled-off-box.xsb");
    let why = level.walled_off().expect("walled off");
    assert!(why.contains("a box"), "{why}");
    assert!(why.contains("column 3"), "{why}");
    assert!(why.contains("line 9"), "{why}");
    // The player's own area is a plain one-box corridor.
    assert_eq!(level.board().n_cells(), 6);
}

#[test]
fn replay_on_the_board_ignores_walled_off_boxes_so_callers_check_walled_off() {
    // The board holds only the player's area, where one push-through solves the level; the
    // sealed box is not on the board. A replay alone therefore accepts this solution: whoever
    // reports a level solved must check `walled_off` first (the engine does, before search).
    let level = edge("walled-off-box.xsb");
    assert!(replay_text(&level, "rRRR").is_ok());
    assert!(level.walled_off().is_some());
}

#[test]
fn walled_off_box_and_goal_alone_give_an_empty_valid_board() {
    // The player's area holds no box and no goal; the only pair is sealed away. Valid (counts
    // match), unsolvable, and building the board must not panic on zero targets.
    let level = common::level("#####\n#@  #\n#####\n#$.#\n####\n");
    assert!(level.walled_off().is_some());
    let board = level.board();
    assert_eq!((board.n_boxes(), board.n_cells()), (0, 3));
    assert_eq!(board.goal_distances().n_targets(), 0);
    assert_eq!(board.start_distances().n_targets(), 0);
    for c in 0..board.n_cells() as Cell {
        assert!(board.is_push_dead(c) && board.is_pull_dead(c));
        assert_eq!(board.goal_distances().nearest(c), UNREACHABLE);
        assert!(board.goal_distances().row(c).is_empty());
    }
    // With no box on the board, the start counts as solved: only `walled_off` tells the truth.
    assert!(level.start().is_solved(board));
}

#[test]
fn walled_off_decoration_is_dropped() {
    let level = edge("walled-off-decoration.xsb");
    let board = level.board();
    assert_eq!(board.n_boxes(), 1);
    assert_eq!(board.n_cells(), 6);
    // The pocket's squares are not cells of the board, though the text keeps them.
    assert_eq!(board.cell(2, 1), None);
    assert_eq!(level.rows()[1], " #* *#");
    assert_eq!(level.walled_off(), None);
}

#[test]
fn already_solved_starts_solved_and_replays_the_empty_solution() {
    let level = edge("already-solved.xsb");
    assert!(level.start().is_solved(level.board()));
    let stats = moves::replay(level.board(), level.start(), &[]).expect("empty solution");
    assert_eq!((stats.moves, stats.pushes), (0, 0));
}

#[test]
fn player_on_goal_starts_on_a_goal_that_no_box_covers() {
    let level = edge("player-on-goal.xsb");
    let board = level.board();
    let player = level.start().player;
    assert_eq!(board.xy(player), (1, 1));
    assert!(board.is_goal(player));
    assert!(!level.start().boxes.contains(&player));
}

#[test]
fn dead_at_start_has_a_box_on_a_push_dead_square() {
    let level = edge("dead-at-start.xsb");
    let board = level.board();
    let dead: Vec<(usize, usize)> =
        level.start().boxes.iter().filter(|&&b| board.is_push_dead(b)).map(|&b| board.xy(b)).collect();
    assert_eq!(dead, [(1, 1)]);
}

#[test]
fn unsolvable_2x2_has_four_boxes_in_a_block_off_goals() {
    let level = edge("unsolvable-2x2.xsb");
    let board = level.board();
    let xy: Vec<(usize, usize)> = level.start().boxes.iter().map(|&b| board.xy(b)).collect();
    assert_eq!(xy, [(2, 2), (3, 2), (2, 3), (3, 3)]);
    for &b in &level.start().boxes {
        assert!(!board.is_goal(b));
        // Each square is fine on its own: only the block is a deadlock.
        assert!(!board.is_push_dead(b));
    }
}

/// True when boxes can be matched one to one with goals each can reach (brute force over
/// permutations; the levels here have at most five boxes).
fn perfect_matching_exists(board: &Board, boxes: &[Cell]) -> bool {
    fn go(board: &Board, boxes: &[Cell], used: &mut Vec<bool>) -> bool {
        let Some((&b, rest)) = boxes.split_first() else {
            return true;
        };
        for g in 0..board.n_boxes() {
            if !used[g] && board.goal_distances().get(b, g) != UNREACHABLE {
                used[g] = true;
                if go(board, rest, used) {
                    return true;
                }
                used[g] = false;
            }
        }
        false
    }
    go(board, boxes, &mut vec![false; board.n_boxes()])
}

#[test]
fn unsolvable_no_match_boxes_all_reach_only_the_same_goal() {
    let level = edge("unsolvable-no-match.xsb");
    let board = level.board();
    let corner = board.goal_index(cell(board, 1, 1)).expect("goal");
    let bottom = board.goal_index(cell(board, 4, 3)).expect("goal");
    for &b in &level.start().boxes {
        assert!(!board.is_push_dead(b));
        assert_ne!(board.goal_distances().get(b, corner), UNREACHABLE);
        assert_eq!(board.goal_distances().get(b, bottom), UNREACHABLE);
    }
    assert!(!perfect_matching_exists(board, &level.start().boxes));
}

#[test]
fn unsolvable_exhaustive_passes_every_static_test() {
    let level = edge("unsolvable-exhaustive.xsb");
    let board = level.board();
    for &b in &level.start().boxes {
        assert!(!board.is_push_dead(b), "{:?}", board.xy(b));
        assert!(!board.is_goal(b));
    }
    assert!(perfect_matching_exists(board, &level.start().boxes));
    // The goals are in the west column; the one at the bottom is a pocket entered from above.
    let goals: Vec<(usize, usize)> = board.goals().iter().map(|&g| board.xy(g)).collect();
    assert_eq!(goals, [(1, 1), (1, 3), (1, 4)]);
    let pocket = cell(board, 1, 4);
    let open: Vec<Dir> =
        Dir::ALL.into_iter().filter(|&d| board.neighbour(pocket, d) != bisolve_board::NO_CELL).collect();
    assert_eq!(open, [Dir::Up]);
}

#[test]
fn ragged_rows_keep_their_lengths_and_leading_spaces() {
    let level = edge("ragged-rows.xsb");
    let lengths: Vec<usize> = level.rows().iter().map(String::len).collect();
    assert_eq!(lengths, [8, 8, 8, 10, 10, 10, 8]);
    assert!(level.rows()[0].starts_with("   #"));
    let board = level.board();
    assert_eq!((board.width(), board.height()), (10, 7));
    // Outside squares (the leading spaces) are neither cells nor walls.
    assert_eq!(board.cell(0, 0), None);
    assert!(!board.is_wall_char(0, 0));
    assert!(board.is_wall_char(3, 0));
}

#[test]
fn tunnel_level_has_its_tunnels_where_designed() {
    let level = edge("tunnel.xsb");
    let board = level.board();
    let flags = |x| board.tunnel_flags(cell(board, x, 3));
    // Bottom row: the long west tunnel (goal at its end), the junction under the loop's west
    // end, the short east tunnel where the box parks, the dead junction under the east end.
    for x in 1..=6 {
        assert_eq!(flags(x), TUNNEL_HORIZONTAL, "column {x}");
    }
    assert_eq!(flags(7), 0);
    for x in 8..=10 {
        assert_eq!(flags(x), TUNNEL_HORIZONTAL, "column {x}");
    }
    assert_eq!(flags(11), 0);
    assert!(board.is_push_dead(cell(board, 11, 3)));
    assert!(board.is_goal(cell(board, 1, 3)));
    // The loop's two legs are vertical tunnels.
    assert_eq!(board.tunnel_flags(cell(board, 7, 2)), TUNNEL_VERTICAL);
    assert_eq!(board.tunnel_flags(cell(board, 11, 2)), TUNNEL_VERTICAL);
    // The box starts on the junction and can be pushed back west from every parking square.
    assert_eq!(board.xy(level.start().boxes[0]), (7, 3));
    for x in 8..=10 {
        let g = board.goal_distances().get(cell(board, x, 3), 0);
        assert_eq!(g as usize, x - 1, "column {x}");
    }
}

#[test]
fn goal_room_has_one_entrance_above_a_goal() {
    let level = edge("goal-room.xsb");
    let board = level.board();
    let entrance = cell(board, 4, 4);
    assert_eq!(board.neighbour(entrance, Dir::Left), bisolve_board::NO_CELL);
    assert_eq!(board.neighbour(entrance, Dir::Right), bisolve_board::NO_CELL);
    let below = board.neighbour(entrance, Dir::Down);
    assert!(board.is_goal(below));
    // Every goal lies below the entrance row: the room is behind it.
    for &g in board.goals() {
        assert!(board.xy(g).1 > 4);
    }
    // Every start square lies above it.
    for &s in board.start_squares() {
        assert!(board.xy(s).1 < 4);
    }
}

#[test]
fn invalid_table_covers_every_file_in_levels_invalid() {
    let mut expected: Vec<&str> = invalid_table().iter().map(|(f, _)| *f).collect();
    expected.push("mixed-valid-invalid.xsb");
    expected.sort_unstable();
    assert_eq!(file_names("invalid"), expected);
}

#[test]
fn invalid_files_give_the_right_error_at_the_right_place() {
    for (file, expect) in invalid_table() {
        let bytes = read(&repo_file(&format!("invalid/{file}")));
        match expect {
            Expect::File(want) => {
                let got = load_collection(&bytes).map(|c| c.entries.len());
                assert_eq!(got, Err(want), "{file}");
            }
            Expect::Level(want, line, column) => {
                let c = load_collection(&bytes).unwrap_or_else(|e| panic!("{file}: {e}"));
                assert_eq!(c.entries.len(), 1, "{file}");
                let err =
                    c.entries[0].level.as_ref().err().unwrap_or_else(|| panic!("{file}: loaded as valid"));
                match (&err.kind, &want) {
                    (LevelErrorKind::BadRunLength(_), LevelErrorKind::BadRunLength(_)) => {}
                    (got, want) => assert_eq!(got, want, "{file}"),
                }
                assert_eq!(err.line, Some(line), "{file}: line");
                assert_eq!(err.column, column, "{file}: column");
                assert_eq!(err.index, 1, "{file}");
                assert!(err.title.is_some(), "{file}: the title is kept");
                // The message a user sees names the line.
                assert!(err.to_string().starts_with(&format!("line {line}")), "{err}");
            }
        }
    }
}

#[test]
fn utf16_file_really_is_utf16le_with_a_bom() {
    let bytes = read(&repo_file("invalid/utf16.xsb"));
    assert_eq!(&bytes[..2], &[0xFF, 0xFE]);
    let units: Vec<u16> = bytes[2..].chunks_exact(2).map(|p| u16::from_le_bytes([p[0], p[1]])).collect();
    let text = String::from_utf16(&units).expect("valid UTF-16LE");
    assert!(text.contains("#@ $ .#"), "{text}");
}

#[test]
fn empty_file_has_no_bytes() {
    assert!(read(&repo_file("invalid/empty.xsb")).is_empty());
}

#[test]
fn mixed_valid_invalid_gives_valid_invalid_valid() {
    let c = load(&repo_file("invalid/mixed-valid-invalid.xsb"));
    assert_eq!(c.entries.len(), 3);
    let titles: Vec<Option<&str>> = c.entries.iter().map(|e| e.title.as_deref()).collect();
    assert_eq!(titles, [Some("Valid before"), Some("Invalid in the middle"), Some("Valid after")]);
    let err = c.entries[1].level.as_ref().expect_err("second is invalid");
    assert_eq!(err.kind, LevelErrorKind::SeveralPlayers { count: 2 });
    assert_eq!((err.index, err.line, err.column), (2, Some(13), Some(5)));
    for (i, solution) in [(0, "RR"), (2, "urrDldRuRurD")] {
        let level = c.entries[i].level.as_ref().expect("valid");
        assert_eq!(level.index(), i + 1);
        replay_text(level, solution).unwrap_or_else(|e| panic!("level {}: {e}", i + 1));
    }
}

#[test]
fn readme_lists_every_level_file() {
    let readme = String::from_utf8(read(&repo_file("README.md"))).expect("UTF-8");
    let root = common::repo_levels();
    for path in common::all_repo_level_files() {
        let rel = path.strip_prefix(&root).expect("under levels/").to_string_lossy().replace('\\', "/");
        assert!(readme.contains(&format!("`{rel}`")), "levels/README.md does not list `{rel}`");
    }
}
