//! One level's board rows: run-length counts, tabs, row separators and the size limits.

use std::iter;

use super::{Kind, RawLevel, Unit, MAX_COLUMNS, MAX_FILE_CELLS, MAX_ROWS, TAB_WIDTH};
use crate::error::LevelErrorKind;

/// Builds one level's rows from its board-row units.
pub(super) fn build_level(index: usize, rows: &[Unit<'_>], budget: &mut usize) -> RawLevel {
    let mut builder =
        LevelBuilder { level: RawLevel { index, ..RawLevel::default() }, total_rows: 0, budget };
    for unit in rows {
        if let Kind::Row(line) = unit.kind {
            builder.add_line(line, unit.line + 1);
        }
    }
    builder.finish()
}

/// A run-length count being read.
#[derive(Debug, Clone, Copy)]
struct Count {
    /// The value, saturating.
    value: usize,
    /// 1-based column of its first digit.
    column: usize,
    /// Byte range of its digits in the line.
    start: usize,
    end: usize,
}

/// Collects one level's rows and its first error.
#[derive(Debug)]
struct LevelBuilder<'b> {
    level: RawLevel,
    /// Rows seen, including those past [`MAX_ROWS`] that were not stored.
    total_rows: usize,
    /// Row characters the file may still store.
    budget: &'b mut usize,
}

impl LevelBuilder<'_> {
    /// Records a problem unless the level already has one.
    fn set_error(&mut self, kind: LevelErrorKind, line: usize, column: usize) {
        if self.level.error.is_none() {
            self.level.error = Some((kind, line, column));
        }
    }

    /// Most characters the next row may store: none once the level has all its rows.
    fn row_cap(&self) -> usize {
        if self.total_rows >= MAX_ROWS {
            0
        } else {
            (*self.budget).min(MAX_COLUMNS)
        }
    }

    /// Expands one board-row line into rows.
    fn add_line(&mut self, line: &str, line_no: usize) {
        let line = line.trim_end();
        if self.total_rows >= MAX_ROWS {
            // Already too many rows: only count the rest.
            let bars = line.matches('|').count();
            let rows = bars + 1 - usize::from(line.ends_with('|'));
            self.total_rows = self.total_rows.saturating_add(rows);
            self.too_many_rows(line_no);
            return;
        }
        let mut row = RowBuilder::new(self.row_cap());
        let mut count: Option<Count> = None;
        let mut after_bar = false;
        for (column, (pos, ch)) in (1..).zip(line.char_indices()) {
            if let Some(digit) = ch.to_digit(10) {
                count = Some(extend_count(count, digit, column, pos));
                continue;
            }
            after_bar = ch == '|';
            if after_bar {
                if let Some(c) = count.take() {
                    self.count_error(line, c, line_no, "has no character after it");
                }
                let done = std::mem::replace(&mut row, RowBuilder::new(self.row_cap()));
                self.push_row(done, line_no);
                continue;
            }
            let n = match count.take() {
                None => 1,
                Some(c) => match self.check_count(line, c, row.width, line_no) {
                    Some(n) => n,
                    None => continue,
                },
            };
            match normalize(ch) {
                Some('\t') => row.push_tabs(n, column),
                Some(c) => row.push_run(c, n, column),
                None => {
                    self.set_error(LevelErrorKind::UnknownChar(ch), line_no, column);
                    row.push_run(' ', n, column);
                }
            }
        }
        if let Some(c) = count {
            self.count_error(line, c, line_no, "has no character after it");
        }
        if !(after_bar && row.width == 0) {
            self.push_row(row, line_no);
        }
    }

    /// The repeat count to use, or `None` (and an error) when it is zero or too large.
    fn check_count(&mut self, line: &str, c: Count, width: usize, line_no: usize) -> Option<usize> {
        if c.value == 0 {
            self.count_error(line, c, line_no, "repeats nothing");
            return None;
        }
        if width.saturating_add(c.value) > MAX_COLUMNS {
            let why = format!("makes the row wider than {MAX_COLUMNS} columns");
            self.count_error(line, c, line_no, &why);
            return None;
        }
        Some(c.value)
    }

    /// Records a [`LevelErrorKind::BadRunLength`] for count `c`.
    fn count_error(&mut self, line: &str, c: Count, line_no: usize, why: &str) {
        let digits = line.get(c.start..c.end).unwrap_or("");
        let shown = if digits.len() > 24 { format!("{}...", &digits[..20]) } else { digits.to_string() };
        let message = format!("count {shown} {why}");
        self.set_error(LevelErrorKind::BadRunLength(message), line_no, c.column);
    }

    /// Records that the level has more than [`MAX_ROWS`] rows (the count is final in `finish`).
    fn too_many_rows(&mut self, line_no: usize) {
        let kind = LevelErrorKind::TooLarge { what: "rows", actual: self.total_rows, limit: MAX_ROWS };
        self.set_error(kind, line_no, 1);
    }

    /// Stores a finished row, enforcing the row, column and file limits.
    fn push_row(&mut self, row: RowBuilder, line_no: usize) {
        self.total_rows = self.total_rows.saturating_add(1);
        if self.total_rows > MAX_ROWS {
            self.too_many_rows(line_no);
            return;
        }
        if let Some(column) = row.overflow_column {
            let kind = LevelErrorKind::TooLarge { what: "columns", actual: row.width, limit: MAX_COLUMNS };
            self.set_error(kind, line_no, column);
        } else if row.width > row.cap {
            let kind = LevelErrorKind::TooLarge {
                what: "cells in the file",
                actual: (MAX_FILE_CELLS - *self.budget).saturating_add(row.width),
                limit: MAX_FILE_CELLS,
            };
            self.set_error(kind, line_no, 1);
        }
        *self.budget = self.budget.saturating_sub(row.text.len());
        let mut text = row.text;
        text.truncate(text.trim_end().len());
        self.level.rows.push(text);
        self.level.row_lines.push(line_no);
    }

    /// The finished level; a row-count error gets the final count.
    fn finish(mut self) -> RawLevel {
        if let Some((LevelErrorKind::TooLarge { what: "rows", actual, .. }, _, _)) = &mut self.level.error {
            *actual = self.total_rows;
        }
        self.level
    }
}

/// Adds a digit to the count being read (or starts one).
fn extend_count(count: Option<Count>, digit: u32, column: usize, pos: usize) -> Count {
    let digit = digit as usize;
    match count {
        None => Count { value: digit, column, start: pos, end: pos + 1 },
        Some(c) => Count { value: c.value.saturating_mul(10).saturating_add(digit), end: pos + 1, ..c },
    }
}

/// The XSB character a row character stands for (tab stays tab); `None` for foreign ones.
fn normalize(ch: char) -> Option<char> {
    Some(match ch {
        '#' | '.' | '$' | '*' | '@' | '+' | '\t' => ch,
        ' ' | '-' | '_' => ' ',
        'p' => '@',
        'P' => '+',
        'b' => '$',
        'B' => '*',
        _ => return None,
    })
}

/// One row being expanded; stores at most `cap` characters but counts them all.
#[derive(Debug)]
struct RowBuilder {
    text: String,
    /// Columns so far, including those not stored (saturating).
    width: usize,
    /// Most characters to store.
    cap: usize,
    /// Column of the line where the row went past [`MAX_COLUMNS`].
    overflow_column: Option<usize>,
}

impl RowBuilder {
    /// A new row that stores at most `cap` characters.
    fn new(cap: usize) -> Self {
        Self { text: String::new(), width: 0, cap, overflow_column: None }
    }

    /// Appends `n` copies of `ch`, read at `column` of the line.
    fn push_run(&mut self, ch: char, n: usize, column: usize) {
        let new_width = self.width.saturating_add(n);
        if new_width > MAX_COLUMNS && self.overflow_column.is_none() {
            self.overflow_column = Some(column);
        }
        let stored = new_width.min(self.cap) - self.width.min(self.cap);
        self.text.extend(iter::repeat_n(ch, stored));
        self.width = new_width;
    }

    /// Appends `n` tabs: each moves to the next multiple of [`TAB_WIDTH`].
    fn push_tabs(&mut self, n: usize, column: usize) {
        if n > 0 {
            let first = TAB_WIDTH - self.width % TAB_WIDTH;
            let spaces = (n - 1).saturating_mul(TAB_WIDTH).saturating_add(first);
            self.push_run(' ', spaces, column);
        }
    }
}
