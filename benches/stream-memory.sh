#!/usr/bin/env bash
# The smallest guest memory cap (`computer exec --memory MIB`) each pipeline
# over a 100 MB text file completes under: exit 0, nothing on stderr, and
# the output GNU tools give for the same file. Usage:
# benches/stream-memory.sh [BIN] (default: target/release/computer).
# STREAM_MB=N sizes the file (default 100), to see which peaks grow with it.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN="${1:-target/release/computer}"
MB="${STREAM_MB:-100}"
SCRATCH="$(mktemp -d)"
trap 'rm -rf "$SCRATCH"' EXIT
export COMPUTER_WORKSPACE="$SCRATCH/ws.db"
mkdir "$SCRATCH/src"
# base64 gets SIGPIPE when head has its 100 MB: not an error here.
(set +o pipefail; head -c $((MB * 800000)) /dev/urandom | base64 -w 100 | head -c $((MB * 1000000)) >"$SCRATCH/src/big")
"$BIN" import "$SCRATCH/src" /d >/dev/null
CAPS="16 32 64 128 192 256 320 384 448 512 640 768 1024"
echo "| pipeline on a $MB MB file | smallest cap that works (MiB) | target |"
echo "|---|---:|---|"
for script in 'cat big | wc -c' 'grep x big | head' 'cat big | grep x | head' 'cat big | grep -c x' \
  'grep -c x big' 'wc -l big' 'cat big | head -c 100' 'sort big | tail -1'; do
  want="$(cd "$SCRATCH/src" && bash -c "$script")"
  found="> ${CAPS##* }"
  for cap in $CAPS; do
    if got="$("$BIN" exec --on-interrupt fail --cwd /d --memory "$cap" "$script" 2>"$SCRATCH/err")" &&
      [ ! -s "$SCRATCH/err" ] && [ "$got" = "$want" ]; then
      found="$cap"
      break
    fi
  done
  echo "| \`$script\` | $found | ≤ 64 |"
done
