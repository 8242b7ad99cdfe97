//! Lower bounds: `LowerBound::prepare` (the matching from scratch, and warm-started from the
//! previous state of the path, where one box moved) and `LowerBound::after_move` (one child,
//! one row re-augmented), for the matching and the nearest-goal bound.

use std::hint::black_box;

use bisolve_benches::{fixtures, Fixture, MEASUREMENT, WARM_UP};
use bisolve_board::{BoxMap, Cell, Reach};
use bisolve_deadlock::bound::{BoundKind, LowerBound};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};

fn bound(c: &mut Criterion) {
    let mut group = c.benchmark_group("bound");
    for f in fixtures() {
        let board = f.level.board();
        let table = board.goal_distances();
        let states: Vec<&[Cell]> = f.states.iter().map(|s| s.boxes.as_slice()).collect();
        // Path order, then back again: each step moves one box, so every warm prepare is warm.
        let there_and_back: Vec<&[Cell]> = states.iter().chain(states.iter().rev()).copied().collect();
        // Every push of every state, dead squares left out as the expansion does.
        let mut map = BoxMap::new(board.n_cells());
        let mut reach = Reach::new(board.n_cells());
        let pushes: Vec<Vec<(usize, Cell, Cell)>> = f
            .states
            .iter()
            .map(|s| {
                map.set_all(&s.boxes);
                reach.fill(board, &map, s.player);
                let p = Fixture::pushes(board, &map, &reach, s);
                map.clear_all(&s.boxes);
                p
            })
            .collect();
        let n_pushes: usize = pushes.iter().map(Vec::len).sum();

        for kind in [BoundKind::Matching, BoundKind::Nearest] {
            let k = kind.name();
            group.throughput(Throughput::Elements(states.len() as u64));
            if kind == BoundKind::Matching {
                let mut bound = LowerBound::new(kind);
                group.bench_function(BenchmarkId::new(format!("{k}/prepare_cold"), &f.name), |b| {
                    b.iter(|| {
                        let mut sum = 0;
                        for boxes in &states {
                            bound.invalidate();
                            sum += bound.prepare(table, black_box(boxes)).unwrap_or(0);
                        }
                        sum
                    });
                });
            }
            let mut bound = LowerBound::new(kind);
            group.throughput(Throughput::Elements(there_and_back.len() as u64));
            let prepare_id = if kind == BoundKind::Matching { "prepare_warm" } else { "prepare" };
            group.bench_function(BenchmarkId::new(format!("{k}/{prepare_id}"), &f.name), |b| {
                b.iter(|| {
                    let mut sum = 0;
                    for boxes in &there_and_back {
                        sum += bound.prepare(table, black_box(boxes)).unwrap_or(0);
                    }
                    sum
                });
            });

            // One prepared bound per state, so only after_move is measured.
            let mut prepared: Vec<LowerBound> = states
                .iter()
                .map(|boxes| {
                    let mut b = LowerBound::new(kind);
                    b.prepare(table, boxes);
                    b
                })
                .collect();
            group.throughput(Throughput::Elements(n_pushes as u64));
            group.bench_function(BenchmarkId::new(format!("{k}/after_move"), &f.name), |b| {
                b.iter(|| {
                    let mut sum = 0;
                    for (bound, pushes) in prepared.iter_mut().zip(&pushes) {
                        for &(i, _, to) in pushes {
                            sum += bound.after_move(table, i, black_box(to)).unwrap_or(0);
                        }
                    }
                    sum
                });
            });
        }
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().warm_up_time(WARM_UP).measurement_time(MEASUREMENT);
    targets = bound
}
criterion_main!(benches);
