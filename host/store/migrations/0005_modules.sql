-- Module components registered in the workspace (`computer modules add`):
-- each is loaded as `ws:NAME` by every runtime that opens the workspace.
CREATE TABLE modules (
    name        TEXT PRIMARY KEY,   -- ws:NAME
    component   BLOB NOT NULL,      -- the component's bytes
    sha256      TEXT NOT NULL,      -- hex digest of component
    config      TEXT NOT NULL,      -- JSON array of [key, value] pairs, in order
    allow_hosts TEXT NOT NULL,      -- JSON array of host or host:port strings
    functions   TEXT NOT NULL,      -- JSON: the exported functions, as listed when added
    added_ns    INTEGER NOT NULL
);
