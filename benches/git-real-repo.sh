#!/usr/bin/env bash
# The sandbox's git against /usr/bin/git on a 6,000-commit repository, side
# by side: each command N times on each side, medians printed as a table.
#   benches/git-real-repo.sh target/release/computer [N]
# The repository is made by real git's fast-import (60 files, 6,000 commits,
# 12 annotated tags, packed by gc), imported into a workspace. The sandbox
# side is one `computer exec` per command (so it includes the CLI's start,
# opening the workspace and the run); the native side one git process. The
# clone row clones the same repository over smart HTTP (real git's
# http-backend behind tests/fixtures/git-http/server.py on 127.0.0.1).
set -euo pipefail
BIN="$(realpath "${1:?usage: benches/git-real-repo.sh path/to/computer [N]}")"
N="${2:-5}"
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
WORK="$(mktemp -d)"
trap 'kill "${SERVER:-0}" 2>/dev/null || true; rm -rf "$WORK"' EXIT
export GIT_CONFIG_NOSYSTEM=1 HOME="$WORK/home"
mkdir -p "$HOME"

git init -q -b main "$WORK/r"
python3 - <<'EOF' | (cd "$WORK/r" && git fast-import --quiet)
import random, sys
random.seed(7)
files = {f"src/f{i}.txt": [f"line {j} of file {i}\n" for j in range(200)] for i in range(60)}
t = 1600000000
out = sys.stdout.buffer
for c in range(6000):
    t += 3600
    name = random.choice(list(files))
    lines = files[name]
    for _ in range(3):
        k = random.randrange(len(lines))
        lines[k] = f"changed in commit {c} at {k}\n"
    data = "".join(lines).encode()
    who = random.choice(["Ann <ann@x.org>", "Bob <bob@x.org>", "Cyd <cyd@x.org>"])
    msg = f"commit {c}: touch {name}\n".encode()
    out.write(b"commit refs/heads/main\n")
    out.write(f"author {who} {t} +0000\ncommitter {who} {t} +0000\n".encode())
    out.write(f"data {len(msg)}\n".encode() + msg)
    out.write(f"M 100644 inline {name}\ndata {len(data)}\n".encode() + data + b"\n")
    if c % 500 == 0:
        out.write(f"tag v{c // 500}.0\nfrom refs/heads/main\ntagger {who} {t} +0000\ndata 4\nrel\n\n".encode())
EOF
git -C "$WORK/r" checkout -q main
git -C "$WORK/r" gc -q

export COMPUTER_WORKSPACE="$WORK/ws.db"
"$BIN" init >/dev/null
"$BIN" import "$WORK/r" /r >/dev/null
"$BIN" exec 'git -C /r status >/dev/null' # compile cache warm

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
ms() { # ms COMMAND...: wall milliseconds of one run
  local s e
  s=$(date +%s%N)
  "$@" >/dev/null 2>&1
  e=$(date +%s%N)
  echo $(((e - s) / 1000000))
}
row() { # row LABEL GIT-ARGS
  local label=$1 args=$2 n=() c=() i
  for ((i = 0; i < N; i++)); do
    n+=("$(ms bash -c "cd '$WORK/r' && git $args")")
    c+=("$(ms "$BIN" exec "cd /r && git $args")")
  done
  local nm cm
  nm=$(printf '%s\n' "${n[@]}" | median)
  cm=$(printf '%s\n' "${c[@]}" | median)
  printf '| `git %s` | %s ms | %s ms | %sx |\n' "$label" "$cm" "$nm" \
    "$(awk -v a="$cm" -v b="$nm" 'BEGIN {printf "%.1f", a / (b > 0 ? b : 1)}')"
}

echo "| work (6,000 commits) | computer | native | ratio |"
echo "|---|---:|---:|---:|"
row "log --oneline" "log --oneline"
row "log -- FILE" "log --oneline -- src/f3.txt"
row "blame FILE" "blame src/f7.txt"
row "describe" "describe"
row "shortlog -sn" "shortlog -sn HEAD"
row "grep" "grep -n 'changed in commit 59'"
row "status" "status --short"

# Clone over smart HTTP.
mkdir -p "$WORK/srv"
git clone -q --bare "$WORK/r" "$WORK/srv/repo.git"
python3 "$ROOT/tests/fixtures/git-http/server.py" "$WORK/srv" >"$WORK/port" &
SERVER=$!
until [ -s "$WORK/port" ]; do sleep 0.1; done
PORT=$(head -1 "$WORK/port")
"$BIN" net allow "127.0.0.1:$PORT" >/dev/null
n=() c=()
for ((i = 0; i < N; i++)); do
  rm -rf "$WORK/clone"
  n+=("$(ms git clone -q "http://127.0.0.1:$PORT/repo.git" "$WORK/clone")")
  c+=("$(ms "$BIN" exec "rm -rf /clone && git clone -q http://127.0.0.1:$PORT/repo.git /clone")")
done
nm=$(printf '%s\n' "${n[@]}" | median)
cm=$(printf '%s\n' "${c[@]}" | median)
printf '| `git clone` over HTTP (%s pack) | %s ms | %s ms | %sx |\n' \
  "$(du -sh "$WORK/srv/repo.git/objects/pack" | cut -f1)" "$cm" "$nm" \
  "$(awk -v a="$cm" -v b="$nm" 'BEGIN {printf "%.1f", a / (b > 0 ? b : 1)}')"
