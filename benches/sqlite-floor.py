#!/usr/bin/env python3
"""The floor under one store call: what SQLite itself takes for a write
transaction that changes 0, 1 or 5 pages (WAL, synchronous=NORMAL, on
/dev/shm, as the store's workspace is configured), next to a native create
and unlink of a 100-byte file on the same tmpfs. Python adds about 0.5 µs a
statement, so the SQLite rows are upper bounds. Usage: benches/sqlite-floor.py"""
import os
import sqlite3
import statistics
import tempfile
import time

BASE = "/dev/shm" if os.access("/dev/shm", os.W_OK) else tempfile.gettempdir()
N = 2000

with tempfile.TemporaryDirectory(dir=BASE) as scratch:
    c = sqlite3.connect(os.path.join(scratch, "floor.db"), isolation_level=None)
    c.execute("PRAGMA journal_mode=WAL")
    c.execute("PRAGMA synchronous=NORMAL")
    for t in range(5):
        c.execute(f"CREATE TABLE t{t}(id INTEGER PRIMARY KEY, v INTEGER)")
        c.executemany(f"INSERT INTO t{t} VALUES (?, 0)", [(i,) for i in range(5000)])

    def transactions(pages):
        start = time.perf_counter()
        for i in range(N):
            c.execute("BEGIN IMMEDIATE")
            for p in range(pages):
                # Rows far apart, so each table's change is its own page.
                c.execute(f"UPDATE t{p} SET v = v + 1 WHERE id = ?", ((i * 37 * (p + 1)) % 5000,))
            c.execute("COMMIT")
        return (time.perf_counter() - start) / N * 1e6

    def native():
        d = os.path.join(scratch, "native")
        os.mkdir(d)
        start = time.perf_counter()
        for i in range(N):
            with open(os.path.join(d, f"f{i}"), "wb") as f:
                f.write(b"x" * 100)
        create = (time.perf_counter() - start) / N * 1e6
        start = time.perf_counter()
        for i in range(N):
            os.unlink(os.path.join(d, f"f{i}"))
        return create, (time.perf_counter() - start) / N * 1e6

    print(f"on {BASE}, medians of 5, {N} each")
    print("| work | µs |")
    print("|---|---:|")
    for pages in (0, 1, 5):
        us = statistics.median(transactions(pages) for _ in range(5))
        print(f"| SQLite write transaction changing {pages} pages | {us:.1f} |")
    create, unlink = native()
    print(f"| native create of a 100-byte file (Python) | {create:.1f} |")
    print(f"| native unlink (Python) | {unlink:.1f} |")
