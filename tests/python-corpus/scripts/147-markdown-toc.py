"""Generate a table of contents for a markdown file and write it back with the TOC inserted."""
import re

lines = open("docs/readme.md").read().splitlines()
toc = []
seen = {}
for line in lines:
    m = re.match(r"^(#{2,6})\s+(.*)", line)
    if not m:
        continue
    level = len(m.group(1)) - 2
    title = m.group(2).strip()
    anchor = re.sub(r"[^\w\- ]", "", title.lower()).replace(" ", "-")
    n = seen.get(anchor, 0)
    seen[anchor] = n + 1
    if n:
        anchor = f"{anchor}-{n}"
    toc.append(f"{'  ' * level}- [{title}](#{anchor})")
print("\n".join(toc))
out = []
inserted = False
for line in lines:
    out.append(line)
    if line.startswith("# ") and not inserted:
        out += ["", "## Contents", ""] + toc
        inserted = True
with open("docs/readme.md", "w") as f:
    f.write("\n".join(out) + "\n")
print(len(lines), "->", len(out), "lines")
words = re.findall(r"\b\w+\b", open("docs/readme.md").read())
print("words:", len(words))
