-- The filesystem: a copy-on-write tree of nodes over content-addressed chunks.

-- One row; `rev` is bumped once per mutation.
CREATE TABLE workspace (
    id          INTEGER PRIMARY KEY CHECK (id = 1),
    rev         INTEGER NOT NULL,
    created_ns  INTEGER NOT NULL
);

-- A node is a file, directory or symlink. `refs` counts the directory
-- entries that point at it: a copied subtree is shared (refs > 1) until a
-- write through one of its paths clones the nodes on that path.
CREATE TABLE nodes (
    id        INTEGER PRIMARY KEY,
    kind      INTEGER NOT NULL CHECK (kind IN (1, 2, 3)), -- 1 file, 2 dir, 3 symlink
    mode      INTEGER NOT NULL,
    size      INTEGER NOT NULL DEFAULT 0,
    mtime_ns  INTEGER NOT NULL,
    refs      INTEGER NOT NULL DEFAULT 1,
    target    TEXT                                         -- symlink target, verbatim
);

CREATE TABLE dentries (
    dir    INTEGER NOT NULL,
    name   TEXT NOT NULL,
    child  INTEGER NOT NULL,
    PRIMARY KEY (dir, name)
) WITHOUT ROWID;

CREATE INDEX dentries_child ON dentries (child);

-- Content-addressed storage: identical chunks anywhere are stored once.
CREATE TABLE chunks (
    id    INTEGER PRIMARY KEY,
    hash  BLOB NOT NULL UNIQUE,  -- sha256 of data
    size  INTEGER NOT NULL,
    refs  INTEGER NOT NULL,      -- extents pointing at this chunk
    data  BLOB NOT NULL
);

-- A file's content: fixed-size chunks in order (only the last may be short).
CREATE TABLE extents (
    node   INTEGER NOT NULL,
    idx    INTEGER NOT NULL,
    chunk  INTEGER NOT NULL,
    PRIMARY KEY (node, idx)
) WITHOUT ROWID;

CREATE INDEX extents_chunk ON extents (chunk);

-- Subtrees that no operation may change.
CREATE TABLE readonly_paths (
    path  TEXT PRIMARY KEY
) WITHOUT ROWID;
