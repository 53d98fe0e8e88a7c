"""Reorganise a directory: move, rename into subfolders, rmtree, missing paths."""
import os
import shutil

shutil.copytree("notes", "inbox")
os.makedirs("inbox/sorted/text", exist_ok=True)
os.makedirs("inbox/sorted/markdown", exist_ok=True)
moved = []
for d, dirs, files in os.walk("inbox"):
    dirs[:] = sorted(x for x in dirs if x != "sorted")
    for f in sorted(files):
        src = os.path.join(d, f)
        kind = "markdown" if f.endswith(".md") else "text"
        dst = shutil.move(src, os.path.join("inbox/sorted", kind, f.replace(" ", "_")))
        moved.append(dst)
print("\n".join(moved))
for d in ["inbox/2024", "inbox/archive"]:
    shutil.rmtree(d)
print(sorted(os.listdir("inbox")), sorted(os.listdir("inbox/sorted/text")))
shutil.move("inbox/sorted/markdown", "inbox/md")
print(sorted(os.listdir("inbox")), os.listdir("inbox/md"))
try:
    shutil.rmtree("inbox/does-not-exist")
except FileNotFoundError as e:
    print("FileNotFoundError", os.path.basename(e.filename))
shutil.rmtree("inbox/does-not-exist", ignore_errors=True)
print("done")
