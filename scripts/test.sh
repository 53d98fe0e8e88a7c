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
  echo "== guests: the shell guest's unit tests, on the host"
  ./scripts/build-guests.sh test --quiet
fi
./scripts/build-wasi-programs.sh
# python3 and its standard library, embedded in the binary by computer-builtins.
./scripts/build-python.sh
# sqlite3 (guests/sqlite3), embedded in the binary by computer-builtins.
./scripts/build-sqlite3.sh
./scripts/build-sqlite3.sh lint
# git, the real program (GPL, from Debian's source package): installed in
# target/programs beside the binaries, registered at run time, not embedded.
./scripts/build-git.sh
./scripts/build-git.sh lint
# ffmpeg and ffprobe, the real programs (GPL, from Debian's source packages),
# installed the same way.
./scripts/build-ffmpeg.sh
./scripts/build-ffmpeg.sh lint
# ImageMagick's tools (convert, identify, mogrify, ...), from Debian's source packages.
./scripts/build-magick.sh
# pandoc, the real program (GPL, the pandoc project's own pandoc.wasm from
# npm): installed in target/programs beside git; `computer prepare` below
# compiles it once into the shared component cache (about 3 minutes).
./scripts/fetch-pandoc.sh

echo "== cargo fmt --check"
cargo fmt --all --check
echo "== cargo clippy"
cargo clippy --workspace --all-targets -- -D warnings
echo "== cargo doc (warnings denied)"
RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps --quiet
# Container backend tests run against a real engine (Podman's API service) and the small
# busybox image (the Debian default image takes minutes to build: CI never builds it).
./scripts/setup-podman.sh >/dev/null && ./scripts/build-image.sh busybox && export DOCKER_HOST=unix:///tmp/podman.sock COMPUTER_REQUIRE_CONTAINER=1
echo "== cargo build (every target, features unified as for the tests)"
# The CLI tests run the `computer` binary; built here with the test build's
# features, it shares every dependency with the tests (built alone, with
# `-p computer-cli`, it would compile wasmtime a second time).
cargo build --workspace --all-targets --quiet
export COMPUTER_BIN="${CARGO_TARGET_DIR:-$PWD/target}/debug/computer"
# One component cache for every test process (tests/support's
# component_cache_dir), filled once here rather than by whichever tests
# happen to start first, each compiling the same component at once.
export COMPUTER_CACHE_DIR="${COMPUTER_CACHE_DIR:-${CARGO_TARGET_DIR:-$PWD/target}/tmp/component-cache}"
echo "== computer prepare (the built-in components compiled once, for the tests)"
"$COMPUTER_BIN" prepare
echo "== cargo test"
cargo test --workspace
echo "== benchmark smoke (measures nothing; checks the bench binary runs)"
# Debug profile: a release build of wasmtime would double the build's time and disk.
cargo run --quiet -p computer-bench -- fs --quick >/dev/null
cargo run --quiet -p computer-bench -- durable --quick >/dev/null
cargo run --quiet -p computer-bench -- inrun --quick >/dev/null
cargo run --quiet -p computer-bench -- wasi --quick >/dev/null
cargo run --quiet -p computer-bench -- node --quick >/dev/null
echo "all checks passed"
