"""Streams and environment: empty stdin, stderr writes, os.environ as the run sets it."""
import os
import sys

data = sys.stdin.read()
print("stdin:", repr(data), sys.stdin.isatty() is False)
try:
    input("prompt> ")
except EOFError:
    print("EOFError from input()")
print("to stderr", file=sys.stderr)
sys.stderr.write("more stderr\n")
print(sorted(k for k in os.environ if k in ("PATH", "LANG", "TZ", "PYTHONHASHSEED", "PYTHONDONTWRITEBYTECODE")))
print(os.environ.get("LANG"), os.environ["PYTHONHASHSEED"], os.getenv("NOT_SET_ANYWHERE", "default"))
os.environ["CORPUS_VAR"] = "set by script"
print(os.environ["CORPUS_VAR"], "CORPUS_VAR" in os.environ)
del os.environ["CORPUS_VAR"]
print("CORPUS_VAR" in os.environ, sys.dont_write_bytecode)
print(sys.stdout.encoding.lower().replace("-", ""), sys.getdefaultencoding(), sys.getfilesystemencoding())
sys.stdout.buffer.write("raw bytes ✓\n".encode())
sys.stdout.flush()
print("after buffer write")
