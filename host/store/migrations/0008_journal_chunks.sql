-- Chunks a durable run's journal refers to instead of copying their bytes
-- (large reads): each pinned chunk holds one extra reference in
-- `chunks.refs` until the run's journal is dropped.
CREATE TABLE journal_chunks (
    run_id  TEXT NOT NULL,
    chunk   INTEGER NOT NULL,
    PRIMARY KEY (run_id, chunk)
) WITHOUT ROWID;
