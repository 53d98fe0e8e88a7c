"""sys.exit with a string: message on stderr, status 1."""
import os
import sys

required = ["data/sales.csv", "data/missing.csv", "docs/readme.md"]
missing = [p for p in required if not os.path.exists(p)]
for p in required:
    print(("ok      " if p not in missing else "MISSING ") + p)
if missing:
    sys.exit(f"error: {len(missing)} required file(s) missing")
print("all present")
