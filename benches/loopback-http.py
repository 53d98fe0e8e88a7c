"""A loopback HTTP request, server and client in one Python process:
http.server's handler answers http.client's GET of a small file, one
connection per request (HTTP/1.0, as http.server speaks by default).

    python3 benches/loopback-http.py [REQUESTS]

Prints the mean time of one request in microseconds, timed inside the
process (interpreter start is not counted). `benches/loopback-http.sh`
runs it natively and in a run and prints both."""

import http.client
import http.server
import sys
import time

N = int(sys.argv[1]) if len(sys.argv) > 1 else 200
BODY = b"x" * 1024


class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(200)
        self.send_header("Content-Length", str(len(BODY)))
        self.end_headers()
        self.wfile.write(BODY)

    def log_message(self, *args):
        pass


server = http.server.HTTPServer(("127.0.0.1", 0), Handler)
port = server.server_address[1]


def one():
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.request("GET", "/file")
    # The connect is queued in the listen backlog, so the one process can
    # serve the request before it reads the response.
    server.handle_request()
    response = conn.getresponse()
    assert response.read() == BODY
    conn.close()


for _ in range(10):
    one()
start = time.perf_counter()
for _ in range(N):
    one()
elapsed = time.perf_counter() - start
print(f"{elapsed / N * 1e6:.0f}")
server.server_close()
