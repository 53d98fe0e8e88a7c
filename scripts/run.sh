#!/usr/bin/env bash
# The main job: set up the machine if needed, build, and walk through the
# workspace with the computer CLI on a scratch workspace.
set -euo pipefail
cd "$(dirname "$0")/.."

# Set-up, guests, release binary, and every built-in component compiled for
# this machine, so no step below waits for a compile.
BIN="$(./scripts/build.sh)"

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

# Agent code in the shell (the default backend) and in JavaScript, on the same files.
step exec 'ls / && echo "hi from bash" > /x && cat /x'
step exec --backend js 'import { readFileSync } from "node:fs"; console.log(readFileSync("/x", "utf8").trim().toUpperCase())'

# The built-in commands (python3, git, sqlite3), compiled by build.sh, and the python backend.
step exec 'mkdir -p /proj && cd /proj && git init -q && python3 -c "print(sum(range(10)))" > sum.txt && git add . && git -c user.name=A -c user.email=a@example.com commit -q -m "first" && git log --oneline | wc -l && sqlite3 :memory: "select 6 * 7"'
step --json exec --backend python --input '{"n": 21}' 'import subprocess; print(subprocess.run(["git", "-C", "/proj", "status", "-s"], capture_output=True, text=True).stdout or "clean"); {"double": input["n"] * 2}'

# A durable run parked at an approval: ws:github asks before it posts to a
# stand-in GitHub on 127.0.0.1; the answer resumes the run where it stopped.
PORT=18765
python3 examples/github-module/fake-github.py "$PORT" > "$DEMO/github.log" 2>&1 &
GITHUB_PID=$!
trap 'kill $GITHUB_PID 2>/dev/null; rm -rf "$DEMO"' EXIT
for _ in $(seq 50); do (exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null && break; sleep 0.1; done
step modules add ws:github guests/target/wasm32-wasip2/release/github_module.wasm \
  --config "base_url=http://127.0.0.1:$PORT" --config repo=acme/demo --allow-host "127.0.0.1:$PORT"
step exec --backend js --id demo-approval \
  'import { postComment } from "ws:github"; console.log("posted:", postComment(7, "LGTM"))' || true
step pending
CALL="$("$BIN" --json pending | jq -r '.pending[0].call_id')"
step respond demo-approval "$CALL" '{"approved": true}'
echo "stand-in GitHub received:"; cat "$DEMO/github.log"
step runs
