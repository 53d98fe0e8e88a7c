"""gzip: compress text, write .gz files with a fixed mtime, read them back."""
import gzip
import os
import shutil

text = open("data/server.log", "rb").read()
packed = gzip.compress(text, mtime=0)
print(packed[:4].hex(), gzip.decompress(packed) == text, len(gzip.decompress(packed)))
with gzip.open("log.gz", "wt", encoding="utf-8") as f:
    f.write("line one\n")
    f.write("line two ✓\n")
with gzip.open("log.gz", "rt", encoding="utf-8") as f:
    print(f.readlines())
with open("data/words.txt", "rb") as src, gzip.open("words.txt.gz", "wb") as dst:
    shutil.copyfileobj(src, dst)
with gzip.open("words.txt.gz", "rb") as f:
    print(f.read() == open("data/words.txt", "rb").read())
with gzip.open("log.gz", "ab") as f:
    f.write(b"appended member\n")
with gzip.open("log.gz", "rb") as f:
    print(f.read().decode().splitlines())
try:
    gzip.decompress(b"not gzip data")
except gzip.BadGzipFile:
    print("BadGzipFile")
with gzip.open("log.gz", "rb") as f:
    f.seek(5)
    print(f.read(3))
for name in ("log.gz", "words.txt.gz"):
    os.remove(name)
print(sorted(f for f in os.listdir(".") if f.endswith(".gz")))
