//! A reserve of disk space next to the workspace file (`NAME-reserve`), so
//! that a full disk does not leave a workspace stuck.
//!
//! SQLite needs free disk space even to delete: the pages a removal changes
//! are written to the WAL first. On a disk that a run filled, `fs rm` then
//! failed, and so did recording the end of the run, which stayed `running`.
//! Every writable open makes sure the reserve file holds [`RESERVE_BYTES`]
//! of written (not sparse) zeros. When a write fails because the disk is
//! full, the reserve is deleted, which gives that space back, and from then
//! on this handle refuses changes that store more than they free (so the
//! run that filled the disk cannot eat the reserve too): what it records of
//! the run's end, and any removal, go through. A later open makes the
//! reserve again if the space is there (freeing workspace files frees pages
//! inside the file, which later writes reuse; the disk space comes back when
//! files outside it are removed).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

use crate::error::{Errno, FsError, Result};

/// How much space the reserve keeps: room for the WAL frames of a removal
/// and of recording a run's end.
pub const RESERVE_BYTES: u64 = 2 << 20;

/// The reserve of one workspace handle.
#[derive(Default)]
pub(crate) struct Reserve {
    path: Option<PathBuf>,
    /// The reserve was deleted by this handle for a full disk.
    released: AtomicBool,
}

impl Reserve {
    /// Makes sure the reserve next to `db` is whole (best effort: on a disk
    /// already full it is left out, and removed if only part was written).
    pub fn keep(db: &Path) -> Reserve {
        let path = crate::location::with_suffix(db, "-reserve");
        let whole = std::fs::metadata(&path).is_ok_and(|m| m.len() >= RESERVE_BYTES);
        if !whole && fill(&path).is_err() {
            let _ = std::fs::remove_file(&path);
        }
        Reserve {
            path: Some(path),
            released: AtomicBool::new(false),
        }
    }

    /// Called with the error of a failed write: a full disk releases the
    /// reserve, so the next write (a removal, a run's end) has room.
    pub fn on_error(&self, e: &FsError) {
        if !is_disk_full(e) || self.released.swap(true, Ordering::SeqCst) {
            return;
        }
        if let Some(path) = &self.path {
            let _ = std::fs::remove_file(path);
            tracing::warn!(
                "the disk holding the workspace is full: released its reserve ({}) so removals and run records still fit",
                path.display()
            );
        }
    }

    /// At the end of a change that stored `grown` more bytes than it freed:
    /// refused once the reserve was released.
    pub fn check_growth(&self, grown: i64) -> Result<()> {
        if grown > 0 && self.released.load(Ordering::SeqCst) {
            return Err(FsError::custom(
                Errno::ENOSPC,
                "",
                "no space left on device: the disk holding the workspace file is full (its reserve is kept for \
                 removals and run records; remove files to free space)",
            ));
        }
        Ok(())
    }
}

fn fill(path: &Path) -> std::io::Result<()> {
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .write(true)
        .truncate(true)
        .open(path)?;
    let block = vec![0u8; 64 << 10];
    // Written, not just sized: a sparse file would reserve nothing. No
    // fsync: the filesystem accounts for the blocks when they are written.
    for _ in 0..RESERVE_BYTES / block.len() as u64 {
        f.write_all(&block)?;
    }
    Ok(())
}

/// Whether `e` is SQLite's "disk full" (not the workspace quota).
fn is_disk_full(e: &FsError) -> bool {
    e.code == Errno::ENOSPC && e.message.contains(crate::error::DISK_FULL)
}
