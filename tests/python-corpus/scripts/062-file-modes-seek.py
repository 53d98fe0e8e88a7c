"""Open modes: w, a, x, r+, rb, seek/tell, truncate, readline/readlines."""
import os

with open("modes.txt", "w") as f:
    print(f.write("alpha\nbeta\ngamma\n"), f.tell())
with open("modes.txt", "a") as f:
    f.write("delta\n")
try:
    open("modes.txt", "x")
except FileExistsError:
    print("FileExistsError for x")
with open("modes.txt", "r+") as f:
    print(repr(f.readline()), f.tell())
    f.seek(0, os.SEEK_END)
    end = f.tell()
    f.write("epsilon\n")
    f.seek(6)
    f.write("BETA")
    print("end was", end)
with open("modes.txt", "rb") as f:
    f.seek(-8, os.SEEK_END)
    print(f.read())
    f.seek(2)
    print(f.read(3), f.tell())
with open("modes.txt") as f:
    print(f.readlines())
with open("modes.txt", "r+") as f:
    f.truncate(11)
print(repr(open("modes.txt").read()))
with open("modes.txt", "ab") as f:
    f.write(b"\xff\xfe bytes\n")
print(open("modes.txt", "rb").read())
print(repr(open("modes.txt", errors="replace").read()))
with open("fresh.txt", "x") as f:
    f.write("new\n")
print(os.path.getsize("fresh.txt"), os.path.getsize("modes.txt"))
