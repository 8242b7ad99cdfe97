//! Drawing boards and states as XSB text, with optional overlays for debugging.
//!
//! Plain output is valid XSB (parse it back and you get the same board and state). Overlays
//! mark squares with letters that are not XSB (`x` dead square, `-` reach) or, in colour mode,
//! with ANSI background colours so the picture stays XSB-shaped.

use crate::board::{Board, Cell};
use crate::reach::{BoxMap, Reach};
use crate::state::State;

/// What to draw on top of the plain board.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Overlay {
    /// Mark dead squares for pushing (a box there can never reach a goal).
    pub dead: bool,
    /// Mark dead squares for pulling (a box there can never return to a start square).
    pub pull_dead: bool,
    /// Mark the squares the player can walk to.
    pub reach: bool,
    /// Use ANSI colours instead of letters.
    pub color: bool,
}

const RESET: &str = "\x1b[0m";
const DEAD_BG: &str = "\x1b[41m";
const PULL_DEAD_BG: &str = "\x1b[45m";
const REACH_BG: &str = "\x1b[42m";
const WALL_FG: &str = "\x1b[2m";

/// Draws `state` on `board` as XSB rows (one per line, trailing spaces trimmed).
pub fn render_state(board: &Board, state: &State, overlay: Overlay) -> String {
    let n = board.n_cells();
    let mut boxes = BoxMap::new(n);
    boxes.set_all(&state.boxes);
    let mut reach = Reach::new(n);
    if overlay.reach {
        reach.fill(board, &boxes, state.player);
    }
    let mut out = String::new();
    for y in 0..board.height() {
        let mut line = String::new();
        for x in 0..board.width() {
            let Some(cell) = board.cell(x, y) else {
                if board.is_wall_char(x, y) {
                    push_colored(&mut line, '#', overlay.color.then_some(WALL_FG));
                } else {
                    line.push(' ');
                }
                continue;
            };
            let ch = square_char(board, &boxes, state.player, cell);
            let mark = if overlay.reach && reach.contains(cell) && ch == ' ' {
                Some(('-', REACH_BG))
            } else if overlay.dead && board.is_push_dead(cell) && !boxes.is_box(cell) {
                Some(('x', DEAD_BG))
            } else if overlay.pull_dead && board.is_pull_dead(cell) && !boxes.is_box(cell) {
                Some(('y', PULL_DEAD_BG))
            } else {
                None
            };
            match mark {
                Some((_, bg)) if overlay.color => push_colored(&mut line, ch, Some(bg)),
                Some((letter, _)) if ch == ' ' => line.push(letter),
                _ => line.push(ch),
            }
        }
        let trimmed = line.trim_end_matches(' ');
        out.push_str(trimmed);
        out.push('\n');
    }
    out
}

fn push_colored(line: &mut String, ch: char, color: Option<&str>) {
    match color {
        Some(c) => {
            line.push_str(c);
            line.push(ch);
            line.push_str(RESET);
        }
        None => line.push(ch),
    }
}

fn square_char(board: &Board, boxes: &BoxMap, player: Cell, cell: Cell) -> char {
    match (boxes.is_box(cell), cell == player, board.is_goal(cell)) {
        (true, _, true) => '*',
        (true, _, false) => '$',
        (false, true, true) => '+',
        (false, true, false) => '@',
        (false, false, true) => '.',
        (false, false, false) => ' ',
    }
}

/// A legend for the letter overlays, for printing under a picture.
pub fn legend(overlay: Overlay) -> Option<String> {
    let mut parts = Vec::new();
    if overlay.reach {
        parts.push(if overlay.color { "green: player reach" } else { "-: player reach" });
    }
    if overlay.dead {
        parts.push(if overlay.color { "red: dead for pushing" } else { "x: dead for pushing" });
    }
    if overlay.pull_dead {
        parts.push(if overlay.color { "magenta: dead for pulling" } else { "y: dead for pulling" });
    }
    (!parts.is_empty()).then(|| parts.join(", "))
}
