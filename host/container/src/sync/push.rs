//! Push: make the host copy match the workspace.

use std::collections::HashSet;
use std::io::Write;
use std::time::{Duration, UNIX_EPOCH};

use cap_std::fs::PermissionsExt;
use computer_store::{NodeKind, Page, Stat};
use sha2::{Digest, Sha256};

use super::host::{hex, kind_of, meta_of, remove_any, std_meta_of, target_to_host};
use super::manifest::{Entry, Kind, Meta, join, ws_path};
use super::{Syncer, io_fs_error, is_fatal};
use crate::error::ContainerError;

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

fn host_err(key: &str, e: std::io::Error) -> ContainerError {
    ContainerError::sync(format!("host copy of {}", ws_path(key)), e)
}

impl Syncer<'_> {
    /// Makes the copy match the workspace. Costs nothing when the workspace
    /// revision is the one the copy was last synced at.
    pub fn push(&mut self) -> Result<(), ContainerError> {
        let rev = self.ws.rev()?;
        if self.manifest.rev == Some(rev) {
            return Ok(());
        }
        if let Some(owner) = self.owner {
            owner
                .chown_fd(self.root)
                .map_err(|e| ContainerError::sync("host copy root", e))?;
        }
        let mut seen = HashSet::new();
        let mut dir_modes = Vec::new();
        let mut complete = true;
        self.push_dir("", &mut seen, &mut dir_modes, &mut complete)?;

        // What the workspace no longer has.
        let gone: Vec<String> = self
            .manifest
            .entries
            .keys()
            .filter(|k| !seen.contains(*k))
            .cloned()
            .collect();
        for key in gone {
            if !self.manifest.entries.contains_key(&key) {
                continue; // removed with its parent
            }
            remove_any(self.root, &key).map_err(|e| host_err(&key, e))?;
            self.manifest.remove_tree(&key);
            self.report.pushed += 1;
        }
        // Directory modes last, deepest first: a read-only directory is
        // filled before it becomes read-only.
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
        // An entry that could not be read is retried by the next push.
        self.manifest.rev = complete.then_some(rev);
        Ok(())
    }

    fn push_dir(
        &mut self,
        prefix: &str,
        seen: &mut HashSet<String>,
        dir_modes: &mut Vec<(String, u32)>,
        complete: &mut bool,
    ) -> Result<(), ContainerError> {
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
                *complete = false;
                return Ok(());
            }
        };
        for st in list {
            let key = join(prefix, &st.name);
            let kind = kind_of_node(st.kind);
            let wsm = ws_meta(&st);
            seen.insert(key.clone());
            match self.manifest.entries.get_mut(&key) {
                Some(e) if e.kind == kind && e.ws == wsm => {}
                Some(e) if e.kind == Kind::Dir && kind == Kind::Dir => {
                    // Entries came or went (mtime), or the mode changed.
                    if e.ws.mode != wsm.mode {
                        dir_modes.push((key.clone(), wsm.mode));
                        self.report.pushed += 1;
                    }
                    e.ws = wsm;
                }
                _ => {
                    if !self.materialize(&key, kind, wsm, dir_modes)? {
                        *complete = false;
                        continue;
                    }
                }
            }
            if kind == Kind::Dir {
                self.push_dir(&key, seen, dir_modes, complete)?;
            }
        }
        Ok(())
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
        let (host, hash, target) = match kind {
            Kind::File => {
                let file = self.root.create(key).map_err(|e| host_err(key, e))?;
                let mut file = file.into_std();
                let mut hasher = Sha256::new();
                let mut host_failure = None;
                let read = self.ws.read_each(&path, &mut |chunk| {
                    hasher.update(chunk);
                    file.write_all(chunk).map_err(|e| {
                        let fs = io_fs_error(&path, &e);
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
                        return Ok(false);
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
                (std_meta_of(&meta), Some(hex(&hasher.finalize())), None)
            }
            Kind::Dir => {
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
                (meta_of(&meta), None, None)
            }
            Kind::Symlink => {
                let target = match self.ws.readlink(&path) {
                    Ok(t) => t,
                    Err(e) if is_fatal(&e) => return Err(e.into()),
                    Err(_) => return Ok(false),
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
                (meta_of(&meta), None, Some(host_target))
            }
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
        let mut dir_modes = Vec::new();
        let kind = kind_of_node(st.kind);
        let before = self.report.pushed;
        if self.materialize(key, kind, ws_meta(&st), &mut dir_modes)? && kind == Kind::Dir {
            let mut seen = HashSet::new();
            let mut complete = true;
            self.push_dir(key, &mut seen, &mut dir_modes, &mut complete)?;
        }
        for (k, mode) in dir_modes.into_iter().rev() {
            self.root
                .set_permissions(&k, cap_std::fs::Permissions::from_mode(mode))
                .map_err(|e| host_err(&k, e))?;
            if let Ok(m) = self.root.symlink_metadata(&k)
                && let Some(e) = self.manifest.entries.get_mut(&k)
            {
                e.host = meta_of(&m);
            }
        }
        // Restoring is part of the pull, not a push of new workspace state.
        self.report.pushed = before;
        Ok(())
    }
}
