"""os.listdir / os.scandir / os.stat: kinds and sizes, sorted."""
import os
import stat

for name in sorted(os.listdir("data")):
    st = os.stat(os.path.join("data", name))
    print(f"{name:16} {st.st_size:6} reg={stat.S_ISREG(st.st_mode)}")
with os.scandir(".") as it:
    entries = sorted(it, key=lambda e: e.name)
for e in entries:
    if e.name.endswith(".py") and e.name[0].isdigit():
        continue
    kind = "dir" if e.is_dir() else "file"
    print(kind, e.name, e.stat().st_size if e.is_file() else "-")
print(os.path.getsize("data/sales.csv"), os.path.exists("nope"), os.path.isdir("notes"), os.path.isfile("notes"))
print(sorted(n for n in os.listdir("notes") if n.startswith(".")))
print(stat.S_ISDIR(os.stat("notes").st_mode), os.stat("docs/readme.md").st_size == len(open("docs/readme.md", "rb").read()))
