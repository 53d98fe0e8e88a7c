"""Agent job: rewrite absolute `app.` imports inside project/src/app to relative ones."""
import difflib
import re
from pathlib import Path

pkg = Path("project/src/app")
pattern = re.compile(r"^from app\.(\w+) import (.+)$", re.M)
for path in sorted(pkg.glob("*.py")):
    old = path.read_text()
    new = pattern.sub(r"from .\1 import \2", old)
    if new != old:
        path.write_text(new)
        diff = difflib.unified_diff(old.splitlines(), new.splitlines(), f"a/{path.as_posix()}", f"b/{path.as_posix()}", lineterm="", n=0)
        print("\n".join(diff))
remaining = [p.as_posix() for p in sorted(Path("project").rglob("*.py")) if re.search(r"^from app\.", p.read_text(), re.M)]
print("still absolute:", remaining)
