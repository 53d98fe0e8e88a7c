//! The generated `wasi:filesystem/types` host traits, for `RunState`:
//! each call is a thin wrapper over `WasiFs`.

use wasmtime::component::Resource;
use wasmtime_wasi::filesystem::Descriptor as WasiDescriptor;
use wasmtime_wasi::p2::bindings::sync::filesystem::types::{
    self, Advice, DescriptorFlags, DescriptorStat, DescriptorType, DirectoryEntry,
    DirectoryEntryStream, Filesize, MetadataHashValue, NewTimestamp, OpenFlags, PathFlags,
};
use wasmtime_wasi::p2::{DynInputStream, DynOutputStream, FsError, FsResult};

use super::errors::{StreamFsError, code};
use super::file::lock;
use super::paths::{descriptor_stat, descriptor_type};
use super::streams::{FileReader, FileWriter};
use super::tree::{Asker, Meta, Res};
use super::{Desc, Node, WasiFs};
use crate::run::state::RunState;
use wasmtime_wasi::p2::bindings::filesystem::types::ErrorCode;

type Fd = Resource<WasiDescriptor>;

impl WasiFs {
    /// A descriptor's metadata: a file's from what it remembers, a
    /// directory's from the store (`asker` pairs `metadata-hash` with the
    /// `stat` after it).
    fn meta(&self, fd: &Fd, asker: Option<Asker>) -> Res<(Meta, &Desc)> {
        let d = self.get(fd)?;
        let meta = match (&d.node, asker) {
            (Node::File(f), _) => lock(f).meta()?,
            (Node::Device(h), _) => h.device.meta(),
            (Node::Dir, _) if super::devices::is_dev_dir(&d.tree, &d.path) => {
                match d.tree.stat(&d.path, true) {
                    Err(e) if matches!(e.downcast_ref(), Some(ErrorCode::NoEntry)) => {
                        super::devices::dev_dir_meta()
                    }
                    found => found?,
                }
            }
            (Node::Dir, Some(asker)) => d.tree.stat_for(&d.path, true, asker)?,
            (Node::Dir, None) => d.tree.stat(&d.path, true)?,
        };
        Ok((meta, d))
    }

    fn sync(&self, fd: &Fd) -> Res<()> {
        match &self.get(fd)?.node {
            Node::File(f) => lock(f).commit(),
            Node::Dir | Node::Device(_) => Ok(()),
        }
    }

    fn flags(&self, fd: &Fd) -> Res<DescriptorFlags> {
        let d = self.get(fd)?;
        Ok(match &d.node {
            Node::Dir if d.tree.writable() => {
                DescriptorFlags::READ | DescriptorFlags::MUTATE_DIRECTORY
            }
            Node::Dir => DescriptorFlags::READ,
            Node::Device(h) => {
                let mut flags = DescriptorFlags::empty();
                if h.readable {
                    flags |= DescriptorFlags::READ;
                }
                if h.writable {
                    flags |= DescriptorFlags::WRITE;
                }
                flags
            }
            Node::File(f) => {
                let f = lock(f);
                let mut flags = DescriptorFlags::empty();
                if f.readable {
                    flags |= DescriptorFlags::READ;
                }
                if f.writable {
                    flags |= DescriptorFlags::WRITE;
                }
                flags
            }
        })
    }

    fn hash(&self, m: &Meta) -> MetadataHashValue {
        MetadataHashValue {
            lower: m.ino,
            upper: m.mtime_ns ^ m.size.rotate_left(32),
        }
    }
}

impl types::Host for RunState {
    fn convert_error_code(&mut self, err: FsError) -> wasmtime::Result<types::ErrorCode> {
        Ok(err.downcast()?.into())
    }

    fn filesystem_error_code(
        &mut self,
        err: Resource<wasmtime::Error>,
    ) -> wasmtime::Result<Option<types::ErrorCode>> {
        let err = self.table.get(&err)?;
        Ok(err.downcast_ref::<StreamFsError>().map(|e| e.0.into()))
    }
}

impl types::HostDescriptor for RunState {
    fn read_via_stream(&mut self, fd: Fd, offset: Filesize) -> FsResult<Resource<DynInputStream>> {
        if let Some(h) = self.wasi_fs.device(&fd)? {
            return self.device_reader(h);
        }
        let file = self.wasi_fs.file(&fd)?;
        let reader: DynInputStream = Box::new(FileReader { file, pos: offset });
        Ok(self.table.push(reader)?)
    }

    fn write_via_stream(
        &mut self,
        fd: Fd,
        offset: Filesize,
    ) -> FsResult<Resource<DynOutputStream>> {
        if let Some(h) = self.wasi_fs.device(&fd)? {
            return self.device_writer(h);
        }
        let file = self.wasi_fs.file(&fd)?;
        if !lock(&file).writable {
            return Err(code(ErrorCode::BadDescriptor));
        }
        let writer: DynOutputStream = Box::new(FileWriter {
            file,
            pos: Some(offset),
        });
        Ok(self.table.push(writer)?)
    }

    fn append_via_stream(&mut self, fd: Fd) -> FsResult<Resource<DynOutputStream>> {
        if let Some(h) = self.wasi_fs.device(&fd)? {
            return self.device_writer(h);
        }
        let file = self.wasi_fs.file(&fd)?;
        if !lock(&file).writable {
            return Err(code(ErrorCode::BadDescriptor));
        }
        let writer: DynOutputStream = Box::new(FileWriter { file, pos: None });
        Ok(self.table.push(writer)?)
    }

    fn advise(&mut self, fd: Fd, _: Filesize, _: Filesize, _: Advice) -> FsResult<()> {
        self.wasi_fs.get(&fd)?;
        Ok(())
    }

    fn sync_data(&mut self, fd: Fd) -> FsResult<()> {
        self.wasi_fs.sync(&fd)
    }

    fn get_flags(&mut self, fd: Fd) -> FsResult<DescriptorFlags> {
        self.wasi_fs.flags(&fd)
    }

    fn get_type(&mut self, fd: Fd) -> FsResult<DescriptorType> {
        let d = self.wasi_fs.get(&fd)?;
        Ok(match d.node {
            Node::Dir => DescriptorType::Directory,
            Node::File(_) => descriptor_type(super::tree::Kind::File),
            Node::Device(_) => DescriptorType::CharacterDevice,
        })
    }

    fn set_size(&mut self, fd: Fd, size: Filesize) -> FsResult<()> {
        if self.wasi_fs.device(&fd)?.is_some() {
            // `> /dev/null` truncates it; nothing to do.
            return Ok(());
        }
        let f = self.wasi_fs.file(&fd)?;
        lock(&f).set_size(size)
    }

    fn set_times(&mut self, fd: Fd, atim: NewTimestamp, mtim: NewTimestamp) -> FsResult<()> {
        self.wasi_fs.sync(&fd)?;
        let path = self.wasi_fs.get(&fd)?.path.clone();
        self.wasi_fs.set_times(&fd, &path, true, atim, mtim)
    }

    fn read(&mut self, fd: Fd, len: Filesize, offset: Filesize) -> FsResult<(Vec<u8>, bool)> {
        if let Some(h) = self.wasi_fs.device(&fd)? {
            return self.device_read(h, len);
        }
        let f = self.wasi_fs.file(&fd)?;
        let data = lock(&f).read_at(offset, len)?;
        let end = data.is_empty() && len > 0;
        Ok((data, end))
    }

    fn write(&mut self, fd: Fd, buf: Vec<u8>, offset: Filesize) -> FsResult<Filesize> {
        if let Some(h) = self.wasi_fs.device(&fd)? {
            return self.device_write(h, buf.len());
        }
        let f = self.wasi_fs.file(&fd)?;
        lock(&f).write_at(offset, &buf)
    }

    fn read_directory(&mut self, fd: Fd) -> FsResult<Resource<DirectoryEntryStream>> {
        self.wasi_fs.read_directory(&fd)
    }

    fn sync(&mut self, fd: Fd) -> FsResult<()> {
        self.wasi_fs.sync(&fd)
    }

    fn create_directory_at(&mut self, fd: Fd, path: String) -> FsResult<()> {
        self.wasi_fs.create_directory_at(&fd, &path)
    }

    fn stat(&mut self, fd: Fd) -> FsResult<DescriptorStat> {
        if let Some(h) = self.wasi_fs.device(&fd)? {
            return Ok(h.device.stat());
        }
        Ok(descriptor_stat(
            &self.wasi_fs.meta(&fd, Some(Asker::Stat))?.0,
        ))
    }

    fn stat_at(&mut self, fd: Fd, flags: PathFlags, path: String) -> FsResult<DescriptorStat> {
        let follow = flags.contains(PathFlags::SYMLINK_FOLLOW);
        self.wasi_fs.stat_at(&fd, follow, &path)
    }

    fn set_times_at(
        &mut self,
        fd: Fd,
        flags: PathFlags,
        path: String,
        atim: NewTimestamp,
        mtim: NewTimestamp,
    ) -> FsResult<()> {
        let follow = flags.contains(PathFlags::SYMLINK_FOLLOW);
        self.wasi_fs.set_times_at(&fd, follow, &path, atim, mtim)
    }

    fn link_at(
        &mut self,
        fd: Fd,
        flags: PathFlags,
        old: String,
        to_fd: Fd,
        new: String,
    ) -> FsResult<()> {
        let follow = flags.contains(PathFlags::SYMLINK_FOLLOW);
        self.wasi_fs.link_at(&fd, follow, &old, &to_fd, &new)
    }

    fn open_at(
        &mut self,
        fd: Fd,
        path_flags: PathFlags,
        path: String,
        oflags: OpenFlags,
        flags: DescriptorFlags,
    ) -> FsResult<Fd> {
        let opened = self
            .wasi_fs
            .open_at(&fd, path_flags, &path, oflags, flags)?;
        // `/dev/stdout` and `/dev/fd/N` are what the descriptor points at
        // now (a guest's `dup`), not when they are first written.
        if let Some(super::Desc {
            node: super::Node::Device(h),
            ..
        }) = self.wasi_fs.descriptors.get_mut(&opened.rep())
            && let Some(n) = h.device.std_fd()
        {
            h.route = Some(self.stdio.route(n));
        }
        Ok(opened)
    }

    fn readlink_at(&mut self, fd: Fd, path: String) -> FsResult<String> {
        self.wasi_fs.readlink_at(&fd, &path)
    }

    fn remove_directory_at(&mut self, fd: Fd, path: String) -> FsResult<()> {
        self.wasi_fs.remove_directory_at(&fd, &path)
    }

    fn rename_at(&mut self, fd: Fd, old: String, new_fd: Fd, new: String) -> FsResult<()> {
        self.wasi_fs.rename_at(&fd, &old, &new_fd, &new)
    }

    fn symlink_at(&mut self, fd: Fd, old: String, new: String) -> FsResult<()> {
        self.wasi_fs.symlink_at(&fd, &old, &new)
    }

    fn unlink_file_at(&mut self, fd: Fd, path: String) -> FsResult<()> {
        self.wasi_fs.unlink_file_at(&fd, &path)
    }

    fn is_same_object(&mut self, a: Fd, b: Fd) -> wasmtime::Result<bool> {
        let (Ok((ma, da)), Ok((mb, db))) =
            (self.wasi_fs.meta(&a, None), self.wasi_fs.meta(&b, None))
        else {
            return Ok(false);
        };
        Ok(ma.ino == mb.ino && da.tree.same(&db.tree))
    }

    fn metadata_hash(&mut self, fd: Fd) -> FsResult<MetadataHashValue> {
        let (m, _) = self.wasi_fs.meta(&fd, Some(Asker::Hash))?;
        Ok(self.wasi_fs.hash(&m))
    }

    fn metadata_hash_at(
        &mut self,
        fd: Fd,
        flags: PathFlags,
        path: String,
    ) -> FsResult<MetadataHashValue> {
        let d = self.wasi_fs.dir(&fd)?;
        let full = d.resolve(&path)?;
        if let Some(device) = super::devices::Device::at(&d.tree, &full) {
            return Ok(self.wasi_fs.hash(&device.meta()));
        }
        self.wasi_fs.settle(&d.tree, &full)?;
        let follow = flags.contains(PathFlags::SYMLINK_FOLLOW);
        let m = d.tree.stat_for(&full, follow, Asker::Hash)?;
        Ok(self.wasi_fs.hash(&m))
    }

    fn drop(&mut self, fd: Fd) -> wasmtime::Result<()> {
        if let Some(d) = self.wasi_fs.descriptors.remove(&fd.rep())
            && let Node::File(f) = d.node
        {
            // Committed here; a stream still open commits when it goes.
            let r = lock(&f).commit();
            if let Err(e) = r {
                match e.downcast() {
                    Ok(c) => tracing::warn!(path = %d.path, "wasi: commit at close: {c:?}"),
                    Err(trap) => return Err(trap),
                }
            }
        }
        Ok(())
    }
}

impl types::HostDirectoryEntryStream for RunState {
    fn read_directory_entry(
        &mut self,
        s: Resource<DirectoryEntryStream>,
    ) -> FsResult<Option<DirectoryEntry>> {
        self.wasi_fs.read_directory_entry(&s)
    }

    fn drop(&mut self, s: Resource<DirectoryEntryStream>) -> wasmtime::Result<()> {
        self.wasi_fs.drop_stream(&s);
        Ok(())
    }
}
