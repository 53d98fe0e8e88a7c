#!/usr/bin/env bash
# The test command: set up the machine if needed, then lint and run every
# test. Safe to run repeatedly; CI runs exactly this (.ci/run).
set -euo pipefail
cd "$(dirname "$0")/.."

./scripts/setup.sh
if [ -x scripts/build-guests.sh ] && [ -f guests/Cargo.toml ]; then
  ./scripts/build-guests.sh
fi

echo "== cargo fmt --check"
cargo fmt --all --check
echo "== cargo clippy"
cargo clippy --workspace --all-targets -- -D warnings
echo "== cargo test"
cargo test --workspace
echo "== benchmark smoke (measures nothing; checks the bench binary runs)"
cargo run --quiet --release -p computer-bench -- fs --quick >/dev/null
echo "all checks passed"
