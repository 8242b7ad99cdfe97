//! Limits of a solve (time, memory, states) and the one stop flag every worker polls.

use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU8, AtomicUsize, Ordering};

use bisolve_board::search::Side;
use bisolve_board::Objective;
use std::time::{Duration, Instant};

use crossbeam::utils::CachePadded;

/// Bounds on one solve. `None` means unbounded.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Wall-clock time for the whole solve.
    pub time: Option<Duration>,
    /// Bytes the search may hold in its visited table and open lists.
    pub memory: Option<usize>,
    /// Visited states (both directions together).
    pub states: Option<usize>,
    /// Where the solve publishes its live figures, for a caller that shows progress.
    pub progress: Option<ProgressSink>,
}

/// The live figures of a running solve, published by its workers every few milliseconds (with
/// their memory checks) for a caller that shows progress: states in the visited table, the
/// bytes the search holds, which run of a restarting portfolio is working (0: the first), and
/// the smallest lower bound each direction has reached.
#[derive(Debug)]
pub struct Progress {
    states: AtomicUsize,
    bytes: AtomicUsize,
    run: AtomicUsize,
    /// The smallest bound of a forward and of a backward state (`u32::MAX`: none yet).
    closest: [AtomicU32; 2],
    /// An optimal search's lower bound on its objective's first length (`u32::MAX`: none
    /// yet), and the objective (0: none, 1: pushes, 2: moves).
    lower: AtomicU32,
    objective: AtomicU8,
}

impl Default for Progress {
    fn default() -> Progress {
        Progress::new()
    }
}

/// What [`Progress::snapshot`] reads.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ProgressSnapshot {
    /// States in the visited table.
    pub states: usize,
    /// Bytes of the visited table and the open lists.
    pub bytes: usize,
    /// The run of a restarting portfolio (0: the first).
    pub run: usize,
    /// The smallest lower bound of any state the forward search made (pushes still needed, at
    /// least), once it made one.
    pub forward_bound: Option<u32>,
    /// The same for the backward search (pulls still needed to reach a start position).
    pub backward_bound: Option<u32>,
    /// An optimal search's lower bound on every solution, in its objective's first length
    /// (pushes or moves): the least key still open.
    pub lower_bound: Option<(u32, Objective)>,
}

impl Progress {
    /// Zero figures, for a `static`.
    pub const fn new() -> Progress {
        Progress {
            states: AtomicUsize::new(0),
            bytes: AtomicUsize::new(0),
            run: AtomicUsize::new(0),
            closest: [AtomicU32::new(u32::MAX), AtomicU32::new(u32::MAX)],
            lower: AtomicU32::new(u32::MAX),
            objective: AtomicU8::new(0),
        }
    }

    /// The figures as last published.
    pub fn snapshot(&self) -> ProgressSnapshot {
        ProgressSnapshot {
            states: self.states.load(Ordering::Relaxed),
            bytes: self.bytes.load(Ordering::Relaxed),
            run: self.run.load(Ordering::Relaxed),
            forward_bound: bound(&self.closest[0]),
            backward_bound: bound(&self.closest[1]),
            lower_bound: bound(&self.lower).and_then(|b| match self.objective.load(Ordering::Relaxed) {
                1 => Some((b, Objective::Pushes)),
                2 => Some((b, Objective::Moves)),
                _ => None,
            }),
        }
    }

    /// Zeroes the figures, before the next solve.
    pub fn reset(&self) {
        self.states.store(0, Ordering::Relaxed);
        self.bytes.store(0, Ordering::Relaxed);
        self.run.store(0, Ordering::Relaxed);
        for c in &self.closest {
            c.store(u32::MAX, Ordering::Relaxed);
        }
        self.lower.store(u32::MAX, Ordering::Relaxed);
        self.objective.store(0, Ordering::Relaxed);
    }

    /// Publishes a bound a worker of `side` reached (kept if it is the smallest yet).
    pub fn note_bound(&self, side: Side, h: u32) {
        let slot = match side {
            Side::Forward => 0,
            Side::Backward => 1,
        };
        self.closest[slot].fetch_min(h, Ordering::Relaxed);
    }

    /// Publishes an optimal search's lower bound, in the first length of `objective`.
    pub fn note_lower_bound(&self, objective: Objective, lower: u32) {
        self.objective.store(if objective == Objective::Pushes { 1 } else { 2 }, Ordering::Relaxed);
        self.lower.store(lower, Ordering::Relaxed);
    }

    /// Publishes the run that starts.
    pub fn set_run(&self, run: usize) {
        self.run.store(run, Ordering::Relaxed);
    }
}

fn bound(a: &AtomicU32) -> Option<u32> {
    let h = a.load(Ordering::Relaxed);
    (h != u32::MAX).then_some(h)
}

/// A [`Progress`] that lives as long as the program (so [`Limits`] stays `Copy`), compared by
/// identity.
#[derive(Clone, Copy)]
pub struct ProgressSink(pub &'static Progress);

impl PartialEq for ProgressSink {
    fn eq(&self, other: &ProgressSink) -> bool {
        std::ptr::eq(self.0, other.0)
    }
}

impl Eq for ProgressSink {}

impl std::fmt::Debug for ProgressSink {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ProgressSink")
    }
}

/// 60% of the memory this process may use: physical memory (`/proc/meminfo`), or the
/// container's limit (cgroup v2 `memory.max`, v1 `memory.limit_in_bytes`) when that is lower;
/// 4 GiB where neither can be read. The rest is left for the board, the allocator's slack and
/// the other programs on the machine.
pub fn default_memory() -> usize {
    usable_memory().map_or(4 << 30, |t| t / 10 * 6)
}

/// The smaller of physical memory and the cgroup limit, in bytes, when known.
fn usable_memory() -> Option<usize> {
    let read = |path: &str| std::fs::read_to_string(path).ok();
    let physical = read("/proc/meminfo").and_then(|s| {
        s.lines()
            .find_map(|l| l.strip_prefix("MemTotal:"))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<usize>().ok())
            .map(|kb| kb.saturating_mul(1024))
    });
    // "max" (no limit) and unreadable files parse to nothing.
    let cgroup = ["/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"]
        .iter()
        .filter_map(|p| read(p)?.trim().parse::<usize>().ok())
        .min();
    match (physical, cgroup) {
        (Some(p), Some(c)) => Some(p.min(c)),
        (p, c) => p.or(c),
    }
}

/// Why a search stopped without an answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cutoff {
    /// The time limit passed.
    Time,
    /// The memory limit was reached.
    Memory,
    /// The state limit was reached.
    States,
    /// The caller cancelled (Ctrl-C).
    Cancelled,
}

impl Cutoff {
    /// The status word of the command-line contract.
    pub fn status(self) -> &'static str {
        match self {
            Cutoff::Time => "timeout",
            Cutoff::Memory => "memory",
            Cutoff::States => "states",
            Cutoff::Cancelled => "cancelled",
        }
    }

    fn code(self) -> u8 {
        match self {
            Cutoff::Time => 1,
            Cutoff::Memory => 2,
            Cutoff::States => 3,
            Cutoff::Cancelled => 4,
        }
    }

    fn from_code(code: u8) -> Option<Cutoff> {
        Some(match code {
            1 => Cutoff::Time,
            2 => Cutoff::Memory,
            3 => Cutoff::States,
            4 => Cutoff::Cancelled,
            _ => return None,
        })
    }
}

/// The stop flag of one solve, and the limits it enforces. Any worker may set it: on a
/// solution, on a limit, or when it panics (see [`StopOnDrop`]).
#[derive(Debug)]
pub struct Stop<'a> {
    flag: AtomicBool,
    reason: AtomicU8,
    cancel: &'a AtomicBool,
    deadline: Option<Instant>,
    limits: Limits,
    /// Open-list bytes published by each worker slot.
    open_bytes: Vec<AtomicUsize>,
    /// States each worker slot has added to the table, published after every step when a
    /// state limit is set (padded: each worker writes its own cache line).
    inserted: Vec<CachePadded<AtomicUsize>>,
    /// States in the table before the workers started (the roots).
    seeded: AtomicUsize,
}

impl<'a> Stop<'a> {
    /// A stop flag for a solve that starts now, with `workers` slots for memory reports.
    pub fn new(limits: Limits, cancel: &'a AtomicBool, workers: usize) -> Stop<'a> {
        Stop {
            flag: AtomicBool::new(false),
            reason: AtomicU8::new(0),
            cancel,
            // A limit too far off to be an instant (`--time-limit 1e20`) is no limit.
            deadline: limits.time.and_then(|t| Instant::now().checked_add(t)),
            limits,
            open_bytes: (0..workers).map(|_| AtomicUsize::new(0)).collect(),
            inserted: (0..workers).map(|_| CachePadded::new(AtomicUsize::new(0))).collect(),
            seeded: AtomicUsize::new(0),
        }
    }

    /// The memory limit in bytes, if any.
    pub fn memory_limit(&self) -> Option<usize> {
        self.limits.memory
    }

    /// True once any worker has asked everyone to stop.
    #[inline]
    pub fn is_set(&self) -> bool {
        self.flag.load(Ordering::Relaxed)
    }

    /// Asks every worker to stop (a solution was found, or a worker failed).
    pub fn set(&self) {
        self.flag.store(true, Ordering::Relaxed);
    }

    /// Stops every worker for a limit; the first reason given is the one reported.
    pub fn cut(&self, reason: Cutoff) {
        let _ = self.reason.compare_exchange(0, reason.code(), Ordering::Relaxed, Ordering::Relaxed);
        self.set();
    }

    /// The limit that stopped the search, if one did.
    pub fn cutoff(&self) -> Option<Cutoff> {
        Cutoff::from_code(self.reason.load(Ordering::Relaxed))
    }

    /// Checks the caller's cancel flag and the time limit. Cheap enough to call every few
    /// hundred expansions.
    pub fn check_time(&self) {
        if self.cancel.load(Ordering::Relaxed) {
            self.cut(Cutoff::Cancelled);
        } else if self.deadline.is_some_and(|d| Instant::now() >= d) {
            self.cut(Cutoff::Time);
        }
    }

    /// Publishes a worker's open-list bytes.
    pub fn report_open_bytes(&self, slot: usize, bytes: usize) {
        if let Some(a) = self.open_bytes.get(slot) {
            a.store(bytes, Ordering::Relaxed);
        }
    }

    /// Bytes held by all open lists, as last published.
    pub fn open_bytes(&self) -> usize {
        self.open_bytes.iter().map(|a| a.load(Ordering::Relaxed)).sum()
    }

    /// True if a state limit is set: workers then report their inserts after every step.
    #[inline]
    pub fn counts_states(&self) -> bool {
        self.limits.states.is_some()
    }

    /// Records how many states were in the table when the workers started.
    pub fn set_seeded(&self, states: usize) {
        self.seeded.store(states, Ordering::Relaxed);
    }

    /// Publishes how many states a worker has added, and stops the search once all workers
    /// together reach the state limit.
    #[inline]
    pub fn report_inserted(&self, slot: usize, inserted: usize) {
        let Some(limit) = self.limits.states else {
            return;
        };
        if let Some(a) = self.inserted.get(slot) {
            a.store(inserted, Ordering::Relaxed);
        }
        let total: usize = self.seeded.load(Ordering::Relaxed)
            + self.inserted.iter().map(|a| a.load(Ordering::Relaxed)).sum::<usize>();
        if total >= limit {
            self.cut(Cutoff::States);
        }
    }

    /// Publishes the smallest bound a worker of `side` has reached, for the live figures.
    pub fn report_closest(&self, side: Side, h: Option<u32>) {
        if let (Some(ProgressSink(progress)), Some(h)) = (self.limits.progress, h) {
            progress.note_bound(side, h);
        }
    }

    /// Publishes an optimal search's lower bound (the least key open), for the live figures.
    pub fn report_lower_bound(&self, objective: Objective, lower: Option<u32>) {
        if let (Some(ProgressSink(progress)), Some(lower)) = (self.limits.progress, lower) {
            progress.note_lower_bound(objective, lower);
        }
    }

    /// Checks the memory limit against the table's size and the open lists' bytes. (The
    /// state limit is checked on the counts the workers report after every step
    /// ([`Stop::report_inserted`]), never on the table's length: a worker's inserts are
    /// reported before its next step, and a check on the clock that read the length between
    /// the two could stop a one-thread run a step earlier in one run than in another.)
    ///
    /// `table_states` gives the table's length for the live figures
    /// ([`Limits::progress`]); it is asked only when they are wanted.
    pub fn check_memory(&self, table_bytes: usize, table_states: impl FnOnce() -> usize) {
        let bytes = table_bytes + self.open_bytes();
        if let Some(ProgressSink(progress)) = self.limits.progress {
            progress.states.store(table_states(), Ordering::Relaxed);
            progress.bytes.store(bytes, Ordering::Relaxed);
        }
        if self.limits.memory.is_some_and(|m| bytes >= m) {
            self.cut(Cutoff::Memory);
        }
    }
}

/// What a worker should check after a step, as [`Pacer::tick`] says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Due {
    /// Nothing yet.
    Nothing,
    /// The cancel flag and the time limit.
    Time,
    /// Those, and the memory limit (which reads every shard of the table).
    All,
}

/// When a worker checks its limits. A step costs a microsecond on a small level and a tenth
/// of a second on a board with hundreds of boxes (thousands of children, each with its
/// matching bound), so a fixed count of steps between checks is either too often or far too
/// rare: a 1,000-box level once ran 98 s past a 2 s limit before its 256th step. The pacer
/// counts steps between checks and resizes that count so checks come about every
/// [`Pacer::PERIOD`], at most every step and at least every [`Pacer::MAX_INTERVAL`] steps;
/// the table's size is checked at least every [`Pacer::SIZE_PERIOD`].
#[derive(Debug)]
pub struct Pacer {
    steps: u64,
    interval: u64,
    last: Instant,
    last_size: Instant,
    checks: u32,
}

impl Default for Pacer {
    fn default() -> Pacer {
        Pacer::new()
    }
}

impl Pacer {
    /// The time aimed for between two checks of the clock.
    pub const PERIOD: Duration = Duration::from_millis(1);
    /// The most steps between two checks (on fast levels: one clock read per 256 steps).
    pub const MAX_INTERVAL: u64 = 256;
    /// The longest time between two checks of the table's size.
    pub const SIZE_PERIOD: Duration = Duration::from_millis(5);
    /// Clock checks per size check when both come often.
    const CHECKS_PER_SIZE: u32 = 16;

    /// A pacer that checks after the first step, then adapts.
    pub fn new() -> Pacer {
        let now = Instant::now();
        Pacer { steps: 0, interval: 1, last: now, last_size: now, checks: 0 }
    }

    /// Counts one step and says what is due.
    #[inline]
    pub fn tick(&mut self) -> Due {
        self.steps += 1;
        if self.steps < self.interval {
            return Due::Nothing;
        }
        self.steps = 0;
        let now = Instant::now();
        let spent = now.saturating_duration_since(self.last).as_nanos().max(1);
        self.last = now;
        // Scale the interval towards one PERIOD of work, by at most a factor of 2 upwards.
        let target = Pacer::PERIOD.as_nanos();
        let scaled = (u128::from(self.interval) * target / spent) as u64;
        self.interval = scaled.clamp(1, (self.interval * 2).min(Pacer::MAX_INTERVAL));
        self.checks += 1;
        if self.checks >= Pacer::CHECKS_PER_SIZE
            || now.saturating_duration_since(self.last_size) >= Pacer::SIZE_PERIOD
        {
            self.checks = 0;
            self.last_size = now;
            Due::All
        } else {
            Due::Time
        }
    }
}

/// Sets the stop flag when dropped during a panic, so one failing worker never leaves the
/// others running.
#[derive(Debug)]
pub struct StopOnDrop<'s, 'a>(pub &'s Stop<'a>);

impl Drop for StopOnDrop<'_, '_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.0.set();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_memory_is_a_safe_share_of_what_may_be_used() {
        let default = default_memory();
        match usable_memory() {
            Some(usable) => {
                assert!(default <= usable / 10 * 6, "{default} of {usable}");
                assert!(default >= usable / 2, "{default} of {usable}");
            }
            None => assert_eq!(default, 4 << 30),
        }
    }

    #[test]
    fn a_time_limit_past_the_end_of_time_is_no_limit() {
        let cancel = AtomicBool::new(false);
        let stop = Stop::new(Limits { time: Some(Duration::MAX), ..Limits::default() }, &cancel, 1);
        stop.check_time();
        assert!(!stop.is_set());
    }

    /// The state limit counts what the workers report, whatever the table holds when the
    /// memory is checked: a timed check must not stop one run a step before another.
    #[test]
    fn the_state_limit_counts_reported_states_only() {
        let cancel = AtomicBool::new(false);
        let stop = Stop::new(Limits { states: Some(100), ..Limits::default() }, &cancel, 2);
        stop.set_seeded(2);
        stop.report_inserted(0, 40);
        stop.report_inserted(1, 57);
        // The table may already hold the second worker's latest, unreported states.
        stop.check_memory(1 << 30, || 0);
        assert!(!stop.is_set());
        stop.report_inserted(1, 58);
        assert_eq!(stop.cutoff(), Some(Cutoff::States));
    }

    #[test]
    fn pacer_checks_at_the_first_step_and_at_least_every_max_interval() {
        let mut pacer = Pacer::new();
        assert_ne!(pacer.tick(), Due::Nothing);
        let mut since = 0;
        for _ in 0..100_000 {
            since += 1;
            if pacer.tick() != Due::Nothing {
                assert!(since <= Pacer::MAX_INTERVAL, "{since} steps without a check");
                since = 0;
            }
        }
    }

    #[test]
    fn pacer_checks_every_slow_step_and_the_size_every_few() {
        let mut pacer = Pacer::new();
        // Fast steps first, so the interval has grown.
        for _ in 0..10_000 {
            pacer.tick();
        }
        let slow = Duration::from_millis(2);
        let mut ticks = 0;
        while pacer.tick() == Due::Nothing {
            std::thread::sleep(slow);
            ticks += 1;
            assert!(ticks <= Pacer::MAX_INTERVAL);
        }
        // Every step now takes longer than the period: each one is checked, and the size at
        // least every SIZE_PERIOD.
        let mut since_size = 0;
        for _ in 0..10 {
            std::thread::sleep(slow);
            let due = pacer.tick();
            assert_ne!(due, Due::Nothing);
            since_size = if due == Due::All { 0 } else { since_size + 1 };
            assert!(since_size < 3, "{since_size} slow steps without a size check");
        }
    }
}
