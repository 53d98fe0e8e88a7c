"""os.getcwd/chdir and relative paths after changing directory (no absolute paths printed)."""
import os

start = os.getcwd()
print(os.path.basename(start))
os.chdir("project/src")
print(os.path.basename(os.getcwd()), sorted(os.listdir(".")), os.path.exists("../README.md"))
with open("../NOTE.txt", "w") as f:
    f.write("written from src\n")
os.chdir("..")
print(os.path.basename(os.getcwd()), open("NOTE.txt").read().strip())
os.chdir(start)
print(os.path.relpath("project/NOTE.txt"), os.path.isfile("project/NOTE.txt"))
try:
    os.chdir("no/such/dir")
except FileNotFoundError:
    print("FileNotFoundError")
try:
    os.chdir("config.ini")
except NotADirectoryError:
    print("NotADirectoryError")
print(os.path.basename(os.getcwd()) == os.path.basename(start))
