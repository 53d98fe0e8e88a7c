"""Agent job: per-file line/word/char counts for all text files, like wc, written to a report."""
import os

rows = []
for dirpath, dirnames, filenames in os.walk("."):
    dirnames[:] = sorted(d for d in dirnames if not d.startswith((".", "__")))
    for name in sorted(filenames):
        if not name.endswith((".txt", ".md")):
            continue
        path = os.path.join(dirpath, name)[2:]
        data = open(path, "rb").read()
        text = data.decode("utf-8")
        rows.append((data.count(b"\n"), len(text.split()), len(data), path))
rows.sort(key=lambda r: r[3])
total = [sum(r[i] for r in rows) for i in range(3)]
lines = [f"{l:5} {w:5} {c:6} {p}" for l, w, c, p in rows] + [f"{total[0]:5} {total[1]:5} {total[2]:6} total"]
with open("wc.txt", "w") as f:
    f.write("\n".join(lines) + "\n")
print("\n".join(lines))
