//! Named snapshots ([`Workspace::snapshots`]): the whole tree and the
//! workspace's settings at one moment, in O(1) time and space.
//!
//! A snapshot is a pinned tree (`pin.rs`: the live root node itself, shared
//! copy-on-write) plus the settings (`settings.rs`). Runs are not part of
//! it, and restoring one leaves run records alone. Each operation is one
//! transaction: a crash leaves the snapshot either wholly there or absent.

pub(crate) mod pin;
pub(crate) mod settings;
mod space;

pub use space::{GcReport, SnapshotSpace};

use rusqlite::{Connection, OptionalExtension, Row, params};
use serde::Serialize;

use crate::clock::now_ns;
use crate::error::{Errno, FsError, Result};
use crate::path::WsPath;
use crate::workspace::{Touch, Workspace};

/// Longest snapshot name.
pub const MAX_SNAPSHOT_NAME: usize = 128;

/// A snapshot as listed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SnapshotInfo {
    /// Its name, unique in the workspace.
    pub name: String,
    /// What the creator said about it.
    pub message: String,
    /// Who took it (the audit actor).
    pub actor: String,
    /// When it was taken (ns since the epoch).
    pub created_ns: i64,
    /// The workspace revision it holds.
    pub rev: u64,
    /// The byte quota it holds.
    pub quota_bytes: u64,
    /// The read-only subtrees it holds.
    pub readonly_paths: Vec<String>,
    /// The network allow-list it holds.
    pub net_allow: Vec<String>,
    /// The module components it holds (`ws:NAME`).
    pub modules: Vec<String>,
    /// The command components it holds.
    pub commands: Vec<String>,
}

/// Checks a snapshot name: 1 to 128 characters of `[A-Za-z0-9._-]`, not
/// starting with `.` or `-`, and not `live` (which names the live tree in
/// `diff`).
pub fn validate_snapshot_name(name: &str) -> Result<()> {
    let ok = !name.is_empty()
        && name.len() <= MAX_SNAPSHOT_NAME
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'))
        && !name.starts_with(['.', '-']);
    if !ok {
        return Err(FsError::custom(
            Errno::EINVAL,
            name,
            format!(
                "invalid snapshot name {name:?}: use 1 to {MAX_SNAPSHOT_NAME} characters from A-Z a-z 0-9 . _ -, not starting with . or -"
            ),
        ));
    }
    if name == "live" {
        return Err(FsError::custom(
            Errno::EINVAL,
            name,
            "invalid snapshot name \"live\": it names the live tree in diff",
        ));
    }
    Ok(())
}

pub(crate) fn json_err(e: serde_json::Error) -> FsError {
    FsError::custom(Errno::EIO, "", format!("snapshot settings: {e}"))
}

pub(crate) fn not_found(name: &str) -> FsError {
    FsError::custom(
        Errno::ENOENT,
        name,
        format!("no snapshot named {name:?} (computer snapshot ls lists them)"),
    )
}

/// The pinned root of snapshot `name`.
pub(crate) fn root_of(c: &Connection, name: &str) -> Result<i64> {
    c.prepare_cached("SELECT root FROM snapshots WHERE name = ?1")?
        .query_row([name], |r| r.get(0))
        .optional()?
        .ok_or_else(|| not_found(name))
}

const COLUMNS: &str =
    "name, message, actor, created_ns, rev, quota_bytes, readonly_paths, net_allow";

fn info_from_row(c: &Connection, r: &Row<'_>) -> Result<SnapshotInfo> {
    let name: String = r.get(0)?;
    let readonly: String = r.get(6)?;
    let net: String = r.get(7)?;
    let net: Vec<(String, i64)> = serde_json::from_str(&net).map_err(json_err)?;
    let names = |sql: &str| -> Result<Vec<String>> {
        Ok(c.prepare_cached(sql)?
            .query_map([&name], |r| r.get(0))?
            .collect::<rusqlite::Result<_>>()?)
    };
    Ok(SnapshotInfo {
        modules: names("SELECT name FROM snapshot_modules WHERE snapshot = ?1 ORDER BY name")?,
        commands: names("SELECT name FROM snapshot_commands WHERE snapshot = ?1 ORDER BY name")?,
        message: r.get(1)?,
        actor: r.get(2)?,
        created_ns: r.get(3)?,
        rev: r.get::<_, i64>(4)? as u64,
        quota_bytes: r.get::<_, i64>(5)? as u64,
        readonly_paths: serde_json::from_str(&readonly).map_err(json_err)?,
        net_allow: net.into_iter().map(|(e, _)| e).collect(),
        name,
    })
}

/// The snapshots of a workspace ([`Workspace::snapshots`]).
#[derive(Clone, Copy)]
pub struct Snapshots<'a> {
    pub(crate) ws: &'a Workspace,
}

impl Workspace {
    /// The named snapshots: create, list, show, restore, remove.
    pub fn snapshots(&self) -> Snapshots<'_> {
        Snapshots { ws: self }
    }

    /// Takes snapshot `name` of the tree and settings (see [`Snapshots::create`]).
    pub fn snapshot(&self, name: &str, message: &str) -> Result<SnapshotInfo> {
        self.snapshots().create(Some(name), message)
    }
}

impl Snapshots<'_> {
    /// Takes a snapshot named `name` (or `snap-N`, the first free N, when
    /// `None`). O(1): it shares every node and chunk with the live tree.
    /// `EEXIST` if the name is taken, `EINVAL` if it is not a valid name.
    pub fn create(&self, name: Option<&str>, message: &str) -> Result<SnapshotInfo> {
        if let Some(name) = name {
            validate_snapshot_name(name)?;
        }
        let target = name.unwrap_or("");
        let actor = crate::audit::current_actor();
        let created = self.ws.audited(
            "snapshot_create",
            target,
            || Some(serde_json::json!({ "name": name, "message": message })),
            || {
                // Not a change of the tree: the revision stays (`meta_tx`).
                self.ws.meta_tx(|c| {
                    let name = match name {
                        Some(n) => n.to_owned(),
                        None => free_name(c)?,
                    };
                    let taken = c
                        .prepare_cached("SELECT 1 FROM snapshots WHERE name = ?1")?
                        .query_row([&name], |_| Ok(()))
                        .optional()?
                        .is_some();
                    if taken {
                        return Err(FsError::custom(
                            Errno::EEXIST,
                            &name,
                            format!("a snapshot named {name:?} already exists (computer snapshot rm {name} first, or choose another name)"),
                        ));
                    }
                    let rev: i64 = c
                        .prepare_cached("SELECT rev FROM workspace WHERE id = 1")?
                        .query_row([], |r| r.get(0))?;
                    let root = pin::pin_live(c)?;
                    let s = settings::capture(c)?;
                    c.prepare_cached(
                        "INSERT INTO snapshots (name, root, rev, message, actor, created_ns,
                           quota_bytes, path_bound, readonly_paths, net_allow)
                         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
                    )?
                    .execute(params![
                        name,
                        root,
                        rev,
                        message,
                        actor,
                        now_ns(),
                        s.quota_bytes,
                        s.path_bound,
                        s.readonly_paths,
                        s.net_allow
                    ])?;
                    settings::capture_components(c, &name)?;
                    Ok(name)
                })
            },
        )?;
        self.get(&created)
    }

    /// Snapshot `name`; `ENOENT` naming it if there is none.
    pub fn get(&self, name: &str) -> Result<SnapshotInfo> {
        self.ws.read_tx(|c| {
            let mut stmt =
                c.prepare_cached(&format!("SELECT {COLUMNS} FROM snapshots WHERE name = ?1"))?;
            let mut rows = stmt.query([name])?;
            match rows.next()? {
                Some(row) => info_from_row(c, row),
                None => Err(not_found(name)),
            }
        })
    }

    /// Every snapshot, oldest first.
    pub fn list(&self) -> Result<Vec<SnapshotInfo>> {
        self.ws.read_tx(|c| {
            let mut stmt = c.prepare_cached(&format!(
                "SELECT {COLUMNS} FROM snapshots ORDER BY created_ns, name"
            ))?;
            let mut rows = stmt.query([])?;
            let mut out = Vec::new();
            while let Some(row) = rows.next()? {
                out.push(info_from_row(c, row)?);
            }
            Ok(out)
        })
    }

    /// Makes the live tree and the settings what snapshot `name` holds.
    /// Run records, the audit log and other snapshots are not touched.
    /// One transaction, O(1): the live root becomes the snapshot's, shared.
    pub fn restore(&self, name: &str) -> Result<SnapshotInfo> {
        self.ws.audited(
            "snapshot_restore",
            name,
            || None,
            || {
                self.ws.write_tx(|c| {
                    let root = root_of(c, name)?;
                    pin::restore_live(c, root)?;
                    settings::restore(c, name)?;
                    // Everything may have changed: consumers of the change
                    // log (the container sync) look at the whole tree.
                    crate::changes::note(&WsPath::root(), Touch::Subtree);
                    Ok(())
                })
            },
        )?;
        self.get(name)
    }

    /// Removes snapshot `name`; the chunks only it used are freed.
    pub fn remove(&self, name: &str) -> Result<()> {
        self.ws.audited(
            "snapshot_rm",
            name,
            || None,
            || {
                self.ws.meta_tx(|c| {
                    let root = root_of(c, name)?;
                    c.prepare_cached("DELETE FROM snapshots WHERE name = ?1")?
                        .execute([name])?;
                    settings::forget(c, name)?;
                    pin::unpin(c, root)
                })
            },
        )
    }
}

/// `snap-N` for the first N not taken.
fn free_name(c: &Connection) -> Result<String> {
    let count: i64 = c
        .prepare_cached("SELECT count(*) FROM snapshots")?
        .query_row([], |r| r.get(0))?;
    let mut n = count + 1;
    loop {
        let name = format!("snap-{n}");
        let taken = c
            .prepare_cached("SELECT 1 FROM snapshots WHERE name = ?1")?
            .query_row([&name], |_| Ok(()))
            .optional()?
            .is_some();
        if !taken {
            return Ok(name);
        }
        n += 1;
    }
}
