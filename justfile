# Everyday recipes for bisolve. `just` is optional (cargo install just); CI runs .ci/run.

# Build the release binary.
build:
    cargo build --release

# The whole test suite (the README's test command).
test:
    cargo test --workspace

# Formatting and lints, as CI checks them.
lint:
    cargo fmt --all -- --check
    cargo clippy --workspace --all-targets -- -D warnings

# Rewrite the golden effort counters (crates/cli/tests/golden/effort.tsv) after a change that
# moves the search; commit them with it. Needs ../shared.
golden:
    BISOLVE_BLESS=1 cargo test -p bisolve --test golden -- --nocapture

# Everything CI runs.
ci:
    .ci/run

# Solve a level file: just solve levels/demo.xsb --threads 2
solve FILE *ARGS:
    cargo run --release -- {{FILE}} {{ARGS}}

# Collection benchmark: `bisolve bench` over every shared set (Microban I and II, Sasquatch,
# XSokoban 1-45, the three Boxoban files), writing the summary table to
# benches/results/DATE-STRATEGY.txt (kept in git) and the per-level records to a .json beside
# it (ignored). E.g. `just bench 10 2 bidirectional`.
bench TIME="10" THREADS="2" STRATEGY="portfolio":
    cargo build --release
    mkdir -p benches/results
    out="benches/results/$(date +%F)-{{STRATEGY}}"; \
    {   echo "# $(date -u '+%F %H:%M UTC') $(git rev-parse --short HEAD): bisolve bench --time-limit {{TIME}} --threads {{THREADS}} --strategy {{STRATEGY}} on $(nproc) cores"; \
        target/release/bisolve bench ../shared/levels/microban.xsb ../shared/levels/microban2.xsb \
            ../shared/levels/sasquatch.xsb ../shared/levels/xsokoban-1-45.xsb \
            --time-limit {{TIME}} --threads {{THREADS}} --strategy {{STRATEGY}} --json "$out.json"; \
        target/release/bisolve bench ../shared/levels/boxoban-medium-train-000.txt \
            ../shared/levels/boxoban-unfiltered-test-000.txt ../shared/levels/boxoban-hard-000.txt \
            --time-limit {{TIME}} --threads 1 --jobs {{THREADS}} --strategy {{STRATEGY}} --json "$out-boxoban.json"; \
    } | tee "$out.txt"

# Criterion micro-benchmarks: parsing, reach, move generation, bounds, deadlock tests, table.
bench-micro:
    cargo bench --workspace

# Fuzz one target (parse, verify or solve) for SECS seconds; needs `cargo install cargo-fuzz`
# and a nightly toolchain. See fuzz/README.md.
fuzz TARGET="parse" SECS="600":
    cd fuzz && cargo +nightly fuzz run {{TARGET}} -- -max_total_time={{SECS}}
