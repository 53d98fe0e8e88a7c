//! The trees a guest's preopens reach: a store (the run's workspace,
//! journalled in a durable run, or the run's private `/tmp`) or a read-only
//! mount. Every path handed to a tree is absolute inside it and normalized
//! (`..` stops at its root).

use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use computer_store::{self as store, NodeKind, Workspace};
use serde::Serialize;
use serde::de::DeserializeOwned;
use wasmtime_wasi::p2::FsError;
use wasmtime_wasi::p2::bindings::filesystem::types::ErrorCode;

use super::errors::{code, from_errno, from_fs};
use super::mount::{self, FileTree};
use crate::bindings::fs;
use crate::durable::calls::{
    encode, journalled_bytes, journalled_mutation, journalled_read, unit_ok,
};
use crate::durable::journal::{self, SharedJournal};

pub(crate) type Res<T> = Result<T, FsError>;

/// A node's metadata, whatever tree it is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub(crate) struct Meta {
    pub kind: Kind,
    pub size: u64,
    pub mtime_ns: u64,
    pub ino: u64,
    /// Names of the node (hard links); absent in journals written before.
    #[serde(default = "one")]
    pub nlink: u64,
    /// `None`: the access time is `mtime_ns`.
    #[serde(default)]
    pub atime_ns: Option<u64>,
}

fn one() -> u64 {
    1
}

#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub(crate) enum Kind {
    File,
    Dir,
    Symlink,
    /// A FIFO, socket or device in a mounted host directory: listed and
    /// stat'ed, never opened (a FIFO's open or read would block the host).
    Special,
}

impl Meta {
    fn of(s: &store::Stat) -> Meta {
        Meta {
            kind: match s.kind {
                NodeKind::File => Kind::File,
                NodeKind::Directory => Kind::Dir,
                NodeKind::Symlink => Kind::Symlink,
            },
            size: s.size,
            mtime_ns: s.mtime_ns,
            ino: s.ino,
            nlink: s.nlink,
            atime_ns: Some(s.atime_ns),
        }
    }
}

/// Which call asked for a `stat` (see [`Tree::stat_for`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Asker {
    Stat,
    Hash,
    Open,
}

/// The last answer of [`Tree::stat_for`], kept for the next store call.
struct Recent {
    path: String,
    follow: bool,
    asker: Asker,
    meta: Meta,
}

/// A store-backed tree. `/tmp`'s in-memory workspace is made on first use.
pub(crate) struct StoreTree {
    ws: OnceLock<Arc<Workspace>>,
    /// The run's journal, for the workspace of a durable run.
    journal: Option<SharedJournal>,
    /// Most bytes the tree may hold (`/tmp`); `None` for the workspace.
    cap: Option<u64>,
    /// Bumped by every mutation through this tree, so what an open file
    /// cached (metadata, a small file's content) is dropped as soon as this
    /// run changes anything. It counts calls, not time, so a replay makes
    /// the same cache decisions, and the same store calls, as the run did.
    generation: AtomicU64,
    /// Any store call through the tree takes it (see `Tree::stat_for`).
    recent: Mutex<Option<Recent>>,
}

impl StoreTree {
    pub(crate) fn workspace(ws: Arc<Workspace>, journal: Option<SharedJournal>) -> Self {
        let cell = OnceLock::new();
        let _ = cell.set(ws);
        StoreTree {
            ws: cell,
            journal,
            cap: None,
            generation: AtomicU64::new(0),
            recent: Mutex::new(None),
        }
    }

    pub(crate) fn is_workspace(&self) -> bool {
        self.cap.is_none()
    }

    pub(crate) fn scratch(cap: u64) -> Self {
        StoreTree {
            ws: OnceLock::new(),
            journal: None,
            cap: Some(cap),
            generation: AtomicU64::new(0),
            recent: Mutex::new(None),
        }
    }

    fn recent(&self) -> std::sync::MutexGuard<'_, Option<Recent>> {
        self.recent.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Takes the last `stat_for` answer if it is for the same path and
    /// another asker. A symlink-following stat may use an lstat's answer
    /// when that was not a symlink: the same node.
    fn recall(&self, path: &str, follow: bool, asker: Asker) -> Option<Meta> {
        let r = self.recent().take()?;
        let same_node = r.follow == follow || (follow && r.meta.kind != Kind::Symlink);
        (r.path == path && r.asker != asker && same_node).then_some(r.meta)
    }

    fn ws(&self) -> Res<&Arc<Workspace>> {
        *self.recent() = None;
        if let Some(ws) = self.ws.get() {
            return Ok(ws);
        }
        let made = Workspace::in_memory().map_err(|e| code(from_errno(e.code)))?;
        let _ = self.ws.set(Arc::new(made));
        Ok(self.ws.get().expect("just set"))
    }

    /// A read, journalled when the tree is a durable run's workspace.
    pub(crate) fn read<T, A>(
        &self,
        name: &'static str,
        args: &A,
        op: impl FnOnce(&Workspace) -> store::Result<T>,
    ) -> Res<T>
    where
        T: Serialize + DeserializeOwned,
        A: Serialize + ?Sized,
    {
        let ws = self.ws()?;
        let Some(j) = &self.journal else {
            return op(ws).map_err(|e| code(from_errno(e.code)));
        };
        let hash = journal::args_hash(&[&encode(args)]);
        let out = journalled_read(ws, j, name, hash, |w| op(w).map_err(fs::FsError::from));
        settle(out)
    }

    /// A read of file bytes, journalled as chunk pieces when large.
    pub(crate) fn read_bytes<A: Serialize + ?Sized>(
        &self,
        name: &'static str,
        args: &A,
        op: impl FnOnce(&Workspace) -> store::Result<(Vec<u8>, Vec<store::ChunkPiece>)>,
    ) -> Res<Vec<u8>> {
        let ws = self.ws()?;
        let Some(j) = &self.journal else {
            return op(ws)
                .map(|(data, _)| data)
                .map_err(|e| code(from_errno(e.code)));
        };
        let hash = journal::args_hash(&[&encode(args)]);
        let out = journalled_bytes(ws, j, name, hash, |w| op(w).map_err(fs::FsError::from));
        settle(out)
    }

    /// A mutation, committed with its journal row in a durable run.
    pub(crate) fn mutate<A: Serialize + ?Sized>(
        &self,
        name: &'static str,
        args: &A,
        data: &[u8],
        op: impl FnOnce(&Workspace) -> store::Result<()>,
    ) -> Res<()> {
        self.mutate_pieces(name, args, &[data], op)
    }

    /// Whether a file of `stored` bytes may grow to `size`: `EFBIG` past
    /// the largest file, `ENOSPC` past `/tmp`'s cap or the quota (read
    /// through the journal in a durable run, so a replay decides the same).
    /// Returns the size up to which the file may grow before it must ask
    /// again: a little past `size`, so a file written in small pieces asks
    /// once a `ROOM_SLACK`, not at every write.
    pub(crate) fn room_for(&self, path: &str, stored: u64, size: u64) -> Res<u64> {
        let ws = self.ws()?;
        if size > ws.max_file_size() {
            return Err(code(ErrorCode::FileTooLarge));
        }
        let growth = size.saturating_sub(stored);
        let mut left = u64::MAX;
        if let Some(cap) = self.cap {
            let used = ws.usage().map_err(|e| code(from_errno(e.code)))?.node_bytes;
            left = cap.saturating_sub(used.saturating_sub(stored));
            if size > left {
                return Err(code(ErrorCode::InsufficientSpace));
            }
            left -= size;
        }
        let (limit, used) = self.read("wasi.quota", path, |ws| {
            ws.quota().map(|q| (q.limit, q.used))
        })?;
        let free = limit.saturating_sub(used);
        if growth > free {
            return Err(code(ErrorCode::InsufficientSpace));
        }
        let slack = ROOM_SLACK.min(left).min(free - growth);
        Ok(size + slack)
    }

    /// [`mutate`](Self::mutate) of a change whose bytes are in pieces.
    pub(crate) fn mutate_pieces<A: Serialize + ?Sized>(
        &self,
        name: &'static str,
        args: &A,
        pieces: &[&[u8]],
        op: impl FnOnce(&Workspace) -> store::Result<()>,
    ) -> Res<()> {
        self.generation.fetch_add(1, Ordering::Relaxed);
        let ws = self.ws()?;
        let Some(j) = &self.journal else {
            return op(ws).map_err(|e| code(from_errno(e.code)));
        };
        let encoded = encode(args);
        let mut parts: Vec<&[u8]> = vec![&encoded];
        parts.extend_from_slice(pieces);
        let hash = journal::args_hash(&parts);
        let out = journalled_mutation(ws, j, name, hash, unit_ok(), |w| {
            op(w).map_err(fs::FsError::from)
        });
        settle(out)
    }
}

/// How far past a checked size a file may grow before its room is checked
/// again (what concurrent writers may overshoot a quota by, at most).
const ROOM_SLACK: u64 = 1 << 20;

fn settle<T>(out: Result<Result<T, fs::FsError>, crate::host::error::HostError>) -> Res<T> {
    match out {
        Ok(Ok(v)) => Ok(v),
        Ok(Err(e)) => Err(code(from_fs(&e))),
        Err(e) => Err(FsError::trap(wasmtime::Error::msg(e.to_string()))),
    }
}

/// What a descriptor points into.
#[derive(Clone)]
pub(crate) enum Tree {
    Store(Arc<StoreTree>),
    /// A read-only host directory.
    HostDir(Arc<PathBuf>),
    /// Read-only bytes handed over by the embedder.
    Files(Arc<FileTree>),
}

impl Tree {
    pub(crate) fn writable(&self) -> bool {
        matches!(self, Tree::Store(_))
    }

    /// `Err(read-only)` unless the tree can be changed.
    pub(crate) fn store(&self) -> Res<&StoreTree> {
        match self {
            Tree::Store(s) => Ok(s),
            _ => Err(code(ErrorCode::ReadOnly)),
        }
    }

    /// See [`StoreTree::generation`]; trees that cannot change stay at 0.
    pub(crate) fn generation(&self) -> u64 {
        match self {
            Tree::Store(s) => s.generation.load(Ordering::Relaxed),
            _ => 0,
        }
    }

    /// [`stat`](Self::stat) for the calls programs make in pairs on one
    /// path: wasi-libc's `fstatat` is `metadata-hash-at` then `stat-at`,
    /// `fstat` is `metadata-hash` then `stat`, and a directory walk checks
    /// an entry (`metadata-hash-at`, no follow) before it opens it. The
    /// second call of such a pair answers from the first if no store call
    /// came between them, as if both had happened at once. A call never
    /// reuses its own kind's answer, so a program polling one path with
    /// the same call always sees the store.
    pub(crate) fn stat_for(&self, path: &str, follow: bool, asker: Asker) -> Res<Meta> {
        let Tree::Store(s) = self else {
            return self.stat(path, follow);
        };
        if let Some(m) = s.recall(path, follow, asker) {
            return Ok(m);
        }
        let meta = self.stat(path, follow)?;
        *s.recent() = Some(Recent {
            path: path.to_owned(),
            follow,
            asker,
            meta,
        });
        Ok(meta)
    }

    /// Metadata of `path`, following a final symlink when `follow`.
    pub(crate) fn stat(&self, path: &str, follow: bool) -> Res<Meta> {
        match self {
            Tree::Store(s) => {
                let name = if follow { "wasi.stat" } else { "wasi.lstat" };
                s.read(name, path, |ws| {
                    let st = if follow {
                        ws.stat(path)?
                    } else {
                        ws.lstat(path)?
                    };
                    Ok(Meta::of(&st))
                })
            }
            Tree::HostDir(root) => mount::host_stat(root, path, follow),
            Tree::Files(f) => f.stat(path),
        }
    }

    pub(crate) fn read_range(&self, path: &str, offset: u64, len: u64) -> Res<Vec<u8>> {
        match self {
            Tree::Store(s) => s.read_bytes("wasi.pread", &(path, offset, len), |ws| {
                ws.read_range_pieces(path, offset, Some(len))
            }),
            Tree::HostDir(root) => mount::host_read(root, path, offset, len),
            Tree::Files(f) => f.read(path, offset, len),
        }
    }

    /// A page of a directory's entries: names and kinds.
    pub(crate) fn readdir(&self, path: &str, offset: u64, limit: u64) -> Res<Vec<(String, Kind)>> {
        match self {
            Tree::Store(s) => s.read("wasi.readdir", &(path, offset, limit), |ws| {
                let page = store::Page::new(offset, Some(limit));
                let entries = ws.readdir(path, page)?;
                Ok(entries
                    .iter()
                    .map(|e| (e.name.clone(), Meta::of(e).kind))
                    .collect())
            }),
            Tree::HostDir(root) => mount::host_readdir(root, path, offset, limit),
            Tree::Files(f) => f.readdir(path, offset, limit),
        }
    }

    pub(crate) fn readlink(&self, path: &str) -> Res<String> {
        match self {
            Tree::Store(s) => s.read("wasi.readlink", path, |ws| ws.readlink(path)),
            Tree::HostDir(root) => mount::host_readlink(root, path),
            Tree::Files(_) => Err(code(ErrorCode::Invalid)),
        }
    }
}

impl Tree {
    /// The same tree (for `is-same-object`).
    pub(crate) fn same(&self, other: &Tree) -> bool {
        match (self, other) {
            (Tree::Store(a), Tree::Store(b)) => Arc::ptr_eq(a, b),
            (Tree::HostDir(a), Tree::HostDir(b)) => Arc::ptr_eq(a, b),
            (Tree::Files(a), Tree::Files(b)) => Arc::ptr_eq(a, b),
            _ => false,
        }
    }
}
