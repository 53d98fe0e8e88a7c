-- Command components registered in the workspace (`computer commands add`):
-- `wasi:cli/command` programs the shell runs by name.
CREATE TABLE commands (
    name        TEXT PRIMARY KEY,   -- what scripts type (`rg`)
    component   BLOB NOT NULL,      -- the component's bytes
    sha256      TEXT NOT NULL,      -- hex digest of component
    description TEXT NOT NULL,
    mounts      TEXT NOT NULL,      -- JSON array of [guest path, host directory] pairs
    added_ns    INTEGER NOT NULL
);
