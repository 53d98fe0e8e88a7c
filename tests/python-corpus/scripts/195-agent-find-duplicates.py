"""Agent job: find duplicate files by size then hash; report and hard-dedupe copies."""
import hashlib
import os
from collections import defaultdict

by_size = defaultdict(list)
for dirpath, dirnames, filenames in os.walk("."):
    dirnames[:] = sorted(d for d in dirnames if d != "__pycache__")
    for name in sorted(filenames):
        path = os.path.join(dirpath, name)[2:]
        by_size[os.path.getsize(path)].append(path)
groups = []
for size, paths in sorted(by_size.items()):
    if len(paths) < 2:
        continue
    by_hash = defaultdict(list)
    for p in paths:
        by_hash[hashlib.sha256(open(p, "rb").read()).hexdigest()].append(p)
    groups += [(size, sorted(ps)) for ps in by_hash.values() if len(ps) > 1]
for size, paths in groups:
    print(size, paths)
removed = 0
with open("duplicates.txt", "w") as f:
    for size, paths in groups:
        keep, *dupes = paths
        for d in dupes:
            os.remove(d)
            removed += 1
            f.write(f"{d} duplicate of {keep}\n")
print("removed", removed)
print(open("duplicates.txt").read(), end="")
