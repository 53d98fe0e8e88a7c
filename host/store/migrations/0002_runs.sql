-- Runs: one row per exec, written when it starts and updated when it ends.
CREATE TABLE runs (
    id          TEXT PRIMARY KEY,
    backend     TEXT NOT NULL,
    status      TEXT NOT NULL,   -- running, waiting, completed, failed, cancelled, timed_out
    source      TEXT NOT NULL,
    options     TEXT NOT NULL,   -- JSON: cwd, env keys, argv, timeout, ...
    started_ns  INTEGER NOT NULL,
    ended_ns    INTEGER,
    exit_code   INTEGER,
    value       TEXT,            -- JSON
    error       TEXT,
    stdout      BLOB,
    stderr      BLOB
);

CREATE INDEX runs_started ON runs (started_ns);
