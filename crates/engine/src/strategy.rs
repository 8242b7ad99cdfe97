//! Search strategies: which directions run and how nodes are ordered.

use std::fmt;

use crate::advisors::Advisors;

/// Which searches run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Directions {
    /// Pushes from the start only.
    Forward,
    /// Pulls from the solved positions only.
    Backward,
    /// Both at once, sharing the visited table; a state reached from both ends is a meeting.
    Both,
}

/// How a best-first search orders its open list.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Weighting {
    /// A*: `g + h`, ties to smaller `h`. Push-optimal (forward) with the admissible bounds.
    AStar,
    /// Weighted A*: `g + w h`, ties to smaller `h`.
    Weighted(u32),
    /// Greedy best-first: `h` only, ties to the newest node.
    Greedy,
    /// Feature-space search (after FESS, Shoham and Schaeffer 2020) mixed with greedy: the
    /// open list is split into cells of the feature space (boxes not yet on their targets,
    /// areas of free squares; see [`FeatureCell`](bisolve_board::search::FeatureCell)).
    /// Every `k`-th expansion takes the best node of the next non-empty cell in turn, so that
    /// no region of the feature space is starved; the others take the greedy choice over all
    /// cells. Inside a cell, the best node has the smallest `h`, ties to the newest.
    ///
    /// Measured (bidirectional, one thread, 2,000,000 states a level, solved on XSokoban
    /// 1-45 + Sasquatch): greedy alone (no cells) 13 + 27; cells in turn at every expansion
    /// (`k = 1`) 15 + 29; `k = 2` 17 + 33; `k = 3` 19 + 34; `k = 5` 19 + 32; `k = 8` 19 + 34.
    /// Cells by boxes only, without areas (`k = 1`): 14 + 26. FESS's own order inside a cell
    /// (the moves on a node's path that improved no feature, its advisors' moves free) did
    /// worse than `h` there: that weight alone 9 + 21, weight + h 12 + 29, weight + 2h 14 + 28.
    ///
    /// Counting targets packed in their packing order instead of boxes on targets (the `packing`
    /// switches of the push and pull configurations, `--set push.packing=true`; see
    /// [`bisolve_deadlock::packing`]) was measured the same way: a strict linear order 19 + 34,
    /// layers of the order 20 + 34, needs (the kept form) 18 + 34, against 19 + 34 without; at two
    /// threads and 10 s a level, 25 + 36 against 26 + 36. In the table of every technique on and
    /// off (`benches/results/2026-11-25-techniques.txt`, 60 s cap): `--set push.packing=true` 18 +
    /// 34, `--set push.packing_macros=true` 19 + 35, both 18 + 34, default 19 + 35. So both are off
    /// by default.
    ///
    /// Festival's other choices, each a switch of [`Strategy`], were measured the same way
    /// (2026-12-05, default 23 + 35): a node in the best cell on its path
    /// ([`Strategy::best_past`]) 23 + 31; the pops not in turn from the best cell
    /// ([`Strategy::best_cell`]) 21 + 31; new cells first ([`Strategy::new_cells_first`]) 24 + 33;
    /// all three 18 + 30; FESS's weights inside a cell ([`Strategy::advisors`]) 10 + 21, and with
    /// the other three and a cell in turn every second expansion, as Festival alternates,
    /// 10 + 23 (`benches/results/2026-12-05-fess-parts.txt`).
    Features(u32),
}

/// The `k` of [`Weighting::Features`] when none is named: every third expansion takes a
/// cell in turn.
pub const DEFAULT_CYCLE: u32 = 3;

impl Weighting {
    /// The (primary, secondary) keys of a node at depth `g` with heuristic value `h`.
    /// `preferred` breaks ties between otherwise equal nodes: [`Strategy::inertia`] prefers
    /// children that push the box the last move pushed.
    #[inline]
    pub fn keys(self, g: u32, h: u32, preferred: bool) -> (usize, usize) {
        let inertia = usize::from(!preferred);
        match self {
            Weighting::AStar => ((g + h) as usize, 2 * h as usize + inertia),
            Weighting::Weighted(w) => ((g + w * h) as usize, 2 * h as usize + inertia),
            Weighting::Greedy => (h as usize, inertia),
            // Without a feature cell: everything in one cell, greedy inside it.
            Weighting::Features(_) => (0, 2 * h as usize + inertia),
        }
    }

    /// The keys of a child at depth `g` with heuristic value `h` and feature cell `cell`.
    #[inline]
    pub fn child_keys(self, g: u32, h: u32, cell: u32, preferred: bool) -> (usize, usize) {
        match self {
            Weighting::Features(_) => (cell as usize, 2 * h as usize + usize::from(!preferred)),
            _ => self.keys(g, h, preferred),
        }
    }

    /// The keys of a root with heuristic value `h` and feature cell `cell`.
    #[inline]
    pub fn root_keys(self, h: u32, cell: u32) -> (usize, usize) {
        match self {
            Weighting::Features(_) => (cell as usize, 2 * h as usize),
            _ => self.keys(0, h, false),
        }
    }

    /// True if a child with keys `child` is worse than its parent (popped with `parent`):
    /// such children may be handed to other workers that wait for work.
    #[inline]
    pub fn worse(self, child: (usize, usize), parent: (usize, usize)) -> bool {
        match self {
            Weighting::Features(_) => child.1 / 2 > parent.1 / 2,
            _ => child.0 > parent.0,
        }
    }

    /// For the feature-space ordering, how often the open list takes a feature cell in turn
    /// (every `k`-th pop); `None` for the orderings that pop the smallest keys first.
    pub fn cycle(self) -> Option<u32> {
        match self {
            Weighting::Features(k) => Some(k),
            _ => None,
        }
    }

    /// True if goals must be tested when popped rather than when generated, to keep the
    /// first solution optimal.
    pub fn optimal(self) -> bool {
        self == Weighting::AStar
    }

    fn name(self) -> String {
        match self {
            Weighting::AStar => "astar".into(),
            Weighting::Weighted(3) => "wastar".into(),
            Weighting::Weighted(w) => format!("wastar{w}"),
            Weighting::Greedy => "greedy".into(),
            Weighting::Features(DEFAULT_CYCLE) => "fess".into(),
            Weighting::Features(k) => format!("fess{k}"),
        }
    }

    fn parse(s: &str) -> Option<Weighting> {
        match s {
            "astar" => Some(Weighting::AStar),
            "wastar" => Some(Weighting::Weighted(3)),
            "greedy" => Some(Weighting::Greedy),
            "fess" => Some(Weighting::Features(DEFAULT_CYCLE)),
            _ => {
                if let Some(k) = s.strip_prefix("fess") {
                    let k: u32 = k.parse().ok()?;
                    return (1..=100).contains(&k).then_some(Weighting::Features(k));
                }
                let w: u32 = s.strip_prefix("wastar")?.parse().ok()?;
                (1..=100).contains(&w).then_some(Weighting::Weighted(w))
            }
        }
    }
}

/// A search strategy: the directions and the ordering.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Strategy {
    /// Which searches run.
    pub directions: Directions,
    /// How each orders its nodes.
    pub weighting: Weighting,
    /// Inertia: among children with equal keys, prefer those that push the same box as the
    /// move that led to the parent (one box is usually pushed several times in a row).
    /// Default on; measured at 10 s per level, 2 threads, bidirectional: Microban II 133 vs
    /// 132 solved, Sasquatch 28 vs 27, XSokoban 1-45 20 vs 19.
    pub inertia: bool,
    /// Bridges (see [`crate::bridge`]): when a backward search runs beside the forward one,
    /// the forward worker also searches from the start towards the state where the backward
    /// search came closest to it, so the two meet there. Default on; `--set search.bridges=false`. Off for
    /// A* (its forward half would no longer be push-optimal).
    pub bridges: bool,
    /// Live targets for the bridges (see [`crate::closest::Aim`]): the backward search offers
    /// the bridges its closest state that is not proved out of the start's reach (the player
    /// shut in the wrong region for good, or a start box frozen off the state's squares).
    /// Default off (measured neutral: the same levels at 10 s, none more at 60 s on the levels
    /// where the backward search ends stuck at bound 0); `--set search.live_targets=true`.
    pub live_targets: bool,
    /// Backward bridges (see [`crate::bridge`]): the mirror of the bridges. The backward
    /// worker also searches from the solved position towards the state where the forward
    /// search came closest to the goals, so the two meet there. `--set search.backward_bridges=true`.
    pub backward_bridges: bool,
    /// The perimeter (see [`crate::bridge`]): with the bridges, the forward worker also runs
    /// one larger search from the start ordered by how far the boxes are from their start
    /// squares, once it has expanded [`PERIMETER_AFTER`](crate::bridge::PERIMETER_AFTER)
    /// nodes, recording the start's neighbourhood for the backward search to meet. Default
    /// on; `--set search.perimeter=false`.
    pub perimeter: bool,
    /// The early perimeter: with [`Strategy::perimeter`], the forward worker runs it before
    /// its first expansion, [`EARLY_PERIMETER_EXPANSIONS`](crate::bridge::EARLY_PERIMETER_EXPANSIONS)
    /// of it, so its own dive starts among the start's neighbourhood. Default off; the
    /// portfolio's first run turns it on where the portfolio restarts
    /// ([`crate::Portfolio::early_perimeter`]).
    pub early_perimeter: bool,
    /// Feature cells by the best cell on the path (after Festival): with the feature-space
    /// ordering, a node is queued in the better of its own cell and its parent's queue
    /// cell, so a node waits in the best cell any state on its path reached, and a move that
    /// loses a feature for a while does not drop its line out of the cell it had reached.
    /// `--set search.best_past=true`.
    pub best_past: bool,
    /// With the feature-space ordering, the expansions not in turn take the best node of the
    /// best non-empty cell (Festival's choice) instead of the best node over all cells.
    /// `--set search.best_cell=true`.
    pub best_cell: bool,
    /// With the feature-space ordering, a cell that gets its first node takes the next turn
    /// (Festival's choice). `--set search.new_cells_first=true`.
    pub new_cells_first: bool,
    /// FESS's weights (see [`crate::advisors`]): with the feature-space ordering, a node's
    /// key inside its cell is the number of moves on its path that no advisor recommended,
    /// instead of its bound. `--set search.advisors=true`.
    pub advisors: bool,
    /// With the feature-space ordering, the room links a position cuts and its hotspots
    /// (counted only with `push.room_links` and `push.hotspots`) split the feature cells, as
    /// the paper's room-connectivity feature does. Off, a node's cell leaves them out and
    /// only the advisors read them, as in Festival's forward search, whose cells are packing,
    /// connectivity and out of plan. Default on; `--set search.link_cells=false`.
    pub link_cells: bool,
    /// With [`Strategy::advisors`]: the packing advisor recommends a move that places a box.
    /// Default on; `--set search.advise_packing=false`.
    pub advise_packing: bool,
    /// With [`Strategy::advisors`]: the connectivity advisor recommends a move that joins
    /// areas. Default on; `--set search.advise_connectivity=false`.
    pub advise_connectivity: bool,
    /// With [`Strategy::advisors`]: the room-connectivity advisor recommends a move that
    /// reopens a link between rooms (counted only with `push.room_links`). Default on; `--set
    /// search.advise_room_links=false`.
    pub advise_room_links: bool,
    /// With [`Strategy::advisors`]: the hotspots advisor recommends a move that leaves fewer
    /// boxes in other boxes' way (counted only with `push.hotspots`). Default on; `--set
    /// search.advise_hotspots=false`.
    pub advise_hotspots: bool,
    /// With [`Strategy::advisors`]: the out-of-plan advisor recommends a move that leaves
    /// fewer boxes out of plan (counted only with `push.out_of_plan`). Default on; `--set
    /// search.advise_out_of_plan=false`.
    pub advise_out_of_plan: bool,
}

/// The ordering `forward`, `backward` and `bidirectional` use when none is named: greedy with
/// feature cells in turn every third expansion (`fess`). Forward alone, one thread, 10 s a
/// level, it solves Microban I 155/155 in 0.7 s in all, where forward greedy solves 153.
pub const DEFAULT_WEIGHTING: Weighting = Weighting::Features(DEFAULT_CYCLE);

/// The default single strategy (the library's; the command line races a portfolio of two such
/// searches by default) is `bidirectional` with the default ordering ([`DEFAULT_WEIGHTING`],
/// feature cells). Measured at 10 s a level, 2 threads, on this project's 2-core machine
/// (2026-11-25), against `bidirectional-greedy` (the default before): XSokoban 1-45 26 vs 20
/// solved, Sasquatch 36 vs 28 (every level greedy solved among them), Microban I 155 vs 155,
/// Microban II 135 vs 134; the three Boxoban files 1000 each with both.
impl Default for Strategy {
    fn default() -> Strategy {
        Strategy {
            directions: Directions::Both,
            weighting: DEFAULT_WEIGHTING,
            inertia: true,
            bridges: true,
            live_targets: false,
            backward_bridges: false,
            perimeter: true,
            early_perimeter: false,
            best_past: false,
            best_cell: false,
            new_cells_first: false,
            advisors: false,
            link_cells: true,
            advise_packing: true,
            advise_connectivity: true,
            advise_room_links: true,
            advise_hotspots: true,
            advise_out_of_plan: true,
        }
    }
}

/// Strategy names with a one-line description, for `--help` and `bisolve strategies`.
pub const STRATEGIES: &[(&str, &str)] = &[
    ("bidirectional", "push and pull searches at once, meeting in the shared table (the best single strategy)"),
    ("forward", "push search from the start only"),
    ("backward", "pull search from the solved positions only"),
    ("astar", "forward A* on pushes: push-optimal when it finishes"),
    ("wastar", "forward weighted A* (g + 3h); wastarN for weight N"),
    ("greedy", "forward greedy best-first on the lower bound, no feature cells"),
    ("fess", "the default ordering: greedy with feature cells (boxes placed, areas) in turn every 3rd expansion; fessK: every K-th"),
    ("portfolio", "several configurations racing; the first solution wins (the members option) (default)"),
];

impl Strategy {
    /// The forward switches this strategy can use: goal macros are off for A* (a macro is
    /// several pushes counted as one, and its cut skips pushes, so A* would no longer be
    /// push-optimal), and the goal cut is off unless a backward search runs too (a forward
    /// search with the cut that runs dry proves nothing, and alone it would have nothing
    /// else to decide with). The explorer's, the opener's and the imagine advisor's marks are
    /// made only for a search whose advisors read them.
    pub fn forward_config(self, mut push: bisolve_push::PushConfig) -> bisolve_push::PushConfig {
        if self.weighting.optimal() {
            push.goal_macros = false;
            push.packing_macros = false;
        }
        push.goal_cut &= push.goal_macros && self.directions == Directions::Both;
        push.features = self.weighting.cycle().is_some();
        push.explorer &= push.features && self.advisors;
        push.opener &= push.features && self.advisors;
        push.imagine &= push.features && self.advisors;
        push
    }

    /// The advisors this strategy's switches leave on (see [`crate::advisors`]).
    pub fn advisor_set(self) -> Advisors {
        let off = [
            (self.advise_packing, Advisors::PACKING),
            (self.advise_connectivity, Advisors::CONNECTIVITY),
            (self.advise_room_links, Advisors::ROOM_LINKS),
            (self.advise_hotspots, Advisors::HOTSPOTS),
            (self.advise_out_of_plan, Advisors::OUT_OF_PLAN),
        ];
        off.into_iter().filter(|&(on, _)| !on).fold(Advisors::ALL, |set, (_, a)| set.without(a))
    }

    /// True if the forward search runs bridges: bridges on, a backward search beside it, and
    /// an ordering that need not be optimal.
    pub fn uses_bridges(self) -> bool {
        self.bridges && self.directions == Directions::Both && !self.weighting.optimal()
    }

    /// True if the backward worker runs bridges towards the forward search's closest state
    /// ([`Strategy::backward_bridges`], both directions, not A*).
    pub fn uses_backward_bridges(self) -> bool {
        self.backward_bridges && self.directions == Directions::Both && !self.weighting.optimal()
    }

    /// The backward switches this strategy can use: feature cells only for the feature-space
    /// ordering.
    pub fn backward_config(self, mut pull: bisolve_pull::PullConfig) -> bisolve_pull::PullConfig {
        pull.features = self.weighting.cycle().is_some();
        pull
    }

    /// Reads a strategy name: one of [`STRATEGIES`], or `DIRECTION-ORDERING` such as
    /// `bidirectional-astar` or `backward-wastar5`.
    pub fn parse(name: &str) -> Result<Strategy, String> {
        let name = name.trim().to_ascii_lowercase();
        let (dir, weighting) = match name.split_once('-') {
            Some((d, w)) => (d, Weighting::parse(w).ok_or_else(|| unknown(&name))?),
            None => match Weighting::parse(&name) {
                Some(w) => ("forward", w),
                None => (name.as_str(), DEFAULT_WEIGHTING),
            },
        };
        let directions = match dir {
            "forward" | "push" => Directions::Forward,
            "backward" | "pull" => Directions::Backward,
            "bidirectional" | "both" => Directions::Both,
            _ => return Err(unknown(&name)),
        };
        Ok(Strategy { weighting, directions, ..Strategy::default() })
    }
}

fn unknown(name: &str) -> String {
    let names: Vec<&str> = STRATEGIES.iter().map(|(n, _)| *n).collect();
    format!(
        "unknown strategy {name:?}: use one of {} or DIRECTION-ORDERING (e.g. bidirectional-astar)",
        names.join(", ")
    )
}

impl fmt::Display for Strategy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let dir = match self.directions {
            Directions::Forward => "forward",
            Directions::Backward => "backward",
            Directions::Both => "bidirectional",
        };
        if self.weighting == DEFAULT_WEIGHTING {
            f.write_str(dir)
        } else if self.directions == Directions::Forward {
            f.write_str(&self.weighting.name())
        } else {
            write!(f, "{dir}-{}", self.weighting.name())
        }
    }
}

/// The default [`Portfolio::forward_weight`](crate::Portfolio::forward_weight) and
/// [`crate::Config::forward_weight`]: the forward search of a member of both directions gets a
/// quarter of the member's turns (on one thread, where the default members' seven searches take
/// turns, as do those of a single bidirectional strategy; threads hold a search each when there
/// are as many). On one thread a member of one direction gets as many turns as a member of
/// both. With the default members of 2026-12-06, equal turns solved 2 levels fewer at
/// 2,000,000 states a level (`benches/results/2026-12-06-three-members.txt`). The
/// backward search finds almost every solution on the hard sets. One thread, `--jobs 2`, 10 s a
/// level (2026-11-25, XSokoban 1-45 + Sasquatch): equal turns 21 + 35 = 56, a quarter 25 + 35 = 60
/// (XSokoban 11, 20, 29, 41 gained, none lost) in 0.92 of the time on the levels both solved.
pub const FORWARD_WEIGHT: u64 = 3;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for name in [
            "bidirectional",
            "forward",
            "backward",
            "astar",
            "wastar",
            "greedy",
            "wastar7",
            "backward-astar",
            "bidirectional-wastar5",
            "fess",
            "bidirectional-fess",
            "backward-fess1",
        ] {
            let s = Strategy::parse(name).unwrap();
            let again = Strategy::parse(&s.to_string()).unwrap();
            assert_eq!(s, again, "{name} -> {s}");
        }
        assert_eq!(Strategy::parse("greedy").unwrap().to_string(), "greedy");
        assert_eq!(Strategy::parse("fess").unwrap().to_string(), "forward");
        assert_eq!(Strategy::parse("bidirectional-greedy").unwrap().to_string(), "bidirectional-greedy");
        assert_eq!(Strategy::parse("bidirectional").unwrap(), Strategy::default());
        assert!(Strategy::parse("sideways").is_err());
        assert!(Strategy::parse("forward-wastar0").is_err());
        assert!(Strategy::parse("bidirectional-fess0").is_err());
        assert_eq!(
            Strategy::parse("bidirectional-fess").unwrap().weighting,
            Weighting::Features(DEFAULT_CYCLE)
        );
    }

    #[test]
    fn explorer_marks_are_made_only_for_a_search_whose_advisors_read_them() {
        let asked = bisolve_push::PushConfig { explorer: true, ..Default::default() };
        let fess = Strategy::parse("bidirectional-fess").unwrap();
        assert!(!fess.forward_config(asked).explorer, "no advisors");
        assert!(Strategy { advisors: true, ..fess }.forward_config(asked).explorer);
        let greedy = Strategy { advisors: true, ..Strategy::parse("bidirectional-greedy").unwrap() };
        assert!(!greedy.forward_config(asked).explorer, "no feature cells");
        assert!(!Strategy { advisors: true, ..fess }.forward_config(Default::default()).explorer);
        // The opener's and the imagine advisor's marks likewise.
        let asked = bisolve_push::PushConfig { opener: true, imagine: true, ..Default::default() };
        let kept = Strategy { advisors: true, ..fess }.forward_config(asked);
        assert!(kept.opener && kept.imagine);
        let dropped = fess.forward_config(asked);
        assert!(!dropped.opener && !dropped.imagine, "no advisors");
    }
}
