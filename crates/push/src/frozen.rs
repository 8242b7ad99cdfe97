//! Boxes frozen on goals: which they are, and the distance tables with them as walls.

use std::collections::HashMap;
use std::sync::Arc;

use bisolve_board::{Board, BoxMap, Cell, DistanceTable};

use bisolve_board::freeze::{FreezeCheck, Verdict};

/// The most tables one thread keeps; past it, new frozen sets get no table of their own.
const MAX_TABLES: usize = 4096;

/// Distance tables per set of frozen goal boxes, computed on first use.
#[derive(Debug, Default)]
pub struct FrozenTables {
    tables: HashMap<Vec<Cell>, Arc<DistanceTable>>,
}

impl FrozenTables {
    /// The table for this frozen set (sorted cells), or `None` when the set is empty or the
    /// cache is full (the caller then uses the board's plain distances, which are still a
    /// valid, weaker bound).
    pub fn get(&mut self, board: &Board, frozen: &[Cell]) -> Option<Arc<DistanceTable>> {
        if frozen.is_empty() {
            return None;
        }
        if let Some(t) = self.tables.get(frozen) {
            return Some(Arc::clone(t));
        }
        if self.tables.len() >= MAX_TABLES {
            return None;
        }
        let table = Arc::new(board.goal_distances_with_frozen(frozen));
        self.tables.insert(frozen.to_vec(), Arc::clone(&table));
        Some(table)
    }

    /// How many tables have been computed.
    pub fn len(&self) -> usize {
        self.tables.len()
    }

    /// True if none has.
    pub fn is_empty(&self) -> bool {
        self.tables.is_empty()
    }
}

/// Collects the boxes of `boxes` that stand on goals and can never move again, sorted.
pub fn frozen_goal_boxes(
    board: &Board,
    map: &BoxMap,
    boxes: &[Cell],
    freeze: &mut FreezeCheck,
    out: &mut Vec<Cell>,
) {
    out.clear();
    for &b in boxes {
        if board.is_goal(b) && freeze.check(board, map, b) == Verdict::FrozenOnGoals {
            out.push(b);
        }
    }
    out.sort_unstable();
}
