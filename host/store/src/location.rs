//! Where a workspace file lives: whether opening may create it, whether it
//! must be opened read-only, and which files this process has open (so
//! import and export never touch a live database).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use crate::error::{Errno, FsError, Result};

/// What opening a workspace file may do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum OpenMode {
    /// Create the file (and its directories) if it does not exist.
    #[default]
    Create,
    /// The file must exist; it is opened for writing.
    Existing,
    /// The file must exist. It is opened for writing when this process may
    /// write it and its directory, otherwise read-only (every change then
    /// fails with `EROFS`).
    Read,
}

/// How the connection is to be opened, decided before SQLite sees the file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Access {
    ReadWriteCreate,
    ReadWrite,
    /// Read-only, with the WAL index usable (the `-shm` file is writable).
    ReadOnly,
    /// Read-only and nobody can be writing: SQLite is told the file is
    /// immutable, as it cannot use the WAL without a writable directory.
    Immutable,
}

impl Access {
    pub(crate) fn is_read_only(self) -> bool {
        matches!(self, Access::ReadOnly | Access::Immutable)
    }
}

/// Checks `path` against `mode` and picks the access: a missing file is
/// refused unless the mode creates, and an empty file is never taken for a
/// new workspace (SQLite would silently start one in it).
pub(crate) fn prepare(path: &Path, mode: OpenMode) -> Result<Access> {
    let shown = path.display().to_string();
    let meta = match std::fs::metadata(path) {
        Ok(m) => Some(m),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(FsError::host_io(&shown, e)),
    };
    match meta {
        None if mode == OpenMode::Create => {
            if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
                std::fs::create_dir_all(parent)
                    .map_err(|e| FsError::host_io(parent.display().to_string(), e))?;
            }
            Ok(Access::ReadWriteCreate)
        }
        None => Err(FsError::custom(
            Errno::ENOENT,
            &shown,
            format!(
                "no workspace at {shown}: the file does not exist (create one with `computer init`)"
            ),
        )),
        Some(m) if m.is_file() && m.len() == 0 => Err(FsError::custom(
            Errno::EIO,
            &shown,
            format!(
                "workspace {shown} is an empty file (0 bytes), not a workspace: it may have been truncated; restore it from a copy, or remove it and run `computer init` for a new one"
            ),
        )),
        Some(m) if m.is_file() && mode == OpenMode::Read && !writable(path) => {
            Ok(if shm_writable(path) {
                Access::ReadOnly
            } else {
                Access::Immutable
            })
        }
        // Directories and other non-files are left to SQLite, which says why.
        Some(_) => Ok(Access::ReadWrite),
    }
}

fn can_write(path: &Path) -> bool {
    rustix::fs::access(path, rustix::fs::Access::WRITE_OK).is_ok()
}

fn parent_of(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// SQLite writes the file, its `-wal` and `-shm`, and creates them in its directory.
fn writable(path: &Path) -> bool {
    can_write(path) && can_write(parent_of(path))
}

fn shm_writable(path: &Path) -> bool {
    can_write(&sidecar(path, "-shm"))
}

fn sidecar(path: &Path, suffix: &str) -> PathBuf {
    let mut s = path.as_os_str().to_owned();
    s.push(suffix);
    PathBuf::from(s)
}

/// The files SQLite keeps next to a database, and the workspace's reserve
/// of disk space (`reserve.rs`).
pub(crate) const SIDECARS: [&str; 5] = ["", "-wal", "-shm", "-journal", "-reserve"];

/// Workspace files this process has open, by canonical path (with a count:
/// one file may be open through several handles).
static OPEN: Mutex<BTreeMap<PathBuf, usize>> = Mutex::new(BTreeMap::new());

fn open_files() -> std::sync::MutexGuard<'static, BTreeMap<PathBuf, usize>> {
    OPEN.lock().unwrap_or_else(|p| p.into_inner())
}

/// Notes an opened workspace file; returns the key to [`forget`] it by.
pub(crate) fn remember(path: &Path) -> Option<PathBuf> {
    let canonical = std::fs::canonicalize(path).ok()?;
    *open_files().entry(canonical.clone()).or_default() += 1;
    Some(canonical)
}

pub(crate) fn forget(canonical: &Path) {
    let mut open = open_files();
    if let Some(n) = open.get_mut(canonical) {
        *n -= 1;
        if *n == 0 {
            open.remove(canonical);
        }
    }
}

/// The canonical paths of the workspace files this process has open.
pub(crate) fn live() -> Vec<PathBuf> {
    open_files().keys().cloned().collect()
}

/// `path` with SQLite's `suffix` appended (`-wal`, ...).
pub(crate) fn with_suffix(path: &Path, suffix: &str) -> PathBuf {
    sidecar(path, suffix)
}
