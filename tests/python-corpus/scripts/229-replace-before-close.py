"""Atomic write where os.replace runs inside the `with` block, before the temp file is closed."""
import os
import tempfile


def atomic_write_text(path, text):
    directory = os.path.dirname(path) or "."
    with tempfile.NamedTemporaryFile("w", dir=directory, prefix="tmp-", delete=False) as tmp:
        tmp.write(text)
        tmp.flush()
        os.replace(tmp.name, path)


atomic_write_text("docs/notes_v1.txt", "replaced while open\n")
print(repr(open("docs/notes_v1.txt").read()))
print("stray temp files:", len([f for f in os.listdir("docs") if f.startswith("tmp-")]))
