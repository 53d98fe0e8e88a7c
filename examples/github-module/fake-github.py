#!/usr/bin/env python3
"""A stand-in for the GitHub API on 127.0.0.1, for trying ws:github locally.

Answers POST /repos/OWNER/NAME/issues/N/comments with 201 and an html_url,
and prints each request's Idempotency-Key and body. A repeated key gets the
first answer again (as an idempotent API would) and is flagged.

    python3 fake-github.py 8765
"""
import http.server
import json
import sys

seen = {}


class Handler(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        length = int(self.headers.get("content-length") or 0)
        body = self.rfile.read(length).decode("utf-8", "replace")
        key = self.headers.get("idempotency-key")
        repeated = key in seen
        if not repeated:
            number = len(seen) + 1
            path = self.path.removeprefix("/repos").removesuffix("/comments")
            seen[key] = {"id": number, "html_url": f"https://github.com{path}#issuecomment-{number}"}
        print(f"POST {self.path} idempotency-key={key} body={body}"
              + ("  (repeated key: not posted again)" if repeated else ""), flush=True)
        out = json.dumps(seen[key]).encode()
        self.send_response(200 if repeated else 201)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(out)))
        self.end_headers()
        self.wfile.write(out)

    def log_message(self, *args):
        pass


port = int(sys.argv[1]) if len(sys.argv) > 1 else 8765
server = http.server.HTTPServer(("127.0.0.1", port), Handler)
# Printed once the port is bound, so a script can wait for this line.
print(f"fake GitHub listening on http://127.0.0.1:{port}", flush=True)
server.serve_forever()
