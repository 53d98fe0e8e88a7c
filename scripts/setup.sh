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
# chromium, chromium-driver: the headless browser of the console's test (tests/it/serve/console.rs).
APT_PACKAGES=(build-essential pkg-config git clang-19 llvm-19 lld-19 wasi-libc libclang-rt-19-dev-wasm32 jq file bsdextrautils diffutils ripgrep hexyl python3 python3-venv sqlite3 zip unzip curl dpkg-dev chromium chromium-driver)

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
log "machine ready"
