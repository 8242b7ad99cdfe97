//! `bisolve verify`: replay a LURD solution on a level.

use std::path::Path;

use anyhow::{bail, Context, Result};
use bisolve_board::moves::{parse_lurd, replay, Step};
use bisolve_board::{Level, LevelEntry};

use crate::args::VerifyArgs;
use crate::input::{describe_error, label, read_collection, select};
use crate::output::{count, warn, Exit, Out};

/// The most bytes of a solution file.
const MAX_SOLUTION_BYTES: u64 = 64 << 20;

/// Runs the verify command: one solution given on the command line, or every `Solution`
/// section the file stores.
pub fn run(args: &VerifyArgs, out: &mut Out) -> Result<Exit> {
    let collection = read_collection(&args.file)?;
    let entries = select(&collection, &args.file, args.select.level.as_deref())?;
    let Some(solution) = &args.solution else {
        return verify_stored(args, &entries, out);
    };
    let [entry] = entries.as_slice() else {
        bail!(
            "{}: holds {} levels; say which one to verify with --level N|TITLE, or leave out the \
             SOLUTION to check the solutions the file stores",
            args.file.display(),
            entries.len()
        );
    };
    let level = entry.level.as_ref().map_err(|e| anyhow::anyhow!(describe_error(&args.file, e)))?;
    let text = solution_text(solution)?;
    let steps = parse_lurd(&text).map_err(|e| anyhow::anyhow!("the solution is not LURD: {e}"))?;
    let verdict = judge(level, &steps);
    out.line(&format!("{}: {verdict}", label(entry)))?;
    Ok(if verdict.starts_with("solved") { Exit::Ok } else { Exit::NotAllSolved })
}

/// Checks every stored solution of every chosen level, one line each: exit 0 when each level
/// has at least one and every one solves its level.
fn verify_stored(args: &VerifyArgs, entries: &[LevelEntry], out: &mut Out) -> Result<Exit> {
    let mut all_good = true;
    for entry in entries {
        let level = match &entry.level {
            Ok(level) => level,
            Err(e) => {
                all_good = false;
                warn(&format!("bisolve: error: {}", describe_error(&args.file, e)));
                continue;
            }
        };
        if level.solutions().is_empty() {
            all_good = false;
            out.line(&format!("{}: no stored solution", label(entry)))?;
            continue;
        }
        for stored in level.solutions() {
            let verdict = match parse_lurd(&stored.lurd) {
                Ok(steps) => judge(level, &steps),
                Err(e) => format!("not a solution: not LURD: {e}"),
            };
            all_good &= verdict.starts_with("solved");
            out.line(&format!("{}: solution on line {}: {verdict}", label(entry), stored.line))?;
        }
    }
    Ok(if all_good { Exit::Ok } else { Exit::NotAllSolved })
}

/// What replaying `steps` on `level` shows: `solved: M moves, P pushes, L box lines, C box
/// changes`, or `not a solution: ...`.
fn judge(level: &Level, steps: &[Step]) -> String {
    match replay(level.board(), level.start(), steps) {
        // The board leaves out squares the player can never reach; a box or goal sealed away
        // there means no move list solves the level, whatever replay says about the rest.
        Ok(_) if level.walled_off().is_some() => {
            format!("not a solution: the level cannot be solved: {}", level.walled_off().unwrap_or_default())
        }
        Ok(counts) => {
            format!(
                "solved: {}, {}, {}, {}",
                count(counts.moves as u64, "move"),
                count(counts.pushes as u64, "push"),
                count(counts.box_lines as u64, "box line"),
                count(counts.box_changes as u64, "box change")
            )
        }
        Err(e) => format!("not a solution: {e}"),
    }
}

/// The solution argument: a file's contents if it names an existing file, else the text. Text
/// that looks like a path (a `/`, or a `.` followed by a file extension) but names no file is
/// an error, not moves.
pub(crate) fn solution_text(arg: &str) -> Result<String> {
    let path = Path::new(arg);
    let looks_like_a_path = arg.contains('/')
        || path
            .extension()
            .is_some_and(|e| e.to_str().is_some_and(|e| e.chars().any(|c| c.is_ascii_alphabetic())));
    if looks_like_a_path && !path.exists() {
        bail!("{arg}: no such solution file");
    }
    if arg.len() < 4096 && path.is_file() {
        let len = std::fs::metadata(path)?.len();
        if len > MAX_SOLUTION_BYTES {
            bail!("{arg}: the solution file is {len} bytes, too large");
        }
        let bytes = std::fs::read(path).with_context(|| format!("{arg}: cannot read the solution file"))?;
        return Ok(String::from_utf8_lossy(&bytes).into_owned());
    }
    Ok(arg.to_string())
}
