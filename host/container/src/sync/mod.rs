//! Workspace sync: before a container exec the workspace is pushed into a
//! host directory that is bind-mounted into the container; after it, the
//! changes are pulled back into the workspace.
//!
//! Both directions are incremental against a [`Manifest`] of what the copy
//! holds. Push does nothing when the workspace revision is the one the
//! copy matches, and otherwise rewrites only entries whose workspace
//! metadata changed. Pull looks at the entries an inotify [`Watcher`] saw
//! change (or, when it cannot vouch for them, scans the whole copy),
//! metadata only, hashes files whose size or mtime changed, and applies
//! creates, modifies, deletes, renames (matched by inode), modes and
//! symlinks.

mod host;
mod manifest;
mod manifest_file;
mod pull;
mod push;
mod watch;

#[cfg(test)]
mod tests;

use cap_std::fs::Dir;
use computer_store::{Errno, FsError, Workspace};
use serde::Serialize;

pub(crate) use host::{Owner, open_root};
pub(crate) use manifest::Manifest;
pub(crate) use manifest_file::{Stamp, log_path as manifest_log_path, stamp as manifest_stamp};
pub(crate) use watch::Watcher;

/// What one sync did.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct SyncReport {
    /// Host entries written or removed by the push.
    pub pushed: u64,
    /// Workspace changes made by the pull.
    pub pulled: u64,
    /// Entries not synced, each with the reason.
    pub skipped: Vec<String>,
    /// Workspace entries the push compared with the copy (how much of the
    /// tree it looked at).
    #[serde(skip)]
    pub examined: u64,
}

/// One sync session over a workspace and its host copy.
pub(crate) struct Syncer<'a> {
    pub ws: &'a Workspace,
    pub root: &'a Dir,
    pub manifest: &'a mut Manifest,
    pub owner: Option<Owner>,
    /// Where the copy is mounted in the container (for symlink targets).
    pub mount: &'a str,
    pub report: &'a mut SyncReport,
}

/// A workspace error that ends the sync (the database failing) rather than
/// skipping one entry.
fn is_fatal(e: &FsError) -> bool {
    e.code == Errno::EIO
}

fn io_fs_error(path: &str, e: &std::io::Error) -> FsError {
    FsError::custom(Errno::EIO, path, format!("{path}: host copy: {e}"))
}
