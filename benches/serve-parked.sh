#!/usr/bin/env bash
# Memory of `computer serve` holding 1,000 SSE connections that follow runs
# parked at an approval (issue 39's third speed row). Parks N JS runs that
# call ws:github (examples/github-module; needs scripts/build-guests.sh),
# opens one `GET /workspaces/w/runs/ID/events` per run, checks each got its
# `waiting` event, and prints the server's RSS before and after.
#
# Usage: benches/serve-parked.sh [COMPUTER_BIN] [N]
set -euo pipefail
BIN=${1:-target/debug/computer}
N=${2:-1000}
MODULE=guests/target/wasm32-wasip2/release/github_module.wasm
DIR=$(mktemp -d)
trap 'kill "$(cat "$DIR/pid")" 2>/dev/null || true; rm -rf "$DIR"' EXIT
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
T=$("$BIN" serve --data "$DIR/data" token create admin)
("$BIN" serve --data "$DIR/data" --listen "127.0.0.1:$PORT" 2>"$DIR/log" & echo $! >"$DIR/pid")
until grep -q listening "$DIR/log"; do sleep 0.1; done
H="Authorization: Bearer $T"
curl -sf -H "$H" -H 'content-type: application/json' -d '{"id":"w"}' "localhost:$PORT/workspaces" >/dev/null
"$BIN" --workspace "$DIR/data/workspaces/w.db" modules add ws:github "$MODULE" \
  --config base_url=http://127.0.0.1:9 --config repo=o/r --allow-host 127.0.0.1:9 >/dev/null
cat >"$DIR/agent.json" <<'JSON'
{"backend":"js","source":"import { postComment } from \"ws:github\";\ntry { console.log(postComment(7, \"x\")); } catch (e) { console.log(e.message); }"}
JSON
seq 1 "$N" | xargs -P 8 -I{} curl -sf -o /dev/null -H "$H" -H 'content-type: application/json' \
  --data-binary @"$DIR/agent.json" "localhost:$PORT/workspaces/w/exec"
ulimit -n $((N + 1024))
python3 - "$PORT" "$T" "$(cat "$DIR/pid")" "$N" <<'PY'
import json, socket, sys, time, urllib.request
port, tok, pid, n = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
req = urllib.request.Request(f"http://127.0.0.1:{port}/workspaces/w/approvals?limit=1000", headers={"Authorization": f"Bearer {tok}"})
runs = [p["run_id"] for p in json.load(urllib.request.urlopen(req))["pending"]][:n]
def rss():
    return int(next(l for l in open(f"/proc/{pid}/status") if l.startswith("VmRSS")).split()[1])
before = rss()
socks = []
for r in runs:
    s = socket.create_connection(("127.0.0.1", int(port)))
    s.sendall(f"GET /workspaces/w/runs/{r}/events HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {tok}\r\n\r\n".encode())
    socks.append(s)
time.sleep(3)
seen = 0
for s in socks:
    s.settimeout(5)
    buf = b""
    while b"waiting" not in buf:
        chunk = s.recv(4096)
        if not chunk:
            break
        buf += chunk
    seen += b"waiting" in buf
time.sleep(2)
print(json.dumps({"connections": len(socks), "waiting_seen": seen, "rss_mb_before": round(before / 1024, 1), "rss_mb_after": round(rss() / 1024, 1)}))
PY
