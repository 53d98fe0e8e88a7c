"""Archives as an agent meets them: build zip and tar in /tmp, unpack into the tree, verify by hash."""
import hashlib
import os
import shutil
import tarfile
import tempfile
import zipfile


def digest_tree(root):
    h = {}
    for d, dirs, files in os.walk(root):
        dirs.sort()
        for f in sorted(files):
            p = os.path.join(d, f)
            h[os.path.relpath(p, root)] = hashlib.md5(open(p, "rb").read()).hexdigest()[:8]
    return h


tmp = tempfile.mkdtemp()
zpath = os.path.join(tmp, "pkg.zip")
with zipfile.ZipFile(zpath, "w") as z:
    for d, dirs, files in os.walk("mypkg"):
        for f in files:
            p = os.path.join(d, f)
            z.write(p, os.path.relpath(p, "mypkg"))
tpath = os.path.join(tmp, "pkg.tar")
with tarfile.open(tpath, "w") as t:
    t.add("mypkg", arcname=".")
shutil.unpack_archive(zpath, "from-zip")
shutil.unpack_archive(tpath, "from-tar", format="tar")
a, b, c = digest_tree("mypkg"), digest_tree("from-zip"), digest_tree("from-tar")
print(a == b, a == c)
for k, v in sorted(a.items()):
    print(k, v)
