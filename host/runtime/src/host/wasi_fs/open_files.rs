//! The run's open files by path, so that every descriptor on one path
//! shares one `OpenFile` (and its uncommitted writes), and what path
//! operations do to files that are open: a `stat` of the path sees their
//! writes, a rename carries them to the new path, an unlink (or a rename
//! over them) leaves them readable and writable until closed, as POSIX
//! keeps an unlinked inode. Before another program of the run looks at the
//! workspace (a command it starts, a module call), everything is committed.
//! The names of a hard-linked file share its `OpenFile` too: it is listed
//! under each name opened, and commits through the first (`OpenFile::path`).

use std::sync::{Arc, Mutex, Weak};

use super::WasiFs;
use super::file::{OpenFile, lock_file};
use super::tree::{Res, Tree};

/// Which tree a path is in: only the store's trees are written to.
fn tree_key(tree: &Tree) -> Option<usize> {
    match tree {
        Tree::Store(s) => Some(Arc::as_ptr(s) as usize),
        _ => None,
    }
}

fn under(path: &str, dir: &str) -> bool {
    path == dir
        || path
            .strip_prefix(dir)
            .is_some_and(|rest| rest.starts_with('/'))
        || dir == "/"
}

impl WasiFs {
    /// The file open at `path`, if a descriptor still has it.
    pub(crate) fn open_file(&mut self, tree: &Tree, path: &str) -> Option<Arc<Mutex<OpenFile>>> {
        let key = (tree_key(tree)?, path.to_owned());
        match self.open_files.get(&key).and_then(Weak::upgrade) {
            Some(f) => Some(f),
            None => {
                self.open_files.remove(&key);
                None
            }
        }
    }

    /// The open file of `tree` whose node is `ino` (another name of a
    /// hard-linked file), if any.
    pub(crate) fn open_file_by_ino(
        &self,
        tree: &Tree,
        ino: u64,
    ) -> Res<Option<Arc<Mutex<OpenFile>>>> {
        let Some(k) = tree_key(tree) else {
            return Ok(None);
        };
        for ((tk, _), f) in &self.open_files {
            if let Some(f) = f.upgrade().filter(|_| *tk == k)
                && lock_file(&f).meta()?.ino == ino
            {
                return Ok(Some(f));
            }
        }
        Ok(None)
    }

    pub(crate) fn note_open_file(&mut self, tree: &Tree, path: &str, file: &Arc<Mutex<OpenFile>>) {
        if let Some(k) = tree_key(tree) {
            self.open_files.retain(|_, f| f.strong_count() > 0);
            self.open_files
                .insert((k, path.to_owned()), Arc::downgrade(file));
        }
    }

    /// Commits what is open at or under `path`, before the path is looked at.
    pub(crate) fn settle(&self, tree: &Tree, path: &str) -> Res<()> {
        let Some(k) = tree_key(tree) else {
            return Ok(());
        };
        for ((tk, p), f) in &self.open_files {
            if *tk == k
                && under(p, path)
                && let Some(f) = f.upgrade()
            {
                lock_file(&f).commit()?;
            }
        }
        Ok(())
    }

    /// Commits every open file: another program of the run is about to
    /// look at the workspace.
    pub(crate) fn commit_all(&self) -> Res<()> {
        for f in self.open_files.values().filter_map(Weak::upgrade) {
            let mut f = lock_file(&f);
            if f.is_dirty() {
                f.commit()?;
            }
        }
        Ok(())
    }

    /// [`commit_all`](Self::commit_all) where a host call hands control to
    /// another program: a failed commit is logged (the file keeps its
    /// buffer for its own close), a trap ends the run.
    pub(crate) fn hand_over(&self) -> wasmtime::Result<()> {
        match self.commit_all() {
            Ok(()) => Ok(()),
            Err(e) => match e.downcast() {
                Ok(code) => {
                    tracing::warn!("wasi: cannot commit open files before a hand-over: {code:?}");
                    Ok(())
                }
                Err(trap) => Err(trap),
            },
        }
    }

    /// `path` is about to stop naming what is open there: the open file is
    /// set aside (see `OpenFile::set_aside`). `true` when it was moved away,
    /// so an unlink has nothing left to remove.
    pub(crate) fn orphan_open(&mut self, tree: &Tree, path: &str) -> Res<bool> {
        let Some(f) = self.open_file(tree, path) else {
            return Ok(false);
        };
        if lock_file(&f).path != path {
            // Another name of a hard-linked file: the node keeps the
            // name the open file commits through.
            if let Some(k) = tree_key(tree) {
                self.open_files.remove(&(k, path.to_owned()));
            }
            return Ok(false);
        }
        let moved = lock_file(&f).set_aside()?;
        if let Some(k) = tree_key(tree) {
            self.open_files.remove(&(k, path.to_owned()));
            if moved {
                let to = lock_file(&f).path.clone();
                self.open_files.insert((k, to), Arc::downgrade(&f));
            }
        }
        Ok(moved)
    }

    /// `from` was renamed to `to`: files open under it follow.
    pub(crate) fn moved(&mut self, tree: &Tree, from: &str, to: &str) {
        let Some(k) = tree_key(tree) else { return };
        let moving: Vec<(usize, String)> = self
            .open_files
            .keys()
            .filter(|(tk, p)| *tk == k && under(p, from) && from != "/")
            .cloned()
            .collect();
        for key in moving {
            let Some(weak) = self.open_files.remove(&key) else {
                continue;
            };
            let new_path = format!("{to}{}", &key.1[from.len()..]);
            if let Some(f) = weak.upgrade() {
                lock_file(&f).path = new_path.clone();
                self.open_files.insert((k, new_path), weak);
            }
        }
    }
}
