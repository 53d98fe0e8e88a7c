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
-- A file's content is `chunks`: its chunk ids in order, packed as
-- little-endian u64s (all chunks full-size but the last). Keeping the list
-- in the node row instead of a separate table saves a b-tree page per write.
CREATE TABLE nodes (
    id        INTEGER PRIMARY KEY,
    kind      INTEGER NOT NULL CHECK (kind IN (1, 2, 3)), -- 1 file, 2 dir, 3 symlink
    mode      INTEGER NOT NULL,
    size      INTEGER NOT NULL DEFAULT 0,
    mtime_ns  INTEGER NOT NULL,
    refs      INTEGER NOT NULL DEFAULT 1,
    target    TEXT,                                        -- symlink target, verbatim
    chunks    BLOB                                         -- file content: packed chunk ids
);

CREATE TABLE dentries (
    dir    INTEGER NOT NULL,
    name   TEXT NOT NULL,
    child  INTEGER NOT NULL,
    PRIMARY KEY (dir, name)
) WITHOUT ROWID;

-- Content-addressed storage: identical chunks anywhere are stored once.
-- The id is the first 63 bits of the sha256 (probing upwards on the
-- unlikely collision), so finding a chunk by hash needs no extra index.
CREATE TABLE chunks (
    id    INTEGER PRIMARY KEY,
    hash  BLOB NOT NULL,         -- sha256 of data
    size  INTEGER NOT NULL,
    refs  INTEGER NOT NULL,      -- occurrences in file chunk lists
    data  BLOB NOT NULL
);

-- Subtrees that no operation may change.
CREATE TABLE readonly_paths (
    path  TEXT PRIMARY KEY
) WITHOUT ROWID;
