//! Copying a host directory into the workspace. Like export, the walk keeps
//! its own stack and reopens host directories from the import root, so it
//! holds two descriptors at any depth; a tree deeper than the workspace's
//! path limit stops with `ENAMETOOLONG` naming the first path that does not fit.

use std::path::{Path, PathBuf};

use cap_std::fs::{Dir, MetadataExt};
use rusqlite::Connection;

use super::guard::{DirKey, Guard, LIVE_FILE};
use super::{
    CountingReader, ImportStats, Progress, ensure_dir, io_err, replace_symlink, set_attrs,
};
use crate::clock::now_ns;
use crate::error::Result;
use crate::path::WsPath;
use crate::types::WriteOptions;
use crate::workspace::Workspace;

enum Task {
    Enter {
        rel: PathBuf,
        dest: WsPath,
    },
    /// Everything below is copied: give the directory its host mtime.
    Finish {
        dest: WsPath,
        mtime: i64,
    },
}

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
        let mut stack = vec![Task::Enter {
            rel: PathBuf::new(),
            dest: dest.clone(),
        }];
        while let Some(task) = stack.pop() {
            match task {
                Task::Enter { rel, dest } => {
                    let dir = open_rel(root, &rel, &dest.to_string())?;
                    // Pushed in reverse so the stack pops them in name order.
                    let mut subdirs =
                        self.import_entries(c, &dir, &rel, &dest, host_shown, &guard, sink)?;
                    while let Some((rel, dest, mtime)) = subdirs.pop() {
                        stack.push(Task::Finish {
                            dest: dest.clone(),
                            mtime,
                        });
                        stack.push(Task::Enter { rel, dest });
                    }
                }
                Task::Finish { dest, mtime } => {
                    set_attrs(c, &dest, None, mtime)?;
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
        dest: &WsPath,
        host_shown: &str,
        guard: &Guard,
        sink: &mut Sink<'_>,
    ) -> Result<Vec<(PathBuf, WsPath, i64)>> {
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
            if ft.is_dir() {
                ensure_dir(c, &target, mode, &shown)?;
                subdirs.push((rel.join(&name), target, mtime));
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
                let max = self.config.max_file_size;
                let size = self
                    .write_from_in(c, &target, &mut counting, &opts, max, &shown)
                    .map_err(|e| e.at(&shown))?;
                set_attrs(c, &target, None, mtime)?;
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
                replace_symlink(c, &target, &link, &shown)?;
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
