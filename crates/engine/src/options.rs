//! Options as data: everything that shapes a search except its limits and threads, in one
//! validated [`SolverOptions`] that reads and writes TOML.
//!
//! Callers build options from a named preset ([`preset`], [`PRESETS`]), lay a file over them
//! ([`SolverOptions::merge_toml`]) and change single keys ([`SolverOptions::set`], the command
//! line's `--set key=value`). [`SolverOptions::plan`] checks them and turns them, for a thread
//! count, into the [`Plan`] the engine runs, with the options as they will run (every switch
//! the members agree on filled in, the restarts decided) and a note for each setting the
//! thread count changed. Nothing else rewrites a member's configuration.
//!
//! Keys (see `docs/options.md` for each one's meaning and default):
//! - `optimal`: `off`, `pushes` or `moves` (a proven-optimal search, after the strategy's
//!   first solution);
//! - `optimal_phases`: the fewest pushes over the players' regions first, with `optimal = "pushes"`;
//! - `optimal_incumbent`: with `optimal`, the strategy's solution first, as a bound and a fallback;
//! - `strategy`: `portfolio`, or one strategy of [`crate::STRATEGIES`];
//! - `members`: the portfolio's members (see `bisolve strategies`);
//! - `tables`: `shared` or `separate` visited tables for the members;
//! - `forward_weight`: a thread holding both directions counts forward states this many times;
//! - `deal`: `members` or `searches`, how the searches are dealt over the threads;
//! - `dives.forward`, `dives.backward`: workers per search;
//! - `restarts.mode` (`auto`, `on`, `off`), `restarts.schedule`, `restarts.keep_table`,
//!   `restarts.early_perimeter`;
//! - `search.*`, `push.*`, `pull.*`: switches ([`SearchSwitches`], [`PushSwitches`],
//!   [`PullSwitches`]); one set holds for every member, one unset leaves each its own.

mod plan;
mod switches;

use serde::{Deserialize, Serialize};

pub use plan::{OptimalPlan, Plan, Planned, INCUMBENT_SHARE, INCUMBENT_STATES};
pub use switches::{PullSwitches, PushSwitches, SearchSwitches};

use crate::portfolio::{Deal, Dives, TableMode, DIVES};
use crate::strategy::FORWARD_WEIGHT;

/// The restart schedule of the `default` preset, in the grammar of
/// [`Restart::parse_list`](crate::Restart::parse_list): the Luby schedule of
/// [`luby_restarts`](crate::portfolio::luby_restarts), written out.
pub const DEFAULT_SCHEDULE: &str = "10:2:box,10:4,20:8:box,10:8,10:8:box,20:8,40:8:box,10:8,10:8:box,20:8,10:8:box,10:8,20:8:box,40:8,80:8:box";

/// Everything that shapes a search except its limits and threads.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SolverOptions {
    /// `off`, or a proven-optimal search ([`crate::optimal`]), after the strategy's first
    /// solution (`optimal_incumbent`): `pushes` (the fewest pushes, then the fewest moves) or
    /// `moves` (the fewest moves, then the fewest pushes).
    pub optimal: OptimalMode,
    /// With `optimal = "pushes"`: find the fewest pushes over the player's regions first, then
    /// search exact positions only along the paths of that many pushes
    /// ([`OptimalConfig::phases`](crate::OptimalConfig::phases)); false runs the exact search
    /// alone.
    pub optimal_phases: bool,
    /// With `optimal`: first run the strategy (the portfolio by default) on a tenth of the
    /// limits, for a solution in hand. The optimal search then keeps no position that cannot
    /// lead to a shorter one, proves that solution optimal when nothing shorter exists, and
    /// reports it (unproven, with the lower bound reached) when a limit stops the proof
    /// ([`crate::optimal::solve_optimal_from`]).
    pub optimal_incumbent: bool,
    /// `portfolio` (the members race), or the name of one strategy.
    pub strategy: String,
    /// The portfolio's members, by name (with `strategy = "portfolio"`).
    pub members: Vec<String>,
    /// Whether the members share one visited table.
    pub tables: TableMode,
    /// A thread that holds a forward and a backward search steps the one that has generated
    /// least, counting the forward search's states this many times (1: equal turns).
    pub forward_weight: u64,
    /// How the searches are dealt over the threads (by member, or by search).
    pub deal: Deal,
    /// Workers per search in the first run (the restarts set the backward ones of theirs).
    pub dives: Dives,
    /// Restarting the portfolio from scratch with other settings.
    pub restarts: RestartOptions,
    /// Switches of the searches outside their moves.
    pub search: SearchSwitches,
    /// Switches of the forward search.
    pub push: PushSwitches,
    /// Switches of the backward search.
    pub pull: PullSwitches,
}

/// When a portfolio restarts, and how.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct RestartOptions {
    /// `off` (the default): never; `auto`: the schedule runs with 2 threads up to one per
    /// search (one thread stays deterministic, and more threads already run several workers
    /// per search), and a run on more threads says it dropped it; `on`: always.
    pub mode: RestartMode,
    /// The runs after the first, as `SECS:DIVES[:box|single][:fessK][:packing|unpacked][:pull-BOUND]`
    /// items, comma-separated: how long the run before each goes, the backward dives of the
    /// run it starts, and optionally its moves, feature-cell turn, forward cells and backward
    /// bound. The last runs for the rest of the time limit.
    pub schedule: String,
    /// A restart keeps the visited table of the runs before (their states are meetings for
    /// the other side); `false` starts each run from an empty table.
    pub keep_table: bool,
    /// The first run of a portfolio that restarts runs the forward perimeter before its first
    /// own expansion.
    pub early_perimeter: bool,
}

/// Whether a solve must prove its solution optimal, and by which length.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum OptimalMode {
    /// Any solution: the strategy decides.
    #[default]
    Off,
    /// The fewest pushes, then the fewest moves among them.
    Pushes,
    /// The fewest moves, then the fewest pushes among them.
    Moves,
}

impl OptimalMode {
    /// The objective, when optimality is asked for.
    pub fn objective(self) -> Option<bisolve_board::Objective> {
        match self {
            OptimalMode::Off => None,
            OptimalMode::Pushes => Some(bisolve_board::Objective::Pushes),
            OptimalMode::Moves => Some(bisolve_board::Objective::Moves),
        }
    }
}

/// Whether the restart schedule runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum RestartMode {
    /// With 2 threads up to one per search.
    Auto,
    /// Always.
    On,
    /// Never: one run from start to end.
    #[default]
    Off,
}

impl Default for RestartOptions {
    fn default() -> RestartOptions {
        RestartOptions {
            mode: RestartMode::Off,
            schedule: DEFAULT_SCHEDULE.to_string(),
            keep_table: true,
            early_perimeter: false,
        }
    }
}

impl Default for SolverOptions {
    /// The `default` preset.
    fn default() -> SolverOptions {
        SolverOptions {
            optimal: OptimalMode::Off,
            optimal_phases: true,
            optimal_incumbent: true,
            strategy: "portfolio".to_string(),
            members: crate::portfolio::DEFAULT_MEMBERS.iter().map(|m| m.to_string()).collect(),
            tables: TableMode::Shared,
            forward_weight: FORWARD_WEIGHT,
            deal: Deal::Members,
            dives: DIVES,
            restarts: RestartOptions::default(),
            search: SearchSwitches::default(),
            push: PushSwitches::default(),
            pull: PullSwitches::default(),
        }
    }
}

/// A named set of options.
#[derive(Debug, Clone, Copy)]
pub struct Preset {
    /// Its name, for `--preset`.
    pub name: &'static str,
    /// What it is for.
    pub about: &'static str,
    /// The options.
    pub options: fn() -> SolverOptions,
}

/// Every preset.
pub const PRESETS: &[Preset] = &[Preset {
    name: "default",
    about: "the four-member portfolio (bi-fess, bi-fess-box, bi-fess-planned, fwd-fess-planned), without restarts",
    options: SolverOptions::default,
}];

/// The options of the preset `name`.
pub fn preset(name: &str) -> Result<SolverOptions, OptionsError> {
    PRESETS.iter().find(|p| p.name == name).map(|p| (p.options)()).ok_or_else(|| {
        let known: Vec<&str> = PRESETS.iter().map(|p| p.name).collect();
        OptionsError::UnknownPreset { name: name.to_string(), known: known.join(", ") }
    })
}

/// Why options could not be read, changed or used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OptionsError {
    /// No preset has this name.
    #[error("unknown preset {name:?}: use one of {known}")]
    UnknownPreset {
        /// The name asked for.
        name: String,
        /// The presets there are.
        known: String,
    },
    /// `--set` named a key the options do not have.
    #[error("unknown option {key:?} (`bisolve options` lists every key)")]
    UnknownKey {
        /// The key.
        key: String,
    },
    /// A `--set` assignment without `=`.
    #[error("{0:?}: expected KEY=VALUE")]
    NotAnAssignment(String),
    /// A value of the wrong kind for its key, or TOML that does not read.
    #[error("{what}: {message}")]
    BadValue {
        /// The key, or the file.
        what: String,
        /// What is wrong.
        message: String,
    },
    /// Options that read but cannot run.
    #[error("{0}")]
    Invalid(String),
}

impl SolverOptions {
    /// The options as a TOML document.
    pub fn to_toml(&self) -> String {
        toml::to_string(self).expect("options serialize")
    }

    /// Lays the TOML document `text` over these options: the keys it has replace theirs;
    /// `what` names it in errors (a file's path).
    pub fn merge_toml(&mut self, text: &str, what: &str) -> Result<(), OptionsError> {
        let over: toml::Table = toml::from_str(text)
            .map_err(|e| OptionsError::BadValue { what: what.into(), message: e.to_string() })?;
        let mut base = self.as_table();
        merge(&mut base, over);
        *self = from_table(base, what)?;
        Ok(())
    }

    /// Changes one key: `assignment` is `KEY=VALUE`, the key dotted (`push.freeze`), the value
    /// TOML (`false`, `3`, `"text"`); a key that holds text takes the value as written, quoted
    /// or not, and `members` also takes a comma-separated list.
    pub fn set(&mut self, assignment: &str) -> Result<(), OptionsError> {
        let (key, value) = assignment
            .split_once('=')
            .ok_or_else(|| OptionsError::NotAnAssignment(assignment.to_string()))?;
        let (key, value) = (key.trim(), value.trim());
        if !SolverOptions::keys().iter().any(|k| k == key) {
            return Err(OptionsError::UnknownKey { key: key.to_string() });
        }
        let mut table = self.as_table();
        // A key that holds text takes the value as written unless it is quoted: `10:20` is a
        // restart schedule there, not a TOML time.
        let holds_text = match key.split_once('.') {
            Some((t, k)) => table.get(t).and_then(|t| t.get(k)).is_some_and(toml::Value::is_str),
            None => table.get(key).is_some_and(toml::Value::is_str),
        };
        let mut value = match toml::from_str::<toml::Table>(&format!("v = {value}")) {
            Ok(mut t) if !holds_text || t["v"].is_str() => t.remove("v").expect("the key just written"),
            _ => toml::Value::String(value.to_string()),
        };
        if let (true, toml::Value::String(list)) = (key == "members", &value) {
            value = toml::Value::Array(
                list.split(',').map(|m| toml::Value::String(m.trim().to_string())).collect(),
            );
        }
        let mut at = &mut table;
        let mut parts: Vec<&str> = key.split('.').collect();
        let last = parts.pop().expect("a key has a part");
        for part in parts {
            at = at
                .entry(part)
                .or_insert_with(|| toml::Value::Table(toml::Table::new()))
                .as_table_mut()
                .expect("a dotted key's head is a table");
        }
        at.insert(last.to_string(), value);
        *self = from_table(table, key)?;
        Ok(())
    }

    /// Every key `set` takes, dotted, in the order of the TOML document.
    pub fn keys() -> Vec<String> {
        let mut keys = Vec::new();
        for (name, value) in SolverOptions::default().as_table() {
            match value {
                toml::Value::Table(t) => keys.extend(t.keys().map(|k| format!("{name}.{k}"))),
                _ => keys.push(name),
            }
        }
        let switches: [(&str, &[&str]); 3] =
            [("search", SearchSwitches::NAMES), ("push", PushSwitches::NAMES), ("pull", PullSwitches::NAMES)];
        for (table, names) in switches {
            keys.extend(names.iter().map(|n| format!("{table}.{n}")));
        }
        keys
    }

    /// The switches not set (dotted keys): with them, each member keeps its own value.
    pub fn unset_switches(&self) -> Vec<String> {
        let tables =
            [("search", self.search.unset()), ("push", self.push.unset()), ("pull", self.pull.unset())];
        tables.iter().flat_map(|(t, names)| names.iter().map(move |n| format!("{t}.{n}"))).collect()
    }

    fn as_table(&self) -> toml::Table {
        toml::Table::try_from(self).expect("options serialize to a table")
    }
}

/// Options from a TOML table; `what` names the source in errors.
fn from_table(table: toml::Table, what: &str) -> Result<SolverOptions, OptionsError> {
    SolverOptions::deserialize(table)
        .map_err(|e| OptionsError::BadValue { what: what.to_string(), message: e.message().to_string() })
}

/// Lays `over` over `base`, table by table.
fn merge(base: &mut toml::Table, over: toml::Table) {
    for (key, value) in over {
        match (base.get_mut(&key), value) {
            (Some(toml::Value::Table(b)), toml::Value::Table(o)) => merge(b, o),
            (_, value) => {
                base.insert(key, value);
            }
        }
    }
}

#[cfg(test)]
mod tests;
