"""Writes openapi.json (OpenAPI 3.1) beside this file: the description of
`computer serve`'s API. Edit this, then run

    python3 host/server/src/openapi/generate.py > host/server/src/openapi/openapi.json

The `serve::openapi` integration test checks real responses against it.
"""
import json
S = lambda name: {"$ref": f"#/components/schemas/{name}"}
INT = {"type": "integer"}
STR = {"type": "string"}
BOOL = {"type": "boolean"}
NUM = {"type": "number"}
def obj(props, required=None, extra=True):
    o = {"type": "object", "properties": props, "required": required if required is not None else list(props)}
    if not extra:
        o["additionalProperties"] = False
    return o
def nullable(t):
    t = dict(t)
    if "type" in t:
        t["type"] = [t["type"], "null"]
        return t
    return {"anyOf": [t, {"type": "null"}]}
def arr(items): return {"type": "array", "items": items}

schemas = {
 "Error": obj({"error": obj({"code": STR, "message": STR})}),
 "Workspace": obj({"id": STR, "file_bytes": INT, "open": BOOL, "runs_live": INT, "pending_approvals": INT}, ["id", "file_bytes", "open", "runs_live"]),
 "WorkspaceList": obj({"workspaces": arr(S("Workspace"))}),
 "Deleted": obj({"deleted": BOOL}, ["deleted"]),
 "Stat": obj({"name": STR, "kind": {"type": "string", "enum": ["file", "directory", "symlink"]}, "mode": INT, "size": INT, "mtime_ns": INT, "ino": INT, "nlink": INT, "atime_ns": INT, "path": STR}, ["name", "kind", "mode", "size", "mtime_ns", "ino", "nlink", "atime_ns"]),
 "ReadResult": {"oneOf": [obj({"path": STR, "size": INT, "content": STR}), obj({"path": STR, "size": INT, "content_base64": STR})]},
 "WriteResult": obj({"path": STR, "bytes_written": INT}),
 "EditResult": obj({"path": STR, "applied": INT, "fuzzy": INT, "diff": STR}, ["path", "applied", "diff"]),
 "Listing": obj({"path": STR, "entries": arr(S("Stat"))}),
 "FindPage": obj({"entries": arr(obj({"path": STR, "kind": STR})), "next_offset": nullable(INT)}),
 "GrepPage": obj({"matches": arr(obj({"path": STR, "line_number": INT, "line": STR, "before": arr(STR), "after": arr(STR)}, ["path", "line_number", "line"])), "next_offset": nullable(INT), "binary_files_skipped": INT}),
 "PathResult": obj({"path": STR}),
 "MoveResult": obj({"from": STR, "to": STR}),
 "RunStatus": {"type": "string", "enum": ["running", "waiting", "completed", "failed", "cancelled", "timed_out"]},
 "Interrupt": obj({"run_id": STR, "call_id": STR, "index": INT, "module": STR, "function": STR, "payload": {"type": "string", "description": "JSON text: what the module asks about"}, "created_ns": INT, "answer": nullable(STR)}, ["run_id", "call_id", "module", "function", "payload", "created_ns"]),
 "RunResult": obj({"run_id": STR, "backend": STR, "status": S("RunStatus"), "exit_code": INT, "stdout": STR, "stderr": STR, "value": {}, "error": nullable(STR), "duration_ms": NUM, "pending": arr(S("Interrupt"))}, ["run_id", "backend", "status", "exit_code", "stdout", "stderr", "duration_ms"]),
 "Run": obj({"id": STR, "backend": STR, "status": S("RunStatus"), "source": STR, "options": {"type": "object"}, "started_ns": INT, "ended_ns": nullable(INT), "exit_code": nullable(INT), "value": nullable(STR), "error": nullable(STR), "live": BOOL, "stdout": STR, "stderr": STR}, ["id", "backend", "status", "source", "options", "started_ns", "ended_ns", "exit_code"]),
 "RunList": obj({"runs": arr(S("Run"))}),
 "Cancelled": obj({"run_id": STR, "cancelled": BOOL}),
 "Approvals": obj({"pending": arr(S("Interrupt")), "total": INT}),
 "ApprovalsOverview": obj({"workspaces": arr(obj({"workspace": STR, "pending": INT}))}),
 "Responded": obj({"run_id": STR, "call_id": STR, "resumed": BOOL}),
 "AuditRecord": obj({"id": INT, "time_ns": INT, "actor": STR, "operation": STR, "target": STR, "args": nullable(STR), "outcome": STR, "error": nullable(STR), "duration_ns": INT}),
 "AuditPage": obj({"audit": arr(S("AuditRecord")), "next_offset": nullable(INT)}),
 "Snapshot": obj({"name": STR, "message": STR, "actor": STR, "created_ns": INT, "rev": INT, "quota_bytes": INT, "readonly_paths": arr(STR)}, ["name", "message", "created_ns", "rev"]),
 "SnapshotList": obj({"snapshots": arr(S("Snapshot"))}),
 "Fork": obj({"name": STR, "workspace": STR, "from_snapshot": nullable(STR), "created_ns": INT, "exists": BOOL}),
 "ForkList": obj({"forks": arr(S("Fork"))}),
 "Diff": obj({"from": STR, "to": STR, "files": arr(obj({"path": STR, "old_path": STR, "status": {"type": "string", "enum": ["added", "deleted", "modified", "renamed", "type_changed"]}, "content_changed": BOOL, "binary": BOOL, "patch": STR, "insertions": INT, "deletions": INT, "old_mode": STR, "new_mode": STR}, ["path", "status", "content_changed", "binary"]))}),
 "UndoReport": obj({"run": STR, "reverted": arr(STR), "conflicts": arr(STR)}, ["run", "reverted"]),
 "NetList": obj({"allow": arr(obj({"entry": STR, "added_ns": INT}, ["entry"]))}),
 "NetChange": obj({"entry": STR}, ["entry"]),
 "SecretList": obj({"secrets": arr(obj({"name": STR, "updated_ns": INT}, ["name"]))}),
 "SecretSet": obj({"name": STR}, ["name"]),
 "Policy": obj({"policy": nullable(STR)}),
 "Token": obj({"name": STR, "workspace": nullable(STR), "rights": STR, "created_ns": INT}),
 "TokenList": obj({"tokens": arr(S("Token"))}),
 "NewToken": obj({"name": STR, "workspace": nullable(STR), "rights": STR, "token": {"type": "string", "description": "the secret, shown this once"}}),
 "Requests": obj({"requests": arr(obj({"id": INT, "time_ns": INT, "token": STR, "method": STR, "path": STR, "status": INT, "duration_ns": INT}))}),
 "Health": obj({"status": {"type": "string", "enum": ["ok", "stopping"]}}),
 "Ok": {"type": "object"},
}

bodies = {
 "CreateWorkspace": obj({"id": {"type": "string", "pattern": "^[a-z0-9_][a-z0-9_-]{0,63}$"}}, extra=False),
 "Edit": obj({"path": STR, "edits": arr(obj({"old": STR, "new": STR}, extra=False))}, extra=False),
 "Rm": obj({"path": STR, "recursive": BOOL, "force": BOOL}, ["path"], extra=False),
 "Mkdir": obj({"path": STR, "parents": BOOL}, ["path"], extra=False),
 "Move": obj({"from": STR, "to": STR, "recursive": BOOL}, ["from", "to"], extra=False),
 "Exec": obj({"source": STR, "backend": STR, "cwd": STR, "env": {"type": "object", "additionalProperties": STR}, "stdin": STR, "input": {}, "timeout_ms": INT, "memory_mb": INT, "read_only": BOOL, "id": STR, "on_interrupt": {"type": "string", "enum": ["replay", "fail"]}, "stream": BOOL, "cancel_on_disconnect": BOOL}, ["source"], extra=False),
 "Respond": obj({"run_id": STR, "call_id": STR, "answer": {"description": "any JSON: approves, and is what the module call returns"}, "reject": {"type": "string", "description": "a reason: rejects"}}, ["run_id", "call_id"], extra=False),
 "NewSnapshot": obj({"name": STR, "message": STR}, [], extra=False),
 "NewFork": obj({"name": STR, "from_snapshot": STR}, ["name"], extra=False),
 "Undo": obj({"force": BOOL}, [], extra=False),
 "Host": obj({"host": STR}, extra=False),
 "CreateToken": obj({"name": STR, "workspace": STR, "rights": {"type": "string", "description": "read,exec,approve (comma-separated)"}}, ["name"], extra=False),
}

ERR = lambda d: {"description": d, "content": {"application/json": {"schema": S("Error")}}}
def resp(schema, code="200", desc="OK"):
    return {code: {"description": desc, "content": {"application/json": {"schema": S(schema)}}}}
STD_ERR = {"400": ERR("Bad input (EINVAL)"), "401": ERR("No valid token (EAUTH)"), "403": ERR("The token may not do this (EACCES), or a policy refuses it (EPERM, EROFS)"), "404": ERR("No such workspace, file or run (ENOENT)"), "409": ERR("Conflict (EEXIST, ENOTEMPTY, EISDIR, ...)"), "413": ERR("Body too large (EFBIG)"), "429": ERR("Rate limit (EAGAIN); see Retry-After"), "500": ERR("Internal error (EIO)"), "503": ERR("Shutting down, or no run slot (ESHUTDOWN, EAGAIN)")}
ERRS = STD_ERR
STD_ERR = {k: {"$ref": f"#/components/responses/Error{k}"} for k in ERRS}
def op(summary, ok, params=(), body=None, body_ct="application/json", right=None, extra_ok=None, tags=None):
    o = {"summary": summary, "responses": {**ok, **STD_ERR}}
    if right:
        o["description"] = f"Needs the `{right}` right in the workspace (admin tokens have every right)."
    if params:
        o["parameters"] = list(params)
    if body:
        if body_ct == "application/json":
            o["requestBody"] = {"required": True, "content": {"application/json": {"schema": {"$ref": f"#/components/schemas/{body}"}}}}
        else:
            o["requestBody"] = {"required": True, "content": {body_ct: {"schema": {"type": "string", "format": "binary"} if body_ct == "application/octet-stream" else STR}}}
    if tags: o["tags"] = tags
    return o
def qp(name, schema=STR, required=False, desc=None):
    p = {"name": name, "in": "query", "required": required, "schema": schema}
    if desc: p["description"] = desc
    return p
def pp(name): return {"name": name, "in": "path", "required": True, "schema": STR}
ID = pp("id"); RUN = pp("run"); NAME = pp("name")
PATHQ = qp("path", required=True, desc="an absolute workspace path")
PAGE = [qp("offset", INT), qp("limit", INT, desc="at most 1000")]
SSE = {"text/event-stream": {"schema": STR, "description": "events: run, waiting (a parked run: what it waits for; the stream goes on once it is answered), stdout, stderr ({\"data\": text}), result (the RunResult), lagged"}}

paths = {
 "/healthz": {"get": {"summary": "Health: 200 while serving, 503 once shutting down", "security": [], "responses": {"200": {"description": "serving", "content": {"application/json": {"schema": S("Health")}}}, "503": {"description": "stopping", "content": {"application/json": {"schema": S("Health")}}}}}},
 "/metrics": {"get": {"summary": "Prometheus text (admin)", "responses": {"200": {"description": "metrics", "content": {"text/plain": {"schema": STR}}}, **STD_ERR}}},
 "/openapi.json": {"get": {"summary": "This document", "security": [], "responses": {"200": {"description": "OpenAPI 3.1", "content": {"application/json": {"schema": {"type": "object"}}}}}}},
 "/requests": {"get": op("The server's request log: requests naming no workspace, newest first (admin)", resp("Requests"), PAGE)},
 "/tokens": {"get": op("List tokens (admin); never their secrets", resp("TokenList")), "post": op("Make a token (admin); the answer holds it, once", resp("NewToken", "201", "made"), body="CreateToken")},
 "/tokens/{name}": {"delete": op("Revoke a token (admin)", resp("Ok"), [NAME])},
 "/approvals": {"get": op("Pending approvals per workspace the token may read", resp("ApprovalsOverview"))},
 "/workspaces": {"get": op("List the workspaces the token may see", resp("WorkspaceList")), "post": op("Make a workspace (admin)", resp("Workspace", "201", "made"), body="CreateWorkspace")},
 "/workspaces/{id}": {"get": op("One workspace", resp("Workspace"), [ID], right="read"), "delete": op("Delete a workspace and its file (admin); its runs are cancelled", resp("Ok"), [ID])},
 "/workspaces/{id}/files/read": {"get": {**op("Read a file (a byte range with offset/length); format=raw gives the bytes", resp("ReadResult"), [ID, PATHQ, qp("offset", INT), qp("length", INT), qp("format", {"type": "string", "enum": ["json", "raw"]})], right="read")}},
 "/workspaces/{id}/files/write": {"put": op("Write a file; the body is its content", resp("WriteResult"), [ID, PATHQ, qp("mode", STR, desc="octal, like 644"), qp("exclusive", BOOL), qp("parents", BOOL)], body="raw", body_ct="application/octet-stream", right="exec")},
 "/workspaces/{id}/files/edit": {"post": op("Exact text replacements in a file", resp("EditResult"), [ID], body="Edit", right="exec")},
 "/workspaces/{id}/files/ls": {"get": op("List a directory", resp("Listing"), [ID, PATHQ, *PAGE], right="read")},
 "/workspaces/{id}/files/stat": {"get": op("Stat a path (symlinks not followed)", resp("Stat"), [ID, PATHQ], right="read")},
 "/workspaces/{id}/files/find": {"get": op("Paths matching a glob (** crosses directories)", resp("FindPage"), [ID, qp("path"), qp("pattern", required=True), *PAGE], right="read")},
 "/workspaces/{id}/files/grep": {"get": op("Search file contents", resp("GrepPage"), [ID, qp("path"), qp("query", required=True), qp("regex", BOOL), qp("ignore_case", BOOL), qp("context", INT), qp("include"), *PAGE], right="read")},
 "/workspaces/{id}/files/rm": {"post": op("Remove a path", resp("PathResult"), [ID], body="Rm", right="exec")},
 "/workspaces/{id}/files/mkdir": {"post": op("Make a directory", resp("PathResult"), [ID], body="Mkdir", right="exec")},
 "/workspaces/{id}/files/mv": {"post": op("Move or rename", resp("MoveResult"), [ID], body="Move", right="exec")},
 "/workspaces/{id}/files/cp": {"post": op("Copy (recursive for directories)", resp("MoveResult"), [ID], body="Move", right="exec")},
 "/workspaces/{id}/exec": {"post": op("Run code: waits for the result, or streams it as server-sent events (stream: true or Accept: text/event-stream). A client that leaves does not end its run unless it sent cancel_on_disconnect.", {"200": {"description": "the result, or its event stream", "content": {"application/json": {"schema": S("RunResult")}, **SSE}}}, [ID], body="Exec", right="exec")},
 "/workspaces/{id}/runs": {"get": op("Runs, newest first", resp("RunList"), [ID, *PAGE], right="read")},
 "/workspaces/{id}/runs/{run}": {"get": op("One run with its output", resp("Run"), [ID, RUN], right="read")},
 "/workspaces/{id}/runs/{run}/cancel": {"post": op("Cancel a run going on in this server", resp("Cancelled"), [ID, RUN], right="exec")},
 "/workspaces/{id}/runs/{run}/events": {"get": op("A run's output as server-sent events: a live run followed, a parked one waited for and followed once answered, a finished one replayed", {"200": {"description": "events", "content": SSE}}, [ID, RUN], right="read")},
 "/workspaces/{id}/runs/{run}/diff": {"get": op("What a run changed", resp("Diff"), [ID, RUN, qp("patch", BOOL), qp("path")], right="read")},
 "/workspaces/{id}/runs/{run}/undo": {"post": {**op("Put back what a run changed; conflicts refuse (EPERM) unless force", resp("UndoReport"), [ID, RUN], right="exec"), "requestBody": {"required": False, "content": {"application/json": {"schema": S("Undo")}}}}},
 "/workspaces/{id}/approvals": {"get": op("Pending approvals, oldest first", resp("Approvals"), [ID, *PAGE], right="read")},
 "/workspaces/{id}/approvals/respond": {"post": op("Approve (answer) or reject (reason); the run resumes in the server once nothing else is pending", resp("Responded"), [ID], body="Respond", right="approve")},
 "/workspaces/{id}/audit": {"get": op("The audit log, filtered and paged (newest first by default)", resp("AuditPage"), [ID, qp("since_ns", INT), qp("until_ns", INT), qp("actor", desc="prefix: http:NAME, run:ID, tool"), qp("operation"), qp("path", desc="a glob over targets"), qp("run"), qp("order", {"type": "string", "enum": ["asc", "desc"]}), *PAGE], right="read")},
 "/workspaces/{id}/snapshots": {"get": op("Snapshots", resp("SnapshotList"), [ID], right="read"), "post": op("Snapshot the live tree and settings", resp("Snapshot", "201", "made"), [ID], body="NewSnapshot", right="exec")},
 "/workspaces/{id}/snapshots/{name}": {"delete": op("Remove a snapshot", resp("Deleted"), [ID, NAME], right="exec")},
 "/workspaces/{id}/snapshots/{name}/restore": {"post": op("Restore a snapshot", resp("Snapshot"), [ID, NAME], right="exec")},
 "/workspaces/{id}/forks": {"get": op("Forks made from this workspace", resp("ForkList"), [ID], right="read"), "post": op("Fork into a new workspace named `name` (admin)", resp("Fork", "201", "made"), [ID], body="NewFork")},
 "/workspaces/{id}/diff": {"get": op("Compare two trees: live, a snapshot name, run:ID[:before|:after], fork:NAME", resp("Diff"), [ID, qp("from", required=True), qp("to"), qp("path"), qp("patch", BOOL)], right="read")},
 "/workspaces/{id}/net": {"get": op("The network allow-list", resp("NetList"), [ID], right="read")},
 "/workspaces/{id}/net/allow": {"post": op("Allow a host (admin)", resp("NetChange"), [ID], body="Host")},
 "/workspaces/{id}/net/deny": {"post": op("Remove a host (admin)", resp("NetChange"), [ID], body="Host")},
 "/workspaces/{id}/secrets": {"get": op("Secret names (values are write-only)", resp("SecretList"), [ID], right="read")},
 "/workspaces/{id}/secrets/{name}": {"put": op("Set a secret (admin); the body is its value", resp("SecretSet"), [ID, NAME], body="raw", body_ct="application/octet-stream"), "delete": op("Remove a secret (admin)", resp("Deleted"), [ID, NAME])},
 "/workspaces/{id}/policy": {"get": op("The policy file's text, or null", resp("Policy"), [ID], right="read"), "put": op("Set the policy (admin); the body is TOML", resp("Ok"), [ID], body="raw", body_ct="text/plain"), "delete": op("Clear the policy (admin)", resp("Ok"), [ID])},
 "/workspaces/{id}/mcp": {"post": {"summary": "Remote MCP (streamable HTTP transport): the agent tools of `computer mcp`. A token without `exec` gets the read-only tools.", "parameters": [ID], "responses": {"200": {"description": "JSON-RPC over JSON or SSE"}, **STD_ERR}}},
}
doc = {
 "openapi": "3.1.0",
 "info": {"title": "computer serve", "version": "0.1.0", "description": "Many workspaces behind one HTTP API. JSON in the vocabulary of the CLI's --json; errors are {\"error\": {\"code\": POSIX-style, \"message\"}}. Every request needs `Authorization: Bearer TOKEN` (admin, or scoped to one workspace with rights read, exec, approve) and is audited under the token's name."},
 "security": [{"bearer": []}],
 "paths": paths,
 "components": {"responses": {f"Error{k}": v for k, v in ERRS.items()}, "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}}, "schemas": {**schemas, **bodies}},
}
print(json.dumps(doc, indent=1))
