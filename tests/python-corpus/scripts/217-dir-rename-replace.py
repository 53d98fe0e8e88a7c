"""Directory renames: rename a tree, replace an empty dir, errors for non-empty targets."""
import os
import shutil

shutil.copytree("mypkg", "pkg_a")
os.rename("pkg_a", "pkg_b")
print(os.path.exists("pkg_a"), sorted(os.listdir("pkg_b")))
os.mkdir("empty_target")
os.replace("pkg_b/sub", "empty_target")
print(sorted(os.listdir("empty_target")), os.path.exists("pkg_b/sub"))
os.mkdir("full_target")
open("full_target/x", "w").close()
try:
    os.rename("empty_target", "full_target")
except OSError as e:
    print(type(e).__name__)
try:
    os.rename("pkg_b/util.py", "full_target")
except OSError as e:
    print(type(e).__name__)
os.rename("pkg_b/util.py", "full_target/util.py")
print(sorted(os.listdir("full_target")))
try:
    os.rename("missing_dir", "x")
except FileNotFoundError:
    print("FileNotFoundError")
os.makedirs("nest/a/b")
os.rename("nest/a", "nest/c")
print([d for d, _, _ in sorted(os.walk("nest"))])
