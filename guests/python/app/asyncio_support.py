"""asyncio without sockets: the event loop's self-pipe is a socket pair,
which WASI cannot make, so loops are patched as they are imported to run
without one. It only wakes a loop blocked in `select` from another thread
or a signal handler, and a WebAssembly instance has neither; timers and
ready callbacks work as before.
"""

import importlib.abc
import importlib.machinery
import sys

import interpreter

interpreter.own_file(__file__)

TARGET = "asyncio.selector_events"


def _patch(module):
    loop = module.BaseSelectorEventLoop

    def _make_self_pipe(self):
        self._ssock = self._csock = None

    def _close_self_pipe(self):
        self._ssock = self._csock = None

    def _write_to_self(self):
        pass

    loop._make_self_pipe = _make_self_pipe
    loop._close_self_pipe = _close_self_pipe
    loop._write_to_self = _write_to_self


class _Loader(importlib.abc.Loader):
    def __init__(self, inner):
        self.inner = inner

    def create_module(self, spec):
        return self.inner.create_module(spec)

    def exec_module(self, module):
        self.inner.exec_module(module)
        _patch(module)


class _Finder(importlib.abc.MetaPathFinder):
    def find_spec(self, fullname, path=None, target=None):
        if fullname != TARGET:
            return None
        spec = importlib.machinery.PathFinder.find_spec(fullname, path)
        if spec is not None and spec.loader is not None:
            spec.loader = _Loader(spec.loader)
        return spec


def install():
    if TARGET in sys.modules:
        _patch(sys.modules[TARGET])
    else:
        sys.meta_path.insert(0, _Finder())
