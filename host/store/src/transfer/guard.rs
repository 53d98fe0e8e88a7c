//! The files import and export must never touch: every workspace database
//! this process has open, with SQLite's `-wal`, `-shm` and `-journal` next
//! to it, and the directories holding them (export replaces a host
//! directory by removing it). Compared by (device, inode) after symlinks
//! are resolved, and by (directory, name) for the files not made yet, so
//! neither a symlinked path nor a hard link reaches them.

use std::ffi::OsString;
use std::os::unix::fs::MetadataExt as _;

use cap_std::fs::{Dir, Metadata, MetadataExt};

use crate::location::{self, SIDECARS};

type Key = (u64, u64);

pub(crate) struct Guard {
    /// (directory, file name) of each live database and its sidecars.
    names: Vec<(Key, OsString)>,
    /// The live files that exist now.
    files: Vec<Key>,
    /// Every directory above a live database.
    dirs: Vec<Key>,
}

/// A host directory's identity, for [`Guard::protects`].
#[derive(Clone, Copy)]
pub(crate) struct DirKey(Option<Key>);

impl DirKey {
    pub fn of(dir: &Dir) -> DirKey {
        DirKey(dir.dir_metadata().ok().map(|m| (m.dev(), m.ino())))
    }
}

impl Guard {
    /// The workspaces open in this process, as they are on disk now.
    pub fn new() -> Guard {
        let mut guard = Guard {
            names: Vec::new(),
            files: Vec::new(),
            dirs: Vec::new(),
        };
        for db in location::live() {
            let Some(name) = db.file_name().map(|n| n.to_owned()) else {
                continue;
            };
            for suffix in SIDECARS {
                if let Ok(m) = std::fs::metadata(location::with_suffix(&db, suffix)) {
                    guard.files.push((m.dev(), m.ino()));
                }
            }
            let mut above = db.parent();
            if let Some(parent) = above.and_then(|p| std::fs::metadata(p).ok()) {
                let key = (parent.dev(), parent.ino());
                for suffix in SIDECARS {
                    let mut n = name.clone();
                    n.push(suffix);
                    guard.names.push((key, n));
                }
            }
            while let Some(dir) = above {
                if let Ok(m) = std::fs::metadata(dir) {
                    guard.dirs.push((m.dev(), m.ino()));
                }
                above = dir.parent();
            }
        }
        guard
    }

    /// Whether the entry `name` of the host directory `dir` (with `meta`,
    /// if it exists) is a live database file or one of its sidecars.
    pub fn is_live_file(&self, dir: DirKey, name: &str, meta: Option<&Metadata>) -> bool {
        let by_name = dir
            .0
            .is_some_and(|d| self.names.iter().any(|(k, n)| *k == d && n == name));
        let by_inode =
            meta.is_some_and(|m| !m.is_dir() && self.files.contains(&(m.dev(), m.ino())));
        by_name || by_inode
    }

    /// Whether `meta` is a directory with a live database somewhere below it.
    pub fn holds_live(&self, meta: &Metadata) -> bool {
        meta.is_dir() && self.dirs.contains(&(meta.dev(), meta.ino()))
    }
}

pub(crate) const LIVE_FILE: &str = "it is the database of a workspace open in this process (or its -wal, -shm, -journal or -reserve file)";
pub(crate) const LIVE_DIR: &str =
    "it is a host directory holding the database of a workspace open in this process";
