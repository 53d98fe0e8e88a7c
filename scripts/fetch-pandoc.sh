#!/usr/bin/env bash
# Produces a pandoc.wasm our runtime can register as a command:
#   $COMPUTER_PANDOC_DIR (default target/pandoc/<version>)/pandoc.wasm
# from npm's `pandoc-wasm` (the official pandoc build for wasip1), translated
# from the legacy exception-handling encoding, which wasmtime does not run,
# to the standard one (exnref) by binaryen's `wasm-opt --translate-to-exnref`
# (npm's `binaryen`). Compact imports stay off: wasmtime 48 does not parse them.
#
# pandoc is GPL-2.0-or-later: its LICENSE is copied beside it, and it is never
# embedded in the binary (a user registers it: `computer commands add pandoc
# target/pandoc/1.1.0/pandoc.wasm`). Downloads through npm only; idempotent.
# Costs: ~40 MB of downloads, ~40 s of wasm-opt; the first registration then
# compiles it for ~2-3 minutes (cached by the component cache afterwards).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PANDOC_WASM_VERSION=1.1.0
BINARYEN_VERSION=132.0.0
OUT="${COMPUTER_PANDOC_DIR:-$ROOT/target/pandoc/$PANDOC_WASM_VERSION}"
log() { printf '[fetch-pandoc] %s\n' "$*" >&2; }

if [ -f "$OUT/pandoc.wasm" ] && [ -f "$OUT/LICENSE" ]; then
  log "pandoc-wasm $PANDOC_WASM_VERSION already at $OUT"
  exit 0
fi
command -v npm >/dev/null || { log "npm is needed (apt-get install npm)"; exit 1; }
command -v node >/dev/null || { log "node is needed"; exit 1; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
(cd "$work" && npm pack --silent "pandoc-wasm@$PANDOC_WASM_VERSION" "binaryen@$BINARYEN_VERSION" >/dev/null)
mkdir -p "$work/pandoc" "$work/binaryen"
tar -xzf "$work/pandoc-wasm-$PANDOC_WASM_VERSION.tgz" -C "$work/pandoc"
tar -xzf "$work/binaryen-$BINARYEN_VERSION.tgz" -C "$work/binaryen"
log "translating legacy exceptions to exnref (wasm-opt $BINARYEN_VERSION, ~40 s)"
node "$work/binaryen/package/bin/wasm-opt" --all-features --disable-compact-imports \
  --translate-to-exnref "$work/pandoc/package/src/pandoc.wasm" -o "$work/pandoc.wasm"
mkdir -p "$OUT"
cp "$work/pandoc/package/LICENSE" "$OUT/LICENSE"
cp "$work/pandoc/package/pandoc-version.txt" "$OUT/pandoc-version.txt"
mv "$work/pandoc.wasm" "$OUT/pandoc.wasm"
log "wrote $OUT/pandoc.wasm (pandoc $(cat "$OUT/pandoc-version.txt"), GPL-2.0-or-later: see LICENSE)"
