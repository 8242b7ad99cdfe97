//! Limits of a solve (time, memory, states) and the one stop flag every worker polls.

use std::sync::atomic::{AtomicBool, AtomicU8, AtomicUsize, Ordering};
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
            deadline: limits.time.map(|t| Instant::now() + t),
            limits,
            open_bytes: (0..workers).map(|_| AtomicUsize::new(0)).collect(),
            inserted: (0..workers).map(|_| CachePadded::new(AtomicUsize::new(0))).collect(),
            seeded: AtomicUsize::new(0),
        }
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

    /// Checks the memory and state limits against the table's size.
    pub fn check_size(&self, table_bytes: usize, table_states: usize) {
        if self.limits.memory.is_some_and(|m| table_bytes + self.open_bytes() >= m) {
            self.cut(Cutoff::Memory);
        } else if self.limits.states.is_some_and(|s| table_states >= s) {
            self.cut(Cutoff::States);
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
