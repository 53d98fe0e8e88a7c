//! Push: make the host copy match the workspace.

use std::collections::HashSet;
use std::io::Write;
use std::time::{Duration, UNIX_EPOCH};

use cap_std::fs::PermissionsExt;
use computer_store::{Change, NodeKind, Page, Stat};
use sha2::{Digest, Sha256};

use super::host::{hex, kind_of, meta_of, remove_any, std_meta_of, target_to_host};
use super::manifest::{Entry, Kind, Meta, join, ws_path};
use super::{Syncer, io_fs_error, is_fatal};
use crate::error::ContainerError;

/// What [`Syncer::materialize`] placed on the host: its metadata, the
/// content hash of a file, the host target of a symlink.
type Placed = (Meta, Option<String>, Option<String>);

fn kind_of_node(k: NodeKind) -> Kind {
    match k {
        NodeKind::File => Kind::File,
        NodeKind::Directory => Kind::Dir,
        NodeKind::Symlink => Kind::Symlink,
    }
}

pub(super) fn ws_meta(st: &Stat) -> Meta {
    Meta {
        mode: st.mode & 0o7777,
        size: st.size,
        mtime_ns: st.mtime_ns,
        ino: st.ino,
    }
}

/// What a walk of the workspace collected.
struct Walk {
    /// Keys it listed.
    seen: HashSet<String>,
    /// Directory modes to set once their contents are written.
    dir_modes: Vec<(String, u32)>,
    /// False when an entry could not be read (the next push looks again).
    complete: bool,
}

impl Default for Walk {
    fn default() -> Self {
        Walk {
            seen: HashSet::new(),
            dir_modes: Vec::new(),
            complete: true,
        }
    }
}

/// `a/b/c` → `a/b`, `a`.
fn ancestors(key: &str) -> impl Iterator<Item = &str> {
    key.match_indices('/').rev().map(|(i, _)| &key[..i])
}

fn host_err(key: &str, e: std::io::Error) -> ContainerError {
    ContainerError::sync(format!("host copy of {}", ws_path(key)), e)
}

impl Syncer<'_> {
    /// Makes the copy match the workspace. Costs nothing when the workspace
    /// revision is the one the copy was last synced at; otherwise visits
    /// only the paths the workspace's change log names since then, or the
    /// whole tree when the log does not reach back that far.
    pub fn push(&mut self) -> Result<(), ContainerError> {
        if let Some(owner) = self.owner {
            owner
                .chown_fd(self.root)
                .map_err(|e| ContainerError::sync("host copy root", e))?;
        }
        if let Some(since) = self.manifest.rev {
            let changes = self.ws.changes_since(since)?;
            if changes.rev == since {
                return Ok(());
            }
            if let Some(paths) = changes.paths {
                return self.push_changes(changes.rev, &paths);
            }
        }
        // Walk everything, with the log on from here on, so the next push
        // need not.
        let rev = self.ws.keep_change_log()?;
        self.push_all(rev)
    }

    /// Walks the whole workspace.
    fn push_all(&mut self, rev: u64) -> Result<(), ContainerError> {
        let mut walk = Walk::default();
        self.push_dir("", &mut walk)?;
        self.remove_unseen(None, &walk.seen)?;
        self.finish_push(rev, walk)
    }

    /// Visits the changed paths (sorted, parents first). A directory is
    /// walked when it is new to the copy, was replaced, or may have
    /// changed below; a path under one already walked is skipped.
    fn push_changes(&mut self, rev: u64, changes: &[Change]) -> Result<(), ContainerError> {
        let mut walk = Walk::default();
        let mut covered: HashSet<String> = HashSet::new();
        for change in changes {
            let key = change.path.trim_start_matches('/');
            // The root's own metadata is not synced, and it cannot be
            // removed or replaced.
            if key.is_empty() || ancestors(key).any(|a| covered.contains(a)) {
                continue;
            }
            let parent = ancestors(key).next().unwrap_or("");
            let parent_known = parent.is_empty()
                || self
                    .manifest
                    .entries
                    .get(parent)
                    .is_some_and(|e| e.kind == Kind::Dir);
            let st = match self.ws.lstat(&ws_path(key)) {
                Ok(st) => Some(st),
                Err(e) if is_fatal(&e) => return Err(e.into()),
                Err(_) => None,
            };
            self.report.examined += 1;
            let Some(st) = st else {
                if self.manifest.entries.contains_key(key) {
                    remove_any(self.root, key).map_err(|e| host_err(key, e))?;
                    self.manifest.remove_tree(key);
                    self.report.pushed += 1;
                }
                covered.insert(key.to_owned());
                continue;
            };
            if !parent_known {
                // Its parent should have been visited first; the copy is
                // not what the manifest says. The next push walks everything.
                walk.complete = false;
                continue;
            }
            let kind = kind_of_node(st.kind);
            let wsm = ws_meta(&st);
            let same_dir =
                self.manifest.entries.get(key).is_some_and(|e| {
                    e.kind == Kind::Dir && kind == Kind::Dir && e.ws.ino == wsm.ino
                });
            if !self.push_entry(key, kind, wsm, &mut walk)? {
                continue;
            }
            if kind != Kind::Dir {
                // Nothing can be below it now (a changed path there was
                // made before it replaced a directory).
                covered.insert(key.to_owned());
            } else if change.subtree || !same_dir {
                walk.seen.clear();
                self.push_dir(key, &mut walk)?;
                self.remove_unseen(Some(key), &walk.seen)?;
                covered.insert(key.to_owned());
            }
        }
        self.finish_push(rev, walk)
    }

    /// Removes from the copy what the walk did not see: everything, or
    /// what lies strictly below `under`.
    fn remove_unseen(
        &mut self,
        under: Option<&str>,
        seen: &HashSet<String>,
    ) -> Result<(), ContainerError> {
        let gone: Vec<String> = match under {
            None => self.manifest.entries.keys().cloned().collect(),
            Some(key) => self.manifest.subtree_keys(key),
        };
        for key in gone {
            if seen.contains(&key) || !self.manifest.entries.contains_key(&key) {
                continue; // still there, or removed with its parent
            }
            remove_any(self.root, &key).map_err(|e| host_err(&key, e))?;
            self.manifest.remove_tree(&key);
            self.report.pushed += 1;
        }
        Ok(())
    }

    fn finish_push(&mut self, rev: u64, walk: Walk) -> Result<(), ContainerError> {
        self.apply_dir_modes(walk.dir_modes)?;
        // An entry that could not be read is retried by the next push.
        self.manifest.rev = walk.complete.then_some(rev);
        Ok(())
    }

    /// Directory modes last, deepest first: a read-only directory is
    /// filled before it becomes read-only.
    fn apply_dir_modes(&mut self, dir_modes: Vec<(String, u32)>) -> Result<(), ContainerError> {
        for (key, mode) in dir_modes.into_iter().rev() {
            self.root
                .set_permissions(&key, cap_std::fs::Permissions::from_mode(mode))
                .map_err(|e| host_err(&key, e))?;
            let host = self
                .root
                .symlink_metadata(&key)
                .map_err(|e| host_err(&key, e))?;
            if let Some(e) = self.manifest.entries.get_mut(&key) {
                e.host = meta_of(&host);
            }
        }
        Ok(())
    }

    fn push_dir(&mut self, prefix: &str, walk: &mut Walk) -> Result<(), ContainerError> {
        let dir = if prefix.is_empty() {
            "/".to_owned()
        } else {
            ws_path(prefix)
        };
        let list = match self.ws.readdir(&dir, Page::all()) {
            Ok(list) => list,
            Err(e) if is_fatal(&e) => return Err(e.into()),
            // Changed under us: the next push looks again.
            Err(_) => {
                walk.complete = false;
                return Ok(());
            }
        };
        for st in list {
            let key = join(prefix, &st.name);
            let kind = kind_of_node(st.kind);
            walk.seen.insert(key.clone());
            self.report.examined += 1;
            if self.push_entry(&key, kind, ws_meta(&st), walk)? && kind == Kind::Dir {
                self.push_dir(&key, walk)?;
            }
        }
        Ok(())
    }

    /// Brings one entry (not what is below it) up to date with the
    /// workspace metadata `wsm`. False if it could not be read.
    fn push_entry(
        &mut self,
        key: &str,
        kind: Kind,
        wsm: Meta,
        walk: &mut Walk,
    ) -> Result<bool, ContainerError> {
        match self.manifest.entries.get_mut(key) {
            Some(e) if e.kind == kind && e.ws == wsm => {}
            Some(e) if e.kind == Kind::Dir && kind == Kind::Dir => {
                // Entries came or went (mtime), or the mode changed.
                if e.ws.mode != wsm.mode {
                    walk.dir_modes.push((key.to_owned(), wsm.mode));
                    self.report.pushed += 1;
                }
                e.ws = wsm;
            }
            _ => {
                if !self.materialize(key, kind, wsm, &mut walk.dir_modes)? {
                    walk.complete = false;
                    return Ok(false);
                }
            }
        }
        Ok(true)
    }

    /// Writes the workspace entry `key` to the host, replacing whatever is
    /// there. False if the workspace entry could not be read (it changed
    /// under us; the next push retries).
    pub(super) fn materialize(
        &mut self,
        key: &str,
        kind: Kind,
        wsm: Meta,
        dir_modes: &mut Vec<(String, u32)>,
    ) -> Result<bool, ContainerError> {
        let path = ws_path(key);
        let existing = self.root.symlink_metadata(key).ok();
        let keep_dir = kind == Kind::Dir && existing.as_ref().is_some_and(|m| m.is_dir());
        if !keep_dir {
            remove_any(self.root, key).map_err(|e| host_err(key, e))?;
            self.manifest.remove_tree(key);
        }
        let placed = match kind {
            Kind::File => self.materialize_file(key, &path, wsm)?,
            Kind::Dir => self.materialize_dir(key, wsm, keep_dir, dir_modes)?,
            Kind::Symlink => self.materialize_symlink(key, &path)?,
        };
        let Some((host, hash, target)) = placed else {
            return Ok(false);
        };
        self.manifest.entries.insert(
            key.to_owned(),
            Entry {
                kind,
                ws: wsm,
                host,
                hash,
                target,
            },
        );
        self.report.pushed += 1;
        Ok(true)
    }

    /// [`Self::materialize`] for a file: copies its content (hashing it on
    /// the way), then its mode, mtime and owner. `None` if the workspace
    /// file could not be read.
    fn materialize_file(
        &mut self,
        key: &str,
        path: &str,
        wsm: Meta,
    ) -> Result<Option<Placed>, ContainerError> {
        let file = self.root.create(key).map_err(|e| host_err(key, e))?;
        let mut file = file.into_std();
        let mut hasher = Sha256::new();
        let mut host_failure = None;
        let read = self.ws.read_each(path, &mut |chunk| {
            hasher.update(chunk);
            file.write_all(chunk).map_err(|e| {
                let fs = io_fs_error(path, &e);
                host_failure = Some(e);
                fs
            })
        });
        if let Some(e) = host_failure {
            return Err(host_err(key, e));
        }
        match read {
            Ok(()) => {}
            Err(e) if is_fatal(&e) => return Err(e.into()),
            Err(_) => {
                drop(file);
                let _ = self.root.remove_file(key);
                return Ok(None);
            }
        }
        let mode = std::os::unix::fs::PermissionsExt::from_mode(wsm.mode);
        file.set_permissions(mode).map_err(|e| host_err(key, e))?;
        file.set_modified(UNIX_EPOCH + Duration::from_nanos(wsm.mtime_ns))
            .map_err(|e| host_err(key, e))?;
        if let Some(owner) = self.owner {
            owner.chown_fd(&file).map_err(|e| host_err(key, e))?;
        }
        let meta = file.metadata().map_err(|e| host_err(key, e))?;
        Ok(Some((
            std_meta_of(meta),
            Some(hex(&hasher.finalize())),
            None,
        )))
    }

    /// [`Self::materialize`] for a directory (kept if one is there); its
    /// mode is set later, from `dir_modes`, once its entries are in.
    fn materialize_dir(
        &mut self,
        key: &str,
        wsm: Meta,
        keep_dir: bool,
        dir_modes: &mut Vec<(String, u32)>,
    ) -> Result<Option<Placed>, ContainerError> {
        if !keep_dir {
            self.root.create_dir(key).map_err(|e| host_err(key, e))?;
        }
        if let Some(owner) = self.owner {
            owner
                .chown_at(self.root, key)
                .map_err(|e| host_err(key, e))?;
        }
        dir_modes.push((key.to_owned(), wsm.mode));
        let meta = self
            .root
            .symlink_metadata(key)
            .map_err(|e| host_err(key, e))?;
        Ok(Some((meta_of(&meta), None, None)))
    }

    /// [`Self::materialize`] for a symlink, its target mapped to the host.
    /// `None` if the workspace link could not be read.
    fn materialize_symlink(
        &mut self,
        key: &str,
        path: &str,
    ) -> Result<Option<Placed>, ContainerError> {
        let target = match self.ws.readlink(path) {
            Ok(t) => t,
            Err(e) if is_fatal(&e) => return Err(e.into()),
            Err(_) => return Ok(None),
        };
        let host_target = target_to_host(&target, self.mount);
        // Created, never followed: the target may point anywhere.
        self.root
            .symlink_contents(&host_target, key)
            .map_err(|e| host_err(key, e))?;
        if let Some(owner) = self.owner {
            owner
                .chown_at(self.root, key)
                .map_err(|e| host_err(key, e))?;
        }
        let meta = self
            .root
            .symlink_metadata(key)
            .map_err(|e| host_err(key, e))?;
        debug_assert_eq!(kind_of(&meta), Some(Kind::Symlink));
        Ok(Some((meta_of(&meta), None, Some(host_target))))
    }

    /// Makes the host copy of `key` (and below) match the workspace again,
    /// after a change the workspace refused (a read-only subtree).
    pub(super) fn restore(&mut self, key: &str) -> Result<(), ContainerError> {
        remove_any(self.root, key).map_err(|e| host_err(key, e))?;
        self.manifest.remove_tree(key);
        let st = match self.ws.lstat(&ws_path(key)) {
            Ok(st) => st,
            Err(e) if is_fatal(&e) => return Err(e.into()),
            Err(_) => return Ok(()), // not in the workspace: gone from the copy too
        };
        let mut walk = Walk::default();
        let kind = kind_of_node(st.kind);
        let before = self.report.pushed;
        if self.materialize(key, kind, ws_meta(&st), &mut walk.dir_modes)? && kind == Kind::Dir {
            self.push_dir(key, &mut walk)?;
        }
        self.apply_dir_modes(walk.dir_modes)?;
        // Restoring is part of the pull, not a push of new workspace state.
        self.report.pushed = before;
        Ok(())
    }
}
