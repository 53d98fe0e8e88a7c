"""`http.client` (and so `urllib.request`) over the host's HTTP client.

This CPython is built for WASI preview 1, which has no `socket()` or
`connect()`, and without `ssl`. The host has an HTTP client of its own,
`wasi:http/outgoing-handler`, which applies the workspace's allow-list
(`computer net allow HOST`), does TLS and writes an audit row for each
request. So an `HTTPConnection` here does not open a socket: `connect()`
gives it a stand-in that collects the HTTP/1.1 request http.client writes,
sends it through the host when the request is complete, and hands
http.client the response as the bytes of an HTTP/1.1 response, read from
the host's body stream as http.client reads. `HTTPSConnection` is the same
with the `https` scheme; it exists here although `ssl` does not.

What differs from a socket: a connection carries one request (the response
says `Connection: close`, so http.client opens a new one for the next),
and the host decides what reaches the network, with its own errors: a host
not on the allow-list is `ConnectionRefusedError` naming the command that
allows it. Libraries that make their own sockets (urllib3, so `requests`)
still cannot connect outside the run. A connection to the run's own
loopback (127.0.0.0/8, ::1, localhost) is first a real socket of the
run's network (`loopback_socket.py`), so a server the run started
answers it; only when nothing in the run listens there does it go to
the host (a development server on the host's loopback, reachable when
the allow-list names it)."""

import errno
import http.client
import io
import ipaddress
import socket

from componentize_py_types import Err
from wit_world.imports import outgoing_handler, streams
from wit_world.imports import types as wasi_http

# Headers the host's client sets itself or refuses from a guest.
_HOP_BY_HOP = {
    "connection", "keep-alive", "proxy-connection", "transfer-encoding",
    "upgrade", "host", "te", "trailer", "http2-settings",
}
_READ = 64 << 10
_METHODS = {
    "GET": wasi_http.Method_Get, "HEAD": wasi_http.Method_Head,
    "POST": wasi_http.Method_Post, "PUT": wasi_http.Method_Put,
    "DELETE": wasi_http.Method_Delete, "CONNECT": wasi_http.Method_Connect,
    "OPTIONS": wasi_http.Method_Options, "TRACE": wasi_http.Method_Trace,
    "PATCH": wasi_http.Method_Patch,
}


def _error(code, where):
    """The OSError a socket program would have seen for a `wasi:http` error."""
    name = type(code).__name__.removeprefix("ErrorCode_")
    if name == "HttpRequestDenied":
        return ConnectionRefusedError(
            errno.ECONNREFUSED,
            f"{where}: not on the workspace's network allow-list "
            f"(allow it with: computer net allow {where})")
    if name in ("DnsError", "DnsTimeout"):
        return socket.gaierror(-2, f"{where}: name or service not known")
    if name == "ConnectionRefused":
        return ConnectionRefusedError(errno.ECONNREFUSED, f"{where}: connection refused")
    if name in ("ConnectionTimeout", "ConnectionReadTimeout", "HttpResponseTimeout"):
        return TimeoutError(f"{where}: timed out")
    detail = getattr(code, "value", None)
    return OSError(f"{where}: {name}" + (f" ({detail})" if detail else ""))


def _parse_request(raw):
    """(method, target, headers, body) of the HTTP/1.1 request http.client wrote."""
    head, _, body = raw.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    method, target, _version = lines[0].split(" ", 2)
    headers = []
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers.append((name.strip(), value.strip()))
    if any(n.lower() == "transfer-encoding" and "chunked" in v.lower() for n, v in headers):
        body = _unchunk(body)
    return method, target, headers, body


def _unchunk(data):
    out = bytearray()
    while data:
        size_line, _, data = data.partition(b"\r\n")
        size = int(size_line.split(b";")[0] or b"0", 16)
        if size == 0:
            break
        out += data[:size]
        data = data[size + 2:]
    return bytes(out)


class _Response(io.RawIOBase):
    """The response as HTTP/1.1 bytes: a synthesized head, then the body
    from the host's stream."""

    def __init__(self, head, body, stream):
        self._head = head
        self._body = body
        self._stream = stream

    def readable(self):
        return True

    def readinto(self, buf):
        if self._head:
            n = min(len(buf), len(self._head))
            buf[:n] = self._head[:n]
            self._head = self._head[n:]
            return n
        if self._stream is None:
            return 0
        try:
            chunk = self._stream.blocking_read(min(len(buf), _READ))
        except Err as e:
            self._finish()
            if isinstance(e.value, streams.StreamError_Closed):
                return 0
            raise OSError(f"reading the response: {e.value}") from None
        buf[: len(chunk)] = chunk
        return len(chunk)

    def _finish(self):
        # The stream goes before the body it belongs to.
        self._stream = None
        self._body = None

    def close(self):
        self._finish()
        super().close()


class _HostSocket:
    """What `HTTPConnection.sock` is here: it collects the request and
    answers with the host's response."""

    def __init__(self, conn, scheme):
        self._conn = conn
        self._scheme = scheme
        self._sent = bytearray()
        self._response = None

    # http.client writes the request with sendall.
    def sendall(self, data):
        if self._response is not None:
            raise OSError("this connection has sent its request already")
        self._sent += bytes(data)

    send = sendall

    def makefile(self, mode="rb", buffering=None):
        self.exchange()
        return io.BufferedReader(self._response, _READ)

    def settimeout(self, timeout):
        self._conn.timeout = timeout

    def setsockopt(self, *args):
        pass

    def close(self):
        # As a socket's: the file `makefile` gave stays readable (http.client
        # closes the connection as soon as it has the head of a response
        # that ends the connection).
        pass

    def exchange(self):
        """Sends what was collected through the host, once."""
        if self._response is not None:
            return
        conn = self._conn
        where = conn.host if conn.port in (None, conn.default_port) else f"{conn.host}:{conn.port}"
        method, target, headers, body = _parse_request(bytes(self._sent))
        fields = wasi_http.Fields.from_list(
            [(n.lower(), v.encode("latin-1")) for n, v in headers if n.lower() not in _HOP_BY_HOP])
        request = wasi_http.OutgoingRequest(fields)
        request.set_method(_METHODS[method]() if method in _METHODS else wasi_http.Method_Other(method))
        request.set_scheme(wasi_http.Scheme_Https() if self._scheme == "https" else wasi_http.Scheme_Http())
        request.set_authority(where)
        request.set_path_with_query(target)
        outgoing = request.body()
        options = wasi_http.RequestOptions()
        if isinstance(conn.timeout, (int, float)):
            nanos = int(conn.timeout * 1e9)
            options.set_connect_timeout(nanos)
            options.set_first_byte_timeout(nanos)
            options.set_between_bytes_timeout(nanos)
        try:
            pending = outgoing_handler.handle(request, options)
        except Err as e:
            raise _error(e.value, where) from None
        try:
            out = outgoing.write()
            for at in range(0, len(body), 4096):
                out.blocking_write_and_flush(body[at:at + 4096])
            del out
        except Err:
            pass  # the response says why the request failed
        try:
            wasi_http.OutgoingBody.finish(outgoing, None)
        except Err:
            pass
        pending.subscribe().block()
        # Optional[Result[Result[IncomingResponse, ErrorCode], None]]:
        # `Ok`/`Err` wrappers, not exceptions, inside an option.
        got = pending.get()
        if got is None or isinstance(got, Err):
            raise OSError(f"{where}: no response")
        if isinstance(got.value, Err):
            raise _error(got.value.value, where)
        self._response = self._response_of(got.value.value)

    @staticmethod
    def _response_of(response):
        status = response.status()
        lines = [f"HTTP/1.1 {status} {http.client.responses.get(status, '')}"]
        for name, value in response.headers().entries():
            if name.lower() not in ("transfer-encoding", "connection"):
                lines.append(f"{name}: {value.decode('latin-1')}")
        lines.append("connection: close")
        head = ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")
        body = response.consume()
        return _Response(head, body, body.stream())


_plain_connect = http.client.HTTPConnection.connect


def _is_loopback(host):
    """Whether `host` is the run's own loopback, served by its sockets
    (`loopback_socket.py`) rather than the host's HTTP client."""
    host = host.strip("[]").rstrip(".").lower()
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _connect(self):
    scheme = getattr(self, "_computer_scheme", "http")
    if scheme == "http" and _is_loopback(self.host):
        # A server of the run's own first; with none listening there, a
        # server on the host's loopback if the allow-list names it.
        try:
            return _plain_connect(self)
        except ConnectionRefusedError:
            pass
    self.sock = _HostSocket(self, scheme)


_plain_request = http.client.HTTPConnection.request


def _request(self, method, url, body=None, headers={}, *, encode_chunked=False):  # noqa: B006
    # As http.client does, then send at once: a failure then surfaces from
    # `request()`, where urllib turns it into a URLError.
    _plain_request(self, method, url, body, headers, encode_chunked=encode_chunked)
    if isinstance(self.sock, _HostSocket):
        self.sock.exchange()


class HTTPSConnection(http.client.HTTPConnection):
    """HTTP over TLS, the TLS being the host's."""

    default_port = http.client.HTTPS_PORT
    _computer_scheme = "https"

    def __init__(self, host, port=None, *, timeout=socket._GLOBAL_DEFAULT_TIMEOUT,
                 source_address=None, context=None, blocksize=8192):
        super().__init__(host, port, timeout, source_address, blocksize)
        self._context = context


def install():
    http.client.HTTPConnection.connect = _connect
    http.client.HTTPConnection.request = _request
    if not hasattr(http.client, "HTTPSConnection"):
        http.client.HTTPSConnection = HTTPSConnection
        http.client.__all__.append("HTTPSConnection")
        # urllib.request asks for a context to give HTTPSConnection; the
        # host's TLS needs none.
        http.client._create_https_context = lambda http_version: None
