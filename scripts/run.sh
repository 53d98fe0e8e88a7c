#!/usr/bin/env bash
# The main job: set up the machine if needed, build, and walk through the
# workspace with the computer CLI on a scratch workspace.
set -euo pipefail
cd "$(dirname "$0")/.."

./scripts/setup.sh
if [ -x scripts/build-guests.sh ] && [ -f guests/Cargo.toml ]; then
  ./scripts/build-guests.sh
fi
cargo build --quiet --release -p computer-cli
BIN="$PWD/target/release/computer"

DEMO="$(mktemp -d)"
trap 'rm -rf "$DEMO"' EXIT
export COMPUTER_WORKSPACE="$DEMO/workspace.db"
step() { printf '\n\033[1m$ computer %s\033[0m\n' "$*"; "$BIN" "$@"; }

step init
step import wit /contract
step fs find /contract '**/*.wit' --limit 5
step fs grep 'interrupt' /contract --include '*.wit' --limit 3
printf 'fn main() {\r\n    println!("hello");\r\n}\r\n' | "$BIN" fs write /src/main.rs --parents
step fs edit /src/main.rs --old 'println!("hello");' --new 'println!("hello, agent");'
step fs cp -r /src /src-copy
step fs mv /src-copy /backup
step fs ln -s /src/main.rs /main.rs
step fs ls -l /
step fs readonly /contract
step fs rm -r /contract || true
step --json fs stat /backup/main.rs
step info
