//! Pruning never cuts a state on a known solution path: every state of a found solution,
//! expanded by the forward (push) or backward (pull) generator with all pruning on, yields
//! the next (resp. previous) state of the path, with an admissible heuristic value.

mod common;

use std::collections::{HashMap, HashSet, VecDeque};

use bisolve_board::moves::{pushes_to_steps, replay, Push, ReplayError};
use bisolve_board::search::{Child, Expander, NodeRef, PackedMove};
use bisolve_board::{BoxMap, Cell, Level, Reach, State};
use bisolve_deadlock::bound::BoundKind;
use bisolve_deadlock::freeze::FreezeCheck;
use bisolve_deadlock::goal_areas::{AreaCheck, GoalAreas};
use bisolve_deadlock::jams::JamCheck;
use bisolve_deadlock::pairs::PairMode;
use bisolve_deadlock::rooms::{GoalRoom, GoalRooms};
use bisolve_deadlock::sealed::{SealedCheck, SealedTargets};
use bisolve_pull::confine::ConfineCheck;
use bisolve_pull::start_freeze::StartFreeze;
use bisolve_pull::{Backward, PullConfig};
use bisolve_push::frozen::frozen_goal_boxes;
use bisolve_push::shut_in::ShutInCheck;
use bisolve_push::{Forward, PushConfig};
use common::{expect_solved, run_named, solution_pushes, state_sequence, Canonical};

const BOUNDS: [BoundKind; 3] = [BoundKind::Matching, BoundKind::Nearest, BoundKind::Zero];

/// The forward defaults without goal or packing macros: these checks are about pruning, and a
/// macro is several pushes in one move (`goal_macros_are_legal_push_sequences` and
/// `packing_macros_are_legal_push_sequences` check those).
fn single_pushes() -> PushConfig {
    PushConfig { goal_macros: false, goal_cut: false, packing_macros: false, ..PushConfig::default() }
}

/// A move that must be one push, as a push.
fn one_push<E: Expander>(exp: &E, mv: PackedMove) -> Push {
    let mut out = Vec::new();
    exp.as_pushes(mv, &mut out);
    assert_eq!(out.len(), 1, "{mv:?} should be one push: {out:?}");
    out[0]
}

/// The children of a state, expanded by `exp` with the normalized player.
fn children<E: Expander>(exp: &E, scratch: &mut E::Scratch, level: &Level, s: &State, g: u32) -> Vec<Child> {
    let node = NodeRef::of_state(level.board(), s, g, bisolve_board::NO_CELL);
    let mut out = Vec::new();
    exp.expand(scratch, node, &mut out);
    out
}

/// A node for `is_goal`.
fn is_goal<E: Expander>(exp: &E, scratch: &mut E::Scratch, level: &Level, s: &State) -> bool {
    let node = NodeRef::of_state(level.board(), s, 0, bisolve_board::NO_CELL);
    exp.is_goal(scratch, node)
}

/// Moves the first later push of the solution that the generator offers at state `i` to
/// position `i`, when the reordered list still solves the level (same number of pushes).
fn move_offered_push_first(level: &Level, pushes: &[Push], i: usize, offered: &[Push]) -> Option<Vec<Push>> {
    for k in i + 1..pushes.len() {
        if !offered.contains(&pushes[k]) {
            continue;
        }
        let mut reordered = pushes.to_vec();
        let push = reordered.remove(k);
        reordered.insert(i, push);
        let Ok(steps) = pushes_to_steps(level.board(), level.start(), &reordered) else {
            continue;
        };
        if replay(level.board(), level.start(), &steps).is_ok() {
            return Some(reordered);
        }
    }
    None
}

/// The forward generator, with every pruning test on (the defaults), keeps each step of the
/// path.
///
/// A generator may restrict a state to a few pushes that some solution can make first: a
/// forced push (a box that can only ever leave its square one way) or the pushes into a
/// PI-corral. Then one of the pushes it offers must come later in the known solution, and
/// making it first must still solve the level: the path is reordered so and the check goes
/// on along it, with the same number of pushes, so the admissibility checks keep their
/// meaning.
fn check_forward(level: &Level, what: &str, pushes: &[Push]) {
    let board = level.board();
    let n = pushes.len();
    for bound in BOUNDS {
        let mut pushes = pushes.to_vec();
        let mut states = state_sequence(board, level.start(), &pushes);
        let fwd = Forward::new(board, level.start(), PushConfig { bound, ..single_pushes() });
        let mut scratch = fwd.new_scratch();
        let roots = fwd.roots(&mut scratch);
        assert_eq!(roots.len(), 1, "{what}: forward roots ({bound:?})");
        assert_eq!(
            roots[0].fp,
            states[0].fingerprint(board),
            "{what}: forward root is not the start ({bound:?})"
        );
        assert!(
            roots[0].h as usize <= n,
            "{what}: forward root h {} > {n} pushes of a known solution ({bound:?})",
            roots[0].h
        );
        assert!(
            is_goal(&fwd, &mut scratch, level, &states[n]),
            "{what}: forward is_goal rejects the solved end state"
        );
        let mut i = 0;
        while i < n {
            let want = states[i + 1].fingerprint(board);
            let kids = children(&fwd, &mut scratch, level, &states[i], i as u32);
            let Some(child) = kids.iter().find(|c| c.fp == want) else {
                let (parent, next) = (&states[i], &states[i + 1]);
                let cut = format!(
                    "{what}: forward ({bound:?}) pruned push {} of {n} ({:?}): state {i} has {} \
                     children, none is state {}\nboxes before {:?}, after {:?}",
                    i + 1,
                    pushes[i],
                    kids.len(),
                    i + 1,
                    parent.boxes,
                    next.boxes
                );
                let offered: Vec<Push> = kids.iter().map(|k| one_push(&fwd, k.packed())).collect();
                pushes = move_offered_push_first(level, &pushes, i, &offered).unwrap_or_else(|| {
                    panic!("{cut}\nit offers {offered:?}, none of which a reordering of the solution makes first")
                });
                states = state_sequence(board, level.start(), &pushes);
                continue;
            };
            let (parent, next) = (&states[i], &states[i + 1]);
            let remaining = n - (i + 1);
            assert!(
                child.h as usize <= remaining,
                "{what}: forward ({bound:?}) h {} after push {} exceeds the {remaining} pushes \
                 left on a known solution",
                child.h,
                i + 1
            );
            assert_eq!(child.goal, next.is_solved(board), "{what}: goal flag, push {}", i + 1);
            assert_eq!(
                child.player,
                next.normalized_player(board),
                "{what}: child player not normalized, push {}",
                i + 1
            );
            // The engine rebuilds paths with `parent` and `as_pushes`: both must undo this move.
            assert_eq!(one_push(&fwd, child.packed()), pushes[i], "{what}: as_push, push {}", i + 1);
            let undone = fwd
                .parent(next, child.packed())
                .unwrap_or_else(|| panic!("{what}: forward parent() refuses push {}", i + 1));
            assert_eq!(undone.boxes, parent.boxes, "{what}: forward parent(), push {}", i + 1);
            assert_eq!(
                undone.fingerprint(board),
                parent.fingerprint(board),
                "{what}: forward parent() player region, push {}",
                i + 1
            );
            i += 1;
        }
    }
}

/// The backward generator, with every pruning test on, keeps each step of the path (read
/// from the solved end back to the start).
fn check_backward(level: &Level, what: &str, states: &[State], pushes: &[Push]) {
    let board = level.board();
    let n = pushes.len();
    for bound in BOUNDS {
        let bwd = Backward::new(board, level.start(), PullConfig { bound, ..PullConfig::default() });
        let mut scratch = bwd.new_scratch();
        let end = states[n].fingerprint(board);
        let roots = bwd.roots(&mut scratch);
        let root = roots.iter().find(|r| r.fp == end).unwrap_or_else(|| {
            panic!(
                "{what}: no backward root ({bound:?}) is the solved end state (boxes {:?}, \
                 player {}); {} roots",
                states[n].boxes,
                states[n].player,
                roots.len()
            )
        });
        assert!(root.h as usize <= n, "{what}: backward root h {} > {n} ({bound:?})", root.h);
        assert!(is_goal(&bwd, &mut scratch, level, &states[0]), "{what}: backward is_goal rejects the start");
        for i in (0..n).rev() {
            let (pulled_from, want_state) = (&states[i + 1], &states[i]);
            let want = want_state.fingerprint(board);
            let kids = children(&bwd, &mut scratch, level, pulled_from, (n - i - 1) as u32);
            let child = kids.iter().find(|c| c.fp == want).unwrap_or_else(|| {
                panic!(
                    "{what}: backward ({bound:?}) pruned the pull undoing push {} of {n} \
                     ({:?}): state {} has {} children, none is state {i}\nboxes {:?} -> {:?}",
                    i + 1,
                    pushes[i],
                    i + 1,
                    kids.len(),
                    pulled_from.boxes,
                    want_state.boxes
                )
            });
            assert!(
                child.h as usize <= i,
                "{what}: backward ({bound:?}) h {} for state {i} exceeds the {i} pulls left to \
                 the start",
                child.h
            );
            assert_eq!(child.goal, i == 0, "{what}: backward goal flag, state {i}");
            assert_eq!(one_push(&bwd, child.packed()), pushes[i], "{what}: backward as_push, push {}", i + 1);
            let undone = bwd
                .parent(want_state, child.packed())
                .unwrap_or_else(|| panic!("{what}: backward parent() refuses pull {}", i + 1));
            assert_eq!(
                undone.fingerprint(board),
                pulled_from.fingerprint(board),
                "{what}: backward parent(), pull {}",
                i + 1
            );
        }
    }
}

/// Solves the level with the default strategy and checks both generators along the path.
fn check_level(level: &Level, what: &str) {
    let report = run_named(level, "bidirectional", 1);
    let solution = expect_solved(level, &report);
    let pushes = solution_pushes(level, &solution.lurd);
    assert_eq!(pushes.len(), solution.pushes, "{what}");
    let states = state_sequence(level.board(), level.start(), &pushes);
    assert!(states.last().is_some_and(|s| s.is_solved(level.board())), "{what}");
    check_forward(level, what, &pushes);
    check_backward(level, what, &states, &pushes);
}

#[test]
fn microban_1_to_60_paths_survive_pruning() {
    let Some(levels) = common::shared_collection("microban.xsb") else {
        return;
    };
    for level in levels.iter().take(60) {
        check_level(level, &format!("Microban {}", level.index()));
    }
}

/// The longer solutions of the later Microban levels (153 is left out: it is hard).
#[test]
fn microban_61_to_150_paths_survive_pruning() {
    let Some(levels) = common::shared_collection("microban.xsb") else {
        return;
    };
    for level in levels.iter().take(150).skip(60) {
        check_level(level, &format!("Microban {}", level.index()));
    }
}

/// Solutions from other strategies take other paths; check a few of those too.
#[test]
fn other_strategies_paths_survive_pruning() {
    let Some(levels) = common::shared_collection("microban.xsb") else {
        return;
    };
    for level in levels.iter().take(30) {
        for strategy in ["forward", "backward", "astar"] {
            let what = format!("Microban {} ({strategy})", level.index());
            let report = run_named(level, strategy, 1);
            let solution = expect_solved(level, &report);
            let pushes = solution_pushes(level, &solution.lurd);
            let states = state_sequence(level.board(), level.start(), &pushes);
            check_forward(level, &what, &pushes);
            check_backward(level, &what, &states, &pushes);
        }
    }
}

/// The levels of a shared collection that one thread solves within `cap` visited states (a
/// state limit, not a time limit, so the set is the same on every machine), each checked along
/// its solution. Returns how many were checked.
fn check_solved_in_collection(file: &str, cap: usize) -> Option<usize> {
    let levels = common::shared_collection(file)?;
    let limits = bisolve_engine::Limits { states: Some(cap), ..bisolve_engine::Limits::default() };
    let config = common::config("bidirectional", 1);
    let mut checked = 0;
    for level in &levels {
        let report = common::run(level, &config, &limits);
        let bisolve_engine::Outcome::Solved(solution) = &report.outcome else {
            continue;
        };
        let what = format!("{file} {}", level.index());
        let pushes = solution_pushes(level, &solution.lurd);
        let states = state_sequence(level.board(), level.start(), &pushes);
        check_forward(level, &what, &pushes);
        check_backward(level, &what, &states, &pushes);
        checked += 1;
    }
    Some(checked)
}

/// Microban II and Sasquatch: the solutions bisolve finds quickly (longer ones, other board
/// shapes) are kept by every forward and backward test.
#[test]
fn microban2_and_sasquatch_paths_survive_pruning() {
    // 128 of 135 and 18 of 50 when this was written; the floors only catch a check that
    // silently stopped checking.
    if let Some(n) = check_solved_in_collection("microban2.xsb", 20_000) {
        assert!(n >= 60, "only {n} Microban II levels solved within the cap");
    }
    if let Some(n) = check_solved_in_collection("sasquatch.xsb", 20_000) {
        assert!(n >= 5, "only {n} Sasquatch levels solved within the cap");
    }
}

#[test]
fn hand_made_paths_survive_pruning() {
    for file in ["trivial.xsb", "corridor.xsb", "optimal.xsb"] {
        for level in common::valid_levels(&common::engine_level_path(file)) {
            check_level(&level, &format!("{file} {}", level.name()));
        }
    }
}

/// The states the solutions of the level found by three strategies (one thread) pass
/// through, each once.
fn solution_states(level: &Level) -> Vec<(String, State)> {
    let mut states: Vec<(String, State)> = Vec::new();
    for strategy in ["bidirectional", "forward", "backward"] {
        let report = run_named(level, strategy, 1);
        let solution = expect_solved(level, &report);
        let pushes = solution_pushes(level, &solution.lurd);
        for (i, state) in state_sequence(level.board(), level.start(), &pushes).into_iter().enumerate() {
            if states.iter().all(|(_, s)| *s != state) {
                states.push((format!("state {i} of the {strategy} solution"), state));
            }
        }
    }
    states
}

/// Small levels whose whole push graph a plain search covers in milliseconds.
fn small_levels() -> Vec<Level> {
    let mut levels = Vec::new();
    for file in ["trivial.xsb", "corridor.xsb", "optimal.xsb"] {
        levels.extend(common::valid_levels(&common::engine_level_path(file)));
    }
    if let Some(microban) = common::shared_collection("microban.xsb") {
        levels.extend(microban.into_iter().take(60).filter(|l| l.board().n_boxes() <= 3));
    }
    levels
}

/// The small levels and the Microban levels of four to six boxes among the first 40 (when
/// `../shared` is there): positions the start reaches can still be listed in full.
fn small_and_microban_levels() -> Vec<Level> {
    let mut levels = small_levels();
    if let Some(microban) = common::shared_collection("microban.xsb") {
        levels.extend(microban.into_iter().take(40).filter(|l| (4..=6).contains(&l.board().n_boxes())));
    }
    levels
}

/// The most positions the plain searches of this check may visit per level.
const CAP: usize = 200_000;

/// Deadlock pruning only cuts dead pushes, and the reductions keep an optimal solution: with the
/// reductions off (no tunnel rule, no PI-corrals), every push the forward generator leaves out,
/// at every state of a known solution, leads to a position from which a plain search (no
/// pruning) finds no solution. With them on, the pushes it offers include one that starts an
/// optimal solution: the fewest pushes from the state equal one plus the fewest from the best
/// child. Every child offered is a legal push.
#[test]
fn pushes_the_forward_generator_prunes_are_dead() {
    for level in &small_levels() {
        let board = level.board();
        let what = format!("{} (index {})", level.name(), level.index());
        let plain_config = PushConfig { tunnels: false, corrals: false, ..single_pushes() };
        let plain = Forward::new(board, level.start(), plain_config);
        let mut plain_scratch = plain.new_scratch();
        let fwd = Forward::new(board, level.start(), single_pushes());
        let mut scratch = fwd.new_scratch();
        let mut fewest: HashMap<Canonical, Option<usize>> = HashMap::new();
        let mut fewest_pushes = |position: &Canonical| {
            *fewest.entry(position.clone()).or_insert_with(|| {
                let state = State::new(position.0.clone(), position.1);
                common::bfs_min_pushes(board, &state, CAP)
                    .unwrap_or_else(|| panic!("{what}: plain search too large"))
            })
        };
        for (at, state) in &solution_states(level) {
            if state.is_solved(board) {
                continue;
            }
            let position = common::canonical(board, state);
            let legal = common::legal_pushes(board, &position);
            let fp_of = |p: &Canonical| board.zobrist().fingerprint(&p.0, p.1);
            let next_of = |kid: &Child| &legal.iter().find(|(_, p)| fp_of(p) == kid.fp).expect("legal").1;
            let kids = children(&fwd, &mut scratch, level, state, 0);
            for kid in &kids {
                assert!(
                    legal.iter().any(|(_, p)| fp_of(p) == kid.fp),
                    "{what}: {at}: the forward generator offers an illegal push {:?}",
                    one_push(&fwd, kid.packed())
                );
            }
            let best_child = kids.iter().filter_map(|k| fewest_pushes(next_of(k))).min();
            assert_eq!(
                best_child.map(|b| b + 1),
                fewest_pushes(&position),
                "{what}: {at} (boxes {:?}): the pushes offered, {:?}, do not start an optimal solution",
                state.boxes,
                kids.iter().map(|k| one_push(&fwd, k.packed())).collect::<Vec<_>>()
            );
            let plain_kids = children(&plain, &mut plain_scratch, level, state, 0);
            for (push, next) in &legal {
                if plain_kids.iter().all(|k| k.fp != fp_of(next)) {
                    assert!(
                        fewest_pushes(next).is_none(),
                        "{what}: {at} (boxes {:?}, player {}): the forward generator prunes \
                         {push:?}, but the position it leads to (boxes {:?}) is solvable",
                        state.boxes,
                        state.player,
                        next.0
                    );
                }
            }
        }
    }
}

/// Every pull the backward generator leaves out, at every state of a known solution, leads
/// to a position that no sequence of pushes reaches from the start.
#[test]
fn pulls_the_backward_generator_prunes_are_dead() {
    for level in &small_levels() {
        let board = level.board();
        let what = format!("{} (index {})", level.name(), level.index());
        let reachable = common::reachable_positions(board, level.start(), CAP)
            .unwrap_or_else(|| panic!("{what}: plain search too large"));
        let bwd = Backward::new(board, level.start(), PullConfig::default());
        let mut scratch = bwd.new_scratch();
        let fp_of = |p: &Canonical| board.zobrist().fingerprint(&p.0, p.1);
        for (at, state) in &solution_states(level) {
            let position = common::canonical(board, state);
            let legal = common::legal_pulls(board, &position);
            let kids = children(&bwd, &mut scratch, level, state, 0);
            for kid in &kids {
                assert!(
                    legal.iter().any(|(_, p)| fp_of(p) == kid.fp),
                    "{what}: {at}: the backward generator offers an illegal pull {:?}",
                    one_push(&bwd, kid.packed())
                );
            }
            for (undone, next) in &legal {
                if kids.iter().all(|k| k.fp != fp_of(next)) {
                    assert!(
                        !reachable.contains(next),
                        "{what}: {at} (boxes {:?}): the backward generator prunes the pull \
                         undoing {undone:?}, but the start reaches the position it leads to \
                         (boxes {:?})",
                        state.boxes,
                        next.0
                    );
                }
            }
        }
    }
}

/// Walks every position a breadth-first walk of pulls (no pruning) from the solved positions
/// of `level` reaches, up to `cap` positions, and calls `visit` with each.
fn walk_pulls(level: &Level, cap: usize, mut visit: impl FnMut(&Canonical)) {
    let board = level.board();
    let bwd = Backward::new(board, level.start(), PullConfig::default());
    let mut queue: VecDeque<Canonical> =
        bwd.roots(&mut bwd.new_scratch()).into_iter().map(|r| common::canonical(board, &r.state)).collect();
    let mut seen: HashSet<Canonical> = queue.iter().cloned().collect();
    while let Some(position) = queue.pop_front() {
        visit(&position);
        for (_, next) in common::legal_pulls(board, &position) {
            if seen.len() < cap && seen.insert(next.clone()) {
                queue.push_back(next);
            }
        }
    }
}

/// The start freeze drops only backward states the start cannot reach: on small levels, every
/// position a breadth-first walk of pulls from the solved positions reaches (up to a cap) and
/// the test flags is one no push sequence from the start reaches. The test must also flag
/// some, or it would prove nothing.
#[test]
fn the_start_freeze_flags_only_positions_the_start_cannot_reach() {
    let mut levels = small_levels();
    levels.extend(common::valid_levels(&common::repo_levels().join("edge/start-freeze.xsb")));
    let mut flagged = 0;
    for level in &levels {
        let board = level.board();
        let what = format!("{} (index {})", level.name(), level.index());
        let reachable = common::reachable_positions(board, level.start(), CAP)
            .unwrap_or_else(|| panic!("{what}: plain search too large"));
        let test = StartFreeze::new(board, level.start()).expect("small boards get the test");
        let mut scratch = test.scratch();
        let mut map = BoxMap::new(board.n_cells());
        walk_pulls(level, CAP, |position| {
            map.set_all(&position.0);
            let unreachable = test.unreachable(board, &mut scratch, &position.0, &map);
            map.clear_all(&position.0);
            if unreachable {
                flagged += 1;
                assert!(
                    !reachable.contains(position),
                    "{what}: the start freeze flags boxes {:?}, player {}, which the start reaches",
                    position.0,
                    position.1
                );
            }
        });
    }
    assert!(flagged > 0, "the start freeze flagged nothing on {} levels", levels.len());
}

/// A test made for one level: whether it flags a position.
type Flags<'l> = Box<dyn FnMut(&Canonical) -> bool + 'l>;

/// Walks every position a breadth-first walk of pulls from the solved positions of each of
/// `levels` reaches (up to `walk`), on the levels whose reachable positions can be listed in
/// full, and asserts that every position the test `make` gives for that level flags is out of
/// the start's reach. Returns how many positions were flagged and on how many levels.
fn flagged_only_out_of_reach(
    levels: &[Level],
    walk: usize,
    test_name: &str,
    make: impl for<'l> Fn(&'l Level) -> Flags<'l>,
) -> (usize, usize) {
    let (mut flagged, mut tested) = (0, 0);
    for level in levels {
        let board = level.board();
        let what = format!("{} (index {})", level.name(), level.index());
        let Some(reachable) = common::reachable_positions(board, level.start(), CAP) else {
            continue;
        };
        tested += 1;
        let mut test = make(level);
        walk_pulls(level, walk, |position| {
            if test(position) {
                flagged += 1;
                assert!(
                    !reachable.contains(position),
                    "{what}: {test_name} flags boxes {:?}, player {}, which the start reaches",
                    position.0,
                    position.1
                );
            }
        });
    }
    (flagged, tested)
}

/// The confinement test drops only backward states the start cannot reach: on the small levels
/// and on Microban levels of four to six boxes, every position a breadth-first walk of pulls
/// from the solved positions reaches (up to a cap) and the test calls confined is one no push
/// sequence from the start reaches. The test must flag some, or it would prove nothing.
#[test]
fn confinement_flags_only_positions_the_start_cannot_reach() {
    let levels = small_and_microban_levels();
    let (flagged, tested) = flagged_only_out_of_reach(&levels, 30_000, "the confinement test", |level| {
        let board = level.board();
        let mut check = ConfineCheck::new(board.n_cells());
        let (mut map, mut reach) = (BoxMap::new(board.n_cells()), Reach::new(board.n_cells()));
        let start_player = level.start().player;
        Box::new(move |position: &Canonical| {
            map.set_all(&position.0);
            let min = reach.fill(board, &map, position.1);
            let confined = check.is_dead(board, &position.0, &reach, min, start_player);
            map.clear_all(&position.0);
            confined
        })
    });
    assert!(flagged > 0, "the confinement test flagged nothing on {tested} levels");
}

/// The backward search never hands the bridges a target the start cannot reach: on the small
/// levels and on Microban levels of four to six boxes, every position a breadth-first walk of
/// pulls from the solved positions reaches (up to a cap) that `Backward::worth_aiming_at` turns
/// down is one no push sequence from the start reaches. It must turn some down, or it would
/// prove nothing.
#[test]
fn bridge_targets_turned_down_are_out_of_the_starts_reach() {
    let levels = small_and_microban_levels();
    let (flagged, tested) = flagged_only_out_of_reach(&levels, 30_000, "worth_aiming_at", |level| {
        let bwd = Backward::new(level.board(), level.start(), PullConfig::default());
        let mut scratch = bwd.new_scratch();
        Box::new(move |position: &Canonical| !bwd.worth_aiming_at(&mut scratch, &position.0, position.1))
    });
    assert!(flagged > 0, "no target turned down on {tested} levels");
}

/// Walks the positions `exp` generates breadth-first from `roots` (up to 20,000), asks a
/// deadlock test (`is_dead`: the box map, the child's moved box and normalized player, as the
/// searches ask) about every child and calls `on_flag` with each child it calls dead, which is
/// not walked further. Returns how many children it flagged.
fn walk_flagged<E: Expander>(
    exp: &E,
    level: &Level,
    roots: Vec<Canonical>,
    mut is_dead: impl FnMut(&BoxMap, bisolve_board::Cell, bisolve_board::Cell) -> bool,
    mut on_flag: impl FnMut(&Canonical),
) -> usize {
    const WALK: usize = 20_000;
    let board = level.board();
    let mut scratch = exp.new_scratch();
    let mut map = BoxMap::new(board.n_cells());
    let mut seen: HashSet<Canonical> = roots.iter().cloned().collect();
    let mut queue = VecDeque::from(roots);
    let mut flagged = 0;
    while let Some(position) = queue.pop_front() {
        let state = State::new(position.0.clone(), position.1);
        for kid in children(exp, &mut scratch, level, &state, 0) {
            let mut boxes = position.0.clone();
            boxes[usize::from(kid.box_index)] = kid.to;
            map.set_all(&boxes);
            let dead = is_dead(&map, kid.to, kid.player);
            map.clear_all(&boxes);
            boxes.sort_unstable();
            let next = (boxes, kid.player);
            if dead {
                flagged += 1;
                on_flag(&next);
            } else if seen.len() < WALK && seen.insert(next.clone()) {
                queue.push_back(next);
            }
        }
    }
    flagged
}

/// The sealed-goal test only flags dead positions: the forward generator without it walks
/// breadth-first from the start (up to a cap), on the small levels and on Microban levels of
/// four to six boxes; every child the test then flags (with the child's pushed box, as in the
/// search) has no solution (plain search). The test must flag some, or it would prove
/// nothing; those are deadlocks no other forward test caught.
#[test]
fn sealed_goals_flag_only_dead_positions() {
    let mut levels = small_levels();
    levels.extend(common::valid_levels(&common::repo_levels().join("edge/sealed-goal.xsb")));
    if let Some(microban) = common::shared_collection("microban.xsb") {
        levels.extend(microban.into_iter().take(40).filter(|l| (4..=6).contains(&l.board().n_boxes())));
    }
    const CHECKS_PER_LEVEL: usize = 40;
    let mut flagged = 0;
    for level in &levels {
        let board = level.board();
        let what = format!("{} (index {})", level.name(), level.index());
        let fwd = Forward::new(board, level.start(), PushConfig { sealed_goals: false, ..single_pushes() });
        let goals = SealedTargets::new(board, PairMode::Push);
        let mut check = SealedCheck::new(board.n_cells());
        let is_dead = |map: &BoxMap, to, player| {
            check.is_dead(&goals, board, map, to, player, &frozen_on_goals(board, map, to))
        };
        let start = common::canonical(board, level.start());
        let mut checked = 0;
        flagged += walk_flagged(&fwd, level, vec![start], is_dead, |next| {
            if checked < CHECKS_PER_LEVEL {
                let child = State::new(next.0.clone(), next.1);
                if let Some(fewest) = common::bfs_min_pushes(board, &child, CAP) {
                    checked += 1;
                    assert_eq!(
                        fewest, None,
                        "{what}: the sealed-goal test flags boxes {:?}, player {}, which can be solved",
                        next.0, next.1
                    );
                }
            }
        });
    }
    assert!(flagged > 0, "the sealed-goal test flagged nothing on {} levels", levels.len());
}

/// The boxes of `map` frozen on goals, the one on `to` (just pushed) left out, sorted: what
/// the search hands the small searches as walls (`PushConfig::frozen_walls`).
fn frozen_on_goals(board: &bisolve_board::Board, map: &BoxMap, to: Cell) -> Vec<Cell> {
    let boxes: Vec<Cell> = (0..board.n_cells() as Cell).filter(|&c| c != to && map.is_box(c)).collect();
    let mut frozen = Vec::new();
    frozen_goal_boxes(board, map, &boxes, &mut FreezeCheck::default(), &mut frozen);
    frozen
}

/// Walks the forward generator (with `config`, the test under check off) breadth-first from
/// the start (up to a cap) on the small levels and the Microban levels of four to six boxes,
/// asks `is_dead` (with what `setup` made for the level) about every child, with the child's
/// pushed box as in the search, and asserts that each child it flags (up to 40 a level) has
/// no solution (plain search). The test must flag some.
fn forward_test_flags_only_dead<T>(
    name: &str,
    levels: &[Level],
    config: PushConfig,
    mut setup: impl FnMut(&Level) -> T,
    mut is_dead: impl FnMut(&mut T, &Level, &BoxMap, bisolve_board::Cell, bisolve_board::Cell) -> bool,
) {
    const CHECKS_PER_LEVEL: usize = 40;
    let mut flagged = 0;
    let mut checked = 0;
    for level in levels {
        let board = level.board();
        let what = format!("{} (index {})", level.name(), level.index());
        let fwd = Forward::new(board, level.start(), config);
        let mut made = setup(level);
        let test = |map: &BoxMap, to, player| is_dead(&mut made, level, map, to, player);
        let start = common::canonical(board, level.start());
        let mut checked_here = 0;
        flagged += walk_flagged(&fwd, level, vec![start], test, |next| {
            if checked_here < CHECKS_PER_LEVEL {
                let child = State::new(next.0.clone(), next.1);
                if let Some(fewest) = common::bfs_min_pushes(board, &child, CAP) {
                    checked_here += 1;
                    assert_eq!(
                        fewest, None,
                        "{what}: the {name} test flags boxes {:?}, player {}, which can be solved",
                        next.0, next.1
                    );
                }
            }
        });
        checked += checked_here;
    }
    if flagged == 0 && common::shared_levels().is_none() {
        eprintln!("the {name} test flagged nothing on the levels of this checkout alone: not checked");
        return;
    }
    assert!(
        flagged > 0 && checked > 0,
        "the {name} test flagged {flagged} and checked {checked} on {} levels",
        levels.len()
    );
}

/// The jam test only flags dead positions (see [`forward_test_flags_only_dead`]).
#[test]
fn jams_flag_only_dead_positions() {
    forward_test_flags_only_dead(
        "jam",
        &small_and_microban_levels(),
        PushConfig { jams: false, ..single_pushes() },
        |level| JamCheck::new(level.board().n_cells(), PairMode::Push),
        |check, level, map, to, player| {
            check.is_dead(level.board(), map, to, player, &frozen_on_goals(level.board(), map, to))
        },
    );
}

/// The shut-in test only flags dead positions (see [`forward_test_flags_only_dead`]), on
/// the usual levels and the shut-in edge case, whose parts share fence boxes.
#[test]
fn shut_in_boxes_flag_only_dead_positions() {
    let mut levels = small_and_microban_levels();
    levels.extend(common::valid_levels(&common::repo_levels().join("edge/shut-in.xsb")));
    forward_test_flags_only_dead(
        "shut-in",
        &levels,
        PushConfig { shut_in: false, ..single_pushes() },
        |level| (ShutInCheck::new(level.board().n_cells()), Reach::new(level.board().n_cells())),
        |(check, reach), level, map, _, player| {
            let board = level.board();
            let boxes: Vec<Cell> = (0..board.n_cells() as Cell).filter(|&c| map.is_box(c)).collect();
            let region_min = reach.fill(board, map, player);
            check.is_dead(board, &boxes, map, reach, region_min)
        },
    );
}

/// The goal-area test only flags dead positions (see [`forward_test_flags_only_dead`]).
#[test]
fn goal_areas_flag_only_dead_positions() {
    forward_test_flags_only_dead(
        "goal-area",
        &small_and_microban_levels(),
        PushConfig { goal_areas: false, ..single_pushes() },
        |level| (GoalAreas::new(level.board()), AreaCheck::new(level.board())),
        |(areas, check), level, map, to, player| check.is_dead(areas, level.board(), map, to, player),
    );
}

/// Walks the backward generator (with `config`, the test under check off) breadth-first from
/// the solved positions of the small levels and the Microban levels of four to six boxes (up to
/// a cap), asks `is_dead` (with what `setup` made for the level) about every child, with the
/// child's pulled box as in the search, and asserts that each child it flags is a position no
/// sequence of pushes from the start reaches (a plain search of everything the start
/// reaches). The test must flag some.
fn backward_test_flags_only_unreachable<T>(
    name: &str,
    config: PullConfig,
    mut setup: impl FnMut(&Level) -> T,
    mut is_dead: impl FnMut(&mut T, &Level, &BoxMap, bisolve_board::Cell, bisolve_board::Cell) -> bool,
) {
    let mut flagged = 0;
    let mut tested = 0;
    for level in &small_and_microban_levels() {
        let board = level.board();
        let what = format!("{} (index {})", level.name(), level.index());
        let Some(reachable) = common::reachable_positions(board, level.start(), CAP) else {
            continue;
        };
        tested += 1;
        let bwd = Backward::new(board, level.start(), config);
        let mut made = setup(level);
        let roots = bwd
            .roots(&mut bwd.new_scratch())
            .into_iter()
            .map(|r| common::canonical(board, &r.state))
            .collect();
        let test = |map: &BoxMap, to, player| is_dead(&mut made, level, map, to, player);
        flagged += walk_flagged(&bwd, level, roots, test, |next| {
            assert!(
                !reachable.contains(next),
                "{what}: the {name} test flags boxes {:?}, player {}, which the start reaches",
                next.0,
                next.1
            );
        });
    }
    assert!(flagged > 0, "the {name} test flagged nothing on {tested} levels");
}

/// The backward jam test only flags positions the start cannot reach.
#[test]
fn pull_jams_flag_only_positions_the_start_cannot_reach() {
    backward_test_flags_only_unreachable(
        "backward jam",
        PullConfig { jams: false, ..PullConfig::default() },
        |level| JamCheck::new(level.board().n_cells(), PairMode::Pull),
        |check, level, map, to, player| check.is_dead(level.board(), map, to, player, &[]),
    );
}

/// The sealed-start test only flags positions the start cannot reach.
#[test]
fn sealed_starts_flag_only_positions_the_start_cannot_reach() {
    backward_test_flags_only_unreachable(
        "sealed-start",
        PullConfig { sealed_starts: false, ..PullConfig::default() },
        |level| {
            (SealedTargets::new(level.board(), PairMode::Pull), SealedCheck::new(level.board().n_cells()))
        },
        |(starts, check), level, map, to, player| check.is_dead(starts, level.board(), map, to, player, &[]),
    );
}

/// Goal macros: every macro the forward generator offers, on every state a breadth-first walk
/// of levels with goal rooms reaches, is a legal sequence of pushes from its parent that ends
/// in the child's position, and `parent` undoes it.
#[test]
fn goal_macros_are_legal_push_sequences() {
    let mut levels = common::valid_levels(&common::repo_levels().join("edge/goal-room.xsb"));
    if let Some(microban) = common::shared_collection("microban.xsb") {
        let with_rooms = |l: &Level| !GoalRooms::new(l.board(), l.start(), false).is_empty();
        levels.extend(microban.into_iter().filter(with_rooms).take(6));
    }
    let config = PushConfig { goal_cut: false, packing_macros: false, ..PushConfig::default() };
    for level in &levels {
        let fwd = Forward::new(level.board(), level.start(), config);
        assert!(fwd.goal_rooms().is_some(), "{} (index {}): no goal room found", level.name(), level.index());
    }
    let (macros, _) = check_macros(&levels, config);
    assert!(macros > 0, "no macro was offered on {} levels with goal rooms", levels.len());
}

/// The edge levels with a one-entrance goal room (one with a box on its entrance at the
/// start) and the first six Microban levels with goal rooms, when `../shared` is there.
fn room_levels() -> Vec<Level> {
    let mut levels = common::valid_levels(&common::repo_levels().join("edge/goal-room.xsb"));
    levels.extend(common::valid_levels(&common::repo_levels().join("edge/entrance-box-room.xsb")));
    if let Some(microban) = common::shared_collection("microban.xsb") {
        let with_rooms = |l: &Level| !GoalRooms::new(l.board(), l.start(), false).is_empty();
        levels.extend(microban.into_iter().filter(with_rooms).take(6));
    }
    levels
}

/// Room discipline with box moves: a run that brings its box onto the entrance of a room with
/// one entrance goes on by the room's macro, recorded as a move from the run's position
/// before it; every such macro undoes to that position and replays from it.
#[test]
fn goal_macros_at_the_end_of_box_moves_are_legal_push_sequences() {
    let levels = room_levels();
    let config =
        PushConfig { box_moves: true, goal_cut: true, packing_macros: false, ..PushConfig::default() };
    assert!(config.room_discipline);
    let (macros, after_runs) = check_macros(&levels, config);
    assert!(after_runs > 0, "none of {macros} macros came at the end of a run");
}

/// The same for rooms with several entrances, whose paths are checked against the boxes of
/// the state before a macro is offered.
#[test]
fn goal_macros_through_several_entrances_are_legal_push_sequences() {
    let mut levels = common::valid_levels(&common::repo_levels().join("edge/two-entrance-room.xsb"));
    for file in ["microban.xsb", "microban2.xsb"] {
        if let Some(collection) = common::shared_collection(file) {
            let several = |l: &Level| {
                GoalRooms::new(l.board(), l.start(), true).rooms().iter().any(|r| !r.single_entrance())
            };
            levels.extend(collection.into_iter().filter(several).take(6));
        }
    }
    let config =
        PushConfig { goal_cut: false, packing_macros: false, room_entrances: true, ..PushConfig::default() };
    let (macros, _) = check_macros(&levels, config);
    assert!(macros > 0, "no macro was offered on {} levels with goal rooms", levels.len());
}

#[test]
fn packing_macros_are_legal_push_sequences() {
    let mut levels = common::valid_levels(&common::repo_levels().join("edge/goal-room.xsb"));
    for file in ["microban.xsb", "xsokoban-1-45.xsb"] {
        if let Some(collection) = common::shared_collection(file) {
            levels.extend(collection.into_iter().take(8));
        }
    }
    let config =
        PushConfig { goal_macros: false, goal_cut: false, packing_macros: true, ..PushConfig::default() };
    let (macros, _) = check_macros(&levels, config);
    if macros == 0 && common::shared_levels().is_none() {
        eprintln!("no packing macro on the levels of this checkout alone: not checked");
        return;
    }
    assert!(macros > 0, "no packing macro was offered on {} levels", levels.len());
}

/// Room discipline: on a breadth-first walk of levels with goal rooms of one entrance, every
/// child the forward generator offers holds, in each such room, boxes on exactly the first
/// goals of the room's packing order and nothing on its entrance (but a box that stood there
/// at the start). Without the discipline some child breaks that order.
#[test]
fn room_discipline_fills_rooms_in_their_order() {
    let levels = room_levels();
    let on = PushConfig { goal_cut: true, packing_macros: false, ..PushConfig::default() };
    assert!(on.room_discipline, "the discipline is on by default (it needs the goal cut)");
    let (children, broken) = rooms_out_of_order(&levels, on);
    assert!(children > 0);
    assert_eq!(broken, 0, "{broken} of {children} children break a room's order with the discipline on");
    let (children, broken) = rooms_out_of_order(&levels, PushConfig { room_discipline: false, ..on });
    assert!(broken > 0, "no child of {children} breaks a room's order without the discipline");
}

/// Parking plans: on a breadth-first walk of levels with a plan room, every child holds in
/// each plan room what the plan holds at one of its steps; without the plans some child
/// holds something else.
#[test]
fn rooms_with_parking_plans_keep_to_their_plans() {
    let mut levels = common::valid_levels(&common::repo_levels().join("edge/parking-room.xsb"));
    for file in ["microban.xsb", "microban2.xsb"] {
        if let Some(collection) = common::shared_collection(file) {
            let with_plans =
                |l: &Level| !GoalRooms::with_plans(l.board(), l.start(), false, true).plans().is_empty();
            levels.extend(collection.into_iter().filter(with_plans).take(4));
        }
    }
    let on = PushConfig { goal_cut: true, packing_macros: false, ..PushConfig::default() };
    assert!(on.room_discipline && on.room_plans, "plans are on by default (they need the goal cut)");
    let (children, off_plan) = rooms_off_plan(&levels, on);
    assert!(children > 0);
    assert_eq!(off_plan, 0, "{off_plan} of {children} children leave a room's plan with the plans on");
    let (children, off_plan) = rooms_off_plan(&levels, PushConfig { room_plans: false, ..on });
    assert!(off_plan > 0, "no child of {children} leaves a room's plan without the plans");
}

/// Walks each level with `config` ([`walk_forward`]): how many children it made, and in how
/// many a room with a parking plan holds boxes on squares that no step of its plan has.
fn rooms_off_plan(levels: &[Level], config: PushConfig) -> (usize, usize) {
    let (mut made, mut off) = (0, 0);
    for level in levels {
        let board = level.board();
        let rooms = GoalRooms::with_plans(board, level.start(), false, true);
        assert!(!rooms.plans().is_empty(), "{}: no plan", level.name());
        // What each plan holds at each of its steps.
        let steps: Vec<HashSet<Vec<Cell>>> = rooms
            .plans()
            .iter()
            .map(|plan| {
                let mut held: Vec<Cell> = Vec::new();
                let mut all = HashSet::from([held.clone()]);
                for push in plan.pushes() {
                    held.retain(|&c| c != push.from);
                    held.push(board.neighbour(push.from, push.dir));
                    held.sort_unstable();
                    all.insert(held.clone());
                }
                all
            })
            .collect();
        walk_forward(level, config, |_, _, _, nexts| {
            for next in nexts {
                made += 1;
                let on_plan = rooms.plans().iter().zip(&steps).all(|(plan, steps)| {
                    let held: Vec<Cell> =
                        next.boxes.iter().copied().filter(|c| plan.cells().contains(c)).collect();
                    steps.contains(&held)
                });
                if !on_plan {
                    off += 1;
                }
            }
        });
    }
    (made, off)
}

/// Expands up to 5,000 states of `level` breadth-first with `config`, calling `visit` with
/// the forward generator, each expanded state, its children and the states they lead to.
fn walk_forward(
    level: &Level,
    config: PushConfig,
    mut visit: impl FnMut(&Forward<'_>, &State, &[Child], &[State]),
) {
    let board = level.board();
    let fwd = Forward::new(board, level.start(), config);
    let mut scratch = fwd.new_scratch();
    let mut queue = VecDeque::from([level.start().clone()]);
    let mut seen = HashSet::from([level.start().fingerprint(board)]);
    while let Some(state) = queue.pop_front() {
        if seen.len() > 5_000 {
            break;
        }
        let kids = children(&fwd, &mut scratch, level, &state, 0);
        let nexts: Vec<State> = kids
            .iter()
            .map(|kid| {
                let mut boxes = state.boxes.clone();
                boxes[kid.box_index as usize] = kid.to;
                State::new(boxes, kid.player)
            })
            .collect();
        visit(&fwd, &state, &kids, &nexts);
        for (kid, next) in kids.iter().zip(nexts) {
            if seen.insert(kid.fp) {
                queue.push_back(next);
            }
        }
    }
}

/// Walks each level with `config` ([`walk_forward`]): how many children it made, and in how
/// many a room with one entrance holds anything but boxes on the first goals of its order,
/// or a box on its entrance that did not start there.
fn rooms_out_of_order(levels: &[Level], config: PushConfig) -> (usize, usize) {
    let (mut made, mut broken) = (0, 0);
    for level in levels {
        walk_forward(level, config, |fwd, _, _, nexts| {
            let rooms = fwd.goal_rooms().expect("goal rooms");
            for next in nexts {
                made += 1;
                let is_box = |c| next.boxes.contains(&c);
                let in_order = |r: &GoalRoom| {
                    let j = r.order().iter().take_while(|&&g| is_box(g)).count();
                    let entrance = r.entrances()[0].cell;
                    r.cells().iter().filter(|&&c| is_box(c)).count() == j
                        && (!is_box(entrance) || level.start().boxes.contains(&entrance))
                };
                if rooms.rooms().iter().filter(|r| r.single_entrance()).any(|r| !in_order(r)) {
                    broken += 1;
                }
            }
        });
    }
    (made, broken)
}

/// Walks each level with `config` ([`walk_forward`]) and checks every macro child:
/// `parent()` undoes it, to the node for a macro that starts with a push from the node and to
/// the position of a box-move run just before it otherwise (a child of the same expansion one
/// push shorter), and its pushes replay from there and end on the child. Returns how many
/// macros were checked, and how many of them came at the end of a run.
fn check_macros(levels: &[Level], config: PushConfig) -> (usize, usize) {
    let (mut macros, mut after_runs) = (0, 0);
    for level in levels {
        let board = level.board();
        let what = format!("{} (index {})", level.name(), level.index());
        walk_forward(level, config, |fwd, state, kids, nexts| {
            for (k, (kid, next)) in kids.iter().zip(nexts).enumerate() {
                assert_eq!(next.fingerprint(board), kid.fp, "{what}: child fingerprint");
                if !kid.is_macro {
                    continue;
                }
                macros += 1;
                let parent = fwd.parent(next, kid.packed()).expect("parent() undoes a macro");
                let parent_fp = parent.fingerprint(board);
                if kid.steps == 1 {
                    assert_eq!(parent_fp, state.fingerprint(board), "{what}: parent()");
                } else {
                    after_runs += 1;
                    assert!(
                        kids[..k]
                            .iter()
                            .any(|c| !c.is_macro && c.fp == parent_fp && c.steps + 1 == kid.steps),
                        "{what}: the macro after {} pushes of a run comes from no earlier position of it",
                        kid.steps - 1
                    );
                }
                let mut pushes = Vec::new();
                fwd.as_pushes(kid.packed(), &mut pushes);
                assert!(!pushes.is_empty(), "{what}: a macro of no push");
                let steps = pushes_to_steps(board, &parent, &pushes)
                    .unwrap_or_else(|e| panic!("{what}: macro {pushes:?} cannot be walked: {e}"));
                match replay(board, &parent, &steps) {
                    Ok(_) | Err(ReplayError::Unsolved { .. }) => {}
                    Err(e) => panic!("{what}: macro {pushes:?} does not replay: {e}"),
                }
                let end = state_sequence(board, &parent, &pushes).pop().expect("states");
                assert_eq!(end.fingerprint(board), kid.fp, "{what}: macro ends elsewhere");
            }
        });
    }
    (macros, after_runs)
}
