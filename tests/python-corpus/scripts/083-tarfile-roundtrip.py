"""tar.gz of the notes in /tmp, listed and extracted into the tree."""
import io
import os
import tarfile
import tempfile

tmp = tempfile.mkdtemp()
path = os.path.join(tmp, "notes.tar.gz")
with tarfile.open(path, "w:gz") as t:
    t.add("notes", arcname="notes", filter=lambda ti: None if ti.name.endswith("photo 1.txt") else ti)
    data = b"generated at build time\n"
    info = tarfile.TarInfo("notes/GENERATED")
    info.size = len(data)
    info.mtime = 0
    t.addfile(info, io.BytesIO(data))
with tarfile.open(path, "r:gz") as t:
    members = t.getmembers()
    for m in sorted(members, key=lambda m: m.name):
        print("d" if m.isdir() else "f", m.name, m.size if m.isfile() else "")
    t.extractall("restored")
    f = t.extractfile("notes/2024/01/meeting.txt")
    print(f.read().decode().splitlines()[0])
print(sorted(os.path.relpath(os.path.join(d, f), "restored") for d, _, fs in os.walk("restored") for f in fs))
print(open("restored/notes/GENERATED").read(), end="")
print(tarfile.is_tarfile(path), tarfile.is_tarfile("data/sales.csv"))
with tarfile.open(os.path.join(tmp, "plain.tar"), "w") as t:
    t.add("config.ini")
with tarfile.open(os.path.join(tmp, "plain.tar")) as t:
    print(t.getnames(), t.getmember("config.ini").size == os.path.getsize("config.ini"))
