//! An open file. Reads go to the tree until the first change; the first
//! write, `set-size` or append loads the file once into a buffer, later
//! changes edit the buffer in place, and the buffer is written back as a
//! whole file at `sync`, `sync-data`, when the descriptor is dropped, or
//! when the last stream on it is. So a 4 KiB `pwrite` into a big file
//! costs a copy into memory, not a rewrite and rehash of the file; the
//! rewrite happens once per sync/close. Other runs (and `fs` calls of this
//! run) see the changes from that commit on.

use std::sync::{Arc, Mutex, MutexGuard};

use computer_store::WriteOptions;
use wasmtime_wasi::p2::bindings::filesystem::types::ErrorCode;

use super::errors::code;
use super::tree::{Kind, Res, Tree};

/// Bytes a single read returns at most.
pub(crate) const MAX_READ: u64 = 1 << 20;

pub(crate) struct OpenFile {
    pub tree: Tree,
    /// Absolute and normalized inside `tree`.
    pub path: String,
    pub readable: bool,
    pub writable: bool,
    /// The whole content once changed, and its size when loaded.
    buffer: Option<(Vec<u8>, u64)>,
    dirty: bool,
}

pub(crate) type SharedFile = Arc<Mutex<OpenFile>>;

pub(crate) fn lock(f: &SharedFile) -> MutexGuard<'_, OpenFile> {
    f.lock().unwrap_or_else(|p| p.into_inner())
}

impl OpenFile {
    pub(crate) fn new(tree: Tree, path: String, readable: bool, writable: bool) -> Self {
        OpenFile {
            tree,
            path,
            readable,
            writable,
            buffer: None,
            dirty: false,
        }
    }

    pub(crate) fn size(&self) -> Res<u64> {
        match &self.buffer {
            Some((b, _)) => Ok(b.len() as u64),
            None => Ok(self.tree.stat(&self.path, true)?.size),
        }
    }

    pub(crate) fn read_at(&self, offset: u64, len: u64) -> Res<Vec<u8>> {
        if !self.readable {
            return Err(code(ErrorCode::BadDescriptor));
        }
        let len = len.min(MAX_READ);
        match &self.buffer {
            Some((b, _)) => {
                let start = (offset as usize).min(b.len());
                let end = start.saturating_add(len as usize).min(b.len());
                Ok(b[start..end].to_vec())
            }
            None => self.tree.read_range(&self.path, offset, len),
        }
    }

    fn buffer(&mut self) -> Res<&mut Vec<u8>> {
        if !self.writable {
            return Err(code(ErrorCode::BadDescriptor));
        }
        if self.buffer.is_none() {
            let data = self.tree.load(&self.path)?;
            let len = data.len() as u64;
            self.buffer = Some((data, len));
        }
        Ok(&mut self.buffer.as_mut().expect("loaded").0)
    }

    pub(crate) fn write_at(&mut self, offset: u64, data: &[u8]) -> Res<u64> {
        let end = offset
            .checked_add(data.len() as u64)
            .filter(|e| *e <= usize::MAX as u64)
            .ok_or(code(ErrorCode::FileTooLarge))?;
        let buf = self.buffer()?;
        if buf.len() < end as usize {
            buf.resize(end as usize, 0);
        }
        buf[offset as usize..end as usize].copy_from_slice(data);
        self.dirty = true;
        Ok(data.len() as u64)
    }

    pub(crate) fn append(&mut self, data: &[u8]) -> Res<u64> {
        let buf = self.buffer()?;
        buf.extend_from_slice(data);
        self.dirty = true;
        Ok(data.len() as u64)
    }

    pub(crate) fn set_size(&mut self, size: u64) -> Res<()> {
        let size = usize::try_from(size).map_err(|_| code(ErrorCode::FileTooLarge))?;
        self.buffer()?.resize(size, 0);
        self.dirty = true;
        Ok(())
    }

    /// Writes the buffer back, if it changed; the moment other runs see it.
    pub(crate) fn commit(&mut self) -> Res<()> {
        if !self.dirty {
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
