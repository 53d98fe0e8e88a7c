-- The full SHA-256 of a journalled call's arguments (32 bytes). `args_hash`
-- held only its first 8 bytes, and a pair of calls sharing them can be found
-- in minutes: a replay could then match a call with other arguments (an
-- approval given for one thing applied to another). Rows written before this
-- migration have no digest: a replay matches them only if the call has no
-- arguments (hash 0, clock readings); any other such row fails the replay
-- as nondeterministic rather than match by its prefix.
ALTER TABLE journal ADD COLUMN args_digest BLOB;
