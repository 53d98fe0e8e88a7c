"""Digests of fixture files (sha256, md5, sha1, blake2b, sha3), streaming and file_digest."""
import hashlib
import os

paths = sorted(os.path.join("data", f) for f in os.listdir("data"))
for p in paths:
    data = open(p, "rb").read()
    print(f"{hashlib.sha256(data).hexdigest()}  {p}")
print(hashlib.md5(open("config.ini", "rb").read()).hexdigest(), hashlib.sha1(b"").hexdigest())
h = hashlib.sha256()
with open("data/server.log", "rb") as f:
    for chunk in iter(lambda: f.read(64), b""):
        h.update(chunk)
print(h.hexdigest() == hashlib.sha256(open("data/server.log", "rb").read()).hexdigest(), h.digest_size, h.block_size, h.name)
with open("data/words.txt", "rb") as f:
    print(hashlib.file_digest(f, "sha256").hexdigest()[:16])
print(hashlib.blake2b(b"corpus", digest_size=16).hexdigest(), hashlib.blake2s(b"corpus", key=b"k").hexdigest()[:16])
print(hashlib.sha3_256(b"corpus").hexdigest()[:16], hashlib.sha512(b"corpus").hexdigest()[:16], hashlib.new("sha224", b"x").hexdigest()[:16])
print(sorted(a for a in hashlib.algorithms_guaranteed if a.startswith(("sha2", "md5", "blake"))))
with open("checksums.sha256", "w") as f:
    for p in paths:
        f.write(f"{hashlib.sha256(open(p, 'rb').read()).hexdigest()}  {p}\n")
ok = all(hashlib.sha256(open(p, "rb").read()).hexdigest() == d for d, p in (l.split("  ") for l in open("checksums.sha256").read().splitlines()))
print("verified:", ok)
