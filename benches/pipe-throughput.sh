#!/usr/bin/env bash
# Throughput of a pipe between two workspace commands, against the same
# pipeline of native programs (issue 32's target: >= 200 MB/s).
#
#   benches/pipe-throughput.sh [COMPUTER_BIN] [MIB]
#
# The commands are the test fixture `test_command cat` (64 KiB reads and
# writes, built by scripts/build-guests.sh), registered as `tc`; the native
# side is coreutils' cat. Each side runs three times; the best is kept.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BIN="${1:-$ROOT/target/release/computer}"
MIB="${2:-64}"
TC="$ROOT/guests/target/wasm32-wasip2/release/test_command.wasm"
[ -x "$BIN" ] || { echo "no computer binary at $BIN" >&2; exit 2; }
[ -f "$TC" ] || { echo "no $TC: run scripts/build-guests.sh" >&2; exit 2; }

DIR="$(mktemp -d)"
trap 'rm -rf "$DIR"' EXIT
export COMPUTER_WORKSPACE="$DIR/ws.db"
export COMPUTER_CACHE_DIR="${COMPUTER_CACHE_DIR:-$ROOT/target/tmp/component-cache}"
head -c "$((MIB << 20))" /dev/urandom > "$DIR/big"
"$BIN" fs write /big < "$DIR/big"
"$BIN" commands add tc "$TC" >/dev/null
"$BIN" exec 'tc cat < /dev/null' >/dev/null # compile once

best() { # best wall time in seconds of three runs of "$@"
  local best=999999 t
  for _ in 1 2 3; do
    /usr/bin/time -f %e -o "$DIR/t" "$@" >/dev/null 2>&1
    t=$(tail -1 "$DIR/t")
    best=$(echo "$t $best" | awk '{print ($1 < $2) ? $1 : $2}')
  done
  echo "$best"
}

rate() { echo "$MIB $1" | awk '{printf "%.0f", ($1 * 1.048576) / ($2 > 0 ? $2 : 0.001)}'; }

base=$(best "$BIN" exec 'cat /big | wc -c')
one=$(best "$BIN" exec 'cat /big | tc cat | wc -c')
two=$(best "$BIN" exec 'cat /big | tc cat | tc cat | wc -c')
native=$(best bash -c "cat '$DIR/big' | cat | cat | wc -c")
echo "pipeline on $MIB MiB                          wall s   MB/s"
printf 'sandbox: cat | wc -c                          %6s  %5s\n' "$base" "$(rate "$base")"
printf 'sandbox: cat | tc cat | wc -c                 %6s  %5s\n' "$one" "$(rate "$one")"
printf 'sandbox: cat | tc cat | tc cat | wc -c        %6s  %5s\n' "$two" "$(rate "$two")"
printf 'native:  cat | cat | cat | wc -c              %6s  %5s\n' "$native" "$(rate "$native")"
# The pipe between the two commands: the time the second command adds.
extra=$(echo "$two $one" | awk '{print $1 - $2}')
printf 'the tc -> tc pipe alone (added time)          %6s  %5s\n' "$extra" "$(rate "$extra")"
