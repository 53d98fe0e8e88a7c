"""What both faces of the component (the `python3` command and the `python`
backend) do to a pre-initialized interpreter before and after the program:
fresh standard streams, `sys.path`, a reseeded `random`, and the part of
interpreter shutdown the dropped instance would never do.

The interpreter is a Wizer snapshot taken at build time: everything set up
then (streams, the seed of `random`, `sys.path`) belongs to the build
sandbox and must be redone at every start.
"""

import builtins
import gc
import io
import os
import random
import sys
import types

# Where componentize-py's sandbox had the standard library while the snapshot
# was taken: the `__file__` of every pre-imported module, and so where
# linecache and inspect look for their sources at run time.
STDLIB = "/python"

# The source files of this app: their frames are left out of tracebacks, as
# CPython's own start-up code has no frames there.
APP_FILES = {__file__}


def own_file(path):
    APP_FILES.add(path)


def _text_stream(fd, mode, name, like, unbuffered, line_buffering, errors):
    raw = io.FileIO(fd, mode, closefd=False)
    raw.name = name
    if unbuffered:
        buffer = raw
    elif "r" in mode:
        buffer = io.BufferedReader(raw)
    else:
        buffer = io.BufferedWriter(raw)
    return io.TextIOWrapper(
        buffer,
        encoding=like.encoding if like is not None else "utf-8",
        errors=errors or (like.errors if like is not None else "strict"),
        line_buffering=line_buffering,
        write_through=unbuffered,
    )


def setup_stdio(unbuffered, ioencoding):
    """Fresh standard streams, buffered as CPython buffers them for pipes.

    The snapshot's were made for the build sandbox, where PYTHONUNBUFFERED
    was set: a write to the host for every print.
    """
    encoding, _, errors = (ioencoding or "").partition(":")
    old = (sys.__stdin__, sys.__stdout__, sys.__stderr__)
    stdin = _text_stream(0, "rb", "<stdin>", old[0], False, False, errors)
    stdout = _text_stream(1, "wb", "<stdout>", old[1], unbuffered, False, errors)
    stderr = _text_stream(2, "wb", "<stderr>", old[2], unbuffered, True, "backslashreplace")
    if encoding:
        for stream in (stdin, stdout, stderr):
            stream.reconfigure(encoding=encoding)
    sys.stdin = sys.__stdin__ = stdin
    sys.stdout = sys.__stdout__ = stdout
    sys.stderr = sys.__stderr__ = stderr


def reseed():
    """`random`'s module-level generator was seeded when the snapshot was
    taken, so every run would draw the same numbers: seed it again from
    `wasi:random`, which the host journals (a replayed run draws the same)."""
    random.seed()


def fresh_main():
    main = types.ModuleType("__main__")
    main.__builtins__ = builtins
    sys.modules["__main__"] = main
    return main


def _site_packages(venv):
    """`VENV/lib/pythonX.Y/site-packages` for any X.Y: a `.venv` made by the
    container backend's CPython (3.11) holds pure-Python packages that import
    here as well."""
    lib = os.path.join(venv, "lib")
    try:
        names = sorted(os.listdir(lib))
    except OSError:
        return []
    found = []
    for name in names:
        candidate = os.path.join(lib, name, "site-packages")
        if name.startswith("python3") and os.path.isdir(candidate):
            found.append(candidate)
    return found


def site_dirs(env, start):
    """The workspace's package directories, nearest first: `$VIRTUAL_ENV`,
    then from `start` up to `/`, each directory's `.venv` site-packages and
    its `site-packages` (what `pip install --target site-packages` makes)."""
    dirs = []
    venv = env.get("VIRTUAL_ENV")
    if venv:
        dirs.extend(_site_packages(venv))
    d = start
    while True:
        dirs.extend(_site_packages(os.path.join(d, ".venv")))
        plain = os.path.join(d, "site-packages")
        if os.path.isdir(plain):
            dirs.append(plain)
        parent = os.path.dirname(d)
        if parent == d:
            break
        d = parent
    seen = set()
    return [d for d in dirs if not (d in seen or seen.add(d))]


def set_path(pythonpath, sites):
    """`sys.path` for a run: PYTHONPATH, the standard library, then the
    workspace's site directories with their `.pth` files, as `site` would
    order them. The build sandbox's entries (/0, /world, /bundled ...) would
    be workspace paths now."""
    path = []
    if pythonpath:
        path.extend(os.path.abspath(p) for p in pythonpath.split(os.pathsep) if p)
    path.append(STDLIB)
    sys.path[:] = path
    # Not importlib.invalidate_caches(): it imports importlib.metadata, which
    # is not in the snapshot (nor anywhere, without the stdlib mount).
    sys.path_importer_cache.clear()
    if sites:
        import site

        for d in sites:
            site.addsitedir(d)


def strip_own_frames(tb):
    while tb is not None and tb.tb_frame.f_code.co_filename in APP_FILES:
        tb = tb.tb_next
    return tb


def exit_code_of(exc):
    """CPython's handling of an uncaught SystemExit: the status, printing a
    non-integer code to stderr."""
    code = exc.code
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    try:
        stderr = sys.stderr
        if stderr is None:
            raise AttributeError
        stderr.write(str(code) + "\n")
    except BaseException:
        sys.__stderr__.write(repr(code) + "\n")
    return 1


def report(exc):
    """Print an uncaught exception as CPython does: through sys.excepthook,
    with this app's frames left out."""
    tb = strip_own_frames(exc.__traceback__)
    exc.__traceback__ = tb
    sys.last_exc = exc
    sys.last_type, sys.last_value, sys.last_traceback = type(exc), exc, tb
    try:
        sys.excepthook(type(exc), exc, tb)
    except BaseException as hook_error:
        # As CPython's PyErr_Display does when the hook fails.
        sys.stderr.write("Error in sys.excepthook:\n")
        sys.__excepthook__(type(hook_error), hook_error, strip_own_frames(hook_error.__traceback__))
        sys.stderr.write("\nOriginal exception was:\n")
        sys.__excepthook__(type(exc), exc, tb)


def run_atexit():
    """`atexit` handlers, as interpreter shutdown runs them; the status a
    `SystemExit` raised there gives, or None."""
    status = None
    try:
        import atexit

        atexit._run_exitfuncs()
    except SystemExit as e:
        status = exit_code_of(e)
    except BaseException as e:
        report(e)
    return status


def finalize(snapshot_modules):
    """What interpreter shutdown would do for the program's objects.

    The instance is dropped without `Py_FinalizeEx`, so files the program
    left open would never flush (nor a ZipFile write its directory). Drop
    `__main__` and the modules the program brought in from the workspace, as
    CPython's finalization does first, and let their objects' `__del__` run.
    """
    try:
        main = sys.modules.get("__main__")
        if main is not None:
            main.__dict__.clear()
        gc.collect()
        for name in reversed(list(sys.modules)):
            module = sys.modules.get(name)
            if name in snapshot_modules or module is None:
                continue
            origin = getattr(module, "__file__", None)
            if not isinstance(origin, str) or origin.startswith(STDLIB + "/"):
                continue
            try:
                module.__dict__.clear()
            except BaseException:
                pass
        gc.collect()
    except BaseException as e:
        report(e)


def flush_std_files():
    """Flush stdout and stderr as CPython does at exit: a failing stdout turns
    the status into 120."""
    status = None
    for stream in (sys.stdout, sys.stderr):
        if stream is None or getattr(stream, "closed", True):
            continue
        try:
            stream.flush()
        except BaseException as e:
            if stream is sys.stdout:
                try:
                    sys.stderr.write("Exception ignored on flushing sys.stdout:\n")
                    sys.__excepthook__(type(e), e, None)
                except BaseException:
                    pass
                status = 120
    return status


def shut_down(status, snapshot_modules):
    """atexit, finalization and the final flush; the exit status."""
    at_exit = run_atexit()
    if at_exit is not None:
        status = at_exit
    finalize(snapshot_modules)
    flushed = flush_std_files()
    if flushed is not None and status == 0:
        status = flushed
    return status


# wasi-libc keeps the cwd as the string it was given, so `chdir("..")` would
# leave `getcwd()` at `/work/d/..`: hand it the normalized absolute path.
_wasi_chdir = os.chdir


def _chdir(path):
    if isinstance(path, int):
        return _wasi_chdir(path)
    target = os.fsdecode(os.fspath(path))
    if not os.path.isabs(target):
        target = os.path.join(os.getcwd(), target)
    return _wasi_chdir(os.path.normpath(target))


_chdir.__doc__ = os.chdir.__doc__
os.chdir = _chdir


def _pbkdf2_hmac(hash_name, password, salt, iterations, dklen=None):
    """PBKDF2 (RFC 8018) over `hmac`: this build has no OpenSSL `_hashlib`,
    and CPython dropped its pure-Python fallback in 3.12."""
    import hashlib
    import hmac

    password = bytes(memoryview(password))
    salt = bytes(memoryview(salt))
    if iterations < 1:
        raise ValueError("iteration value must be greater than 0.")
    digest_size = hashlib.new(hash_name).digest_size
    if dklen is None:
        dklen = digest_size
    if dklen < 1:
        raise ValueError("key length must be greater than 0.")
    prf = hmac.new(password, None, hash_name)
    blocks = []
    for index in range(1, -(-dklen // digest_size) + 1):
        mac = prf.copy()
        mac.update(salt + index.to_bytes(4, "big"))
        u = mac.digest()
        acc = int.from_bytes(u, "big")
        for _ in range(iterations - 1):
            mac = prf.copy()
            mac.update(u)
            u = mac.digest()
            acc ^= int.from_bytes(u, "big")
        blocks.append(acc.to_bytes(digest_size, "big"))
    return b"".join(blocks)[:dklen]


def _patch_hashlib():
    import hashlib

    if not hasattr(hashlib, "pbkdf2_hmac"):
        hashlib.pbkdf2_hmac = _pbkdf2_hmac
        if "pbkdf2_hmac" not in hashlib.__all__:
            hashlib.__all__ = hashlib.__all__ + ("pbkdf2_hmac",)


_patch_hashlib()
