//! FESS's advisors (Shoham and Schaeffer 2020): each looks at the children of one expansion
//! and recommends at most one of them, the move that best improves the feature it watches.
//! In the feature-space ordering with weights ([`Strategy::advisors`](crate::Strategy)), a
//! recommended move costs 0 and any other move 1, and a node's weight is the sum along its
//! path; inside a feature cell the node of least weight goes first. So the search follows its
//! advisors for free and pays for every move none of them asked for: a breadth-first sweep
//! over the unadvised moves, which no distance estimate steers.
//!
//! The advisors read the features of the feature cells ([`FeatureCell`]):
//! - packing: a move that places a box (fewer unplaced);
//! - connectivity: a move that joins areas of free squares;
//! - room connectivity: a move that reopens a link between rooms;
//! - hotspots: a move that leaves fewer boxes in other boxes' way (counted only with
//!   `push.hotspots`);
//! - explorer: a move that lets the player reach a side of another box from which it can
//!   push that box, where it could not before, and that can be undone ([`Child::explores`],
//!   marked only with `push.explorer`);
//! - out of plan: a move that leaves fewer boxes out of the parking plan (counted only with
//!   `push.out_of_plan`);
//! - opener: when no move packs a step more of the parking plan, the move that best clears
//!   the way to the square of its next step ([`Child::opens`], marked only with
//!   `push.opener`);
//! - imagine: the move that brings a box onto a square where the parking plan keeps boxes
//!   waiting before it next places one for good ([`Child::imagines`], marked only with
//!   `push.imagine`).
//!
//! Each advisor has a switch of its own: `search.advise_packing`, `search.advise_connectivity`,
//! `search.advise_room_links`, `search.advise_hotspots` and `search.advise_out_of_plan` (all on
//! by default, [`Advisors`]), and the explorer, the opener and imagine recommend only where
//! the expander marks moves for them (`push.explorer`, `push.opener`, `push.imagine`).
//!
//! None may recommend a move that unplaces a box. Among the moves that improve its feature,
//! an advisor picks the one with the best cell (fewest unplaced, then fewest cut links, then
//! fewest out of plan, then fewest hotspots, then fewest areas) and then the smallest bound.
//! An expansion with at most two children also gets its first one for free (a forced line
//! costs nothing), as in Festival.

use bisolve_board::search::{Child, FeatureCell};

/// A set of advisors, a bit each: the five that read the feature cells (packing,
/// connectivity, room connectivity, hotspots, out of plan) and the three that read the
/// expander's marks (explorer, opener, imagine).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Advisors(u8);

impl Advisors {
    /// Every advisor.
    pub const ALL: Advisors = Advisors(0xff);
    /// The packing advisor: a move that places a box.
    pub const PACKING: Advisors = Advisors(1);
    /// The connectivity advisor: a move that joins areas.
    pub const CONNECTIVITY: Advisors = Advisors(1 << 1);
    /// The room-connectivity advisor: a move that reopens a link between rooms.
    pub const ROOM_LINKS: Advisors = Advisors(1 << 2);
    /// The hotspots advisor: a move that leaves fewer boxes in other boxes' way.
    pub const HOTSPOTS: Advisors = Advisors(1 << 3);
    /// The out-of-plan advisor: a move that leaves fewer boxes out of plan.
    pub const OUT_OF_PLAN: Advisors = Advisors(1 << 4);

    /// This set without the advisors of `other`.
    pub const fn without(self, other: Advisors) -> Advisors {
        Advisors(self.0 & !other.0)
    }

    /// True if this set holds the advisor of bit `k`.
    fn has(self, k: usize) -> bool {
        self.0 & (1 << k) != 0
    }
}

/// Marks in `advised` (one flag per child, cleared first) the children an advisor of `which`
/// recommends, for a node whose own feature cell is `node` (packed).
pub fn advise(node: u32, children: &[Child], which: Advisors, advised: &mut Vec<bool>) {
    advised.clear();
    advised.resize(children.len(), false);
    if children.is_empty() {
        return;
    }
    let base = FeatureCell::unpack(node);
    // Each advisor's test of a child with cell `c` against the node's cell `b`, in the order
    // of the bits of `Advisors`.
    let improves: [fn(&Child, &FeatureCell, &FeatureCell) -> bool; 8] = [
        |_, c, b| c.unplaced < b.unplaced,
        |_, c, b| c.areas < b.areas,
        |_, c, b| c.cut_links < b.cut_links,
        |_, c, b| c.hotspots < b.hotspots,
        |_, c, b| c.out_of_plan < b.out_of_plan,
        |child, _, _| child.explores,
        |child, _, _| child.opens,
        |child, _, _| child.imagines,
    ];
    for (_, better) in improves.into_iter().enumerate().filter(|&(k, _)| which.has(k)) {
        let pick = children
            .iter()
            .enumerate()
            .filter(|(_, child)| {
                let c = FeatureCell::unpack(child.cell);
                c.unplaced <= base.unplaced && better(child, &c, &base)
            })
            .min_by_key(|(_, child)| (child.cell, child.h))
            .map(|(i, _)| i);
        if let Some(i) = pick {
            advised[i] = true;
        }
    }
    if children.len() <= 2 {
        advised[0] = true;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bisolve_board::{Dir, Fingerprint};

    fn child(unplaced: u32, areas: u32, cut_links: u32, h: u32) -> Child {
        hot_child(FeatureCell { unplaced, areas, cut_links, ..FeatureCell::default() }, h)
    }

    fn hot_child(cell: FeatureCell, h: u32) -> Child {
        Child {
            box_index: 0,
            to: 0,
            dir: Dir::Up,
            player: 0,
            fp: Fingerprint(0),
            h,
            goal: false,
            is_macro: false,
            cell: cell.pack(),
            steps: 1,
            explores: false,
            opens: false,
            imagines: false,
        }
    }

    fn advised(node: (u32, u32, u32), children: &[Child]) -> Vec<bool> {
        let mut out = Vec::new();
        let node =
            FeatureCell { unplaced: node.0, areas: node.1, cut_links: node.2, ..FeatureCell::default() }
                .pack();
        advise(node, children, Advisors::ALL, &mut out);
        out
    }

    #[test]
    fn each_advisor_picks_its_best_improving_move() {
        let children = [
            child(3, 2, 0, 10), // nothing better
            child(2, 2, 0, 12), // places a box
            child(2, 2, 0, 9),  // places a box, smaller bound: the packing advisor's pick
            child(3, 1, 0, 11), // joins the areas: the connectivity advisor's pick
            child(4, 1, 0, 5),  // joins them but unplaces a box: never advised
        ];
        assert_eq!(advised((3, 2, 0), &children), [false, false, true, true, false]);
    }

    #[test]
    fn room_links_and_forced_lines_are_free() {
        let children = [child(3, 1, 2, 10), child(3, 1, 1, 12), child(3, 1, 2, 8)];
        assert_eq!(advised((3, 1, 2), &children), [false, true, false]);
        // Two children and no improvement: the first is free.
        let forced = [child(3, 1, 0, 10), child(3, 1, 0, 12)];
        assert_eq!(advised((3, 1, 0), &forced), [true, false]);
        assert!(advised((3, 1, 0), &[]).is_empty());
    }

    #[test]
    fn the_hotspots_advisor_picks_the_move_that_clears_a_box_out_of_the_way() {
        let cell = |hotspots| FeatureCell { unplaced: 3, areas: 1, hotspots, ..FeatureCell::default() };
        let children = [hot_child(cell(2), 10), hot_child(cell(1), 12), hot_child(cell(1), 9)];
        let mut out = Vec::new();
        advise(cell(2).pack(), &children, Advisors::ALL, &mut out);
        assert_eq!(out, [false, false, true]);
    }

    #[test]
    fn the_explorer_picks_its_best_marked_move_that_unplaces_nothing() {
        let explores = |unplaced, h| Child { explores: true, ..child(unplaced, 2, 0, h) };
        let children = [
            child(3, 2, 0, 1), // not marked
            explores(3, 12),   // marked
            explores(3, 9),    // marked, smaller bound: the explorer's pick
            explores(4, 2),    // marked but unplaces a box: never advised
        ];
        assert_eq!(advised((3, 2, 0), &children), [false, false, true, false]);
    }

    #[test]
    fn the_opener_takes_the_move_the_expander_marked() {
        let opens = |h| Child { opens: true, ..child(3, 2, 0, h) };
        // The unmarked third child has the smaller bound; the marked one is advised.
        let children = [child(3, 2, 0, 5), opens(12), child(3, 2, 0, 3)];
        assert_eq!(advised((3, 2, 0), &children), [false, true, false]);
    }

    #[test]
    fn the_imagine_advisor_takes_the_move_the_expander_marked() {
        let imagines = |h| Child { imagines: true, ..child(3, 2, 0, h) };
        let children = [child(3, 2, 0, 2), child(3, 2, 0, 4), imagines(9)];
        assert_eq!(advised((3, 2, 0), &children), [false, false, true]);
    }

    #[test]
    fn an_advisor_switched_off_recommends_nothing() {
        let node = FeatureCell { unplaced: 3, areas: 2, cut_links: 2, hotspots: 2, out_of_plan: 1 };
        let children = [
            hot_child(FeatureCell { unplaced: 2, ..node }, 1),
            hot_child(FeatureCell { areas: 1, ..node }, 2),
            hot_child(FeatureCell { cut_links: 1, ..node }, 3),
            hot_child(FeatureCell { hotspots: 1, ..node }, 4),
            hot_child(FeatureCell { out_of_plan: 0, ..node }, 5),
        ];
        let mut out = Vec::new();
        advise(node.pack(), &children, Advisors::ALL, &mut out);
        assert_eq!(out, [true; 5]);
        let each = [
            Advisors::PACKING,
            Advisors::CONNECTIVITY,
            Advisors::ROOM_LINKS,
            Advisors::HOTSPOTS,
            Advisors::OUT_OF_PLAN,
        ];
        for (k, off) in each.into_iter().enumerate() {
            advise(node.pack(), &children, Advisors::ALL.without(off), &mut out);
            let expected: Vec<bool> = (0..5).map(|i| i != k).collect();
            assert_eq!(out, expected, "advisor {k} off");
        }
    }

    #[test]
    fn connectivity_prefers_the_better_cell() {
        // Both join areas; the one that also places a box has the better cell.
        let children = [child(3, 1, 0, 4), child(2, 1, 0, 20), child(3, 3, 0, 1)];
        let got = advised((3, 3, 0), &children);
        // The packing advisor and the connectivity advisor both take the second.
        assert_eq!(got, [false, true, false]);
    }
}
