"""In-memory files: StringIO, BytesIO, TextIOWrapper, redirect into a buffer."""
import contextlib
import csv
import io

buf = io.StringIO()
w = csv.writer(buf)
w.writerows([["a", 1], ["b, c", 2]])
print(repr(buf.getvalue()))
buf.seek(0)
print(list(csv.reader(buf)))
s = io.StringIO("line1\nline2\nline3\n")
print(s.readline(), s.read(3), s.tell(), s.readlines())
b = io.BytesIO()
b.write("héllo\n".encode())
b.write(b"\x00\x01")
print(b.getvalue(), b.tell(), len(b.getbuffer()))
b.seek(0)
text = io.TextIOWrapper(b, encoding="utf-8", errors="replace")
print(repr(text.readline()))
out = io.StringIO()
with contextlib.redirect_stdout(out):
    print("captured", 42)
    print("second line")
print("got:", out.getvalue().splitlines())
raw = io.BytesIO(b"name,qty\nbolt,3\nnut,4\n")
rows = list(csv.DictReader(io.TextIOWrapper(raw, encoding="ascii")))
print(rows)
print(io.StringIO("x").readable(), io.BytesIO(b"").seekable(), isinstance(io.StringIO(), io.TextIOBase))
