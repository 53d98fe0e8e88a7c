"""Symlinks: create, read, resolve, walk without following, dangling links, unlink."""
import os
from pathlib import Path

os.makedirs("links", exist_ok=True)
os.symlink("../data/sales.csv", "links/sales.csv")
os.symlink("../docs", "links/docs")
os.symlink("nowhere.txt", "links/dangling")
print(os.readlink("links/sales.csv"), os.path.islink("links/sales.csv"), os.path.isfile("links/sales.csv"))
print(os.path.islink("links/docs"), os.path.isdir("links/docs"), sorted(os.listdir("links/docs"))[:2])
print(os.path.exists("links/dangling"), os.path.lexists("links/dangling"))
print(open("links/sales.csv").readline().strip())
print(Path("links/docs/readme.md").resolve().relative_to(Path.cwd().resolve()).as_posix())
print(os.path.realpath("links/sales.csv") == os.path.realpath("data/sales.csv"))
print(sorted((e.name, e.is_symlink(), e.is_dir()) for e in os.scandir("links")))
print(sorted(d for d, _, _ in os.walk("links")), sorted(d for d, _, _ in os.walk("links", followlinks=True)))
print(os.lstat("links/sales.csv").st_size == len("../data/sales.csv"), os.stat("links/sales.csv").st_size)
os.unlink("links/dangling")
Path("links/alias").symlink_to("sales.csv")
print(Path("links/alias").read_text().count("\n"), Path("links/alias").readlink().as_posix())
print(sorted(os.listdir("links")))
