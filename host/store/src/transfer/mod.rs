//! Import from and export to host directories through cap-std, so that a
//! symlink in either tree can never make us read or write outside the
//! directory we were given. Symlinks are copied as links, never followed.

mod export;
mod guard;
mod import;

use std::path::Path;

use cap_std::ambient_authority;
use cap_std::fs::Dir;
use serde::Serialize;

use crate::error::{FsError, Result};
use crate::path::WsPath;
use crate::tree;
use crate::workspace::Workspace;

/// Progress of a long import, for a progress bar.
#[derive(Debug, Clone, Default)]
pub struct Progress {
    /// Files copied so far.
    pub files_done: u64,
    /// Files to copy.
    pub files_total: u64,
    /// Bytes copied so far.
    pub bytes_done: u64,
    /// Bytes to copy.
    pub bytes_total: u64,
}

/// What an import copied.
#[derive(Debug, Clone, Default, Serialize)]
pub struct ImportStats {
    /// Files copied.
    pub files: u64,
    /// Directories made.
    pub dirs: u64,
    /// Symlinks copied.
    pub symlinks: u64,
    /// Bytes copied.
    pub bytes: u64,
    /// Entries not imported, each with the reason.
    pub skipped: Vec<String>,
}

/// What an export copied.
#[derive(Debug, Clone, Default, Serialize)]
pub struct ExportStats {
    /// Files written.
    pub files: u64,
    /// Directories made.
    pub dirs: u64,
    /// Symlinks made.
    pub symlinks: u64,
    /// Bytes written.
    pub bytes: u64,
    /// Paths not exported, with why.
    pub skipped: Vec<String>,
}

pub(super) fn io_err(path: &str, e: std::io::Error) -> FsError {
    FsError::host_io(path, e)
}

fn open_host_dir(host: &Path) -> Result<Dir> {
    Dir::open_ambient_dir(host, ambient_authority())
        .map_err(|e| io_err(&host.display().to_string(), e))
}

impl Workspace {
    /// Copies the host directory `host` into the workspace directory
    /// `ws_dir` (created if missing), in one transaction. Existing files are
    /// replaced; nothing else in `ws_dir` is removed. Modes and mtimes are
    /// kept; special files and non-UTF-8 names are skipped and reported.
    pub fn import(
        &self,
        host: &Path,
        ws_dir: &str,
        progress: &mut dyn FnMut(&Progress),
    ) -> Result<ImportStats> {
        self.audited(
            "import",
            ws_dir,
            || Some(serde_json::json!({"host": host.display().to_string()})),
            || {
                let dest = WsPath::parse(ws_dir)?;
                let root = open_host_dir(host)?;
                let host_shown = host.display().to_string();
                let (files_total, bytes_total) = import::survey(&root, &host_shown)?;
                let prog = Progress {
                    files_total,
                    bytes_total,
                    ..Default::default()
                };
                progress(&prog);
                self.write_tx(|c| {
                    super::ops::mkdir_p(c, &dest, &dest.to_string())?;
                    let mut sink = import::Sink {
                        stats: ImportStats::default(),
                        prog,
                        report: progress,
                    };
                    self.import_tree(c, &root, &dest, &host_shown, &mut sink)?;
                    Ok(sink.stats)
                })
            },
        )
    }

    /// Writes the workspace directory `ws_dir` out to the host directory
    /// `host` (created if missing). Existing host files are overwritten;
    /// nothing else is removed. Symlinks are recreated verbatim.
    pub fn export(&self, ws_dir: &str, host: &Path) -> Result<ExportStats> {
        self.audited(
            "export",
            ws_dir,
            || Some(serde_json::json!({"host": host.display().to_string()})),
            || {
                let src = WsPath::parse(ws_dir)?;
                let host_shown = host.display().to_string();
                self.read_tx(|c| {
                    // Check the source before touching the host.
                    let chain = tree::resolve_dir(c, &src)?;
                    std::fs::create_dir_all(host).map_err(|e| io_err(&host_shown, e))?;
                    let root = open_host_dir(host)?;
                    let mut stats = ExportStats::default();
                    export::export_tree(c, chain.id(), &root, &src.to_string(), &mut stats)?;
                    Ok(stats)
                })
            },
        )
    }

    /// Writes the whole of tree `tree` (a snapshot, a run's before or
    /// after, or the live tree) out to the host directory `host`, as
    /// [`Workspace::export`] writes a directory of the live tree.
    pub fn export_tree(&self, tree: &crate::TreeRef, host: &Path) -> Result<ExportStats> {
        if let crate::TreeRef::Fork(name) = tree {
            return self
                .open_fork(name)?
                .export_tree(&crate::TreeRef::Live, host);
        }
        let shown = tree.to_string();
        self.audited(
            "export",
            &shown,
            || Some(serde_json::json!({"host": host.display().to_string()})),
            || {
                let host_shown = host.display().to_string();
                self.read_tx(|c| {
                    let root_id = tree.root(c)?;
                    std::fs::create_dir_all(host).map_err(|e| io_err(&host_shown, e))?;
                    let root = open_host_dir(host)?;
                    let mut stats = ExportStats::default();
                    export::export_tree(c, root_id, &root, "/", &mut stats)?;
                    Ok(stats)
                })
            },
        )
    }
}
