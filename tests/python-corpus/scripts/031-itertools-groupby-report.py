"""itertools.groupby over sorted sales: per-day and per-week rollups."""
import csv
from datetime import date
from itertools import groupby
from operator import itemgetter

with open("data/sales.csv", newline="") as f:
    rows = [(date.fromisoformat(r["date"]), r["region"], int(r["units"])) for r in csv.DictReader(f)]

for day, group in groupby(rows, key=itemgetter(0)):
    g = list(group)
    print(day.isoformat(), len(g), sum(u for _, _, u in g))

week = lambda r: r[0].isocalendar()[1]  # noqa: E731
for wk, group in groupby(sorted(rows, key=week), key=week):
    regions = sorted({r for _, r, _ in group})
    print("week", wk, regions)

runs = [(k, len(list(g))) for k, g in groupby("aaabccddddde")]
print(runs)
print([k for k, _ in groupby(sorted("mississippi"))])
