"""Parse a server log with a verbose regex and named groups."""
import re
from collections import Counter

LINE = re.compile(r"""
    ^(?P<date>\d{4}-\d{2}-\d{2})\s(?P<time>[\d:]{8})\s+
    (?P<level>[A-Z]+)\s+\[(?P<component>\w+)\]\s
    (?P<message>.*)$
""", re.VERBOSE)
REQUEST = re.compile(r"(?P<method>GET|POST|PUT|DELETE) (?P<path>\S+) (?P<status>\d{3}) (?P<ms>\d+)ms")

levels = Counter()
statuses = Counter()
slowest = []
with open("data/server.log") as f:
    for line in f:
        m = LINE.match(line.rstrip("\n"))
        if not m:
            print("unparsed:", line.strip())
            continue
        levels[m["level"]] += 1
        r = REQUEST.search(m.group("message"))
        if r:
            statuses[r["status"]] += 1
            slowest.append((int(r["ms"]), r["method"], r["path"]))

print("levels:", sorted(levels.items()))
print("statuses:", sorted(statuses.items()))
for ms, method, path in sorted(slowest, reverse=True)[:3]:
    print(f"{ms:>5}ms {method} {path}")
m = LINE.match("2024-03-01 08:00:01 INFO  [web] hello")
print(m.groupdict())
print(m.span("level"), m.start("message"), m.end())
print(LINE.groupindex["component"], LINE.groups)
