//! Unit tests of the options: presets, TOML both ways, `set`, and the plans they make.

use super::*;
use crate::portfolio::{default_members, luby_restarts, Restart};
use bisolve_deadlock::bound::BoundKind;

fn portfolio(planned: &Planned) -> &crate::Portfolio {
    match &planned.plan {
        Plan::Portfolio(p) => p,
        Plan::Single(c) => panic!("not a portfolio: {c:?}"),
        Plan::Optimal(c) => panic!("not a portfolio: {c:?}"),
    }
}

#[test]
fn optimal_plans_its_own_search_with_only_the_safe_switches() {
    let mut options = SolverOptions::default();
    options.set("optimal=moves").expect("a mode");
    options.set("push.freeze=false").expect("a switch");
    options.set("push.tunnels=true").expect("a switch");
    let planned = options.plan(2).expect("plans");
    let Plan::Optimal(optimal) = &planned.plan else {
        panic!("not an optimal search: {:?}", planned.plan);
    };
    let config = &optimal.config;
    // The strategy finds the solution in hand first, unless asked not to.
    assert!(matches!(optimal.first.as_deref(), Some(Plan::Portfolio(_))));
    assert_eq!(config.objective, bisolve_board::Objective::Moves);
    assert_eq!(config.threads, 2);
    // Asked-for switches hold where they only cut dead states; reordering ones stay off.
    assert!(!config.push.freeze && !config.push.tunnels && !config.push.goal_macros);
    assert_eq!(planned.plan.name(), "optimal-moves");
    assert!(options.set("optimal=sideways").is_err());
    options.set("strategy=greedy").expect("a strategy");
    let planned = options.plan(1).expect("plans");
    assert!(matches!(&planned.plan, Plan::Optimal(o) if matches!(o.first.as_deref(), Some(Plan::Single(_)))));
    options.set("optimal_incumbent=false").expect("a switch");
    let planned = options.plan(1).expect("plans");
    assert!(matches!(&planned.plan, Plan::Optimal(o) if o.first.is_none()));
    assert!(planned.notes.iter().any(|n| n.contains("strategy greedy is not used")));
}

#[test]
fn the_fewest_pushes_take_the_pair_bound_unless_it_is_switched_off() {
    let pair_bound = |sets: &[&str]| {
        let mut options = SolverOptions::default();
        for s in sets {
            options.set(s).expect("a setting");
        }
        let planned = options.plan(2).expect("plans");
        let Plan::Optimal(optimal) = &planned.plan else {
            panic!("not an optimal search: {:?}", planned.plan);
        };
        // The options the run shows say what the optimal search runs with.
        assert_eq!(planned.options.push.pair_bound, Some(optimal.config.push.pair_bound));
        optimal.config.push.pair_bound
    };
    assert!(pair_bound(&["optimal=pushes"]));
    assert!(!pair_bound(&["optimal=pushes", "push.pair_bound=false"]));
    assert!(!pair_bound(&["optimal=moves"]));
    assert!(pair_bound(&["optimal=moves", "push.pair_bound=true"]));
    // The strategy that finds the solution in hand keeps its own members' switches.
    let mut options = SolverOptions::default();
    options.set("optimal=pushes").expect("a mode");
    let planned = options.plan(2).expect("plans");
    let Plan::Optimal(OptimalPlan { first: Some(first), .. }) = &planned.plan else {
        panic!("no solution in hand first: {:?}", planned.plan);
    };
    let Plan::Portfolio(p) = first.as_ref() else { panic!("not a portfolio: {first:?}") };
    assert!(p.members.iter().all(|m| !m.push.pair_bound));
}

#[test]
fn the_default_schedule_is_the_restart_table() {
    assert_eq!(Restart::parse_list(DEFAULT_SCHEDULE).expect("parses"), luby_restarts());
}

#[test]
fn every_preset_writes_toml_that_reads_back_the_same() {
    for p in PRESETS {
        let options = (p.options)();
        let mut read =
            SolverOptions { strategy: "astar".into(), forward_weight: 7, ..SolverOptions::default() };
        read.merge_toml(&options.to_toml(), "test").expect("reads");
        assert_eq!(read, options, "{}", p.name);
        let planned = options.plan(2).expect("plans");
        let mut again = SolverOptions::default();
        again.merge_toml(&planned.options.to_toml(), "test").expect("reads");
        assert_eq!(again, planned.options, "{} as planned", p.name);
    }
    assert!(matches!(preset("nope"), Err(OptionsError::UnknownPreset { .. })));
}

#[test]
fn set_changes_one_key_and_names_what_is_wrong() {
    let mut o = SolverOptions::default();
    o.set("push.freeze=false").expect("a switch");
    o.set("pull.bound = nearest").expect("a bare word");
    o.set("restarts.mode=\"off\"").expect("TOML text");
    o.set("forward_weight=1").expect("a number");
    o.set("members=bi-fess, bwd-greedy").expect("a list");
    o.set("restarts.schedule=10:20").expect("a schedule that reads as a TOML time");
    assert_eq!(o.restarts.schedule, "10:20");
    o.set("restarts.schedule=\"5:4,10:20\"").expect("quoted");
    assert_eq!(o.restarts.schedule, "5:4,10:20");
    assert_eq!(o.push.freeze, Some(false));
    assert_eq!(o.pull.bound, Some(BoundKind::Nearest));
    assert_eq!(o.restarts.mode, RestartMode::Off);
    assert_eq!(o.forward_weight, 1);
    assert_eq!(o.members, ["bi-fess", "bwd-greedy"]);
    let before = o.clone();
    assert!(matches!(o.set("push.frezee=false"), Err(OptionsError::UnknownKey { .. })));
    assert!(matches!(o.set("push=1"), Err(OptionsError::UnknownKey { .. })));
    assert!(matches!(o.set("push.freeze"), Err(OptionsError::NotAnAssignment(_))));
    let bad = o.set("push.freeze=maybe").expect_err("not a boolean").to_string();
    assert!(bad.starts_with("push.freeze: "), "{bad}");
    assert!(o.set("push.bound=sideways").is_err());
    assert!(o.set("dives.backward=-1").is_err());
    assert_eq!(o, before, "a failed set changes nothing");
}

#[test]
fn every_key_can_be_set_to_what_it_holds() {
    // One member, so that every switch has a value (the default members set some differently,
    // and those show as unset).
    let one = SolverOptions { members: vec!["bi-fess".into()], ..SolverOptions::default() };
    let planned = one.plan(2).expect("plans").options;
    let table = toml::Table::try_from(&planned).expect("table");
    for key in SolverOptions::keys() {
        let value = match key.split_once('.') {
            Some((t, k)) => table[t].as_table().and_then(|t| t.get(k)).cloned(),
            None => table.get(&key).cloned(),
        };
        let value = value.unwrap_or_else(|| panic!("{key} is not in the planned options"));
        let mut o = planned.clone();
        o.set(&format!("{key}={value}")).unwrap_or_else(|e| panic!("{key}: {e}"));
        assert_eq!(o, planned, "{key}");
    }
}

#[test]
fn a_file_lays_its_keys_over_the_options_and_unknown_keys_are_refused() {
    let mut o = SolverOptions::default();
    o.merge_toml("tables = \"separate\"\n[push]\njams = false\n[restarts]\nkeep_table = false\n", "f.toml")
        .expect("reads");
    assert_eq!(o.tables, TableMode::Separate);
    assert_eq!(o.push.jams, Some(false));
    assert!(!o.restarts.keep_table);
    assert_eq!(o.restarts.schedule, DEFAULT_SCHEDULE, "keys the file lacks stay");
    let unknown = o.merge_toml("[push]\nfrezee = false\n", "f.toml").expect_err("unknown").to_string();
    assert!(unknown.contains("f.toml") && unknown.contains("frezee"), "{unknown}");
    let broken = o.merge_toml("[push\n", "f.toml").expect_err("not TOML").to_string();
    assert!(broken.starts_with("f.toml: "), "{broken}");
}

#[test]
fn the_default_plan_is_the_default_portfolio() {
    let two = SolverOptions::default().plan(2).expect("plans");
    let p = portfolio(&two);
    assert_eq!(p.members, default_members());
    assert_eq!((p.threads, p.tables, p.forward_weight), (2, TableMode::Shared, FORWARD_WEIGHT));
    assert!(p.restarts.is_empty(), "the default runs once, from start to end");
    assert!(p.keep_table && !p.early_perimeter);
    assert!(two.notes.is_empty() && two.threads_note.is_none(), "{:?}", two.notes);
    assert_eq!(two.options.restarts.mode, RestartMode::Off);
    // `auto` runs the Luby schedule on 2 threads.
    let mut auto = SolverOptions::default();
    auto.set("restarts.mode=auto").expect("set");
    let planned = auto.plan(2).expect("plans");
    assert_eq!(portfolio(&planned).restarts, luby_restarts());
    assert_eq!(planned.options.restarts.mode, RestartMode::On);
    assert_eq!(two.options.push.freeze, Some(true), "switches the members agree on are shown");
    assert_eq!(two.options.push.box_moves, None, "the members' moves differ");
    assert_eq!(two.options.search.advisors, None, "so do their orderings");
}

#[test]
fn the_thread_count_that_turns_restarts_off_says_so() {
    // The default members have seven searches: nine threads are more.
    let mut auto = SolverOptions::default();
    auto.set("restarts.mode=auto").expect("set");
    for threads in [1, 9] {
        let planned = auto.plan(threads).expect("plans");
        assert!(portfolio(&planned).restarts.is_empty(), "{threads} threads");
        assert_eq!(planned.options.restarts.mode, RestartMode::Off, "the options say so");
        assert!(planned.notes.is_empty(), "{:?}", planned.notes);
        if threads == 1 {
            assert!(planned.threads_note.is_none(), "one thread is deterministic by design");
        } else {
            let note = planned.threads_note.expect("a note");
            assert!(note.contains(&format!("this run has {threads}")), "{note}");
        }
    }
    let mut on = SolverOptions::default();
    on.set("restarts.mode=on").expect("set");
    let planned = on.plan(1).expect("plans");
    assert_eq!(portfolio(&planned).restarts, luby_restarts());
    assert!(planned.notes.is_empty() && planned.threads_note.is_none());
}

#[test]
fn forward_dives_hold_in_every_run_and_switches_in_every_member() {
    let mut o = SolverOptions::default();
    o.set("dives.forward=2").expect("set");
    o.set("members=bi-fess,bwd-fess-confined").expect("set");
    o.set("push.corrals=false").expect("set");
    let planned = o.plan(3).expect("plans");
    let p = portfolio(&planned);
    assert!(p.restarts.iter().all(|r| r.dives.forward == 2));
    assert!(p.members.iter().all(|m| !m.push.corrals));
    // The members disagree on confinement: the planned options leave it unset.
    assert_eq!(planned.options.pull.confinement, None);
    assert!(p.members.iter().any(|m| m.pull.confinement));
}

#[test]
fn one_strategy_plans_one_search() {
    let mut o = SolverOptions::default();
    o.set("strategy=astar").expect("set");
    o.set("search.bridges=false").expect("set");
    let planned = o.plan(1).expect("plans");
    let Plan::Single(config) = &planned.plan else { panic!("a portfolio") };
    assert!(!config.strategy.bridges);
    assert_eq!(planned.plan.name(), "astar");
    assert_eq!(planned.options.restarts.mode, RestartMode::Off);
}

#[test]
fn options_that_cannot_run_are_refused() {
    for (key, value) in [
        ("forward_weight", "0"),
        ("dives.backward", "0"),
        ("dives.forward", "65"),
        ("restarts.schedule", "\"10:x\""),
        ("members", "nobody"),
        ("strategy", "sideways"),
    ] {
        let mut o = SolverOptions::default();
        o.set(&format!("{key}={value}")).expect("reads");
        assert!(matches!(o.plan(2), Err(OptionsError::Invalid(_))), "{key}={value}");
    }
}

#[test]
fn what_a_strategy_cannot_use_shows_and_is_told_when_asked_for() {
    let mut astar = SolverOptions::default();
    astar.set("strategy=astar").expect("set");
    let planned = astar.plan(1).expect("plans");
    assert_eq!(planned.options.push.goal_macros, Some(false), "A* runs without macros");
    assert_eq!(planned.options.push.goal_cut, Some(false));
    assert!(planned.notes.is_empty(), "{:?}", planned.notes);
    astar.set("push.goal_macros=true").expect("set");
    let planned = astar.plan(1).expect("plans");
    assert_eq!(planned.notes.len(), 1, "{:?}", planned.notes);
    assert!(planned.notes[0].starts_with("push.goal_macros is off for astar"), "{}", planned.notes[0]);
    let default = SolverOptions::default().plan(2).expect("plans");
    assert_eq!(default.options.push.goal_macros, Some(true));
    assert_eq!(default.options.push.goal_cut, Some(false), "the cut is off by default");
    let mut cut = SolverOptions::default();
    cut.set("push.goal_cut=true").expect("set");
    assert_eq!(cut.plan(2).expect("plans").options.push.goal_cut, Some(true));
}
