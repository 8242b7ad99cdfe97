//! The player's region: `Reach::fill` on real states, and `Reach::child_min` (the child's
//! normalized player worked out from the parent's fill) for every push of those states,
//! next to the full fill it spares. The areas of free squares: `Areas::label` (one search
//! with cut squares per expanded state) and `Areas::after_move` (every push's area count and
//! player region from it).

use std::hint::black_box;

use bisolve_benches::{fixtures, Fixture, MEASUREMENT, WARM_UP};
use bisolve_board::{Areas, BoxMap, Reach};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};

fn reach(c: &mut Criterion) {
    let mut group = c.benchmark_group("reach");
    for f in fixtures() {
        let board = f.level.board();
        // The start position and the state halfway along the solution.
        let picks = [("start", &f.states[0]), ("mid", &f.states[f.states.len() / 2])];
        for (which, state) in picks {
            let id = format!("{}/{which}", f.name);
            let mut map = BoxMap::new(board.n_cells());
            let mut reach = Reach::new(board.n_cells());
            map.set_all(&state.boxes);
            let min = reach.fill(board, &map, state.player);
            let pushes = Fixture::pushes(board, &map, &reach, state);

            group.throughput(Throughput::Elements(1));
            let mut fill = Reach::new(board.n_cells());
            group.bench_function(BenchmarkId::new("fill", &id), |b| {
                b.iter(|| fill.fill(board, &map, black_box(state.player)));
            });

            let mut areas = Areas::new(board.n_cells());
            group.bench_function(BenchmarkId::new("areas_label", &id), |b| {
                b.iter(|| areas.label(board, black_box(&state.boxes)));
            });

            if pushes.is_empty() {
                continue;
            }
            group.throughput(Throughput::Elements(pushes.len() as u64));
            areas.label(board, &state.boxes);
            group.bench_function(BenchmarkId::new("areas_after_move", &id), |b| {
                b.iter(|| {
                    let mut sum = 0u32;
                    for &(_, from, to) in &pushes {
                        sum += areas.after_move(board, from, black_box(to), from).0;
                    }
                    sum
                });
            });
            group.throughput(Throughput::Elements(pushes.len() as u64));
            group.bench_function(BenchmarkId::new("child_min", &id), |b| {
                b.iter(|| {
                    let mut local = 0usize;
                    for &(_, from, to) in &pushes {
                        map.move_box(from, to);
                        local += usize::from(reach.child_min(board, &map, min, from, to).is_some());
                        map.move_box(to, from);
                    }
                    local
                });
            });
            // What child_min spares: a fresh fill of every child.
            let mut child = Reach::new(board.n_cells());
            group.bench_function(BenchmarkId::new("child_fill", &id), |b| {
                b.iter(|| {
                    let mut sum = 0usize;
                    for &(_, from, to) in &pushes {
                        map.move_box(from, to);
                        sum += usize::from(child.fill(board, &map, from));
                        map.move_box(to, from);
                    }
                    sum
                });
            });
            let local = pushes
                .iter()
                .filter(|&&(_, from, to)| {
                    map.move_box(from, to);
                    let ok = reach.child_min(board, &map, min, from, to).is_some();
                    map.move_box(to, from);
                    ok
                })
                .count();
            eprintln!("reach: {id}: child_min answers {local} of {} pushes without a fill", pushes.len());
        }
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().warm_up_time(WARM_UP).measurement_time(MEASUREMENT);
    targets = reach
}
criterion_main!(benches);
