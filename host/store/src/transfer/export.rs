//! Writing a workspace directory out to the host. The walk keeps its own
//! stack and reopens each host directory from the export root by its
//! relative path, so it holds two descriptors whatever the depth, and
//! paths are bounded by `MAX_PATH` (a deeper tree is refused by name).
//! Hard links are not recreated on the host: each name is written as a
//! file of its own (as `cp -r` does; an import likewise reads each host
//! name as its own file).

use std::io::Write;
use std::path::PathBuf;

use cap_std::fs::{Dir, Metadata, PermissionsExt};
use rusqlite::Connection;

use super::guard::{DirKey, Guard, LIVE_DIR, LIVE_FILE};
use super::{ExportStats, io_err};
use crate::content;
use crate::error::{Errno, FsError, Result};
use crate::path::MAX_PATH;
use crate::tree::{self, Node, NodeKind};

/// Permission bits an export keeps: setuid, setgid and sticky are dropped,
/// as `tar` does unless asked to keep them, so a workspace can never plant
/// a setuid file on the host.
const EXPORTED_MODE: u32 = 0o777;

enum Task {
    /// Export the entries of workspace directory `id` into host `rel`.
    Enter { id: i64, rel: PathBuf, at: String },
    /// Every entry below is written: give the directory its mode.
    Finish { rel: PathBuf, mode: u32, at: String },
}

pub(super) fn export_tree(
    c: &Connection,
    root_id: i64,
    root: &Dir,
    at: &str,
    stats: &mut ExportStats,
) -> Result<()> {
    let guard = Guard::new();
    let mut stack = vec![Task::Enter {
        id: root_id,
        rel: PathBuf::new(),
        at: at.trim_end_matches('/').to_owned(),
    }];
    while let Some(task) = stack.pop() {
        match task {
            Task::Enter { id, rel, at } => {
                let host = open_rel(root, &rel, &at)?;
                let dir = DirKey::of(&host);
                for (name, node) in tree::list(c, id, 0, None)? {
                    let here = format!("{at}/{name}");
                    let existing = host.symlink_metadata(&name).ok();
                    if let Some(why) = refusal(&guard, dir, &name, existing.as_ref(), &node) {
                        stats.skipped.push(format!("{here}: not exported: {why}"));
                        continue;
                    }
                    let ft = existing.as_ref().map(|m| m.file_type());
                    match node.kind {
                        NodeKind::Directory => {
                            match ft {
                                Some(ft) if ft.is_dir() => {}
                                Some(_) => {
                                    host.remove_file(&name).map_err(|e| io_err(&here, e))?;
                                    host.create_dir(&name).map_err(|e| io_err(&here, e))?;
                                }
                                None => host.create_dir(&name).map_err(|e| io_err(&here, e))?,
                            }
                            let rel = rel.join(&name);
                            stack.push(Task::Finish {
                                rel: rel.clone(),
                                mode: node.mode,
                                at: here.clone(),
                            });
                            stack.push(Task::Enter {
                                id: node.id,
                                rel,
                                at: here,
                            });
                        }
                        NodeKind::File => {
                            clear(&host, &name, ft, &here)?;
                            write_file(c, &host, &name, &node, &here)?;
                            stats.files += 1;
                            stats.bytes += node.size;
                        }
                        NodeKind::Symlink => {
                            clear(&host, &name, ft, &here)?;
                            let target = node.target.clone().unwrap_or_default();
                            // The link is created, never followed, so its target may point anywhere.
                            host.symlink_contents(&target, &name)
                                .map_err(|e| io_err(&here, e))?;
                            stats.symlinks += 1;
                        }
                    }
                }
            }
            Task::Finish { rel, mode, at } => {
                root.set_permissions(
                    &rel,
                    cap_std::fs::Permissions::from_mode(mode & EXPORTED_MODE),
                )
                .map_err(|e| io_err(&at, e))?;
                stats.dirs += 1;
            }
        }
    }
    Ok(())
}

/// Why the host entry `name` must be left alone, if it must.
fn refusal(
    guard: &Guard,
    dir: DirKey,
    name: &str,
    existing: Option<&Metadata>,
    node: &Node,
) -> Option<&'static str> {
    if guard.is_live_file(dir, name, existing) {
        return Some(LIVE_FILE);
    }
    // Anything but a directory replaces a host directory by removing it.
    let removes_dir = node.kind != NodeKind::Directory;
    if removes_dir && existing.is_some_and(|m| guard.holds_live(m)) {
        return Some(LIVE_DIR);
    }
    None
}

fn open_rel(root: &Dir, rel: &std::path::Path, at: &str) -> Result<Dir> {
    if rel.as_os_str().is_empty() {
        return root.try_clone().map_err(|e| io_err(at, e));
    }
    if rel.as_os_str().len() >= MAX_PATH {
        return Err(FsError::custom(
            Errno::ENAMETOOLONG,
            at,
            format!(
                "file name too long: cannot export {at}: it is deeper than the {MAX_PATH}-byte path limit allows (move it higher in the workspace first)"
            ),
        ));
    }
    root.open_dir(rel).map_err(|e| io_err(at, e))
}

/// Removes what is at `name` so a file or link can take its place: never written through.
fn clear(host: &Dir, name: &str, ft: Option<cap_std::fs::FileType>, at: &str) -> Result<()> {
    match ft {
        Some(ft) if ft.is_dir() => host.remove_dir_all(name).map_err(|e| io_err(at, e)),
        Some(_) => host.remove_file(name).map_err(|e| io_err(at, e)),
        None => Ok(()),
    }
}

fn write_file(c: &Connection, host: &Dir, name: &str, node: &Node, at: &str) -> Result<()> {
    // Replaced rather than opened for writing (see `clear`): the old file
    // may be read-only (git objects are 0444) or hard-linked elsewhere.
    let file = host.create(name).map_err(|e| io_err(at, e))?;
    let mut file = file.into_std();
    content::for_each_chunk(c, node.id, &mut |piece| {
        file.write_all(piece).map_err(|e| io_err(at, e))
    })
    .map_err(|e| e.at(at))?;
    file.set_permissions(std::os::unix::fs::PermissionsExt::from_mode(
        node.mode & EXPORTED_MODE,
    ))
    .map_err(|e| io_err(at, e))?;
    let mtime =
        std::time::UNIX_EPOCH + std::time::Duration::from_nanos(node.mtime_ns.max(0) as u64);
    file.set_modified(mtime).map_err(|e| io_err(at, e))
}
