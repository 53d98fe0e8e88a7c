"""write_text / read_text / write_bytes and line-oriented edits with pathlib."""
from pathlib import Path

out = Path("generated")
out.mkdir(exist_ok=True)
src = Path("docs/notes_v1.txt").read_text()
lines = src.splitlines()
numbered = "\n".join(f"{i:02d}: {l}" for i, l in enumerate(lines, 1)) + "\n"
n = (out / "numbered.txt").write_text(numbered)
print("wrote", n, "chars")
upper = Path("docs/notes_v2.txt").read_text().upper()
(out / "upper.txt").write_text(upper, encoding="utf-8")
print((out / "upper.txt").read_text().splitlines()[3])
data = bytes(range(0, 256, 17))
(out / "blob.bin").write_bytes(data)
print((out / "blob.bin").read_bytes().hex(), (out / "blob.bin").stat().st_size)
(out / "unicode.txt").write_text("ligne: été 🌞\n", encoding="utf-8")
print(len((out / "unicode.txt").read_bytes()), (out / "unicode.txt").read_text(encoding="utf-8").strip())
with (out / "log.txt").open("a") as f:
    for i in range(3):
        f.write(f"entry {i}\n")
with (out / "log.txt").open("a") as f:
    f.write("entry 3\n")
print((out / "log.txt").read_text().count("entry"))
print(sorted(p.name for p in out.iterdir()))
