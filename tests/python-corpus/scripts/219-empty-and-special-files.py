"""Edge cases: empty files, empty dirs, dotfiles, a trailing-newline-free file, zero-length reads."""
import os
from pathlib import Path

Path("edge").mkdir()
Path("edge/empty.txt").touch()
Path("edge/.dotfile").write_text("hidden\n")
Path("edge/emptydir").mkdir()
print(os.path.getsize("edge/empty.txt"), repr(open("edge/empty.txt").read()), open("edge/empty.txt").readlines())
print(sorted(os.listdir("edge")), sorted(p.name for p in Path("edge").glob("*")), sorted(p.name for p in Path("edge").glob(".*")))
print(list(os.walk("edge/emptydir")))
with open("edge/empty.txt", "rb") as f:
    print(f.read(10), f.read(), f.tell())
Path("edge/nul.bin").write_bytes(b"\x00" * 5 + b"end")
print(Path("edge/nul.bin").read_bytes(), Path("edge/nul.bin").stat().st_size)
with open("edge/overwrite.txt", "w") as f:
    f.write("long content here\n")
with open("edge/overwrite.txt", "w") as f:
    f.write("short\n")
print(repr(open("edge/overwrite.txt").read()))
os.rmdir("edge/emptydir")
print(sorted(os.listdir("edge")))
