"""Copies the standard library out of componentize-py's build sandbox.

componentize-py embeds only the modules imported while it pre-initializes
the component; the pure-Python tree it offers at `/python` exists only then.
The build script runs this module as a throwaway app whose pre-initialization
copies that tree into a `--python-path` directory (mounted writable at `/N`)
marked with `MARKER`, so that the host can serve it read-only at `/python`
to `python3.wasm` at run time.
"""

import os
import shutil
import sys

MARKER = ".stdlib-export-target"
SOURCE = "/python"


def _target():
    for entry in sys.path:
        if entry != SOURCE and os.path.isfile(os.path.join(entry, MARKER)):
            return entry
    raise RuntimeError(f"no sys.path entry holds {MARKER}: {sys.path}")


def _export(target):
    with open(os.path.join(target, MARKER)) as f:
        options = f.read().split()
    out = os.path.join(target, "lib")
    # Bytecode left by whoever built the wheel would not match our sources.
    shutil.copytree(SOURCE, out, ignore=shutil.ignore_patterns("__pycache__"))
    if "pyc" in options:
        import compileall
        import py_compile

        # Unchecked hashes: the run-time mount need not keep the sources'
        # mtimes, and the tree is never edited in place.
        ok = compileall.compile_dir(
            out,
            quiet=2,
            ddir=SOURCE,
            workers=1,
            invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH,
        )
        if not ok:
            raise RuntimeError("compileall failed")
    os.remove(os.path.join(target, MARKER))


_export(_target())

from wit_world import exports  # noqa: E402


class Run(exports.Run):
    def run(self) -> None:
        raise SystemExit("stdlib_export is a build step, not a program")


class WitWorld:
    def run(self, request):
        raise SystemExit("stdlib_export is a build step, not a program")
