"""Agent job: normalise file names in a directory (lower case, dashes, dated prefix)."""
import os
import re
import shutil

shutil.copytree("notes", "tidy")
plan = []
for dirpath, dirnames, filenames in os.walk("tidy"):
    dirnames.sort()
    for name in sorted(filenames):
        if name.startswith("."):
            continue
        stem, ext = os.path.splitext(name)
        new = re.sub(r"[^a-z0-9]+", "-", stem.lower()).strip("-") + ext.lower()
        parts = os.path.relpath(dirpath, "tidy").split(os.sep)
        if len(parts) >= 2 and parts[0].isdigit():
            new = f"{parts[0]}-{parts[1]}-{new}"
        if new != name:
            plan.append((os.path.join(dirpath, name), os.path.join(dirpath, new)))
for src, dst in plan:
    if os.path.exists(dst):
        print("skip, exists:", dst)
        continue
    os.rename(src, dst)
    print(f"{src} -> {os.path.basename(dst)}")
print(sorted(os.path.relpath(os.path.join(d, f), "tidy") for d, _, fs in os.walk("tidy") for f in fs))
