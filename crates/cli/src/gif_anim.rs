//! Animated GIF pictures of a solution, drawn with small pixel-art tiles.
//!
//! Frame 0 is the whole board; every later frame redraws only the rectangle around the squares
//! the move changed (the player's two squares and the pushed box's new square) and keeps the
//! rest, so a frame costs a few hundred bytes whatever the board's size. All frames share one
//! 16-colour palette. The animation loops; the solved position stays for [`HOLD_CENTISECONDS`].

use anyhow::{bail, Result};
use bisolve_board::{BoxMap, Cell, Level};
use gif::{DisposalMethod, Encoder, Frame, Repeat};

use crate::scene::{Scene, Square};
use crate::timeline::Timeline;

/// Pixels per square.
pub const TILE: usize = 16;

/// How long the solved position stays before the animation starts again, in 1/100 s.
pub const HOLD_CENTISECONDS: u16 = 200;

/// The palette, RGB. Index 0 is the background (transparent in frame 0).
const PALETTE: [[u8; 3]; 16] = [
    [0xd8, 0xd8, 0xd8], // 0 background
    [0xef, 0xe6, 0xd2], // 1 floor
    [0xe0, 0xd3, 0xb8], // 2 floor edge
    [0x7a, 0x5c, 0x45], // 3 wall
    [0x96, 0x75, 0x5b], // 4 wall, lit edge
    [0x5b, 0x43, 0x32], // 5 mortar
    [0xc0, 0x39, 0x2b], // 6 goal
    [0xd9, 0x90, 0x2f], // 7 box
    [0xf0, 0xb4, 0x5a], // 8 box, lit edge
    [0x6b, 0x42, 0x13], // 9 box edge
    [0x4f, 0x9d, 0x5d], // 10 box on goal
    [0x7f, 0xc1, 0x8a], // 11 box on goal, lit edge
    [0x2a, 0x5d, 0x34], // 12 box on goal, edge
    [0x2f, 0x5f, 0xd0], // 13 player
    [0x18, 0x3a, 0x85], // 14 player edge
    [0xf2, 0xc7, 0x9a], // 15 skin
];

const BACKGROUND: u8 = 0;

/// A wall tile: digits are palette indices.
const WALL: [&str; TILE] = [
    "4444444544444445",
    "3333333533333335",
    "3333333533333335",
    "3333333533333335",
    "3333333533333335",
    "3333333533333335",
    "3333333533333335",
    "5555555555555555",
    "4445444444454444",
    "3335333333353333",
    "3335333333353333",
    "3335333333353333",
    "3335333333353333",
    "3335333333353333",
    "3335333333353333",
    "5555555555555555",
];

/// The goal mark, drawn over the floor (`.` keeps what is below).
const GOAL: [&str; TILE] = [
    "................",
    "................",
    "................",
    "................",
    ".......GG.......",
    "......G..G......",
    ".....G....G.....",
    "....G......G....",
    "....G......G....",
    ".....G....G.....",
    "......G..G......",
    ".......GG.......",
    "................",
    "................",
    "................",
    "................",
];

/// A box: `B` body, `H` lit edge, `E` edge.
const BOX: [&str; TILE] = [
    "................",
    ".EEEEEEEEEEEEEE.",
    ".EHHHHHHHHHHHHE.",
    ".EHEBBBBBBBBEBE.",
    ".EHBEBBBBBBEBBE.",
    ".EHBBEBBBBEBBBE.",
    ".EHBBBEBBEBBBBE.",
    ".EHBBBBEEBBBBBE.",
    ".EHBBBBEEBBBBBE.",
    ".EHBBBEBBEBBBBE.",
    ".EHBBEBBBBEBBBE.",
    ".EHBEBBBBBBEBBE.",
    ".EHEBBBBBBBBEBE.",
    ".EBBBBBBBBBBBBE.",
    ".EEEEEEEEEEEEEE.",
    "................",
];

/// The player: `P` clothes, `K` outline, `S` skin.
const PLAYER: [&str; TILE] = [
    "................",
    "......KKKK......",
    ".....KSSSSK.....",
    ".....KSKKSK.....",
    ".....KSSSSK.....",
    "......KKKK......",
    "....KPPPPPPK....",
    "...KPPPPPPPPK...",
    "...KPKPPPPKPK...",
    "...KSKPPPPKSK...",
    "....K.KPPK.K....",
    "......KPPK......",
    ".....KPKKPK.....",
    ".....KPK.KPK....",
    "....KKK..KKK....",
    "................",
];

/// What one square shows.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Look {
    square: Square,
    boxed: bool,
    player: bool,
}

/// Frames of a solution as an animated GIF: one per move plus the start, `speed` moves per
/// second. Fails when the board is too large for a GIF (65535 pixels a side).
pub fn animated(level: &Level, timeline: &Timeline, speed: f64) -> Result<Vec<u8>> {
    let board = level.board();
    let scene = Scene::new(board);
    let (w, h) = (scene.width * TILE, scene.height * TILE);
    if w > usize::from(u16::MAX) || h > usize::from(u16::MAX) {
        bail!("the level is too large for a GIF ({w}x{h} pixels; at most 65535 a side)");
    }
    let delay = (100.0 / speed.max(1e-3)).round().clamp(2.0, f64::from(u16::MAX)) as u16;
    let palette: Vec<u8> = PALETTE.iter().flatten().copied().collect();
    let mut encoder = Encoder::new(Vec::new(), w as u16, h as u16, &palette)?;
    encoder.set_repeat(Repeat::Infinite)?;

    let mut boxes = BoxMap::new(board.n_cells());
    boxes.set_all(&timeline.start().boxes);
    let mut canvas = Canvas::new(&scene, &boxes, timeline.start().player);
    let n_moves = timeline.moves().len();
    let first_delay = if n_moves == 0 { HOLD_CENTISECONDS } else { delay };
    let mut frame = Frame::from_indexed_pixels(w as u16, h as u16, canvas.pixels.clone(), Some(BACKGROUND));
    frame.delay = first_delay;
    frame.dispose = DisposalMethod::Keep;
    encoder.write_frame(&frame)?;

    for (k, m) in timeline.moves().iter().enumerate() {
        let mut changed = vec![m.from, m.to];
        if let Some((_, to)) = m.push {
            boxes.move_box(m.to, to);
            changed.push(to);
        }
        let xy: Vec<(usize, usize)> = changed.iter().map(|&c| board.xy(c)).collect();
        for &(x, y) in &xy {
            canvas.paint(x, y, look(&scene, &boxes, m.to, x, y));
        }
        let (x0, x1) = (xy.iter().map(|p| p.0).min().unwrap_or(0), xy.iter().map(|p| p.0).max().unwrap_or(0));
        let (y0, y1) = (xy.iter().map(|p| p.1).min().unwrap_or(0), xy.iter().map(|p| p.1).max().unwrap_or(0));
        let (left, top) = (x0 * TILE, y0 * TILE);
        let (fw, fh) = ((x1 - x0 + 1) * TILE, (y1 - y0 + 1) * TILE);
        let mut buffer = Vec::with_capacity(fw * fh);
        for row in top..top + fh {
            buffer.extend_from_slice(&canvas.pixels[row * w + left..row * w + left + fw]);
        }
        let mut frame = Frame::from_indexed_pixels(fw as u16, fh as u16, buffer, None);
        frame.left = left as u16;
        frame.top = top as u16;
        frame.delay = if k + 1 == n_moves { HOLD_CENTISECONDS } else { delay };
        frame.dispose = DisposalMethod::Keep;
        encoder.write_frame(&frame)?;
    }
    Ok(encoder.into_inner()?)
}

/// What square (`x`, `y`) shows.
fn look(scene: &Scene, boxes: &BoxMap, player: Cell, x: usize, y: usize) -> Look {
    let square = scene.at(x, y);
    let cell = match square {
        Square::Floor(c) | Square::Goal(c) => Some(c),
        Square::Wall | Square::Outside => None,
    };
    Look { square, boxed: cell.is_some_and(|c| boxes.is_box(c)), player: cell == Some(player) }
}

/// The whole picture as palette indices.
struct Canvas {
    width: usize,
    pixels: Vec<u8>,
}

impl Canvas {
    /// The whole board with the boxes and the player.
    fn new(scene: &Scene, boxes: &BoxMap, player: Cell) -> Canvas {
        let width = scene.width * TILE;
        let mut canvas = Canvas { width, pixels: vec![BACKGROUND; width * scene.height * TILE] };
        for y in 0..scene.height {
            for x in 0..scene.width {
                canvas.paint(x, y, look(scene, boxes, player, x, y));
            }
        }
        canvas
    }

    /// Draws square (`x`, `y`).
    fn paint(&mut self, x: usize, y: usize, look: Look) {
        let mut tile = [[BACKGROUND; TILE]; TILE];
        match look.square {
            Square::Outside => {}
            Square::Wall => overlay(&mut tile, &WALL, |c| c.to_digit(10).map(|d| d as u8)),
            Square::Floor(_) | Square::Goal(_) => {
                for (ty, row) in tile.iter_mut().enumerate() {
                    for (tx, px) in row.iter_mut().enumerate() {
                        *px = if tx == TILE - 1 || ty == TILE - 1 { 2 } else { 1 };
                    }
                }
                if matches!(look.square, Square::Goal(_)) {
                    overlay(&mut tile, &GOAL, |c| (c == 'G').then_some(6));
                }
            }
        }
        if look.boxed {
            let on_goal = matches!(look.square, Square::Goal(_));
            let (body, lit, edge) = if on_goal { (10, 11, 12) } else { (7, 8, 9) };
            overlay(&mut tile, &BOX, |c| match c {
                'B' => Some(body),
                'H' => Some(lit),
                'E' => Some(edge),
                _ => None,
            });
        }
        if look.player {
            overlay(&mut tile, &PLAYER, |c| match c {
                'P' => Some(13),
                'K' => Some(14),
                'S' => Some(15),
                _ => None,
            });
        }
        for (ty, row) in tile.iter().enumerate() {
            let start = (y * TILE + ty) * self.width + x * TILE;
            self.pixels[start..start + TILE].copy_from_slice(row);
        }
    }
}

/// Draws a sprite over a tile; characters that `colour` maps to `None` leave the tile as is.
fn overlay(tile: &mut [[u8; TILE]; TILE], sprite: &[&str; TILE], colour: impl Fn(char) -> Option<u8>) {
    for (row, line) in tile.iter_mut().zip(sprite) {
        for (px, ch) in row.iter_mut().zip(line.chars()) {
            if let Some(c) = colour(ch) {
                *px = c;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use bisolve_board::{Board, State};

    /// A still picture of one position, as palette indices.
    fn still(board: &Board, state: &State) -> Vec<u8> {
        let mut boxes = BoxMap::new(board.n_cells());
        boxes.set_all(&state.boxes);
        Canvas::new(&Scene::new(board), &boxes, state.player).pixels
    }

    const LEVEL: &str = "######\n#@   #\n# $  #\n###  #\n  #. #\n  ####\n";

    #[test]
    fn sprites_are_square() {
        for sprite in [&WALL, &GOAL, &BOX, &PLAYER] {
            assert!(sprite.iter().all(|row| row.chars().count() == TILE), "{sprite:?}");
        }
        assert!(WALL.iter().flat_map(|r| r.chars()).all(|c| c.to_digit(10).is_some_and(|d| d < 16)));
    }

    /// Decodes a GIF into full frames (palette indices), applying each frame's rectangle.
    fn decode(bytes: &[u8]) -> Vec<Vec<u8>> {
        let mut options = gif::DecodeOptions::new();
        options.set_color_output(gif::ColorOutput::Indexed);
        let mut decoder = options.read_info(bytes).expect("a GIF");
        let (w, h) = (usize::from(decoder.width()), usize::from(decoder.height()));
        let mut screen = vec![BACKGROUND; w * h];
        let mut frames = Vec::new();
        while let Some(frame) = decoder.read_next_frame().expect("decodes") {
            let (left, top, fw) = (usize::from(frame.left), usize::from(frame.top), usize::from(frame.width));
            for (i, &px) in frame.buffer.iter().enumerate() {
                if Some(px) != frame.transparent {
                    screen[(top + i / fw) * w + left + i % fw] = px;
                }
            }
            frames.push(screen.clone());
        }
        frames
    }

    #[test]
    fn one_frame_per_move_and_the_last_is_solved() {
        let level = Level::parse(LEVEL).expect("valid");
        let t = Timeline::from_lurd(&level, "dRurDD").expect("solves");
        let bytes = animated(&level, &t, 8.0).expect("encodes");
        let frames = decode(&bytes);
        assert_eq!(frames.len(), t.n_frames());
        assert_eq!(frames[0], still(level.board(), level.start()));
        let mut c = t.cursor(level.board());
        while c.forward().is_some() {}
        assert_eq!(frames.last(), Some(&still(level.board(), &c.state())));
    }
}
