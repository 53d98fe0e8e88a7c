"""`socket`, `select` and `selectors` over the run's loopback network.

This CPython is built for WASI preview 1, which has no `socket()`,
`bind()` or `connect()`. The host gives each run a network of its own,
in memory (`wasi:sockets`: TCP on 127.0.0.0/8 and ::1, shared by the run
and every command it starts), and this module makes `socket.socket` a
TCP socket of it: `bind`, `listen`, `accept`, `connect`, `send`/`recv`
(and `_into`), `sendall`, `shutdown`, `makefile`, timeouts and
non-blocking mode, `getaddrinfo` (`localhost` and IP literals),
`socketpair`, and `select.select`, `select.poll` and so `selectors` over
these sockets (`wasi:io/poll`). `socketserver` and `http.server` serve
one request at a time (no threads here), and `http.client`/`urllib` to
127.0.0.1 or localhost use these sockets.

What differs from Linux: only TCP (a UDP socket is `EPROTONOSUPPORT`);
a connect to any address outside the loopback is `PermissionError`
(HTTP to other hosts goes through `http.client`'s host route and the
workspace's allow-list, `http_over_wasi.py`); names other than
`localhost` do not resolve; a connect completes at once, even on a
non-blocking socket; socket options are accepted and read back but
change nothing; file descriptors are numbers of this module's, which
only `select`, `poll` and `selectors` understand.
"""

import errno
import select as _select
import selectors
import socket as _socket
import socketserver
import weakref

from componentize_py_types import Err
# Imported now, during pre-initialization, where componentize-py's
# bindings are; their functions are only called later, in a run.
from wit_world.imports import (instance_network, ip_name_lookup, monotonic_clock, network,
                               poll, tcp, tcp_create_socket)

import interpreter

interpreter.own_file(__file__)

AF_INET, AF_INET6 = _socket.AF_INET, _socket.AF_INET6
SOCK_STREAM = _socket.SOCK_STREAM
_SOCK_FLAGS = getattr(_socket, "SOCK_NONBLOCK", 0) | getattr(_socket, "SOCK_CLOEXEC", 0)
_POLLIN, _POLLOUT = _select.POLLIN, _select.POLLOUT
_POLLERR, _POLLHUP, _POLLNVAL = _select.POLLERR, _select.POLLHUP, _select.POLLNVAL

# Descriptor numbers of ours, far above the real ones WASI hands out.
_FD_BASE = 1 << 24
_next_fd = _FD_BASE
_by_fd = weakref.WeakValueDictionary()

_plain_makefile = _socket.socket.makefile
_plain_select = _select.select
_plain_poll = _select.poll
_GLOBAL_DEFAULT_TIMEOUT = _socket._GLOBAL_DEFAULT_TIMEOUT

_network = None

_OUTSIDE = ("TCP reaches only the run's own loopback (127.0.0.1, ::1); "
            "HTTP to other hosts goes through urllib/http.client and the "
            "workspace's allow-list")


def _net():
    """The run's network, asked for on first use (never during
    pre-initialization, which keeps no resources)."""
    global _network
    if _network is None:
        _network = instance_network.instance_network()
    return _network


def _drop(resource):
    if resource is not None:
        resource.__exit__(None, None, None)


def _os_error(code, where=None):
    """The OSError Linux would have given for a `wasi:sockets` error code."""
    name = getattr(code, "name", str(code))
    table = {
        "ACCESS_DENIED": (PermissionError, errno.EACCES, "Permission denied: " + _OUTSIDE),
        "ADDRESS_IN_USE": (OSError, errno.EADDRINUSE, "Address already in use"),
        "ADDRESS_NOT_BINDABLE": (OSError, errno.EADDRNOTAVAIL, "Cannot assign requested address"),
        "CONNECTION_REFUSED": (ConnectionRefusedError, errno.ECONNREFUSED, "Connection refused"),
        "CONNECTION_RESET": (ConnectionResetError, errno.ECONNRESET, "Connection reset by peer"),
        "CONNECTION_ABORTED": (ConnectionAbortedError, errno.ECONNABORTED,
                               "Software caused connection abort"),
        "WOULD_BLOCK": (BlockingIOError, errno.EAGAIN, "Resource temporarily unavailable"),
        "INVALID_ARGUMENT": (OSError, errno.EINVAL, "Invalid argument"),
        "INVALID_STATE": (OSError, errno.EINVAL, "Invalid argument"),
        "NOT_SUPPORTED": (OSError, errno.EOPNOTSUPP, "Operation not supported"),
        "REMOTE_UNREACHABLE": (OSError, errno.ENETUNREACH, "Network is unreachable"),
        "TIMEOUT": (TimeoutError, errno.ETIMEDOUT, "Connection timed out"),
        "NEW_SOCKET_LIMIT": (OSError, errno.EMFILE, "Too many open files"),
        "NAME_UNRESOLVABLE": (_socket.gaierror, _socket.EAI_NONAME, "Name or service not known"),
    }
    cls, num, text = table.get(name, (OSError, errno.EIO, f"socket error: {name.lower()}"))
    return cls(num, text)


def _call(fn, *args):
    try:
        return fn(*args)
    except Err as e:
        raise _os_error(e.value) from None


def _children_run():
    """Commands this program started and left running (its own client, a
    server it talks to) run while it waits, as processes would."""
    import workspace_subprocess

    if workspace_subprocess._has_running_children():
        workspace_subprocess.let_children_run()


def _wait(pollable, timeout):
    """Waits for `pollable` (dropped after) at most `timeout` seconds
    (None: for ever); whether it became ready."""
    _children_run()
    try:
        if timeout is None:
            pollable.block()
            return True
        timer = monotonic_clock.subscribe_duration(max(0, int(timeout * 1e9)))
        try:
            return 0 in poll.poll([pollable, timer])
        finally:
            _drop(timer)
    finally:
        _drop(pollable)


# Addresses -------------------------------------------------------------

def _ip_tuple(family, host):
    """`host` (an address literal) as the numbers WIT carries."""
    if family == AF_INET:
        return tuple(_socket.inet_pton(AF_INET, host))
    raw = _socket.inet_pton(AF_INET6, host)
    return tuple(int.from_bytes(raw[i:i + 2], "big") for i in range(0, 16, 2))


def _ip_text(address):
    """A WIT `ip-address` tuple as text."""
    if len(address) == 4:
        return _socket.inet_ntop(AF_INET, bytes(address))
    return _socket.inet_ntop(AF_INET6, b"".join(n.to_bytes(2, "big") for n in address))


def _to_wit(family, host, port, flowinfo=0, scope_id=0):
    if family == AF_INET:
        return network.IpSocketAddress_Ipv4(network.Ipv4SocketAddress(port, _ip_tuple(AF_INET, host)))
    return network.IpSocketAddress_Ipv6(network.Ipv6SocketAddress(
        port, flowinfo, _ip_tuple(AF_INET6, host), scope_id))


def _from_wit(address):
    a = address.value
    if len(a.address) == 4:
        return (_ip_text(a.address), a.port)
    return (_ip_text(a.address), a.port, a.flow_info, a.scope_id)


def _resolve_one(family, address):
    """A socket address given to bind or connect: (host, port[, ...])."""
    if not isinstance(address, tuple) or len(address) < 2:
        raise TypeError(f"{'AF_INET' if family == AF_INET else 'AF_INET6'} address must be a tuple "
                        f"(host, port)")
    host, port = address[0], address[1]
    if not isinstance(port, int) or not 0 <= port <= 65535:
        raise OverflowError("bind(): port must be 0-65535.")
    if host in ("", None):
        host = "0.0.0.0" if family == AF_INET else "::"
    elif host == "<broadcast>":
        host = "255.255.255.255"
    else:
        infos = getaddrinfo(host, port, family, SOCK_STREAM)
        host = infos[0][4][0]
    rest = address[2:4] if family == AF_INET6 else ()
    return _to_wit(family, host, port, *rest)


# Socket ----------------------------------------------------------------

class socket:
    """A TCP socket of the run's loopback network (see the module)."""

    __slots__ = ("family", "type", "proto", "_wasi", "_in", "_out", "_timeout", "_fd",
                 "_bound", "_listening", "_rbuf", "_options", "_io_refs", "_closed",
                 "_shut_wr", "__weakref__")

    def __init__(self, family=-1, type=-1, proto=-1, fileno=None):
        if fileno is not None:
            raise OSError(errno.EBADF, "socket(fileno=...) is not supported in a run")
        family = AF_INET if family == -1 else family
        type = SOCK_STREAM if type == -1 else type
        if family not in (AF_INET, AF_INET6):
            raise OSError(errno.EAFNOSUPPORT, "Address family not supported by protocol")
        if type & ~_SOCK_FLAGS != SOCK_STREAM:
            raise OSError(errno.EPROTONOSUPPORT,
                          "Protocol not supported: only TCP (SOCK_STREAM) sockets exist in a run")
        self.family = _socket.AddressFamily(family)
        self.type = _socket.SocketKind(SOCK_STREAM)
        self.proto = 0 if proto == -1 else proto
        self._wasi = None
        self._in = self._out = None
        nonblock = getattr(_socket, "SOCK_NONBLOCK", 0)
        self._timeout = 0.0 if nonblock and type & nonblock else _socket.getdefaulttimeout()
        self._bound = self._listening = self._closed = self._shut_wr = False
        self._rbuf = b""
        self._options = {}
        self._io_refs = 0
        global _next_fd
        self._fd = _next_fd
        _next_fd += 1
        _by_fd[self._fd] = self

    def _socket(self):
        if self._fd < 0:
            raise OSError(errno.EBADF, "Bad file descriptor")
        if self._wasi is None:
            fam = network.IpAddressFamily
            fam = fam.IPV4 if self.family == AF_INET else fam.IPV6
            self._wasi = _call(tcp_create_socket.create_tcp_socket, fam)
        return self._wasi

    @classmethod
    def _accepted(cls, listener, parts):
        sock = cls(listener.family, SOCK_STREAM)
        sock._wasi, sock._in, sock._out = parts
        sock._bound = True
        sock._timeout = _socket.getdefaulttimeout()
        return sock

    def __repr__(self):
        state = "closed" if self._fd < 0 else f"fd={self._fd}"
        return (f"<socket.socket {state}, family={self.family!s}, type={self.type!s}, "
                f"proto={self.proto}>")

    def __enter__(self):
        return self

    def __exit__(self, *args):
        self.close()

    def __getstate__(self):
        raise TypeError(f"cannot pickle {self.__class__.__name__!r} object")

    # Descriptors and modes

    def fileno(self):
        return self._fd

    def settimeout(self, value):
        if value is not None:
            value = float(value)
            if value < 0:
                raise ValueError("Timeout value out of range")
        self._timeout = value

    def gettimeout(self):
        return self._timeout

    def setblocking(self, flag):
        self._timeout = None if flag else 0.0

    def getblocking(self):
        return self._timeout != 0.0

    def setsockopt(self, level, option, value, optlen=None):
        # Accepted and remembered: nothing here depends on them.
        self._options[(level, option)] = value

    def getsockopt(self, level, option, buflen=None):
        if (level, option) == (_socket.SOL_SOCKET, _socket.SO_ERROR):
            return 0
        if (level, option) == (_socket.SOL_SOCKET, _socket.SO_TYPE):
            return SOCK_STREAM
        if (level, option) == (_socket.SOL_SOCKET, getattr(_socket, "SO_ACCEPTCONN", -1)):
            return int(self._listening)
        value = self._options.get((level, option), 0)
        if buflen is not None and isinstance(value, int):
            return value.to_bytes(buflen if buflen < 8 else 4, "little")
        return value

    # Addresses

    def bind(self, address):
        wasi = self._socket()
        if self._bound:
            raise OSError(errno.EINVAL, "Invalid argument")
        _call(wasi.start_bind, _net(), _resolve_one(self.family, address))
        _call(wasi.finish_bind)
        self._bound = True

    def getsockname(self):
        if not self._bound:
            return ("0.0.0.0", 0) if self.family == AF_INET else ("::", 0, 0, 0)
        return _from_wit(_call(self._socket().local_address))

    def getpeername(self):
        if self._in is None:
            raise OSError(errno.ENOTCONN, "Transport endpoint is not connected")
        return _from_wit(_call(self._socket().remote_address))

    # Server side

    def listen(self, backlog=None):
        wasi = self._socket()
        if not self._bound:
            # As Linux does: an ephemeral port on every address.
            self.bind(("", 0))
        if backlog is not None:
            _call(wasi.set_listen_backlog_size, max(1, min(int(backlog), 4096)))
        if not self._listening:
            _call(wasi.start_listen)
            _call(wasi.finish_listen)
            self._listening = True

    def accept(self):
        wasi = self._socket()
        if not self._listening:
            raise OSError(errno.EINVAL, "Invalid argument")
        while True:
            try:
                parts = wasi.accept()
                break
            except Err as e:
                if getattr(e.value, "name", "") != "WOULD_BLOCK":
                    raise _os_error(e.value) from None
            self._block_until(wasi.subscribe())
        sock = socket._accepted(self, parts)
        return sock, sock.getpeername()

    def _block_until(self, pollable):
        """Waits for `pollable` under the socket's timeout."""
        if self._timeout == 0.0:
            _drop(pollable)
            raise BlockingIOError(errno.EAGAIN, "Resource temporarily unavailable")
        if not _wait(pollable, self._timeout):
            raise TimeoutError("timed out")

    # Client side

    def connect(self, address):
        wasi = self._socket()
        if self._in is not None:
            raise OSError(errno.EISCONN, "Transport endpoint is already connected")
        if self._listening:
            raise OSError(errno.EINVAL, "Invalid argument")
        _call(wasi.start_connect, _net(), _resolve_one(self.family, address))
        while True:
            # The run's loopback connects at once; waiting is for a host
            # that would not.
            try:
                self._in, self._out = wasi.finish_connect()
                break
            except Err as e:
                if getattr(e.value, "name", "") != "WOULD_BLOCK":
                    raise _os_error(e.value) from None
            _wait(wasi.subscribe(), None)
        self._bound = True

    def connect_ex(self, address):
        try:
            self.connect(address)
        except OSError as e:
            return e.errno or errno.EIO
        return 0

    # Data

    def _stream_in(self):
        if self._fd < 0:
            raise OSError(errno.EBADF, "Bad file descriptor")
        if self._in is None:
            raise OSError(errno.ENOTCONN, "Transport endpoint is not connected")
        return self._in

    def recv(self, bufsize, flags=0):
        if bufsize < 0:
            raise ValueError("negative buffersize in recv")
        stream = self._stream_in()
        peek = flags & _socket.MSG_PEEK
        while not self._rbuf:
            if bufsize == 0:
                return b""
            try:
                self._rbuf = stream.read(max(bufsize, 65536))
            except Err:
                return b""  # closed: end of stream
            if self._rbuf:
                break
            if flags & getattr(_socket, "MSG_DONTWAIT", 0):
                raise BlockingIOError(errno.EAGAIN, "Resource temporarily unavailable")
            self._block_until(stream.subscribe())
        data = self._rbuf[:bufsize]
        if not peek:
            self._rbuf = self._rbuf[bufsize:]
        return data

    def recv_into(self, buffer, nbytes=0, flags=0):
        view = memoryview(buffer).cast("B")
        nbytes = nbytes or len(view)
        data = self.recv(nbytes, flags)
        view[:len(data)] = data
        return len(data)

    def recvfrom(self, bufsize, flags=0):
        return self.recv(bufsize, flags), None

    def recvfrom_into(self, buffer, nbytes=0, flags=0):
        return self.recv_into(buffer, nbytes, flags), None

    def _stream_out(self):
        if self._fd < 0:
            raise OSError(errno.EBADF, "Bad file descriptor")
        if self._out is None:
            raise OSError(errno.ENOTCONN if not self._bound else errno.EPIPE,
                          "Transport endpoint is not connected")
        if self._shut_wr:
            raise BrokenPipeError(errno.EPIPE, "Broken pipe")
        return self._out

    def send(self, data, flags=0):
        stream = self._stream_out()
        data = memoryview(data).cast("B")
        while True:
            try:
                room = stream.check_write()
            except Err:
                raise BrokenPipeError(errno.EPIPE, "Broken pipe") from None
            if room or not data:
                break
            self._block_until(stream.subscribe())
        n = min(room, len(data))
        try:
            stream.write(bytes(data[:n]))
        except Err:
            raise BrokenPipeError(errno.EPIPE, "Broken pipe") from None
        return n

    def sendall(self, data, flags=0):
        data = memoryview(data).cast("B")
        while data:
            data = data[self.send(data, flags):]

    def sendto(self, data, flags_or_addr, addr=None):
        return self.send(data)

    def shutdown(self, how):
        if self._in is None:
            raise OSError(errno.ENOTCONN, "Transport endpoint is not connected")
        kind = {_socket.SHUT_RD: tcp.ShutdownType.RECEIVE, _socket.SHUT_WR: tcp.ShutdownType.SEND,
                _socket.SHUT_RDWR: tcp.ShutdownType.BOTH}.get(how)
        if kind is None:
            raise OSError(errno.EINVAL, "Invalid argument")
        _call(self._socket().shutdown, kind)
        if how != _socket.SHUT_RD:
            self._shut_wr = True

    # Files and closing (as CPython's socket: a makefile() keeps it open)

    makefile = _plain_makefile

    def _decref_socketios(self):
        if self._io_refs > 0:
            self._io_refs -= 1
        if self._closed:
            self.close()

    def close(self):
        self._closed = True
        if self._io_refs <= 0:
            self._real_close()

    def _real_close(self):
        if self._fd < 0:
            return
        _by_fd.pop(self._fd, None)
        self._fd = -1
        _drop(self._in)
        _drop(self._out)
        _drop(self._wasi)
        self._in = self._out = self._wasi = None

    def detach(self):
        raise OSError(errno.EOPNOTSUPP, "detach() is not supported in a run")

    def dup(self):
        raise OSError(errno.EOPNOTSUPP, "dup() is not supported in a run")

    # Readiness, for select and poll

    def _read_pollable(self):
        """None when readable now, else a pollable for when it is."""
        if self._fd < 0 or self._rbuf:
            return None
        if self._listening:
            return self._wasi.subscribe()
        if self._in is not None:
            return self._in.subscribe()
        return None  # unconnected: Linux reports it readable (hung up)

    def _write_pollable(self):
        if self._fd < 0 or self._out is None or self._shut_wr:
            return None if not self._listening else _never()
        return self._out.subscribe()


SocketType = socket


def _never():
    """A pollable that is never ready (a listener is never writable)."""
    return monotonic_clock.subscribe_duration(1 << 62)


# Names -----------------------------------------------------------------

def _port_of(port):
    if port is None:
        return 0
    if isinstance(port, bytes):
        port = port.decode()
    if isinstance(port, str):
        if port.isdigit():
            return int(port)
        known = {"http": 80, "https": 443, "ftp": 21, "ssh": 22, "smtp": 25, "domain": 53}
        if port in known:
            return known[port]
        raise _socket.gaierror(_socket.EAI_SERVICE, "Servname not supported for ai_socktype")
    if isinstance(port, int):
        return port
    raise OSError("Int or String expected")


def getaddrinfo(host, port, family=0, type=0, proto=0, flags=0):
    port = _port_of(port)
    if isinstance(host, bytes):
        host = host.decode("idna")
    if host is None:
        if flags & _socket.AI_PASSIVE:
            ips = ["0.0.0.0", "::"]
        else:
            ips = ["127.0.0.1", "::1"]
    else:
        ips = _lookup(host)
    out = []
    for ip in ips:
        fam = AF_INET6 if ":" in ip else AF_INET
        if family not in (0, fam):
            continue
        kinds = [type] if type else [SOCK_STREAM, _socket.SOCK_DGRAM]
        for kind in kinds:
            proto_n = proto or (_socket.IPPROTO_TCP if kind == SOCK_STREAM else _socket.IPPROTO_UDP)
            addr = (ip, port) if fam == AF_INET else (ip, port, 0, 0)
            out.append((_socket.AddressFamily(fam), _socket.SocketKind(kind), proto_n, "", addr))
    if not out:
        raise _socket.gaierror(_socket.EAI_ADDRFAMILY if host else _socket.EAI_NONAME,
                               "Address family for hostname not supported")
    return out


def _lookup(host):
    """`host`'s addresses, from the host's `ip-name-lookup` (the run's
    names: `localhost` and address literals)."""
    for fam in (AF_INET, AF_INET6):
        try:
            _socket.inet_pton(fam, host)
            return [host]
        except OSError:
            pass
    stream = _call(ip_name_lookup.resolve_addresses, _net(), host.rstrip("."))
    ips = []
    try:
        while True:
            got = _call(stream.resolve_next_address)
            if got is None:
                break
            ips.append(_ip_text(got.value))
    finally:
        _drop(stream)
    return ips


def gethostname():
    return "localhost"


def gethostbyname(name):
    return getaddrinfo(name, None, AF_INET, SOCK_STREAM)[0][4][0]


def gethostbyname_ex(name):
    ips = [i[4][0] for i in getaddrinfo(name, None, AF_INET, SOCK_STREAM)]
    return (name, [], ips)


def gethostbyaddr(ip):
    if ip in ("localhost", "127.0.0.1", "::1") or ip.startswith("127."):
        return ("localhost", [], [ip if ip != "localhost" else "127.0.0.1"])
    raise _socket.herror(1, "Unknown host")


def socketpair(family=AF_INET, type=SOCK_STREAM, proto=0):
    """A connected pair, through a listener on the loopback (as CPython
    builds one where the OS has no socketpair)."""
    if family not in (AF_INET, AF_INET6, getattr(_socket, "AF_UNIX", AF_INET)):
        raise ValueError("Only AF_INET and AF_INET6 socket address families are supported")
    if family != AF_INET6:
        family = AF_INET
    with socket(family, type, proto) as server:
        server.bind(("127.0.0.1" if family == AF_INET else "::1", 0))
        server.listen()
        a = socket(family, type, proto)
        a.connect(server.getsockname())
        b, _ = server.accept()
    return a, b


# select, poll ----------------------------------------------------------

def _ours(obj):
    fd = obj if isinstance(obj, int) else obj.fileno()
    return _by_fd.get(fd)


def _wait_ready(wants, timeout, others=None):
    """`wants`: (key, socket, is_write) triples. Returns the keys ready,
    waiting at most `timeout` seconds (None: until one is). `others` is a
    function checking real descriptors at once; while there are any, the
    wait is cut into short slices so they are looked at too."""
    clock = monotonic_clock
    _children_run()
    while True:
        ready, pollables, keys = [], [], []
        try:
            for key, sock, write in wants:
                p = sock._write_pollable() if write else sock._read_pollable()
                if p is None:
                    ready.append(key)
                else:
                    pollables.append(p)
                    keys.append(key)
            found = others() if others else []
            if ready or found or timeout == 0:
                # Those ready now, without waiting.
                if pollables:
                    zero = clock.subscribe_duration(0)
                    try:
                        hit = poll.poll(pollables + [zero])
                    finally:
                        _drop(zero)
                    ready += [keys[i] for i in hit if i < len(keys)]
                return ready, found
            wait = timeout
            if others is not None:
                wait = 0.01 if timeout is None else min(timeout, 0.01)
            timer = None
            if wait is not None:
                timer = clock.subscribe_duration(max(0, int(wait * 1e9)))
            try:
                hit = poll.poll(pollables + ([timer] if timer else []))
            finally:
                _drop(timer)
            ready += [keys[i] for i in hit if i < len(keys)]
            if ready:
                return ready, (others() if others else [])
            if timeout is not None and wait is not None:
                timeout -= wait
                if timeout <= 0:
                    return [], (others() if others else [])
        finally:
            for p in pollables:
                _drop(p)


def select(rlist, wlist, xlist, timeout=None):
    rlist, wlist, xlist = list(rlist), list(wlist), list(xlist)
    if timeout is not None:
        timeout = float(timeout)
        if timeout < 0:
            raise ValueError("timeout must be non-negative")
    wants = [(("r", i), _ours(o), False) for i, o in enumerate(rlist) if _ours(o)]
    wants += [(("w", i), _ours(o), True) for i, o in enumerate(wlist) if _ours(o)]
    if not wants:
        return _plain_select(rlist, wlist, xlist, timeout)
    real_r = [o for o in rlist if not _ours(o)]
    real_w = [o for o in wlist if not _ours(o)]
    real_x = [o for o in xlist if not _ours(o)]
    others = None
    if real_r or real_w or real_x:
        def others():
            r, w, x = _plain_select(real_r, real_w, real_x, 0)
            return [("R", o) for o in r] + [("W", o) for o in w] + [("X", o) for o in x]
    keys, found = _wait_ready(wants, timeout, others)
    r = [rlist[i] for k, i in sorted(keys) if k == "r"]
    w = [wlist[i] for k, i in sorted(keys) if k == "w"]
    r += [o for k, o in found if k == "R"]
    w += [o for k, o in found if k == "W"]
    return r, w, [o for k, o in found if k == "X"]


class Poll:
    """`select.poll` over our sockets (and real descriptors, through
    the original)."""

    def __init__(self):
        self._fds = {}
        self._plain = _plain_poll()

    def register(self, fd, eventmask=_POLLIN | _select.POLLPRI | _POLLOUT):
        fd = fd if isinstance(fd, int) else fd.fileno()
        self._fds[fd] = eventmask
        if fd not in _by_fd:
            self._plain.register(fd, eventmask)

    def modify(self, fd, eventmask):
        fd = fd if isinstance(fd, int) else fd.fileno()
        if fd not in self._fds:
            raise FileNotFoundError(errno.ENOENT, "No such file or directory")
        self.register(fd, eventmask)

    def unregister(self, fd):
        fd = fd if isinstance(fd, int) else fd.fileno()
        del self._fds[fd]
        if fd not in _by_fd:
            self._plain.unregister(fd)

    def poll(self, timeout=None):
        if timeout is not None:
            timeout = float(timeout) / 1000
            if timeout < 0:
                timeout = None
        wants, real = [], False
        for fd, mask in self._fds.items():
            sock = _by_fd.get(fd)
            if sock is None:
                real = True
                continue
            if mask & _POLLIN:
                wants.append(((fd, _POLLIN), sock, False))
            if mask & _POLLOUT:
                wants.append(((fd, _POLLOUT), sock, True))
        if not any(fd in _by_fd for fd in self._fds):
            return self._plain.poll(None if timeout is None else timeout * 1000)
        others = (lambda: self._plain.poll(0)) if real else None
        keys, found = _wait_ready(wants, timeout, others)
        events = {}
        for fd, ev in keys:
            events[fd] = events.get(fd, 0) | ev
        for fd, ev in found:
            events[fd] = events.get(fd, 0) | ev
        return list(events.items())


# socketserver without threads ------------------------------------------

def _process_request_inline(self, request, client_address):
    """`ThreadingMixIn` here: no threads in a WebAssembly instance, so
    each request is served to its end before the next is accepted."""
    self.process_request_thread(request, client_address)


def install():
    _socket.socket = socket
    _socket.SocketType = socket
    _socket.getaddrinfo = getaddrinfo
    _socket.gethostname = gethostname
    _socket.gethostbyname = gethostbyname
    _socket.gethostbyname_ex = gethostbyname_ex
    _socket.gethostbyaddr = gethostbyaddr
    _socket.socketpair = socketpair
    _select.select = select
    _select.poll = Poll
    selectors.PollSelector._selector_cls = Poll
    socketserver.ThreadingMixIn.process_request = _process_request_inline
