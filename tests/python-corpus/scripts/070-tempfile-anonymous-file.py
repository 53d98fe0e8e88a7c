"""tempfile.TemporaryFile: an anonymous scratch file (unlinked while open)."""
import tempfile

with tempfile.TemporaryFile("w+b") as f:
    f.write(b"scratch data\n" * 3)
    f.seek(0)
    print(f.readline())
    print(len(f.read()))
with tempfile.TemporaryFile("w+", encoding="utf-8") as f:
    f.write("naïve\n")
    f.flush()
    f.seek(0)
    print(repr(f.read()))
print("done")
