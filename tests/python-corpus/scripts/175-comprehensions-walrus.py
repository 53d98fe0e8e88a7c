"""Comprehensions (list/dict/set/nested), walrus, conditional expressions, unpacking."""
import csv

with open("data/sales.csv", newline="") as f:
    rows = list(csv.DictReader(f))
print([r["product"] for r in rows if int(r["units"]) > 10])
print({r["region"]: r["date"] for r in rows})
print(sorted({r["product"] for r in rows}))
matrix = [[i * j for j in range(1, 4)] for i in range(1, 4)]
print(matrix, [x for row in matrix for x in row if x % 2], list(map(list, zip(*matrix))))
print([y for r in rows if (y := int(r["units"]) * 2) > 25])
data = [1, 5, 3, 8]
if (n := len(data)) > 3:
    print(f"long list ({n})")
first, *middle, last = [1, 2, 3, 4, 5]
print(first, middle, last)
(a, b), c = (1, 2), 3
print(a, b, c, [*"ab", *range(2)], {**{"x": 1}, "y": 2, **{"x": 3}})
print(["even" if x % 2 == 0 else "odd" for x in range(4)])
totals = {}
for r in rows:
    totals[r["region"]] = totals.get(r["region"], 0) + int(r["units"])
print(dict(sorted(totals.items(), key=lambda kv: kv[1], reverse=True)))
print({k: v for k, v in totals.items() if v > 40}, sum(v for v in totals.values()))
gen = (x * x for x in range(5))
print(type(gen).__name__, list(gen), list(gen))
