"""Agent job: scan the project for TODO/FIXME/XXX comments and write TODO.md."""
import os
import re

PATTERN = re.compile(r"#\s*(TODO|FIXME|XXX)(?:\(([^)]*)\))?:?\s*(.*)")
found = []
for dirpath, dirnames, filenames in os.walk("project"):
    dirnames.sort()
    for name in sorted(filenames):
        if not name.endswith(".py"):
            continue
        path = os.path.join(dirpath, name)
        with open(path, encoding="utf-8") as f:
            for lineno, line in enumerate(f, 1):
                m = PATTERN.search(line)
                if m:
                    found.append((m.group(1), path, lineno, m.group(2) or "", m.group(3).strip()))
by_kind = {}
for kind, path, lineno, tag, text in found:
    by_kind.setdefault(kind, []).append(f"- `{path}:{lineno}`{' [' + tag + ']' if tag else ''} {text}")
out = ["# TODO report", ""]
for kind in sorted(by_kind):
    out += [f"## {kind} ({len(by_kind[kind])})", ""] + by_kind[kind] + [""]
with open("TODO.md", "w") as f:
    f.write("\n".join(out))
print("\n".join(out))
print(f"{len(found)} items in {len({p for _, p, _, _, _ in found})} files")
