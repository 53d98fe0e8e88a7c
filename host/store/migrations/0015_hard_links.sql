-- Hard links and access times.
--
-- `nlink` counts the names a node has as hard links. It coexists with the
-- copy-on-write `refs`: a node with `nlink > 1` is never shared by a copy
-- (a copy of it, or of a directory above it, gets its own clone), so all
-- of its `refs` are hard links (`refs = nlink`) and a write through any
-- name changes it in place. `unshare` clones only nodes with `refs > nlink`.
ALTER TABLE nodes ADD COLUMN nlink INTEGER NOT NULL DEFAULT 1;
-- NULL: the access time is the modification time (no atime is kept). Set
-- when a program sets it, or frozen at the old value when a program sets
-- only the modification time.
ALTER TABLE nodes ADD COLUMN atime_ns INTEGER;
-- The names of a node: a copy finds the directories above hard-linked
-- nodes by walking up from them (few) instead of down the whole subtree.
CREATE INDEX dentries_by_child ON dentries (child);
CREATE INDEX nodes_hard_linked ON nodes (id) WHERE nlink > 1;
