#!/usr/bin/env bash
# Build the `python3` command component: CPython 3.14 embedded by componentize-py
# (pinned below, installed with pip into a venv of its own), running the app in
# guests/python/app. Outputs:
#   target/python/python3.wasm        the wasi:cli/command component
#   target/python/lib/python3.14/     the standard library (sources and
#                                     unchecked-hash .pyc), to be mounted
#                                     read-only at /python, where the component
#                                     expects it:
#     computer commands add python3 target/python/python3.wasm \
#       --mount /python="$PWD/target/python/lib/python3.14"
#
# Idempotent: each output is rebuilt only when its inputs (the componentize-py
# version, this script, guests/python, wit/deps) hash differently from the
# last build's. A clean build takes about 45 s on 2 cores (15-20 s of it compiling
# the standard library's .pyc) and 450 MB of memory. Needs python3 with venv
# (Debian's python3-venv) and PyPI.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SRC="$ROOT/guests/python"
BUILD="$ROOT/target/python-build"
OUT="$ROOT/target/python"
VENV="$BUILD/venv"
PYTHON="${PYTHON:-python3}"
COMPONENTIZE_PY_VERSION=0.25.1
WORLD=computer:python/python3@0.1.0
STDLIB_DIR="$OUT/lib/python3.14"
COMPONENT="$OUT/python3.wasm"

log() { printf '[build-python] %s\n' "$*" >&2; }

command -v "$PYTHON" >/dev/null || { log "no $PYTHON: install the Debian package python3"; exit 1; }
if ! "$PYTHON" -c 'import venv, ensurepip' 2>/dev/null; then
  log "$PYTHON has no venv/ensurepip module: install the Debian package python3-venv"
  log "(apt-get install -y python3-venv)"
  exit 1
fi

installed_version() {
  "$VENV/bin/python" -c 'import importlib.metadata as m; print(m.version("componentize-py"))' 2>/dev/null || true
}
if [ ! -x "$VENV/bin/componentize-py" ] || [ "$(installed_version)" != "$COMPONENTIZE_PY_VERSION" ]; then
  log "installing componentize-py $COMPONENTIZE_PY_VERSION into $VENV"
  rm -rf "$VENV"
  "$PYTHON" -m venv "$VENV"
  "$VENV/bin/pip" install --quiet --disable-pip-version-check "componentize-py==$COMPONENTIZE_PY_VERSION"
fi

# inputs_hash PATH...: one hash over the componentize-py version, this script
# and the files under PATHs (relative to guests/python; -L follows wit/deps).
inputs_hash() {
  {
    echo "componentize-py $COMPONENTIZE_PY_VERSION"
    sha256sum <"${BASH_SOURCE[0]}"
    (cd "$SRC" && find -L "$@" -type f ! -name '*.pyc' -print0 | LC_ALL=C sort -z | xargs -0 sha256sum)
  } | sha256sum | cut -d' ' -f1
}
up_to_date() { [ -e "$1" ] && [ "$(cat "$2" 2>/dev/null)" = "$3" ]; }

mkdir -p "$BUILD" "$OUT"
componentize() { "$VENV/bin/componentize-py" -q -d "$SRC/wit" -w "$WORLD" componentize "$@"; }
# The --python-path directories are writable during pre-initialization, and
# CPython leaves __pycache__ in them: give it copies, never guests/python.
stage() {
  rm -rf "${BUILD:?}/$1"
  mkdir -p "$BUILD/$1"
  cp "$SRC/$1"/*.py "$BUILD/$1/"
}
elapsed() { echo "$(($(date +%s) - $1)) s"; }

# 1. The standard library. componentize-py has it only inside its build
# sandbox, so a throwaway component copies it out while it pre-initializes
# (guests/python/export/stdlib_export.py), into a --python-path directory
# marked for it. Its own snapshot is discarded: the copy and the compiles
# would leave their garbage in python3.wasm's memory image.
stdlib_stamp="$(inputs_hash export wit)"
if up_to_date "$STDLIB_DIR" "$OUT/.stdlib.stamp" "$stdlib_stamp"; then
  log "standard library up to date: $STDLIB_DIR"
else
  log "exporting the standard library"
  start=$(date +%s)
  rm -f "$OUT/.stdlib.stamp"
  export_dir="$BUILD/stdlib-export"
  rm -rf "$export_dir"
  mkdir -p "$export_dir"
  echo pyc >"$export_dir/.stdlib-export-target"
  stage export
  componentize -p "$BUILD/export" -p "$export_dir" stdlib_export -o "$BUILD/stdlib-export.wasm"
  rm -f "$BUILD/stdlib-export.wasm"
  rm -rf "$STDLIB_DIR"
  mkdir -p "$(dirname "$STDLIB_DIR")"
  mv "$export_dir/lib" "$STDLIB_DIR"
  rm -rf "$export_dir"
  echo "$stdlib_stamp" >"$OUT/.stdlib.stamp"
  log "standard library exported in $(elapsed "$start")"
fi

# 2. The command itself.
component_stamp="$(inputs_hash app wit)"
if up_to_date "$COMPONENT" "$OUT/.python3.stamp" "$component_stamp"; then
  log "up to date: $COMPONENT"
else
  log "building $COMPONENT"
  start=$(date +%s)
  rm -f "$OUT/.python3.stamp"
  stage app
  componentize -p "$BUILD/app" python3_cli -o "$COMPONENT.tmp"
  mv "$COMPONENT.tmp" "$COMPONENT"
  echo "$component_stamp" >"$OUT/.python3.stamp"
  log "built in $(elapsed "$start")"
fi

log "$COMPONENT: $(stat -c %s "$COMPONENT") bytes"
log "$STDLIB_DIR: $(du -sh "$STDLIB_DIR" | cut -f1), $(find "$STDLIB_DIR" -type f | wc -l) files"
