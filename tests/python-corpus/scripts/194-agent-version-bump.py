"""Agent job: bump the minor version everywhere it appears in the project."""
import re
from pathlib import Path

root = Path("project")
current = re.search(r'^version = "([^"]+)"', (root / "pyproject.toml").read_text(), re.M).group(1)
major, minor, patch = map(int, current.split("."))
new = f"{major}.{minor + 1}.0"
print("bump", current, "->", new)
changed = []
for path in sorted(root.rglob("*")):
    if not path.is_file() or path.suffix not in (".toml", ".cfg", ".py"):
        continue
    text = path.read_text()
    updated, n = re.subn(rf"(?<![\d.]){re.escape(current)}(?![\d.])", new, text)
    if n:
        path.write_text(updated)
        changed.append((path.as_posix(), n))
for p, n in changed:
    print(f"  {p}: {n} replacement(s)")
print((root / "setup.cfg").read_text().splitlines()[2], (root / "src/app/__init__.py").read_text().strip())
