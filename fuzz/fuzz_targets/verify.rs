//! `bisolve verify` on any input: a level file and a LURD text, split at the first NUL byte
//! (without one, the whole input is the LURD text for a built-in level). Reading the LURD and
//! replaying it never panics, and replay agrees with an independent replay on the level's
//! text.
#![no_main]

use bisolve_board::moves::{parse_lurd, replay};
use bisolve_board::{load_collection, Level};
use bisolve_fuzz::{letters, Grid};
use libfuzzer_sys::fuzz_target;

const BUILT_IN: &str = "\
#######
#.  $ #
#  #@ #
# $.  #
#######
";

fuzz_target!(|data: &[u8]| {
    let (level_bytes, lurd_bytes) = match data.iter().position(|&b| b == 0) {
        Some(i) => (&data[..i], &data[i + 1..]),
        None => (BUILT_IN.as_bytes(), data),
    };
    let Ok(collection) = load_collection(level_bytes) else {
        return;
    };
    let Some(Ok(level)) = collection.entries.first().map(|e| &e.level) else {
        return;
    };
    let text = String::from_utf8_lossy(lurd_bytes);
    check(level, &text);
});

fn check(level: &Level, text: &str) {
    let Ok(steps) = parse_lurd(text) else {
        return;
    };
    let ours = replay(level.board(), level.start(), &steps);
    let grid = Grid::new(level.rows()).expect("a valid level has one player");
    // The independent replay needs the letters written out: skip run-length counts.
    if text.chars().any(|c| c.is_ascii_digit()) {
        return;
    }
    let theirs = grid.replay(&letters(text).expect("parse_lurd accepted it"));
    match (ours, theirs) {
        // A box or goal walled off from the player is dropped from the board; no move list
        // solves such a level, which `bisolve verify` reports from `walled_off`.
        (Ok(_), None) if level.walled_off().is_some() => {}
        (Ok(counts), Some((moves, pushes))) => {
            assert_eq!((counts.moves, counts.pushes), (moves, pushes), "counts differ");
            assert!(level.walled_off().is_none(), "a walled-off level replayed as solved");
        }
        (Err(_), None) => {}
        (ours, theirs) => panic!("replay says {ours:?}, the independent replay {theirs:?}"),
    }
}
