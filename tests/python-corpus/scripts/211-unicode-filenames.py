"""File names with non-ASCII characters and spaces: create, list, glob, rename."""
import glob
import os
import unicodedata

names = ["café menu.txt", "naïve résumé.md", "日本語.txt", "emoji 🐍.txt", "plain.txt"]
os.makedirs("intl", exist_ok=True)
for n in names:
    with open(os.path.join("intl", n), "w", encoding="utf-8") as f:
        f.write(n.upper() + "\n")
listed = sorted(os.listdir("intl"))
print(listed)
print([len(n.encode("utf-8")) for n in listed])
print(sorted(glob.glob("intl/*.txt")))
print(open("intl/日本語.txt", encoding="utf-8").read().strip())
os.rename("intl/café menu.txt", "intl/cafe_menu.txt")
nfd = unicodedata.normalize("NFD", "ñandú.txt")
with open(os.path.join("intl", nfd), "w") as f:
    f.write("nfd\n")
print(sorted(os.listdir("intl")) == sorted(set(os.listdir("intl"))), nfd in os.listdir("intl"))
print(sorted(n.encode("utf-8").hex()[:8] for n in os.listdir("intl")))
