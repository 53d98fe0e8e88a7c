"""asyncio without threads: the event loop's self-pipe is a socket pair,
which is only there to wake a loop blocked in `select` from another
thread or a signal handler, and a WebAssembly instance has neither, so
loops are patched as they are imported to run without one; timers and
ready callbacks work as before. Name lookups (`loop.getaddrinfo`, so
`open_connection("localhost", ...)`) run in an executor thread in
CPython; here they answer at once (the run's loopback names,
`loopback_socket.py`), so they are made in the loop's own thread.
"""

import importlib.abc
import importlib.machinery
import socket
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

    async def getaddrinfo(self, host, port, *, family=0, type=0, proto=0, flags=0):
        return socket.getaddrinfo(host, port, family, type, proto, flags)

    async def getnameinfo(self, sockaddr, flags=0):
        return socket.getnameinfo(sockaddr, flags)

    module.base_events.BaseEventLoop.getaddrinfo = getaddrinfo
    module.base_events.BaseEventLoop.getnameinfo = getnameinfo


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
