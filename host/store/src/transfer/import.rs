//! Copying a host directory into the workspace. Like export, the walk keeps
//! its own stack and reopens host directories from the import root, so it
//! holds two descriptors at any depth; a tree deeper than the workspace's
//! path limit stops with `ENAMETOOLONG` naming the first path that does not
//! fit. On the workspace side it goes down by node id (each directory made
//! private once), never resolving a path from the root, so the cost is
//! linear in the number of entries, whatever the depth.

use std::path::{Path, PathBuf};

use cap_std::fs::{Dir, MetadataExt};
use rusqlite::Connection;

use super::guard::{DirKey, Guard, LIVE_FILE};
use super::{ImportStats, Progress, io_err};
use crate::clock::now_ns;
use crate::content;
use crate::error::{Errno, FsError, Result};
use crate::path::WsPath;
use crate::tree::{self, Node, NodeKind};
use crate::workspace::{Touch, Workspace, will_change};

enum Task {
    /// Copy host directory `rel` into workspace directory `id` (at `dest`).
    Enter { rel: PathBuf, dest: WsPath, id: i64 },
    /// Everything below is copied: give the directory its host mtime.
    Finish { id: i64, mtime: i64 },
}

/// A host subdirectory to enter: its relative path, workspace path and node, and mtime.
type Subdir = (PathBuf, WsPath, i64, i64);

/// Where import's progress goes.
pub(super) struct Sink<'a> {
    pub stats: ImportStats,
    pub prog: Progress,
    pub report: &'a mut dyn FnMut(&Progress),
}

pub(super) fn open_rel(root: &Dir, rel: &Path, shown: &str) -> Result<Dir> {
    if rel.as_os_str().is_empty() {
        root.try_clone().map_err(|e| io_err(shown, e))
    } else {
        root.open_dir(rel).map_err(|e| io_err(shown, e))
    }
}

impl Workspace {
    pub(super) fn import_tree(
        &self,
        c: &Connection,
        root: &Dir,
        dest: &WsPath,
        host_shown: &str,
        sink: &mut Sink<'_>,
    ) -> Result<()> {
        let guard = Guard::new();
        let mut chain = tree::resolve_dir(c, dest)?;
        tree::unshare_all(c, &mut chain)?;
        let mut stack = vec![Task::Enter {
            rel: PathBuf::new(),
            dest: chain.path(),
            id: chain.id(),
        }];
        while let Some(task) = stack.pop() {
            match task {
                Task::Enter { rel, dest, id } => {
                    let dir = open_rel(root, &rel, &dest.to_string())?;
                    let mut subdirs =
                        self.import_entries(c, &dir, &rel, (&dest, id), host_shown, &guard, sink)?;
                    // Pushed in reverse so the stack pops them in name order.
                    while let Some((rel, dest, id, mtime)) = subdirs.pop() {
                        stack.push(Task::Finish { id, mtime });
                        stack.push(Task::Enter { rel, dest, id });
                    }
                }
                Task::Finish { id, mtime } => {
                    tree::set_mtime(c, id, mtime)?;
                    sink.stats.dirs += 1;
                }
            }
        }
        Ok(())
    }

    /// Copies the files and links of one host directory and makes its
    /// subdirectories, returning those to enter.
    #[allow(clippy::too_many_arguments)]
    fn import_entries(
        &self,
        c: &Connection,
        dir: &Dir,
        rel: &Path,
        (dest, dir_id): (&WsPath, i64),
        host_shown: &str,
        guard: &Guard,
        sink: &mut Sink<'_>,
    ) -> Result<Vec<Subdir>> {
        let key = DirKey::of(dir);
        let mut entries = Vec::new();
        for entry in dir.entries().map_err(|e| io_err(host_shown, e))? {
            entries.push(entry.map_err(|e| io_err(host_shown, e))?.file_name());
        }
        entries.sort();
        let mut subdirs = Vec::new();
        for os_name in entries {
            let Some(name) = os_name.to_str().map(str::to_owned) else {
                sink.stats.skipped.push(format!(
                    "{}/{}: name is not UTF-8",
                    dest,
                    os_name.to_string_lossy()
                ));
                continue;
            };
            let target = dest.join(&name);
            let shown = target.to_string();
            let meta = dir.symlink_metadata(&name).map_err(|e| io_err(&shown, e))?;
            if guard.is_live_file(key, &name, Some(&meta)) {
                sink.stats
                    .skipped
                    .push(format!("{shown}: not imported: {LIVE_FILE}"));
                continue;
            }
            let ft = meta.file_type();
            let mtime = meta
                .modified()
                .ok()
                .and_then(|t| t.into_std().duration_since(std::time::UNIX_EPOCH).ok())
                .map_or_else(now_ns, |d| d.as_nanos().min(i64::MAX as u128) as i64);
            let mode = meta.mode() & 0o7777;
            let existing = tree::lookup(c, dir_id, &name)?;
            if ft.is_dir() {
                let id = ensure_dir(c, dir_id, &name, existing, &target, mode)?;
                subdirs.push((rel.join(&name), target, id, mtime));
            } else if ft.is_file() {
                let mut file = dir.open(&name).map_err(|e| io_err(&shown, e))?;
                let max = self.config.max_file_size;
                let size = put_file(
                    c,
                    (dir_id, &name),
                    existing,
                    &target,
                    &mut file,
                    (mode, mtime),
                    max,
                )?;
                sink.stats.files += 1;
                sink.stats.bytes += size;
                sink.prog.files_done += 1;
                sink.prog.bytes_done += size;
                (sink.report)(&sink.prog);
            } else if ft.is_symlink() {
                let link = dir
                    .read_link_contents(&name)
                    .map_err(|e| io_err(&shown, e))?;
                let Some(link) = link.to_str().map(str::to_owned) else {
                    sink.stats
                        .skipped
                        .push(format!("{shown}: symlink target is not UTF-8"));
                    continue;
                };
                clear(c, dir_id, &name, existing, &target)?;
                let id = tree::insert_node(c, NodeKind::Symlink, 0o777, now_ns(), Some(&link))?;
                tree::link(c, dir_id, &name, id)?;
                sink.stats.symlinks += 1;
            } else {
                sink.stats
                    .skipped
                    .push(format!("{shown}: special file (fifo, socket or device)"));
            }
        }
        Ok(subdirs)
    }
}

/// A private directory at `name` in `dir` with `mode`, kept if there is
/// one, replacing anything else. Returns its id.
fn ensure_dir(
    c: &Connection,
    dir: i64,
    name: &str,
    existing: Option<Node>,
    target: &WsPath,
    mode: u32,
) -> Result<i64> {
    let shown = target.to_string();
    if let Some(node) = existing.clone().filter(|n| n.kind == NodeKind::Directory) {
        will_change(c, target, Touch::Node, &shown)?;
        let node = tree::private_child(c, dir, name, node)?;
        crate::ops::set_mode(c, node.id, mode)?;
        return Ok(node.id);
    }
    clear(c, dir, name, existing, target)?;
    let id = tree::insert_node(c, NodeKind::Directory, mode, now_ns(), None)?;
    tree::link(c, dir, name, id)?;
    Ok(id)
}

/// Removes what is at `name` (a link is replaced, never written through).
fn clear(
    c: &Connection,
    dir: i64,
    name: &str,
    existing: Option<Node>,
    target: &WsPath,
) -> Result<()> {
    let shown = target.to_string();
    match existing {
        Some(node) => {
            will_change(c, target, Touch::Subtree, &shown)?;
            tree::unlink(c, dir, name, node.id)
        }
        None => will_change(c, target, Touch::Node, &shown),
    }
}

/// Streams a host file into `name` of `dir`, replacing a file or link
/// there (a directory there is `EISDIR`). Returns its size.
fn put_file(
    c: &Connection,
    (dir, name): (i64, &str),
    existing: Option<Node>,
    target: &WsPath,
    file: &mut dyn std::io::Read,
    (mode, mtime): (u32, i64),
    max: u64,
) -> Result<u64> {
    let shown = target.to_string();
    if existing
        .as_ref()
        .is_some_and(|n| n.kind == NodeKind::Directory)
    {
        return Err(FsError::new(Errno::EISDIR, &shown));
    }
    let id = tree::insert_node(c, NodeKind::File, mode, mtime, None)?;
    let size =
        content::fill_from_reader(c, id, file, max, &shown, mtime).map_err(|e| e.at(&shown))?;
    match existing {
        Some(old) => {
            will_change(c, target, Touch::Subtree, &shown)?;
            tree::repoint(c, dir, name, old.id, id)?;
        }
        None => {
            will_change(c, target, Touch::Node, &shown)?;
            tree::link(c, dir, name, id)?;
        }
    }
    Ok(size)
}

/// Totals for the progress bar: (files, bytes), walked like the import.
pub(super) fn survey(root: &Dir, shown: &str) -> Result<(u64, u64)> {
    let (mut files, mut bytes) = (0, 0);
    let mut stack = vec![PathBuf::new()];
    while let Some(rel) = stack.pop() {
        // Past the path limit the import itself stops with a clear error.
        if rel.as_os_str().len() >= crate::path::MAX_PATH {
            continue;
        }
        let dir = open_rel(root, &rel, shown)?;
        for entry in dir.entries().map_err(|e| io_err(shown, e))? {
            let entry = entry.map_err(|e| io_err(shown, e))?;
            let ft = entry.file_type().map_err(|e| io_err(shown, e))?;
            if ft.is_dir() {
                stack.push(rel.join(entry.file_name()));
            } else if ft.is_file() {
                files += 1;
                bytes += entry.metadata().map(|m| m.len()).unwrap_or(0);
            }
        }
    }
    Ok((files, bytes))
}
