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

# Everything CI runs.
ci:
    .ci/run

# Solve a level file: just solve levels/demo.xsb --threads 2
solve FILE *ARGS:
    cargo run --release -- {{FILE}} {{ARGS}}

# Benchmarks: criterion micro-benchmarks and collection runs.
bench:
    cargo bench --workspace

# Fuzz one target (parse, verify or solve) for SECS seconds; needs `cargo install cargo-fuzz`
# and a nightly toolchain. See fuzz/README.md.
fuzz TARGET="parse" SECS="600":
    cd fuzz && cargo +nightly fuzz run {{TARGET}} -- -max_total_time={{SECS}}
