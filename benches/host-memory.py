#!/usr/bin/env python3
"""Peak host memory of `computer mcp` running N execs at once.

Usage: benches/host-memory.py [BIN] (default target/release/computer).
CASES (default "js shell python js-200"), COUNTS (default "1 4 16") and
HOST_MEMORY (passed as --host-memory MiB when set) choose what is run.

For each backend and count: a fresh workspace and server, one warm-up exec
(so the guest is compiled and loaded), then N execs sent at once; the
server's VmHWM (peak RSS) and the RSS right after the warm-up are read from
/proc. Each exec touches a few MiB of guest memory and ends, so the figures
are what a run costs the host beyond what it asks for.
"""
import json
import os
import subprocess
import sys
import tempfile

BIN = sys.argv[1] if len(sys.argv) > 1 else "target/release/computer"
CASES = {
    # label: (backend, source); each touches about 8 MiB in the guest.
    "js": ("js", "let a = new Uint8Array(8 << 20); a.fill(1); a[12345]"),
    "shell": ("shell", "x=$(seq 1 200000 | tail -1); echo $x"),
    # python3 is a command the shell runs, inside the shell run's limits.
    "python": ("shell", "python3 -c 'b = bytearray(8 << 20)\nfor i in range(0, len(b), 4096): b[i] = 1\nprint(len(b))'"),
    # What grows with the guest's own use: 200 MiB touched.
    "js-200": ("js", "let a = new Uint8Array(200 << 20); a.fill(1); a[12345]"),
}


def status(pid, key):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(key + ":"):
                return int(line.split()[1]) // 1024  # MiB
    return 0


def measure(label, n):
    backend, source = CASES[label]
    with tempfile.TemporaryDirectory() as d:
        args = [BIN, "--workspace", os.path.join(d, "ws.db"), "mcp",
                "--backends", backend, "--max-runs", str(max(n, 8))]
        if os.environ.get("HOST_MEMORY"):
            args += ["--host-memory", os.environ["HOST_MEMORY"]]
        p = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, text=True, bufsize=1)

        def send(msg):
            p.stdin.write(json.dumps(msg) + "\n")
            p.stdin.flush()

        def answers(ids):
            got = {}
            while len(got) < len(ids):
                m = json.loads(p.stdout.readline())
                if m.get("id") in ids:
                    got[m["id"]] = m
            return got

        send({"jsonrpc": "2.0", "id": 0, "method": "initialize",
              "params": {"protocolVersion": "2025-03-26", "capabilities": {},
                         "clientInfo": {"name": "bench", "version": "0"}}})
        answers({0})
        send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        call = lambda i: {"jsonrpc": "2.0", "id": i, "method": "tools/call",
                          "params": {"name": "exec", "arguments": {
                              "command": source, "backend": backend}}}
        send(call(1))
        warm = answers({1})[1]
        assert not warm["result"].get("isError"), warm
        after_warm = status(p.pid, "VmRSS")
        ids = set(range(2, 2 + n))
        for i in ids:
            send(call(i))
        done = answers(ids)
        errors = sum(1 for m in done.values() if m["result"].get("isError"))
        peak = status(p.pid, "VmHWM")
        p.stdin.close()
        p.wait()
        return after_warm, peak, errors


print("| case | execs at once | RSS after one warm exec (MiB) | peak RSS (MiB) | refused |")
print("|---|---:|---:|---:|---:|")
for label in os.environ.get("CASES", "js shell python js-200").split():
    for n in map(int, os.environ.get("COUNTS", "1 4 16").split()):
        warm, peak, errors = measure(label, n)
        print(f"| {label} | {n} | {warm} | {peak} | {errors} |", flush=True)
