"""A fixed-width text table and a markdown table from CSV data, written to files."""
import csv

with open("data/employees.csv", newline="", encoding="utf-8") as f:
    rows = list(csv.DictReader(f))
cols = ["id", "name", "dept", "salary"]
widths = {c: max(len(c), *(len(r[c]) for r in rows)) for c in cols}
lines = [" | ".join(c.upper().ljust(widths[c]) for c in cols), "-+-".join("-" * widths[c] for c in cols)]
for r in sorted(rows, key=lambda r: (-int(r["salary"]), r["name"])):
    lines.append(" | ".join(r[c].rjust(widths[c]) if c in ("id", "salary") else r[c].ljust(widths[c]) for c in cols))
table = "\n".join(lines)
print(table)
md = ["| " + " | ".join(cols) + " |", "|" + "|".join("---:" if c in ("id", "salary") else "---" for c in cols) + "|"]
md += ["| " + " | ".join(r[c] for c in cols) + " |" for r in rows[:4]]
with open("employees.md", "w", encoding="utf-8") as f:
    f.write("\n".join(md) + "\n")
with open("employees.txt", "w", encoding="utf-8") as f:
    f.write(table + "\n")
print(open("employees.md", encoding="utf-8").read(), end="")
print(max(len(l) for l in lines), len(lines))
