-- Durable runs: how a run behaves when interrupted, what it takes to run it
-- again, who runs it now (a lease), the journal of its host calls, the
-- output it already emitted, and the interrupts waiting for an answer.
ALTER TABLE runs ADD COLUMN on_interrupt TEXT NOT NULL DEFAULT 'fail'; -- replay | fail
ALTER TABLE runs ADD COLUMN spec TEXT;            -- JSON: everything needed to run it again
ALTER TABLE runs ADD COLUMN owner TEXT;           -- the process running it, while it runs
ALTER TABLE runs ADD COLUMN lease_until_ns INTEGER;
ALTER TABLE runs ADD COLUMN attempts INTEGER NOT NULL DEFAULT 1;

CREATE INDEX runs_status ON runs (status) WHERE status IN ('running', 'waiting');

-- One row per host call of a durable run, by position. `status` is `done`
-- (result recorded), `started` (a module call under way) or `unsafe` (a
-- module call past unsafe-to-repeat).
CREATE TABLE journal (
    run_id     TEXT NOT NULL,
    seq        INTEGER NOT NULL,
    kind       TEXT NOT NULL,
    name       TEXT NOT NULL,
    args_hash  INTEGER NOT NULL,
    status     TEXT NOT NULL,
    result     BLOB,
    PRIMARY KEY (run_id, seq)
) WITHOUT ROWID;

-- Output of a durable run as it was emitted (channel 1 stdout, 2 stderr),
-- so a replay emits only what comes after.
CREATE TABLE run_output (
    run_id   TEXT NOT NULL,
    seq      INTEGER NOT NULL,
    channel  INTEGER NOT NULL,
    data     BLOB NOT NULL,
    PRIMARY KEY (run_id, seq)
) WITHOUT ROWID;

-- Approval gates: interrupt number `idx` of call `call_id`.
CREATE TABLE interrupts (
    run_id       TEXT NOT NULL,
    call_id      TEXT NOT NULL,
    idx          INTEGER NOT NULL,
    module       TEXT NOT NULL,
    function     TEXT NOT NULL,
    payload      TEXT NOT NULL,   -- JSON
    created_ns   INTEGER NOT NULL,
    answer       TEXT,            -- JSON {"approved": V} or {"rejected": REASON, "value": V}
    answered_ns  INTEGER,
    PRIMARY KEY (run_id, call_id, idx)
) WITHOUT ROWID;

CREATE INDEX interrupts_waiting ON interrupts (created_ns) WHERE answer IS NULL;
