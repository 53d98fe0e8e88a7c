"""glob: wildcards, character classes, recursive **, hidden files, escape."""
import glob
import os

print(sorted(glob.glob("data/*.csv")))
print(sorted(glob.glob("data/[eiu]*")))
print(sorted(glob.glob("data/?????.json")))
print(sorted(glob.glob("**/*.py", recursive=True)))
print(sorted(glob.glob("notes/**", recursive=True)))
print(sorted(glob.glob("notes/*")))
print(sorted(glob.glob("notes/.*")))
print(sorted(glob.glob("notes/photo 1.txt")), glob.escape("a[1]*?.txt"))
print(sorted(glob.glob("*.ini")), glob.glob("nothing*"))
print(sorted(glob.glob("*", root_dir="mypkg")))
print(sorted(os.path.basename(p) for p in glob.iglob("project/**/test_*.py", recursive=True)))
print(glob.has_magic("a*b"), glob.has_magic("plain"))
