-- A CRC-32 of each chunk's data, checked on every read: it finds a chunk
-- whose bytes changed in the file at a fraction of the sha256's cost
-- (BENCHMARKS.md "Chunk checks on read"); fsck checks the sha256 too.
-- Chunks stored before this migration have none and are checked by sha256.
ALTER TABLE chunks ADD COLUMN crc INTEGER;
