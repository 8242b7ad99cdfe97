//! Live progress of the level being solved, on standard error: a line redrawn a few times a
//! second on a terminal, or with `--progress` a plain line every few seconds elsewhere.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use bisolve_engine::{Progress, ProgressSink, ProgressSnapshot};
use indicatif::{ProgressBar, ProgressStyle};

use crate::output::{count, warn};

/// The figures the engine publishes while the solve command runs (one level at a time).
static LIVE: Progress = Progress::new();

/// How progress is shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Show {
    /// Not at all.
    Off,
    /// A line redrawn in place (standard error is a terminal).
    Redrawn,
    /// A plain line every [`PLAIN_EVERY`].
    Plain,
}

/// How often a plain progress line is printed.
pub const PLAIN_EVERY: Duration = Duration::from_secs(5);
/// How often the redrawn line changes.
const REDRAW_EVERY: Duration = Duration::from_millis(250);

impl Show {
    /// Redrawn when standard error is a terminal and the output is for a person (not `--json`
    /// or `--quiet`) or `--progress` asks; plain when `--progress` asks and standard error is
    /// not a terminal.
    pub fn choose(asked: bool, for_people: bool) -> Show {
        let terminal = std::io::stderr().is_terminal();
        match (terminal, asked || for_people) {
            (true, true) => Show::Redrawn,
            (false, true) if asked => Show::Plain,
            _ => Show::Off,
        }
    }

    /// Where the engine should publish its figures, if they are shown.
    pub fn sink(self) -> Option<ProgressSink> {
        (self != Show::Off).then_some(ProgressSink(&LIVE))
    }

    /// Runs `solve`, showing its progress under `label` meanwhile.
    pub fn during<T: Send>(self, label: &str, solve: impl FnOnce() -> T + Send) -> T {
        if self == Show::Off {
            return solve();
        }
        LIVE.reset();
        let done = AtomicBool::new(false);
        std::thread::scope(|s| {
            s.spawn(|| self.watch(label, &done));
            let result = solve();
            done.store(true, Ordering::Relaxed);
            result
        })
    }

    fn watch(self, label: &str, done: &AtomicBool) {
        let started = Instant::now();
        let bar = (self == Show::Redrawn).then(|| {
            let bar = ProgressBar::new_spinner();
            bar.set_style(
                ProgressStyle::with_template("{spinner} {msg}")
                    .unwrap_or_else(|_| ProgressStyle::default_spinner()),
            );
            bar
        });
        let every = if bar.is_some() { REDRAW_EVERY } else { PLAIN_EVERY };
        let (mut last_states, mut last_at) = (0, started);
        let mut next = started + every;
        while !done.load(Ordering::Relaxed) {
            std::thread::sleep(Duration::from_millis(20));
            let now = Instant::now();
            if now < next {
                continue;
            }
            next = now + every;
            let figures = LIVE.snapshot();
            let rate = figures.states.saturating_sub(last_states) as f64
                / now.duration_since(last_at).as_secs_f64().max(1e-3);
            (last_states, last_at) = (figures.states, now);
            let line = describe(label, now.duration_since(started), figures, rate);
            match &bar {
                Some(bar) => bar.set_message(line),
                None => warn(&format!("bisolve: {line}")),
            }
        }
        if let Some(bar) = bar {
            bar.finish_and_clear();
        }
    }
}

/// One progress line: the level, time, states, rate, memory, how close each direction has come
/// (the smallest lower bound it reached: pushes still needed forward, pulls backward) or, for
/// an optimal search, its lower bound on every solution, and the run.
fn describe(label: &str, elapsed: Duration, f: ProgressSnapshot, rate: f64) -> String {
    let sides: Vec<String> =
        [(f.forward_bound, "push", " left forward"), (f.backward_bound, "pull", " backward")]
            .into_iter()
            .filter_map(|(h, unit, side)| h.map(|h| format!("{}{side}", count(u64::from(h), unit))))
            .collect();
    let closest = match f.lower_bound {
        Some((lower, objective)) => {
            let unit = if objective == bisolve_board::Objective::Pushes { "push" } else { "move" };
            format!(", lower bound {}", count(u64::from(lower), unit))
        }
        None if sides.is_empty() => String::new(),
        None => format!(", at least {}", sides.join(", ")),
    };
    let run = if f.run > 0 { format!(", restart {}", f.run) } else { String::new() };
    format!(
        "{label}: {:.1} s, {} states visited ({:.2} M/s), {:.0} MB{closest}{run}",
        elapsed.as_secs_f64(),
        f.states,
        rate / 1e6,
        f.bytes as f64 / (1 << 20) as f64
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_progress_line_names_the_level_and_its_figures() {
        let f = ProgressSnapshot { states: 1_500_000, bytes: 64 << 20, ..ProgressSnapshot::default() };
        let line = describe("level 3 (\"Cellar\")", Duration::from_millis(2500), f, 600_000.0);
        assert_eq!(line, "level 3 (\"Cellar\"): 2.5 s, 1500000 states visited (0.60 M/s), 64 MB");
        let restarted = ProgressSnapshot { run: 2, ..f };
        assert!(describe("x", Duration::ZERO, restarted, 0.0).ends_with(", restart 2"));
        let close = ProgressSnapshot { forward_bound: Some(12), backward_bound: Some(1), ..restarted };
        assert!(
            describe("x", Duration::ZERO, close, 0.0)
                .ends_with(", at least 12 pushes left forward, 1 pull backward, restart 2"),
            "{}",
            describe("x", Duration::ZERO, close, 0.0)
        );
        let forward_only = ProgressSnapshot { forward_bound: Some(0), ..f };
        assert!(describe("x", Duration::ZERO, forward_only, 0.0)
            .ends_with("64 MB, at least 0 pushes left forward"));
        let optimal = ProgressSnapshot { lower_bound: Some((26, bisolve_board::Objective::Pushes)), ..f };
        assert!(describe("x", Duration::ZERO, optimal, 0.0).ends_with("64 MB, lower bound 26 pushes"));
        let moves = ProgressSnapshot { lower_bound: Some((1, bisolve_board::Objective::Moves)), ..f };
        assert!(describe("x", Duration::ZERO, moves, 0.0).ends_with("64 MB, lower bound 1 move"));
    }

    #[test]
    fn nothing_is_shown_off_a_terminal_unless_asked() {
        if std::io::stderr().is_terminal() {
            return;
        }
        assert_eq!(Show::choose(false, true), Show::Off);
        assert_eq!(Show::choose(true, false), Show::Plain);
        assert_eq!(Show::Off.sink(), None);
        assert!(Show::Plain.sink().is_some());
    }
}
