-- Snapshots and run trees (issue 37).

-- The live tree's root node. Node 1 until a snapshot shares the root and
-- the next change clones it (`tree::unshare`): then the clone is the root.
ALTER TABLE workspace ADD COLUMN root INTEGER NOT NULL DEFAULT 1;
--
-- A pinned tree is a directory node with no entry naming it: a copy of the
-- root taken at revision `rev`, sharing every node below (copy-on-write,
-- as `fs cp -r` shares). Its `refs` counts its holders: snapshot rows and
-- the before/after columns of run rows. Pins taken at the same revision are
-- the same node (the tree cannot differ), so a run that changes nothing
-- costs one extra reference.
CREATE TABLE trees (
    root  INTEGER PRIMARY KEY,   -- a directory node
    rev   INTEGER NOT NULL       -- the workspace revision it was taken at
);
CREATE INDEX trees_by_rev ON trees (rev);

-- Named snapshots: a pinned tree plus the workspace's settings at the time.
-- Runs are never part of a snapshot. Keyed by name within the workspace
-- (the scale-out design adds workspace_id in front of every key).
CREATE TABLE snapshots (
    name            TEXT PRIMARY KEY,
    root            INTEGER NOT NULL REFERENCES trees (root),
    rev             INTEGER NOT NULL,
    message         TEXT NOT NULL DEFAULT '',
    actor           TEXT NOT NULL DEFAULT '',
    created_ns      INTEGER NOT NULL,
    quota_bytes     INTEGER NOT NULL,
    path_bound      INTEGER NOT NULL,
    readonly_paths  TEXT NOT NULL,  -- JSON array of paths
    net_allow       TEXT NOT NULL   -- JSON array of [entry, added_ns]
);

-- Module and command components as they were registered when a snapshot
-- was taken. Their bytes are kept once per distinct sha256 (`snapshot_blobs`),
-- so taking many snapshots copies no component twice.
CREATE TABLE snapshot_modules (
    snapshot    TEXT NOT NULL,
    name        TEXT NOT NULL,
    sha256      TEXT NOT NULL,
    config      TEXT NOT NULL,
    allow_hosts TEXT NOT NULL,
    functions   TEXT NOT NULL,
    added_ns    INTEGER NOT NULL,
    PRIMARY KEY (snapshot, name)
) WITHOUT ROWID;
CREATE TABLE snapshot_commands (
    snapshot    TEXT NOT NULL,
    name        TEXT NOT NULL,
    sha256      TEXT NOT NULL,
    description TEXT NOT NULL,
    mounts      TEXT NOT NULL,
    added_ns    INTEGER NOT NULL,
    PRIMARY KEY (snapshot, name)
) WITHOUT ROWID;
CREATE TABLE snapshot_blobs (
    sha256     TEXT PRIMARY KEY,
    component  BLOB NOT NULL
);

-- Each run's tree before it started and after it ended (pinned trees), for
-- `diff` of a run and `undo`. NULL before the run ends, and once `gc`
-- dropped them.
ALTER TABLE runs ADD COLUMN tree_before INTEGER;
ALTER TABLE runs ADD COLUMN tree_after INTEGER;

-- Forks made from this workspace (`computer fork`). A fork is a workspace
-- file of its own, a copy of this one taken in one read transaction
-- (`VACUUM INTO`), so forks share nothing in the store and no gc of one
-- can free what another uses. This table only remembers where they went.
CREATE TABLE forks (
    name           TEXT PRIMARY KEY,
    path           TEXT NOT NULL,
    from_snapshot  TEXT,
    created_ns     INTEGER NOT NULL
);
