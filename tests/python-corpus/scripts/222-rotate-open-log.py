"""Log rotation while a handle is open: the reader and the writer keep working on the renamed file."""
import os

log = open("app.log", "a")
log.write("line 1\nline 2\n")
log.flush()
reader = open("app.log")
os.rename("app.log", "app.log.1")
print("reader after rename:", repr(reader.read()))
log.write("line 3 (after rotation)\n")
log.close()
reader.close()
with open("app.log", "a") as fresh:
    fresh.write("new log\n")
print(sorted(f for f in os.listdir(".") if f.startswith("app.log")))
print(repr(open("app.log.1").read()), repr(open("app.log").read()))
