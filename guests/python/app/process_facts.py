"""The process facts WASI's CPython lacks (`os.getuid`, `os.getppid`,
`os.umask`, `pwd`, `grp`...), answered from the host's
`computer:workspace/process`, so python3 agrees with the shell and node:
user `user` (uid 1000), group `user` (gid 1000), home `$HOME` or `/`.

`install()` runs at build time (the snapshot keeps the patched `os`);
`start()` at the start of every run asks the host who this process is and
resets the umask, which is the process's own."""

import os

from wit_world.imports import process as host

UMASK = 0o022
_who = None
_umask = UMASK


def identity():
    global _who
    if _who is None:
        _who = host.get_identity()
    return _who


def start():
    global _who, _umask
    _who = None
    _umask = UMASK


def home():
    """The passwd entry's home: the process's `HOME`, else the workspace root."""
    return os.environ.get("HOME") or "/"


def _umask_call(mask):
    global _umask
    if not isinstance(mask, int):
        raise TypeError(f"'{type(mask).__name__}' object cannot be interpreted as an integer")
    old, _umask = _umask, mask & 0o777
    return old


def install():
    os.getuid = os.geteuid = lambda: identity().uid
    os.getgid = os.getegid = lambda: identity().gid
    os.getpid = lambda: identity().pid
    os.getppid = lambda: identity().ppid
    os.getlogin = lambda: identity().user
    os.getgroups = lambda: [identity().gid]
    os.umask = _umask_call
