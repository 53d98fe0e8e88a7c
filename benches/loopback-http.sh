#!/usr/bin/env bash
# A loopback HTTP request (http.server and http.client in one Python
# process, benches/loopback-http.py) in a run against host CPython
# (issue 32's target: at most 5x native).
#
#   benches/loopback-http.sh [COMPUTER_BIN] [REQUESTS]
#
# Each side runs three times; the best mean per request is kept.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BIN="${1:-$ROOT/target/release/computer}"
N="${2:-200}"
PY="${PYTHON:-/usr/bin/python3}"
[ -x "$BIN" ] || { echo "no computer binary at $BIN" >&2; exit 2; }

DIR="$(mktemp -d)"
trap 'rm -rf "$DIR"' EXIT
export COMPUTER_WORKSPACE="$DIR/ws.db"
export COMPUTER_CACHE_DIR="${COMPUTER_CACHE_DIR:-$ROOT/target/tmp/component-cache}"
"$BIN" fs write /bench.py < "$ROOT/benches/loopback-http.py"

best() { # the smallest of three outputs of "$@"
  for _ in 1 2 3; do "$@"; done | sort -n | head -1
}
native=$(best "$PY" "$ROOT/benches/loopback-http.py" "$N")
sandbox=$(best "$BIN" run python3 /bench.py "$N")
echo "requests: $N (mean of each run, best of three)"
echo "native ($("$PY" -V 2>&1)): ${native} µs per request"
echo "sandbox (python3 in a run): ${sandbox} µs per request"
awk -v s="$sandbox" -v n="$native" 'BEGIN { printf "ratio: %.1fx\n", s / n }'
