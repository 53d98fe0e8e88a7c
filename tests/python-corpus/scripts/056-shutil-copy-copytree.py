"""shutil.copy, copy2, copyfile and copytree with ignore patterns."""
import filecmp
import os
import shutil

os.makedirs("backup", exist_ok=True)
print(shutil.copy("data/sales.csv", "backup"))
print(shutil.copy2("data/users.json", "backup/users-copy.json"))
print(shutil.copyfile("config.ini", "backup/config.ini.bak"))
print(filecmp.cmp("data/sales.csv", "backup/sales.csv", shallow=False))
dest = shutil.copytree("project", "backup/project", ignore=shutil.ignore_patterns("*.png", "tests", "*.copy.*"))
print(dest)
for d, dirs, files in os.walk("backup/project"):
    dirs.sort()
    for f in sorted(files):
        print(os.path.join(d, f))
shutil.copytree("mypkg", "backup/project", dirs_exist_ok=True)
print(sorted(os.listdir("backup/project")))
try:
    shutil.copytree("mypkg", "backup/project")
except FileExistsError:
    print("FileExistsError")
cmp = filecmp.dircmp("mypkg", "backup/project")
print(sorted(cmp.common_files), sorted(cmp.right_only))
