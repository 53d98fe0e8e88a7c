"""A deflated zip of a directory, extracted elsewhere; contents compared, archive deleted."""
import filecmp
import os
import zipfile

with zipfile.ZipFile("project.zip", "w", compression=zipfile.ZIP_DEFLATED, compresslevel=9) as z:
    for d, dirs, files in os.walk("project"):
        dirs.sort()
        for f in sorted(files):
            z.write(os.path.join(d, f))
with zipfile.ZipFile("project.zip") as z:
    names = z.namelist()
    print(len(names), names[:3])
    total = sum(i.file_size for i in z.infolist())
    print("uncompressed bytes:", total, "all deflated:", all(i.compress_type == zipfile.ZIP_DEFLATED for i in z.infolist()))
    z.extractall("extracted")
    print(z.getinfo("project/setup.cfg").file_size)
    try:
        z.getinfo("nope")
    except KeyError:
        print("KeyError for a missing member")
cmp = filecmp.dircmp("project", "extracted/project")
print("same:", sorted(cmp.common), cmp.diff_files, cmp.left_only, cmp.right_only)
with zipfile.ZipFile("project.zip", "a") as z:
    z.writestr("extra/notes.txt", "appended\n")
with zipfile.ZipFile("project.zip") as z:
    print(z.namelist()[-1], z.read("extra/notes.txt"))
os.remove("project.zip")
print(os.path.exists("project.zip"))
