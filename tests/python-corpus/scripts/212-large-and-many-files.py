"""Writing a 2 MB file in chunks, many small files, and reading them back."""
import hashlib
import os

os.makedirs("bulk", exist_ok=True)
h = hashlib.sha256()
with open("bulk/big.dat", "wb") as f:
    for i in range(2048):
        chunk = (f"{i:08d}" * 128).encode()
        f.write(chunk)
        h.update(chunk)
print(os.path.getsize("bulk/big.dat"), h.hexdigest()[:16])
with open("bulk/big.dat", "rb") as f:
    f.seek(1024 * 1000)
    print(f.read(16))
    print(hashlib.sha256(open("bulk/big.dat", "rb").read()).hexdigest()[:16])
for i in range(200):
    with open(f"bulk/f{i:03d}.txt", "w") as f:
        f.write(str(i) * (i % 7))
print(len(os.listdir("bulk")), sum(os.path.getsize(f"bulk/f{i:03d}.txt") for i in range(200)))
print(sorted(os.listdir("bulk"))[:3], sorted(os.listdir("bulk"))[-2:])
for i in range(0, 200, 2):
    os.remove(f"bulk/f{i:03d}.txt")
os.truncate("bulk/big.dat", 100)
print(len(os.listdir("bulk")), os.path.getsize("bulk/big.dat"), open("bulk/big.dat", "rb").read()[-8:])
