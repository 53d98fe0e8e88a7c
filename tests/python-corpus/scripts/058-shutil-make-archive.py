"""shutil.make_archive and unpack_archive round trip (archive kept out of the tree)."""
import os
import shutil
import tempfile
import zipfile

with tempfile.TemporaryDirectory() as tmp:
    base = os.path.join(tmp, "mypkg-src")
    archive = shutil.make_archive(base, "zip", root_dir=".", base_dir="mypkg")
    print(os.path.basename(archive), os.path.exists(archive))
    with zipfile.ZipFile(archive) as z:
        names = sorted(n for n in z.namelist() if "__pycache__" not in n)
        print(names)
        print(z.read("mypkg/data.txt").decode())
    tgz = shutil.make_archive(os.path.join(tmp, "notes"), "gztar", root_dir="notes")
    print(os.path.basename(tgz))
    shutil.unpack_archive(tgz, "unpacked-notes")
print(sorted(os.path.join(d, f)[len("unpacked-notes/"):] for d, _, fs in os.walk("unpacked-notes") for f in fs))
print(open("unpacked-notes/2024/01/standup.txt").read(), end="")
print(sorted(name for name, _ in shutil.get_archive_formats() if name in ("zip", "tar", "gztar")))
