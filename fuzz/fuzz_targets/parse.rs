//! Any bytes as a level file: loading never panics, every error names a line of the file, and
//! every valid level can be drawn and is consistent with its text.
#![no_main]

use bisolve_board::load_collection;
use bisolve_board::render::{render_state, Overlay};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(collection) = load_collection(data) else {
        return;
    };
    // Lines a file has: LF, CRLF and lone CR all end one.
    let lines = data.iter().filter(|&&b| b == b'\n' || b == b'\r').count() + 1;
    for (i, entry) in collection.entries.iter().enumerate() {
        assert_eq!(entry.index, i + 1, "levels are numbered in file order");
        match &entry.level {
            Err(e) => {
                assert!(!e.to_string().is_empty());
                if let Some(line) = e.line {
                    assert!((1..=lines).contains(&line), "error line {line} of a {lines}-line file: {e}");
                }
            }
            Ok(level) => {
                let board = level.board();
                let start = level.start();
                assert_eq!(start.boxes.len(), board.n_boxes());
                assert_eq!(board.goals().len(), board.n_boxes());
                assert!((1..=lines).contains(&level.first_line()));
                let picture = render_state(board, start, Overlay::default());
                assert!(!picture.is_empty());
            }
        }
    }
});
