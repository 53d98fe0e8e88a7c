#!/usr/bin/env bash
# Build every guest component (guests/*) in release for wasm32-wasip2.
#
# Idempotent: re-running only rebuilds what changed. Follows the QuickJS
# recipe of TOOLCHAIN.md: rquickjs-sys compiles QuickJS's C sources with the
# system clang-19 against the Debian wasi-libc headers, instead of downloading
# wasi-sdk (which cannot be fetched here). Needs clang-19, llvm-19 (llvm-ar),
# wasi-libc and the Rust wasm32-wasip2 target: scripts/setup.sh installs them.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
GUESTS="$ROOT/guests"
TARGET_DIR="${CARGO_TARGET_DIR:-$GUESTS/target}"

log() { printf '[build-guests] %s\n' "$*" >&2; }

for tool in clang-19 llvm-ar-19; do
  command -v "$tool" >/dev/null || { log "missing $tool: run scripts/setup.sh"; exit 1; }
done
if [ ! -d /usr/include/wasm32-wasi ]; then
  log "missing /usr/include/wasm32-wasi (Debian package wasi-libc): run scripts/setup.sh"
  exit 1
fi

# clang looks for <sysroot>/include/<target triple>; Debian ships the headers
# as wasm32-wasi, so a sysroot whose wasm32-wasip2 entry points there keeps
# clang off the host's glibc headers.
SYSROOT="$TARGET_DIR/wasi-sysroot"
mkdir -p "$SYSROOT/include"
ln -sfn /usr/include/wasm32-wasi "$SYSROOT/include/wasm32-wasip2"

export RQUICKJS_SYS_NO_WASI_SDK=1
export CC_wasm32_wasip2=clang-19
export AR_wasm32_wasip2=llvm-ar-19
export CFLAGS_wasm32_wasip2="--sysroot=$SYSROOT"

# `scripts/build-guests.sh lint` checks the guests' workspace as test.sh checks the
# host's: `cargo fmt --check`, and clippy on every target with warnings denied
# (release, so it reuses the build's build-script runs, QuickJS's C among them).
if [ "${1:-}" = "lint" ]; then
  shift
  log "cargo fmt --check (guests)"
  cargo fmt --all --check --manifest-path "$GUESTS/Cargo.toml"
  log "cargo clippy --all-targets (guests, wasm32-wasip2)"
  cargo clippy --release --target wasm32-wasip2 --all-targets --manifest-path "$GUESTS/Cargo.toml" "$@" -- -D warnings
  exit 0
fi

# `scripts/build-guests.sh test` runs the shell guest's unit tests (its script
# rewrites, wc's counting, seq, diff...) natively on the host: they need no
# component runtime, and a wasm32 test binary would need one to run.
if [ "${1:-}" = "test" ]; then
  shift
  host="$(rustc -vV | sed -n 's/^host: //p')"
  log "cargo test (shell guest's unit tests, $host)"
  cargo test --target "$host" -p computer-guest-shell --lib --manifest-path "$GUESTS/Cargo.toml" "$@"
  exit 0
fi

# `scripts/build-guests.sh clippy` runs clippy with the same environment.
if [ "${1:-}" = "clippy" ]; then
  shift
  cargo clippy --release --target wasm32-wasip2 --manifest-path "$GUESTS/Cargo.toml" "$@" -- -D warnings
  for module in examples/github-module tests/fixtures/test-module tests/fixtures/wasi-fs-probe tests/fixtures/test-command; do
    cargo clippy --release --target wasm32-wasip2 --manifest-path "$ROOT/$module/Cargo.toml" --target-dir "$TARGET_DIR" -- -D warnings
  done
  exit 0
fi

log "building guests (release, wasm32-wasip2)"
cargo build --release --target wasm32-wasip2 --manifest-path "$GUESTS/Cargo.toml" "$@"

# Module components: the ws:github example and the runtime tests' module,
# and the wasi:filesystem probe (a wasi:cli/command). Each is its own cargo
# workspace; they share the guests' target directory, so they land next to
# the guests (github_module.wasm, computer_test_module.wasm, wasi_fs_probe.wasm).
for module in examples/github-module tests/fixtures/test-module tests/fixtures/wasi-fs-probe tests/fixtures/test-command; do
  log "building module component $module"
  cargo build --release --target wasm32-wasip2 --manifest-path "$ROOT/$module/Cargo.toml" --target-dir "$TARGET_DIR"
done

OUT="$TARGET_DIR/wasm32-wasip2/release"
for wasm in "$OUT"/computer_guest_*.wasm "$OUT"/curl.wasm "$OUT"/github_module.wasm "$OUT"/computer_test_module.wasm "$OUT"/wasi_fs_probe.wasm "$OUT"/test_command.wasm; do
  [ -e "$wasm" ] || continue
  printf '%s\t%s bytes\n' "$wasm" "$(stat -c %s "$wasm")"
done
