//! The workspace settings a snapshot holds besides the tree: the byte
//! quota, the read-only subtrees, the network allow-list, and the module
//! and command components. Captured and put back in the caller's
//! transaction. Component bytes are kept once per sha256 in
//! `snapshot_blobs`, and dropped when no snapshot names them.

use rusqlite::{Connection, params};

use crate::error::Result;

/// Settings columns of a new `snapshots` row (the row is the caller's).
pub(crate) struct Captured {
    pub quota_bytes: i64,
    pub path_bound: i64,
    pub readonly_paths: String,
    pub net_allow: String,
}

pub(crate) fn capture(c: &Connection) -> Result<Captured> {
    let (quota_bytes, path_bound): (i64, i64) = c
        .prepare_cached("SELECT quota_bytes, path_bound FROM workspace WHERE id = 1")?
        .query_row([], |r| Ok((r.get(0)?, r.get(1)?)))?;
    let readonly: Vec<String> = c
        .prepare_cached("SELECT path FROM readonly_paths ORDER BY path")?
        .query_map([], |r| r.get(0))?
        .collect::<rusqlite::Result<_>>()?;
    let net: Vec<(String, i64)> = c
        .prepare_cached("SELECT entry, added_ns FROM net_allow ORDER BY entry")?
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<rusqlite::Result<_>>()?;
    Ok(Captured {
        quota_bytes,
        path_bound,
        readonly_paths: serde_json::to_string(&readonly).map_err(super::json_err)?,
        net_allow: serde_json::to_string(&net).map_err(super::json_err)?,
    })
}

/// Copies the registered modules and commands under snapshot `name`.
pub(crate) fn capture_components(c: &Connection, name: &str) -> Result<()> {
    // Only bytes not kept yet are read: a blob is copied once per sha256.
    c.prepare_cached(
        "INSERT INTO snapshot_blobs (sha256, component)
         SELECT sha256, component FROM modules
          WHERE sha256 NOT IN (SELECT sha256 FROM snapshot_blobs) GROUP BY sha256",
    )?
    .execute([])?;
    c.prepare_cached(
        "INSERT INTO snapshot_blobs (sha256, component)
         SELECT sha256, component FROM commands
          WHERE sha256 NOT IN (SELECT sha256 FROM snapshot_blobs) GROUP BY sha256",
    )?
    .execute([])?;
    c.prepare_cached(
        "INSERT INTO snapshot_modules (snapshot, name, sha256, config, allow_hosts, functions, added_ns)
         SELECT ?1, name, sha256, config, allow_hosts, functions, added_ns FROM modules",
    )?
    .execute([name])?;
    c.prepare_cached(
        "INSERT INTO snapshot_commands (snapshot, name, sha256, description, mounts, added_ns)
         SELECT ?1, name, sha256, description, mounts, added_ns FROM commands",
    )?
    .execute([name])?;
    Ok(())
}

/// Makes the workspace's settings those snapshot `name` holds.
pub(crate) fn restore(c: &Connection, name: &str) -> Result<()> {
    let (quota, bound, readonly, net): (i64, i64, String, String) = c
        .prepare_cached(
            "SELECT quota_bytes, path_bound, readonly_paths, net_allow FROM snapshots WHERE name = ?1",
        )?
        .query_row([name], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))?;
    // The bound only ever has to be an upper bound: keep the larger.
    c.prepare_cached(
        "UPDATE workspace SET quota_bytes = ?1, path_bound = max(path_bound, ?2) WHERE id = 1",
    )?
    .execute(params![quota, bound])?;
    c.prepare_cached("DELETE FROM readonly_paths")?
        .execute([])?;
    for path in serde_json::from_str::<Vec<String>>(&readonly).map_err(super::json_err)? {
        c.prepare_cached("INSERT INTO readonly_paths (path) VALUES (?1)")?
            .execute([path])?;
    }
    c.prepare_cached("DELETE FROM net_allow")?.execute([])?;
    for (entry, added) in
        serde_json::from_str::<Vec<(String, i64)>>(&net).map_err(super::json_err)?
    {
        c.prepare_cached("INSERT INTO net_allow (entry, added_ns) VALUES (?1, ?2)")?
            .execute(params![entry, added])?;
    }
    c.prepare_cached("DELETE FROM modules")?.execute([])?;
    c.prepare_cached(
        "INSERT INTO modules (name, component, sha256, config, allow_hosts, functions, added_ns)
         SELECT m.name, b.component, m.sha256, m.config, m.allow_hosts, m.functions, m.added_ns
           FROM snapshot_modules m JOIN snapshot_blobs b ON b.sha256 = m.sha256
          WHERE m.snapshot = ?1",
    )?
    .execute([name])?;
    c.prepare_cached("DELETE FROM commands")?.execute([])?;
    c.prepare_cached(
        "INSERT INTO commands (name, component, sha256, description, mounts, added_ns)
         SELECT m.name, b.component, m.sha256, m.description, m.mounts, m.added_ns
           FROM snapshot_commands m JOIN snapshot_blobs b ON b.sha256 = m.sha256
          WHERE m.snapshot = ?1",
    )?
    .execute([name])?;
    Ok(())
}

/// Drops snapshot `name`'s components, and bytes no snapshot names any more.
pub(crate) fn forget(c: &Connection, name: &str) -> Result<()> {
    c.prepare_cached("DELETE FROM snapshot_modules WHERE snapshot = ?1")?
        .execute([name])?;
    c.prepare_cached("DELETE FROM snapshot_commands WHERE snapshot = ?1")?
        .execute([name])?;
    c.prepare_cached(
        "DELETE FROM snapshot_blobs WHERE sha256 NOT IN
           (SELECT sha256 FROM snapshot_modules UNION SELECT sha256 FROM snapshot_commands)",
    )?
    .execute([])?;
    Ok(())
}
