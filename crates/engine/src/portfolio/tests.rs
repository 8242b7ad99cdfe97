//! Unit tests of the portfolio: restart lists, thread deals, kept tables.

use super::schedule::{group_sizes, thread_of};
use super::*;
use crate::stats::Stats;
use bisolve_board::search::Side;
use bisolve_board::State;
use bisolve_deadlock::bound::BoundKind;
use Side::{Backward as B, Forward as F};

#[test]
fn restart_lists_parse_and_bad_ones_say_why() {
    let secs = Duration::from_secs;
    let back = |backward| Dives { forward: 1, backward };
    assert_eq!(
        Restart::parse_list("10:4, 25:8,0.5:16").expect("valid"),
        [
            Restart::new(secs(10), back(4)),
            Restart::new(secs(25), back(8)),
            Restart::new(Duration::from_millis(500), back(16)),
        ]
    );
    let moves: Vec<_> =
        Restart::parse_list("10:4:box,25:8:single,5:2").expect("valid").iter().map(|r| r.box_moves).collect();
    assert_eq!(moves, [Some(true), Some(false), None]);
    let turns: Vec<_> = Restart::parse_list("10:4:box:fess2,25:8:fess5,5:2:single")
        .expect("valid")
        .iter()
        .map(|r| (r.box_moves, r.cycle))
        .collect();
    assert_eq!(turns, [(Some(true), Some(2)), (None, Some(5)), (Some(false), None)]);
    let packing: Vec<_> = Restart::parse_list("10:4:box:packing,25:8:unpacked,5:2:fess2")
        .expect("valid")
        .iter()
        .map(|r| (r.box_moves, r.cycle, r.packing))
        .collect();
    assert_eq!(packing, [(Some(true), None, Some(true)), (None, None, Some(false)), (None, Some(2), None)]);
    let bounds: Vec<_> = Restart::parse_list("10:4:pull-nearest,25:8:box:fess2:packing:pull-zero,5:2")
        .expect("valid")
        .iter()
        .map(|r| r.pull_bound)
        .collect();
    assert_eq!(bounds, [Some(BoundKind::Nearest), Some(BoundKind::Zero), None]);
    assert_eq!(
        Restart::parse_list("10:2:box,6:4:box:packing,22:8:fess8").expect("valid"),
        [
            Restart {
                box_moves: Some(true),
                ..Restart::new(Duration::from_secs(10), Dives { forward: 1, backward: 2 })
            },
            Restart {
                box_moves: Some(true),
                packing: Some(true),
                ..Restart::new(Duration::from_secs(6), Dives { forward: 1, backward: 4 })
            },
            Restart {
                cycle: Some(8),
                ..Restart::new(Duration::from_secs(22), Dives { forward: 1, backward: 8 })
            },
        ]
    );
    for (bad, why) in [
        ("", "expected SECS:DIVES"),
        ("10", "expected SECS:DIVES"),
        ("10:4,", "expected SECS:DIVES"),
        ("x:4", "expected SECS:DIVES"),
        ("10:-1", "expected SECS:DIVES"),
        ("0:4", "positive"),
        ("-3:4", "positive"),
        ("inf:4", "positive"),
        ("NaN:4", "positive"),
        ("10:0", "1 to 64"),
        ("10:65", "1 to 64"),
        ("10:4:boxes", "box or single"),
        ("10:4:box:1", "box or single"),
        ("10:4:fess2:box", "expected SECS:DIVES"),
        ("10:4:fess2:fess3", "the turn fessK"),
        ("10:4:fessx", "expected SECS:DIVES"),
        ("10:4:fess0", "1 to 64"),
        ("10:4:fess65", "1 to 64"),
        ("10:4:packing:unpacked", "packing or unpacked"),
        ("10:4:packed", "packing or unpacked"),
        ("10:4:pull-near", "pull-matching, pull-nearest or pull-zero"),
        ("10:4:pull-nearest:pull-zero", "the backward bound pull-BOUND"),
    ] {
        let err = Restart::parse_list(bad).expect_err(bad);
        assert!(err.contains(why), "{bad:?}: {err}");
    }
}

#[test]
fn the_default_schedule_follows_the_luby_sequence() {
    let first: Vec<u32> = (1..=15).map(luby).collect();
    assert_eq!(first, [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]);
    assert_eq!(luby(16), 1);
    assert_eq!(luby(31), 16);
    let restarts = luby_restarts();
    assert_eq!(restarts.len(), LUBY_RESTARTS);
    for (i, r) in restarts.iter().enumerate() {
        assert_eq!(r.after, LUBY_UNIT * luby(i as u32 + 1), "restart {i}");
        assert_eq!(r.box_moves, (i % 2 == 0).then_some(true), "restart {i}: moves alternate");
        assert_eq!(r.dives.backward, (2 << i).min(MAX_SCHEDULE_DIVES), "restart {i}: dives double");
        assert_eq!(
            (r.cycle, r.packing, r.pull_bound),
            (None, None, None),
            "restart {i}: nothing else changes"
        );
    }
    let total: Duration = restarts.iter().map(|r| r.after).sum();
    assert_eq!(total, LUBY_UNIT * 32);
}

#[test]
fn restarts_come_only_with_two_threads_to_the_searches() {
    assert_eq!(Restart::default_for(2, 2), Restart::defaults());
    assert!(Restart::default_for(2, 1).is_empty());
    assert!(Restart::default_for(2, 3).is_empty());
    assert_eq!(Restart::default_for(3, 3).len(), LUBY_RESTARTS);
}

#[test]
fn threads_up_to_the_search_count_give_one_worker_each() {
    for threads in 0..=4 {
        assert_eq!(group_sizes(&[F, B, B, F], threads), [1, 1, 1, 1], "{threads} threads");
    }
    assert_eq!(group_sizes(&[], 8), Vec::<usize>::new());
}

#[test]
fn members_keep_their_one_thread_shares_where_the_threads_divide_them() {
    // The default's seven searches: three members of both directions, then a forward one.
    let searches = [(0, F), (0, B), (1, F), (1, B), (2, F), (2, B), (3, F)];
    let deal = |deal: Deal, threads: usize| -> Vec<usize> {
        searches.iter().enumerate().map(|(s, &(m, _))| thread_of(deal, threads, 4, s, m)).collect()
    };
    // By member, each thread holds two whole members on 2 threads, one on 4.
    assert_eq!(deal(Deal::Members, 2), [0, 0, 1, 1, 0, 0, 1]);
    assert_eq!(deal(Deal::Members, 4), [0, 0, 1, 1, 2, 2, 3]);
    // By search, the forward searches share one thread of two and the backward ones the other.
    let two = deal(Deal::Searches, 2);
    assert!(searches.iter().zip(&two).all(|(&(_, side), &t)| t == usize::from(side == B)), "{two:?}");
    // More threads than members: by search, whatever the deal.
    assert_eq!(deal(Deal::Members, 5), deal(Deal::Searches, 5));
    assert_eq!(deal(Deal::Members, 5), [0, 1, 2, 3, 4, 0, 1]);
    assert!((1..=7).all(|t| deal(Deal::Members, t).iter().all(|&x| x < t)));
}

#[test]
fn extra_threads_are_dealt_evenly_backward_first() {
    assert_eq!(group_sizes(&[F, B], 3), [1, 2]);
    assert_eq!(group_sizes(&[F, B], 16), [8, 8]);
    assert_eq!(group_sizes(&[F, B], 17), [8, 9]);
    assert_eq!(group_sizes(&[F, B, B], 5), [1, 2, 2]);
    assert_eq!(group_sizes(&[F, B, F], 5), [2, 2, 1]);
    assert_eq!(group_sizes(&[F, B, F], 8), [3, 3, 2]);
    for threads in 3..40 {
        let sizes = group_sizes(&[F, B, F, B, B], threads);
        assert_eq!(sizes.iter().sum::<usize>(), threads.max(5), "{threads} threads: {sizes:?}");
        let (lo, hi) = (sizes.iter().min(), sizes.iter().max());
        assert!(hi.zip(lo).is_some_and(|(h, l)| h - l <= 1), "{threads} threads: {sizes:?}");
    }
}

#[test]
fn a_run_solved_after_a_restart_keeps_no_closest_state_of_the_run_before() {
    use crate::report::{FoundBy, Solution};
    use crate::stats::ClosestPath;
    let report = |outcome| Report {
        outcome,
        stats: Stats::default(),
        elapsed: Duration::from_secs(1),
        threads: 1,
        strategy: String::new(),
        note: None,
        optimality: None,
    };
    let mut earlier = report(Outcome::Cutoff(Cutoff::Time));
    for side in [&mut earlier.stats.forward, &mut earlier.stats.backward] {
        side.closest_h = Some(3);
        side.closest_state = Some(State::new(vec![5], 1));
        side.closest_path = Some(ClosestPath { h: 3, lurd: "R".into() });
    }
    let solution = Solution { lurd: "R".into(), moves: 1, pushes: 1, found_by: FoundBy::Forward };
    let mut solved = report(Outcome::Solved(solution));
    absorb(&mut solved, &earlier, None);
    for side in [&solved.stats.forward, &solved.stats.backward] {
        assert_eq!((&side.closest_path, &side.closest_state), (&None, &None));
        assert_eq!(side.closest_h, Some(3), "the counts add up as before");
    }
    assert_eq!(solved.elapsed, Duration::from_secs(2));
    // Not solved: the earlier run's closest state stays.
    let mut cut = report(Outcome::Cutoff(Cutoff::Time));
    absorb(&mut cut, &earlier, None);
    assert_eq!(cut.stats.backward.closest_state, Some(State::new(vec![5], 1)));
    assert!(cut.stats.forward.closest_path.is_some());
}

/// `levels/engine/open-room.xsb`: twenty boxes, a few thousand states for one search.
const OPEN_ROOM: &str = "\
##########################
#@                       #
#  $ $ $ $ $ $ $ $ $ $   #
#                        #
#  $ $ $ $ $ $ $ $ $ $   #
#                        #
###########  #############
   #  .....  .....  #
   #  .....  .....  #
   ##################";

/// A kept table (`Portfolio::keep_table`): a run searches as in a fresh table, its own
/// side's earlier states counted as new, and ends on the other side's earlier states. One
/// thread, so each run is deterministic.
#[test]
fn a_kept_table_searches_afresh_and_meets_earlier_runs() {
    let level = Level::parse(OPEN_ROOM).expect("parses");
    let portfolio = |name: &str| Portfolio {
        members: members(name).expect("known member"),
        threads: 1,
        tables: TableMode::Shared,
        forward_weight: crate::strategy::FORWARD_WEIGHT,
        deal: Deal::Members,
        dives: DIVES,
        restarts: Vec::new(),
        keep_table: true,
        early_perimeter: false,
    };
    let cancel = AtomicBool::new(false);
    let unlimited = Limits::default();
    let solve = |name: &str, limits: &Limits, table: Option<&VisitedTable>| {
        solve_once(&level, &portfolio(name), limits, &cancel, table).expect("runs")
    };
    let lurd = |report: &Report| match &report.outcome {
        Outcome::Solved(s) => s.lurd.clone(),
        other => panic!("not solved: {other:?}"),
    };
    let alone = solve("fwd-greedy", &unlimited, None);
    // The same search again over its own earlier run: the same states, the same way.
    let mut table = VisitedTable::new(16);
    let first = solve("fwd-greedy", &unlimited, Some(&table));
    assert!(table.next_run());
    let again = solve("fwd-greedy", &unlimited, Some(&table));
    for run in [&first, &again] {
        assert_eq!(lurd(run), lurd(&alone));
        assert_eq!(run.stats.states, alone.stats.states);
        assert_eq!(run.note.as_deref(), Some("found by fwd-greedy"));
    }
    assert!(table.renewed() > 0 && table.len() < first.stats.states + again.stats.states);
    // A backward run cut short, then the forward search: it ends on a backward state of the
    // earlier run, sooner than alone, and the solution replays (solution_of replays it).
    let mut table = VisitedTable::new(16);
    let cut = Limits { states: Some(2_000), ..Limits::default() };
    let backward = solve("bwd-greedy", &cut, Some(&table));
    assert_eq!(backward.outcome, Outcome::Cutoff(Cutoff::States));
    assert!(table.next_run());
    let forward = solve("fwd-greedy", &unlimited, Some(&table));
    let Outcome::Solved(solution) = &forward.outcome else {
        panic!("not solved: {:?}", forward.outcome);
    };
    assert_eq!(
        forward.note.as_deref(),
        Some("found by fwd-greedy, meeting a backward state of an earlier run")
    );
    assert_eq!(solution.found_by, crate::report::FoundBy::Meeting);
    assert!(
        forward.stats.states < alone.stats.states,
        "{} states against {} alone",
        forward.stats.states,
        alone.stats.states
    );
}
