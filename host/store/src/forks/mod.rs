//! Forks ([`Workspace::fork`]): independent workspaces that start from
//! this one's state (the live tree, or a snapshot's).
//!
//! A fork is a workspace file of its own. It is made with SQLite's
//! `VACUUM INTO`, which copies the whole file in one read transaction (a
//! consistent state, while other processes keep writing), then prepared in
//! one transaction of its own: the chosen snapshot restored, runs that had
//! not ended dropped (running and parked runs stay with the parent), and
//! the parent's list of forks cleared. Only then is it renamed into place
//! and listed in the parent's `forks` table, so a crash leaves at most a
//! temporary file, never a half-made fork.
//!
//! Forks share nothing in the store: isolation between them is that of
//! separate files, and gc in one can never free what another uses. The
//! cost is a copy of the file (O(stored bytes), at disk speed), not O(1);
//! sharing chunks between files is the next step (see NOTES.md).

use std::path::{Path, PathBuf};

use rusqlite::{Connection, OptionalExtension, params};
use serde::Serialize;

use crate::clock::now_ns;
use crate::error::{Errno, FsError, Result};
use crate::location::OpenMode;
use crate::path::WsPath;
use crate::snapshots::{self, pin, settings};
use crate::workspace::{Config, Touch, Workspace};

/// A fork as the parent lists it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ForkInfo {
    /// Its name, unique among this workspace's forks.
    pub name: String,
    /// Its workspace file.
    pub path: PathBuf,
    /// The snapshot it started from (`None`: the live tree).
    pub from_snapshot: Option<String>,
    /// When it was made (ns since the epoch).
    pub created_ns: i64,
    /// Whether its file is still there.
    pub exists: bool,
}

fn io_err(path: &Path, e: std::io::Error) -> FsError {
    FsError::host_io(path.display().to_string(), e)
}

impl Workspace {
    /// Makes fork `name` at `dest` (a new workspace file) from the live
    /// tree, or from snapshot `from`. `EEXIST` if the name is taken or
    /// `dest` exists, `ENOENT` for an unknown snapshot, `EINVAL` for a
    /// bad name or an in-memory workspace.
    pub fn fork(&self, name: &str, dest: &Path, from: Option<&str>) -> Result<ForkInfo> {
        snapshots::validate_snapshot_name(name).map_err(|e| {
            FsError::custom(
                Errno::EINVAL,
                name,
                e.message.replace("snapshot name", "fork name"),
            )
        })?;
        if self.location().is_none() {
            return Err(FsError::custom(
                Errno::EINVAL,
                name,
                "an in-memory workspace cannot be forked: forks are workspace files",
            ));
        }
        // Listed absolute: the parent may be opened from anywhere.
        let dest = &std::path::absolute(dest).map_err(|e| io_err(dest, e))?;
        self.audited(
            "fork",
            name,
            || Some(serde_json::json!({"path": dest.display().to_string(), "from": from})),
            || {
                self.read_tx(|c| {
                    if let Some(s) = from {
                        snapshots::root_of(c, s)?;
                    }
                    if fork_row(c, name)?.is_some() {
                        return Err(FsError::custom(
                            Errno::EEXIST,
                            name,
                            format!("a fork named {name:?} already exists (computer forks lists them)"),
                        ));
                    }
                    Ok(())
                })?;
                if dest.exists() {
                    return Err(FsError::custom(
                        Errno::EEXIST,
                        dest.display().to_string(),
                        format!("cannot fork into {}: the file exists", dest.display()),
                    ));
                }
                if let Some(dir) = dest.parent().filter(|d| !d.as_os_str().is_empty()) {
                    std::fs::create_dir_all(dir).map_err(|e| io_err(dir, e))?;
                }
                let tmp = dest.with_extension(format!("forking-{}", std::process::id()));
                let _ = std::fs::remove_file(&tmp);
                let made = self.copy_into(&tmp).and_then(|()| prepare(&tmp, from));
                if let Err(e) = made {
                    let _ = std::fs::remove_file(&tmp);
                    return Err(e);
                }
                std::fs::rename(&tmp, dest).map_err(|e| io_err(dest, e))?;
                let created = now_ns();
                self.meta_tx(|c| {
                    c.prepare_cached(
                        "INSERT INTO forks (name, path, from_snapshot, created_ns) VALUES (?1, ?2, ?3, ?4)",
                    )?
                    .execute(params![name, dest.display().to_string(), from, created])?;
                    Ok(())
                })?;
                Ok(ForkInfo {
                    name: name.to_owned(),
                    path: dest.to_path_buf(),
                    from_snapshot: from.map(str::to_owned),
                    created_ns: created,
                    exists: true,
                })
            },
        )
    }

    /// The forks made from this workspace, oldest first.
    pub fn forks(&self) -> Result<Vec<ForkInfo>> {
        self.read_tx(|c| {
            let mut stmt = c.prepare_cached(
                "SELECT name, path, from_snapshot, created_ns FROM forks ORDER BY created_ns, name",
            )?;
            let rows = stmt
                .query_map([], |r| {
                    let path: String = r.get(1)?;
                    Ok(ForkInfo {
                        name: r.get(0)?,
                        exists: Path::new(&path).exists(),
                        path: path.into(),
                        from_snapshot: r.get(2)?,
                        created_ns: r.get(3)?,
                    })
                })?
                .collect::<rusqlite::Result<Vec<_>>>()?;
            Ok(rows)
        })
    }

    /// Opens fork `name` of this workspace (for `diff` and `export` of
    /// `fork:NAME`). `ENOENT` for an unknown fork or a missing file.
    pub(crate) fn open_fork(&self, name: &str) -> Result<Workspace> {
        let path = self.read_tx(|c| fork_row(c, name))?.ok_or_else(|| {
            FsError::custom(
                Errno::ENOENT,
                name,
                format!("no fork named {name:?} (computer forks lists them)"),
            )
        })?;
        if !Path::new(&path).exists() {
            return Err(FsError::custom(
                Errno::ENOENT,
                name,
                format!("fork {name:?} was made at {path}, which no longer exists"),
            ));
        }
        Workspace::open_with(
            Path::new(&path),
            Config {
                mode: OpenMode::Existing,
                // What is done to the fork is recorded in this workspace's log.
                audit: false,
                ..Default::default()
            },
        )
    }

    /// The whole file as it is now, copied to `dest` in one read transaction.
    fn copy_into(&self, dest: &Path) -> Result<()> {
        let shown = dest.display().to_string();
        self.outside_tx(|c| {
            c.execute("VACUUM INTO ?1", [&shown])?;
            Ok(())
        })
    }
}

fn fork_row(c: &Connection, name: &str) -> Result<Option<String>> {
    Ok(c.prepare_cached("SELECT path FROM forks WHERE name = ?1")?
        .query_row([name], |r| r.get(0))
        .optional()?)
}

/// Makes the copy at `path` a fork: from snapshot `from` if given, without
/// the parent's unfinished runs and list of forks. One transaction.
fn prepare(path: &Path, from: Option<&str>) -> Result<()> {
    let fork = Workspace::open_with(
        path,
        Config {
            mode: OpenMode::Existing,
            // The parent's audit log records the fork; the operation in
            // flight on this thread must not be written into the copy.
            audit: false,
            ..Default::default()
        },
    )?;
    fork.write_tx(|c| {
        let unfinished: Vec<(String, Option<i64>, Option<i64>)> = c
            .prepare_cached(
                "SELECT id, tree_before, tree_after FROM runs WHERE status IN ('running', 'waiting')",
            )?
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?
            .collect::<rusqlite::Result<_>>()?;
        for (id, before, after) in unfinished {
            crate::runs::drop_durable_state(c, &id)?;
            c.prepare_cached("DELETE FROM runs WHERE id = ?1")?
                .execute([&id])?;
            for root in [before, after].into_iter().flatten() {
                pin::unpin(c, root)?;
            }
        }
        c.prepare_cached("DELETE FROM forks")?.execute([])?;
        if let Some(name) = from {
            let root = snapshots::root_of(c, name)?;
            pin::restore_live(c, root)?;
            settings::restore(c, name)?;
            crate::changes::note(&WsPath::root(), Touch::Subtree);
        }
        Ok(())
    })
}
