#!/usr/bin/env bash
# Installs pandoc, the real program, for the sandbox: the official
# `pandoc.wasm` (pandoc 3.10, built by the pandoc project with GHC's wasm
# backend for wasip1) from npm's `pandoc-wasm`, translated from the legacy
# exception-handling encoding, which wasmtime does not run, to the standard
# one (exnref) by binaryen's `wasm-opt --translate-to-exnref` (npm's
# `binaryen`). Its `_start` is pandoc's own `main`: the command line, the
# errors and the exit codes are pandoc's. Output:
#   target/programs/pandoc/pandoc.wasm          the program (a wasip1 module)
#   target/programs/pandoc/pandoc.wasm.sha256   its digest (the cache key)
#   target/programs/pandoc/COPYING              pandoc's licence (GPL-2.0-or-later)
#   target/programs/pandoc/SOURCE               where it came from
# The `computer` binary finds it beside itself (host/builtins, programs.rs)
# and registers it as the built-in `pandoc` at run time: pandoc is GPL and
# is never linked into or embedded in the MIT binary.
#
# Both tarballs are pinned by version and SHA-256; only npm is used.
# Idempotent: skipped when the installed program's stamp names these pins.
# Costs: ~40 MB of downloads, ~30-40 s of wasm-opt; `computer prepare` then
# compiles it once per machine (about 2-3 minutes, cached).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PANDOC_WASM_VERSION=1.1.0
PANDOC_WASM_SHA256=693bf76c2365254378500a2370a5995ebeb5f859248784ea827eb687878614a2
BINARYEN_VERSION=132.0.0
BINARYEN_SHA256=6543555fb29bb92548f325c7dc18e9ab7dbb1215edda25993d1e3f71d85b8618
OUT="${COMPUTER_PROGRAMS_DIR:-$ROOT/target/programs}/pandoc"
STAMP="$OUT/.stamp"
WANT="pandoc-wasm $PANDOC_WASM_VERSION $PANDOC_WASM_SHA256 binaryen $BINARYEN_VERSION $BINARYEN_SHA256"

log() { printf '[fetch-pandoc] %s\n' "$*" >&2; }

if [ -f "$OUT/pandoc.wasm" ] && [ "$(cat "$STAMP" 2>/dev/null)" = "$WANT" ]; then
  log "pandoc (pandoc-wasm $PANDOC_WASM_VERSION) already at $OUT"
  exit 0
fi
command -v npm >/dev/null || { log "npm is needed (scripts/setup.sh)"; exit 1; }
command -v node >/dev/null || { log "node is needed (scripts/setup.sh)"; exit 1; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
check() { # check FILE SHA256
  local got
  got="$(sha256sum "$1" | cut -d' ' -f1)"
  if [ "$got" != "$2" ]; then
    log "$(basename "$1"): SHA-256 $got, expected $2; refusing it"
    exit 1
  fi
}
log "downloading pandoc-wasm $PANDOC_WASM_VERSION and binaryen $BINARYEN_VERSION (npm)"
(cd "$work" && npm pack --silent "pandoc-wasm@$PANDOC_WASM_VERSION" "binaryen@$BINARYEN_VERSION" >/dev/null)
check "$work/pandoc-wasm-$PANDOC_WASM_VERSION.tgz" "$PANDOC_WASM_SHA256"
check "$work/binaryen-$BINARYEN_VERSION.tgz" "$BINARYEN_SHA256"
mkdir -p "$work/pandoc" "$work/binaryen"
tar -xzf "$work/pandoc-wasm-$PANDOC_WASM_VERSION.tgz" -C "$work/pandoc"
tar -xzf "$work/binaryen-$BINARYEN_VERSION.tgz" -C "$work/binaryen"
pandoc_version="$(tr -d '[:space:]' <"$work/pandoc/package/pandoc-version.txt")"

log "translating legacy exceptions to exnref (wasm-opt $BINARYEN_VERSION, ~40 s)"
# `--disable-compact-imports`: with `--all-features`, binaryen 132 writes
# compact imports, which wasmtime 48 cannot parse. No optimisation pass runs:
# the module stays the pandoc project's, only re-encoded.
node "$work/binaryen/package/bin/wasm-opt" --all-features --disable-compact-imports \
  --translate-to-exnref "$work/pandoc/package/src/pandoc.wasm" -o "$work/pandoc.wasm"

rm -rf "$OUT"
mkdir -p "$OUT"
# The package's LICENSE (pandoc's notice, and MIT for the JS glue we do not
# ship), then the GPL's full text, which the notice refers to.
{
  cat "$work/pandoc/package/LICENSE"
  if [ -f /usr/share/common-licenses/GPL-2 ]; then
    printf '\n\n'
    cat /usr/share/common-licenses/GPL-2
  fi
} >"$OUT/COPYING"
wasm_sha256="$(sha256sum "$work/pandoc.wasm" | cut -d' ' -f1)"
cat >"$OUT/SOURCE" <<EOF
pandoc $pandoc_version, the official WebAssembly build (wasm32-wasi, GHC's wasm backend)
made by the pandoc project.

Program: src/pandoc.wasm of the npm package pandoc-wasm@$PANDOC_WASM_VERSION
  (tarball pandoc-wasm-$PANDOC_WASM_VERSION.tgz, SHA-256 $PANDOC_WASM_SHA256),
  re-encoded by \`wasm-opt --all-features --disable-compact-imports --translate-to-exnref\`
  from the npm package binaryen@$BINARYEN_VERSION
  (tarball binaryen-$BINARYEN_VERSION.tgz, SHA-256 $BINARYEN_SHA256).
  pandoc.wasm here: SHA-256 $wasm_sha256.
Licence: GPL-2.0-or-later (COPYING).
Source code: https://hackage.haskell.org/package/pandoc-$pandoc_version/pandoc-$pandoc_version.tar.gz
  and https://github.com/jgm/pandoc (tag $pandoc_version);
  the wasm build: https://github.com/pandoc/pandoc-wasm and pandoc's own
  release workflow; the package: https://www.npmjs.com/package/pandoc-wasm.
Nothing of pandoc is changed by this project: the module is run as it is,
through wasmtime's wasip1 adapter.
EOF
mv "$work/pandoc.wasm" "$OUT/pandoc.wasm"
echo "$wasm_sha256" >"$OUT/pandoc.wasm.sha256"
echo "$WANT" >"$STAMP"
log "wrote $OUT/pandoc.wasm (pandoc $pandoc_version, GPL-2.0-or-later: see COPYING)"
