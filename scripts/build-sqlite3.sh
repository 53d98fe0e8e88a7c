#!/usr/bin/env bash
# Build the `sqlite3` command component (guests/sqlite3: our own shell on
# rusqlite with SQLite's C bundled) for wasm32-wasip2. Output:
#   target/sqlite3/sqlite3.wasm
# which host/builtins embeds (build.rs) as the built-in `sqlite3`.
#
# SQLite's C is compiled by clang-19 against Debian's wasi-libc headers, with
# the settings of scripts/build-guests.sh (see ../shared/TOOLCHAIN.md), plus
# the compile options of Debian 12's sqlite3 that change what SQL does (math
# functions, recursive triggers, LIKE not matching blobs, ...).
#
# Idempotent: skipped when the inputs (this script, guests/sqlite3's manifest,
# lock file and sources, wit/) hash as they did for the last build. A clean
# build takes about 1.5 minutes on 2 cores. Needs clang-19, llvm-19
# (llvm-ar-19), wasi-libc and the Rust wasm32-wasip2 target (scripts/setup.sh).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SRC="$ROOT/guests/sqlite3"
TARGET_DIR="${CARGO_TARGET_DIR:-$ROOT/guests/target}"
OUT="$ROOT/target/sqlite3"
COMPONENT="$OUT/sqlite3.wasm"
STAMP="$OUT/.sqlite3.stamp"

log() { printf '[build-sqlite3] %s\n' "$*" >&2; }

need() { # need TOOL DEBIAN-PACKAGE
  command -v "$1" >/dev/null || { log "missing $1: install the Debian package $2 (scripts/setup.sh)"; exit 1; }
}
need clang-19 clang-19
need llvm-ar-19 llvm-19
if [ ! -d /usr/include/wasm32-wasi ]; then
  log "missing /usr/include/wasm32-wasi: install the Debian package wasi-libc (scripts/setup.sh)"
  exit 1
fi
if ! rustup target list --installed 2>/dev/null | grep -qx wasm32-wasip2; then
  log "missing the Rust target wasm32-wasip2: rustup target add wasm32-wasip2 (scripts/setup.sh)"
  exit 1
fi

SYSROOT="$TARGET_DIR/wasi-sysroot"
mkdir -p "$SYSROOT/include"
ln -sfn /usr/include/wasm32-wasi "$SYSROOT/include/wasm32-wasip2"
export CC_wasm32_wasip2=clang-19
export AR_wasm32_wasip2=llvm-ar-19
export CFLAGS_wasm32_wasip2="--sysroot=$SYSROOT"
# Debian 12's sqlite3 is built with these (PRAGMA compile_options); rusqlite's
# bundled build adds its own, of which foreign keys on by default is undone at
# open time (guests/sqlite3/src/db.rs).
# USE_PREAD: SQLite writes with pwrite (wasi:filesystem's descriptor.write),
# which carries the host's exact error; wasi-libc's write(2) goes through a
# stream and reports every failure as EIO, so a full workspace read "disk I/O
# error" instead of "database or disk is full".
export LIBSQLITE3_FLAGS="-DUSE_PREAD -DSQLITE_ENABLE_MATH_FUNCTIONS -DSQLITE_DEFAULT_RECURSIVE_TRIGGERS=1 -DSQLITE_LIKE_DOESNT_MATCH_BLOBS -DSQLITE_SECURE_DELETE -DSQLITE_ENABLE_FTS4 -DSQLITE_MAX_VARIABLE_NUMBER=250000 -DSQLITE_ENABLE_STMTVTAB"

# `scripts/build-sqlite3.sh lint`: cargo fmt --check and clippy (wasm32-wasip2,
# warnings denied) on guests/sqlite3; `scripts/build-sqlite3.sh test`: its unit
# tests (float printing, x87 arithmetic), run natively.
case "${1:-}" in
  lint)
    cargo fmt --check --manifest-path "$SRC/Cargo.toml"
    cargo clippy --release --locked --target wasm32-wasip2 --manifest-path "$SRC/Cargo.toml" --target-dir "$TARGET_DIR" -- -D warnings
    exit 0
    ;;
  test)
    cargo test --release --locked --manifest-path "$SRC/Cargo.toml" --target-dir "$TARGET_DIR"
    exit 0
    ;;
esac

stamp="$(
  {
    sha256sum <"${BASH_SOURCE[0]}"
    (cd "$ROOT" && find guests/sqlite3/Cargo.toml guests/sqlite3/Cargo.lock guests/sqlite3/src wit -type f -print0 |
      LC_ALL=C sort -z | xargs -0 sha256sum)
  } | sha256sum | cut -d' ' -f1
)"
if [ -f "$COMPONENT" ] && [ "$(cat "$STAMP" 2>/dev/null)" = "$stamp" ]; then
  log "up to date: $COMPONENT"
  exit 0
fi

mkdir -p "$OUT"
log "building $COMPONENT (release, wasm32-wasip2)"
start=$(date +%s)
cargo build --release --locked --target wasm32-wasip2 --manifest-path "$SRC/Cargo.toml" --target-dir "$TARGET_DIR"
cp "$TARGET_DIR/wasm32-wasip2/release/sqlite3.wasm" "$COMPONENT.tmp"
mv "$COMPONENT.tmp" "$COMPONENT"
echo "$stamp" >"$STAMP"
log "built in $(($(date +%s) - start)) s: $COMPONENT, $(stat -c %s "$COMPONENT") bytes"
