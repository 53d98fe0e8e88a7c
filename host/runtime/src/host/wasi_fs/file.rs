//! An open file, shared by every descriptor of the run that has the same
//! path open (`WasiFs::open_files`), as the one inode they all reach would
//! be: what one writes, another reads, before any commit. Reads go to the
//! tree until the first change. Changes are kept by the store's 256 KiB
//! chunk (`Changes`): a write loads only the chunks it touches, a region
//! past the stored end or cut by `set-size` is zeros that are never held in
//! memory, and the changed chunks are committed in place (`Workspace::patch`)
//! at `sync`, `sync-data`, when the descriptor is dropped, when the last
//! stream on it is, and as soon as they reach `WRITE_THROUGH` bytes. So a
//! 4 KiB `pwrite` into a big file costs one chunk, a program that writes
//! gigabytes holds 8 MiB of them in the host, and `seek(2**50); write(b"x")`
//! is refused (`EFBIG`) before anything is allocated. Growth is checked at
//! the write against the largest file, `/tmp`'s cap and the workspace's
//! quota, so a full disk is reported where a program can hear it. Other
//! runs (and `fs` calls of this run) see the changes from a commit on.
//!
//! An open file also remembers, so that a program's usual
//! open/fstat/read-to-EOF costs one or two store calls, not five:
//! - the metadata `open-at` found, which `stat` and `metadata-hash` answer
//!   from (the size from the buffer once there is one);
//! - a small file's whole content, read on its first read, which serves
//!   every later read, the one that finds the end included.
//!
//! Both are dropped as soon as this run changes anything in the tree
//! (`Tree::generation`), so within a run a descriptor sees every commit
//! as before. A commit of another run (or an `fs` call of this one) after
//! they were taken is not seen through this descriptor: it sees the file
//! as if the other writer had replaced it by a rename, which POSIX leaves
//! invisible to descriptors already open. Reads of a bigger file still go
//! to the store each time and see such commits; its `stat` does not.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, MutexGuard};

use computer_store::{CHUNK_SIZE, MkdirOptions, Patch, RmOptions};
use wasmtime_wasi::p2::bindings::filesystem::types::ErrorCode;

use super::errors::code;
use super::tree::{Kind, Meta, Res, Tree};

/// Bytes a single read returns at most.
pub(crate) const MAX_READ: u64 = 1 << 20;

/// Where a file unlinked while open waits for its last descriptor.
pub(crate) const UNLINKED_DIR: &str = "/.computer/unlinked";

/// The store's chunk: the unit an open file changes and commits.
const CHUNK: u64 = CHUNK_SIZE as u64;

/// Changed bytes an open file holds before it writes them through.
const WRITE_THROUGH: u64 = 8 << 20;

/// Files up to this size are read whole on their first read. Bigger ones
/// are read as asked, so a descriptor never holds more than this unasked.
const SNAPSHOT_MAX: u64 = 128 << 10;

pub(crate) struct OpenFile {
    pub tree: Tree,
    /// Absolute and normalized inside `tree`; follows renames of it.
    pub path: String,
    /// What was changed and is not stored yet.
    changes: Option<Changes>,
    /// Unlinked or replaced while open and kept in memory (`changes`
    /// only), committing nothing: only when it could not be set aside.
    orphan: bool,
    /// Unlinked or replaced while open, and moved to [`UNLINKED_DIR`]
    /// instead: it stays a file of the store (written through, counted in
    /// the quota) until its last descriptor goes, which removes it.
    set_aside: bool,
    /// The node's metadata, and the tree's generation when it was taken.
    meta: Option<(Meta, u64)>,
    /// A small file's content, and the generation when it was read.
    snapshot: Option<(Vec<u8>, u64)>,
}

/// One descriptor's view of an open file: the file, and what the
/// descriptor may do with it.
pub(crate) struct Handle {
    pub file: Arc<Mutex<OpenFile>>,
    pub readable: bool,
    pub writable: bool,
}

pub(crate) type SharedFile = Arc<Handle>;

/// The locked file, with the descriptor's rights checked on each access.
pub(crate) struct Guard<'a> {
    file: MutexGuard<'a, OpenFile>,
    pub readable: bool,
    pub writable: bool,
}

pub(crate) fn lock(h: &SharedFile) -> Guard<'_> {
    Guard {
        file: lock_file(&h.file),
        readable: h.readable,
        writable: h.writable,
    }
}

pub(crate) fn lock_file(f: &Mutex<OpenFile>) -> MutexGuard<'_, OpenFile> {
    f.lock().unwrap_or_else(|p| p.into_inner())
}

impl std::ops::Deref for Guard<'_> {
    type Target = OpenFile;
    fn deref(&self) -> &OpenFile {
        &self.file
    }
}

impl std::ops::DerefMut for Guard<'_> {
    fn deref_mut(&mut self) -> &mut OpenFile {
        &mut self.file
    }
}

impl Guard<'_> {
    pub(crate) fn read_at(&mut self, offset: u64, len: u64) -> Res<Vec<u8>> {
        if !self.readable {
            return Err(code(ErrorCode::BadDescriptor));
        }
        self.file.read_at_unchecked(offset, len)
    }

    fn check_write(&self) -> Res<()> {
        match self.writable {
            true => Ok(()),
            false => Err(code(ErrorCode::BadDescriptor)),
        }
    }

    pub(crate) fn write_at(&mut self, offset: u64, data: &[u8]) -> Res<u64> {
        self.check_write()?;
        self.file.write_at_unchecked(offset, data)
    }

    pub(crate) fn append(&mut self, data: &[u8]) -> Res<u64> {
        self.check_write()?;
        self.file.append_unchecked(data)
    }

    pub(crate) fn set_size(&mut self, size: u64) -> Res<()> {
        // ftruncate(2) on a descriptor not open for writing is EINVAL.
        if !self.writable {
            return Err(code(ErrorCode::Invalid));
        }
        self.file.set_size_unchecked(size)
    }
}

impl OpenFile {
    /// `meta`: what `open-at` found, if the file is still that node.
    pub(crate) fn new(tree: Tree, path: String, meta: Option<Meta>) -> Self {
        let generation = tree.generation();
        OpenFile {
            tree,
            path,
            changes: None,
            orphan: false,
            set_aside: false,
            meta: meta.map(|m| (m, generation)),
            snapshot: None,
        }
    }

    /// The file's metadata as this descriptor sees it.
    pub(crate) fn meta(&mut self) -> Res<Meta> {
        let generation = self.tree.generation();
        let mut meta = match self.meta {
            Some((m, _)) if self.orphan => m,
            Some((m, g)) if g == generation => m,
            _ => {
                let m = self.tree.stat(&self.path, true)?;
                self.meta = Some((m, generation));
                m
            }
        };
        if let Some(c) = &self.changes {
            meta.size = c.size;
        }
        Ok(meta)
    }

    fn read_at_unchecked(&mut self, offset: u64, len: u64) -> Res<Vec<u8>> {
        let len = len.min(MAX_READ);
        if self.changes.is_some() {
            return self.read_changed(offset, len);
        }
        if let Some(data) = self.snapshot()? {
            return Ok(slice(data, offset, len).to_vec());
        }
        self.tree.read_range(&self.path, offset, len)
    }

    /// A read of a changed file: its pages, the stored bytes below `keep`,
    /// zeros above it; one store call per stretch between pages.
    fn read_changed(&self, offset: u64, len: u64) -> Res<Vec<u8>> {
        let c = self.changes.as_ref().expect("changed");
        let end = offset.saturating_add(len).min(c.size);
        let mut out = Vec::with_capacity(end.saturating_sub(offset) as usize);
        let mut at = offset;
        while at < end {
            let index = at / CHUNK;
            let chunk_end = ((index + 1) * CHUNK).min(end);
            if let Some(page) = c.pages.get(&index) {
                let from = (at - index * CHUNK) as usize;
                let to = (chunk_end - index * CHUNK) as usize;
                let have = page.len().min(to);
                if from < have {
                    out.extend_from_slice(&page[from..have]);
                }
                out.resize(out.len() + (to - from.max(have)), 0);
                at = chunk_end;
                continue;
            }
            // Up to the next page, or the end.
            let next = c
                .pages
                .range(index + 1..)
                .next()
                .map_or(end, |(i, _)| (i * CHUNK).min(end));
            let stored_end = next.min(c.keep);
            if at < stored_end {
                let data = self.tree.read_range(&self.path, at, stored_end - at)?;
                let short = (stored_end - at) as usize - data.len().min((stored_end - at) as usize);
                out.extend_from_slice(&data);
                // The stored file shrank under us: what is gone reads as zeros.
                out.resize(out.len() + short, 0);
            }
            out.resize(out.len() + (next - at.max(stored_end)) as usize, 0);
            at = next;
        }
        Ok(out)
    }

    /// The whole content of a file known to be small, read once.
    fn snapshot(&mut self) -> Res<Option<&[u8]>> {
        let generation = self.tree.generation();
        if self
            .snapshot
            .as_ref()
            .is_some_and(|(_, g)| *g != generation)
        {
            self.snapshot = None;
        }
        if self.snapshot.is_none() {
            let small =
                matches!(self.meta, Some((m, g)) if g == generation && m.size <= SNAPSHOT_MAX);
            if !small {
                return Ok(None);
            }
            // One byte more than fits tells a file that grew since open.
            let data = self.tree.read_range(&self.path, 0, SNAPSHOT_MAX + 1)?;
            if data.len() as u64 > SNAPSHOT_MAX {
                self.meta = None;
                return Ok(None);
            }
            self.snapshot = Some((data, generation));
        }
        Ok(self.snapshot.as_ref().map(|(d, _)| d.as_slice()))
    }

    /// The changes, started from the stored file on the first change.
    fn changes(&mut self) -> Res<&mut Changes> {
        if self.changes.is_none() {
            self.snapshot = None;
            let size = self.meta()?.size;
            self.changes = Some(Changes {
                size,
                keep: size,
                pages: BTreeMap::new(),
                stored: size,
                room: size,
                resized: false,
            });
        }
        Ok(self.changes.as_mut().expect("started"))
    }

    /// Refuses a size the file may not grow to, before anything is
    /// allocated or written: past the workspace's largest file (`EFBIG`),
    /// past `/tmp`'s cap or the workspace's quota (`ENOSPC`). So a program
    /// hears of a full disk at the `write` that fills it, as on a real
    /// filesystem, not never (a commit at close has no one to tell).
    fn check_growth(&mut self, size: u64) -> Res<()> {
        let c = self.changes()?;
        if size <= c.room {
            return Ok(());
        }
        let stored = c.stored;
        let store = self.tree.store()?;
        let room = store.room_for(&self.path, stored, size)?;
        self.changes.as_mut().expect("started").room = room;
        Ok(())
    }

    /// The page of chunk `index`, loaded with what the file holds there
    /// now, unless the caller is about to write all of it (`whole`).
    fn page(&mut self, index: u64, whole: bool) -> Res<&mut Vec<u8>> {
        let c = self.changes.as_ref().expect("started");
        if !c.pages.contains_key(&index) {
            let start = index * CHUNK;
            let visible = c.size.saturating_sub(start).min(CHUNK);
            let data = match whole || visible == 0 {
                true => Vec::new(),
                false => self.read_changed(start, visible)?,
            };
            self.changes
                .as_mut()
                .expect("started")
                .pages
                .insert(index, data);
        }
        Ok(self
            .changes
            .as_mut()
            .expect("started")
            .pages
            .get_mut(&index)
            .expect("inserted"))
    }

    fn write_at_unchecked(&mut self, offset: u64, data: &[u8]) -> Res<u64> {
        // Writing nothing, even past the end, changes nothing (pwrite(2)).
        if data.is_empty() {
            return Ok(0);
        }
        let end = offset
            .checked_add(data.len() as u64)
            .ok_or(code(ErrorCode::FileTooLarge))?;
        if end > self.changes()?.size {
            self.check_growth(end)?;
        }
        let mut at = offset;
        let mut rest = data;
        while !rest.is_empty() {
            let index = at / CHUNK;
            let within = (at - index * CHUNK) as usize;
            let take = rest.len().min(CHUNK as usize - within);
            // A chunk written whole needs nothing loaded.
            let page = self.page(index, within == 0 && take == CHUNK as usize)?;
            if page.len() < within {
                page.resize(within, 0);
            }
            let overlap = (page.len() - within).min(take);
            page[within..within + overlap].copy_from_slice(&rest[..overlap]);
            page.extend_from_slice(&rest[overlap..take]);
            at += take as u64;
            rest = &rest[take..];
        }
        let c = self.changes.as_mut().expect("started");
        c.size = c.size.max(end);
        self.settle_pages()?;
        Ok(data.len() as u64)
    }

    fn append_unchecked(&mut self, data: &[u8]) -> Res<u64> {
        let end = self.changes()?.size;
        self.write_at_unchecked(end, data)
    }

    fn set_size_unchecked(&mut self, size: u64) -> Res<()> {
        let old = self.changes()?.size;
        if size > old {
            self.check_growth(size)?;
        }
        let c = self.changes.as_mut().expect("started");
        if size < old {
            let first_gone = size.div_ceil(CHUNK);
            c.pages.split_off(&first_gone);
            if let Some((index, page)) = c.pages.iter_mut().next_back() {
                page.truncate(size.saturating_sub(index * CHUNK) as usize);
            }
            c.keep = c.keep.min(size);
        }
        c.size = size;
        c.resized = true;
        Ok(())
    }

    /// Writes the pages through once they hold `WRITE_THROUGH` bytes: the
    /// host holds at most that much of a file a guest writes, whatever its
    /// size.
    fn settle_pages(&mut self) -> Res<()> {
        let held = self
            .changes
            .as_ref()
            .map_or(0, |c| c.pages.len() as u64 * CHUNK);
        if held >= WRITE_THROUGH && !self.orphan {
            self.commit()?;
        }
        Ok(())
    }

    pub(crate) fn is_dirty(&self) -> bool {
        self.changes.as_ref().is_some_and(Changes::changed) && !self.orphan
    }

    /// The path is about to stop naming this file (an unlink, or a rename
    /// over it): move it to [`UNLINKED_DIR`], as NFS's "silly rename" does,
    /// so the descriptors still open on it keep a file of the store and a
    /// program's unlinked temporary file (Python's `TemporaryFile`) is not
    /// held in host memory. Its name there is its inode number, unique
    /// among live files. Returns whether it was moved; if not, it is kept
    /// in memory ([`orphan`](Self::orphan)).
    pub(crate) fn set_aside(&mut self) -> Res<bool> {
        let tree = self.tree.clone();
        let Ok(store) = tree.store() else {
            return Ok(false);
        };
        self.commit()?;
        let ino = self.meta()?.ino;
        let to = format!("{UNLINKED_DIR}/{ino}");
        let from = self.path.clone();
        let moved = store.mutate("wasi.set_aside", &(&from, &to), &[], |ws| {
            let dir = MkdirOptions {
                recursive: true,
                mode: None,
            };
            ws.mkdir(UNLINKED_DIR, &dir)?;
            ws.rename(&from, &to)
        });
        if let Err(e) = moved {
            tracing::warn!(path = %from, "wasi: cannot set an unlinked open file aside, keeping it in memory: {e:?}");
            self.orphan()?;
            return Ok(false);
        }
        self.path = to;
        self.set_aside = true;
        self.meta = None;
        self.snapshot = None;
        Ok(true)
    }

    /// The path no longer names this file (unlinked, or replaced by a
    /// rename): keep its content in memory for the descriptors still open
    /// on it.
    pub(crate) fn orphan(&mut self) -> Res<()> {
        if self.meta.is_none() {
            let m = self.tree.stat(&self.path, true)?;
            self.meta = Some((m, self.tree.generation()));
        }
        let size = self.changes()?.size;
        for index in 0..size.div_ceil(CHUNK) {
            self.page(index, false)?;
        }
        self.changes.as_mut().expect("started").keep = 0;
        self.orphan = true;
        self.snapshot = None;
        Ok(())
    }

    /// The store truncated the file under its path (`open` with
    /// `truncate`): what is buffered is gone too.
    pub(crate) fn truncated(&mut self) {
        if !self.orphan {
            self.changes = None;
            self.snapshot = None;
            self.meta = None;
        }
    }

    /// Stores what changed, chunk by chunk; the moment other runs see it.
    pub(crate) fn commit(&mut self) -> Res<()> {
        if self.orphan {
            return Ok(());
        }
        let Some(c) = &self.changes else {
            return Ok(());
        };
        if !c.changed() {
            return Ok(());
        }
        let store = self.tree.store()?;
        let pages: Vec<(u64, &[u8])> = c.pages.iter().map(|(i, p)| (*i, p.as_slice())).collect();
        let change = Patch {
            size: c.size,
            keep: c.keep,
            pages: &pages,
        };
        let path = self.path.as_str();
        let indices: Vec<u64> = pages.iter().map(|(i, _)| *i).collect();
        let args = (path, change.size, change.keep, indices);
        let bytes: Vec<&[u8]> = pages.iter().map(|(_, p)| *p).collect();
        store.mutate_pieces("wasi.commit", &args, &bytes, |ws| ws.patch(path, &change))?;
        let c = self.changes.as_mut().expect("changed");
        c.pages.clear();
        c.keep = c.size;
        c.stored = c.size;
        c.resized = false;
        Ok(())
    }
}

/// What an open file changed and has not stored yet. Chunk `i` of the file
/// is `pages[i]` (zeros after its end, up to the chunk's or the file's
/// end), or else the stored bytes below `keep` and zeros from `keep` on.
struct Changes {
    /// The file's size now.
    size: u64,
    /// Stored bytes below this offset are still the file's (a shrink, or
    /// growth past the stored end, makes what follows zeros).
    keep: u64,
    /// Changed chunks by index, from each chunk's start.
    pages: BTreeMap<u64, Vec<u8>>,
    /// The size the store holds: what a commit replaces.
    stored: u64,
    /// The size up to which room was confirmed (see `check_growth`).
    room: u64,
    /// The size or `keep` changed since the last commit.
    resized: bool,
}

impl Changes {
    fn changed(&self) -> bool {
        !self.pages.is_empty() || self.resized
    }
}

fn slice(data: &[u8], offset: u64, len: u64) -> &[u8] {
    let start = offset.min(data.len() as u64) as usize;
    let end = start.saturating_add(len as usize).min(data.len());
    &data[start..end]
}

impl Drop for OpenFile {
    fn drop(&mut self) {
        if self.set_aside {
            // Unlinked while open: its last descriptor is gone, so is it.
            let path = self.path.as_str();
            let removed = self.tree.store().and_then(|s| {
                s.mutate("wasi.unlink", path, &[], |ws| {
                    ws.rm(path, RmOptions::default())?;
                    // Leave no trace once nothing waits there (a directory
                    // still in use, or holding kept output, stays).
                    for dir in [UNLINKED_DIR, "/.computer"] {
                        if ws.rm(dir, RmOptions::default()).is_err() {
                            break;
                        }
                    }
                    Ok(())
                })
            });
            if let Err(e) = removed {
                tracing::warn!(path = %self.path, "wasi: cannot remove an unlinked file at close: {e:?}");
            }
            return;
        }
        if let Err(e) = self.commit() {
            tracing::warn!(path = %self.path, "wasi: cannot commit a file at close: {e:?}");
        }
    }
}

/// Whether an existing node may be opened as a file.
pub(crate) fn check_file_kind(kind: Kind) -> Res<()> {
    match kind {
        Kind::File => Ok(()),
        Kind::Dir => Err(code(ErrorCode::IsDirectory)),
        Kind::Symlink => Err(code(ErrorCode::Loop)),
        Kind::Special => Err(code(ErrorCode::Unsupported)),
    }
}
