//! `bisolve verify`: replay a LURD solution on a level.

use std::path::Path;

use anyhow::{bail, Context, Result};
use bisolve_board::moves::{parse_lurd, replay};

use crate::args::VerifyArgs;
use crate::input::{describe_error, label, read_collection, select};
use crate::output::{Exit, Out};

/// The most bytes of a solution file.
const MAX_SOLUTION_BYTES: u64 = 64 << 20;

/// Runs the verify command.
pub fn run(args: &VerifyArgs, out: &mut Out) -> Result<Exit> {
    let collection = read_collection(&args.file)?;
    let entries = select(&collection, &args.file, args.select.level.as_deref())?;
    let [entry] = entries.as_slice() else {
        bail!(
            "{}: holds {} levels; say which one to verify with --level N|TITLE",
            args.file.display(),
            entries.len()
        );
    };
    let level = entry.level.as_ref().map_err(|e| anyhow::anyhow!(describe_error(&args.file, e)))?;
    let text = solution_text(&args.solution)?;
    let steps = parse_lurd(&text).map_err(|e| anyhow::anyhow!("the solution is not LURD: {e}"))?;
    match replay(level.board(), level.start(), &steps) {
        // The board leaves out squares the player can never reach; a box or goal sealed away
        // there means no move list solves the level, whatever replay says about the rest.
        Ok(_) if level.walled_off().is_some() => {
            let why = level.walled_off().unwrap_or_default();
            out.line(&format!("{}: not a solution: the level cannot be solved: {why}", label(entry)))?;
            Ok(Exit::NotAllSolved)
        }
        Ok(counts) => {
            out.line(&format!("{}: solved: {} moves, {} pushes", label(entry), counts.moves, counts.pushes))?;
            Ok(Exit::Ok)
        }
        Err(e) => {
            out.line(&format!("{}: not a solution: {e}", label(entry)))?;
            Ok(Exit::NotAllSolved)
        }
    }
}

/// The solution argument: a file's contents if it names an existing file, else the text.
pub(crate) fn solution_text(arg: &str) -> Result<String> {
    let path = Path::new(arg);
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
