//! The members a portfolio can race: the catalogue `bisolve strategies` lists, and how
//! many workers each search runs.

use bisolve_board::search::Side;
use bisolve_deadlock::bound::BoundKind;
use bisolve_pull::PullConfig;
use bisolve_push::PushConfig;

use crate::strategy::{Directions, Strategy, Weighting};

/// One configuration of a portfolio.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Member {
    /// The name used by `members`; empty for the one member [`crate::solve()`] runs, which
    /// reports then leave unnamed.
    pub name: &'static str,
    /// What it is, for `bisolve strategies`.
    pub about: &'static str,
    /// Directions and ordering.
    pub strategy: Strategy,
    /// Forward switches.
    pub push: PushConfig,
    /// Backward switches.
    pub pull: PullConfig,
}

/// How many searches a portfolio of these members runs: one per member's direction.
pub fn search_count(members: &[Member]) -> usize {
    members.iter().map(|m| directions_used(m.strategy.directions).len()).sum()
}

/// Workers per search (at least 1; more where the threads outnumber the searches): the workers
/// of a search take turns on its thread, each diving on its own best-first order from the
/// states the others hand it. Only the first starts from the roots; one that runs out of work
/// gets the children the others rank below their parents (the way work is shared between
/// threads, see [`crate::hda`]), and the shared table keeps them off each other's states. A
/// search's share of its thread does not grow with its dives: a thread steps the search that has
/// generated least, then that search's worker that has.
///
/// Extra dives are lottery tickets: more threads solve hard levels through their different
/// dives, not only their throughput. The gain is on the backward side: on 2 threads, 10 s a level, four forward dives
/// solved none of the 33 levels one worker leaves unsolved, four backward dives 5 (2026-11-26,
/// `benches/results/2026-11-26-backward-dives.txt`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Dives {
    /// Workers per forward search (`dives.forward`).
    pub forward: usize,
    /// Workers per backward search (`dives.backward`).
    pub backward: usize,
}

impl Dives {
    /// One worker per search (the default, [`DIVES`]).
    pub const ONE: Dives = Dives { forward: 1, backward: 1 };

    /// Workers for a search of this direction.
    pub fn workers(&self, side: Side) -> usize {
        match side {
            Side::Forward => self.forward,
            Side::Backward => self.backward,
        }
        .max(1)
    }
}

/// The default [`Portfolio::dives`](super::Portfolio::dives): one worker per search (more where the
/// threads outnumber the searches). Measured (2026-11-26,
/// `benches/results/2026-11-26-backward-dives.txt`): four backward dives on 2 threads solved 10 of
/// 13 hard levels at 60 s twice, one worker 7 and 8 (16-core machine, 8 levels at once); but at 10
/// s a level they solved XSokoban 1-45 24 and Sasquatch 34 against one worker's 28 and 35, and
/// Microban II 133/135 against 135/135; on one thread (`--jobs 2`) 22 + 34 against 26 + 35.
/// Variants that kept the first dive's strength lost the gain: dives joining after a million states
/// solved no hard level, and the first dive keeping its whole thread (the extra dives on the
/// forward search's) 9 of the 13 at 60 s and 26 + 35 at 10 s. So the dives come with a
/// [`Restart`](crate::Restart) after 10 s (the command line's default at 2 threads) instead of from
/// the start.
pub const DIVES: Dives = Dives::ONE;

fn member(
    name: &'static str,
    about: &'static str,
    directions: Directions,
    weighting: Weighting,
    bound: BoundKind,
) -> Member {
    Member {
        name,
        about,
        strategy: Strategy { directions, weighting, ..Strategy::default() },
        push: PushConfig { bound, ..PushConfig::default() },
        pull: PullConfig { bound, ..PullConfig::default() },
    }
}

/// A feature-cell member searching in `directions` on box moves with FESS's advisor weights,
/// whose forward cells count goals packed in order (`packing`) or the parking plan's steps.
fn advised(directions: Directions, name: &'static str, about: &'static str, packing: bool) -> Member {
    use crate::strategy::DEFAULT_CYCLE;
    let mut m = member(name, about, directions, Weighting::Features(DEFAULT_CYCLE), BoundKind::Matching);
    m.strategy.advisors = true;
    m.push.packing = packing;
    m.push.parking_plan = !packing;
    m.push.box_moves = true;
    m.pull.box_moves = true;
    m
}

/// The forward search alone on box moves with FESS's advisors, the opener among them, and
/// cells of the parking plan's steps and boxes out of plan (`fwd-fess-planned`).
fn forward_planned(name: &'static str, about: &'static str) -> Member {
    let mut m = advised(Directions::Forward, name, about, false);
    m.push.opener = true;
    m.push.out_of_plan = true;
    m
}

/// Every configuration a portfolio can use.
pub fn catalogue() -> Vec<Member> {
    use crate::strategy::DEFAULT_CYCLE;
    use BoundKind::{Matching, Nearest};
    use Directions::{Backward, Both, Forward};
    use Weighting::{AStar, Features, Greedy, Weighted};
    vec![
        member("bi-greedy", "bidirectional greedy on the matching bound", Both, Greedy, Matching),
        member("fwd-greedy", "forward greedy on the matching bound", Forward, Greedy, Matching),
        member("bwd-greedy", "backward greedy on the matching bound", Backward, Greedy, Matching),
        member(
            "bi-wastar",
            "bidirectional weighted A* (g + 3h), matching bound",
            Both,
            Weighted(3),
            Matching,
        ),
        member("fwd-wastar", "forward weighted A* (g + 3h), matching bound", Forward, Weighted(3), Matching),
        member(
            "bwd-wastar",
            "backward weighted A* (g + 3h), matching bound",
            Backward,
            Weighted(3),
            Matching,
        ),
        member("fwd-nearest", "forward greedy on the nearest-goal bound", Forward, Greedy, Nearest),
        member("bi-nearest", "bidirectional greedy on the nearest-target bound", Both, Greedy, Nearest),
        member("bi-astar", "bidirectional A* on the matching bound", Both, AStar, Matching),
        member("fwd-astar", "forward A* on the matching bound", Forward, AStar, Matching),
        member(
            "bi-fess",
            "bidirectional greedy with feature cells in turn",
            Both,
            Features(DEFAULT_CYCLE),
            Matching,
        ),
        member(
            "fwd-fess",
            "forward greedy with feature cells in turn",
            Forward,
            Features(DEFAULT_CYCLE),
            Matching,
        ),
        member(
            "bwd-fess",
            "backward greedy with feature cells in turn",
            Backward,
            Features(DEFAULT_CYCLE),
            Matching,
        ),
        Member {
            pull: PullConfig { confinement: true, ..PullConfig::default() },
            ..member(
                "bwd-fess-confined",
                "backward feature cells, dropping states whose player can never get out",
                Backward,
                Features(DEFAULT_CYCLE),
                Matching,
            )
        },
        Member {
            push: PushConfig {
                packing: true,
                packing_macros: true,
                parking_plan: false,
                ..PushConfig::default()
            },
            pull: PullConfig { packing: true, ..PullConfig::default() },
            ..member(
                "bi-fess-packing",
                "bidirectional feature cells counting packed targets, with packing macros",
                Both,
                Features(DEFAULT_CYCLE),
                Matching,
            )
        },
        Member {
            push: PushConfig { box_moves: true, ..PushConfig::default() },
            pull: PullConfig { box_moves: true, ..PullConfig::default() },
            ..member(
                "bi-fess-box",
                "bi-fess on box moves: a box taken along every run of its own pushes (pulls)",
                Both,
                Features(DEFAULT_CYCLE),
                Matching,
            )
        },
        // The packing order's cells and the parking plan's: the portfolio keeps a member on
        // each.
        advised(
            Both,
            "bi-fess-advised",
            "bi-fess-box with FESS's advisor weights and cells of targets packed in order",
            true,
        ),
        advised(
            Both,
            "bi-fess-planned",
            "bi-fess-box with FESS's advisor weights and cells of the parking plan's steps",
            false,
        ),
        forward_planned(
            "fwd-fess-planned",
            "forward box moves with FESS's advisors (the opener among them) and cells of the parking plan's steps and boxes out of plan",
        ),
        // Festival's forward search: cells of packing, connectivity and out of plan, and the
        // advisors of room links, hotspots and the explorer too.
        {
            let mut m = forward_planned(
                "fwd-fess-rooms",
                "fwd-fess-planned with the room-link, hotspot and explorer advisors, its cells without links and hotspots",
            );
            m.push.room_links = true;
            m.push.hotspots = true;
            m.push.explorer = true;
            m.strategy.link_cells = false;
            m
        },
    ]
}

/// The members `--strategy portfolio` runs when none are named: three bidirectional
/// feature-cell searches and one forward search, in one shared table, which differ in their
/// moves and ordering. `bi-fess` pushes (pulls) one square at a time; `bi-fess-box` takes a
/// box along every run of its own pushes, every position on the way a child, so it reaches
/// deep positions in few expansions; `bi-fess-planned` does that with FESS's advisor weights;
/// `fwd-fess-planned` is that forward search alone, with the opener among its advisors, boxes
/// out of plan in its cells (`push.out_of_plan`, FESS's fourth feature) and,
/// on one thread, as many turns as both searches of a two-way member. All
/// four count the parking plan's steps in their cells, and none makes the goal cut
/// (`push.goal_cut`). Each search's states are meetings for the other members' searches of the
/// other direction, so they do not only race. Measured on XSokoban 1-45 + Sasquatch
/// (`benches/results/2026-12-06-three-members.txt`, `2026-12-06-parking-plan.txt`,
/// `2026-12-07-four-members.txt`, `2026-12-07-forward-member.txt`,
/// `2026-12-07-forward-out-of-plan.txt`, `2026-12-07-forward-rooms.txt`; the first two rows before
/// the parking plan, the last five without the goal cut):
///
/// | members                                  | 2,000,000 states, 1 thread | 20 s, 2 threads |
/// |------------------------------------------|----------------------------|-----------------|
/// | `bi-fess`                                | 23 + 35 = 58               | 36 + 38 = 74    |
/// | `bi-fess,bi-fess-box,bi-fess-advised`    | 31 + 36 = 67               | 36 + 38 = 74    |
/// | the same, with the parking plan in `bi-fess` and `bi-fess-box` | 32 + 36 = 68 | 37 + 38 = 75    |
/// | and `bi-fess-planned`                    | 36 + 37 = 73               | 40 + 38 = 78 (twice) |
/// | the same without the goal cut            | 37 + 37 = 74               |                 |
/// | `fwd-fess-planned` alone                 | 40 + 27 = 67               |                 |
/// | `bi-fess,bi-fess-box,bi-fess-advised,bi-fess-planned,fwd-fess-planned` | 41 + 35 = 76 | |
/// | `bi-fess,bi-fess-box,bi-fess-planned,fwd-fess-planned` | 41 + 35 = 76 | 43 + 38 = 81, in 0.80x (XSokoban) and 0.93x (Sasquatch) the time per level of `bi-fess,bi-fess-box,bi-fess-advised,bi-fess-planned` with the cut |
/// | the same, with out of plan in `fwd-fess-planned` (the default) | 42 + 38 = 80 (against 41 + 37 with the plans of 2026-12-07) | at 60 s: 44 + 41, as without, in 1.05x and 0.75x the time per level |
/// | the same with `fwd-fess-rooms` for `fwd-fess-planned` (not the default) | 40 + 37 = 77 | at 60 s: 45 + 41 in 102.1 s + 588.2 s, against 44 + 41 in 168.1 s + 588.8 s |
///
/// Against the four two-way members with the cut, the four of the default (before out of
/// plan) gain XSokoban 11, 13, 16, 28
/// and 39 at the fixed budget, in 0.67x the states over the levels both solve, and loses
/// Sasquatch 31 and 33, which those members solved just under the budget (1.94M and 1.83M
/// states); at 20 s it gains XSokoban 11, 28 and 39 and loses nothing. Against the five
/// members it solves the same levels in 0.88x the states. Its 76 solutions come from `fwd-fess-planned` 31, `bi-fess` 29, `bi-fess-box` 14 and
/// `bi-fess-planned` 2. With the goal cut the five members solved 40 + 34, and without the
/// forward member's opener 39 + 35 (XSokoban 11 and 16 lost).
pub const DEFAULT_MEMBERS: &[&str] = &["bi-fess", "bi-fess-box", "bi-fess-planned", "fwd-fess-planned"];

/// The members named in a comma-separated list.
pub fn members(names: &str) -> Result<Vec<Member>, String> {
    let all = catalogue();
    let mut chosen = Vec::new();
    for name in names.split(',').map(str::trim).filter(|n| !n.is_empty()) {
        let m = all.iter().find(|m| m.name == name).ok_or_else(|| {
            let known: Vec<&str> = all.iter().map(|m| m.name).collect();
            format!("unknown portfolio member {name:?}: use some of {}", known.join(", "))
        })?;
        if !chosen.iter().any(|c: &Member| c.name == name) {
            chosen.push(m.clone());
        }
    }
    if chosen.is_empty() {
        return Err("a portfolio needs at least one member".into());
    }
    Ok(chosen)
}

/// The default members.
pub fn default_members() -> Vec<Member> {
    members(&DEFAULT_MEMBERS.join(",")).unwrap_or_default()
}

pub(super) fn directions_used(d: Directions) -> &'static [Side] {
    match d {
        Directions::Forward => &[Side::Forward],
        Directions::Backward => &[Side::Backward],
        Directions::Both => &[Side::Forward, Side::Backward],
    }
}
