"""File permission bits with chmod/stat, and shutil.which on PATH-less names."""
import os
import shutil
import stat

with open("script.sh", "w") as f:
    f.write("#!/bin/sh\necho hi\n")
os.chmod("script.sh", 0o755)
mode = os.stat("script.sh").st_mode
print(oct(stat.S_IMODE(mode)), stat.filemode(mode), os.access("script.sh", os.R_OK))
os.chmod("script.sh", 0o644)
print(oct(stat.S_IMODE(os.stat("script.sh").st_mode)))
os.chmod("script.sh", stat.S_IRUSR | stat.S_IWUSR)
print(oct(stat.S_IMODE(os.stat("script.sh").st_mode)), stat.filemode(os.stat("script.sh").st_mode))
shutil.copymode("data/sales.csv", "script.sh")
print(oct(stat.S_IMODE(os.stat("script.sh").st_mode)) == oct(stat.S_IMODE(os.stat("data/sales.csv").st_mode)))
print(stat.filemode(stat.S_IFDIR | 0o750), stat.filemode(stat.S_IFREG | 0o4755))
print(shutil.which("definitely-not-a-command-xyz"))
print(stat.S_ISDIR(os.stat("data").st_mode), stat.S_ISREG(os.lstat("data/users.json").st_mode))
