#!/usr/bin/env bash
# Runs wasmtime's own wasip1 test programs (crates/test-programs/src/bin/p1_*.rs
# of the wasmtime release our runtime is built on) through `computer`, each as
# a registered wasip1 command in a fresh workspace, the way wasmtime's harness
# runs them (crates/wasi/tests/all/p1.rs): argv = [name, PREOPEN], the
# preopen being the workspace root "/", env ERRNO_MODE_UNIX=1.
#
# Needs a wasmtime git mirror (the search tool's `fetch`; CI has none: there
# the runtime's wasi_fs tests and tests/it/cli_wasip1.rs stand in). The programs are built
# OUTSIDE the repository, in $WASMTIME_TESTS_DIR (default /tmp/wasmtime-tests).
#
#   scripts/wasmtime-fs-tests.sh [MIRROR_GIT_DIR] [NAME_FILTER]
# Prints one line per program (pass/FAIL) and the count; exit 1 if any failed.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
MIRROR="${1:-${WASMTIME_MIRROR:-/work/.mirror/bytecodealliance+wasmtime/repo}}"
FILTER="${2:-}"
TAG="${WASMTIME_TAG:-v48.0.0}"
OUT="${WASMTIME_TESTS_DIR:-/tmp/wasmtime-tests}"
BIN="${COMPUTER_BIN:-$ROOT/target/debug/computer}"
export COMPUTER_CACHE_DIR="${COMPUTER_CACHE_DIR:-$ROOT/target/tmp/component-cache}"

[ -d "$MIRROR" ] || { echo "no wasmtime mirror at $MIRROR" >&2; exit 2; }
[ -x "$BIN" ] || { echo "no computer binary at $BIN: cargo build" >&2; exit 2; }

if [ ! -f "$OUT/.built-$TAG" ]; then
  rm -rf "$OUT" && mkdir -p "$OUT/src/bin"
  git -C "$MIRROR" archive "$TAG" crates/test-programs/src/preview1.rs crates/test-programs/src/bin \
    | tar -x -C "$OUT"
  cp "$OUT"/crates/test-programs/src/preview1.rs "$OUT/src/"
  cp "$OUT"/crates/test-programs/src/bin/p1_*.rs "$OUT/src/bin/"
  echo 'pub mod preview1;' > "$OUT/src/lib.rs"
  cat > "$OUT/Cargo.toml" <<'TOML'
[package]
name = "test-programs"
version = "0.0.0"
edition = "2024"
publish = false

[lib]
name = "test_programs"
path = "src/lib.rs"

[dependencies]
wasip1 = "1.0.0"
libc = "0.2"

[workspace]
TOML
  cargo build --release --target wasm32-wasip1 --manifest-path "$OUT/Cargo.toml" -j2 >&2
  touch "$OUT/.built-$TAG"
fi

pass=0
fail=0
failed=()
for wasm in "$OUT"/target/wasm32-wasip1/release/p1_*.wasm; do
  name="$(basename "$wasm" .wasm)"
  [ -n "$FILTER" ] && [[ "$name" != *$FILTER* ]] && continue
  ws="$(mktemp -d)"
  db="$ws/workspace.db"
  log="$ws/log"
  if "$BIN" --workspace "$db" init >/dev/null 2>&1 \
    && "$BIN" commands add --workspace "$db" t "$wasm" >"$log" 2>&1 \
    && "$BIN" run --workspace "$db" --env ERRNO_MODE_UNIX=1 --timeout 120 t / </dev/null >>"$log" 2>&1; then
    pass=$((pass + 1))
    echo "pass $name"
  else
    fail=$((fail + 1))
    failed+=("$name")
    echo "FAIL $name: $(grep -v '^computer: compiling' "$log" | grep -m2 -E 'panicked|assert|computer:|error' | tr '\n' ' ' | cut -c1-300)"
  fi
  rm -rf "$ws"
done
echo "wasmtime $TAG p1 test programs: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
