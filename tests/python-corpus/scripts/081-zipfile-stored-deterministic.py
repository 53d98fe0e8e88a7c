"""A deterministic zip (stored, fixed timestamps) kept in the tree, then read back."""
import hashlib
import zipfile

files = ["data/sales.csv", "docs/readme.md", "mypkg/util.py"]
with zipfile.ZipFile("bundle.zip", "w", compression=zipfile.ZIP_STORED) as z:
    for name in files:
        info = zipfile.ZipInfo(name, date_time=(2024, 1, 1, 0, 0, 0))
        info.external_attr = 0o644 << 16
        z.writestr(info, open(name, "rb").read())
    z.writestr(zipfile.ZipInfo("empty/", date_time=(2024, 1, 1, 0, 0, 0)), b"")
    z.comment = b"corpus bundle"

with zipfile.ZipFile("bundle.zip") as z:
    print(z.comment, z.testzip())
    for info in z.infolist():
        print(info.filename, info.file_size, info.compress_size, hex(info.CRC), info.date_time, info.is_dir())
    print(z.read("mypkg/util.py") == open("mypkg/util.py", "rb").read())
    with z.open("data/sales.csv") as f:
        print(f.readline().decode().strip())
print(zipfile.is_zipfile("bundle.zip"), zipfile.is_zipfile("data/sales.csv"))
print(hashlib.sha256(open("bundle.zip", "rb").read()).hexdigest()[:16])
