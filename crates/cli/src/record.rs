//! Per-level results as `--json` records, and the independent check of every solution.

use std::path::Path;

use anyhow::Result;
use bisolve_board::moves::{parse_lurd, replay, ReplayStats};
use bisolve_board::render::{render_state, Overlay};
use bisolve_board::{Board, Level, LevelEntry};
use bisolve_engine::{Outcome, Report, SideStats};

use bisolve_engine::Plan;
use serde::Serialize;

/// One line of `--json` output.
#[derive(Debug, Serialize)]
pub struct LevelRecord {
    pub file: String,
    pub index: usize,
    pub title: Option<String>,
    pub status: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub solution: Option<String>,
    pub moves: Option<usize>,
    pub pushes: Option<usize>,
    /// Box lines of the solution (see [`bisolve_board::moves::ReplayStats`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub box_lines: Option<usize>,
    /// Box changes of the solution.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub box_changes: Option<usize>,
    pub seconds: f64,
    pub states: u64,
    pub expanded: u64,
    pub visited: usize,
    pub states_per_second: f64,
    pub bytes_per_state: f64,
    pub threads: usize,
    pub strategy: String,
    /// The search options as they ran (see `bisolve options`), on the solve command's records.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub options: Option<serde_json::Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub found_by: Option<&'static str>,
    /// The solution as the search found it, when the optimizer shortened it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub optimized: Option<Shortened>,
    /// `pushes` or `moves` when an optimal search (`--optimal`) proved the solution optimal.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub optimal: Option<&'static str>,
    /// With `--optimal`, when not proven: what every solution needs at least, in the
    /// objective's first length (pushes or moves).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lower_bound: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub forward: Option<SideRecord>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub backward: Option<SideRecord>,
    pub table_bytes: usize,
    pub open_bytes: usize,
}

/// A solution the optimizer shortened: its length as found, and the seconds the optimizer
/// took.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Shortened {
    pub moves: usize,
    pub pushes: usize,
    pub seconds: f64,
}

/// Effort of one direction in `--json` output.
#[derive(Debug, Serialize)]
pub struct SideRecord {
    pub expanded: u64,
    pub generated: u64,
    pub duplicates: u64,
    /// The smallest lower bound of any state this side generated.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub closest_h: Option<u32>,
    /// The fewest boxes left to place in any state's feature cell (feature-cell orderings).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub closest_unplaced: Option<u32>,
    /// Bridges run towards the other direction's closest state and the nodes they expanded.
    #[serde(skip_serializing_if = "is_zero")]
    pub bridges: u64,
    #[serde(skip_serializing_if = "is_zero")]
    pub bridge_expanded: u64,
    /// Unsolved levels, forward side: the moves from the start to the first state made with
    /// the smallest bound (`benches/dead_root.py` bisects it for the push that killed it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub closest_lurd: Option<String>,
    /// Unsolved levels, either side: that first state made with the smallest bound, as XSB
    /// rows (one string, lines ended by `\n`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub closest_xsb: Option<String>,
    /// What each test pruned or searched, by name: solve's `--stats` and bench's records.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pruned: Option<std::collections::BTreeMap<&'static str, u64>>,
}

impl SideRecord {
    fn of(s: &SideStats, board: Option<&Board>) -> Option<SideRecord> {
        (s.expanded > 0 || s.generated > 0).then(|| SideRecord {
            expanded: s.expanded,
            generated: s.generated,
            duplicates: s.duplicates,
            closest_h: s.closest_h,
            closest_unplaced: s.closest_unplaced,
            bridges: s.bridges,
            bridge_expanded: s.bridge_expanded,
            closest_lurd: s.closest_path.as_ref().map(|p| p.lurd.clone()),
            closest_xsb: board
                .zip(s.closest_state.as_ref())
                .map(|(board, state)| render_state(board, state, Overlay::default())),
            pruned: Some(s.pruned.iter().copied().collect()),
        })
    }
}

impl LevelRecord {
    /// The record without the counters of each test (`pruned`), for solve's `--json` without
    /// `--stats`.
    pub fn lean(mut self) -> LevelRecord {
        for side in [&mut self.forward, &mut self.backward].into_iter().flatten() {
            side.pruned = None;
        }
        self
    }
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// The solution of a report after one more replay from the level's text, independent of the
/// engine's own check. A solution that fails it is an internal error, never printed.
pub fn checked_solution<'r>(level: &Level, report: &'r Report) -> Result<Option<&'r str>> {
    Ok(checked_counts(level, report)?.map(|(lurd, _)| lurd))
}

/// [`checked_solution`] with the counts of that replay (for the record's box lines and box
/// changes).
pub fn checked_counts<'r>(level: &Level, report: &'r Report) -> Result<Option<(&'r str, ReplayStats)>> {
    let Outcome::Solved(sol) = &report.outcome else {
        return Ok(None);
    };
    let steps = parse_lurd(&sol.lurd)
        .map_err(|e| anyhow::anyhow!("internal error: bad LURD from the engine: {e}"))?;
    let counts = replay(level.board(), level.start(), &steps)
        .map_err(|e| anyhow::anyhow!("internal error: the solution found does not replay: {e}"))?;
    if (counts.moves, counts.pushes) != (sol.moves, sol.pushes) {
        anyhow::bail!("internal error: the solution's move counts do not match its replay");
    }
    Ok(Some((&sol.lurd, counts)))
}

pub fn per_second(report: &Report) -> f64 {
    let secs = report.elapsed.as_secs_f64();
    if secs > 0.0 {
        report.stats.generated() as f64 / secs
    } else {
        0.0
    }
}

/// The record of a solved (or not) level, with its solution as [`checked_counts`] gave it.
pub fn record(
    path: &Path,
    entry: &LevelEntry,
    report: &Report,
    checked: Option<(&str, ReplayStats)>,
) -> LevelRecord {
    let (solution, counts) = (checked.map(|(lurd, _)| lurd), checked.map(|(_, counts)| counts));
    let sol = match &report.outcome {
        Outcome::Solved(s) => Some(s),
        _ => None,
    };
    let board = entry.level.as_ref().ok().map(Level::board);
    LevelRecord {
        file: path.display().to_string(),
        index: entry.index,
        title: entry.title.clone(),
        status: report.outcome.status(),
        solution: solution.map(str::to_string),
        moves: sol.map(|s| s.moves),
        pushes: sol.map(|s| s.pushes),
        box_lines: counts.map(|c| c.box_lines),
        box_changes: counts.map(|c| c.box_changes),
        seconds: report.elapsed.as_secs_f64(),
        states: report.stats.generated(),
        expanded: report.stats.expanded(),
        visited: report.stats.states,
        states_per_second: per_second(report).round(),
        bytes_per_state: (report.stats.bytes_per_state() * 10.0).round() / 10.0,
        threads: report.threads,
        strategy: report.strategy.clone(),
        options: None,
        found_by: sol.map(|s| s.found_by.name()),
        optimized: None,
        optimal: report.optimality.filter(|o| o.proven && sol.is_some()).map(|o| o.objective.name()),
        lower_bound: report.optimality.filter(|o| !o.proven).map(|o| o.lower_bound),
        error: None,
        note: report.note.clone(),
        forward: SideRecord::of(&report.stats.forward, board),
        backward: SideRecord::of(&report.stats.backward, board),
        table_bytes: report.stats.table_bytes,
        open_bytes: report.stats.peak_open_bytes,
    }
}

/// The record of an invalid level.
pub fn invalid_record(path: &Path, entry: &LevelEntry, plan: &Plan, error: String) -> LevelRecord {
    LevelRecord {
        file: path.display().to_string(),
        index: entry.index,
        title: entry.title.clone(),
        status: "invalid",
        solution: None,
        moves: None,
        pushes: None,
        box_lines: None,
        box_changes: None,
        seconds: 0.0,
        states: 0,
        expanded: 0,
        visited: 0,
        states_per_second: 0.0,
        bytes_per_state: 0.0,
        threads: plan.threads(),
        strategy: plan.name(),
        options: None,
        found_by: None,
        optimized: None,
        optimal: None,
        lower_bound: None,
        error: Some(error),
        note: None,
        forward: None,
        backward: None,
        table_bytes: 0,
        open_bytes: 0,
    }
}
