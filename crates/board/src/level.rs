//! Levels: validation and normalization of parsed text, and whole collections.

use crate::board::{Board, BoardSpec, Cell, MAX_BOXES, MAX_CELLS};
use crate::error::{LevelError, LevelErrorKind, ParseError};
use crate::parse::{parse_collection, RawCollection, RawLevel, SolutionSection};
use crate::state::State;

/// The most rows or columns a board may have.
pub const MAX_SIDE: usize = 4096;

/// A valid level: its text, its static board and its start position.
#[derive(Debug, Clone)]
pub struct Level {
    index: usize,
    title: Option<String>,
    metadata: Vec<(String, String)>,
    solutions: Vec<SolutionSection>,
    rows: Vec<String>,
    first_line: usize,
    board: Board,
    start: State,
    walled_off: Option<String>,
}

/// One entry of a collection: a valid level or the reason it is not one.
#[derive(Debug, Clone)]
pub struct LevelEntry {
    /// 1-based position in the file.
    pub index: usize,
    /// The title, when the file gives one.
    pub title: Option<String>,
    /// The level, or what is wrong with it.
    pub level: Result<Level, LevelError>,
}

/// A parsed level file.
#[derive(Debug, Clone)]
pub struct Collection {
    /// Comment lines before the first level.
    pub header: Vec<String>,
    /// Every level of the file, valid or not, in file order.
    pub entries: Vec<LevelEntry>,
}

impl Collection {
    /// Finds a level by 1-based index (`"3"`) or by title (exact, then case-insensitive).
    pub fn find(&self, key: &str) -> Option<&LevelEntry> {
        let titles: Vec<Option<&str>> = self.entries.iter().map(|e| e.title.as_deref()).collect();
        find_position(&titles, key).map(|i| &self.entries[i])
    }
}

impl RawCollection {
    /// Finds a level by 1-based index or by title, as [`Collection::find`] does, without
    /// validating any level. With [`LevelEntry::from_raw`], a program that works through a
    /// large file one level at a time holds only one level's board at a time.
    pub fn find(&self, key: &str) -> Option<&RawLevel> {
        let titles: Vec<Option<&str>> = self.levels.iter().map(|l| l.title.as_deref()).collect();
        find_position(&titles, key).map(|i| &self.levels[i])
    }
}

impl LevelEntry {
    /// Validates one parsed level and builds its board.
    pub fn from_raw(raw: RawLevel) -> LevelEntry {
        LevelEntry { index: raw.index, title: raw.title.clone(), level: Level::from_raw(raw) }
    }
}

/// The 0-based position of the level `key` names among levels with these titles: a title
/// that is not a number, then a 1-based index, then a title in any case.
fn find_position(titles: &[Option<&str>], key: &str) -> Option<usize> {
    let key = key.trim();
    if key.parse::<usize>().is_err() {
        if let Some(i) = titles.iter().position(|&t| t == Some(key)) {
            return Some(i);
        }
    }
    if let Ok(i) = key.parse::<usize>() {
        if (1..=titles.len()).contains(&i) {
            return Some(i - 1);
        }
    }
    titles.iter().position(|t| t.is_some_and(|t| t.eq_ignore_ascii_case(key)))
}

/// Reads a level file: every level, valid or not. Fails only when nothing in the file can be
/// read as a level.
pub fn load_collection(bytes: &[u8]) -> Result<Collection, ParseError> {
    let raw = parse_collection(bytes)?;
    let entries = raw.levels.into_iter().map(LevelEntry::from_raw).collect();
    Ok(Collection { header: raw.header, entries })
}

/// What a grid square holds in the level text.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Square {
    wall: bool,
    /// Inside the rows as written (a space past the end of a short row is outside).
    written: bool,
    goal: bool,
    boxed: bool,
    player: bool,
}

impl Level {
    /// Validates and normalizes one parsed level (see [`crate::LevelErrorKind`] for what is
    /// an error and what is merely unsolvable).
    pub fn from_raw(raw: RawLevel) -> Result<Level, LevelError> {
        let RawLevel { index, title, metadata, rows, row_lines, error, solutions } = raw;
        let fail = |kind: LevelErrorKind, line: Option<usize>, column: Option<usize>| LevelError {
            index,
            title: title.clone(),
            line,
            column,
            kind,
        };
        if let Some((kind, line, column)) = error {
            return Err(fail(kind, Some(line), Some(column)));
        }
        let first_line = row_lines.first().copied().unwrap_or(0);
        let line_of = |y: usize| row_lines.get(y).copied();
        let height = rows.len();
        let width = rows.iter().map(|r| r.chars().count()).max().unwrap_or(0);
        if height > MAX_SIDE {
            return Err(fail(
                LevelErrorKind::TooLarge { what: "rows", actual: height, limit: MAX_SIDE },
                Some(first_line),
                None,
            ));
        }
        if width > MAX_SIDE {
            return Err(fail(
                LevelErrorKind::TooLarge { what: "columns", actual: width, limit: MAX_SIDE },
                Some(first_line),
                None,
            ));
        }
        // Read the grid; the parser guarantees the alphabet, anything else is a wall.
        let blank = Square { wall: false, written: false, goal: false, boxed: false, player: false };
        let mut grid = vec![blank; width * height];
        let mut players = Vec::new();
        for (y, row) in rows.iter().enumerate() {
            for (x, ch) in row.chars().enumerate() {
                let sq = &mut grid[y * width + x];
                sq.written = true;
                match ch {
                    ' ' => {}
                    '.' => sq.goal = true,
                    '$' => sq.boxed = true,
                    '*' => (sq.goal, sq.boxed) = (true, true),
                    '@' => sq.player = true,
                    '+' => (sq.goal, sq.player) = (true, true),
                    '#' => sq.wall = true,
                    other => return Err(fail(LevelErrorKind::UnknownChar(other), line_of(y), Some(x + 1))),
                }
                if sq.player {
                    players.push((x, y));
                }
            }
        }
        let &(px, py) = match players.as_slice() {
            [] => return Err(fail(LevelErrorKind::NoPlayer, Some(first_line), None)),
            [one] => one,
            [_, (x, y), ..] => {
                return Err(fail(
                    LevelErrorKind::SeveralPlayers { count: players.len() },
                    line_of(*y),
                    Some(x + 1),
                ))
            }
        };
        // The player's area: every non-wall square reachable from the player, walking
        // through boxes. Reaching the border or an unwritten square means it is open.
        let mut area = vec![false; width * height];
        let mut stack = vec![(px, py)];
        area[py * width + px] = true;
        while let Some((x, y)) = stack.pop() {
            if !grid[y * width + x].written || x == 0 || y == 0 || x + 1 == width || y + 1 == height {
                return Err(fail(LevelErrorKind::OpenToEdge, line_of(y), Some(x + 1)));
            }
            for (nx, ny) in [(x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)] {
                let i = ny * width + nx;
                if !area[i] && !grid[i].wall {
                    area[i] = true;
                    stack.push((nx, ny));
                }
            }
        }
        // Count boxes and goals; `*` outside the area is decoration, `$` or `.` there makes
        // the level unsolvable but not invalid.
        let (mut boxes, mut goals) = (Vec::new(), Vec::new());
        let (mut n_boxes, mut n_goals) = (0usize, 0usize);
        let mut walled_off = None;
        for (i, sq) in grid.iter().enumerate() {
            if area[i] {
                if sq.boxed {
                    boxes.push(i);
                }
                if sq.goal {
                    goals.push(i);
                }
            } else if sq.boxed != sq.goal && walled_off.is_none() {
                let what = if sq.boxed { "a box" } else { "a goal" };
                let (x, y) = (i % width, i / width);
                let line = line_of(y).map_or(String::new(), |l| format!(" on line {l}"));
                walled_off = Some(format!("{what} at column {}{line} is walled off from the player", x + 1));
            }
            if !(area[i] || sq.boxed == sq.goal) {
                n_boxes += usize::from(sq.boxed);
                n_goals += usize::from(sq.goal);
            }
        }
        n_boxes += boxes.len();
        n_goals += goals.len();
        if n_boxes == 0 {
            return Err(fail(LevelErrorKind::NoBoxes, Some(first_line), None));
        }
        if n_boxes != n_goals {
            return Err(fail(
                LevelErrorKind::BoxGoalMismatch { boxes: n_boxes, goals: n_goals },
                Some(first_line),
                None,
            ));
        }
        let n_cells = area.iter().filter(|&&a| a).count();
        if n_cells > MAX_CELLS {
            return Err(fail(
                LevelErrorKind::TooLarge {
                    what: "floor squares in the player's area",
                    actual: n_cells,
                    limit: MAX_CELLS,
                },
                Some(first_line),
                None,
            ));
        }
        if n_boxes > MAX_BOXES {
            return Err(fail(
                LevelErrorKind::TooLarge { what: "boxes", actual: n_boxes, limit: MAX_BOXES },
                Some(first_line),
                None,
            ));
        }
        // A walled-off box or goal leaves the area unbalanced; keep the board consistent
        // (as many goals as boxes) by dropping the extra ones from the analysis. The level
        // is reported unsolvable before any search.
        if walled_off.is_some() {
            let k = boxes.len().min(goals.len());
            boxes.truncate(k);
            goals.truncate(k);
        }
        let player_pos = py * width + px;
        let spec = BoardSpec {
            width,
            height,
            floor: area,
            wall_char: grid.iter().map(|s| s.wall).collect(),
            goals,
            boxes: boxes.clone(),
        };
        let board = Board::new(spec);
        let cell =
            |pos: usize| -> Cell { board.cell(pos % width, pos / width).expect("area squares are cells") };
        let start = State::new(boxes.iter().map(|&p| cell(p)).collect(), cell(player_pos));
        Ok(Level { index, title, metadata, solutions, rows, first_line, board, start, walled_off })
    }

    /// Parses text holding exactly one level (the first one, if there are several).
    pub fn parse(text: &str) -> Result<Level, LevelError> {
        let unreadable = |e: ParseError| LevelError {
            index: 1,
            title: None,
            line: None,
            column: None,
            kind: LevelErrorKind::Unreadable(e),
        };
        let raw = parse_collection(text.as_bytes()).map_err(unreadable)?;
        let first = raw.levels.into_iter().next().ok_or_else(|| unreadable(ParseError::NoLevel))?;
        Level::from_raw(first)
    }

    /// 1-based position in its file.
    pub fn index(&self) -> usize {
        self.index
    }

    /// The title, if the file gives one.
    pub fn title(&self) -> Option<&str> {
        self.title.as_deref()
    }

    /// A name for messages: the title, or `#index`.
    pub fn name(&self) -> String {
        self.title.clone().unwrap_or_else(|| format!("#{}", self.index))
    }

    /// SOK metadata (`Author`, `Comment`, ...), in file order.
    pub fn metadata(&self) -> &[(String, String)] {
        &self.metadata
    }

    /// SOK `Solution` sections written under the board, in file order, as read (not replayed).
    pub fn solutions(&self) -> &[SolutionSection] {
        &self.solutions
    }

    /// The board rows as read (plain XSB).
    pub fn rows(&self) -> &[String] {
        &self.rows
    }

    /// 1-based line of the first board row in the file.
    pub fn first_line(&self) -> usize {
        self.first_line
    }

    /// The static board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The start position.
    pub fn start(&self) -> &State {
        &self.start
    }

    /// Why the level cannot be solved whatever the search does, when its text alone shows it
    /// (a box or goal walled off from the player).
    pub fn walled_off(&self) -> Option<&str> {
        self.walled_off.as_deref()
    }
}
