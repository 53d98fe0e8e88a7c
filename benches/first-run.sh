#!/usr/bin/env bash
# The first exec of each built-in backend on an empty compile cache, and
# after `computer prepare` (what scripts/build.sh leaves), side by side with
# the same run from a warm cache. Usage: benches/first-run.sh [BIN]
# (default: target/release/computer, else target/debug/computer).
set -euo pipefail
cd "$(dirname "$0")/.."
BIN="${1:-}"
if [ -z "$BIN" ]; then
  BIN=target/release/computer
  [ -x "$BIN" ] || BIN=target/debug/computer
fi
SCRATCH="$(mktemp -d)"
trap 'rm -rf "$SCRATCH"' EXIT
export COMPUTER_WORKSPACE="$SCRATCH/ws.db"
"$BIN" init >/dev/null

seconds() { # the wall time of "$@", in seconds
  local start end
  start=$(date +%s.%N)
  "$@" >/dev/null 2>&1
  end=$(date +%s.%N)
  awk "BEGIN { print $end - $start }"
}
source_of() {
  case "$1" in
    shell) echo 'echo hi' ;;
    js) echo 'console.log("hi")' ;;
    python) echo 'print("hi")' ;;
  esac
}

echo "binary: $BIN; load: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "| backend | empty cache | after \`computer prepare\` | warm (second run) |"
echo "|---|---:|---:|---:|"
prepare=$(COMPUTER_CACHE_DIR="$SCRATCH/prepared" seconds "$BIN" prepare)
for backend in shell js python; do
  src="$(source_of "$backend")"
  cold=$(COMPUTER_CACHE_DIR="$SCRATCH/cold-$backend" seconds "$BIN" exec --backend "$backend" "$src")
  prepared=$(COMPUTER_CACHE_DIR="$SCRATCH/prepared" seconds "$BIN" exec --backend "$backend" "$src")
  warm=$(COMPUTER_CACHE_DIR="$SCRATCH/prepared" seconds "$BIN" exec --backend "$backend" "$src")
  printf '| %s | %.2f s | %.3f s | %.3f s |\n' "$backend" "$cold" "$prepared" "$warm"
done
printf '\n`computer prepare` of every built-in component on an empty cache: %.1f s\n' "$prepare"
