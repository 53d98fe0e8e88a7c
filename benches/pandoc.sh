#!/usr/bin/env bash
# The sandbox's pandoc against a native pandoc on a ~100-page Markdown
# document (md -> html), side by side: each side N times, medians printed.
#   benches/pandoc.sh path/to/computer [N]
# The document is generated (seeded): 40 sections of headings, paragraphs
# with emphasis, links and inline code, lists, a table and a code block each,
# about 50,000 words (~100 pages of a printed manual). The sandbox side is one
# `computer run pandoc` per conversion (the CLI's start, opening the
# workspace, loading the compiled pandoc and the run); the native side one
# pandoc process. Native: $PANDOC_NATIVE, else the oracle scripts/setup.sh
# installs (pypandoc_binary 1.17: pandoc 3.9; the sandbox's is 3.10).
# The sandbox's pandoc must be compiled already (`computer prepare`).
set -euo pipefail
BIN="$(realpath "${1:?usage: benches/pandoc.sh path/to/computer [N]}")"
N="${2:-5}"
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
NATIVE="${PANDOC_NATIVE:-$ROOT/target/pandoc-oracle/1.17/pandoc}"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

mkdir -p "$WORK/in"
python3 - >"$WORK/in/doc.md" <<'EOF'
import random
random.seed(36)
words = ("the of and to in is that for it as with was on be by this are from at "
         "which an or have not but all can their more one has been were other "
         "document converter format markdown output table section value").split()
def sentence():
    ws = [random.choice(words) for _ in range(random.randint(8, 20))]
    i = random.randrange(len(ws))
    ws[i] = random.choice([f"*{ws[i]}*", f"**{ws[i]}**", f"`{ws[i]}`",
                           f"[{ws[i]}](https://example.org/{i})"])
    return " ".join(ws).capitalize() + "."
for s in range(40):
    print(f"# Section {s}\n")
    for sub in range(3):
        print(f"## Part {s}.{sub}\n")
        for _ in range(4):
            print(" ".join(sentence() for _ in range(6)) + "\n")
        print("\n".join(f"- {sentence()}" for _ in range(4)) + "\n")
    print("| a | b | c |\n|---|---|---|")
    for r in range(5):
        print(f"| {r} | {random.choice(words)} | {sentence()} |")
    print("\n```python\nfor i in range(10):\n    print(i * i)\n```\n")
EOF
cp "$WORK/in/doc.md" "$WORK/doc.md"
words="$(wc -w <"$WORK/doc.md")"

export COMPUTER_WORKSPACE="$WORK/ws.db"
"$BIN" import "$WORK/in" / >/dev/null

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
time_ms() { # time_ms CMD...: milliseconds of one run
  local t0 t1
  t0=$(date +%s%N)
  "$@" >/dev/null
  t1=$(date +%s%N)
  echo $(((t1 - t0) / 1000000))
}
ours="$(for _ in $(seq "$N"); do time_ms "$BIN" run pandoc /doc.md -o /doc.html; done | median)"
theirs="$(cd "$WORK" && for _ in $(seq "$N"); do time_ms "$NATIVE" doc.md -o doc.html; done | median)"
# The same bytes on both sides (3.9 and 3.10 write this document alike).
"$BIN" fs read /doc.html >"$WORK/ours.html"
if cmp -s "$WORK/ours.html" "$WORK/doc.html"; then same=yes; else same=no; fi
echo "| work | computer | native | ratio | same bytes |"
echo "|---|---:|---:|---:|---|"
awk -v o="$ours" -v t="$theirs" -v w="$words" -v s="$same" \
  'BEGIN { printf "| pandoc md -> html, %d words | %d ms | %d ms | %.2fx | %s |\n", w, o, t, o / t, s }'
