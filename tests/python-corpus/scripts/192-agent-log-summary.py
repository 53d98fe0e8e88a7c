"""Agent job: summarise server.log into summary.json (levels, errors, slow requests, per-IP)."""
import json
import re
from collections import Counter, defaultdict

summary = {"levels": Counter(), "errors": [], "slow": [], "by_ip": defaultdict(int), "components": Counter()}
for line in open("data/server.log"):
    m = re.match(r"(\S+) (\S+) (\w+)\s+\[(\w+)\] (.*)", line)
    date, time, level, comp, msg = m.groups()
    summary["levels"][level] += 1
    summary["components"][comp] += 1
    if level == "ERROR":
        summary["errors"].append({"time": time, "component": comp, "message": msg})
    if ms := re.search(r" (\d+)ms", msg):
        if int(ms.group(1)) >= 500:
            summary["slow"].append({"time": time, "ms": int(ms.group(1))})
    if ip := re.search(r"ip=(\S+)", msg):
        summary["by_ip"][ip.group(1)] += 1
summary["top_ip"] = max(summary["by_ip"].items(), key=lambda kv: (kv[1], kv[0]))[0]
with open("summary.json", "w") as f:
    json.dump(summary, f, indent=2, sort_keys=True)
    f.write("\n")
print(open("summary.json").read(), end="")
