#!/usr/bin/env bash
# Builds `computer` as a user runs it: the machine's set-up, the guest
# components it embeds, the release binary, and then every built-in
# component compiled for this machine (`computer prepare`), so that no first
# run waits for a compile. Idempotent: each step skips what is done.
# Prints the binary's path last.
set -euo pipefail
cd "$(dirname "$0")/.."

BIN="${CARGO_TARGET_DIR:-$PWD/target}/release/computer"
# Everything but the last line goes to stderr, so `BIN="$(scripts/build.sh)"` works.
{
  ./scripts/setup.sh
  ./scripts/build-guests.sh
  ./scripts/build-python.sh
  ./scripts/build-sqlite3.sh
  ./scripts/build-git.sh
  ./scripts/build-ffmpeg.sh
  ./scripts/build-magick.sh
  ./scripts/fetch-pandoc.sh
  cargo build --quiet --release -p computer-cli
  "$BIN" prepare
} >&2
echo "$BIN"
