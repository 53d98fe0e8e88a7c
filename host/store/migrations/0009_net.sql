-- The workspace's network allow-list (`computer net allow HOST[:PORT]`):
-- the hosts commands (curl, wget) and module components may reach.
CREATE TABLE net_allow (
    entry    TEXT PRIMARY KEY,   -- normalized: lowercase host, IPv6 in brackets, maybe :port
    added_ns INTEGER NOT NULL
);
