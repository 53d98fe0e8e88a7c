//! An open file, shared by every descriptor of the run that has the same
//! path open (`WasiFs::open_files`), as the one inode they all reach would
//! be: what one writes, another reads, before any commit. Reads go to the
//! tree until the first change; the first
//! write, `set-size` or append loads the file once into a buffer, later
//! changes edit the buffer in place, and the buffer is written back as a
//! whole file at `sync`, `sync-data`, when the descriptor is dropped, or
//! when the last stream on it is. So a 4 KiB `pwrite` into a big file
//! costs a copy into memory, not a rewrite and rehash of the file; the
//! rewrite happens once per sync/close. Other runs (and `fs` calls of this
//! run) see the changes from that commit on.
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

use std::sync::{Arc, Mutex, MutexGuard};

use computer_store::WriteOptions;
use wasmtime_wasi::p2::bindings::filesystem::types::ErrorCode;

use super::errors::code;
use super::tree::{Kind, Meta, Res, Tree};

/// Bytes a single read returns at most.
pub(crate) const MAX_READ: u64 = 1 << 20;

/// Files up to this size are read whole on their first read. Bigger ones
/// are read as asked, so a descriptor never holds more than this unasked.
const SNAPSHOT_MAX: u64 = 128 << 10;

pub(crate) struct OpenFile {
    pub tree: Tree,
    /// Absolute and normalized inside `tree`; follows renames of it.
    pub path: String,
    /// The whole content once changed, and its size when loaded.
    buffer: Option<(Vec<u8>, u64)>,
    /// Unlinked or replaced while open: it lives on in `buffer` only, and
    /// commits nothing.
    orphan: bool,
    dirty: bool,
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
        self.check_write()?;
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
            buffer: None,
            orphan: false,
            dirty: false,
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
        if let Some((b, _)) = &self.buffer {
            meta.size = b.len() as u64;
        }
        Ok(meta)
    }

    fn read_at_unchecked(&mut self, offset: u64, len: u64) -> Res<Vec<u8>> {
        let len = len.min(MAX_READ);
        if let Some((b, _)) = &self.buffer {
            return Ok(slice(b, offset, len).to_vec());
        }
        if let Some(data) = self.snapshot()? {
            return Ok(slice(data, offset, len).to_vec());
        }
        self.tree.read_range(&self.path, offset, len)
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

    fn buffer(&mut self) -> Res<&mut Vec<u8>> {
        if self.buffer.is_none() {
            self.snapshot = None;
            let data = self.tree.load(&self.path)?;
            let len = data.len() as u64;
            self.buffer = Some((data, len));
        }
        Ok(&mut self.buffer.as_mut().expect("loaded").0)
    }

    fn write_at_unchecked(&mut self, offset: u64, data: &[u8]) -> Res<u64> {
        offset
            .checked_add(data.len() as u64)
            .filter(|e| *e <= usize::MAX as u64)
            .ok_or(code(ErrorCode::FileTooLarge))?;
        let buf = self.buffer()?;
        let offset = offset as usize;
        if offset > buf.len() {
            buf.resize(offset, 0);
        }
        // Only the overlap is copied over; the rest is appended, so bytes
        // past the end are written once, not zeroed first.
        let overlap = (buf.len() - offset).min(data.len());
        buf[offset..offset + overlap].copy_from_slice(&data[..overlap]);
        buf.extend_from_slice(&data[overlap..]);
        self.dirty = true;
        Ok(data.len() as u64)
    }

    fn append_unchecked(&mut self, data: &[u8]) -> Res<u64> {
        let buf = self.buffer()?;
        buf.extend_from_slice(data);
        self.dirty = true;
        Ok(data.len() as u64)
    }

    fn set_size_unchecked(&mut self, size: u64) -> Res<()> {
        let size = usize::try_from(size).map_err(|_| code(ErrorCode::FileTooLarge))?;
        self.buffer()?.resize(size, 0);
        self.dirty = true;
        Ok(())
    }

    pub(crate) fn is_dirty(&self) -> bool {
        self.dirty && !self.orphan
    }

    /// The path no longer names this file (unlinked, or replaced by a
    /// rename): keep its content for the descriptors still open on it.
    pub(crate) fn orphan(&mut self) -> Res<()> {
        if self.buffer.is_none() {
            let data = self.tree.load(&self.path)?;
            let len = data.len() as u64;
            self.buffer = Some((data, len));
        }
        if self.meta.is_none() {
            let m = self.tree.stat(&self.path, true)?;
            self.meta = Some((m, self.tree.generation()));
        }
        self.orphan = true;
        self.snapshot = None;
        Ok(())
    }

    /// The store truncated the file under its path (`open` with
    /// `truncate`): what is buffered is gone too.
    pub(crate) fn truncated(&mut self) {
        if !self.orphan {
            self.buffer = None;
            self.dirty = false;
            self.snapshot = None;
            self.meta = None;
        }
    }

    /// Writes the buffer back, if it changed; the moment other runs see it.
    pub(crate) fn commit(&mut self) -> Res<()> {
        if !self.dirty || self.orphan {
            return Ok(());
        }
        let Some((data, loaded)) = &mut self.buffer else {
            return Ok(());
        };
        let store = self.tree.store()?;
        store.check_room(*loaded, data.len() as u64)?;
        let path = self.path.as_str();
        let opts = WriteOptions::default();
        store.mutate("wasi.commit", path, data, |ws| ws.write(path, data, &opts))?;
        *loaded = data.len() as u64;
        self.dirty = false;
        Ok(())
    }
}

fn slice(data: &[u8], offset: u64, len: u64) -> &[u8] {
    let start = offset.min(data.len() as u64) as usize;
    let end = start.saturating_add(len as usize).min(data.len());
    &data[start..end]
}

impl Drop for OpenFile {
    fn drop(&mut self) {
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
    }
}
