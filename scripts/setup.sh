#!/usr/bin/env bash
# Idempotent machine set-up for building and testing computer on Debian 12
# as root (or with sudo). Installs only what is missing:
#   - Debian packages: a C toolchain for rusqlite's bundled SQLite, git for
#     the import tests, clang-19/llvm-19/wasi-libc for the QuickJS guest,
#     ripgrep and hexyl as the references of the WASI programs' tests,
#     python3 and python3-venv for componentize-py (the python3 command);
#   - node (>= 20) and npm, the oracle of the node command;
#   - the Rust wasm32-wasip2 and wasm32-wasip1 targets, rustfmt and clippy;
#   - the official MCP Python SDK (`mcp` on PyPI) in a venv of its own,
#     the client of tests/it/mcp_sdk_session.rs.
set -euo pipefail

log() { printf '[setup] %s\n' "$*" >&2; }

. "$(dirname "${BASH_SOURCE[0]}")/apt.sh"

# jq, file, bsdextrautils, diffutils: the tools the shell corpus runs under real bash.
# ripgrep, hexyl: the native oracles of the WASI programs' tests (build-wasi-programs.sh).
# python3, python3-venv: componentize-py's venv (build-python.sh), and python3's oracle.
# sqlite3: the oracle of the sqlite3 command (tests/it/sqlite3_corpus.rs).
# curl: the oracle of the curl command (tests/it/curl/oracle.rs).
# autotools-dev: config.sub/config.guess that know wasm32-wasi (build-ffmpeg.sh).
# ffmpeg: the oracle of the ffmpeg and ffprobe commands (tests/it/media/), the same 5.1.
# cmake: libjpeg-turbo's and libtiff's builds (build-magick.sh).
# imagemagick: the oracle of convert, identify, mogrify and compare (tests/it/media/), 6.9.11.
# chromium, chromium-driver: the headless browser of the console's test (tests/it/serve/console.rs).
APT_PACKAGES=(build-essential pkg-config git clang-19 llvm-19 lld-19 wasi-libc libclang-rt-19-dev-wasm32 jq file bsdextrautils diffutils ripgrep hexyl python3 python3-venv sqlite3 zip unzip curl dpkg-dev autotools-dev ffmpeg cmake imagemagick chromium chromium-driver)

apt_install_missing "${APT_PACKAGES[@]}"

# node and npm: the oracle of the node command (tests/it/node_corpus.rs,
# tests/it/node_packages.rs). These machines come with nodesource's node 20;
# elsewhere Debian's own packages are the fallback, though Debian 12's node is
# 18, so a few of the corpus's expectations may differ from what it prints.
if ! command -v node >/dev/null; then
  apt_install_missing nodejs npm
elif ! command -v npm >/dev/null; then
  # nodesource's nodejs bundles npm, and Debian's npm would conflict with it.
  log "warning: node is here but npm is not: the npm-packages check (tests/node-packages) will skip"
fi
node_major="$(node -p 'process.versions.node.split(".")[0]')"
if [ "$node_major" -lt 20 ]; then
  log "warning: node $(node --version) is older than 20: the node corpus's oracle is node 20 (nodesource's nodejs package)"
else
  log "node $(node --version) and npm $(npm --version 2>/dev/null || echo missing) present"
fi

if ! command -v rustup >/dev/null; then
  log "rustup not found: this project expects a rustup-managed toolchain (rust 1.95+)"
  exit 1
fi
installed_targets="$(rustup target list --installed)"
if ! grep -qx wasm32-wasip2 <<<"$installed_targets"; then
  log "adding Rust target wasm32-wasip2"
  rustup target add wasm32-wasip2
fi
# wasip1 command modules (the conformance fixture; wasmtime's test programs).
if ! grep -qx wasm32-wasip1 <<<"$installed_targets"; then
  log "adding Rust target wasm32-wasip1"
  rustup target add wasm32-wasip1
fi
installed_components="$(rustup component list --installed)"
for comp in rustfmt clippy; do
  if ! grep -q "^$comp" <<<"$installed_components"; then
    log "adding Rust component $comp"
    rustup component add "$comp"
  fi
done
# The MCP Python SDK, pinned, in a venv under the target directory (Debian's
# python3 is externally managed; the test finds it at target/mcp-sdk/venv).
MCP_SDK_VERSION=2.3.0
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TARGET="${CARGO_TARGET_DIR:-target}"
case "$TARGET" in /*) ;; *) TARGET="$ROOT/$TARGET" ;; esac
MCP_VENV="$TARGET/mcp-sdk/venv"
if ! "$MCP_VENV/bin/python" -c "import mcp, importlib.metadata as m; assert m.version('mcp') == '$MCP_SDK_VERSION'" 2>/dev/null; then
  log "installing the MCP Python SDK (mcp==$MCP_SDK_VERSION) into $MCP_VENV"
  python3 -m venv "$MCP_VENV"
  "$MCP_VENV/bin/pip" install --quiet --disable-pip-version-check "mcp==$MCP_SDK_VERSION"
fi
# pytest, pinned, as plain files (pure Python): tests/it/python_capture.rs runs
# it on the same project in a workspace and with the host's python3.
PYTEST_VERSION=9.2.0
PYTEST_DIR="$TARGET/python-packages/pytest-$PYTEST_VERSION"
if [ ! -d "$PYTEST_DIR/pytest-$PYTEST_VERSION.dist-info" ]; then
  log "installing pytest==$PYTEST_VERSION into $PYTEST_DIR"
  rm -rf "$PYTEST_DIR"
  "$MCP_VENV/bin/pip" install --quiet --disable-pip-version-check --no-compile \
    --target "$PYTEST_DIR" "pytest==$PYTEST_VERSION"
fi
# A native pandoc, the oracle of tests/it/pandoc.rs: the binary inside PyPI's
# pypandoc_binary wheel (pinned by version and SHA-256), unpacked under the
# target directory. pypandoc_binary 1.17 ships pandoc 3.9; the sandbox's
# pandoc is 3.10 (no registry ships a native 3.10), so the tests compare
# bytes where 3.9 and 3.10 agree (see NOTES.md, "pandoc (issue 36)").
PANDOC_ORACLE_WHEEL_VERSION=1.17
PANDOC_ORACLE_WHEEL=pypandoc_binary-1.17-py3-none-manylinux1_x86_64.manylinux_2_28_x86_64.manylinux_2_5_x86_64.whl
PANDOC_ORACLE_WHEEL_SHA256=d6b620b21c9374e3e48aabd518492bf0776b148442ee28816f6aaf52da3d4387
PANDOC_ORACLE_DIR="$TARGET/pandoc-oracle/$PANDOC_ORACLE_WHEEL_VERSION"
if [ "$(uname -m)" = x86_64 ] && [ ! -x "$PANDOC_ORACLE_DIR/pandoc" ]; then
  log "installing native pandoc (pypandoc_binary==$PANDOC_ORACLE_WHEEL_VERSION) into $PANDOC_ORACLE_DIR"
  oracle_tmp="$(mktemp -d)"
  "$MCP_VENV/bin/pip" download --quiet --disable-pip-version-check --no-deps --only-binary=:all: --dest "$oracle_tmp" \
    "pypandoc_binary==$PANDOC_ORACLE_WHEEL_VERSION"
  got="$(sha256sum "$oracle_tmp/$PANDOC_ORACLE_WHEEL" | cut -d' ' -f1)"
  if [ "$got" != "$PANDOC_ORACLE_WHEEL_SHA256" ]; then
    log "$PANDOC_ORACLE_WHEEL: SHA-256 $got, expected $PANDOC_ORACLE_WHEEL_SHA256"
    rm -rf "$oracle_tmp"
    exit 1
  fi
  mkdir -p "$PANDOC_ORACLE_DIR"
  unzip -q -o -j "$oracle_tmp/$PANDOC_ORACLE_WHEEL" pypandoc/files/pandoc -d "$PANDOC_ORACLE_DIR"
  chmod +x "$PANDOC_ORACLE_DIR/pandoc"
  rm -rf "$oracle_tmp"
fi
log "machine ready"
