-- An upper bound on the byte length of every path in the tree, so that
-- moving or copying a directory to a longer prefix can be checked against
-- the path limit without walking the subtree (`path_bound.rs`). Every
-- change raises it to the paths it touches; only a walk lowers it. It
-- starts exact (the same walk as `path_bound::deepest`).
ALTER TABLE workspace ADD COLUMN path_bound INTEGER NOT NULL DEFAULT 4096;
UPDATE workspace SET path_bound = (
    WITH RECURSIVE below(id, len) AS (
        SELECT 1, 0
        UNION ALL
        SELECT d.child, below.len + 1 + length(CAST(d.name AS BLOB))
        FROM dentries d JOIN below ON d.dir = below.id
        WHERE below.len <= 4096
    ) SELECT max(1, max(len)) FROM below
);
