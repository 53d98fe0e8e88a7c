-- Inode numbers that copy-on-write does not change (issue 37).
--
-- A node's inode number is `ino` (NULL: its id). A clone made by
-- copy-on-write (`tree::clone_node`: a snapshot or a run's tree shares a
-- node and the next change clones it) and a new node that replaces a
-- file's content keep the old node's `ino`, so the file or directory keeps
-- its inode number across runs, snapshots and writes.
ALTER TABLE nodes ADD COLUMN ino INTEGER;
-- A copy (`fs cp`, the shell's `cp`) shares its source's nodes (O(1)), so
-- it must not show the same inode numbers: the copy's entry gets a random
-- `salt`, and the inode number seen through a path is the node's `ino`
-- mixed with the XOR of the salts of the entries on that path
-- (`tree::eff_ino`; 0 everywhere but below copies). A rename or a hard
-- link sets the new entry's salt so the XOR, and the number, stay the same.
ALTER TABLE dentries ADD COLUMN salt INTEGER NOT NULL DEFAULT 0;
