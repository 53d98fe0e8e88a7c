"""Sorting with keys: multi-key, stable sorts, itemgetter/attrgetter, natural sort."""
import csv
import re
from operator import attrgetter, itemgetter

with open("data/employees.csv", newline="", encoding="utf-8") as f:
    rows = list(csv.DictReader(f))
print([r["name"] for r in sorted(rows, key=itemgetter("dept", "name"))])
print([(r["dept"], r["salary"]) for r in sorted(rows, key=lambda r: (r["dept"], -int(r["salary"])))][:5])
by_salary = sorted(rows, key=lambda r: int(r["salary"]))
stable = sorted(by_salary, key=itemgetter("dept"))
print([r["id"] for r in stable])
files = ["file10.txt", "file2.txt", "File1.txt", "file1.txt", "file20b.txt", "file3.txt"]
natural = lambda s: [int(t) if t.isdigit() else t.lower() for t in re.split(r"(\d+)", s)]  # noqa: E731
print(sorted(files), sorted(files, key=natural), sorted(files, key=str.casefold, reverse=True))


class Job:
    def __init__(self, name, prio, size):
        self.name, self.prio, self.size = name, prio, size


jobs = [Job("a", 2, 30), Job("b", 1, 10), Job("c", 2, 5), Job("d", 3, 10)]
print([j.name for j in sorted(jobs, key=attrgetter("prio", "size"))])
print([j.name for j in sorted(jobs, key=attrgetter("size"), reverse=True)])
print(sorted([3, 1, 2], reverse=True), sorted("bCaA"), sorted([(1, "b"), (1, "a"), (0, "z")]))
print(sorted({"b": 2, "a": 3, "c": 1}.items(), key=itemgetter(1)), min(rows, key=lambda r: r["start_date"])["name"])
data = [5, 3, 8, 1]
data.sort(key=lambda x: -x)
print(data, sorted([None, 2, 1], key=lambda x: (x is None, x or 0)))
