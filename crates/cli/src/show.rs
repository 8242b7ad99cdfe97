//! `bisolve show`: draw levels, with dead squares and the player's reach when asked, as text
//! and (`--svg`) as an SVG picture, and (`--plan`) the level's parking plan.

use std::io::IsTerminal;

use anyhow::Result;
use bisolve_board::render::{legend, render_state, Overlay};
use bisolve_board::Level;
use bisolve_deadlock::parking::{From, ParkingPlan};

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
                if args.plan {
                    for line in plan_lines(level) {
                        out.line(&line)?;
                    }
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

/// The letter of plan step `i`: A-Z, then a-z, then `+`.
fn step_letter(i: usize) -> char {
    match i {
        0..26 => (b'A' + i as u8) as char,
        26..52 => (b'a' + (i - 26) as u8) as char,
        _ => '+',
    }
}

/// The level's parking plan as text: the level with each step's square marked by the letter
/// of the first step that brings a box there, then where each step's box comes from.
fn plan_lines(level: &Level) -> Vec<String> {
    let board = level.board();
    let Some(plan) = ParkingPlan::new(board) else {
        return vec!["; no parking plan: no boxes, more than 128, or a goal no box can reach".to_string()];
    };
    let steps = plan.steps();
    let plain = Overlay { dead: false, pull_dead: false, reach: false, color: false };
    let mut rows: Vec<Vec<char>> =
        render_state(board, level.start(), plain).lines().map(|r| r.chars().collect()).collect();
    for (i, s) in steps.iter().enumerate().rev() {
        let (x, y) = board.xy(s.to);
        if let Some(row) = rows.get_mut(y) {
            if row.len() <= x {
                row.resize(x + 1, ' ');
            }
            row[x] = step_letter(i);
        }
    }
    let mut lines = vec![format!(
        "; parking plan: {} for {}{}",
        count(steps.len() as u64, "step"),
        count(board.n_boxes() as u64, "box"),
        if plan.is_complete() { "" } else { " (unfinished: it keeps the steps that place a box for good)" }
    )];
    lines.extend(rows.into_iter().map(|r| r.into_iter().collect::<String>()));
    let said: Vec<String> = steps
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let from = match s.from {
                From::Initial => "stays".to_string(),
                From::Home => "from start".to_string(),
                From::Parked(c) => {
                    let k = steps[..i].iter().rposition(|p| p.to == c).map_or('?', step_letter);
                    format!("from {k}")
                }
            };
            let parked = if s.until().is_some() { " (parked)" } else { "" };
            format!("{} {from}{parked}", step_letter(i))
        })
        .collect();
    lines.push(format!("; {}", said.join(", ")));
    lines.push(
        "; each letter is a step that brings a box to that square: from its start square, from an \
         earlier step's square, or standing there from the start; a parked box moves on later (a square of two steps shows the first)"
            .to_string(),
    );
    lines
}
