//! `bisolve show`: draw levels, with dead squares and the player's reach when asked, as text
//! and (`--svg`) as an SVG picture.

use std::io::IsTerminal;

use anyhow::Result;
use bisolve_board::render::{legend, render_state, Overlay};

use crate::args::{ColorArg, ShowArgs};
use crate::export::{numbered, picture_title, probe_writable, write_file};
use crate::input::{build, describe_error, label, read_collection, select_levels};
use crate::output::{count, warn, Exit, Out};
use crate::svg;

/// Runs the show command.
pub fn run(args: &ShowArgs, out: &mut Out) -> Result<Exit> {
    let collection = read_collection(&args.file)?;
    let entries = select_levels(&collection, &args.file, args.select.level.as_deref())?;
    let color = match args.color {
        ColorArg::Always => true,
        ColorArg::Never => false,
        ColorArg::Auto => std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none(),
    };
    let overlay = Overlay { dead: args.dead, pull_dead: args.pull_dead, reach: args.reach, color };
    let many = entries.len() > 1;
    if let (Some(path), Some(first)) = (&args.svg, entries.first()) {
        probe_writable(&numbered(path, many.then_some(first.index)))?;
    }
    let mut invalid = 0;
    for raw in entries {
        let entry = &build(raw);
        match &entry.level {
            Ok(level) => {
                let board = level.board();
                out.line(&format!(
                    "; {}: {}x{}, {}, {} floor cells",
                    label(entry),
                    board.width(),
                    board.height(),
                    count(board.n_boxes() as u64, "box"),
                    board.n_cells()
                ))?;
                for row in render_state(board, level.start(), overlay).lines() {
                    out.line(row)?;
                }
                if let Some(note) = level.walled_off() {
                    out.line(&format!("; unsolvable: {note}"))?;
                }
                out.line("")?;
                if let Some(path) = &args.svg {
                    let path = numbered(path, many.then_some(entry.index));
                    let picture = svg::still(board, level.start(), overlay, &picture_title(entry));
                    write_file(&path, picture.as_bytes())?;
                }
            }
            Err(e) => {
                invalid += 1;
                warn(&format!("bisolve: error: {}", describe_error(&args.file, e)));
            }
        }
    }
    if let Some(text) = legend(overlay) {
        out.line(&format!("; {text}"))?;
    }
    Ok(if invalid == 0 { Exit::Ok } else { Exit::Invalid })
}
