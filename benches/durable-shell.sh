#!/usr/bin/env bash
# A shell loop that does no I/O, run durable (the default) and with
# --on-interrupt fail (no journal), alternating, and the same loop in real
# bash: the medians of N runs each, side by side.
# Usage: benches/durable-shell.sh [BIN] [N]
set -euo pipefail
cd "$(dirname "$0")/.."
BIN="${1:-target/release/computer}"
[ -x "$BIN" ] || BIN=target/debug/computer
N="${2:-7}"
SCRATCH="$(mktemp -d)"
trap 'rm -rf "$SCRATCH"' EXIT
export COMPUTER_WORKSPACE="$SCRATCH/ws.db"
"$BIN" init >/dev/null
LOOP='for i in $(seq 1 20000); do :; done'

# shellcheck source=benches/timing.sh
. benches/timing.sh

"$BIN" exec "$LOOP" >/dev/null # the compile cache, warm
: >"$SCRATCH/durable"
: >"$SCRATCH/plain"
: >"$SCRATCH/bash"
for _ in $(seq "$N"); do
  ms "$BIN" exec "$LOOP" >>"$SCRATCH/durable"
  ms "$BIN" exec --on-interrupt fail "$LOOP" >>"$SCRATCH/plain"
  ms bash -c "$LOOP" >>"$SCRATCH/bash"
done
d=$(median <"$SCRATCH/durable")
p=$(median <"$SCRATCH/plain")
b=$(median <"$SCRATCH/bash")
echo "binary: $BIN; load: $(cut -d' ' -f1-3 /proc/loadavg); medians of $N"
echo "| work | durable | --on-interrupt fail | bash | durable / fail |"
echo "|---|---:|---:|---:|---:|"
printf '| `%s` | %d ms | %d ms | %d ms | %s |\n' "$LOOP" "$d" "$p" "$b" \
  "$(awk "BEGIN { printf \"%.2fx\", $d / $p }")"
