"""Build inverted and nested indexes with defaultdict."""
import csv
import re
from collections import defaultdict

index = defaultdict(set)
with open("data/words.txt") as f:
    for lineno, line in enumerate(f, 1):
        for w in re.findall(r"[a-z]+", line.lower()):
            index[w].add(lineno)
for w in ["the", "is", "better", "fox", "missing"]:
    print(w, sorted(index.get(w, ())))

tree = lambda: defaultdict(tree)  # noqa: E731
sales = tree()
with open("data/sales.csv", newline="") as f:
    for r in csv.DictReader(f):
        node = sales[r["region"]][r["product"]]
        node["units"] = node.get("units", 0) + int(r["units"])


def plain(d):
    return {k: plain(v) if isinstance(v, dict) else v for k, v in sorted(d.items())}


print(plain(sales))
counts = defaultdict(int)
for ch in "mississippi":
    counts[ch] += 1
print(sorted(counts.items()))
groups = defaultdict(list)
for n in range(1, 16):
    groups["fizz" if n % 3 == 0 else "buzz" if n % 5 == 0 else "num"].append(n)
print(dict(sorted(groups.items())))
print(counts.default_factory is int, "z" in counts, counts["z"], "z" in counts)
