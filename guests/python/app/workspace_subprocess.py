"""`subprocess` over the host's workspace commands.

A WebAssembly instance cannot fork, so `subprocess.Popen` is replaced by one
that starts a workspace command (`python3`, `rg`, a user's component, or the
shell as `sh`/`bash`) through `computer:workspace/commands`. The command runs
inside the same run (workspace, journal, limits), but only while this side
calls `invocation.next`: every wait, read and communicate here drives it.

A program that waits on something else while its children run (a sleep, a
wait with a timeout: a test that starts a server and then talks to it) lets
them run beside it (`let_children_run`, `invocation.poll-next`), as processes
do. A durable run that did so cannot be resumed after a crash or an approval
(the host says so), since its calls' order then depends on timing.

Names that are not commands (the shell's built-ins such as `ls` or `grep`,
scripts in the workspace) run through the shell. `shell=True` runs the
shell. `os.system` and `os.popen` go through here too.
"""

import atexit
import errno
import io
import os
import shlex
import signal
import subprocess
import sys
import time
import warnings
import weakref

from componentize_py_types import Err
from wit_world.imports import commands as host

import interpreter

interpreter.own_file(__file__)

PIPE = subprocess.PIPE
STDOUT = subprocess.STDOUT
DEVNULL = subprocess.DEVNULL

# What the host starts as the shell.
SHELL = "sh"
_SHELLS = {"sh", "bash"}
# Directories whose programs are looked for among the commands when the
# path is not a workspace file (`/usr/bin/env`, `/bin/sh`, `/usr/bin/git`).
_SYSTEM_DIRS = {"/bin", "/usr/bin", "/usr/local/bin"}
_CHUNK = 64 << 10

# Longest single wait in `poll-next` (the host's own cap is 100 ms).
_POLL_MS = 50

_pids = iter(range(1000, 1 << 30))
_found = {}
# Popens whose command may still run, for `_stop_unwaited` at exit.
_live = weakref.WeakSet()
_stopping_at_exit = []


def _commands():
    return {c.name for c in host.list_commands()} | _SHELLS


def _shell_knows(name, env, cwd):
    """Whether the shell can run `name` (a built-in such as `ls`, or a
    function of its own): asked once per name and run."""
    if name not in _found:
        probe = _Invocation(
            SHELL, [SHELL, "-c", 'command -v "$0" >/dev/null', name], env, cwd
        )
        _found[name] = probe.run_quietly() == 0
    return _found[name]


def _not_found(name):
    return FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), name)


def resolve(argv, executable, env, cwd):
    """(command to start, its argv) for a Popen argv."""
    prog = os.fsdecode(executable) if executable is not None else argv[0]
    if "/" in prog:
        path = prog if os.path.isabs(prog) else os.path.join(cwd, prog)
        if os.path.exists(path):
            if os.path.isdir(path) or not os.access(path, os.X_OK):
                raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), prog)
            # A workspace script: the shell reads its `#!` line.
            return SHELL, [SHELL, "-c", '"$0" "$@"', prog] + argv[1:]
        head, base = os.path.split(os.path.normpath(path))
        if head in _SYSTEM_DIRS:
            prog = base
        else:
            raise _not_found(prog)
    if prog in _commands():
        return prog, argv
    if _shell_knows(prog, env, cwd):
        return SHELL, [SHELL, "-c", '"$0" "$@"', prog] + argv[1:]
    raise _not_found(prog)


def _host_string(s):
    """`s` as the host takes it: CPython's own exec refuses a NUL
    (`_posixsubprocess`, which this module replaces), and the host's strings
    are UTF-8, so a lone surrogate (`os.fsdecode` of a non-UTF-8 byte) is
    refused with the codec's error rather than trapping in the bindings."""
    if "\0" in s:
        raise ValueError("embedded null byte")
    s.encode("utf-8")
    return s


def _env_entry(key, value):
    """One environment variable, checked as CPython's `_execute_child` and
    `fork_exec` check it."""
    key = _host_string(os.fsdecode(key))
    if "=" in key:
        raise ValueError("illegal environment variable name")
    return key, _host_string(os.fsdecode(value))


class _Invocation:
    """One started command and where its output goes."""

    def __init__(self, name, argv, env, cwd):
        request = host.InvocationRequest(name=name, argv=argv, env=env, cwd=cwd)
        try:
            self.handle = host.Invocation.start(request)
        except Err as e:
            raise _start_error(e.value, argv[0]) from None
        self.returncode = None

    def next(self):
        return self.handle.next()

    def poll_next(self, wait_ms):
        """The next event within `wait_ms`, or None; the command runs on."""
        return self.handle.poll_next(wait_ms)

    def feed(self, data):
        if self.handle is None:
            raise BrokenPipeError(errno.EPIPE, os.strerror(errno.EPIPE))
        self.handle.feed(bytes(data))

    def stop(self):
        if self.handle is not None:
            self.handle.__exit__(None, None, None)
            self.handle = None

    def run_quietly(self):
        while True:
            event = self.next()
            name = type(event).__name__
            if name == "Event_StdinWanted":
                self.feed(b"")
            elif name == "Event_Exited":
                self.stop()
                return event.value


def _start_error(err, name):
    kind = type(err).__name__
    if kind == "StartError_NotFound":
        return _not_found(name)
    if kind == "StartError_TooDeep":
        return OSError(errno.EAGAIN, f"commands run commands deeper than {err.value} levels", name)
    return OSError(errno.ENOEXEC, f"cannot start {name}: {err.value}", name)


def _fd_of(target):
    if isinstance(target, int):
        return target
    try:
        return target.fileno()
    except (AttributeError, io.UnsupportedOperation, ValueError):
        return None


def _write_to(target, data):
    """Output bound for an inherited stream or a file the caller gave."""
    fd = _fd_of(target)
    if fd is not None:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
    else:
        target.write(data)


class _Reader(io.RawIOBase):
    """`Popen.stdout`/`.stderr` when PIPE: reading drives the command."""

    def __init__(self, popen, which):
        self._popen = popen
        self._which = which

    def readable(self):
        return True

    def readinto(self, b):
        buf = self._popen._buffers[self._which]
        while not buf and self._popen._step(reading=self._which):
            pass
        n = min(len(b), len(buf))
        b[:n] = buf[:n]
        del buf[:n]
        return n


class _Writer(io.RawIOBase):
    """`Popen.stdin` when PIPE: what is written is fed to the command."""

    def __init__(self, popen):
        self._popen = popen

    def writable(self):
        return True

    def write(self, b):
        data = bytes(b)
        if data:
            self._popen._inv.feed(data)
        return len(data)

    def close(self):
        if not self.closed and self._popen.returncode is None:
            self._popen._inv.feed(b"")
        self._popen._stdin_closed = True
        super().close()


class Popen:
    """`subprocess.Popen` for workspace commands (see the module's doc)."""

    def __init__(
        self,
        args,
        bufsize=-1,
        executable=None,
        stdin=None,
        stdout=None,
        stderr=None,
        preexec_fn=None,
        close_fds=True,
        shell=False,
        cwd=None,
        env=None,
        universal_newlines=None,
        startupinfo=None,
        creationflags=0,
        restore_signals=True,
        start_new_session=False,
        pass_fds=(),
        *,
        user=None,
        group=None,
        extra_groups=None,
        encoding=None,
        errors=None,
        text=None,
        umask=-1,
        pipesize=-1,
        process_group=None,
    ):
        self.args = args
        self.returncode = None
        self._inv = None
        self._stdin_closed = False
        self.stdin = self.stdout = self.stderr = None
        self.encoding, self.errors = encoding, errors
        self.text_mode = bool(encoding or errors or text or universal_newlines)
        self.universal_newlines = self.text_mode
        self._targets = {"stdin": stdin, "stdout": stdout, "stderr": stderr}
        self._buffers = {"stdout": bytearray(), "stderr": bytearray()}

        if isinstance(args, (str, bytes, os.PathLike)):
            argv = [args]
        else:
            argv = list(args)
        if shell:
            argv = [executable if executable is not None else "/bin/sh", "-c"] + argv
            executable = None
        argv = [_host_string(os.fsdecode(a)) for a in argv]
        if not argv:
            raise IndexError("list index out of range")
        if cwd is not None:
            cwd = os.path.abspath(_host_string(os.fsdecode(cwd)))
        else:
            cwd = os.getcwd()
        if not os.path.isdir(cwd):
            raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), cwd)
        environ = os.environ if env is None else env
        env_list = [_env_entry(k, v) for k, v in environ.items()]

        name, argv = resolve(argv, executable, env_list, cwd)
        self._inv = _Invocation(name, argv, env_list, cwd)
        self.pid = next(_pids)
        _live.add(self)
        if not _stopping_at_exit:
            # Registered after the first handle exists, so it runs before the
            # exit hook of `weakref.finalize` that drops the bindings' handles
            # (atexit runs the last registered first).
            atexit.register(_stop_unwaited)
            _stopping_at_exit.append(True)

        if stdin == PIPE:
            self.stdin = self._wrap(_Writer(self), "wb", bufsize)
        if stdout == PIPE:
            self.stdout = self._wrap(_Reader(self, "stdout"), "rb", bufsize)
        if stderr == PIPE:
            self.stderr = self._wrap(_Reader(self, "stderr"), "rb", bufsize)

    def _wrap(self, raw, mode, bufsize):
        if bufsize == 0 and not self.text_mode:
            return raw
        size = io.DEFAULT_BUFFER_SIZE if bufsize in (-1, 1, 0) else bufsize
        buffered = io.BufferedWriter(raw, size) if "w" in mode else io.BufferedReader(raw, size)
        if not self.text_mode:
            return buffered
        return io.TextIOWrapper(
            buffered,
            encoding=self.encoding or "utf-8",
            errors=self.errors or "strict",
            write_through="w" in mode,
            line_buffering=bufsize == 1 and "w" in mode,
        )

    # --- driving the command -------------------------------------------------

    def _step(self, reading=None):
        """Runs the command to its next event; False once it has exited."""
        if self.returncode is not None:
            return False
        return self._handle(self._inv.next(), reading)

    def _handle(self, event, reading):
        kind = type(event).__name__
        if kind == "Event_Stdout":
            self._output("stdout", event.value)
        elif kind == "Event_Stderr":
            self._output("stderr", event.value)
        elif kind == "Event_StdinWanted":
            self._give_input(reading)
        elif kind == "Event_Exited":
            self.returncode = event.value
            self._inv.stop()
            return False
        return True

    def _pump(self):
        """Lets the command run beside this program and passes on what it
        wrote so far. Input it waits for from a pipe or this program's own
        stdin waits for the next read, wait or communicate."""
        if self.returncode is not None or self._inv is None or self._inv.handle is None:
            return
        while True:
            event = self._inv.poll_next(0)
            if event is None:
                return
            if type(event).__name__ == "Event_StdinWanted":
                if self._targets["stdin"] == DEVNULL:
                    self._inv.feed(b"")
                    continue
                return
            if not self._handle(event, None):
                return

    def _poll_step(self, wait_s, reading=None):
        """`_step` that gives up after `wait_s` seconds; False once exited."""
        if self.returncode is not None:
            return False
        event = self._inv.poll_next(max(0, min(int(wait_s * 1000), _POLL_MS)))
        if event is None:
            return True
        return self._handle(event, reading)

    def _output(self, which, data):
        target = self._targets[which]
        if which == "stderr" and target == STDOUT:
            which, target = "stdout", self._targets["stdout"]
        if target == PIPE:
            self._buffers[which] += data
        elif target == DEVNULL:
            pass
        elif target is None:
            _write_to(1 if which == "stdout" else 2, data)
        else:
            _write_to(target, data)

    def _give_input(self, reading):
        target = self._targets["stdin"]
        if target == PIPE:
            if self._stdin_closed or reading is None:
                # Waiting on a command that waits on an input no one will
                # write: CPython would hang; end its input instead.
                self._inv.feed(b"")
                self._stdin_closed = True
            else:
                raise OSError(
                    errno.EDEADLK,
                    "the command waits for input on its stdin pipe, which is open and "
                    "empty: write to or close Popen.stdin before reading its output",
                )
        elif target == DEVNULL:
            self._inv.feed(b"")
        else:
            fd = 0 if target is None else _fd_of(target)
            if fd is None:
                data = target.read(_CHUNK)
            else:
                data = os.read(fd, _CHUNK)
            self._inv.feed(data)

    def _drive(self, timeout):
        if timeout is None:
            while self._step():
                pass
            return
        # With a timeout the command runs beside this program, so a command
        # that never ends (a server) times out as it does in CPython.
        deadline = time.monotonic() + timeout
        while self._poll_step(deadline - time.monotonic()):
            if time.monotonic() > deadline:
                raise subprocess.TimeoutExpired(self.args, timeout)

    # --- the Popen API ----------------------------------------------------------

    def poll(self):
        self._step()
        return self.returncode

    def wait(self, timeout=None):
        if self.returncode is None:
            self._drive(timeout)
        return self.returncode

    def communicate(self, input=None, timeout=None):
        if self.stdin is not None:
            try:
                self.stdin.flush()
                if input:
                    if self.text_mode and isinstance(input, str):
                        input = input.encode(self.encoding or "utf-8", self.errors or "strict")
                    self._inv.feed(input)
            except BrokenPipeError:
                pass
            try:
                self.stdin.close()
            except BrokenPipeError:
                pass
            self.stdin = None
        self._drive(timeout)
        out = self._collect("stdout")
        err = self._collect("stderr")
        return out, err

    def _collect(self, which):
        stream = getattr(self, which)
        if stream is None:
            return None
        data = stream.read()
        stream.close()
        return data

    def send_signal(self, sig):
        if self.returncode is None:
            # What the command wrote before the signal is still in the pipe.
            while self._inv.handle is not None:
                event = self._inv.poll_next(0)
                kind = type(event).__name__
                if kind == "Event_Stdout":
                    self._output("stdout", event.value)
                elif kind == "Event_Stderr":
                    self._output("stderr", event.value)
                else:
                    break
            self._inv.stop()
            self.returncode = -int(sig)

    def terminate(self):
        self.send_signal(signal.SIGTERM)

    def kill(self):
        self.send_signal(signal.SIGKILL)

    def __enter__(self):
        return self

    def __exit__(self, exc_type, value, traceback):
        for stream in (self.stdout, self.stderr):
            if stream is not None:
                stream.close()
        try:
            if self.stdin is not None:
                self.stdin.close()
        finally:
            if exc_type is KeyboardInterrupt:
                self.kill()
            else:
                self.wait()

    def __del__(self, _warn=warnings.warn):
        inv = getattr(self, "_inv", None)
        if inv is not None and inv.handle is not None and self.returncode is None:
            # As CPython's Popen: a ResourceWarning (shown with -W default),
            # then the command is stopped (it only runs while driven).
            _warn(f"subprocess {self.pid} is still running", ResourceWarning, source=self)
            self._inv.stop()

    def __repr__(self):
        return f"<Popen: returncode: {self.returncode} args: {self.args!r}>"

    __class_getitem__ = classmethod(lambda cls, item: cls)


def _stop_unwaited():
    """At exit, stop the commands nobody waited for while the bindings still
    work: a Popen collected later, in the interpreter's teardown, would drop
    a handle that `weakref.finalize`'s exit hook already dropped (the
    bindings then raise in `__del__`)."""
    for popen in list(_live):
        popen.__del__()


def let_children_run():
    """Called before and after this program waits on something other than
    its children (`time.sleep`; a socket): every started, unwaited command
    runs beside it meanwhile, and what they wrote so far is passed on."""
    for popen in list(_live):
        popen._pump()


def _has_running_children():
    return any(p.returncode is None and p._inv is not None and p._inv.handle is not None
               for p in list(_live))


def _sleep_beside_children(secs, _sleep=time.sleep):
    """`time.sleep` that lets started commands run while it sleeps."""
    if not _has_running_children():
        return _sleep(secs)
    let_children_run()
    try:
        return _sleep(secs)
    finally:
        let_children_run()


def system(command):
    """`os.system`: the shell with this process's streams; a wait status."""
    code = Popen(command, shell=True).wait()
    return (code & 0xFF) << 8 if code >= 0 else -code


def which(cmd, mode=os.F_OK | os.X_OK, path=None, _which=None):
    """`shutil.which` that also finds workspace commands, as `/usr/bin/NAME`
    (which this module's Popen maps back to the command)."""
    found = _which(cmd, mode, path)
    if found is None and "/" not in os.fsdecode(cmd) and os.fsdecode(cmd) in _commands():
        return "/usr/bin/" + os.fsdecode(cmd)
    return found


def install():
    import functools
    import shutil

    subprocess.Popen = Popen
    os.system = system
    time.sleep = _sleep_beside_children
    shutil.which = functools.partial(which, _which=shutil.which)
