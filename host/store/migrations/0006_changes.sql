-- The change log: which paths each revision changed, so a consumer that
-- last looked at revision N (the container sync) can visit only what
-- changed since instead of walking the whole tree.
--
-- `path` is canonical (symlinks in its parents resolved). `subtree` = 1
-- when everything below the path may have changed too (a remove, a move, a
-- replace); 0 when only the entry itself did, or appeared (a write, a
-- chmod, a create, a copy). Rows are written in the mutation's own
-- transaction, under the revision that transaction commits as.
CREATE TABLE changes (
    rev      INTEGER NOT NULL,
    path     TEXT NOT NULL,
    subtree  INTEGER NOT NULL,
    PRIMARY KEY (rev, path)
) WITHOUT ROWID;

-- The log costs every mutation a row, so it is kept only once a consumer
-- asks for it (`changes_on`). It is complete for the revisions after
-- `changes_from`: it started then, or older rows were pruned.
ALTER TABLE workspace ADD COLUMN changes_on INTEGER NOT NULL DEFAULT 0;
ALTER TABLE workspace ADD COLUMN changes_from INTEGER NOT NULL DEFAULT 0;
