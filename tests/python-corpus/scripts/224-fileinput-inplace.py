"""fileinput with inplace=True: a sed-like edit of several files, with backups."""
import fileinput
import os

files = ["project/src/app/main.py", "project/src/app/utils.py"]
with fileinput.input(files=files, inplace=True, backup=".bak") as f:
    for line in f:
        if "TODO" in line:
            line = line.replace("TODO", "DONE")
        print(line, end="")
for path in files:
    print(path, sum("DONE" in l for l in open(path)), os.path.exists(path + ".bak"))
print(open("project/src/app/main.py").read().splitlines()[2])
with fileinput.input(files=["data/numbers.txt", "notes/nonl.txt"]) as f:
    for line in f:
        if f.isfirstline():
            print("start", f.filename(), f.lineno(), f.filelineno())
print("done")
