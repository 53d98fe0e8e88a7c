//! Import from and export to host directories through cap-std, so that a
//! symlink in either tree can never make us read or write outside the
//! directory we were given. Symlinks are copied as links, never followed.

use std::io::{Read, Write};
use std::path::Path;

use cap_std::ambient_authority;
use cap_std::fs::{Dir, MetadataExt, PermissionsExt};
use rusqlite::Connection;
use serde::Serialize;

use crate::clock::now_ns;
use crate::content;
use crate::error::{FsError, Result};
use crate::path::WsPath;
use crate::tree::{self, Lookup, NodeKind};
use crate::types::WriteOptions;
use crate::workspace::{Touch, Workspace, will_change};

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

fn io_err(path: &str, e: std::io::Error) -> FsError {
    FsError::host_io(path, e)
}

fn open_host_dir(host: &Path) -> Result<Dir> {
    Dir::open_ambient_dir(host, ambient_authority())
        .map_err(|e| io_err(&host.display().to_string(), e))
}

/// Totals for the progress bar: (files, bytes).
fn survey(dir: &Dir, shown: &str) -> Result<(u64, u64)> {
    let mut files = 0;
    let mut bytes = 0;
    for entry in dir.entries().map_err(|e| io_err(shown, e))? {
        let entry = entry.map_err(|e| io_err(shown, e))?;
        let ft = entry.file_type().map_err(|e| io_err(shown, e))?;
        if ft.is_dir() {
            let name = entry.file_name();
            let sub = dir.open_dir(&name).map_err(|e| io_err(shown, e))?;
            let (f, b) = survey(&sub, shown)?;
            files += f;
            bytes += b;
        } else if ft.is_file() {
            files += 1;
            bytes += entry.metadata().map(|m| m.len()).unwrap_or(0);
        }
    }
    Ok((files, bytes))
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
                let (files_total, bytes_total) = survey(&root, &host_shown)?;
                let mut prog = Progress {
                    files_total,
                    bytes_total,
                    ..Default::default()
                };
                progress(&prog);
                let max = self.config.max_file_size;
                self.write_tx(|c| {
                    super::ops::mkdir_p(c, &dest, &dest.to_string())?;
                    let mut stats = ImportStats::default();
                    self.import_dir(
                        c,
                        &root,
                        &dest,
                        &host_shown,
                        max,
                        &mut stats,
                        &mut prog,
                        progress,
                    )?;
                    Ok(stats)
                })
            },
        )
    }

    #[allow(clippy::too_many_arguments)]
    fn import_dir(
        &self,
        c: &Connection,
        dir: &Dir,
        dest: &WsPath,
        host_shown: &str,
        max: u64,
        stats: &mut ImportStats,
        prog: &mut Progress,
        progress: &mut dyn FnMut(&Progress),
    ) -> Result<()> {
        let mut entries = Vec::new();
        for entry in dir.entries().map_err(|e| io_err(host_shown, e))? {
            entries.push(entry.map_err(|e| io_err(host_shown, e))?);
        }
        entries.sort_by_key(|e| e.file_name());
        for entry in entries {
            let os_name = entry.file_name();
            let Some(name) = os_name.to_str().map(str::to_owned) else {
                stats.skipped.push(format!(
                    "{}/{}: name is not UTF-8",
                    dest,
                    os_name.to_string_lossy()
                ));
                continue;
            };
            let target = dest.join(&name);
            let shown = target.to_string();
            let meta = dir.symlink_metadata(&name).map_err(|e| io_err(&shown, e))?;
            let ft = meta.file_type();
            let mtime = meta
                .modified()
                .ok()
                .and_then(|t| t.into_std().duration_since(std::time::UNIX_EPOCH).ok())
                .map_or_else(now_ns, |d| d.as_nanos().min(i64::MAX as u128) as i64);
            let mode = meta.mode() & 0o7777;
            if ft.is_dir() {
                ensure_dir(c, &target, mode, &shown)?;
                let sub = dir.open_dir(&name).map_err(|e| io_err(&shown, e))?;
                self.import_dir(c, &sub, &target, host_shown, max, stats, prog, progress)?;
                set_attrs(c, &target, None, mtime)?;
                stats.dirs += 1;
            } else if ft.is_file() {
                let mut file = dir.open(&name).map_err(|e| io_err(&shown, e))?;
                let mut counting = CountingReader {
                    inner: &mut file,
                    count: 0,
                };
                let opts = WriteOptions {
                    mode: Some(mode),
                    ..Default::default()
                };
                let size = self.write_from_in(c, &target, &mut counting, &opts, max, &shown)?;
                set_attrs(c, &target, None, mtime)?;
                stats.files += 1;
                stats.bytes += size;
                prog.files_done += 1;
                prog.bytes_done += size;
                progress(prog);
            } else if ft.is_symlink() {
                let link = dir
                    .read_link_contents(&name)
                    .map_err(|e| io_err(&shown, e))?;
                let Some(link) = link.to_str().map(str::to_owned) else {
                    stats
                        .skipped
                        .push(format!("{shown}: symlink target is not UTF-8"));
                    continue;
                };
                replace_symlink(c, &target, &link, &shown)?;
                stats.symlinks += 1;
            } else {
                stats
                    .skipped
                    .push(format!("{shown}: special file (fifo, socket or device)"));
            }
        }
        Ok(())
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
                    export_dir(c, chain.id(), &root, &src, &mut stats)?;
                    Ok(stats)
                })
            },
        )
    }
}

struct CountingReader<'a> {
    inner: &'a mut dyn Read,
    count: u64,
}

impl Read for CountingReader<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.count += n as u64;
        Ok(n)
    }
}

/// A directory at `target`: kept if there is one, replacing anything else.
fn ensure_dir(c: &Connection, target: &WsPath, mode: u32, shown: &str) -> Result<()> {
    match tree::resolve(c, target, false)? {
        Lookup::Found(chain) if chain.kind() == NodeKind::Directory => {
            set_attrs(c, target, Some(mode), now_ns())
        }
        Lookup::Found(mut chain) => {
            will_change(c, &chain.path(), Touch::Subtree, shown)?;
            let n = chain.steps.len();
            tree::unshare(c, &mut chain, n - 1)?;
            let step = chain.steps[n - 1].clone();
            tree::unlink(c, step.parent, &step.name, step.node.id)?;
            ensure_dir(c, target, mode, shown)
        }
        Lookup::Missing { mut parent, name } => {
            will_change(c, &parent.path().join(&name), Touch::Node, shown)?;
            tree::unshare_all(c, &mut parent)?;
            let id = tree::insert_node(c, NodeKind::Directory, mode, now_ns(), None)?;
            tree::link(c, parent.id(), &name, id)
        }
    }
}

fn replace_symlink(c: &Connection, target: &WsPath, link: &str, shown: &str) -> Result<()> {
    match tree::resolve(c, target, false)? {
        Lookup::Found(mut chain) => {
            will_change(c, &chain.path(), Touch::Subtree, shown)?;
            let n = chain.steps.len();
            tree::unshare(c, &mut chain, n - 1)?;
            let step = chain.steps[n - 1].clone();
            tree::unlink(c, step.parent, &step.name, step.node.id)?;
            replace_symlink(c, target, link, shown)
        }
        Lookup::Missing { mut parent, name } => {
            will_change(c, &parent.path().join(&name), Touch::Node, shown)?;
            tree::unshare_all(c, &mut parent)?;
            let id = tree::insert_node(c, NodeKind::Symlink, 0o777, now_ns(), Some(link))?;
            tree::link(c, parent.id(), &name, id)
        }
    }
}

fn set_attrs(c: &Connection, target: &WsPath, mode: Option<u32>, mtime: i64) -> Result<()> {
    let mut chain = tree::resolve_existing(c, target, false)?;
    tree::unshare_all(c, &mut chain)?;
    if let Some(mode) = mode {
        c.prepare_cached("UPDATE nodes SET mode = ?2 WHERE id = ?1")?
            .execute(rusqlite::params![chain.id(), (mode & 0o7777) as i64])?;
    }
    tree::set_mtime(c, chain.id(), mtime)
}

fn export_dir(
    c: &Connection,
    dir_id: i64,
    host: &Dir,
    at: &WsPath,
    stats: &mut ExportStats,
) -> Result<()> {
    for (name, node) in tree::list(c, dir_id, 0, None)? {
        let here = at.join(&name);
        let shown = here.to_string();
        // Whatever is at the name on the host is replaced unless it is
        // already the right kind; never written through.
        let existing = host.symlink_metadata(&name).ok().map(|m| m.file_type());
        match node.kind {
            NodeKind::Directory => {
                match existing {
                    Some(ft) if ft.is_dir() => {}
                    Some(_) => {
                        host.remove_file(&name).map_err(|e| io_err(&shown, e))?;
                        host.create_dir(&name).map_err(|e| io_err(&shown, e))?;
                    }
                    None => host.create_dir(&name).map_err(|e| io_err(&shown, e))?,
                }
                let sub = host.open_dir(&name).map_err(|e| io_err(&shown, e))?;
                export_dir(c, node.id, &sub, &here, stats)?;
                host.set_permissions(&name, cap_std::fs::Permissions::from_mode(node.mode))
                    .map_err(|e| io_err(&shown, e))?;
                stats.dirs += 1;
            }
            NodeKind::File => {
                // Replace rather than open for writing: the old file may be
                // read-only (git objects are 0444) or hard-linked elsewhere.
                match existing {
                    Some(ft) if ft.is_dir() => {
                        host.remove_dir_all(&name).map_err(|e| io_err(&shown, e))?
                    }
                    Some(_) => host.remove_file(&name).map_err(|e| io_err(&shown, e))?,
                    None => {}
                }
                let file = host.create(&name).map_err(|e| io_err(&shown, e))?;
                let mut file = file.into_std();
                content::for_each_chunk(c, node.id, &mut |piece| {
                    file.write_all(piece).map_err(|e| io_err(&shown, e))
                })?;
                file.set_permissions(std::os::unix::fs::PermissionsExt::from_mode(node.mode))
                    .map_err(|e| io_err(&shown, e))?;
                let mtime = std::time::UNIX_EPOCH
                    + std::time::Duration::from_nanos(node.mtime_ns.max(0) as u64);
                file.set_modified(mtime).map_err(|e| io_err(&shown, e))?;
                stats.files += 1;
                stats.bytes += node.size;
            }
            NodeKind::Symlink => {
                match existing {
                    Some(ft) if ft.is_dir() => {
                        host.remove_dir_all(&name).map_err(|e| io_err(&shown, e))?
                    }
                    Some(_) => host.remove_file(&name).map_err(|e| io_err(&shown, e))?,
                    None => {}
                }
                let target = node.target.clone().unwrap_or_default();
                // The link is created, never followed, so its target may point anywhere.
                host.symlink_contents(&target, &name)
                    .map_err(|e| io_err(&shown, e))?;
                stats.symlinks += 1;
            }
        }
    }
    Ok(())
}
