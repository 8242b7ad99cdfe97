//! Writing level collections: SOK with `Solution` sections, or plain XSB; run-length LURD.
//!
//! The SOK layout is the one other Sokoban programs read (and `bisolve_board::parse` reads
//! back, solutions included):
//!
//! ```text
//! ; header comment lines (when the first level has a title)
//!
//! #####
//! #@$.#
//! #####
//! Title: One
//! Author: ...
//!
//! Solution (moves 2, pushes 1)
//! rR
//! ```
//!
//! Each level is its board, then its notes (`Title:` first, then the other metadata it had,
//! `Comment:` blocks closed by `Comment-End:`), then a blank line and a `Solution (moves M,
//! pushes P)` title line with the moves below it, 70 characters a line. The XSB layout puts a
//! `; title` line above each board and the notes in `;` comments below it, and leaves the
//! solutions out.

use std::fmt::Write as _;

/// How long a line of moves may be.
const LURD_LINE: usize = 70;

/// One level to write.
#[derive(Clone, Debug)]
pub struct SokLevel {
    /// Its title, if any.
    pub title: Option<String>,
    /// The board rows (plain XSB).
    pub rows: Vec<String>,
    /// SOK metadata to keep (a `Title` entry is left out: the title is written from `title`).
    pub metadata: Vec<(String, String)>,
    /// A solution, replayed before it gets here.
    pub solution: Option<SokSolution>,
}

/// A solution to write under its level.
#[derive(Clone, Debug)]
pub struct SokSolution {
    /// LURD.
    pub lurd: String,
    /// Player moves.
    pub moves: usize,
    /// Pushes.
    pub pushes: usize,
}

/// The layout to write.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    /// SOK: `Title:` under the board, `Solution` sections.
    Sok,
    /// XSB: a `; title` line above the board, no solutions.
    Xsb,
}

/// Writes a collection. `header` lines are written as `;` comments at the top when the first
/// level has a title (otherwise a reader would take the last header line for its title);
/// `rle` writes the moves run-length encoded.
pub fn write_collection(header: &[String], levels: &[SokLevel], layout: Layout, rle: bool) -> String {
    let mut out = String::new();
    if levels.first().is_some_and(|l| l.title.is_some()) && !header.is_empty() {
        for line in header {
            let line = line.trim_end();
            out.push_str(if line.is_empty() { ";\n" } else { "; " });
            if !line.is_empty() {
                let _ = writeln!(out, "{}", one_line(line));
            }
        }
        out.push('\n');
    }
    for (i, level) in levels.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        match layout {
            Layout::Sok => write_sok_level(&mut out, level, rle),
            Layout::Xsb => {
                if let Some(title) = &level.title {
                    let _ = writeln!(out, "; {}", one_line(title));
                }
                for row in &level.rows {
                    let _ = writeln!(out, "{row}");
                }
                for (key, value) in &level.metadata {
                    if key.eq_ignore_ascii_case("title") {
                        continue;
                    }
                    let prefix =
                        if key.eq_ignore_ascii_case("comment") { String::new() } else { format!("{key}: ") };
                    for (i, line) in value.lines().enumerate() {
                        let lead = if i == 0 { prefix.as_str() } else { "" };
                        let _ = writeln!(out, "; {lead}{line}");
                    }
                }
            }
        }
    }
    out
}

fn write_sok_level(out: &mut String, level: &SokLevel, rle: bool) {
    for row in &level.rows {
        let _ = writeln!(out, "{row}");
    }
    if let Some(title) = &level.title {
        let _ = writeln!(out, "Title: {}", one_line(title));
    }
    for (key, value) in &level.metadata {
        if key.eq_ignore_ascii_case("title") {
            continue;
        }
        if value.contains('\n') {
            let _ = writeln!(out, "{key}:\n{value}\nComment-End:");
        } else if !(value.is_empty() && key.eq_ignore_ascii_case("comment")) {
            // An empty `Comment:` would open a block up to some later `Comment-End:`.
            let _ = writeln!(out, "{key}: {value}");
        }
    }
    if let Some(s) = &level.solution {
        let _ = writeln!(out, "\nSolution (moves {}, pushes {})", s.moves, s.pushes);
        let text = if rle { rle_lurd(&s.lurd) } else { s.lurd.clone() };
        for line in wrap(&text, LURD_LINE) {
            let _ = writeln!(out, "{line}");
        }
    }
}

/// A title or header line on one line.
fn one_line(text: &str) -> String {
    text.replace(['\n', '\r'], " ")
}

/// Run-length encoded LURD: a run of two or more equal letters becomes its length and the
/// letter (`lllUrr` -> `3lU2r`).
pub fn rle_lurd(lurd: &str) -> String {
    let mut out = String::new();
    let mut chars = lurd.chars().peekable();
    while let Some(c) = chars.next() {
        let mut n = 1;
        while chars.next_if_eq(&c).is_some() {
            n += 1;
        }
        if n > 1 {
            let _ = write!(out, "{n}");
        }
        out.push(c);
    }
    out
}

/// Splits moves into lines of at most `width` characters, never between a count and its letter.
fn wrap(text: &str, width: usize) -> Vec<&str> {
    let mut lines = Vec::new();
    let mut start = 0;
    let mut last_break = 0;
    for (i, c) in text.char_indices() {
        if c.is_ascii_alphabetic() {
            let end = i + c.len_utf8();
            if end - start > width && last_break > start {
                lines.push(&text[start..last_break]);
                start = last_break;
            }
            last_break = end;
        }
    }
    if start < text.len() {
        lines.push(&text[start..]);
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use bisolve_board::load_collection;

    #[test]
    fn run_length() {
        assert_eq!(rle_lurd("lllUrr"), "3lU2r");
        assert_eq!(rle_lurd("lLlL"), "lLlL");
        assert_eq!(rle_lurd(""), "");
        assert_eq!(rle_lurd(&"R".repeat(12)), "12R");
    }

    #[test]
    fn wrapping_keeps_counts_with_letters() {
        let text = "12R3lU".repeat(20);
        let lines = wrap(&text, 10);
        assert!(lines.iter().all(|l| l.len() <= 10), "{lines:?}");
        assert_eq!(lines.concat(), text);
        assert!(lines.iter().all(|l| l.ends_with(|c: char| c.is_ascii_alphabetic())));
        assert_eq!(wrap("", 10), Vec::<&str>::new());
    }

    fn level(title: Option<&str>, lurd: Option<&str>) -> SokLevel {
        SokLevel {
            title: title.map(str::to_string),
            rows: vec!["######".into(), "#@$ .#".into(), "######".into()],
            metadata: vec![
                ("Title".into(), "old".into()),
                ("Author".into(), "Ann".into()),
                ("Comment".into(), "two\n\nlines".into()),
                ("Comment".into(), String::new()),
            ],
            solution: lurd.map(|l| SokSolution { lurd: l.into(), moves: l.len(), pushes: 2 }),
        }
    }

    #[test]
    fn sok_reads_back() {
        let levels =
            [level(Some("One"), Some("RR")), level(None, None), level(Some("Three: #3"), Some("RR"))];
        for rle in [false, true] {
            let text = write_collection(&["My set".into()], &levels, Layout::Sok, rle);
            let c = load_collection(text.as_bytes()).expect("parses");
            assert_eq!(c.header, ["My set"], "{text}");
            let titles: Vec<Option<&str>> = c.entries.iter().map(|e| e.title.as_deref()).collect();
            assert_eq!(titles, [Some("One"), None, Some("Three: #3")], "{text}");
            for (entry, written) in c.entries.iter().zip(&levels) {
                let level = entry.level.as_ref().expect("valid");
                assert_eq!(level.rows(), written.rows);
                let lurd: Vec<&str> = level.solutions().iter().map(|s| s.lurd.as_str()).collect();
                let expected: Vec<&str> = match &written.solution {
                    Some(_) if rle => vec!["2R"],
                    Some(s) => vec![s.lurd.as_str()],
                    None => vec![],
                };
                assert_eq!(lurd, expected, "{text}");
                assert!(level.metadata().contains(&("Comment".into(), "two\n\nlines".into())));
                assert!(level.metadata().contains(&("Author".into(), "Ann".into())));
            }
        }
    }

    #[test]
    fn xsb_layout() {
        let text = write_collection(
            &[],
            &[level(Some("A"), Some("RR")), level(Some("B"), None)],
            Layout::Xsb,
            false,
        );
        let notes = "; Author: Ann\n; two\n; \n; lines\n";
        assert_eq!(
            text,
            format!("; A\n######\n#@$ .#\n######\n{notes}\n; B\n######\n#@$ .#\n######\n{notes}")
        );
        let c = load_collection(text.as_bytes()).expect("parses");
        let titles: Vec<Option<&str>> = c.entries.iter().map(|e| e.title.as_deref()).collect();
        assert_eq!(titles, [Some("A"), Some("B")]);
    }
}
