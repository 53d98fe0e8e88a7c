"""SystemExit variants caught in-process, then a real exit with a large code."""
import sys

for arg in [None, 0, 1, 2, 255, "text", [1, 2]]:
    try:
        sys.exit(arg)
    except SystemExit as e:
        print(repr(arg), "->", repr(e.code))
try:
    raise SystemExit(4)
except SystemExit as e:
    print("raise SystemExit:", e.code)
try:
    exit(5)
except SystemExit as e:
    print("builtin exit:", e.code)
print("exiting with 300")
sys.exit(300)
