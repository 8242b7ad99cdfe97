//! Whole expansions, as the search makes them: `Expander::expand` of the forward (push) and
//! backward (pull) generators over every state of a solution path. Throughput is in children
//! generated (after pruning).

use bisolve_benches::{fixtures, Fixture, MEASUREMENT, WARM_UP};
use bisolve_board::search::{Child, Expander};
use bisolve_pull::{Backward, PullConfig};
use bisolve_push::{Forward, PushConfig};
use criterion::measurement::WallTime;
use criterion::{criterion_group, criterion_main, BenchmarkGroup, BenchmarkId, Criterion, Throughput};

/// Benchmarks one expander over every state of a fixture's path, counting children.
fn bench_expand<E: Expander>(
    group: &mut BenchmarkGroup<'_, WallTime>,
    name: &str,
    f: &Fixture,
    expander: &E,
) {
    let mut scratch = expander.new_scratch();
    let mut out: Vec<Child> = Vec::new();
    let mut children = 0u64;
    for s in &f.states {
        out.clear();
        expander.expand(&mut scratch, s.node(), &mut out);
        children += out.len() as u64;
    }
    eprintln!("moves: {name}/{}: {} states, {children} children", f.name, f.states.len());
    group.throughput(Throughput::Elements(children));
    group.bench_function(BenchmarkId::new(name, &f.name), |b| {
        b.iter(|| {
            for s in &f.states {
                out.clear();
                expander.expand(&mut scratch, s.node(), &mut out);
            }
            out.len()
        });
    });
}

fn moves(c: &mut Criterion) {
    let mut group = c.benchmark_group("moves");
    for f in fixtures() {
        let (board, start) = (f.level.board(), f.level.start());
        bench_expand(&mut group, "forward", &f, &Forward::new(board, start, PushConfig::default()));
        bench_expand(&mut group, "backward", &f, &Backward::new(board, start, PullConfig::default()));
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().warm_up_time(WARM_UP).measurement_time(MEASUREMENT);
    targets = moves
}
criterion_main!(benches);
