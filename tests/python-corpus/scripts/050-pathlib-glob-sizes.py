"""pathlib: glob by suffix, file sizes, totals per extension."""
from collections import defaultdict
from pathlib import Path

root = Path("project")
py = sorted(root.glob("src/*/*.py"))
for p in py:
    print(p.as_posix(), p.stat().st_size)
sizes = defaultdict(int)
counts = defaultdict(int)
for p in sorted(root.rglob("*")):
    if p.is_file():
        sizes[p.suffix or "(none)"] += p.stat().st_size
        counts[p.suffix or "(none)"] += 1
for ext in sorted(sizes):
    print(f"{ext:8} {counts[ext]:3} files {sizes[ext]:6} bytes")
print("top level:", sorted(p.name for p in Path(".").glob("*") if p.is_dir()))
print("csv:", sorted(p.name for p in Path("data").glob("*.csv")))
print("no match:", list(Path("data").glob("*.nothing")))
print("biggest:", max((p for p in Path("data").iterdir()), key=lambda p: p.stat().st_size).name)
