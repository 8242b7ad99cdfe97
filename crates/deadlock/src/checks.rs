//! The deadlock tests a child is put to once its player's region is known, each behind one
//! trait ([`DeadlockTest`]), so that a direction keeps them as one list, built once from its
//! switches, and runs it in order up to the first test that proves the child dead.
//!
//! Both directions use the same tests: the pair table, sealed targets and jams (pushing or
//! pulling, by the tables and caches they are built with), and the forward search also the
//! triple table and goal areas. Per-thread caches and counters live in [`TestCaches`].

use std::fmt::Debug;
use std::sync::Arc;

use bisolve_board::{Board, BoxMap, Cell};

use crate::goal_areas::{AreaCheck, GoalAreas};
use crate::jams::JamCheck;
use crate::pairs::{PairMode, PairTable};
use crate::sealed::{SealedCheck, SealedTargets};
use crate::triples::TripleTable;

/// A child as the tests see it: box `index` of the node's `before` boxes has moved to `to`,
/// `boxes` is the child's position, and the player's region is the one `player` is in.
#[derive(Debug, Clone, Copy)]
pub struct AfterMove<'a> {
    /// The board.
    pub board: &'a Board,
    /// The node's boxes, before the move.
    pub before: &'a [Cell],
    /// Which box moved.
    pub index: usize,
    /// Where it moved to.
    pub to: Cell,
    /// The child's boxes.
    pub boxes: &'a BoxMap,
    /// A square of the child's player region.
    pub player: Cell,
    /// Boxes that stand as walls in the small searches (the forward search's boxes frozen on
    /// goals near the moved one, when that is on).
    pub walls: &'a [Cell],
}

/// One deadlock test of a child.
pub trait DeadlockTest: Debug + Send + Sync {
    /// True if the child can never be finished; counts what it proves in `caches`.
    fn is_dead(&self, caches: &mut TestCaches, child: &AfterMove<'_>) -> bool;
}

/// The tests' per-thread state: verdict caches and counters.
#[derive(Debug)]
pub struct TestCaches {
    /// Sealed targets' verdicts and counters.
    pub sealed: SealedCheck,
    /// Jams' verdicts and counters.
    pub jams: JamCheck,
    /// Goal areas' verdicts and counters (forward searches only).
    pub goal_areas: Option<AreaCheck>,
    /// Children the pair table proved dead.
    pub pruned_pairs: u64,
    /// Children the triple table proved dead.
    pub pruned_triples: u64,
}

impl TestCaches {
    /// Caches for a search of direction `mode` on `board`, with a goal-area cache when
    /// `goal_areas`.
    pub fn new(board: &Board, mode: PairMode, goal_areas: bool) -> TestCaches {
        let n = board.n_cells();
        TestCaches {
            sealed: SealedCheck::new(n),
            jams: JamCheck::new(n, mode),
            goal_areas: goal_areas.then(|| AreaCheck::new(board)),
            pruned_pairs: 0,
            pruned_triples: 0,
        }
    }
}

/// Runs `tests` in order on `child`; true at the first that proves it dead.
#[inline]
pub fn any_dead(tests: &[Box<dyn DeadlockTest>], caches: &mut TestCaches, child: &AfterMove<'_>) -> bool {
    tests.iter().any(|t| t.is_dead(caches, child))
}

/// Pair deadlocks: the moved box and any other form a pair that alone can never finish.
#[derive(Debug)]
pub struct PairTest(pub Arc<PairTable>);

impl DeadlockTest for PairTest {
    fn is_dead(&self, caches: &mut TestCaches, c: &AfterMove<'_>) -> bool {
        let dead = self.0.is_dead_with_any(c.to, c.before, c.index, c.boxes, c.player);
        caches.pruned_pairs += u64::from(dead);
        dead
    }
}

/// How far (row plus column distance) from the moved box the other two boxes of a triple
/// checked against the triple table may be.
pub const TRIPLE_REACH: usize = 4;

/// Triple deadlocks: the moved box makes a dead triple with two other boxes within
/// [`TRIPLE_REACH`] steps of it (the first eight such boxes in box order; checking fewer
/// triples only prunes less).
#[derive(Debug)]
pub struct TripleTest(pub Arc<TripleTable>);

impl DeadlockTest for TripleTest {
    fn is_dead(&self, caches: &mut TestCaches, c: &AfterMove<'_>) -> bool {
        let (x, y) = c.board.xy(c.to);
        let mut near = [0 as Cell; 8];
        let mut k = 0;
        for (j, &b) in c.before.iter().enumerate() {
            let (bx, by) = c.board.xy(b);
            if j != c.index && x.abs_diff(bx) + y.abs_diff(by) <= TRIPLE_REACH && k < near.len() {
                near[k] = b;
                k += 1;
            }
        }
        let near = &near[..k];
        let dead =
            near.iter().enumerate().any(|(a, &p)| near[a + 1..].iter().any(|&q| self.0.is_dead(c.to, p, q)));
        caches.pruned_triples += u64::from(dead);
        dead
    }
}

/// Sealed targets: an empty target near the moved box that nothing can enter any more.
#[derive(Debug)]
pub struct SealedTest(pub SealedTargets);

impl DeadlockTest for SealedTest {
    fn is_dead(&self, caches: &mut TestCaches, c: &AfterMove<'_>) -> bool {
        caches.sealed.is_dead(&self.0, c.board, c.boxes, c.to, c.player, c.walls)
    }
}

/// Jams: boxes knotted round the moved one that can never get away or home.
#[derive(Debug)]
pub struct JamTest;

impl DeadlockTest for JamTest {
    fn is_dead(&self, caches: &mut TestCaches, c: &AfterMove<'_>) -> bool {
        caches.jams.is_dead(c.board, c.boxes, c.to, c.player, c.walls)
    }
}

/// Goal areas: the area round the goal just filled can no longer have all its goals filled.
#[derive(Debug)]
pub struct GoalAreaTest(pub GoalAreas);

impl DeadlockTest for GoalAreaTest {
    fn is_dead(&self, caches: &mut TestCaches, c: &AfterMove<'_>) -> bool {
        let check = caches.goal_areas.as_mut().expect("goal-area caches where the test runs");
        check.is_dead(&self.0, c.board, c.boxes, c.to, c.player)
    }
}
