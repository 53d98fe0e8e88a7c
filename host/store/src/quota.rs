//! The per-workspace byte quota. What counts is the chunk data stored
//! (after deduplication): a copy costs nothing until it diverges, and
//! removing a file frees its chunks at once. Metadata tables (runs, the
//! journal, the audit log) are not counted.

use std::cell::Cell;

use rusqlite::Connection;
use serde::Serialize;

use crate::error::{Errno, FsError, Result};
use crate::workspace::Workspace;

/// The quota a new workspace starts with: 10 GiB.
pub const DEFAULT_QUOTA: u64 = 10 << 30;

/// A workspace's quota and how much of it is used.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Quota {
    /// Bytes of chunk data the workspace may hold.
    pub limit: u64,
    /// Bytes of chunk data it holds.
    pub used: u64,
}

impl Workspace {
    /// The quota and the bytes counted against it.
    pub fn quota(&self) -> Result<Quota> {
        self.read_tx(|c| {
            let (limit, used): (i64, i64) = c
                .prepare_cached("SELECT quota_bytes, stored_bytes FROM workspace WHERE id = 1")?
                .query_row([], |r| Ok((r.get(0)?, r.get(1)?)))?;
            Ok(Quota {
                limit: limit as u64,
                used: used as u64,
            })
        })
    }

    /// Sets the quota. A limit below what is stored is accepted: writes
    /// then fail until enough is removed.
    pub fn set_quota(&self, limit: u64) -> Result<()> {
        let limit = i64::try_from(limit).map_err(|_| {
            FsError::custom(
                Errno::EINVAL,
                "",
                format!(
                    "invalid argument: a quota of {limit} bytes is larger than the store can count"
                ),
            )
        })?;
        self.meta_tx(|c| {
            c.prepare_cached("UPDATE workspace SET quota_bytes = ?1 WHERE id = 1")?
                .execute([limit])?;
            Ok(())
        })
    }
}

thread_local! {
    /// Bytes the current write transaction added, net of what it freed.
    static GROWN: Cell<i64> = const { Cell::new(0) };
}

/// Starts counting for a write transaction.
pub(crate) fn begin() {
    GROWN.with(|g| g.set(0));
}

/// Counts `size` new bytes of chunk data.
pub(crate) fn charge(conn: &Connection, size: u64) -> Result<()> {
    adjust(conn, size as i64)
}

/// Gives back the bytes of deleted chunks.
pub(crate) fn refund(conn: &Connection, size: u64) -> Result<()> {
    adjust(conn, -(size as i64))
}

fn adjust(conn: &Connection, delta: i64) -> Result<()> {
    conn.prepare_cached("UPDATE workspace SET stored_bytes = stored_bytes + ?1 WHERE id = 1")?
        .execute([delta])?;
    GROWN.with(|g| g.set(g.get() + delta));
    Ok(())
}

fn usage(conn: &Connection) -> Result<(i64, i64)> {
    Ok(conn
        .prepare_cached("SELECT stored_bytes, quota_bytes FROM workspace WHERE id = 1")?
        .query_row([], |r| Ok((r.get(0)?, r.get(1)?)))?)
}

/// At the end of a write transaction: how many bytes it stored net of what
/// it freed; `ENOSPC` if it stored more than it
/// freed and the total is past the quota (the transaction then rolls
/// back). Judging the net change lets a rewrite near the limit, or any
/// change that shrinks a workspace already over it, go through.
pub(crate) fn check(conn: &Connection) -> Result<i64> {
    let grown = GROWN.with(|g| g.replace(0));
    if grown <= 0 {
        return Ok(grown);
    }
    let (used, limit) = usage(conn)?;
    if used <= limit {
        return Ok(grown);
    }
    // Undo history gives way before a write fails: runs' before and after
    // trees keep what later runs overwrote, which the quota's owner never
    // asked to keep (snapshots, which they did ask for, stay). Those runs
    // can no longer be undone.
    if crate::undo::drop_run_trees(conn)? > 0 {
        let freed = GROWN.with(|g| g.replace(0));
        let (now, _) = usage(conn)?;
        if now <= limit {
            return Ok(grown + freed);
        }
    }
    Err(FsError::custom(
        Errno::ENOSPC,
        "",
        format!(
            "no space left on device: the workspace quota of {limit} bytes is full ({} bytes stored, {grown} more needed); remove files, or raise it with `computer quota SIZE`",
            used - grown
        ),
    ))
}
