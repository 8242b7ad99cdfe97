//! From options to what runs: one strategy, or a portfolio with its restarts.

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use bisolve_board::{Level, Objective};
use bisolve_pull::PullConfig;
use bisolve_push::PushConfig;

use super::{OptionsError, RestartMode, SolverOptions};
use crate::limits::Limits;
use crate::optimal::{solve_optimal, solve_optimal_from, OptimalConfig};
use crate::portfolio::{members, search_count, solve_portfolio, Portfolio, Restart};
use crate::report::{Outcome, Report, SolveError};
use crate::solve::{solve, Config};
use crate::strategy::Strategy;

/// What to run on each level: one strategy, or a portfolio.
#[derive(Debug, Clone)]
pub enum Plan {
    /// One strategy.
    Single(Config),
    /// Several configurations racing.
    Portfolio(Portfolio),
    /// A proven-optimal search.
    Optimal(OptimalPlan),
}

/// A proven-optimal search, and the plan that finds it a solution in hand first.
#[derive(Debug, Clone)]
pub struct OptimalPlan {
    /// The optimal search.
    pub config: OptimalConfig,
    /// The strategy run first on a tenth of the limits ([`INCUMBENT_SHARE`]), for a solution
    /// in hand (`optimal_incumbent`); `None` runs the optimal search alone.
    pub first: Option<Box<Plan>>,
}

/// The share of the limits (time, states) the strategy gets before an optimal search: one
/// part in this many.
pub const INCUMBENT_SHARE: u32 = 10;

/// The states the strategy gets before an optimal search when no limit counts states: a
/// state limit, unlike a time share, gives a one-thread run the same solution in hand every
/// time.
pub const INCUMBENT_STATES: usize = 2_000_000;

impl OptimalPlan {
    /// Runs the strategy first (when there is one) and then the optimal search, with the
    /// strategy's solution in hand and the rest of the limits.
    fn solve(&self, level: &Level, limits: &Limits, cancel: &AtomicBool) -> Result<Report, SolveError> {
        let started = Instant::now();
        let Some(first) = &self.first else {
            return solve_optimal(level, &self.config, limits, cancel);
        };
        let share = Limits {
            time: limits.time.map(|t| t / INCUMBENT_SHARE),
            states: Some(limits.states.map_or(INCUMBENT_STATES, |s| s / INCUMBENT_SHARE as usize)),
            ..*limits
        };
        let found = first.solve(level, &share, cancel)?;
        let spent = started.elapsed();
        // A strategy that proves the level unsolvable has searched it all.
        if matches!(found.outcome, Outcome::Unsolvable) {
            return Ok(found);
        }
        let held = match &found.outcome {
            Outcome::Solved(s) => Some(s),
            _ => None,
        };
        let rest = Limits {
            time: limits.time.map(|t| t.saturating_sub(spent)),
            states: limits.states.map(|s| s.saturating_sub(found.stats.states)),
            ..*limits
        };
        let mut report = solve_optimal_from(level, &self.config, held, &rest, cancel)?;
        report.elapsed = started.elapsed();
        report.stats.forward.add(&found.stats.forward);
        report.stats.backward.add(&found.stats.backward);
        report.stats.states += found.stats.states;
        let first_note = match held {
            Some(s) => format!(
                "first solution ({} moves, {} pushes) by {} in {:.3} s",
                s.moves,
                s.pushes,
                found.strategy,
                spent.as_secs_f64()
            ),
            None => format!("{} found no solution in {:.3} s", found.strategy, spent.as_secs_f64()),
        };
        report.note = Some(match report.note.take() {
            Some(note) => format!("{note}; {first_note}"),
            None => first_note,
        });
        Ok(report)
    }
}

/// A plan with the options it was made from, as they will run, and what the thread count
/// changed.
#[derive(Debug, Clone)]
pub struct Planned {
    /// What runs.
    pub plan: Plan,
    /// The options as they run: every switch the members agree on filled in, and the restart
    /// mode decided (`on` or `off`).
    pub options: SolverOptions,
    /// One line for each asked-for setting the plan had to change (a switch the strategy
    /// cannot use).
    pub notes: Vec<String>,
    /// Why the restart schedule does not run at this thread count, when it would have run at
    /// another: for a caller that chose the thread count to tell (one that took every core by
    /// default need not).
    pub threads_note: Option<String>,
}

impl Plan {
    /// Solves one level.
    pub fn solve(&self, level: &Level, limits: &Limits, cancel: &AtomicBool) -> Result<Report, SolveError> {
        match self {
            Plan::Single(config) => solve(level, config, limits, cancel),
            Plan::Portfolio(p) => solve_portfolio(level, p, limits, cancel),
            Plan::Optimal(o) => o.solve(level, limits, cancel),
        }
    }

    /// The strategy's name, for reports.
    pub fn name(&self) -> String {
        match self {
            Plan::Single(c) => c.strategy.to_string(),
            Plan::Portfolio(p) => {
                let names: Vec<&str> = p.members.iter().map(|m| m.name).collect();
                format!("portfolio({})", names.join(","))
            }
            Plan::Optimal(o) => o.config.name(),
        }
    }

    /// Threads per level.
    pub fn threads(&self) -> usize {
        match self {
            Plan::Single(c) => c.threads,
            Plan::Portfolio(p) => p.threads,
            Plan::Optimal(o) => o.config.threads,
        }
    }
}

/// Reads one switch of a forward configuration.
type SwitchOf = fn(&PushConfig) -> bool;

/// The switches as the searches of one strategy use them (see [`Strategy::forward_config`]):
/// A* runs without macros, and the goal cut needs a backward search beside the forward one.
fn effective(strategy: Strategy, push: PushConfig, pull: PullConfig) -> (Strategy, PushConfig, PullConfig) {
    let mut push = strategy.forward_config(push);
    let mut pull = strategy.backward_config(pull);
    // Feature cells follow the ordering; they are not a switch.
    push.features = PushConfig::default().features;
    pull.features = PullConfig::default().features;
    (strategy, push, pull)
}

impl SolverOptions {
    /// A note for each switch set on that a strategy of `runs` (strategies and switches as
    /// asked) cannot use.
    fn tell_dropped(&self, runs: &[(Strategy, PushConfig, PullConfig)], notes: &mut Vec<String>) {
        let asked: [(&str, Option<bool>, SwitchOf); 3] = [
            ("push.goal_macros", self.push.goal_macros, |p: &PushConfig| p.goal_macros),
            ("push.packing_macros", self.push.packing_macros, |p: &PushConfig| p.packing_macros),
            ("push.goal_cut", self.push.goal_cut, |p: &PushConfig| p.goal_cut),
        ];
        for (key, set, read) in asked {
            let dropped = runs
                .iter()
                .find(|(s, push, pull)| set == Some(true) && !read(&effective(*s, *push, *pull).1));
            if let Some((strategy, ..)) = dropped {
                notes.push(format!(
                    "{key} is off for {strategy}: A* runs without macros, and the goal cut needs both directions"
                ));
            }
        }
    }

    /// Checks the options and makes the plan for `threads` threads (at least 1).
    pub fn plan(&self, threads: usize) -> Result<Planned, OptionsError> {
        let threads = threads.max(1);
        if self.forward_weight == 0 {
            return Err(OptionsError::Invalid("forward_weight must be at least 1".into()));
        }
        for (name, n) in [("dives.forward", self.dives.forward), ("dives.backward", self.dives.backward)] {
            if !(1..=64).contains(&n) {
                return Err(OptionsError::Invalid(format!("{name} must be 1 to 64, not {n}")));
            }
        }
        let schedule = Restart::parse_list(&self.restarts.schedule)
            .map_err(|e| OptionsError::Invalid(format!("restarts.schedule: {e}")))?;
        let mut options = self.clone();
        let mut notes = Vec::new();
        if let Some(objective) = self.optimal.objective() {
            // The fewest pushes take the pair bound unless it is switched off: A* expands
            // fewer positions (Microban I 0.96x, Microban II 0.88x, in about 0.9x the time per
            // proven level; `benches/results/2026-12-07-optimal-pair-bound.txt`). For the
            // fewest moves it cost more time than it saved (1.19x).
            let mut push = PushConfig { pair_bound: objective == Objective::Pushes, ..PushConfig::default() };
            self.push.apply(&mut push);
            let mut config = OptimalConfig::new(objective, threads, push);
            config.phases = self.optimal_phases;
            // The strategy, as it would run without `optimal`, finds the solution in hand.
            let first = if self.optimal_incumbent {
                let mut satisficing = self.clone();
                satisficing.optimal = super::OptimalMode::Off;
                let planned = satisficing.plan(threads)?;
                notes.extend(planned.notes);
                Some(Box::new(planned.plan))
            } else {
                if !self.strategy.trim().eq_ignore_ascii_case("portfolio") {
                    notes.push(format!(
                        "optimal = \"{objective}\" without optimal_incumbent runs its own search only: strategy {} is not used",
                        self.strategy
                    ));
                }
                None
            };
            options.push.resolve(std::iter::once(&config.push));
            options.restarts.mode = RestartMode::Off;
            let plan = Plan::Optimal(OptimalPlan { config, first });
            return Ok(Planned { plan, options, notes, threads_note: None });
        }
        if !self.strategy.trim().eq_ignore_ascii_case("portfolio") {
            let mut strategy = Strategy::parse(&self.strategy).map_err(OptionsError::Invalid)?;
            self.search.apply(&mut strategy);
            let (mut push, mut pull) = (PushConfig::default(), PullConfig::default());
            self.push.apply(&mut push);
            self.pull.apply(&mut pull);
            let runs = [(strategy, push, pull)];
            self.tell_dropped(&runs, &mut notes);
            let runs: Vec<_> = runs.iter().map(|&(s, push, pull)| effective(s, push, pull)).collect();
            options.search.resolve(runs.iter().map(|r| &r.0));
            options.push.resolve(runs.iter().map(|r| &r.1));
            options.pull.resolve(runs.iter().map(|r| &r.2));
            if self.restarts.mode == RestartMode::On {
                notes.push(format!("restarts are for portfolios: strategy {} runs without", self.strategy));
            }
            options.restarts.mode = RestartMode::Off;
            let config = Config { strategy, threads, push, pull, forward_weight: self.forward_weight };
            return Ok(Planned { plan: Plan::Single(config), options, notes, threads_note: None });
        }
        let mut chosen = members(&self.members.join(",")).map_err(OptionsError::Invalid)?;
        for m in &mut chosen {
            self.search.apply(&mut m.strategy);
            self.push.apply(&mut m.push);
            self.pull.apply(&mut m.pull);
        }
        let runs: Vec<_> = chosen.iter().map(|m| (m.strategy, m.push, m.pull)).collect();
        self.tell_dropped(&runs, &mut notes);
        let runs: Vec<_> = runs.iter().map(|&(s, push, pull)| effective(s, push, pull)).collect();
        options.search.resolve(runs.iter().map(|r| &r.0));
        options.push.resolve(runs.iter().map(|r| &r.1));
        options.pull.resolve(runs.iter().map(|r| &r.2));
        let searches = search_count(&chosen);
        let mut threads_note = None;
        let restart = match self.restarts.mode {
            RestartMode::On => true,
            RestartMode::Off => false,
            RestartMode::Auto => {
                let fits = (2..=searches).contains(&threads);
                // One thread is deterministic by design and runs no timed schedule; more
                // threads than searches losing it is what a run must say.
                if threads > searches && !schedule.is_empty() {
                    let why = match searches {
                        0 | 1 => {
                            "only for portfolios of two searches or more, and this one has one".to_string()
                        }
                        2 => format!("with 2 threads, and this run has {threads}"),
                        _ => format!("with 2 to {searches} threads, and this run has {threads}"),
                    };
                    threads_note = Some(format!(
                        "no restarts: restarts.mode = \"auto\" runs the schedule {why} \
                         (--set restarts.mode=on runs it anyway)"
                    ));
                }
                fits
            }
        };
        options.restarts.mode =
            if restart && !schedule.is_empty() { RestartMode::On } else { RestartMode::Off };
        let mut restarts = if restart { schedule } else { Vec::new() };
        // The forward dives hold in every run: the schedule names backward dives only.
        for r in &mut restarts {
            r.dives.forward = self.dives.forward;
        }
        let portfolio = Portfolio {
            members: chosen,
            threads,
            tables: self.tables,
            forward_weight: self.forward_weight,
            deal: self.deal,
            dives: self.dives,
            restarts,
            keep_table: self.restarts.keep_table,
            early_perimeter: self.restarts.early_perimeter,
        };
        Ok(Planned { plan: Plan::Portfolio(portfolio), options, notes, threads_note })
    }
}
