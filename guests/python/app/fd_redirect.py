"""`os.dup` and `os.dup2` over the host's standard-descriptor routes.

The wasi-libc this CPython is built on answers `dup` and `dup2` with ENOTSUP
(WASI preview 1 has no call for either). The host owns where descriptors 0,
1 and 2 go (`computer:workspace/process.redirect-stdio`) and opens
`/dev/fd/N` as what descriptor N points at then, as Linux does. So:
- `os.dup2(fd, fd2)` onto 0, 1 or 2 asks the host to point fd2 at what fd
  is: a standard stream, `/dev/null`, or an open file (named by inode);
- `os.dup(fd)` opens `/dev/fd/1` (or `/dev/fd/0` for input), pointing that
  descriptor at fd's target for the time of the open when it is not there
  already.
What stays out of reach: `dup2` onto descriptors above 2 (ENOTSUP, as
before), and a copy's own offset: a copy is a device whose writes append to
a file target and whose reads start at its beginning.

pytest's default capture (`FDCapture`: `dup` 0-2, `dup2` a temporary file
onto them, `dup2` the saved copies back) and `faulthandler` need no more."""

import errno
import os
import stat

from componentize_py_types import Err
from wit_world.imports import process as host

_c_dup = os.dup
# WASI's CPython has no `os.dup2` at all.
_c_dup2 = getattr(os, "dup2", None)

# Where 0, 1 and 2 point now, as told to the host: ("stdio", n), ("null",),
# ("file", inode).
_routes = {}
# The copies `dup` made: descriptor -> (its target, its own inode), the
# inode telling a copy from a later descriptor given the same number.
_copies = {}
_null_ino = None


def start():
    """A new process: every standard descriptor is its own."""
    global _null_ino
    _routes.clear()
    _copies.clear()
    _null_ino = None


def _is_null(st):
    global _null_ino
    if _null_ino is None:
        _null_ino = os.stat("/dev/null").st_ino
    return stat.S_ISCHR(st.st_mode) and st.st_ino == _null_ino


def _target(fd):
    """What `fd` refers to, as the host names it (OSError EBADF if closed)."""
    st = os.fstat(fd)
    if fd in (0, 1, 2):
        return _routes.get(fd, ("stdio", fd))
    copy = _copies.get(fd)
    if copy is not None:
        if copy[1] == st.st_ino:
            return copy[0]
        del _copies[fd]
    if _is_null(st):
        return ("null",)
    if stat.S_ISREG(st.st_mode):
        return ("file", st.st_ino)
    raise OSError(errno.ENOTSUP, f"descriptor {fd} is neither a standard one, "
                  "/dev/null nor a regular file: it cannot be duplicated here")


def _redirect(fd, target):
    kind = target[0]
    if kind == "stdio":
        to = host.StdioTarget_Stdio(target[1])
    elif kind == "null":
        to = host.StdioTarget_Null()
    else:
        to = host.StdioTarget_File(target[1])
    try:
        host.redirect_stdio(fd, to)
    except Err as e:
        raise OSError(errno.EBADF, str(e.value)) from None
    _routes[fd] = target


def _reads(fd, target):
    """Whether a copy of `fd` is for reading (descriptor 0's kind)."""
    if fd == 0 or target == ("stdio", 0):
        return True
    if fd in (1, 2):
        return False
    try:
        import fcntl
        return fcntl.fcntl(fd, fcntl.F_GETFL) & os.O_ACCMODE == os.O_RDONLY
    except (ImportError, OSError):
        return False


def dup(fd):
    try:
        return _c_dup(fd)
    except OSError as e:
        if e.errno != errno.ENOTSUP:
            raise
    target = _target(fd)
    via = 0 if _reads(fd, target) else 1
    before = _routes.get(via, ("stdio", via))
    if before != target:
        _redirect(via, target)
    try:
        new = os.open(f"/dev/fd/{via}", os.O_RDONLY if via == 0 else os.O_WRONLY)
    finally:
        if before != target:
            _redirect(via, before)
    _copies[new] = (target, os.fstat(new).st_ino)
    return new


def dup2(fd, fd2, inheritable=True):
    if _c_dup2 is not None:
        try:
            return _c_dup2(fd, fd2, inheritable)
        except OSError as e:
            if e.errno != errno.ENOTSUP:
                raise
    target = _target(fd)
    if fd2 not in (0, 1, 2):
        raise OSError(errno.ENOTSUP, f"dup2 onto descriptor {fd2}: only 0, 1 and 2 "
                      "can be redirected in this sandbox")
    if fd != fd2:
        _redirect(fd2, target)
    return fd2


def install():
    os.dup = dup
    os.dup2 = dup2
