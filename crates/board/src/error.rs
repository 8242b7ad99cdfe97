//! Errors for level files: whole-file problems and problems with one level.
//!
//! Which cases are errors and which are merely unsolvable:
//!
//! | case | verdict |
//! |---|---|
//! | empty file, no board rows at all, UTF-16 text | [`ParseError`] (the whole file) |
//! | unknown character in a board row, bad run-length count | [`LevelError`] |
//! | no player, several players, no boxes, boxes != goals | [`LevelError`] |
//! | the player's area open to the edge of the board | [`LevelError`] |
//! | more floor cells, boxes or rows than the representation supports | [`LevelError`] |
//! | a box or an empty goal walled off from the player's area | valid, reported unsolvable |
//! | a box on a goal (`*`) walled off from the player's area | valid: decoration, dropped |
//! | every box already on a goal | valid, solved by the empty solution |

use std::fmt;

/// A problem with a whole file: nothing in it can be read as a level.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseError {
    /// The file holds no bytes, or only white space.
    #[error("the file is empty")]
    Empty,
    /// The file holds text but no board rows.
    #[error("no level found: no line looks like a board row (rows are made of # $ . * @ + and spaces)")]
    NoLevel,
    /// The file starts with a UTF-16 byte-order mark or is full of NUL bytes.
    #[error("the file looks like UTF-16 text; save it as UTF-8 or Latin-1")]
    Utf16,
}

/// A problem with one level of a file. The file name is added by the caller that knows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LevelError {
    /// 1-based position of the level in its file.
    pub index: usize,
    /// The level's title, when it has one.
    pub title: Option<String>,
    /// 1-based line of the file the problem was found on, when it is tied to one.
    pub line: Option<usize>,
    /// 1-based column on that line, when it is tied to one.
    pub column: Option<usize>,
    /// What is wrong.
    pub kind: LevelErrorKind,
}

impl std::error::Error for LevelError {}

impl fmt::Display for LevelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(line) = self.line {
            write!(f, "line {line}")?;
            if let Some(col) = self.column {
                write!(f, ", column {col}")?;
            }
            f.write_str(": ")?;
        }
        write!(f, "level {}", self.index)?;
        if let Some(title) = &self.title {
            write!(f, " ({title:?})")?;
        }
        write!(f, ": {}", self.kind)
    }
}

/// The kinds of problem a single level can have.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LevelErrorKind {
    /// A board row holds a character that is not part of the XSB alphabet.
    #[error("unknown character {0:?} in a board row")]
    UnknownChar(char),
    /// A run-length count is zero, has no character after it, or is absurdly large.
    #[error("bad run-length encoding: {0}")]
    BadRunLength(String),
    /// No `@` or `+`.
    #[error("no player (@ or +)")]
    NoPlayer,
    /// More than one `@`/`+`.
    #[error("{count} players (@ or +); a level has exactly one (the second is here)")]
    SeveralPlayers {
        /// How many players the level has.
        count: usize,
    },
    /// No box in the player's area.
    #[error("no boxes")]
    NoBoxes,
    /// Box and goal counts differ.
    #[error("{boxes} boxes but {goals} goals")]
    BoxGoalMismatch {
        /// Boxes counted (decorations walled off from the player excluded).
        boxes: usize,
        /// Goals counted (decorations walled off from the player excluded).
        goals: usize,
    },
    /// The player can walk off the board: the walls do not close its area.
    #[error("the player's area is open to the edge of the board (no wall closes it here)")]
    OpenToEdge,
    /// The text holds no level at all.
    #[error("{0}")]
    Unreadable(ParseError),
    /// The level is larger than the cell representation supports.
    #[error("too large: {actual} {what}, the most bisolve supports is {limit}")]
    TooLarge {
        /// What is counted, in the plural (`"rows"`, `"boxes"`, ...).
        what: &'static str,
        /// Its size in this level.
        actual: usize,
        /// The limit.
        limit: usize,
    },
}
