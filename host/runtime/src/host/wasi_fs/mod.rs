//! `wasi:filesystem/types` and `wasi:filesystem/preopens` over the
//! workspace store, so a program written with `std::fs` (or any WASI
//! program) reads and writes the workspace.
//!
//! Preopens: `/` is the run's workspace (the store resolves paths: `..`
//! stops at `/`, symlinks resolve inside the workspace, read-only subtrees
//! answer `read-only`); `/tmp` is a scratch tree of the run's own, an
//! in-memory workspace made on first use, capped, never persisted nor
//! shared; and each [`Mount`] of the run is a read-only preopen of its own.
//!
//! Descriptors live in [`WasiFs`]; the resources the guest holds carry
//! their index. See `file.rs` for when writes become visible.
//!
//! Journal: in a durable run every store access on the workspace is a
//! journalled `fs` call (`wasi.stat`, `wasi.pread`, `wasi.load`,
//! `wasi.readdir`, `wasi.commit`, `wasi.mkdir`, ...): reads are recorded
//! with their result, mutations commit with their row. `/tmp` and mounts are
//! not journalled: a replay recomputes them.

mod anchor;
mod descriptor;
mod devices;
mod errors;
mod file;
pub(crate) mod link;
mod mount;
mod open;
mod open_files;
mod paths;
mod readdir;
mod streams;
mod tree;

use std::collections::HashMap;
use std::sync::Arc;

use computer_store::{Workspace, WsPath};
use wasmtime::component::Resource;
use wasmtime_wasi::filesystem::Descriptor as WasiDescriptor;
use wasmtime_wasi::p2::bindings::filesystem::preopens;
use wasmtime_wasi::p2::bindings::filesystem::types::ErrorCode;

use self::anchor::Anchor;
use self::errors::code;
pub(crate) use self::file::{SharedFile, lock};
pub use self::mount::{FileTree, Mount, MountSource};
use self::readdir::DirStream;
use self::tree::{Res, StoreTree, Tree};
use crate::durable::journal::SharedJournal;
use crate::run::state::RunState;

/// Where `/tmp` is preopened.
pub const TMP: &str = "/tmp";

/// What a descriptor is.
pub(crate) enum Node {
    Dir,
    File(SharedFile),
    /// `/dev/null` and the like (`devices.rs`).
    Device(devices::DeviceHandle),
}

pub(crate) struct Desc {
    pub tree: Tree,
    /// Absolute and normalized inside `tree`.
    pub path: String,
    pub node: Node,
    /// Set on the cwd preopen of a third-party program (`anchor.rs`):
    /// the paths it is given are resolved as the program meant them.
    pub anchor: Option<Arc<Anchor>>,
}

impl Desc {
    /// `rel`, a path the guest gave relative to this descriptor, as an
    /// absolute path inside `tree`.
    pub(crate) fn resolve(&self, rel: &str) -> Res<String> {
        match &self.anchor {
            Some(anchor) => anchor.resolve(&self.tree, rel),
            // As wasmtime: a path may not climb out of its tree's root, which
            // a POSIX `/..` would quietly clamp (the cwd preopen above
            // does clamp, as the process's own `..` would).
            None if climbs_out(&self.path, rel) => Err(code(ErrorCode::NotPermitted)),
            None => join(&self.path, rel),
        }
    }
}

/// The filesystem state of one run: its preopens, descriptors and
/// directory streams.
pub(crate) struct WasiFs {
    preopens: Vec<(Tree, String)>,
    /// The caller's cwd, preopened last as `.`, for a program that does
    /// not change to `$PWD` itself.
    anchor: Option<Arc<Anchor>>,
    /// Directories named `*.lock` made in the workspace (SQLite's WASI
    /// locks), removed when the command ends (`remove_stale_locks`).
    locks: Vec<(Tree, String)>,
    descriptors: HashMap<u32, Desc>,
    /// Files open by path (`open_files.rs`).
    open_files: HashMap<(usize, String), std::sync::Weak<std::sync::Mutex<file::OpenFile>>>,
    streams: HashMap<u32, DirStream>,
    next: u32,
}

impl WasiFs {
    /// The preopens of a run: the workspace at `/`, a scratch `/tmp` of at
    /// most `tmp_cap` bytes (none: `/tmp` is the workspace's), `mounts`,
    /// and, for a program that does not change to `$PWD` itself, its cwd
    /// `anchor` as `.` (`anchor.rs`).
    pub(crate) fn new(
        workspace: Arc<Workspace>,
        journal: Option<SharedJournal>,
        tmp_cap: Option<u64>,
        mounts: &[Mount],
        anchor: Option<&str>,
    ) -> Self {
        let mut preopens = vec![(
            Tree::Store(Arc::new(StoreTree::workspace(workspace, journal))),
            "/".to_owned(),
        )];
        if let Some(cap) = tmp_cap {
            preopens.push((
                Tree::Store(Arc::new(StoreTree::scratch(cap))),
                TMP.to_owned(),
            ));
        }
        for m in mounts {
            let tree = match &m.source {
                MountSource::HostDir(dir) => Tree::HostDir(Arc::new(dir.clone())),
                MountSource::Files(files) => Tree::Files(files.clone()),
            };
            preopens.push((tree, m.guest_path.clone()));
        }
        let anchor = anchor
            .filter(|cwd| *cwd != "/" && WsPath::parse(cwd).is_ok())
            .map(|cwd| Arc::new(Anchor::new(cwd)));
        WasiFs {
            preopens,
            anchor,
            locks: Vec::new(),
            descriptors: HashMap::new(),
            open_files: HashMap::new(),
            streams: HashMap::new(),
            next: 1,
        }
    }

    pub(crate) fn note_lock(&mut self, tree: &Tree, path: &str) {
        if path.ends_with(".lock") && matches!(tree, Tree::Store(s) if s.is_workspace()) {
            self.locks.push((tree.clone(), path.to_owned()));
        }
    }

    /// Removes the `*.lock` directories this command made that are still
    /// there, so a command that was killed (or forgot) leaves no database
    /// locked for the next one. Only empty directories go.
    pub(crate) fn remove_stale_locks(&mut self) {
        for (tree, path) in std::mem::take(&mut self.locks) {
            let Ok(store) = tree.store() else { continue };
            if tree
                .stat(&path, false)
                .is_ok_and(|m| m.kind == tree::Kind::Dir)
            {
                let opts = computer_store::RmOptions::default();
                if store
                    .mutate("wasi.rmdir", &path, &[], |ws| ws.rm(&path, opts))
                    .is_err()
                {
                    tracing::debug!(%path, "stale lock directory not removed");
                }
            }
        }
    }

    /// Makes directory `path` of the workspace if it is missing, through
    /// the same (journalled) calls as the guest's own `create-directory-at`.
    pub(crate) fn ensure_workspace_dir(&self, path: &str) {
        let (tree, _) = &self.preopens[0];
        if tree.stat(path, false).is_ok() {
            return;
        }
        let opts = computer_store::MkdirOptions::default();
        let made = tree
            .store()
            .and_then(|s| s.mutate("wasi.mkdir", path, &[], |ws| ws.mkdir(path, &opts)));
        if made.is_err() {
            tracing::debug!(%path, "a command's directory could not be made");
        }
    }

    fn rep(&mut self) -> u32 {
        let rep = self.next;
        self.next = self.next.wrapping_add(1).max(1);
        rep
    }

    pub(crate) fn push(&mut self, d: Desc) -> Resource<WasiDescriptor> {
        let rep = self.rep();
        self.descriptors.insert(rep, d);
        Resource::new_own(rep)
    }

    pub(crate) fn get(&self, fd: &Resource<WasiDescriptor>) -> Res<&Desc> {
        self.descriptors
            .get(&fd.rep())
            .ok_or(code(ErrorCode::BadDescriptor))
    }

    /// A directory descriptor, or `not-directory`.
    pub(crate) fn dir(&self, fd: &Resource<WasiDescriptor>) -> Res<&Desc> {
        let d = self.get(fd)?;
        match d.node {
            Node::Dir => Ok(d),
            Node::File(_) | Node::Device(_) => Err(code(ErrorCode::NotDirectory)),
        }
    }

    /// The most recently opened file of this process whose inode (the
    /// `st_ino` a guest's `fstat` gave) is `ino`, open for writing if
    /// `writable`, else for reading.
    pub(crate) fn file_by_ino(&self, ino: u64, writable: bool) -> Option<SharedFile> {
        let mut reps: Vec<_> = self.descriptors.keys().copied().collect();
        reps.sort_unstable_by(|a, b| b.cmp(a));
        reps.into_iter()
            .find_map(|rep| match &self.descriptors[&rep].node {
                Node::File(h) if (if writable { h.writable } else { h.readable }) => {
                    let found = lock(h).meta().is_ok_and(|m| m.ino == ino);
                    found.then(|| h.clone())
                }
                _ => None,
            })
    }

    pub(crate) fn file(&self, fd: &Resource<WasiDescriptor>) -> Res<SharedFile> {
        match &self.get(fd)?.node {
            Node::File(f) => Ok(f.clone()),
            Node::Dir => Err(code(ErrorCode::IsDirectory)),
            Node::Device(_) => Err(code(ErrorCode::BadDescriptor)),
        }
    }

    /// The device a descriptor is, if it is one.
    pub(crate) fn device(
        &self,
        fd: &Resource<WasiDescriptor>,
    ) -> Res<Option<devices::DeviceHandle>> {
        Ok(match &self.get(fd)?.node {
            Node::Device(h) => Some(h.clone()),
            _ => None,
        })
    }
}

/// Whether `rel`, from directory `dir` (absolute in its tree), goes above
/// the tree's root with its `..`s.
fn climbs_out(dir: &str, rel: &str) -> bool {
    let mut depth = dir.split('/').filter(|c| !c.is_empty()).count();
    for c in rel.split('/') {
        match c {
            "" | "." => {}
            ".." if depth == 0 => return true,
            ".." => depth -= 1,
            _ => depth += 1,
        }
    }
    false
}

/// `dir`/`rel` inside the tree: `rel` must be relative; `..` stops at the
/// tree's root (the store's own normalization).
pub(crate) fn join(dir: &str, rel: &str) -> Res<String> {
    if rel.starts_with('/') {
        return Err(code(ErrorCode::NotPermitted));
    }
    if rel.contains('\0') {
        // As wasmtime on Linux: a path with a NUL is not a C string (EINVAL).
        return Err(code(ErrorCode::Invalid));
    }
    let raw = format!("{}/{rel}", dir.trim_end_matches('/'));
    match WsPath::parse(&raw) {
        Ok(p) => Ok(p.to_string()),
        Err(e) => Err(code(errors::from_errno(e.code))),
    }
}

impl preopens::Host for RunState {
    fn get_directories(&mut self) -> wasmtime::Result<Vec<(Resource<WasiDescriptor>, String)>> {
        let fs = &mut self.wasi_fs;
        let preopens = fs.preopens.clone();
        let mut dirs: Vec<_> = preopens
            .into_iter()
            .map(|(tree, name)| {
                let fd = fs.push(Desc {
                    tree,
                    path: "/".to_owned(),
                    node: Node::Dir,
                    anchor: None,
                });
                (fd, name)
            })
            .collect();
        // Last, so wasi-libc prefers it over `/` (both match every path
        // once it strips them to the empty prefix).
        if let Some(anchor) = fs.anchor.clone() {
            let tree = fs.preopens[0].0.clone();
            let fd = fs.push(Desc {
                tree,
                path: anchor.cwd().to_owned(),
                node: Node::Dir,
                anchor: Some(anchor),
            });
            dirs.push((fd, ".".to_owned()));
        }
        Ok(dirs)
    }
}
