//! Plain rendering is valid XSB: parse -> render -> parse gives the same board (cells, goals,
//! start squares, dead squares) and the same start state, for the benchmark collections and
//! for every valid level of the project's own files.

mod common;

use std::path::Path;

use bisolve_board::render::{render_state, Overlay};
use bisolve_board::{load_collection, Cell, Level};

/// Renders a level's start, parses the picture back and compares everything that matters.
/// Returns the picture.
fn assert_round_trip(name: &str, level: &Level) -> String {
    let board = level.board();
    let text = render_state(board, level.start(), Overlay::default());
    let back = Level::parse(&text).unwrap_or_else(|e| panic!("{name}: {e}\n{text}"));
    let b2 = back.board();
    assert_eq!(b2.n_cells(), board.n_cells(), "{name}: n_cells\n{text}");
    assert_eq!(b2.n_boxes(), board.n_boxes(), "{name}: n_boxes");
    // Same cells at the same places (so the dense numbering agrees too).
    for c in 0..board.n_cells() as Cell {
        assert_eq!(b2.xy(c), board.xy(c), "{name}: cell {c}");
        assert_eq!(b2.is_push_dead(c), board.is_push_dead(c), "{name}: push-dead {c}");
        assert_eq!(b2.is_pull_dead(c), board.is_pull_dead(c), "{name}: pull-dead {c}");
        assert_eq!(b2.tunnel_flags(c), board.tunnel_flags(c), "{name}: tunnel {c}");
    }
    assert_eq!(b2.goals(), board.goals(), "{name}: goals");
    assert_eq!(b2.start_squares(), board.start_squares(), "{name}: start squares");
    assert_eq!(back.start(), level.start(), "{name}: start state");
    // Rendering the parsed picture again gives the same text.
    let again = render_state(b2, back.start(), Overlay::default());
    assert_eq!(again, text, "{name}: second rendering differs");
    text
}

/// Round-trips every valid level of a file; returns how many there were.
fn round_trip_file(path: &Path) -> usize {
    let bytes = common::read(path);
    let c = load_collection(&bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut n = 0;
    for e in &c.entries {
        if let Ok(level) = &e.level {
            assert_round_trip(&format!("{} #{}", path.display(), e.index), level);
            n += 1;
        }
    }
    n
}

#[test]
fn shared_collections_round_trip_through_render() {
    let Some(dir) = common::shared_levels() else { return };
    let files = common::files_in(&dir, &["xsb", "txt"]);
    assert!(!files.is_empty(), "no level files in {}", dir.display());
    let mut total = 0;
    for path in &files {
        let name = path.file_name().unwrap().to_string_lossy();
        // The licence text is not a level file.
        if name.contains("LICENSE") {
            continue;
        }
        let n = round_trip_file(path);
        assert!(n > 0, "{}: no valid level", path.display());
        total += n;
    }
    // Microban I-II, Sasquatch, XSokoban and three Boxoban files of 1000 levels.
    assert!(total > 3000, "only {total} levels");
}

#[test]
fn repo_levels_round_trip_through_render() {
    let levels = common::all_repo_valid_levels();
    // demo (10) + edge (20) + formats (22) + the two valid levels of the mixed collection +
    // optimize (3).
    assert_eq!(levels.len(), 57);
    for (name, level) in &levels {
        assert_round_trip(name, level);
    }
}

#[test]
fn decoration_and_walled_off_pockets_render_as_empty_pockets() {
    let level = common::repo_level("edge/walled-off-decoration.xsb");
    let text = assert_round_trip("decoration", &level);
    assert_eq!(
        text, " #####\n #   #\n #####\n########\n#@ $  .#\n########\n",
        "the sealed `*` squares are not part of the board"
    );
    let level = common::repo_level("edge/walled-off-box.xsb");
    let text = assert_round_trip("walled-off box", &level);
    assert_eq!(text, "########\n#@ $  .#\n########\n#      #\n########\n");
    // The re-parsed level no longer knows about the sealed box: it is solvable. That is why
    // `walled_off` must be checked on the original text before any search.
    assert!(Level::parse(&text).unwrap().walled_off().is_none());
}

#[test]
fn rendering_a_moved_state_draws_boxes_player_and_goals() {
    let level = common::level("#######\n#+ $  #\n#  $ .#\n#######\n");
    let board = level.board();
    let start = render_state(board, level.start(), Overlay::default());
    assert_eq!(start, "#######\n#+ $  #\n#  $ .#\n#######\n");
    let mut state = level.start().clone();
    state.move_box(common::cell(board, 3, 2), common::cell(board, 4, 2), common::cell(board, 3, 2));
    let text = render_state(board, &state, Overlay::default());
    assert_eq!(text, "#######\n#. $  #\n#  @$.#\n#######\n");
    state.move_box(common::cell(board, 4, 2), common::cell(board, 5, 2), common::cell(board, 4, 2));
    let text = render_state(board, &state, Overlay::default());
    assert_eq!(text, "#######\n#. $  #\n#   @*#\n#######\n");
}

#[test]
fn reach_overlay_marks_the_empty_squares_the_player_can_walk_to() {
    let level = common::level("#######\n#@ $ .#\n#  #  #\n#######\n");
    let overlay = Overlay { reach: true, ..Overlay::default() };
    let text = render_state(level.board(), level.start(), overlay);
    // Floor on the far side of the box stays blank; the goal keeps its own letter.
    assert_eq!(text, "#######\n#@-$ .#\n#--#  #\n#######\n");
}

#[test]
fn colour_overlay_keeps_the_xsb_letters() {
    let level = common::level("#####\n#@$.#\n#   #\n#####\n");
    let overlay = Overlay { dead: true, color: true, ..Overlay::default() };
    let text = render_state(level.board(), level.start(), overlay);
    let plain: String = strip_ansi(&text);
    assert_eq!(plain, "#####\n#@$.#\n#   #\n#####\n");
    assert!(text.contains('\x1b'), "no colour in {text:?}");
}

fn strip_ansi(text: &str) -> String {
    let mut out = String::new();
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c == '\x1b' {
            for c in chars.by_ref() {
                if c == 'm' {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}
