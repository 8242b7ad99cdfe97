//! The optimal modes must be optimal: their lengths equal those of a plain Dijkstra search over
//! exact positions written here (no bound, no pruning), for both objectives, on one thread and
//! two, and for the fewest pushes with and without the first phase over the player's regions;
//! a search stopped early reports a lower bound no larger than the optimum. With a solution in
//! hand (the default strategy's, or the optimum itself) the answer is the same and proven, and
//! a search stopped early keeps the shorter of the two.

mod common;

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap, VecDeque};
use std::sync::atomic::AtomicBool;

use bisolve_board::{Cell, Level, Objective, NO_CELL};
use bisolve_engine::{
    solve, solve_optimal, solve_optimal_from, Config, Cutoff, Limits, OptimalConfig, Outcome, PushConfig,
    Report, Solution,
};
use common::check_solution;

/// The most positions the Dijkstra search may settle before a level is too big for it.
const DIJKSTRA_CAP: usize = 300_000;

/// The optimal (moves, pushes) by the objective, by Dijkstra's algorithm over (boxes, player
/// square) with lexicographic costs: `Some(None)` when unsolvable, `None` past the cap.
fn dijkstra(level: &Level, objective: Objective) -> Option<Option<(usize, usize)>> {
    let board = level.board();
    let start = level.start();
    let mut boxes = start.boxes.clone();
    boxes.sort_unstable();
    let mut best: HashMap<(Vec<Cell>, Cell), (u32, u32)> = HashMap::new();
    let mut heap = BinaryHeap::new();
    best.insert((boxes.clone(), start.player), (0, 0));
    heap.push(Reverse(((0u32, 0u32), boxes, start.player)));
    let mut settled = 0;
    while let Some(Reverse((key, boxes, player))) = heap.pop() {
        if best.get(&(boxes.clone(), player)).is_some_and(|&k| k < key) {
            continue;
        }
        if boxes.iter().all(|&b| board.is_goal(b)) {
            let (moves, pushes) = objective.unkey(key);
            return Some(Some((moves as usize, pushes as usize)));
        }
        settled += 1;
        if settled > DIJKSTRA_CAP {
            return None;
        }
        let (moves, pushes) = objective.unkey(key);
        // Walks from the player around the boxes.
        let mut dist: HashMap<Cell, u32> = HashMap::from([(player, 0)]);
        let mut queue = VecDeque::from([player]);
        while let Some(c) = queue.pop_front() {
            let d = dist[&c];
            for &n in board.neighbours(c) {
                if n != NO_CELL && !boxes.contains(&n) && !dist.contains_key(&n) {
                    dist.insert(n, d + 1);
                    queue.push_back(n);
                }
            }
        }
        for (i, &b) in boxes.iter().enumerate() {
            for dir in bisolve_board::Dir::ALL {
                let behind = board.neighbour(b, dir.opposite());
                let to = board.neighbour(b, dir);
                if behind == NO_CELL || to == NO_CELL || boxes.contains(&to) {
                    continue;
                }
                let Some(&walk) = dist.get(&behind) else {
                    continue;
                };
                let mut next = boxes.clone();
                next[i] = to;
                next.sort_unstable();
                let key = objective.key(moves + walk + 1, pushes + 1);
                let slot = best.entry((next.clone(), b)).or_insert((u32::MAX, u32::MAX));
                if key < *slot {
                    *slot = key;
                    heap.push(Reverse((key, next, b)));
                }
            }
        }
    }
    Some(None)
}

fn optimal(level: &Level, objective: Objective, threads: usize, limits: &Limits) -> Report {
    optimal_with(level, objective, threads, true, limits)
}

/// [`optimal`], with the first phase of the fewest pushes on or off.
fn optimal_with(
    level: &Level,
    objective: Objective,
    threads: usize,
    phases: bool,
    limits: &Limits,
) -> Report {
    optimal_from(level, objective, (threads, phases, false), None, limits)
}

/// [`optimal_with`] with a solution in hand, and the pair bound (`--optimal pushes` has it by
/// default) on or off.
fn optimal_from(
    level: &Level,
    objective: Objective,
    (threads, phases, pair_bound): (usize, bool, bool),
    held: Option<&Solution>,
    limits: &Limits,
) -> Report {
    let mut config =
        OptimalConfig::new(objective, threads, PushConfig { pair_bound, ..PushConfig::default() });
    config.phases = phases;
    let cancel = AtomicBool::new(false);
    let report = match held {
        Some(held) => solve_optimal_from(level, &config, Some(held), limits, &cancel),
        None => solve_optimal(level, &config, limits, &cancel),
    };
    report.expect("no engine error")
}

/// The default search's solution of a level, as the solution in hand.
fn satisficing(level: &Level) -> Option<Solution> {
    let report = solve(level, &Config::default(), &Limits::default(), &AtomicBool::new(false)).ok()?;
    check_solution(level, &report).cloned()
}

/// Checks both objectives on one thread and two against Dijkstra; false past its cap.
fn assert_optimal(level: &Level) -> bool {
    let name = format!("{} (index {})", level.name(), level.index());
    for objective in [Objective::Pushes, Objective::Moves] {
        let Some(truth) = dijkstra(level, objective) else {
            return false;
        };
        // (threads, first phase, pair bound). The first phase is for the fewest pushes only:
        // the moves objective ignores it.
        let runs = [(1, true, false), (2, true, true), (2, true, false), (1, false, false), (2, false, true)];
        let runs = if objective == Objective::Pushes { &runs[..] } else { &runs[..3] };
        // Without a solution in hand; with the default search's; with an optimal one, which
        // only running dry below it proves.
        let found = optimal_with(level, objective, 1, true, &Limits::default());
        let helds = [None, satisficing(level), check_solution(level, &found).cloned()];
        for (&(threads, phases, pairs), held) in runs.iter().flat_map(|r| helds.iter().map(move |h| (r, h))) {
            let report =
                optimal_from(level, objective, (threads, phases, pairs), held.as_ref(), &Limits::default());
            let held = held.as_ref().map(|h| (h.moves, h.pushes));
            match truth {
                None => {
                    assert_eq!(
                        report.outcome,
                        Outcome::Unsolvable,
                        "{name}: {objective}, {threads} threads, {phases}, pairs {pairs}, {held:?}"
                    )
                }
                Some((moves, pushes)) => {
                    let solution = check_solution(level, &report).unwrap_or_else(|| {
                        panic!(
                            "{name}: {objective}, {threads} threads, {phases}, pairs {pairs}, {held:?}: {:?}",
                            report.outcome
                        )
                    });
                    assert_eq!(
                        (solution.moves, solution.pushes),
                        (moves, pushes),
                        "{name}: {objective}, {threads} threads, {phases}, pairs {pairs}, {held:?}: {}",
                        solution.lurd
                    );
                    let proof = report.optimality.expect("an optimal search reports its optimality");
                    assert!(proof.proven, "{name}: {objective}, {threads} threads, {held:?}: not proven");
                    assert_eq!(proof.objective, objective);
                    let first = if objective == Objective::Pushes { pushes } else { moves };
                    assert_eq!(proof.lower_bound as usize, first, "{name}");
                }
            }
        }
    }
    true
}

#[test]
fn hand_made_levels_match_dijkstra() {
    let mut checked = 0;
    for file in ["trivial.xsb", "corridor.xsb", "optimal.xsb", "unsolvable.xsb"] {
        for level in common::valid_levels(&common::engine_level_path(file)) {
            if level.walled_off().is_none() && assert_optimal(&level) {
                checked += 1;
            }
        }
    }
    assert!(checked >= 8, "only {checked} hand-made levels were small enough");
}

#[test]
fn demo_levels_match_dijkstra() {
    let levels = common::valid_levels(&common::repo_levels().join("demo.xsb"));
    let checked = levels.iter().filter(|l| assert_optimal(l)).count();
    assert!(checked >= 5, "only {checked} demo levels were small enough");
}

#[test]
fn small_microban_levels_match_dijkstra() {
    let Some(levels) = common::shared_collection("microban.xsb") else {
        return;
    };
    let small: Vec<Level> = levels.into_iter().take(60).filter(|l| l.board().n_boxes() <= 3).collect();
    let checked = small.iter().filter(|l| assert_optimal(l)).count();
    assert!(checked >= 10, "only {checked} Microban levels were small enough");
}

/// Fewest pushes and fewest moves disagree on the demo's "Double back": the fewest pushes
/// (12) cost 43 moves, and 39 moves need 16 pushes.
#[test]
fn the_objectives_choose_differently() {
    let levels = common::valid_levels(&common::repo_levels().join("demo.xsb"));
    let level = levels.iter().find(|l| l.name() == "Double back").expect("the demo has Double back");
    let (p_moves, p_pushes) = dijkstra(level, Objective::Pushes).unwrap().unwrap();
    let (m_moves, m_pushes) = dijkstra(level, Objective::Moves).unwrap().unwrap();
    assert!(p_pushes < m_pushes && m_moves < p_moves, "{p_moves}/{p_pushes} against {m_moves}/{m_pushes}");
    assert!(assert_optimal(level));
}

#[test]
fn a_cut_off_search_reports_a_lower_bound_below_the_optimum() {
    let levels = common::valid_levels(&common::repo_levels().join("demo.xsb"));
    let (mut checked, mut with_solution) = (0, 0);
    for level in levels.iter().filter(|l| l.board().n_boxes() >= 3) {
        let full = optimal(level, Objective::Pushes, 1, &Limits::default());
        let Outcome::Solved(best) = &full.outcome else {
            continue;
        };
        // Cut off early and later, in either phase of the fewest pushes, or in the exact
        // search alone: a solution found by then is valid and no shorter than the optimum,
        // and the bound is no larger.
        for (threads, phases, states) in [
            (1, true, 20),
            (1, false, 20),
            (2, true, 200),
            (2, true, 2_000),
            (2, true, 20_000),
            (2, false, 2_000),
        ] {
            let limits = Limits { states: Some(states), ..Limits::default() };
            let cut = optimal_with(level, Objective::Pushes, threads, phases, &limits);
            let proof = cut.optimality.expect("an optimal search reports its optimality");
            if proof.proven {
                continue;
            }
            let name = format!("{}, {threads} threads, {phases}, {states} states", level.name());
            assert!(
                matches!(cut.outcome, Outcome::Cutoff(Cutoff::States) | Outcome::Solved(_)),
                "{name}: {:?}",
                cut.outcome
            );
            assert!(
                proof.lower_bound as usize <= best.pushes,
                "{name}: bound {} > {}",
                proof.lower_bound,
                best.pushes
            );
            if let Some(found) = check_solution(level, &cut) {
                assert!(found.pushes >= best.pushes, "{name}: {} pushes beat the optimum", found.pushes);
                assert!(proof.lower_bound as usize <= found.pushes, "{name}");
                with_solution += 1;
            }
            checked += 1;
        }
    }
    assert!(checked >= 4, "only {checked} demo runs were cut off");
    assert!(with_solution >= 1, "no cut-off run had found a solution yet");
}

/// Stopped early with a solution in hand, a search reports a solution: the one in hand or a
/// shorter one it found, valid, no shorter than the optimum, and a lower bound no larger than
/// the optimum.
#[test]
fn a_cut_off_search_keeps_the_shorter_of_its_own_and_the_solution_in_hand() {
    let levels = common::valid_levels(&common::repo_levels().join("demo.xsb"));
    let mut checked = 0;
    for level in levels.iter().filter(|l| l.board().n_boxes() >= 3) {
        let Some(held) = satisficing(level) else { continue };
        for objective in [Objective::Pushes, Objective::Moves] {
            let full = optimal(level, objective, 1, &Limits::default());
            let Some(best) = check_solution(level, &full) else { continue };
            let key = |s: &Solution| objective.key(s.moves as u32, s.pushes as u32);
            for (threads, states) in [(1, 20), (2, 200), (2, 2_000)] {
                let limits = Limits { states: Some(states), ..Limits::default() };
                let cut = optimal_from(level, objective, (threads, true, false), Some(&held), &limits);
                let name = format!("{}, {objective}, {threads} threads, {states} states", level.name());
                let proof = cut.optimality.expect("an optimal search reports its optimality");
                let found =
                    check_solution(level, &cut).unwrap_or_else(|| panic!("{name}: {:?}", cut.outcome));
                assert!(key(found) <= key(&held), "{name}: longer than the solution in hand");
                assert!(key(found) >= key(best), "{name}: shorter than the optimum");
                assert!(
                    proof.lower_bound <= key(best).0,
                    "{name}: bound {} over the optimum",
                    proof.lower_bound
                );
                if !proof.proven {
                    checked += 1;
                }
            }
        }
    }
    assert!(checked >= 4, "only {checked} demo runs were cut off");
}

#[test]
fn one_thread_is_deterministic() {
    let levels = common::valid_levels(&common::repo_levels().join("demo.xsb"));
    for level in &levels {
        let a = optimal(level, Objective::Moves, 1, &Limits::default());
        let b = optimal(level, Objective::Moves, 1, &Limits::default());
        assert_eq!(a.outcome, b.outcome, "{}", level.name());
        assert_eq!(a.stats.forward.expanded, b.stats.forward.expanded, "{}", level.name());
    }
}

/// An optimal search given a progress sink publishes its lower bound, in its objective's
/// first length, never above the optimum.
#[test]
fn a_running_optimal_search_publishes_its_lower_bound() {
    static PROGRESS: bisolve_engine::Progress = bisolve_engine::Progress::new();
    let levels = common::valid_levels(&common::repo_levels().join("demo.xsb"));
    let mut seen = 0;
    for level in levels.iter().filter(|l| l.board().n_boxes() >= 3) {
        for objective in [Objective::Pushes, Objective::Moves] {
            PROGRESS.reset();
            let limits =
                Limits { progress: Some(bisolve_engine::ProgressSink(&PROGRESS)), ..Limits::default() };
            let report = optimal(level, objective, 2, &limits);
            let Outcome::Solved(best) = &report.outcome else { continue };
            let first = if objective == Objective::Pushes { best.pushes } else { best.moves };
            if let Some((lower, of)) = PROGRESS.snapshot().lower_bound {
                assert_eq!(of, objective, "{}", level.name());
                assert!(lower as usize <= first, "{}: {objective} bound {lower} over {first}", level.name());
                seen += 1;
            }
        }
    }
    assert!(seen >= 2, "only {seen} runs published a lower bound");
}
