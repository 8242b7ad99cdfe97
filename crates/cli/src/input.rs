//! Reading level files and choosing levels, with messages that name the file, level and line.

use std::path::Path;

use anyhow::{bail, Context, Result};
use bisolve_board::{load_collection, Collection, LevelEntry, LevelError};

/// The most bytes a level file may have: far more than any real collection.
const MAX_FILE_BYTES: u64 = 256 << 20;

/// Reads and parses a level file. Fails (exit 2) when the file cannot be read or holds no
/// level at all.
pub fn read_collection(path: &Path) -> Result<Collection> {
    let name = path.display();
    let meta = std::fs::metadata(path).with_context(|| format!("{name}: cannot read the file"))?;
    if meta.is_dir() {
        bail!("{name}: is a directory, not a level file");
    }
    if meta.len() > MAX_FILE_BYTES {
        bail!(
            "{name}: the file is {} bytes; level files over {MAX_FILE_BYTES} bytes are not read",
            meta.len()
        );
    }
    let bytes = std::fs::read(path).with_context(|| format!("{name}: cannot read the file"))?;
    load_collection(&bytes).map_err(|e| anyhow::anyhow!("{name}: {e}"))
}

/// The entries to work on: the one `--level` names, or all of them.
pub fn select<'c>(
    collection: &'c Collection,
    path: &Path,
    level: Option<&str>,
) -> Result<Vec<&'c LevelEntry>> {
    match level {
        None => Ok(collection.entries.iter().collect()),
        Some(key) => match collection.find(key) {
            Some(e) => Ok(vec![e]),
            None => bail!(
                "{}: no level {key:?} (the file has {} levels; use a 1-based index or a title)",
                path.display(),
                collection.entries.len()
            ),
        },
    }
}

/// `FILE:LINE:COL: level N ("title"): problem`.
pub fn describe_error(path: &Path, e: &LevelError) -> String {
    let mut at = path.display().to_string();
    if let Some(line) = e.line {
        at.push_str(&format!(":{line}"));
        if let Some(col) = e.column {
            at.push_str(&format!(":{col}"));
        }
    }
    let title = e.title.as_ref().map_or(String::new(), |t| format!(" ({t:?})"));
    format!("{at}: level {}{title}: {}", e.index, e.kind)
}

/// A label for a level in messages: `level N ("title")`.
pub fn label(entry: &LevelEntry) -> String {
    match &entry.title {
        Some(t) => format!("level {} ({t:?})", entry.index),
        None => format!("level {}", entry.index),
    }
}
