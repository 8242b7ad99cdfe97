//! Portfolios: several configurations racing on one level. Every solution replays; unsolvable
//! levels are proven so in both table modes; the thread count never changes validity.

mod common;

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use bisolve_deadlock::bound::BoundKind;
use bisolve_engine::portfolio::{catalogue, default_members, members, DEFAULT_MEMBERS, DIVES};
use bisolve_engine::strategy::FORWARD_WEIGHT;
use bisolve_engine::{
    solve_portfolio, Cutoff, Deal, Dives, Limits, Member, Outcome, Portfolio, Report, Restart, TableMode,
};
use common::{engine_level_path, expect_solved, repo_levels, shared_collection, valid_levels};

fn run(level: &bisolve_board::Level, members_list: &str, threads: usize, tables: TableMode) -> Report {
    run_dives(level, members_list, threads, tables, DIVES)
}

fn run_dives(
    level: &bisolve_board::Level,
    list: &str,
    threads: usize,
    tables: TableMode,
    dives: Dives,
) -> Report {
    let portfolio = Portfolio { tables, dives, ..shared(members(list).expect("known members"), threads) };
    // Every caller expects a solution or a proof, which comes in a second or two: the limit
    // only guards against a hang. (At 10 s, Microban 146 with the whole catalogue of 15
    // members on one thread ran out of time on a loaded 2-core machine.)
    let limits = Limits { time: Some(Duration::from_secs(60)), ..Limits::default() };
    solve_portfolio(level, &portfolio, &limits, &AtomicBool::new(false))
        .unwrap_or_else(|e| panic!("{}: portfolio failed: {e}", level.name()))
}

#[test]
fn the_catalogue_names_are_unique_and_the_defaults_exist() {
    let all = catalogue();
    for (i, m) in all.iter().enumerate() {
        assert!(all[i + 1..].iter().all(|o| o.name != m.name), "{} twice", m.name);
    }
    assert_eq!(default_members().len(), DEFAULT_MEMBERS.len());
    assert!(members("bi-greedy, fwd-astar,bi-greedy").is_ok_and(|m| m.len() == 2));
    assert!(members("bi-greedy,nonsense").is_err());
    assert!(members(" , ").is_err());
}

#[test]
fn demo_levels_are_solved_by_every_thread_count_and_table_mode() {
    let list = DEFAULT_MEMBERS.join(",");
    for level in valid_levels(&repo_levels().join("demo.xsb")) {
        for (threads, dives) in [(1, 1), (2, 1), (3, 1), (5, 1), (1, 3), (2, 4), (3, 2)] {
            for tables in [TableMode::Separate, TableMode::Shared] {
                let report = run_dives(&level, &list, threads, tables, both(dives));
                expect_solved(&level, &report);
                let note = report.note.as_deref().unwrap_or_default();
                assert!(note.starts_with("found by "), "{}: note {note:?}", level.name());
                assert!(report.strategy.starts_with("portfolio("), "{}", report.strategy);
            }
        }
    }
}

/// A portfolio of these members on `threads` threads in one shared table, with the default
/// turns and dives and no restart.
fn shared(members: Vec<Member>, threads: usize) -> Portfolio {
    Portfolio {
        members,
        threads,
        tables: TableMode::Shared,
        forward_weight: FORWARD_WEIGHT,
        deal: Deal::Members,
        dives: DIVES,
        restarts: Vec::new(),
        keep_table: true,
        early_perimeter: false,
    }
}

/// `n` workers for every search.
fn both(n: usize) -> Dives {
    Dives { forward: n, backward: n }
}

/// One thread is deterministic for the default portfolio too (it is the command line's
/// default strategy): the same level gives the same solution after the same number of states.
#[test]
fn one_thread_portfolio_runs_repeat_exactly() {
    let list = DEFAULT_MEMBERS.join(",");
    let mut levels = valid_levels(&repo_levels().join("demo.xsb"));
    if let Some(microban) = shared_collection("microban.xsb") {
        levels.extend(microban.into_iter().skip(40).take(5));
    }
    for level in &levels {
        let first = run(level, &list, 1, TableMode::Shared);
        let second = run(level, &list, 1, TableMode::Shared);
        let (a, b) = (expect_solved(level, &first), expect_solved(level, &second));
        assert_eq!(a.lurd, b.lurd, "{}: two one-thread runs found different solutions", level.name());
        assert_eq!(first.stats.states, second.stats.states, "{}: states differ", level.name());
    }
}

#[test]
fn unsolvable_levels_are_proven_in_both_table_modes() {
    for level in valid_levels(&engine_level_path("unsolvable.xsb")) {
        for tables in [TableMode::Separate, TableMode::Shared] {
            // 7 threads: more than the four searches, so each gets a group of workers.
            let uneven = Dives { forward: 2, backward: 3 };
            let cases = [
                (1, both(1)),
                (3, both(1)),
                (7, both(1)),
                (1, both(3)),
                (3, both(2)),
                (1, uneven),
                (3, uneven),
            ];
            for (threads, dives) in cases {
                let report = run_dives(&level, "fwd-greedy,bwd-wastar,bi-nearest", threads, tables, dives);
                assert_eq!(
                    report.outcome,
                    Outcome::Unsolvable,
                    "{} ({tables:?}, {threads} threads, {dives:?})",
                    level.name()
                );
            }
        }
    }
}

/// A shared table whose members all search forward still proves unsolvability only when
/// every one of them has run dry.
#[test]
fn same_direction_members_in_a_shared_table_all_run_dry_first() {
    for level in valid_levels(&engine_level_path("unsolvable.xsb")) {
        let report = run(&level, "fwd-greedy,fwd-wastar,fwd-nearest", 2, TableMode::Shared);
        assert_eq!(report.outcome, Outcome::Unsolvable, "{}", level.name());
    }
}

/// Each member of a shared table searches its whole space, whoever recorded a state first:
/// on an unsolvable level two backward members together expand exactly what each expands
/// alone. By the table alone, the second member queued only states the first had not seen, and
/// since both start from the same roots it ran dry at once (the default `bwd-fess` beside
/// `bi-fess` generated 3 to 5 states on hard levels).
#[test]
fn same_direction_members_in_a_shared_table_each_search_everything() {
    let mut searched = 0;
    for level in valid_levels(&engine_level_path("unsolvable.xsb")) {
        let alone = |name: &str| run(&level, name, 1, TableMode::Shared).stats.backward.expanded;
        let (greedy, wastar) = (alone("bwd-greedy"), alone("bwd-wastar"));
        if greedy == 0 {
            continue; // proven before any search
        }
        searched += 1;
        for threads in [1, 2] {
            let both = run(&level, "bwd-greedy,bwd-wastar", threads, TableMode::Shared);
            assert_eq!(both.outcome, Outcome::Unsolvable, "{}", level.name());
            assert_eq!(
                both.stats.backward.expanded,
                greedy + wastar,
                "{} ({threads} threads): expanded {} together, {greedy} + {wastar} alone",
                level.name(),
                both.stats.backward.expanded
            );
        }
    }
    assert!(searched > 0, "every unsolvable level was proven before searching");
}

/// More threads than searches: each search becomes a group of workers sharing its work (see
/// `bisolve_engine::hda`), every thread runs, and a group that runs dry still proves the level
/// unsolvable once (the level below needs a search to prove it, in both table modes).
#[test]
fn more_threads_than_searches_solve_and_prove() {
    let list = DEFAULT_MEMBERS.join(",");
    let mut levels = valid_levels(&repo_levels().join("demo.xsb"));
    if let Some(microban) = shared_collection("microban.xsb") {
        levels.extend(microban.into_iter().step_by(15));
    }
    for level in &levels {
        for threads in [4, 6] {
            let report = run(level, &list, threads, TableMode::Shared);
            expect_solved(level, &report);
            assert_eq!(report.threads, threads, "{}", level.name());
        }
    }
    let exhaustive = repo_levels().join("edge").join("unsolvable-exhaustive.xsb");
    for level in valid_levels(&exhaustive) {
        for tables in [TableMode::Separate, TableMode::Shared] {
            for (list, threads) in [(list.as_str(), 4), (list.as_str(), 7), ("bi-fess,bwd-greedy", 8)] {
                let report = run(&level, list, threads, tables);
                assert_eq!(report.outcome, Outcome::Unsolvable, "{list} ({tables:?}, {threads} threads)");
                assert!(report.stats.states > 0, "{list} ({threads} threads): proven without a search");
            }
        }
    }
}

#[test]
fn microban_sample_with_the_whole_catalogue() {
    let Some(levels) = shared_collection("microban.xsb") else {
        return;
    };
    let everyone: Vec<&str> = catalogue().iter().map(|m| m.name).collect();
    for index in [3, 40, 93, 120, 146] {
        let level = &levels[index - 1];
        for threads in [1, 2, 4] {
            let report = run(level, &everyone.join(","), threads, TableMode::Separate);
            expect_solved(level, &report);
        }
    }
}

/// Members that make different kinds of macro share one table: the path to a solution may
/// hold another member's packing macros, and must still be rebuilt (Sasquatch 46 failed with
/// "the forward path is inconsistent" before the stitch read it with every member's macros).
#[test]
fn a_shared_table_mixing_macro_kinds_rebuilds_its_solutions() {
    let Some(sasquatch) = shared_collection("sasquatch.xsb") else {
        return;
    };
    let level = &sasquatch[45];
    assert_eq!(level.index(), 46);
    let portfolio = shared(members("bi-fess,bi-fess-packing").expect("known members"), 1);
    let limits = Limits { time: Some(Duration::from_secs(120)), ..Limits::default() };
    let report = solve_portfolio(level, &portfolio, &limits, &AtomicBool::new(false))
        .unwrap_or_else(|e| panic!("Sasquatch 46: {e}"));
    // On a slow machine the limit may come first; a solution, when found, must replay.
    if matches!(report.outcome, Outcome::Solved(_)) {
        expect_solved(level, &report);
    }
}

/// The states the forward and the backward searches of `portfolio` generated on `level` in a
/// run of 100,000 states.
fn generated(level: &bisolve_board::Level, portfolio: &Portfolio) -> (f64, f64) {
    let limits = Limits { states: Some(100_000), ..Limits::default() };
    let report = solve_portfolio(level, portfolio, &limits, &AtomicBool::new(false)).expect("runs");
    (report.stats.forward.generated as f64, report.stats.backward.generated as f64)
}

/// On one thread the default gives the forward search a quarter of the turns (by children
/// generated), and `forward_weight: 1` gives both equal turns. Without bridges: a bridge is up
/// to 20,000 expansions in one forward turn, too coarse for a short run.
#[test]
fn one_thread_shares_its_turns_by_the_forward_weight() {
    let Some(xsokoban) = shared_collection("xsokoban-1-45.xsb") else {
        return;
    };
    let level = &xsokoban[9];
    let mut bi_fess = members("bi-fess").expect("known members");
    bi_fess[0].strategy.bridges = false;
    // A search's share does not grow with its dives.
    let backward = |n| Dives { forward: 1, backward: n };
    let cases = [
        (FORWARD_WEIGHT, DIVES),
        (1, DIVES),
        (FORWARD_WEIGHT, both(4)),
        (1, both(4)),
        (FORWARD_WEIGHT, backward(4)),
        (1, backward(3)),
    ];
    for (weight, dives) in cases {
        let portfolio = Portfolio { forward_weight: weight, dives, ..shared(bi_fess.clone(), 1) };
        let (fw, bw) = generated(level, &portfolio);
        let ratio = fw * weight as f64 / bw;
        assert!(
            (0.8..1.25).contains(&ratio),
            "weight {weight}, {dives:?}: forward generated {fw}, backward {bw} (weighted ratio {ratio:.2})"
        );
    }
}

/// Every member gets an equal share of the turns: with `w` the forward weight, a two-way
/// member's backward search makes `w` times its forward search's states, and a one-way member's
/// search as many as both of them together.
#[test]
fn a_one_way_member_gets_a_two_way_members_share() {
    let Some(xsokoban) = shared_collection("xsokoban-1-45.xsb") else {
        return;
    };
    let level = &xsokoban[9];
    let mut list = members("fwd-fess,bi-fess").expect("known members");
    for member in &mut list {
        member.strategy.bridges = false;
    }
    for weight in [FORWARD_WEIGHT, 1] {
        let portfolio = Portfolio { forward_weight: weight, ..shared(list.clone(), 1) };
        let (fw, bw) = generated(level, &portfolio);
        // bi-fess forward bw / w, fwd-fess bw / w + bw.
        let expected = bw * (weight + 2) as f64 / weight as f64;
        let ratio = fw / expected;
        assert!(
            (0.8..1.25).contains(&ratio),
            "weight {weight}: forward generated {fw}, backward {bw} (ratio to the equal share {ratio:.2})"
        );
    }
}

/// `dives` runs each search as that many workers: on one thread they take turns in a fixed
/// order (the same level gives the same solution), every solution replays, and the extra
/// workers change the search (without bridges, whose long forward runs could hide it).
#[test]
fn dives_take_turns_deterministically_and_change_the_search() {
    let mut bi_fess = members("bi-fess").expect("known members");
    bi_fess[0].strategy.bridges = false;
    let run = |level: &bisolve_board::Level, dives: Dives| {
        let portfolio = Portfolio { dives, ..shared(bi_fess.clone(), 1) };
        let limits = Limits { time: Some(Duration::from_secs(30)), ..Limits::default() };
        solve_portfolio(level, &portfolio, &limits, &AtomicBool::new(false)).expect("runs")
    };
    let mut changed = 0;
    for level in valid_levels(&repo_levels().join("demo.xsb")) {
        let one = run(&level, DIVES);
        expect_solved(&level, &one);
        for dives in [both(4), Dives { forward: 1, backward: 4 }, both(3)] {
            let (four, again) = (run(&level, dives), run(&level, dives));
            let (a, b) = (expect_solved(&level, &four), expect_solved(&level, &again));
            assert_eq!(a.lurd, b.lurd, "{}: two one-thread runs with {dives:?} differ", level.name());
            assert_eq!(four.stats.states, again.stats.states, "{}: {dives:?}", level.name());
            changed += usize::from(one.stats.states != four.stats.states);
        }
    }
    assert!(changed > 0, "extra workers per search searched exactly as one on every demo level");
}

/// A restart (`Portfolio::restarts`) changes nothing for a level solved before it is due (one
/// thread: the same solution after the same states), and once due it starts a second search
/// whose solutions replay and whose report counts both searches.
#[test]
fn a_restart_changes_only_what_outlasts_it() {
    let list = DEFAULT_MEMBERS.join(",");
    let portfolio = |restarts| Portfolio { restarts, ..shared(members(&list).expect("known members"), 1) };
    let limits = Limits { time: Some(Duration::from_secs(30)), ..Limits::default() };
    let dives = Dives { forward: 1, backward: 3 };
    let late = Restart::new(Duration::from_secs(25), dives);
    let at_once = Restart::new(Duration::ZERO, dives);
    let mut restarted = 0;
    for level in valid_levels(&repo_levels().join("demo.xsb")) {
        let solve = |restart| {
            solve_portfolio(&level, &portfolio(restart), &limits, &AtomicBool::new(false)).expect("runs")
        };
        let (plain, before) = (solve(vec![]), solve(vec![late]));
        let (a, b) = (expect_solved(&level, &plain), expect_solved(&level, &before));
        assert_eq!(a.lurd, b.lurd, "{}: a restart not yet due changed the search", level.name());
        assert_eq!(plain.stats.states, before.stats.states, "{}", level.name());
        // Due at once: the first search stops at its first look at the clock.
        let report = solve(vec![at_once]);
        expect_solved(&level, &report);
        let note = report.note.as_deref().unwrap_or_default();
        if note.contains("restarted after") {
            restarted += 1;
            assert!(report.stats.states > 0, "{}", level.name());
        }
    }
    assert!(restarted > 0, "no demo level outlasted a restart due at once");
}

/// A restart may change the move model: the run after one due at once with `box_moves:
/// Some(true)` makes box moves on both sides (the members' own are off), its solutions replay,
/// and `Some(false)` after members with box moves turns them off again.
#[test]
fn a_restart_can_change_the_move_model() {
    let list = DEFAULT_MEMBERS.join(",");
    let limits = Limits { time: Some(Duration::from_secs(30)), ..Limits::default() };
    let dives = Dives { forward: 1, backward: 1 };
    let later_moves = |stats: &bisolve_engine::Stats| {
        let count = |pruned: &[(&str, u64)], name: &str| {
            pruned.iter().filter(|(k, _)| k.starts_with(name)).map(|&(_, n)| n).sum::<u64>()
        };
        count(&stats.forward.pruned, "box moves past the first push")
            + count(&stats.backward.pruned, "box moves past the first pull")
    };
    let (mut on, mut off, mut restarted) = (0, 0, 0);
    for level in valid_levels(&repo_levels().join("demo.xsb")) {
        for (members_on, restart_on) in [(false, true), (true, false)] {
            let mut members = members(&list).expect("known members");
            for m in &mut members {
                m.push.box_moves = members_on;
                m.pull.box_moves = members_on;
            }
            let restart = Restart { box_moves: Some(restart_on), ..Restart::new(Duration::ZERO, dives) };
            let portfolio = Portfolio { restarts: vec![restart], ..shared(members, 1) };
            let report = solve_portfolio(&level, &portfolio, &limits, &AtomicBool::new(false)).expect("runs");
            expect_solved(&level, &report);
            let note = report.note.as_deref().unwrap_or_default();
            if !note.contains("restarted after") {
                continue;
            }
            let named = if restart_on { "(box moves)" } else { "(single moves)" };
            assert!(note.contains(named), "note {note:?}");
            restarted += 1;
            // The first run stopped at its first look at the clock, before any expansion.
            if restart_on {
                on += later_moves(&report.stats);
            } else {
                off += later_moves(&report.stats);
            }
        }
    }
    assert!(restarted > 0, "no demo level outlasted a restart due at once");
    assert!(on > 0, "a box-moves restart made no box moves");
    assert_eq!(off, 0, "a single-moves restart made box moves");
}

/// On every demo level, the default members with one restart due at once, as it is and as
/// `change` makes it (one thread, so each run is deterministic): both solve with replaying
/// solutions, the changed run names `word` in its note, and `differs` tells the two searches
/// apart on some demo level.
fn a_restart_setting_changes_the_search(
    change: impl Fn(Restart) -> Restart,
    word: &str,
    differs: impl Fn(&Report, &Report) -> bool,
) {
    let limits = Limits { time: Some(Duration::from_secs(30)), ..Limits::default() };
    let restart = Restart::new(Duration::ZERO, Dives { forward: 1, backward: 1 });
    let (mut restarted, mut differ) = (0, 0);
    for level in valid_levels(&repo_levels().join("demo.xsb")) {
        let solve = |restart| {
            let members = members(&DEFAULT_MEMBERS.join(",")).expect("known members");
            let portfolio = Portfolio { restarts: vec![restart], ..shared(members, 1) };
            solve_portfolio(&level, &portfolio, &limits, &AtomicBool::new(false)).expect("runs")
        };
        let (own, changed) = (solve(restart), solve(change(restart)));
        expect_solved(&level, &own);
        expect_solved(&level, &changed);
        let note = changed.note.as_deref().unwrap_or_default();
        if !note.contains("restarted after") {
            continue;
        }
        assert!(note.contains(word), "note {note:?}");
        restarted += 1;
        differ += usize::from(differs(&own, &changed));
    }
    assert!(restarted > 0, "no demo level outlasted a restart due at once");
    assert!(differ > 0, "{word} changed no search on {restarted} demo levels");
}

/// A restart may change the feature-cell turn: `cycle: Some(1)` (a cell in turn at every
/// expansion) searches otherwise than the members' own turn (every third).
#[test]
fn a_restart_can_change_the_feature_cell_turn() {
    let expanded = |r: &Report| r.stats.forward.expanded + r.stats.backward.expanded;
    a_restart_setting_changes_the_search(
        |r| Restart { cycle: Some(1), ..r },
        "fess1",
        |own, every| expanded(own) != expanded(every),
    );
}

/// A restart may change the backward bound (`Restart::pull_bound`): the nearest start square
/// searches otherwise than the members' own bound, the matching.
#[test]
fn a_restart_can_change_the_backward_bound() {
    a_restart_setting_changes_the_search(
        |r| Restart { pull_bound: Some(BoundKind::Nearest), ..r },
        "pull-nearest",
        |own, nearest| own.stats.backward.generated != nearest.stats.backward.generated,
    );
}

/// The first run of a portfolio that restarts runs the perimeter early
/// (`Portfolio::early_perimeter`): before the forward worker's first expansion, so a forward
/// search that expanded anything ran a bridge first, and the perimeter's expansions show on
/// some demo level, where the late one (after 250,000 expansions) never comes. Solutions
/// replay either way. Without restarts the flag changes nothing. One thread, so each run is
/// deterministic; the restart is never due.
#[test]
fn the_first_run_of_a_restarting_portfolio_runs_the_perimeter_early() {
    let limits = Limits { time: Some(Duration::from_secs(30)), ..Limits::default() };
    let never = Restart::new(Duration::from_secs(3600), Dives { forward: 1, backward: 1 });
    let mut earlier = 0;
    for level in valid_levels(&repo_levels().join("demo.xsb")) {
        let solve = |restarts: &[Restart], early_perimeter| {
            let members = members(&DEFAULT_MEMBERS.join(",")).expect("known members");
            let portfolio = Portfolio { restarts: restarts.to_vec(), early_perimeter, ..shared(members, 1) };
            solve_portfolio(&level, &portfolio, &limits, &AtomicBool::new(false)).expect("runs")
        };
        let (late, early) = (solve(&[never], false), solve(&[never], true));
        expect_solved(&level, &late);
        expect_solved(&level, &early);
        let fw = &early.stats.forward;
        assert!(fw.expanded == 0 || fw.bridges >= 1, "{}: {fw:?}", level.name());
        earlier += usize::from(fw.bridge_expanded > late.stats.forward.bridge_expanded);
        let (alone, flagged) = (solve(&[], false), solve(&[], true));
        expect_solved(&level, &flagged);
        assert_eq!(
            (
                alone.stats.forward.expanded,
                alone.stats.forward.bridge_expanded,
                alone.stats.backward.expanded
            ),
            (
                flagged.stats.forward.expanded,
                flagged.stats.forward.bridge_expanded,
                flagged.stats.backward.expanded
            ),
            "{}: one run is not the first of several",
            level.name()
        );
    }
    assert!(earlier > 0, "the early perimeter ran on no demo level");
}

/// A restarted search still proves unsolvable levels, and one that is never solved ends at
/// the time limit with both searches counted.
#[test]
fn a_restarted_search_proves_and_stops() {
    let twice = Restart::new(Duration::ZERO, Dives { forward: 1, backward: 2 });
    let restarts = vec![Restart::new(Duration::ZERO, Dives { forward: 2, backward: 3 }), twice];
    for level in valid_levels(&engine_level_path("unsolvable.xsb")) {
        let portfolio = Portfolio {
            restarts: restarts.clone(),
            ..shared(members("fwd-greedy,bwd-wastar,bi-nearest").expect("known members"), 2)
        };
        let limits = Limits { time: Some(Duration::from_secs(30)), ..Limits::default() };
        let report = solve_portfolio(&level, &portfolio, &limits, &AtomicBool::new(false)).expect("runs");
        assert_eq!(report.outcome, Outcome::Unsolvable, "{}", level.name());
    }
    let Some(xsokoban) = shared_collection("xsokoban-1-45.xsb") else {
        return;
    };
    let portfolio = Portfolio {
        restarts: vec![
            Restart::new(Duration::from_millis(300), Dives { forward: 1, backward: 4 }),
            Restart::new(Duration::from_millis(300), Dives { forward: 1, backward: 8 }),
            Restart::new(Duration::from_millis(300), Dives { forward: 1, backward: 16 }),
        ],
        ..shared(default_members(), 2)
    };
    let limits = Limits { time: Some(Duration::from_millis(1800)), ..Limits::default() };
    let report = solve_portfolio(&xsokoban[9], &portfolio, &limits, &AtomicBool::new(false)).expect("runs");
    assert_eq!(report.outcome, Outcome::Cutoff(Cutoff::Time), "XSokoban 10 solved in 1.8 s?");
    let note = report.note.as_deref().unwrap_or_default();
    // Three restarts, each named by when it came, in tenths of a second below 10 s.
    assert!(
        note.contains("restarted after 0.") && note.contains(" s, ") && note.contains(" s and "),
        "note {note:?}"
    );
    assert!(report.elapsed >= Duration::from_millis(1700), "{:?}", report.elapsed);
    // A time limit with no room for the second restart leaves one.
    let limits = Limits { time: Some(Duration::from_millis(500)), ..Limits::default() };
    let report = solve_portfolio(&xsokoban[9], &portfolio, &limits, &AtomicBool::new(false)).expect("runs");
    let note = report.note.as_deref().unwrap_or_default();
    assert!(note.contains("restarted after") && !note.contains(" s and "), "note {note:?}");
}
