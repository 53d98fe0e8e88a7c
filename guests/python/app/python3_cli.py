"""`python3` for the workspace: CPython 3.14's command line as a wasi:cli/command.

componentize-py pre-initializes this module at build time (Wizer): everything
imported here is in the snapshot, and `Run.run` is the program's `main`. The
interpreter is already initialized when `run` starts, so the command line is
applied to a running interpreter here rather than by CPython's own `Py_Main`.
At run time only the snapshot's modules exist, unless the host mounts the
standard library tree (`scripts/build-python.sh` exports it) read-only at
`STDLIB`.
"""

import gc
import os
import sys

import interpreter
from interpreter import STDLIB, exit_code_of, fresh_main, report, setup_stdio

# What agents reach for first: paid for once at build time rather than at
# every start (see guests/python/README.md for the size and time trade-off).
PRELOAD = """
    argparse base64 collections copy csv dataclasses datetime decimal enum
    fnmatch functools glob gzip hashlib heapq io itertools json json.decoder
    json.encoder math operator os pathlib pprint random re shlex
    shutil sqlite3 statistics string struct subprocess sys tarfile tempfile
    textwrap time traceback typing unittest unittest.mock urllib.parse uuid
    zipfile zlib
    _colorize code codeop contextlib importlib.machinery importlib.util
    inspect linecache locale py_compile runpy token tokenize warnings
    zipimport site ast keyword signal importlib.abc
""".split()
for _name in PRELOAD:
    __import__(_name)

import importlib.machinery  # noqa: E402
import linecache  # noqa: E402
import runpy  # noqa: E402
import textwrap  # noqa: E402
import warnings  # noqa: E402
import zipimport  # noqa: E402

import asyncio_support  # noqa: E402
import grp  # noqa: E402, F401  (ours: in the snapshot, for getpass, platformdirs...)
import fd_redirect  # noqa: E402
import http_over_wasi  # noqa: E402
import loopback_socket  # noqa: E402
import process_facts  # noqa: E402
import pwd  # noqa: E402, F401
import source_run  # noqa: E402
import workspace_subprocess  # noqa: E402
import ws_modules  # noqa: E402
from wit_world import RunOutcome, exports  # noqa: E402
from wit_world.imports import exit as wasi_exit  # noqa: E402

interpreter.own_file(__file__)
ws_modules.install()
workspace_subprocess.install()
asyncio_support.install()
process_facts.install()
fd_redirect.install()
http_over_wasi.install()
loopback_socket.install()

# Modules CPython has no WebAssembly build of here, with what to do instead.
NOT_HERE = {
    "pip": "pip does not run in the workspace's WebAssembly python3 (it has no "
    "network and builds nothing): install packages with the container backend, "
    "e.g. computer exec --backend container 'pip install --target site-packages "
    "PACKAGE'; pure-Python packages in a site-packages or .venv of the workspace "
    "then import here",
}
NOT_HERE["ensurepip"] = NOT_HERE["venv"] = NOT_HERE["pip"]


class UsageError(Exception):
    """A command line CPython would refuse with exit status 2."""


class Options:
    def __init__(self):
        self.command = None  # -c
        self.module = None  # -m
        self.script = None  # a path, or "-" for stdin
        self.args = []  # sys.argv[1:]
        self.ignore_env = False  # -E
        self.safe_path = False  # -P
        self.unbuffered = False  # -u
        self.optimize = 0  # -O
        self.skip_first_line = False  # -x
        self.version = 0  # -V
        self.help = False
        self.warnoptions = []  # -W
        self.xoptions = []  # -X


# Options that take an argument, as in CPython's getopt.
_WITH_ARG = set("cmWX")
_FLAGS = set("bBdEhiIOPqRsStuvVx?")
_LONG = {"--help", "--help-env", "--help-xoptions", "--help-all", "--version"}


def parse(argv):
    opts = Options()
    i = 1
    while i < len(argv):
        arg = argv[i]
        i += 1
        if arg == "--":
            break
        if arg.startswith("--"):
            name, eq, value = arg.partition("=")
            if name == "--check-hash-based-pycs":
                if not eq:
                    if i >= len(argv):
                        raise UsageError(f"Argument expected for the {name} option")
                    i += 1
                continue
            if name not in _LONG or eq:
                raise UsageError(f"unknown option {arg}")
            if name == "--version":
                opts.version += 1
            else:
                opts.help = True
            continue
        if not arg.startswith("-") or arg == "-":
            i -= 1
            break
        j = 1
        while j < len(arg):
            ch = arg[j]
            j += 1
            if ch in _WITH_ARG:
                if j < len(arg):
                    value = arg[j:]
                elif i < len(argv):
                    value = argv[i]
                    i += 1
                else:
                    raise UsageError(f"Argument expected for the -{ch} option")
                if ch == "c":
                    opts.command = value
                    opts.args = argv[i:]
                    return opts
                if ch == "m":
                    opts.module = value
                    opts.args = argv[i:]
                    return opts
                if ch == "W":
                    opts.warnoptions.append(value)
                else:
                    opts.xoptions.append(value)
                break
            if ch not in _FLAGS:
                raise UsageError(f"Unknown option: -{ch}")
            if ch in "h?":
                opts.help = True
            elif ch == "E":
                opts.ignore_env = True
            elif ch == "I":
                opts.ignore_env = True
                opts.safe_path = True
            elif ch == "P":
                opts.safe_path = True
            elif ch == "u":
                opts.unbuffered = True
            elif ch == "O":
                opts.optimize += 1
            elif ch == "x":
                opts.skip_first_line = True
            elif ch == "V":
                opts.version += 1
            # b B d i q R s S v: accepted, nothing to do here (no bytecode is
            # ever written, there is no interactive mode nor site to skip).
    if i < len(argv):
        opts.script = argv[i]
        opts.args = argv[i + 1 :]
    return opts


HELP = """\
usage: {prog} [option] ... [-c cmd | -m mod | file | -] [arg] ...
CPython {version} as a WebAssembly command of the workspace.
Options:
-c cmd : run the program passed as a string (terminates the option list)
-m mod : run a library module as a script (terminates the option list)
-E     : ignore PYTHON* environment variables (PYTHONPATH, PYTHONUNBUFFERED, ...)
-I     : isolate: -E and -P
-O     : remove assert statements from the main program (-OO also docstrings)
-P     : do not prepend the script's directory (or the cwd) to sys.path
-u     : unbuffered binary stdout and stderr
-W arg : warning control, as in CPython
-x     : skip the first line of the source
-V     : print the version and exit (-VV: more)
-b -B -d -i -q -R -s -S -v -X opt: accepted; -B is always in effect
file   : program read from a script file, a directory or a zip file
-      : program read from stdin (the default when no file is given)
arg ...: arguments passed to the program in sys.argv[1:]
subprocess runs workspace commands and the shell (sh); not here: the
interactive prompt, native extension modules, pip; bz2, lzma, ssl and
ctypes are missing.
"""


def compile_main(source, filename, opts):
    if opts.skip_first_line:
        if isinstance(source, bytes):
            nl = source.find(b"\n")
            source = b"\n" + source[nl + 1 :] if nl >= 0 else b""
        else:
            nl = source.find("\n")
            source = "\n" + source[nl + 1 :] if nl >= 0 else ""
    return compile(source, filename, "exec", dont_inherit=True, optimize=opts.optimize)


def run_main(opts, argv0):
    """Set sys.argv and sys.path[0] for the form used, then run it in a fresh
    `__main__` (raises whatever the program raises)."""
    main = fresh_main()
    path0 = None
    if opts.command is not None:
        sys.argv = ["-c"] + opts.args
        path0 = ""
        # 3.14 dedents -c and keeps its source for tracebacks.
        source = textwrap.dedent(opts.command)
        code = compile_main(source, "<string>", opts)
        linecache._register_code(code, source, "<string>")
        main.__loader__ = importlib.machinery.BuiltinImporter
    elif opts.module is not None:
        sys.argv = ["-m"] + opts.args
        path0 = os.getcwd()
    elif opts.script is not None and opts.script != "-":
        sys.argv = [opts.script] + opts.args
        filename = opts.script
        if not os.path.isabs(filename):
            filename = os.path.join(os.getcwd(), filename)
        importer = None
        if os.path.isdir(filename):
            importer = "dir"
        else:
            try:
                zipimport.zipimporter(filename)
                importer = "zip"
            except (zipimport.ZipImportError, OSError):
                pass
        if importer:
            _set_path0(filename, opts)
            return runpy._run_module_as_main("__main__", alter_argv=False)
        try:
            with open(filename, "rb") as f:
                source = f.read()
        except OSError as e:
            sys.stderr.write(
                f"{argv0}: can't open file {filename!r}: [Errno {e.errno}] {e.strerror}\n"
            )
            return SystemExit(2)
        path0 = os.path.dirname(os.path.realpath(filename))
        main.__file__ = filename
        main.__cached__ = None
        main.__loader__ = importlib.machinery.SourceFileLoader("__main__", filename)
        _set_path0(path0, opts)
        code = compile_main(source, filename, opts)
        exec(code, main.__dict__)
        return None
    else:
        sys.argv = [opts.script or ""] + opts.args
        path0 = ""
        source = sys.stdin.buffer.read()
        main.__file__ = "<stdin>"
        main.__cached__ = None
        code = compile_main(source, "<stdin>", opts)
    _set_path0(path0, opts)
    if opts.module is not None and opts.module.partition(".")[0] in NOT_HERE:
        sys.stderr.write(f"{argv0}: {NOT_HERE[opts.module.partition('.')[0]]}\n")
        return SystemExit(1)
    if opts.module is not None:
        # A submodule the snapshot holds would be run anyway, after runpy
        # warned that it was already imported; CPython imports it only now.
        held = sys.modules.get(opts.module)
        if "." in opts.module and held is not None and not hasattr(held, "__path__"):
            del sys.modules[opts.module]
        runpy._run_module_as_main(opts.module, alter_argv=True)
    else:
        exec(code, main.__dict__)
    return None


def _set_path0(path0, opts):
    if not opts.safe_path:
        sys.path.insert(0, path0)


def configure(argv, env):
    """Apply the command line and environment to the running interpreter;
    returns (options, exit status if the command line ends here)."""
    prog = argv[0] if argv else "python3"
    try:
        opts = parse(argv)
    except UsageError as e:
        sys.stderr.write(
            f"{e}\nusage: {prog} [option] ... [-c cmd | -m mod | file | -] [arg] ...\n"
            "Try `python -h' for more information.\n"
        )
        return None, 2
    getenv = (lambda _name: None) if opts.ignore_env else env.get

    if getenv("PYTHONSAFEPATH"):
        opts.safe_path = True
    unbuffered = opts.unbuffered or bool(getenv("PYTHONUNBUFFERED"))
    setup_stdio(unbuffered, getenv("PYTHONIOENCODING"))

    if opts.help:
        sys.stdout.write(HELP.format(prog=prog, version=sys.version.split()[0]))
        return opts, 0
    if opts.version:
        sys.stdout.write(
            f"Python {sys.version}\n" if opts.version > 1 else f"Python {sys.version.split()[0]}\n"
        )
        return opts, 0

    # Processes start in `/`; the caller's directory comes as $PWD.
    pwd = env.get("PWD")
    if pwd:
        try:
            os.chdir(pwd)
        except OSError as e:
            sys.stderr.write(f"{prog}: cannot enter $PWD {pwd!r}: {e.strerror}\n")
            return opts, 1

    interpreter.set_path(
        getenv("PYTHONPATH"),
        [] if opts.ignore_env else interpreter.site_dirs(env, os.getcwd()),
    )

    sys.dont_write_bytecode = True
    sys.executable = prog
    sys.orig_argv = list(argv)
    warnoptions = []
    if getenv("PYTHONWARNINGS"):
        warnoptions.extend(w for w in getenv("PYTHONWARNINGS").split(",") if w)
    warnoptions.extend(opts.warnoptions)
    sys.warnoptions[:] = warnoptions
    if warnoptions:
        warnings._processoptions(warnoptions)
    for x in opts.xoptions:
        key, eq, value = x.partition("=")
        sys._xoptions[key] = value if eq else True
    return opts, None


def main():
    argv = list(sys.argv)
    snapshot_modules = set(sys.modules)
    status = 0
    interpreter.reseed()
    process_facts.start()
    fd_redirect.start()
    try:
        opts, status = configure(argv, dict(os.environ))
        if status is None:
            status = 0
            result = run_main(opts, argv[0] if argv else "python3")
            if isinstance(result, SystemExit):
                status = exit_code_of(result)
    except SystemExit as e:
        status = exit_code_of(e)
    except BaseException as e:
        report(e)
        status = 1
    return interpreter.shut_down(status, snapshot_modules)


def _os_exit(status):
    # wasi-libc's _exit can only say 0 or 1.
    wasi_exit.exit_with_code(status & 0xFF)


os._exit = _os_exit


# The snapshot's objects live as long as the instance: keep every collection
# at run time (finalize() does two) from walking them again.
gc.collect()
gc.freeze()


class Run(exports.Run):
    """The `python3` command."""

    def run(self) -> None:
        status = main() & 0xFF
        if status:
            wasi_exit.exit_with_code(status)


class WitWorld:
    """The `python` backend."""

    def run(self, request) -> RunOutcome:
        status, value = source_run.run(request)
        return RunOutcome(exit_code=status, value_json=value)
