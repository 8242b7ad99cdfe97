//! Reading level files: `load_collection` (text to validated levels with their static boards)
//! and `parse_collection` (text to raw levels only), on every shared collection file.

use std::hint::black_box;

use bisolve_benches::{collection_files, MEASUREMENT, WARM_UP};
use bisolve_board::load_collection;
use bisolve_board::parse::parse_collection;
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};

fn parse(c: &mut Criterion) {
    let mut group = c.benchmark_group("parse");
    // A whole file takes milliseconds: fewer samples keep the run short.
    group.sample_size(20);
    for (name, bytes) in collection_files() {
        let Ok(collection) = load_collection(&bytes) else {
            eprintln!("parse: skipping {name}: not a level file");
            continue;
        };
        group.throughput(Throughput::Elements(collection.entries.len() as u64));
        group.bench_with_input(BenchmarkId::new("load_collection", &name), &bytes, |b, bytes| {
            b.iter(|| load_collection(black_box(bytes)));
        });
        group.bench_with_input(BenchmarkId::new("parse_collection", &name), &bytes, |b, bytes| {
            b.iter(|| parse_collection(black_box(bytes)));
        });
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().warm_up_time(WARM_UP).measurement_time(MEASUREMENT);
    targets = parse
}
criterion_main!(benches);
