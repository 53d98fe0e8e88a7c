-- Secrets (`computer secrets set NAME`): values encrypted with a key the
-- host holds (XChaCha20-Poly1305, the name as associated data); the
-- plaintext is never stored. Guests cannot reach this table.
CREATE TABLE secrets (
    name       TEXT PRIMARY KEY,
    nonce      BLOB NOT NULL,
    ciphertext BLOB NOT NULL,
    updated_ns INTEGER NOT NULL
);

-- Credentials the host attaches to outgoing requests for one allow-list
-- entry (`computer net allow HOST --header 'NAME: ... {secret:S} ...'`,
-- `--query`, `--basic`). `template` holds `{secret:NAME}` placeholders,
-- never values.
CREATE TABLE net_credentials (
    entry    TEXT NOT NULL,      -- a normalized allow-list entry, no wildcard
    kind     TEXT NOT NULL,      -- header | query | basic
    name     TEXT NOT NULL,      -- header name (lowercase), query key, or '' for basic
    template TEXT NOT NULL,
    added_ns INTEGER NOT NULL,
    PRIMARY KEY (entry, kind, name)
);

-- The workspace's policy file (`computer policy set FILE`), as written.
CREATE TABLE policy (
    id         INTEGER PRIMARY KEY CHECK (id = 1),
    toml       TEXT NOT NULL,
    updated_ns INTEGER NOT NULL
);
