//! Boxes frozen on goals: which they are, and the distance tables with them as walls.

use std::collections::HashMap;
use std::sync::Arc;

use bisolve_board::{Board, BoxMap, Cell, DistanceTable};

use bisolve_deadlock::freeze::{FreezeCheck, Verdict};

/// The most tables one thread keeps at once; a new frozen set past it starts the cache afresh
/// (see [`FrozenTables::get`]).
pub const MAX_TABLES: usize = 4096;

/// Distance tables per set of frozen goal boxes, computed on first use.
#[derive(Debug, Default)]
pub struct FrozenTables {
    tables: HashMap<Vec<Cell>, Arc<DistanceTable>>,
    /// Tables computed, over every start afresh.
    built: u64,
}

impl FrozenTables {
    /// The table for this frozen set (sorted cells), or `None` when the set is empty (the
    /// caller then uses the board's plain distances). A set not seen before gets its table
    /// computed; when [`MAX_TABLES`] are kept already, the cache is emptied first. (It used to
    /// give such sets no table, and so the plain, weaker bound: on a long search every frozen
    /// set past the first 4,096 of a thread, which are the later, fuller ones.)
    pub fn get(&mut self, board: &Board, frozen: &[Cell]) -> Option<Arc<DistanceTable>> {
        if frozen.is_empty() {
            return None;
        }
        if let Some(t) = self.tables.get(frozen) {
            return Some(Arc::clone(t));
        }
        if self.tables.len() >= MAX_TABLES {
            self.tables.clear();
        }
        let table = Arc::new(board.goal_distances_with_frozen(frozen));
        self.tables.insert(frozen.to_vec(), Arc::clone(&table));
        self.built += 1;
        Some(table)
    }

    /// How many tables have been computed, over every start afresh.
    pub fn built(&self) -> u64 {
        self.built
    }

    /// How many tables are kept now.
    pub fn len(&self) -> usize {
        self.tables.len()
    }

    /// True if none is kept.
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

#[cfg(test)]
mod tests {
    use super::*;
    use bisolve_board::Level;

    #[test]
    fn a_full_cache_starts_afresh_instead_of_giving_no_table() {
        let level = Level::parse(
            "################\n#@*************#\n#  $           #\n#             .#\n################\n",
        )
        .expect("valid level");
        let board = level.board();
        let row: Vec<Cell> = (2..15).map(|x| board.cell(x, 1).expect("floor")).collect();
        let set = |bits: usize| -> Vec<Cell> {
            let mut s: Vec<Cell> =
                row.iter().enumerate().filter(|(i, _)| bits >> i & 1 == 1).map(|(_, &c)| c).collect();
            s.sort_unstable();
            s
        };
        let mut tables = FrozenTables::default();
        assert!(tables.get(board, &[]).is_none(), "no frozen box, no table");
        for bits in 1..=MAX_TABLES + 1 {
            assert!(tables.get(board, &set(bits)).is_some(), "set {bits} got no table");
            assert!(tables.len() <= MAX_TABLES);
        }
        assert_eq!(tables.built(), MAX_TABLES as u64 + 1);
        assert_eq!(tables.len(), 1, "emptied when full, then the new set's table");
        // A set seen again while kept costs nothing; one dropped in the emptying is rebuilt.
        tables.get(board, &set(MAX_TABLES + 1));
        assert_eq!(tables.built(), MAX_TABLES as u64 + 1);
        assert!(tables.get(board, &set(1)).is_some());
        assert_eq!(tables.built(), MAX_TABLES as u64 + 2);
    }
}
