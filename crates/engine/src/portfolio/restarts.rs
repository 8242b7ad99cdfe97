//! Restarts: a portfolio run again from scratch after a while, with other settings, in the
//! table of the runs before.

use std::time::Duration;

use bisolve_deadlock::bound::BoundKind;

use super::members::Dives;

/// A restart: when the run before it (the first search, or the previous restart's) has not finished
/// after `after` of its own, the portfolio starts again from scratch (in the table of the runs
/// before, see [`Portfolio::keep_table`](super::Portfolio::keep_table)), as `dives` workers per
/// search; the last restart runs for the rest of the time. A level solved before a restart is due
/// is solved exactly as without it.
///
/// It buys the extra dives' gain at long times without their losses at short ones (see
/// [`DIVES`](crate::portfolio::DIVES) and `benches/results/2026-11-26-backward-dives.txt`,
/// `2026-11-26-second-restart.txt`).
///
/// The report of a restarted solve adds every run's counts and states (a run's states: those
/// it added to the table and those of earlier runs it took over) and table bytes (a kept
/// table's bytes are counted once, at their largest), so bytes per state stay a per-state
/// figure, and keeps the largest peak of open-list bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Restart {
    /// How long the run before this restart goes.
    pub after: Duration,
    /// Workers per search from this restart on.
    pub dives: Dives,
    /// Box moves (`PushConfig::box_moves` and `PullConfig::box_moves`) for every member in the
    /// run this restart starts: `Some(on)` sets both sides, `None` keeps the members' own.
    /// Another move model is another lottery ticket: the two solve different levels.
    pub box_moves: Option<bool>,
    /// For the members that order by feature cells
    /// ([`Weighting::Features`](crate::Weighting::Features)), how often the run this restart starts
    /// takes a cell in turn (`fessK`): `None` keeps the members' own. The forward search is
    /// otherwise the same in every run, so a run on single moves after one on box moves would
    /// search the first run's forward states again; another turn takes it down other subtrees.
    pub cycle: Option<u32>,
    /// The forward searches' feature cells in the run this restart starts: `Some(true)`
    /// counts goals packed in their packing order (`PushConfig::packing`, the forward half of
    /// `--set push.packing=true`), `Some(false)` boxes on goals, `None` keeps the members' own. The
    /// backward searches keep theirs.
    pub packing: Option<bool>,
    /// The backward searches' lower bound in the run this restart starts (`pull-nearest`,
    /// `pull-matching`, `pull-zero`): `None` keeps the members' own. The bound orders the
    /// backward dives, so another bound sends them elsewhere.
    pub pull_bound: Option<BoundKind>,
}

/// The default first [`Restart::after`].
pub const RESTART_AFTER: Duration = Duration::from_secs(10);

/// The unit of the default schedule's run lengths ([`luby`]).
pub const LUBY_UNIT: Duration = RESTART_AFTER;

/// Restarts in the default schedule: the runs they end add up to 320 s ([`LUBY_UNIT`] times 32),
/// and the last run goes on to the time limit.
pub const LUBY_RESTARTS: usize = 15;

/// The most backward dives a run of the default schedule gets.
pub const MAX_SCHEDULE_DIVES: usize = 8;

/// The `i`-th term (from 1) of the Luby sequence: 1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8, ...
/// Run lengths in this sequence make a universal restart strategy: whatever the distribution of
/// the time a run needs, the expected time to a solution is within a logarithmic factor of the
/// best fixed run length for that distribution (Luby, Sinclair and Zuckerman 1993).
pub fn luby(i: u32) -> u32 {
    debug_assert!(i >= 1);
    let mut i = i.max(1);
    loop {
        // The k with 2^(k-1) <= i < 2^k.
        let k = 32 - i.leading_zeros();
        if i == (1 << k) - 1 {
            return 1 << (k - 1);
        }
        i -= (1 << (k - 1)) - 1;
    }
}

/// The default restarts ([`Restart::defaults`]): a fixed schedule with nothing chosen for any
/// level. Run `r` (the first search is run 0) lasts [`LUBY_UNIT`] times the `r + 1`-th term of
/// the Luby sequence ([`luby`]): 10, 10, 20, 10, 10, 20, 40, ... s. Each run starts again in the
/// table of the runs before, so the runs are different searches of one space rather than
/// independent tries. They differ in two ways. Their move model alternates: the restarted runs
/// 1, 3, 5, ... make runs of box moves, the others the members' own single moves. Their backward
/// dives double from 2, capped at [`MAX_SCHEDULE_DIVES`]. The portfolio's searches, their
/// orderings and bounds are the same in every run.
///
/// It replaced, on 2026-12-04, a schedule whose runs had been chosen level by level on the public
/// sets. On those sets, at 60 s a level on 2 threads, that schedule still solved 2 levels more
/// (79 of 95 against 77), which is the size of its fit to them. The record is
/// `benches/results/2026-12-04-restart-schedule.txt`.
pub fn luby_restarts() -> Vec<Restart> {
    (0..LUBY_RESTARTS as u32)
        .map(|i| Restart {
            box_moves: (i % 2 == 0).then_some(true),
            ..Restart::new(
                LUBY_UNIT * luby(i + 1),
                Dives { forward: 1, backward: (2usize << i.min(8)).min(MAX_SCHEDULE_DIVES) },
            )
        })
        .collect()
}

impl Restart {
    /// The default restarts for a portfolio of `searches` searches on `threads` threads
    /// ([`luby_restarts`]), where there are at least two threads and no more than the searches (2 to 7
    /// threads for the default members' seven searches, 2 the case measured); else none. One thread stays
    /// deterministic (a restart is timed) and keeps one worker per search (four backward dives cost
    /// levels there, see [`DIVES`](crate::portfolio::DIVES)); with more threads than searches, each
    /// search already runs several workers.
    pub fn default_for(searches: usize, threads: usize) -> Vec<Restart> {
        if threads < 2 || threads > searches {
            return Vec::new();
        }
        Restart::defaults()
    }

    /// The default restarts, [`luby_restarts`], whatever the threads.
    pub fn defaults() -> Vec<Restart> {
        luby_restarts()
    }

    /// A restart after `after` with `dives` that keeps the members' own moves, turn, cells
    /// and bounds.
    pub const fn new(after: Duration, dives: Dives) -> Restart {
        Restart { after, dives, box_moves: None, cycle: None, packing: None, pull_bound: None }
    }

    /// Restarts from `SECS:DIVES[:MOVES][:fessK][:CELLS][:pull-BOUND]` items, comma-separated
    /// (`10:4,25:8:box`): each run's length before the restart in seconds, then the backward
    /// workers per search from it on, then optionally the moves of the run it starts, `box`
    /// (box moves on both sides) or `single` (off), else the members' own, optionally `fessK`,
    /// the feature-cell turn of that run ([`Restart::cycle`]), optionally its forward
    /// feature cells, `packing` (goals packed in their packing order, [`Restart::packing`])
    /// or `unpacked` (boxes on goals), and optionally its backward bound, `pull-matching`,
    /// `pull-nearest` or `pull-zero` ([`Restart::pull_bound`]).
    pub fn parse_list(text: &str) -> Result<Vec<Restart>, String> {
        text.split(',')
            .map(|item| {
                let bad =
                    || format!("restart {item:?}: expected SECS:DIVES[:box|single][:fessK][:packing|unpacked][:pull-BOUND], e.g. 10:4");
                let mut parts = item.trim().split(':');
                let (Some(secs), Some(dives)) = (parts.next(), parts.next()) else {
                    return Err(bad());
                };
                let (mut box_moves, mut cycle, mut packing, mut pull_bound) = (None, None, None, None);
                for part in parts.map(str::trim) {
                    match part {
                        _ if part.starts_with("pull-") && pull_bound.is_none() => {
                            pull_bound = Some(BoundKind::from_name(&part["pull-".len()..]).ok_or_else(|| {
                                format!("restart {item:?}: the backward bound is pull-matching, pull-nearest or pull-zero, not {part:?}")
                            })?);
                        }
                        "packing" | "unpacked" if packing.is_none() => packing = Some(part == "packing"),
                        "box" | "single" if box_moves.is_none() && cycle.is_none() => {
                            box_moves = Some(part == "box");
                        }
                        _ if part.starts_with("fess") && cycle.is_none() => {
                            let k: u32 = part["fess".len()..].parse().map_err(|_| bad())?;
                            if !(1..=64).contains(&k) {
                                return Err(format!("restart {item:?}: the turn fessK takes K from 1 to 64"));
                            }
                            cycle = Some(k);
                        }
                        "box" | "single" => return Err(bad()),
                        other => {
                            return Err(format!(
                            "restart {item:?}: the moves are box or single, the turn fessK, the cells packing or unpacked and the backward bound pull-BOUND, once each, not {other:?}"
                        ))
                        }
                    }
                }
                let secs: f64 = secs.trim().parse().map_err(|_| bad())?;
                let backward: usize = dives.trim().parse().map_err(|_| bad())?;
                if !(secs.is_finite() && secs > 0.0) {
                    return Err(format!("restart {item:?}: the seconds must be a positive number"));
                }
                if !(1..=64).contains(&backward) {
                    return Err(format!("restart {item:?}: the dives must be 1 to 64"));
                }
                let after = Duration::try_from_secs_f64(secs).unwrap_or(Duration::MAX);
                Ok(Restart { after, dives: Dives { forward: 1, backward }, box_moves, cycle, packing, pull_bound })
            })
            .collect()
    }
}
