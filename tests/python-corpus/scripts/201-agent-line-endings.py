"""Agent job: normalise line endings and trailing whitespace, add missing final newlines."""
import os

fixed = []
for dirpath, dirnames, filenames in os.walk("notes"):
    dirnames.sort()
    for name in sorted(filenames):
        path = os.path.join(dirpath, name)
        data = open(path, "rb").read()
        text = data.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
        text = b"\n".join(l.rstrip() for l in text.split(b"\n"))
        if text and not text.endswith(b"\n"):
            text += b"\n"
        if text != data:
            with open(path, "wb") as f:
                f.write(text)
            fixed.append((path, len(data), len(text)))
for p, a, b in fixed:
    print(f"fixed {p}: {a} -> {b} bytes")
print(open("notes/windows.txt", "rb").read(), open("notes/nonl.txt", "rb").read())
