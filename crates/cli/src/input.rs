//! Reading level files and choosing levels, with messages that name the file, level and line.

use std::io::Read;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use bisolve_board::parse::{parse_collection, RawCollection, RawLevel};
use bisolve_board::{LevelEntry, LevelError};

/// The most bytes a level file may have: far more than any real collection.
const MAX_FILE_BYTES: u64 = 256 << 20;

/// The level files named: each file as given (`-` for standard input), each directory as its
/// `.xsb`, `.sok` and `.txt` files (any case) in name order, not descending into folders.
/// Every path is checked before any level is solved, so a typo fails at once.
pub fn expand_inputs(paths: &[PathBuf]) -> Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    for path in paths {
        if path.as_os_str() == "-" {
            files.push(path.clone());
            continue;
        }
        let meta =
            std::fs::metadata(path).with_context(|| format!("{}: cannot read the file", path.display()))?;
        if !meta.is_dir() {
            files.push(path.clone());
            continue;
        }
        let mut found: Vec<PathBuf> = std::fs::read_dir(path)
            .with_context(|| format!("{}: cannot read the directory", path.display()))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.is_file() && is_level_file(p))
            .collect();
        if found.is_empty() {
            bail!("{}: a directory with no .xsb, .sok or .txt file", path.display());
        }
        found.sort();
        files.extend(found);
    }
    Ok(files)
}

/// True for the names a directory's level files have: `.xsb`, `.sok`, `.txt`, any case.
fn is_level_file(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| ["xsb", "sok", "txt"].iter().any(|x| e.eq_ignore_ascii_case(x)))
}

/// Reads and splits a level file into levels. Fails (exit 2) when the file cannot be read or
/// holds no level at all. Levels are validated (and their boards analysed) one at a time, by
/// [`build`], when their turn comes: a file of thousands of large levels then costs one
/// level's board at a time, and the first results come at once.
///
/// `-` reads standard input.
pub fn read_collection(path: &Path) -> Result<RawCollection> {
    let name = path.display();
    if path.as_os_str() == "-" {
        let mut bytes = Vec::new();
        std::io::stdin()
            .lock()
            .take(MAX_FILE_BYTES + 1)
            .read_to_end(&mut bytes)
            .context("standard input: cannot read it")?;
        return parse_bytes(&bytes, "standard input");
    }
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
    // The size above is 0 for pipes and devices (`/dev/stdin`, `/dev/zero`): read at most one
    // byte past the limit, whatever the metadata said.
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(MAX_FILE_BYTES + 1).read_to_end(&mut bytes))
        .with_context(|| format!("{name}: cannot read the file"))?;
    parse_bytes(&bytes, &name.to_string())
}

/// Splits the bytes of a level file named `name` (in messages) into levels.
fn parse_bytes(bytes: &[u8], name: &str) -> Result<RawCollection> {
    if bytes.len() as u64 > MAX_FILE_BYTES {
        bail!("{name}: more than {MAX_FILE_BYTES} bytes; level files that large are not read");
    }
    parse_collection(bytes).map_err(|e| anyhow::anyhow!("{name}: {e}"))
}

/// The levels to work on, not yet validated: those `--level` names, or all of them. For
/// commands that go through a whole file; build each with [`build`] when its turn comes.
///
/// `--level` takes a 1-based index (`3`), a title (`Warehouse`), a range of indexes (`2-10`)
/// or a comma-separated list of those (`1,4,7-9`); the levels come in the order named, each
/// once. A title that contains commas or dashes is found whole first.
pub fn select_levels<'c>(
    collection: &'c RawCollection,
    path: &Path,
    level: Option<&str>,
) -> Result<Vec<&'c RawLevel>> {
    let Some(key) = level else {
        return Ok(collection.levels.iter().collect());
    };
    if let Some(raw) = collection.find(key) {
        return Ok(vec![raw]);
    }
    let n = collection.levels.len();
    let no_level = |part: &str| {
        anyhow::anyhow!(
            "{}: no level {part:?} (the file has {n} levels; use 1-based indexes, ranges such as 2-10, \
             titles, or a comma-separated list of those)",
            path.display()
        )
    };
    let mut chosen: Vec<usize> = Vec::new();
    let mut taken = vec![false; n];
    for part in key.split(',').map(str::trim) {
        let range = part
            .split_once('-')
            .and_then(|(a, b)| Some((a.trim().parse::<usize>().ok()?, b.trim().parse::<usize>().ok()?)));
        let positions: Vec<usize> = match (range, collection.find(part)) {
            (_, Some(raw)) => vec![raw.index - 1],
            (Some((first, last)), None) if 1 <= first && first <= last && last <= n => {
                (first - 1..last).collect()
            }
            (Some((first, last)), None) if first > last => {
                bail!("{}: --level {part}: the range ends before it starts", path.display())
            }
            _ => return Err(no_level(part)),
        };
        for i in positions {
            if !std::mem::replace(&mut taken[i], true) {
                chosen.push(i);
            }
        }
    }
    Ok(chosen.into_iter().map(|i| &collection.levels[i]).collect())
}

/// The levels to work on, validated: the one `--level` names, or all of them. For commands
/// that work on one level; a whole file is better gone through with [`select_levels`].
pub fn select(collection: &RawCollection, path: &Path, level: Option<&str>) -> Result<Vec<LevelEntry>> {
    Ok(select_levels(collection, path, level)?.into_iter().map(build).collect())
}

/// Validates one level of a file and builds its board.
pub fn build(raw: &RawLevel) -> LevelEntry {
    LevelEntry::from_raw(raw.clone())
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
