#!/usr/bin/env bash
# The shell backend against real bash on the same 5,000-file tree, through the CLI
# (each row is a new `computer exec` process, as an agent's call is): medians of N
# runs each, alternating, side by side. The workspace and bash's copy are on the
# same filesystem (/dev/shm when there is one). `true` is the per-process floor.
# The agent script is also run durable against --on-interrupt fail (the last line).
# Usage: benches/shell-speed.sh [BIN] [N]
set -euo pipefail
cd "$(dirname "$0")/.."
BIN="${1:-target/release/computer}"
[ -x "$BIN" ] || BIN=target/debug/computer
N="${2:-7}"
BASE=/dev/shm
[ -d "$BASE" ] && [ -w "$BASE" ] || BASE="${TMPDIR:-/tmp}"
SCRATCH="$(mktemp -d "$BASE/shell-speed.XXXXXX")"
trap 'rm -rf "$SCRATCH"' EXIT
export COMPUTER_WORKSPACE="$SCRATCH/ws.db"
TREE="$SCRATCH/tree"
python3 - "$TREE" <<'PY'
import os, sys
root = sys.argv[1]
for d in range(50):
    for s in range(4):
        p = f"{root}/pkg{d}/sub{s}"
        os.makedirs(p, exist_ok=True)
        for f in range(25):
            if f % 3 == 0:
                body = f"pub fn handler_{f}(x: u32) -> u32 {{\n    x + {f}\n}}\n// TODO {d}\n"
                open(f"{p}/file{f}.rs", "w").write(body)
            else:
                open(f"{p}/file{f}.txt", "w").write(f"notes {f}\nnothing to see fn here\n")
PY
"$BIN" import "$TREE" /tree >/dev/null

# shellcheck source=benches/timing.sh
. benches/timing.sh

ROWS=(
  'true'
  "find . -name '*.rs' | wc -l"
  'grep -rl TODO . | wc -l'
  "find . -name '*.rs' | xargs grep -h 'fn ' | sed 's/(.*//' | sort | uniq -c | sort -rn | head -20"
  "grep -rh 'fn ' . | sort | uniq -c | sort -rn | head -5; find . -type f | wc -l; grep -rl TODO . | head -3"
  'for i in $(seq 1 20000); do :; done'
)
"$BIN" exec --cwd /tree true >/dev/null # the compile cache, warm
echo "binary: $BIN; load: $(cut -d' ' -f1-3 /proc/loadavg); medians of $N; tree on $BASE"
echo "| script (cwd: the tree) | computer exec | bash | ratio |"
echo "|---|---:|---:|---:|"
for row in "${ROWS[@]}"; do
  : >"$SCRATCH/c"
  : >"$SCRATCH/b"
  for _ in $(seq "$N"); do
    ms "$BIN" exec --on-interrupt fail --cwd /tree "$row" >>"$SCRATCH/c"
    (cd "$TREE" && ms bash -c "$row") >>"$SCRATCH/b"
  done
  c=$(median <"$SCRATCH/c")
  b=$(median <"$SCRATCH/b")
  printf '| `%s` | %d ms | %d ms | %s |\n' "$row" "$c" "$b" \
    "$(awk "BEGIN { printf \"%.1fx\", $c / ($b > 0 ? $b : 1) }")"
done

# The agent script (the fifth row) durable, as runs are by default, against
# --on-interrupt fail: what the journal costs.
AGENT="${ROWS[4]}"
: >"$SCRATCH/d"
: >"$SCRATCH/f"
for _ in $(seq "$N"); do
  ms "$BIN" exec --cwd /tree "$AGENT" >>"$SCRATCH/d"
  ms "$BIN" exec --on-interrupt fail --cwd /tree "$AGENT" >>"$SCRATCH/f"
done
d=$(median <"$SCRATCH/d")
f=$(median <"$SCRATCH/f")
printf 'agent script durable %d ms, --on-interrupt fail %d ms: %s\n' "$d" "$f" \
  "$(awk "BEGIN { printf \"%.2fx\", $d / ($f > 0 ? $f : 1) }")"
