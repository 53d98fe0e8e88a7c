-- The audit log: every operation through any path (CLI, tools, library,
-- guests), including refused and failed ones.
CREATE TABLE audit (
    id           INTEGER PRIMARY KEY,
    time_ns      INTEGER NOT NULL,
    actor        TEXT NOT NULL,     -- cli, tool, embedder, run:<id>/<backend>
    operation    TEXT NOT NULL,
    target       TEXT NOT NULL,     -- path or other target
    args         TEXT,              -- JSON; large payloads as size and hash
    outcome      TEXT NOT NULL,     -- ok, denied, or the error code
    error        TEXT,
    duration_ns  INTEGER NOT NULL
);

-- No index on time: rows are appended in time order, and every index is
-- one more page written per audited mutation.

-- Agent tool calls, one row each (in the spirit of AgentFS's tool_calls).
CREATE TABLE tool_calls (
    id            INTEGER PRIMARY KEY,
    name          TEXT NOT NULL,
    parameters    TEXT NOT NULL,    -- JSON, large values summarized
    result        TEXT,             -- summary of the result
    error         TEXT,
    started_ns    INTEGER NOT NULL,
    completed_ns  INTEGER NOT NULL,
    duration_ns   INTEGER NOT NULL
);
