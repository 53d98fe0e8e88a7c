-- The byte quota: writes that would store more than `quota_bytes` of chunk
-- data fail with ENOSPC. `stored_bytes` is the running sum of chunks.size,
-- kept by every chunk insert and delete, so the check costs no scan.
ALTER TABLE workspace ADD COLUMN quota_bytes INTEGER NOT NULL DEFAULT 10737418240;
ALTER TABLE workspace ADD COLUMN stored_bytes INTEGER NOT NULL DEFAULT 0;
UPDATE workspace SET stored_bytes = (SELECT coalesce(sum(size), 0) FROM chunks);
