"""sys.flags as the environment sets them (PYTHONDONTWRITEBYTECODE=1, PYTHONHASHSEED=0, LANG=C.UTF-8)."""
import os
import sys

print("env:", os.environ.get("PYTHONDONTWRITEBYTECODE"), os.environ.get("PYTHONHASHSEED"))
print("dont_write_bytecode flag:", sys.flags.dont_write_bytecode, "attribute:", sys.dont_write_bytecode)
print("hash_randomization:", sys.flags.hash_randomization)
print("optimize:", sys.flags.optimize, "ignore_environment:", sys.flags.ignore_environment, "safe_path:", sys.flags.safe_path)
writes_pyc = not sys.dont_write_bytecode
print("a tool deciding whether to clean __pycache__ would", "clean" if writes_pyc or not sys.flags.dont_write_bytecode else "skip")
