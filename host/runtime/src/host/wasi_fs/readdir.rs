//! `read-directory`: a stream that pages through the store's listing
//! (256 entries a page), so a big directory is never listed at once.

use std::collections::VecDeque;

use wasmtime::component::Resource;
use wasmtime_wasi::filesystem::Descriptor as WasiDescriptor;
use wasmtime_wasi::p2::bindings::sync::filesystem::types::DirectoryEntry;
use wasmtime_wasi::p2::bindings::sync::filesystem::types::DirectoryEntryStream;

use super::WasiFs;
use super::errors::code;
use super::paths::descriptor_type;
use super::tree::{Kind, Res, Tree};
use wasmtime_wasi::p2::bindings::filesystem::types::ErrorCode;

const PAGE: u64 = 256;

pub(crate) struct DirStream {
    tree: Tree,
    path: String,
    /// Entries handed out or buffered so far.
    offset: u64,
    buffered: VecDeque<(String, Kind)>,
    done: bool,
}

impl DirStream {
    fn next(&mut self) -> Res<Option<DirectoryEntry>> {
        if self.buffered.is_empty() && !self.done {
            let page = self.tree.readdir(&self.path, self.offset, PAGE)?;
            self.done = (page.len() as u64) < PAGE;
            self.offset += page.len() as u64;
            self.buffered.extend(page);
        }
        Ok(self
            .buffered
            .pop_front()
            .map(|(name, kind)| DirectoryEntry {
                type_: descriptor_type(kind),
                name,
            }))
    }
}

impl WasiFs {
    pub(crate) fn read_directory(
        &mut self,
        fd: &Resource<WasiDescriptor>,
    ) -> Res<Resource<DirectoryEntryStream>> {
        let d = self.dir(fd)?;
        let stream = DirStream {
            tree: d.tree.clone(),
            path: d.path.clone(),
            offset: 0,
            buffered: VecDeque::new(),
            done: false,
        };
        let rep = self.rep();
        self.streams.insert(rep, stream);
        Ok(Resource::new_own(rep))
    }

    pub(crate) fn read_directory_entry(
        &mut self,
        s: &Resource<DirectoryEntryStream>,
    ) -> Res<Option<DirectoryEntry>> {
        let stream = self
            .streams
            .get_mut(&s.rep())
            .ok_or(code(ErrorCode::BadDescriptor))?;
        stream.next()
    }

    pub(crate) fn drop_stream(&mut self, s: &Resource<DirectoryEntryStream>) {
        self.streams.remove(&s.rep());
    }
}
