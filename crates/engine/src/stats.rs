//! Statistics of a solve: effort per direction, pruning per test, table size and memory.

use bisolve_board::search::PruneCount;
use bisolve_board::State;

/// Effort of one direction (summed over its workers).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SideStats {
    /// Nodes expanded.
    pub expanded: u64,
    /// Children generated (after pruning, duplicates included).
    pub generated: u64,
    /// Children that were new states.
    pub inserted: u64,
    /// Children already known on the same side.
    pub duplicates: u64,
    /// Known states reached again by a shorter path.
    pub improved: u64,
    /// Popped nodes skipped because a shorter path had replaced them.
    pub stale: u64,
    /// Children cut by each pruning test.
    pub pruned: Vec<PruneCount>,
    /// The closest approach to this side's targets: the smallest lower bound (`h`: pushes
    /// forward to goals, pulls backward to start squares) of any child generated. `None` when
    /// no child was generated.
    pub closest_h: Option<u32>,
    /// The fewest boxes left to place (boxes off their targets, or with the packing feature
    /// targets not yet packed) in any child's feature cell, for the feature-cell ordering
    /// only. A side that gets close by this count or by [`SideStats::closest_h`] without
    /// finishing is stuck in states that look almost done (for the backward search: almost
    /// the start position) but are not.
    pub closest_unplaced: Option<u32>,
    /// Bridges run towards the other direction's closest state (see [`crate::bridge`]).
    pub bridges: u64,
    /// Nodes the bridges expanded (not counted in `expanded`; their children are
    /// counted in `generated`, the effort by which one thread gives the directions turns).
    pub bridge_expanded: u64,
    /// Forward side of a search that ended without a solution: the way from the start to the
    /// first state made with the smallest lower bound, by the worker that made it (see
    /// [`ClosestPath`]). `None` for the backward side, for solved levels, and for searches
    /// whose table no longer holds the path.
    pub closest_path: Option<ClosestPath>,
    /// A search that ended without a solution, either side: the first state made with the
    /// smallest lower bound ([`SideStats::closest_h`]), by the worker that made it (the first
    /// such worker, so one thread stays deterministic). Backward, it shows how the search
    /// misses the start when it comes within a pull or two of it (the player shut in another
    /// region than the start player's, for instance). `None` for solved levels.
    pub closest_state: Option<State>,
}

/// The way from the start to a state where the forward search came closest to the goals: the
/// states along it are the search's own, so replaying a prefix gives the position after each
/// push, and a forward search from that position says whether it is still alive. On hard
/// levels the closest states are dead; bisecting the path finds the push that killed it and
/// how many states the search needs to prove it (`benches/dead_root.py`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClosestPath {
    /// The state's lower bound ([`SideStats::closest_h`] of the run that made it).
    pub h: u32,
    /// Its moves from the start, LURD, replayed on the level.
    pub lurd: String,
}

impl SideStats {
    /// Adds another worker's counts to these.
    pub fn add(&mut self, other: &SideStats) {
        self.expanded += other.expanded;
        self.generated += other.generated;
        self.inserted += other.inserted;
        self.duplicates += other.duplicates;
        self.improved += other.improved;
        self.stale += other.stale;
        self.bridges += other.bridges;
        self.bridge_expanded += other.bridge_expanded;
        if other.closest_state.is_some() && (self.closest_state.is_none() || other.closest_h < self.closest_h)
        {
            self.closest_state = other.closest_state.clone();
        }
        if let Some(path) = &other.closest_path {
            if self.closest_path.as_ref().is_none_or(|mine| path.h < mine.h) {
                self.closest_path = Some(path.clone());
            }
        }
        self.closest_h = min_some(self.closest_h, other.closest_h);
        self.closest_unplaced = min_some(self.closest_unplaced, other.closest_unplaced);
        for &(name, n) in &other.pruned {
            match self.pruned.iter_mut().find(|(k, _)| *k == name) {
                Some((_, m)) => *m += n,
                None => self.pruned.push((name, n)),
            }
        }
    }
}

/// The smaller of two optional values; `None` only when both are.
fn min_some(a: Option<u32>, b: Option<u32>) -> Option<u32> {
    match (a, b) {
        (Some(x), Some(y)) => Some(x.min(y)),
        _ => a.or(b),
    }
}

/// Statistics of a whole solve.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Stats {
    /// The forward (push) search.
    pub forward: SideStats,
    /// The backward (pull) search.
    pub backward: SideStats,
    /// States in the visited table at the end.
    pub states: usize,
    /// Bytes held by the visited table at the end.
    pub table_bytes: usize,
    /// The most bytes the open lists held at a check.
    pub peak_open_bytes: usize,
    /// 64-bit key collisions resolved by the overflow map.
    pub collisions: u64,
}

impl Stats {
    /// Children generated by both directions.
    pub fn generated(&self) -> u64 {
        self.forward.generated + self.backward.generated
    }

    /// Nodes expanded by both directions.
    pub fn expanded(&self) -> u64 {
        self.forward.expanded + self.backward.expanded
    }

    /// Visited-table bytes per stored state.
    pub fn bytes_per_state(&self) -> f64 {
        if self.states == 0 {
            0.0
        } else {
            self.table_bytes as f64 / self.states as f64
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adding_keeps_the_closest_approach_of_either_worker() {
        let mut a = SideStats { expanded: 2, closest_h: Some(7), ..SideStats::default() };
        let b =
            SideStats { expanded: 3, closest_h: Some(4), closest_unplaced: Some(2), ..SideStats::default() };
        a.add(&b);
        assert_eq!((a.expanded, a.closest_h, a.closest_unplaced), (5, Some(4), Some(2)));
        a.add(&SideStats::default());
        assert_eq!((a.closest_h, a.closest_unplaced), (Some(4), Some(2)));
        let mut empty = SideStats::default();
        empty.add(&SideStats { closest_h: Some(9), ..SideStats::default() });
        assert_eq!((empty.closest_h, empty.closest_unplaced), (Some(9), None));
    }

    #[test]
    fn adding_keeps_the_closest_state_of_the_smaller_bound() {
        let state = |b: u16| Some(State::new(vec![b], 0));
        let mut later = SideStats { closest_h: Some(5), closest_state: state(5), ..SideStats::default() };
        // An earlier run that came closer: its state wins.
        later.add(&SideStats { closest_h: Some(3), closest_state: state(3), ..SideStats::default() });
        assert_eq!((later.closest_h, later.closest_state.clone()), (Some(3), state(3)));
        // One that came less close, or as close, leaves it.
        later.add(&SideStats { closest_h: Some(4), closest_state: state(4), ..SideStats::default() });
        later.add(&SideStats { closest_h: Some(3), closest_state: state(9), ..SideStats::default() });
        assert_eq!(later.closest_state, state(3));
        // A side without one takes the other's.
        let mut none = SideStats::default();
        none.add(&SideStats { closest_h: Some(8), closest_state: state(8), ..SideStats::default() });
        assert_eq!((none.closest_h, none.closest_state), (Some(8), state(8)));
    }
}
