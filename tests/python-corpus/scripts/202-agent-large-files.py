"""Agent job: list the largest files and per-directory totals, human-readable sizes."""
import os


def human(n):
    for unit in ("B", "KiB", "MiB"):
        if n < 1024:
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    return f"{n:.1f} GiB"


files = []
per_dir = {}
for dirpath, dirnames, filenames in os.walk("."):
    dirnames[:] = sorted(d for d in dirnames if d != "__pycache__")
    for name in filenames:
        if name.endswith(".py") and name[:3].isdigit():
            continue
        path = os.path.join(dirpath, name)[2:]
        size = os.path.getsize(path)
        files.append((size, path))
        top = path.split(os.sep)[0] if os.sep in path else "."
        per_dir[top] = per_dir.get(top, 0) + size
for size, path in sorted(files, key=lambda t: (-t[0], t[1]))[:8]:
    print(f"{human(size):>9}  {path}")
print("---")
for d, size in sorted(per_dir.items(), key=lambda kv: (-kv[1], kv[0])):
    print(f"{human(size):>9}  {d}/")
print("files:", len(files), "total:", human(sum(s for s, _ in files)))
