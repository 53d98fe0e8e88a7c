"""tempfile: scratch files and directories whose names are never printed."""
import os
import tempfile

with tempfile.TemporaryDirectory(prefix="job-") as tmp:
    print("tmp exists:", os.path.isdir(tmp), "prefix ok:", os.path.basename(tmp).startswith("job-"))
    parts = []
    for i in range(3):
        path = os.path.join(tmp, f"part{i}.txt")
        with open(path, "w") as f:
            f.write(f"part {i}\n" * (i + 1))
        parts.append(path)
    merged = "".join(open(p).read() for p in parts)
    print(sorted(os.listdir(tmp)))
saved = tmp
print("removed after with:", not os.path.exists(saved))

with tempfile.NamedTemporaryFile("w+", suffix=".csv", delete=False) as f:
    f.write("a,b\n1,2\n")
    name = f.name
print(name.endswith(".csv"), os.path.getsize(name))
os.unlink(name)
print("unlinked:", not os.path.exists(name))

with tempfile.SpooledTemporaryFile(max_size=10, mode="w+") as f:
    f.write("small")
    f.seek(0)
    print(f.read())
fd, path = tempfile.mkstemp(dir=".", prefix="tmp-", text=True)
os.write(fd, b"x")
os.close(fd)
print("in cwd:", os.path.dirname(os.path.abspath(path)) == os.getcwd())
os.remove(path)
with open("merged.txt", "w") as f:
    f.write(merged)
print(open("merged.txt").read(), end="")
