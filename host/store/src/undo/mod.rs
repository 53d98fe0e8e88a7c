//! `undo`: puts back what one run changed ([`Workspace::undo`]).
//!
//! Every run records the tree it started from and the tree it ended with
//! (`record.rs`). Undo compares the two (the top-most entries that differ,
//! `diff::walk::entries`) and, for each, checks that the live tree still
//! holds what the run left there. Where it does, the entry is set back to
//! what it was before the run, sharing the before tree's nodes. Where
//! something changed it since, that path is a conflict: undo refuses and
//! names them all, or with `force` reverts the rest. One transaction.

pub(crate) mod record;

use rusqlite::Connection;
use serde::Serialize;

use crate::clock::now_ns;
use crate::diff::{run_tree, walk};
use crate::error::{Errno, FsError, Result};
use crate::path::WsPath;
use crate::tree::{self, NodeKind};
use crate::workspace::{Touch, Workspace, will_change};

pub use record::RUN_TREES_KEPT;

/// Drops every run's before and after trees (the quota needs their space);
/// how many runs lost theirs.
pub(crate) fn drop_run_trees(conn: &Connection) -> Result<u64> {
    record::drop_older_than(conn, 0)
}

/// What [`Workspace::undo`] did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct UndoReport {
    /// The run undone.
    pub run: String,
    /// Paths set back to what they were before the run, sorted.
    pub reverted: Vec<String>,
    /// Paths changed since the run, left as they are (only with `force`;
    /// without it undo fails naming them).
    pub conflicts: Vec<String>,
}

/// What the live tree has at a path.
enum Live {
    /// A directory above it is missing or is not a directory.
    NoParent,
    Absent,
    Node(i64),
}

fn live_at(c: &Connection, path: &WsPath) -> Result<Live> {
    let root = tree::live_root(c)?;
    let mut dir = root;
    let parts = path.components();
    for (i, name) in parts.iter().enumerate() {
        let Some(node) = tree::lookup(c, dir, name)? else {
            return Ok(if i + 1 == parts.len() {
                Live::Absent
            } else {
                Live::NoParent
            });
        };
        if i + 1 == parts.len() {
            return Ok(Live::Node(node.id));
        }
        if node.kind != NodeKind::Directory {
            return Ok(Live::NoParent);
        }
        dir = node.id;
    }
    Ok(Live::Node(root))
}

/// The XOR of the salts of the entries on `path` in the tree at `root`
/// (as far as it exists there): what gives its nodes their inode numbers.
fn salt_at(c: &Connection, root: i64, path: &WsPath) -> Result<i64> {
    let mut dir = root;
    let mut salt = 0;
    for name in path.components() {
        let Some(node) = tree::lookup(c, dir, name)? else {
            break;
        };
        salt ^= node.salt;
        dir = node.id;
    }
    Ok(salt)
}

/// Sets the live entry at `path` (whose parent is a directory) to name
/// `target` (a node of a pinned tree, shared), or removes it. `salt` is
/// the XOR of the salts on `path` in the target's tree, so the entry
/// shows the inode numbers it showed there.
fn set_entry(c: &Connection, path: &WsPath, target: Option<i64>, salt: i64) -> Result<()> {
    let shown = path.to_string();
    will_change(c, path, Touch::Subtree, &shown)?;
    let name = path.file_name().unwrap_or_default().to_owned();
    let mut chain = tree::resolve_dir(c, &path.parent())?;
    tree::unshare_all(c, &mut chain)?;
    let dir = chain.id();
    let existing = tree::lookup(c, dir, &name)?;
    let source = target
        .map(|t| crate::hard_links::copy_source(c, t))
        .transpose()?;
    match (existing, source) {
        (Some(e), Some(s)) if e.id == s => return Ok(()),
        (Some(e), Some(s)) => {
            tree::repoint(c, dir, &name, e.id, s)?;
            tree::set_salt(c, dir, &name, salt ^ chain.salt())?;
        }
        (None, Some(s)) => tree::link_salted(c, dir, &name, s, salt ^ chain.salt())?,
        (Some(e), None) => tree::unlink(c, dir, &name, e.id)?,
        (None, None) => return Ok(()),
    }
    tree::set_mtime(c, dir, now_ns())
}

impl Workspace {
    /// Reverts exactly what run `run_id` changed, if nothing changed the
    /// same paths since; otherwise fails with `EPERM` naming every
    /// conflicting path and changes nothing.
    pub fn undo(&self, run_id: &str) -> Result<UndoReport> {
        self.undo_with(run_id, false)
    }

    /// As [`Workspace::undo`]; with `force`, conflicting paths are left as
    /// they are and the rest is reverted.
    pub fn undo_with(&self, run_id: &str, force: bool) -> Result<UndoReport> {
        crate::runs::validate_run_id(run_id)?;
        self.audited(
            "undo",
            run_id,
            || Some(serde_json::json!({ "force": force })),
            || {
                self.write_tx(|c| {
                    let before = run_tree(c, run_id, "tree_before")?;
                    let after = run_tree(c, run_id, "tree_after")?;
                    let mut changes = Vec::new();
                    walk::entries(c, before, after, &mut changes)?;
                    let mut report = UndoReport {
                        run: run_id.to_owned(),
                        reverted: Vec::new(),
                        conflicts: Vec::new(),
                    };
                    let mut apply = Vec::new();
                    for change in changes {
                        let still = match (live_at(c, &change.path)?, change.new) {
                            (Live::Node(l), Some(n)) => walk::same_tree(c, l, n)?,
                            (Live::Absent, None) => true,
                            _ => false,
                        };
                        if still {
                            apply.push(change);
                        } else {
                            report.conflicts.push(change.path.to_string());
                        }
                    }
                    if !report.conflicts.is_empty() && !force {
                        return Err(FsError::custom(
                            Errno::EPERM,
                            run_id,
                            format!(
                                "cannot undo run {run_id}: changed since it ended: {} (undo --force reverts the rest)",
                                report.conflicts.join(", ")
                            ),
                        ));
                    }
                    for change in apply {
                        let salt = salt_at(c, before, &change.path)?;
                        set_entry(c, &change.path, change.old, salt)?;
                        report.reverted.push(change.path.to_string());
                    }
                    report.reverted.sort();
                    report.conflicts.sort();
                    Ok(report)
                })
            },
        )
    }
}
