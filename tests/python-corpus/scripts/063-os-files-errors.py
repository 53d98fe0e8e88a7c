"""os-level file operations and the exceptions they raise (types, not messages)."""
import errno
import os

os.makedirs("work/a/b/c", exist_ok=True)
os.makedirs("work/a/b/c", exist_ok=True)
try:
    os.makedirs("work/a/b/c")
except FileExistsError as e:
    print("FileExistsError", e.errno == errno.EEXIST)
with open("work/a/b/c/file.txt", "w") as f:
    f.write("hello\n")
os.rename("work/a/b/c/file.txt", "work/a/file.txt")
os.replace("work/a/file.txt", "work/final.txt")
print(sorted(os.listdir("work")), sorted(os.listdir("work/a/b/c")))
for action in [lambda: os.remove("work/missing.txt"), lambda: open("work/missing.txt"),
               lambda: os.rmdir("work/a"), lambda: os.listdir("work/final.txt"),
               lambda: open("work", "w"), lambda: os.mkdir("work")]:
    try:
        action()
        print("no error")
    except OSError as e:
        print(type(e).__name__, errno.errorcode.get(e.errno, "?"), isinstance(e, OSError))
os.removedirs("work/a/b/c")
print(os.path.exists("work/a"), os.path.exists("work"), sorted(os.listdir("work")))
try:
    os.remove("work/missing.txt")
except FileNotFoundError as e:
    print(e.filename, e.errno == errno.ENOENT, e.strerror is not None)
