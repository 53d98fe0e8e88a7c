#!/usr/bin/env bash
# The test command: set up the machine if needed, then lint and run every
# test. Safe to run repeatedly; CI runs exactly this (.ci/run).
set -euo pipefail
cd "$(dirname "$0")/.."

./scripts/setup.sh
# Incremental state is large and useless on a clean clone; CI disks are small.
export CARGO_INCREMENTAL="${CARGO_INCREMENTAL:-0}"
if [ -x scripts/build-guests.sh ] && [ -f guests/Cargo.toml ]; then
  ./scripts/build-guests.sh
  echo "== guests: cargo fmt --check, cargo clippy"
  ./scripts/build-guests.sh lint
fi

echo "== cargo fmt --check"
cargo fmt --all --check
echo "== cargo clippy"
cargo clippy --workspace --all-targets -- -D warnings
# Container backend tests run against a real engine (Podman's API service) and the local image.
./scripts/setup-podman.sh >/dev/null && ./scripts/build-image.sh && export DOCKER_HOST=unix:///tmp/podman.sock COMPUTER_REQUIRE_CONTAINER=1
echo "== cargo test"
cargo test --workspace
echo "== benchmark smoke (measures nothing; checks the bench binary runs)"
# Debug profile: a release build of wasmtime would double the build's time and disk.
cargo run --quiet -p computer-bench -- fs --quick >/dev/null
cargo run --quiet -p computer-bench -- durable --quick >/dev/null
echo "all checks passed"
