"""Stream a JSON Lines file: per-user stats and slow actions."""
import json
from collections import Counter, defaultdict

stats = defaultdict(lambda: {"n": 0, "ms": 0})
actions = Counter()
slow = []
with open("data/events.jsonl") as f:
    for lineno, line in enumerate(f, 1):
        ev = json.loads(line)
        stats[ev["user"]]["n"] += 1
        stats[ev["user"]]["ms"] += ev["ms"]
        actions[ev["action"]] += 1
        if ev["ms"] > 1000:
            slow.append((lineno, ev["user"], ev["action"], ev["ms"]))

for user in sorted(stats):
    s = stats[user]
    print(f"{user:8} events={s['n']} total={s['ms']}ms avg={s['ms'] / s['n']:.1f}ms")
print("actions:", actions.most_common())
print("slow:", slow)
queries = []
with open("data/events.jsonl") as f:
    queries = [json.loads(l).get("query") for l in f]
print("queries:", [q for q in queries if q])
with open("slow.jsonl", "w") as out:
    for lineno, user, action, ms in slow:
        out.write(json.dumps({"line": lineno, "user": user, "action": action, "ms": ms}) + "\n")
print(open("slow.jsonl").read(), end="")
