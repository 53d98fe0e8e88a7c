//! `read-directory`: a stream that pages through the store's listing
//! (256 entries a page), so a big directory is never listed at once.

use std::collections::VecDeque;

use wasmtime::component::Resource;
use wasmtime_wasi::filesystem::Descriptor as WasiDescriptor;
use wasmtime_wasi::p2::bindings::sync::filesystem::types::DirectoryEntryStream;
use wasmtime_wasi::p2::bindings::sync::filesystem::types::{DescriptorType, DirectoryEntry};

use super::errors::code;
use super::paths::descriptor_type;
use super::tree::{Kind, Res, Tree};
use super::{WasiFs, devices};
use wasmtime_wasi::p2::bindings::filesystem::types::ErrorCode;

const PAGE: u64 = 256;

pub(crate) struct DirStream {
    tree: Tree,
    path: String,
    /// Entries handed out or buffered so far.
    offset: u64,
    buffered: VecDeque<(String, Kind)>,
    done: bool,
    /// `/dev`, whose special entries are the devices.
    dev: bool,
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
                type_: match kind {
                    Kind::Special if self.dev => DescriptorType::CharacterDevice,
                    kind => descriptor_type(kind),
                },
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
        let mut stream = DirStream {
            tree: d.tree.clone(),
            path: d.path.clone(),
            offset: 0,
            buffered: VecDeque::new(),
            done: false,
            dev: devices::is_dev_dir(&d.tree, &d.path),
        };
        if stream.dev {
            // Listed whole: a handful of devices and whatever the
            // workspace keeps in its own `/dev`.
            let own = match d.tree.readdir(&d.path, 0, u64::MAX) {
                Err(e) if matches!(e.downcast_ref(), Some(ErrorCode::NoEntry)) => Vec::new(),
                own => own?,
            };
            stream.buffered = devices::merge_listing(own).into();
            stream.done = true;
        }
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
