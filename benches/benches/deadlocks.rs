//! The forward deadlock tests, each on its own, over every state of a solution path: freeze
//! (`FreezeCheck::check` on every box), PI-corrals (`CorralCheck::find`), the tunnel rule
//! (`tunnel::forced_box`), the distance tables around boxes frozen on goals
//! (`Board::goal_distances_with_frozen`), and the pair deadlock tables of both directions
//! (`PairTable::new` once per level, `PairTable::is_dead` on every pair of boxes), and the
//! backward search's start freeze (`StartFreeze::new` once per level, `unreachable` on every
//! path state read as a backward state: none is flagged, they are all reachable). Then the
//! whole forward expansion with each technique switched off in turn, to show what each costs
//! (or saves) inside an expansion.

use std::hint::black_box;

use bisolve_benches::{fixtures, Fixture, MEASUREMENT, WARM_UP};
use bisolve_board::search::{Child, Expander};
use bisolve_board::{BoxMap, Cell, Reach};
use bisolve_deadlock::bound::BoundKind;
use bisolve_deadlock::freeze::{FreezeCheck, Verdict};
use bisolve_deadlock::pairs::{PairMode, PairTable};
use bisolve_pull::start_freeze::StartFreeze;
use bisolve_push::corral::{Corral, CorralCheck};
use bisolve_push::frozen::frozen_goal_boxes;
use bisolve_push::tunnel::{forced_box, Forced};
use bisolve_push::{Forward, PushConfig};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};

/// A path state with its box map and player region already computed.
struct Prepared {
    boxes: Vec<Cell>,
    map: BoxMap,
    reach: Reach,
}

fn prepare(f: &Fixture) -> Vec<Prepared> {
    let board = f.level.board();
    f.states
        .iter()
        .map(|s| {
            let mut map = BoxMap::new(board.n_cells());
            map.set_all(&s.boxes);
            let mut reach = Reach::new(board.n_cells());
            reach.fill(board, &map, s.player);
            Prepared { boxes: s.boxes.clone(), map, reach }
        })
        .collect()
}

fn tests(c: &mut Criterion) {
    let mut group = c.benchmark_group("deadlocks");
    for f in fixtures() {
        let board = f.level.board();
        let states = prepare(&f);
        let n_boxes: usize = states.iter().map(|p| p.boxes.len()).sum();

        let mut freeze = FreezeCheck::default();
        group.throughput(Throughput::Elements(n_boxes as u64));
        group.bench_function(BenchmarkId::new("freeze", &f.name), |b| {
            b.iter(|| {
                let mut frozen = 0usize;
                for p in &states {
                    for &cell in &p.boxes {
                        frozen += usize::from(freeze.check(board, &p.map, black_box(cell)) != Verdict::Free);
                    }
                }
                frozen
            });
        });

        group.throughput(Throughput::Elements(states.len() as u64));
        let mut corral = CorralCheck::new(board.n_cells());
        let found =
            states.iter().filter(|p| corral.find(board, &p.map, &p.boxes, &p.reach) != Corral::None).count();
        group.bench_function(BenchmarkId::new("corral", &f.name), |b| {
            b.iter(|| {
                let mut found = 0usize;
                for p in &states {
                    found += usize::from(
                        corral.find(board, &p.map, black_box(&p.boxes), &p.reach) != Corral::None,
                    );
                }
                found
            });
        });

        let forced =
            states.iter().filter(|p| forced_box(board, &p.map, &p.boxes, &p.reach) != Forced::No).count();
        group.bench_function(BenchmarkId::new("tunnel", &f.name), |b| {
            b.iter(|| {
                let mut forced = 0usize;
                for p in &states {
                    forced +=
                        usize::from(forced_box(board, &p.map, black_box(&p.boxes), &p.reach) != Forced::No);
                }
                forced
            });
        });

        // The distinct sets of boxes frozen on goals along the path.
        let mut sets: Vec<Vec<Cell>> = Vec::new();
        for p in &states {
            let mut set = Vec::new();
            frozen_goal_boxes(board, &p.map, &p.boxes, &mut freeze, &mut set);
            if !set.is_empty() && !sets.contains(&set) {
                sets.push(set);
            }
        }
        eprintln!(
            "deadlocks: {}: {} states, {} with a PI-corral or corral deadlock, {} with a forced box, \
             {} frozen-goal sets",
            f.name,
            states.len(),
            found,
            forced,
            sets.len()
        );
        group.throughput(Throughput::Elements(1));
        group.bench_function(BenchmarkId::new("start_freeze_build", &f.name), |b| {
            b.iter(|| StartFreeze::new(board, black_box(f.level.start())).map(|t| t.is_idle()));
        });
        if let Some(test) = StartFreeze::new(board, f.level.start()) {
            let mut scratch = test.scratch();
            group.throughput(Throughput::Elements(states.len() as u64));
            group.bench_function(BenchmarkId::new("start_freeze", &f.name), |b| {
                b.iter(|| {
                    let mut flagged = 0usize;
                    for p in &states {
                        flagged +=
                            usize::from(test.unreachable(board, &mut scratch, black_box(&p.boxes), &p.map));
                    }
                    flagged
                });
            });
        }
        if !sets.is_empty() {
            group.throughput(Throughput::Elements(sets.len() as u64));
            group.bench_function(BenchmarkId::new("frozen_goal_tables", &f.name), |b| {
                b.iter(|| {
                    let mut cells = 0usize;
                    for set in &sets {
                        cells += board.goal_distances_with_frozen(black_box(set)).n_targets();
                    }
                    cells
                });
            });
        }
    }
    group.finish();
}

/// Building the pair tables (once per level, before the search) and looking up every pair of
/// boxes of every path state, as the forward search does for the pushed box.
fn pairs(c: &mut Criterion) {
    let mut group = c.benchmark_group("pairs");
    group.sample_size(10);
    for f in fixtures() {
        let board = f.level.board();
        for (mode, name) in [(PairMode::Push, "push"), (PairMode::Pull, "pull")] {
            let Some(table) = PairTable::new(board, mode) else {
                eprintln!("pairs: {}: no {name} table (more than 400 floor cells)", f.name);
                continue;
            };
            eprintln!("pairs: {}: {name} table: {} dead pairs", f.name, table.n_dead());
            group.throughput(Throughput::Elements(1));
            group.bench_function(BenchmarkId::new(format!("build_{name}"), &f.name), |b| {
                b.iter(|| PairTable::new(black_box(board), mode).map_or(0, |t| t.n_dead()));
            });
            if mode == PairMode::Pull {
                continue;
            }
            let n_pairs: usize = f.states.iter().map(|s| s.boxes.len() * (s.boxes.len() - 1) / 2).sum();
            group.throughput(Throughput::Elements(n_pairs as u64));
            group.bench_function(BenchmarkId::new("is_dead", &f.name), |b| {
                b.iter(|| {
                    let mut dead = 0usize;
                    for s in &f.states {
                        for (i, &a) in s.boxes.iter().enumerate() {
                            for &b in &s.boxes[i + 1..] {
                                dead += usize::from(table.is_dead(black_box(a), b, s.player));
                            }
                        }
                    }
                    dead
                });
            });
        }
    }
    group.finish();
}

/// The forward expansion with every technique on, then with each switched off alone.
fn configs() -> Vec<(&'static str, PushConfig)> {
    let on = PushConfig::default();
    vec![
        ("all", on),
        ("no_dead_squares", PushConfig { dead_squares: false, ..on }),
        ("no_freeze", PushConfig { freeze: false, ..on }),
        ("no_diagonals", PushConfig { diagonals: false, ..on }),
        ("no_tunnels", PushConfig { tunnels: false, ..on }),
        ("no_frozen_goals", PushConfig { frozen_goals: false, ..on }),
        ("no_corrals", PushConfig { corrals: false, ..on }),
        ("no_corral_deadlocks", PushConfig { corral_deadlocks: false, ..on }),
        ("no_pair_deadlocks", PushConfig { pair_deadlocks: false, ..on }),
        ("triple_deadlocks", PushConfig { triple_deadlocks: true, ..on }),
        ("bound_nearest", PushConfig { bound: BoundKind::Nearest, ..on }),
    ]
}

fn expand_without(c: &mut Criterion) {
    let mut group = c.benchmark_group("expand_without");
    for f in fixtures() {
        let (board, start) = (f.level.board(), f.level.start());
        // Per state expanded, so the configurations compare directly.
        group.throughput(Throughput::Elements(f.states.len() as u64));
        for (name, config) in configs() {
            let forward = Forward::new(board, start, config);
            let mut scratch = forward.new_scratch();
            let mut out: Vec<Child> = Vec::new();
            let mut children = 0;
            for s in &f.states {
                out.clear();
                forward.expand(&mut scratch, s.node(), &mut out);
                children += out.len();
            }
            eprintln!("expand_without: {name}/{}: {children} children", f.name);
            group.bench_function(BenchmarkId::new(name, &f.name), |b| {
                b.iter(|| {
                    for s in &f.states {
                        out.clear();
                        forward.expand(&mut scratch, s.node(), &mut out);
                    }
                    out.len()
                });
            });
        }
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().warm_up_time(WARM_UP).measurement_time(MEASUREMENT);
    targets = tests, pairs, expand_without
}
criterion_main!(benches);
