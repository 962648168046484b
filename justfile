# ndlearn developer recipes; every recipe is a thin wrapper over cargo / `cargo xtask`.

set positional-arguments

# List the recipes.
default:
    @just --list

# Check (and as root, install) OpenBLAS and pkg-config.
setup:
    cargo xtask setup

# Whole test suite (nextest + doctests, or cargo test); extra args go to the runner.
test *ARGS:
    cargo xtask test "$@"

# Benchmark comparison table (ndlearn-bench `compare`); args are forwarded.
bench *ARGS:
    cargo xtask bench "$@"

# Regenerate golden reference data with the Python scripts in scripts/golden.
golden:
    cargo xtask golden

# The nextest suite under each OpenBLAS kernel (OPENBLAS_CORETYPE); kernels may be named.
blas-sweep *KERNELS:
    cargo xtask blas-sweep "$@"

# Every fuzz target for a budget (seconds per target); `just fuzz 60 --target csv`.
fuzz SECONDS="60" *ARGS:
    cargo xtask fuzz --seconds "$@"

# The numerical stress table over every registered estimator.
stress:
    cargo xtask fuzz --stress

# Peak memory of fit beside scikit-learn's (each case in a fresh process per side).
memory *ARGS:
    cargo xtask bench --memory --compare sklearn "$@"

# Everything CI checks: fmt, clippy, tests, docs.
ci:
    cargo xtask ci

# Format the workspace.
fmt:
    cargo fmt --all

# Lint the workspace, warnings are errors.
clippy:
    cargo clippy --workspace --all-targets -- -D warnings

# Build the API docs, warnings are errors.
doc:
    RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps
