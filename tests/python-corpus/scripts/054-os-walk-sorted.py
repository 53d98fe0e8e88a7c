"""os.walk with sorted directories and files, pruning, and a tree printout."""
import os

for dirpath, dirnames, filenames in os.walk("project"):
    dirnames.sort()
    depth = dirpath.count(os.sep)
    print("  " * depth + os.path.basename(dirpath) + "/")
    for f in sorted(filenames):
        print("  " * (depth + 1) + f)

total = 0
for dirpath, dirnames, filenames in os.walk("."):
    dirnames[:] = sorted(d for d in dirnames if d not in ("project", "__pycache__") and not d.startswith("."))
    total += len(filenames)
print("files outside project:", total)

bottom_up = [d for d, _, _ in os.walk("notes", topdown=False)]
print(sorted(bottom_up, key=lambda d: (-d.count("/"), d)))
print(sorted(os.path.join(d, f) for d, _, fs in os.walk("mypkg") for f in fs if f.endswith(".py")))
