//! The visited table shared by every worker: `VisitedTable::insert` of random fingerprints
//! into a fresh table, with 1, 2 and N (available parallelism) threads inserting disjoint
//! streams at once, and `VisitedTable::get` of states that are there (hits) and are not
//! (misses). Throughput is total operations per second, all threads together.

use std::hint::black_box;
use std::thread;
use std::time::{Duration, Instant};

use bisolve_benches::{random_fingerprints, WARM_UP};
use bisolve_board::search::{PackedMove, Side};
use bisolve_board::Fingerprint;
use bisolve_engine::table::VisitedTable;
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, SamplingMode, Throughput};

/// Inserts (or lookups) per thread per iteration.
const PER_THREAD: usize = 1 << 20;

/// Shards per thread, as the engine sizes its table.
const SHARDS_PER_THREAD: usize = 16;

/// 1, 2 and N threads, without repeats.
fn thread_counts() -> Vec<usize> {
    let n = thread::available_parallelism().map_or(1, |n| n.get());
    let mut counts = vec![1, 2, n];
    counts.sort_unstable();
    counts.dedup();
    counts
}

fn insert_all(table: &VisitedTable, stream: &[Fingerprint]) -> usize {
    let mut new = 0;
    for (depth, &fp) in stream.iter().enumerate() {
        let result = table.insert(fp, Side::Forward, depth as u32 & 0xFFF, PackedMove::ROOT);
        new += usize::from(result == bisolve_engine::table::Insert::New);
    }
    new
}

fn table(c: &mut Criterion) {
    let mut group = c.benchmark_group("table");
    // An iteration is a million operations per thread: a few samples of one iteration each.
    group.sampling_mode(SamplingMode::Flat);
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(3));
    for threads in thread_counts() {
        let streams: Vec<Vec<Fingerprint>> =
            (0..threads).map(|t| random_fingerprints(0xB15_0000 + t as u64, PER_THREAD)).collect();
        group.throughput(Throughput::Elements((threads * PER_THREAD) as u64));
        group.bench_function(BenchmarkId::new("insert", threads), |b| {
            b.iter_custom(|iters| {
                let mut total = Duration::ZERO;
                for _ in 0..iters {
                    let table = VisitedTable::new(SHARDS_PER_THREAD * threads);
                    let started = Instant::now();
                    thread::scope(|s| {
                        for stream in &streams {
                            let table = &table;
                            s.spawn(move || black_box(insert_all(table, stream)));
                        }
                    });
                    total += started.elapsed();
                    // Dropping the table is not part of the measurement.
                    drop(black_box(table));
                }
                total
            });
        });
    }

    // Lookups in a table holding one stream: every thread looks all of it up.
    let hits = random_fingerprints(0xB15_1000, PER_THREAD);
    let misses = random_fingerprints(0xB15_2000, PER_THREAD);
    let table = VisitedTable::new(SHARDS_PER_THREAD * thread_counts().last().copied().unwrap_or(1));
    insert_all(&table, &hits);
    for (name, stream) in [("get_hit", &hits), ("get_miss", &misses)] {
        for threads in thread_counts() {
            group.throughput(Throughput::Elements((threads * PER_THREAD) as u64));
            group.bench_function(BenchmarkId::new(name, threads), |b| {
                b.iter(|| {
                    thread::scope(|s| {
                        for _ in 0..threads {
                            s.spawn(|| {
                                black_box(stream.iter().filter(|&&fp| table.get(fp).is_some()).count())
                            });
                        }
                    });
                });
            });
        }
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().warm_up_time(WARM_UP);
    targets = table
}
criterion_main!(benches);
