#!/usr/bin/env bash
# Build the WASI command programs the runtime's tests and the `wasi` benchmark
# suite run through `Runtime::run_command`:
#   - two real third-party programs, `cargo install`ed for wasm32-wasip2 at a
#     pinned version: ripgrep (bin/rg.wasm) and hexyl (bin/hexyl.wasm), the
#     latter at the version Debian 12 ships, so its output is the oracle's;
#   - our fixtures tests/fixtures/wasi-bench, tests/fixtures/sqlite-bench and
#     tests/fixtures/sock-echo (loopback sockets through std::net), each built for wasm32-wasip2 and natively (the native build is the
#     benchmarks' reference).
#
# Everything lands in $COMPUTER_WASI_PROGRAMS_DIR (default target/wasi-programs):
#   bin/rg.wasm, bin/hexyl.wasm, bin/wasip1_probe.wasm (+ native bin/wasip1_probe)
#   target/wasm32-wasip2/release/{wasi_bench,sqlite_bench,sock_echo}.wasm
#   target/release/{wasi_bench,sqlite_bench,sock_echo}
# The tests and benchmarks look there, or at COMPUTER_RG_WASM, COMPUTER_HEXYL_WASM,
# COMPUTER_WASI_BENCH_WASM, COMPUTER_WASI_BENCH_NATIVE, COMPUTER_SQLITE_BENCH_WASM,
# COMPUTER_SQLITE_BENCH_NATIVE.
#
# Idempotent: an installed program at its pinned version is not rebuilt, and
# the fixtures' builds are no-ops when nothing changed. A clean run takes about
# 3 minutes on 2 cores (ripgrep ~1 min, hexyl 20 s, SQLite's C twice ~1.5 min).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OUT="${COMPUTER_WASI_PROGRAMS_DIR:-$ROOT/target/wasi-programs}"
FIXTURES_TARGET="$OUT/target"

RIPGREP_VERSION=15.2.0
HEXYL_VERSION=0.8.0

log() { printf '[build-wasi-programs] %s\n' "$*" >&2; }

for tool in clang-19 llvm-ar-19; do
  command -v "$tool" >/dev/null || { log "missing $tool: run scripts/setup.sh"; exit 1; }
done
if [ ! -d /usr/include/wasm32-wasi ]; then
  log "missing /usr/include/wasm32-wasi (Debian package wasi-libc): run scripts/setup.sh"
  exit 1
fi
mkdir -p "$OUT"

# install CRATE VERSION BIN [cargo install flags]: skipped when cargo's own
# record says that version is installed in $OUT and the binary is there.
install() {
  local crate="$1" version="$2" bin="$3"
  shift 3
  if [ -f "$OUT/bin/$bin" ] && grep -qF "\"$crate $version " "$OUT/.crates.toml" 2>/dev/null; then
    log "$crate $version already installed"
    return
  fi
  log "cargo install $crate $version (wasm32-wasip2)"
  # A build directory of its own, removed after: a CARGO_TARGET_DIR in the
  # environment would otherwise keep the whole build there.
  local build
  build="$(mktemp -d)"
  # Stripped: the name section and DWARF are most of an unstripped program
  # (ripgrep is 20 MB with them, 3.4 MB without) and would slow every compile.
  # No debug info either: ripgrep's release profile asks for some.
  CARGO_PROFILE_RELEASE_STRIP=true CARGO_PROFILE_RELEASE_DEBUG=false cargo install "$crate" --version "=$version" --locked \
    --target wasm32-wasip2 --root "$OUT" --target-dir "$build" --force "$@"
  rm -rf "$build"
}

install ripgrep "$RIPGREP_VERSION" rg.wasm
install hexyl "$HEXYL_VERSION" hexyl.wasm

# SQLite's C for wasm32-wasip2: the clang-19 settings of scripts/build-guests.sh
# (see TOOLCHAIN.md), without the QuickJS-only ones.
SYSROOT="$FIXTURES_TARGET/wasi-sysroot"
mkdir -p "$SYSROOT/include"
ln -sfn /usr/include/wasm32-wasi "$SYSROOT/include/wasm32-wasip2"
export CC_wasm32_wasip2=clang-19
export AR_wasm32_wasip2=llvm-ar-19
export CFLAGS_wasm32_wasip2="--sysroot=$SYSROOT"

for fixture in wasi-bench sqlite-bench sock-echo; do
  manifest="$ROOT/tests/fixtures/$fixture/Cargo.toml"
  log "building $fixture (wasm32-wasip2 and native)"
  cargo build --release --locked --target wasm32-wasip2 --manifest-path "$manifest" --target-dir "$FIXTURES_TARGET"
  cargo build --release --locked --manifest-path "$manifest" --target-dir "$FIXTURES_TARGET"
done

# The wasip1 C probe (tests/fixtures/wasip1-c): a core module, as clang-19 and
# Debian's wasi-libc (with libclang-rt-19-dev-wasm32) emit it, and its native
# build as the oracle. Rebuilt only when the source is newer.
PROBE_SRC="$ROOT/tests/fixtures/wasip1-c/probe.c"
if [ "$PROBE_SRC" -nt "$OUT/bin/wasip1_probe.wasm" ] || [ ! -f "$OUT/bin/wasip1_probe" ]; then
  log "building the wasip1 C probe (module and native)"
  mkdir -p "$OUT/bin"
  clang-19 --target=wasm32-wasi --sysroot=/usr -O2 -Wl,--strip-all -o "$OUT/bin/wasip1_probe.wasm" "$PROBE_SRC"
  cc -O2 -o "$OUT/bin/wasip1_probe" "$PROBE_SRC"
fi

for f in "$OUT"/bin/rg.wasm "$OUT"/bin/hexyl.wasm "$OUT"/bin/wasip1_probe.wasm \
  "$FIXTURES_TARGET"/wasm32-wasip2/release/wasi_bench.wasm "$FIXTURES_TARGET"/release/wasi_bench \
  "$FIXTURES_TARGET"/wasm32-wasip2/release/sqlite_bench.wasm "$FIXTURES_TARGET"/release/sqlite_bench \
  "$FIXTURES_TARGET"/wasm32-wasip2/release/sock_echo.wasm "$FIXTURES_TARGET"/release/sock_echo; do
  printf '%s\t%s bytes\n' "$f" "$(stat -c %s "$f")"
done
