"""os.path: join, split, splitext, normpath, relpath, commonpath (no absolute paths printed)."""
import os.path as op

paths = ["data/sales.csv", "./notes/2024/01/meeting.txt", "project/src/app/../lib/helpers.py", "archive.tar.gz", ".bashrc", "dir/"]
for p in paths:
    print(f"{p!r:40} base={op.basename(p)!r} dir={op.dirname(p)!r} ext={op.splitext(p)} norm={op.normpath(p)!r}")
print(op.join("a", "b", "c.txt"), op.join("a", "/abs", "x"), op.join("a/", "b"), op.join("", "x"))
print(op.split("a/b/c"), op.split("c"), op.split("/"), op.splitext(".hidden"), op.splitext("a.b.c"))
print(op.relpath("project/src/app/main.py", "project/tests"), op.relpath("data", "data"))
print(op.commonpath(["project/src/app", "project/src/lib", "project/src"]), op.commonprefix(["interview", "internet", "interval"]))
print(op.isabs("/x"), op.isabs("x"), op.abspath("data") == op.join(op.abspath("."), "data"))
print(op.normpath("a/./b/../../c"), op.normpath("//a//b/"), op.normpath(""), op.normcase("AbC"))
print(op.expanduser("~/x").endswith("/x"), op.expandvars("$NOPE_VAR/x"), op.sep, op.extsep, op.curdir, op.pardir)
print(op.exists("data/sales.csv"), op.getsize("data/numbers.txt"), op.samefile("data/../data/sales.csv", "data/sales.csv"))
