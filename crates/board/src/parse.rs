//! Reading level files: XSB boards, SOK metadata, run-length rows, whole collections.
//!
//! This module only splits text into levels and board rows; validation (players, boxes,
//! goals, closed walls) happens in [`crate::Level`]. [`parse_collection`] never panics and
//! keeps memory bounded whatever the bytes (see the limits below).
//!
//! # Text
//!
//! - Bytes that are valid UTF-8 are read as UTF-8; anything else is read as Latin-1 (one
//!   byte, one character). A UTF-8 byte-order mark at the start is skipped.
//! - A UTF-16 byte-order mark (`FF FE` or `FE FF`), or NUL bytes making up a quarter or more
//!   of the first 4096 bytes (at least two), give [`ParseError::Utf16`]. No bytes, or only
//!   white space, give [`ParseError::Empty`]; text without a single board row gives
//!   [`ParseError::NoLevel`].
//! - Lines end with LF, CRLF or a lone CR. Line numbers are 1-based; columns are 1-based and
//!   count characters of the line as written (before tab or run-length expansion).
//!
//! # Kinds of line
//!
//! Each line is exactly one of these, tested in this order:
//!
//! 1. **blank**: only white space.
//! 2. **comment**: first non-blank character `;`. Its text is what follows the `;`, trimmed.
//! 3. **solution** (SOK): a line starting with the word `Solution` (any case; followed by
//!    nothing, a space, `(`, `/` or `:`), such as `Solution (moves 97, pushes 28)`, together
//!    with the LURD lines right below it (see [Solutions](#solutions)).
//! 4. **metadata** (SOK): `Key: value`, where the key starts with a letter and holds only
//!    letters, digits, `-`, `_` and spaces (`Title`, `Author`, `Date Created`, ...). Keys are
//!    kept as written, values trimmed. A `Comment:` line with nothing after the colon opens a
//!    block that runs to the next `Comment-End:` / `Comment_End:` line (any case): the lines in
//!    between, trailing white space removed, joined by `\n`, are the value, and are never
//!    board rows or titles. Without a later end marker, `Comment:` is one-line metadata with an
//!    empty value; an end marker outside a block is ordinary metadata.
//! 5. **board row**: after trimming trailing white space, contains `#` and only characters of
//!    `# -_.$*@+pPbB`, tabs, ASCII digits and `|` (the last two make it a run-length row).
//! 6. **damaged board row**: a line with a `#` that is not one of the above but (a) starts and
//!    ends with `#` (ignoring white space), or has at least 70% board characters (the
//!    alphabet above plus digits and `|`, counted over its non-blank characters), and (b) is
//!    part of a run of such lines that touches a board row (directly above or below it). It is
//!    read as a board row; its level gets [`LevelErrorKind::UnknownChar`] for the first
//!    foreign character, which is read as floor, so the level stays one level.
//! 7. **text**: anything else (trimmed).
//!
//! So `Author: Bob # 2` (metadata) and `; # comment` (comment) are never rows, while
//! `#  x  #` between rows of a board is a damaged row, not a title.
//!
//! # Rows
//!
//! `-` and `_` are floor (space); `p`/`P` are `@`/`+` and `b`/`B` are `$`/`*`. A tab moves to
//! the next multiple of 8 columns. A decimal count repeats the character after it (`4#`,
//! `3-`); `|` ends a row, so one line may hold several rows, which share its line number; a
//! `|` at the end of a line does not add an empty row. A count of zero, a count with no
//! character after it, or a count that would make the row wider than [`MAX_COLUMNS`] gives
//! [`LevelErrorKind::BadRunLength`] at the count's first digit, and the run is dropped.
//! Trailing white space of each expanded row is removed; leading spaces are kept.
//!
//! # Levels, titles and metadata
//!
//! A level is a maximal run of consecutive board-row lines. The lines between two boards (the
//! *gap*) are split into paragraphs by blank lines. The paragraph right after a board (no blank
//! line in between) is *attached* to it; the paragraph right before the next board is
//! *touching* it. When the gap has no blank line at all, its single paragraph is both.
//!
//! - **Metadata** in the paragraph attached to a board belongs to that (previous) level, except
//!   when the gap has no blank line: then only the metadata lines at its start belong to the
//!   previous level and the rest to the next one. Metadata in the paragraph touching the next
//!   board belongs to the next level. Metadata elsewhere (separated by blank lines from both)
//!   belongs to the previous level, or, before the first board, to the header.
//! - **Title**: the *leading* line of a level is the last non-empty comment or plain text line
//!   before its board, searched in the whole gap before the first board, and otherwise in the
//!   gap from its first blank line on (the whole gap when it has no blank line). It is
//!   *strong* when no blank line lies between it and the board. The *trailing* line is the
//!   first plain text line (not a `;` comment) of the paragraph attached below the board,
//!   provided a blank line or the end of the file separates that paragraph from the next
//!   board. The title is, in priority order: the first non-empty `Title` metadata (any case);
//!   a strong leading line; the trailing line; a leading line that is not strong.
//!   So `; 7` above a board titles it with or without blank lines around, `Level 7` under a
//!   board titles it unless a line touches the board from above, and a collection header
//!   comment separated by a blank line does not beat a title written under the first board.
//! - **Header**: every comment, text and metadata line before the first board, except the
//!   first level's metadata and its leading line when that line is strong or is the title
//!   (a strong line stays out even when `Title:` overrides it). Comments are stored without
//!   the `;`, metadata as `Key: value`; empty entries at the start and end are dropped. Other
//!   comment and text lines between or after levels are not kept.
//!
//! # Solutions
//!
//! SOK files keep solutions under the level they solve: a title line that starts with the word
//! `Solution`, then the moves in LURD, possibly over several lines and run-length encoded
//! (`3lU2R`). A *LURD line* holds only `lurdLURD`, digits and white space, with at least one
//! letter; the solution's moves are the LURD lines that follow its title line with no other line
//! in between, joined with white space removed. When the title line has a `:` and the text after
//! the last `:` is LURD, that text is the first part of the moves (`Solution: 3rUl`). A title
//! line with no LURD after it is a solution with no moves.
//!
//! A solution belongs to the nearest board above it ([`RawLevel::solutions`], in file order);
//! one before the first board is dropped. Solution lines are never titles, metadata or header
//! lines. This reader does not check the moves: replay them on the level
//! ([`crate::moves::replay`]) before trusting them.
//!
//! # Limits
//!
//! A level has at most [`MAX_ROWS`] rows and [`MAX_COLUMNS`] columns after expansion, and a
//! file at most [`MAX_FILE_CELLS`] stored row characters. Beyond that the level gets
//! [`LevelErrorKind::TooLarge`] (`what` is `"rows"`, `"columns"` or `"cells in the file"`) and
//! the excess is counted but never stored.

use std::borrow::Cow;
use std::ops::Range;

use crate::error::{LevelErrorKind, ParseError};

mod rows;
use rows::build_level;

/// Most columns a board row may have after tab and run-length expansion.
pub const MAX_COLUMNS: usize = 4096;

/// Most board rows one level may have.
pub const MAX_ROWS: usize = 4096;

/// Most row characters stored for a whole file (run-length rows can expand a small file a
/// thousandfold; this keeps memory bounded).
pub const MAX_FILE_CELLS: usize = 1 << 26;

/// Tab stops are every this many columns.
const TAB_WIDTH: usize = 8;

/// Share of board characters (in tenths) that makes a line with `#` a damaged board row.
const DAMAGED_ROW_TENTHS: usize = 7;

/// One level as written in a file, before validation.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct RawLevel {
    /// 1-based position of the level in its file.
    pub index: usize,
    /// The title (`; N` comment line, `Title:` line or a plain text line next to the board).
    pub title: Option<String>,
    /// SOK metadata in file order, key as written without the colon (`Author`, `Comment`, ...).
    /// A `Comment:` ... `Comment-End:` block is one entry whose value holds the lines joined by `\n`.
    pub metadata: Vec<(String, String)>,
    /// Board rows in plain XSB: only `# $.*@+` and space; `-`/`_` read as space and
    /// run-length rows expanded; trailing white space removed.
    pub rows: Vec<String>,
    /// 1-based file line of each row in `rows` (rows split by `|` share a line).
    pub row_lines: Vec<usize>,
    /// A problem found while reading the rows: what, 1-based line, 1-based column.
    pub error: Option<(LevelErrorKind, usize, usize)>,
    /// SOK `Solution` sections written under the board, in file order.
    pub solutions: Vec<SolutionSection>,
}

/// A `Solution` section of a SOK file: its title line and its moves, as written (not checked).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SolutionSection {
    /// The title line, trimmed (`Solution (moves 97, pushes 28)`).
    pub title: String,
    /// The moves: LURD, possibly with run-length counts, white space removed.
    pub lurd: String,
    /// 1-based line of the title line.
    pub line: usize,
}

/// A whole file split into levels.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct RawCollection {
    /// Comment lines before the first level, as the collection's header.
    pub header: Vec<String>,
    /// The levels, in file order.
    pub levels: Vec<RawLevel>,
}

/// Splits a level file into levels. Never panics, whatever the bytes.
///
/// The rules for lines, rows, titles and metadata are in the [module documentation](self).
pub fn parse_collection(bytes: &[u8]) -> Result<RawCollection, ParseError> {
    let text = decode(bytes)?;
    if text.trim().is_empty() {
        return Err(ParseError::Empty);
    }
    let lines = split_lines(&text);
    let units = classify(&lines);
    let collection = assemble(&units);
    if collection.levels.is_empty() {
        return Err(ParseError::NoLevel);
    }
    Ok(collection)
}

// ---------------------------------------------------------------------------------------------
// Text decoding and lines

/// Turns bytes into text: UTF-8 when valid, else Latin-1; rejects UTF-16.
fn decode(bytes: &[u8]) -> Result<Cow<'_, str>, ParseError> {
    if bytes.starts_with(&[0xFF, 0xFE]) || bytes.starts_with(&[0xFE, 0xFF]) {
        return Err(ParseError::Utf16);
    }
    let bytes = bytes.strip_prefix(&[0xEF, 0xBB, 0xBF]).unwrap_or(bytes);
    if looks_like_utf16(bytes) {
        return Err(ParseError::Utf16);
    }
    Ok(match std::str::from_utf8(bytes) {
        Ok(text) => Cow::Borrowed(text),
        Err(_) => Cow::Owned(bytes.iter().map(|&b| char::from(b)).collect()),
    })
}

/// UTF-16 without a byte-order mark: NUL bytes are a quarter or more of the start.
fn looks_like_utf16(bytes: &[u8]) -> bool {
    let sample = &bytes[..bytes.len().min(4096)];
    let nuls = sample.iter().filter(|&&b| b == 0).count();
    nuls >= 2 && nuls * 4 >= sample.len()
}

/// Splits text at LF, CRLF and lone CR. A final line ending adds no empty line.
fn split_lines(text: &str) -> Vec<&str> {
    let mut lines = Vec::new();
    let mut rest = text;
    while let Some(end) = rest.find(['\n', '\r']) {
        lines.push(&rest[..end]);
        let skip = if rest[end..].starts_with("\r\n") { 2 } else { 1 };
        rest = &rest[end + skip..];
    }
    if !rest.is_empty() {
        lines.push(rest);
    }
    lines
}

// ---------------------------------------------------------------------------------------------
// Classifying lines

/// What a line (or a `Comment:` block of lines) is.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Kind<'a> {
    /// Only white space.
    Blank,
    /// `;` line: the text after the `;`, trimmed.
    Comment(&'a str),
    /// Any other line that is not a board row, trimmed.
    Text(&'a str),
    /// `Key: value` or a `Comment:` block.
    Meta { key: &'a str, value: String },
    /// A `Solution` title line (trimmed) and the LURD lines below it, joined.
    Solution { title: &'a str, lurd: String },
    /// A board row (possibly damaged): the whole line as written.
    Row(&'a str),
    /// A line with `#` shaped like a board row but with foreign characters; becomes `Row` or
    /// `Text` once its neighbours are known. Holds the whole line.
    Damaged(&'a str),
}

/// A classified line, or a `Comment:` block spanning several lines.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Unit<'a> {
    /// 0-based index of the (first) line.
    line: usize,
    kind: Kind<'a>,
}

/// Classifies every line of the file; `Comment:` blocks become one unit.
fn classify<'a>(lines: &[&'a str]) -> Vec<Unit<'a>> {
    let block_ends = comment_block_ends(lines);
    let mut units = Vec::with_capacity(lines.len());
    let mut i = 0;
    while i < lines.len() {
        let (kind, next) = classify_line(lines, i, &block_ends);
        units.push(Unit { line: i, kind });
        i = next;
    }
    resolve_damaged(&mut units);
    units
}

/// For each line, the index of the first `Comment-End:` line after it.
fn comment_block_ends(lines: &[&str]) -> Vec<Option<usize>> {
    let mut ends = vec![None; lines.len()];
    let mut next = None;
    for (i, line) in lines.iter().enumerate().rev() {
        ends[i] = next;
        if split_meta(line.trim()).is_some_and(|(key, _)| is_comment_end(key)) {
            next = Some(i);
        }
    }
    ends
}

/// Classifies line `i`; returns its kind and the index of the next unclassified line.
fn classify_line<'a>(lines: &[&'a str], i: usize, block_ends: &[Option<usize>]) -> (Kind<'a>, usize) {
    let line = lines[i];
    let trimmed = line.trim();
    if trimmed.is_empty() {
        return (Kind::Blank, i + 1);
    }
    if let Some(rest) = trimmed.strip_prefix(';') {
        return (Kind::Comment(rest.trim()), i + 1);
    }
    if is_solution_title(trimmed) {
        let mut lurd = String::new();
        if let Some((_, after)) = trimmed.rsplit_once(':') {
            if is_lurd_line(after) {
                lurd.extend(after.chars().filter(|c| !c.is_whitespace()));
            }
        }
        let mut next = i + 1;
        while next < lines.len() && is_lurd_line(lines[next]) {
            lurd.extend(lines[next].chars().filter(|c| !c.is_whitespace()));
            next += 1;
        }
        return (Kind::Solution { title: trimmed, lurd }, next);
    }
    if let Some((key, value)) = split_meta(trimmed) {
        if key.eq_ignore_ascii_case("comment") && value.is_empty() {
            if let Some(end) = block_ends[i] {
                let value = lines[i + 1..end].iter().map(|l| l.trim_end()).collect::<Vec<_>>().join("\n");
                return (Kind::Meta { key, value }, end + 1);
            }
        }
        let value = value.to_string();
        return (Kind::Meta { key, value }, i + 1);
    }
    let kind = if is_board_row(line) {
        Kind::Row(line)
    } else if is_damaged_row_shape(line) {
        Kind::Damaged(line)
    } else {
        Kind::Text(trimmed)
    };
    (kind, i + 1)
}

/// Splits a trimmed `Key: value` line. The key starts with a letter and holds only letters,
/// digits, `-`, `_` and spaces.
fn split_meta(trimmed: &str) -> Option<(&str, &str)> {
    let (key, value) = trimmed.split_once(':')?;
    let key = key.trim_end();
    let first = key.chars().next()?;
    let word_char = |c: char| c.is_alphanumeric() || matches!(c, '-' | '_' | ' ');
    (first.is_alphabetic() && key.chars().all(word_char)).then_some((key, value.trim()))
}

/// A trimmed line that opens a SOK solution: the word `Solution` (any case), then nothing, a
/// space, `(`, `/` or `:`.
fn is_solution_title(trimmed: &str) -> bool {
    const WORD: &str = "solution";
    match trimmed.get(..WORD.len()) {
        Some(head) if head.eq_ignore_ascii_case(WORD) => {
            matches!(trimmed[WORD.len()..].chars().next(), None | Some(' ' | '\t' | '(' | '/' | ':'))
        }
        _ => false,
    }
}

/// A line of moves: only `lurdLURD`, digits and white space, with at least one letter.
fn is_lurd_line(line: &str) -> bool {
    let is_move = |c: char| matches!(c, 'l' | 'u' | 'r' | 'd' | 'L' | 'U' | 'R' | 'D');
    line.chars().any(is_move) && line.chars().all(|c| is_move(c) || c.is_ascii_digit() || c.is_whitespace())
}

/// `Comment-End` or `Comment_End`, any case.
fn is_comment_end(key: &str) -> bool {
    key.eq_ignore_ascii_case("comment-end") || key.eq_ignore_ascii_case("comment_end")
}

/// A character allowed in a board row line (plain or run-length).
fn is_row_char(c: char) -> bool {
    matches!(c, '#' | ' ' | '-' | '_' | '.' | '$' | '*' | '@' | '+' | 'p' | 'P' | 'b' | 'B' | '\t' | '|')
        || c.is_ascii_digit()
}

/// A clean board row: contains `#` and only row characters.
fn is_board_row(line: &str) -> bool {
    let line = line.trim_end();
    line.contains('#') && line.chars().all(is_row_char)
}

/// A line with `#` that starts and ends with `#`, or is mostly board characters.
fn is_damaged_row_shape(line: &str) -> bool {
    let line = line.trim();
    if !line.contains('#') {
        return false;
    }
    if line.starts_with('#') && line.ends_with('#') {
        return true;
    }
    let (mut board, mut total) = (0usize, 0usize);
    for c in line.chars().filter(|c| !c.is_whitespace()) {
        total += 1;
        if is_row_char(c) {
            board += 1;
        }
    }
    board * 10 >= total * DAMAGED_ROW_TENTHS
}

/// Turns runs of damaged lines into rows when they touch a board row, else into text.
fn resolve_damaged(units: &mut [Unit<'_>]) {
    let mut i = 0;
    while i < units.len() {
        if !matches!(units[i].kind, Kind::Damaged(_)) {
            i += 1;
            continue;
        }
        let start = i;
        while i < units.len() && matches!(units[i].kind, Kind::Damaged(_)) {
            i += 1;
        }
        let is_row = |j: usize| matches!(units.get(j).map(|u| &u.kind), Some(Kind::Row(_)));
        let touches_board = (start > 0 && is_row(start - 1)) || is_row(i);
        for unit in &mut units[start..i] {
            if let Kind::Damaged(line) = unit.kind {
                unit.kind = if touches_board { Kind::Row(line) } else { Kind::Text(line.trim()) };
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Levels, metadata, titles, header

/// The lines between two boards (or before the first, or after the last).
#[derive(Debug)]
struct Gap {
    /// Unit indices of the gap.
    range: Range<usize>,
    /// 0-based index of the level whose board comes right before, if any.
    prev: Option<usize>,
    /// 0-based index of the level whose board comes right after, if any.
    next: Option<usize>,
    /// First and last blank unit of the gap.
    blanks: Option<(usize, usize)>,
    /// End of the run of metadata units the gap starts with.
    meta_prefix_end: usize,
}

impl Gap {
    /// The paragraph right after the previous board (up to the first blank line).
    fn attached(&self) -> Range<usize> {
        let end = self.blanks.map_or(self.range.end, |(first, _)| first);
        self.range.start..end
    }

    /// The paragraph right before the next board (after the last blank line).
    fn touching(&self) -> Range<usize> {
        let start = self.blanks.map_or(self.range.start, |(_, last)| last + 1);
        start..self.range.end
    }

    /// Who owns metadata unit `i`: the previous level, the next level, or (`None`) the header.
    fn meta_owner(&self, i: usize) -> Option<usize> {
        let (Some(prev), Some(next)) = (self.prev, self.next) else {
            return match self.prev {
                Some(prev) => Some(prev),
                None => self.next.filter(|_| self.touching().contains(&i)),
            };
        };
        if self.blanks.is_none() {
            // One paragraph touching both boards: leading metadata follows the previous board.
            return Some(if i < self.meta_prefix_end { prev } else { next });
        }
        if self.touching().contains(&i) {
            Some(next)
        } else {
            Some(prev)
        }
    }

    /// The next level's leading title line (the last comment/text line before its board) and
    /// whether it is strong (no blank line between it and the board).
    fn leading_title(&self, units: &[Unit<'_>]) -> Option<(usize, bool)> {
        let start = match (self.prev, self.blanks) {
            (Some(_), Some((first, _))) => first,
            _ => self.range.start,
        };
        let line = (start..self.range.end).rev().find(|&i| title_text(&units[i].kind).is_some())?;
        Some((line, self.touching().contains(&line)))
    }

    /// The previous level's trailing title line: the first plain text line after its board,
    /// when a blank line or the end of the file separates it from the next board.
    fn trailing_title(&self, units: &[Unit<'_>]) -> Option<usize> {
        self.prev?;
        if self.next.is_some() && self.blanks.is_none() {
            return None;
        }
        self.attached().find(|&i| matches!(units[i].kind, Kind::Text(_)))
    }
}

/// The text a unit offers as a title, if any.
fn title_text<'a>(kind: &Kind<'a>) -> Option<&'a str> {
    match *kind {
        Kind::Comment(text) | Kind::Text(text) if !text.is_empty() => Some(text),
        _ => None,
    }
}

/// Groups units into levels and assigns metadata, titles and the header.
fn assemble(units: &[Unit<'_>]) -> RawCollection {
    let boards = board_runs(units);
    let mut budget = MAX_FILE_CELLS;
    let mut levels: Vec<RawLevel> = boards
        .iter()
        .enumerate()
        .map(|(k, run)| build_level(k + 1, &units[run.clone()], &mut budget))
        .collect();
    let gaps = gaps(units, &boards);

    let mut header_meta = Vec::new();
    for gap in &gaps {
        for i in gap.range.clone() {
            match &units[i].kind {
                Kind::Meta { key, value } => {
                    let entry = (key.to_string(), value.clone());
                    match gap.meta_owner(i) {
                        Some(level) => levels[level].metadata.push(entry),
                        None => header_meta.push(i),
                    }
                }
                Kind::Solution { title, lurd } => {
                    if let Some(level) = gap.prev {
                        let section = SolutionSection {
                            title: title.to_string(),
                            lurd: lurd.clone(),
                            line: units[i].line + 1,
                        };
                        levels[level].solutions.push(section);
                    }
                }
                _ => {}
            }
        }
    }

    let mut first_leading = None;
    for (k, level) in levels.iter_mut().enumerate() {
        let leading = gaps[k].leading_title(units);
        let line = match leading {
            Some((line, true)) => Some(line),
            _ => gaps[k + 1].trailing_title(units).or(leading.map(|(line, _)| line)),
        };
        let from_meta = meta_title(&level.metadata);
        if k == 0 {
            // A strong leading line is the level's even when `Title:` overrides it.
            first_leading = leading
                .filter(|&(i, strong)| strong || (from_meta.is_none() && line == Some(i)))
                .map(|(i, _)| i);
        }
        level.title = from_meta.or_else(|| line.and_then(|i| title_text(&units[i].kind))).map(str::to_string);
    }

    let header =
        gaps.first().map(|gap| header_lines(units, gap, &header_meta, first_leading)).unwrap_or_default();
    RawCollection { header, levels }
}

/// The first non-empty `Title` metadata value.
fn meta_title(metadata: &[(String, String)]) -> Option<&str> {
    metadata
        .iter()
        .find(|(key, value)| key.eq_ignore_ascii_case("title") && !value.is_empty())
        .map(|(_, value)| value.as_str())
}

/// Unit ranges of the boards: maximal runs of row units.
fn board_runs(units: &[Unit<'_>]) -> Vec<Range<usize>> {
    let mut runs: Vec<Range<usize>> = Vec::new();
    for (i, unit) in units.iter().enumerate() {
        if matches!(unit.kind, Kind::Row(_)) {
            match runs.last_mut() {
                Some(run) if run.end == i => run.end = i + 1,
                _ => runs.push(i..i + 1),
            }
        }
    }
    runs
}

/// The gaps around the boards: one before each board and one after the last.
fn gaps(units: &[Unit<'_>], boards: &[Range<usize>]) -> Vec<Gap> {
    (0..=boards.len())
        .map(|k| {
            let start = if k == 0 { 0 } else { boards[k - 1].end };
            let end = boards.get(k).map_or(units.len(), |run| run.start);
            let mut blank = (start..end).filter(|&i| units[i].kind == Kind::Blank);
            let first = blank.next();
            let blanks = first.map(|first| (first, blank.next_back().unwrap_or(first)));
            let meta_prefix_end =
                (start..end).find(|&i| !matches!(units[i].kind, Kind::Meta { .. })).unwrap_or(end);
            Gap {
                range: start..end,
                prev: k.checked_sub(1),
                next: (k < boards.len()).then_some(k),
                blanks,
                meta_prefix_end,
            }
        })
        .collect()
}

/// The header: comment, text and metadata lines before the first board that belong to no level.
fn header_lines(
    units: &[Unit<'_>],
    gap: &Gap,
    header_meta: &[usize],
    first_leading: Option<usize>,
) -> Vec<String> {
    let mut header: Vec<String> = gap
        .range
        .clone()
        .filter(|&i| Some(i) != first_leading)
        .filter_map(|i| match &units[i].kind {
            Kind::Comment(text) | Kind::Text(text) => Some(text.to_string()),
            Kind::Meta { key, value } if header_meta.binary_search(&i).is_ok() => {
                Some(format!("{key}: {value}").trim_end().to_string())
            }
            _ => None,
        })
        .collect();
    let end = header.iter().rposition(|l| !l.is_empty()).map_or(0, |p| p + 1);
    header.truncate(end);
    let start = header.iter().position(|l| !l.is_empty()).unwrap_or(0);
    header.drain(..start);
    header
}

#[cfg(test)]
mod tests;
