//! Calls on paths under a directory descriptor: stat-at, create/remove
//! directory, unlink, rename, symlink, readlink, set-times-at, and
//! `stat` as the guest sees it.

use computer_store::{MkdirOptions, RmOptions};
use wasmtime::component::Resource;
use wasmtime_wasi::filesystem::Descriptor as WasiDescriptor;
use wasmtime_wasi::p2::bindings::sync::clocks::wall_clock::Datetime;
use wasmtime_wasi::p2::bindings::sync::filesystem::types::{
    DescriptorStat, DescriptorType, NewTimestamp,
};

use super::WasiFs;
use super::errors::code;
use super::tree::{Asker, Kind, Meta, Res};
use wasmtime_wasi::p2::bindings::filesystem::types::ErrorCode;

pub(crate) fn descriptor_type(k: Kind) -> DescriptorType {
    match k {
        Kind::File => DescriptorType::RegularFile,
        Kind::Dir => DescriptorType::Directory,
        Kind::Symlink => DescriptorType::SymbolicLink,
        Kind::Special => DescriptorType::Unknown,
    }
}

fn datetime(ns: u64) -> Datetime {
    Datetime {
        seconds: ns / 1_000_000_000,
        nanoseconds: (ns % 1_000_000_000) as u32,
    }
}

pub(crate) fn descriptor_stat(m: &Meta) -> DescriptorStat {
    let t = Some(datetime(m.mtime_ns));
    DescriptorStat {
        type_: descriptor_type(m.kind),
        link_count: m.nlink,
        size: m.size,
        data_access_timestamp: Some(datetime(m.atime_ns.unwrap_or(m.mtime_ns))),
        data_modification_timestamp: t,
        status_change_timestamp: t,
    }
}

/// The mtime a `new-timestamp` asks for, in ns; `None` keeps it.
pub(crate) fn mtime_of(t: NewTimestamp) -> Option<u64> {
    match t {
        NewTimestamp::NoChange => None,
        NewTimestamp::Now => Some(computer_store::now_ns().max(0) as u64),
        NewTimestamp::Timestamp(d) => {
            Some(d.seconds.saturating_mul(1_000_000_000) + u64::from(d.nanoseconds))
        }
    }
}

/// A new timestamp as the journal records it: (0 no change | 1 now | 2 at, ns).
fn timestamp_arg(t: NewTimestamp) -> (u8, u64) {
    match t {
        NewTimestamp::NoChange => (0, 0),
        NewTimestamp::Now => (1, 0),
        t @ NewTimestamp::Timestamp(_) => (2, mtime_of(t).unwrap_or(0)),
    }
}

fn is_missing(e: &wasmtime_wasi::p2::FsError) -> bool {
    matches!(e.downcast_ref(), Some(ErrorCode::NoEntry))
}

type Fd<'a> = &'a Resource<WasiDescriptor>;

impl WasiFs {
    pub(crate) fn stat_at(&self, fd: Fd<'_>, follow: bool, path: &str) -> Res<DescriptorStat> {
        let d = self.dir(fd)?;
        let full = d.resolve(path)?;
        if let Some(device) = super::devices::Device::at(&d.tree, &full) {
            return Ok(device.stat());
        }
        self.settle(&d.tree, &full)?;
        match d.tree.stat_for(&full, follow, Asker::Stat) {
            Err(e) if super::devices::is_dev_dir(&d.tree, &full) && is_missing(&e) => {
                Ok(descriptor_stat(&super::devices::dev_dir_meta()))
            }
            found => Ok(descriptor_stat(&found?)),
        }
    }

    pub(crate) fn create_directory_at(&mut self, fd: Fd<'_>, path: &str) -> Res<()> {
        let d = self.dir(fd)?;
        let full = d.resolve(path)?;
        let opts = MkdirOptions::default();
        let store = d.tree.store()?;
        store.mutate("wasi.mkdir", &full, &[], |ws| ws.mkdir(&full, &opts))?;
        let tree = d.tree.clone();
        self.note_lock(&tree, &full);
        Ok(())
    }

    pub(crate) fn remove_directory_at(&self, fd: Fd<'_>, path: &str) -> Res<()> {
        let d = self.dir(fd)?;
        let full = d.resolve(path)?;
        let store = d.tree.store()?;
        if d.tree.stat(&full, false)?.kind != Kind::Dir {
            return Err(code(ErrorCode::NotDirectory));
        }
        if full == "/" {
            return Err(code(ErrorCode::Busy));
        }
        let opts = RmOptions::default();
        store.mutate("wasi.rmdir", &full, &[], |ws| ws.rm(&full, opts))
    }

    pub(crate) fn unlink_file_at(&mut self, fd: Fd<'_>, path: &str) -> Res<()> {
        let d = self.dir(fd)?;
        let full = d.resolve(path)?;
        let tree = d.tree.clone();
        tree.store()?;
        if tree.stat(&full, false)?.kind == Kind::Dir {
            return Err(code(ErrorCode::IsDirectory));
        }
        if path.ends_with('/') {
            // "file/": a file named as a directory (unlink(2) says ENOTDIR).
            return Err(code(ErrorCode::NotDirectory));
        }
        if self.orphan_open(&tree, &full)? {
            // Moved aside for its descriptors: the name is gone already.
            return Ok(());
        }
        let opts = RmOptions::default();
        let store = tree.store()?;
        store.mutate("wasi.unlink", &full, &[], |ws| ws.rm(&full, opts))
    }

    /// The tree and the two paths of a rename or link: both in one store
    /// (else `cross-device`; a read-only tree is `read-only`).
    fn two_paths(
        &self,
        fd: Fd<'_>,
        from: &str,
        to_fd: Fd<'_>,
        to: &str,
    ) -> Res<(super::tree::Tree, String, String)> {
        let a = self.dir(fd)?;
        let b = self.dir(to_fd)?;
        let (Some(sa), Some(sb)) = (a.tree.store().ok(), b.tree.store().ok()) else {
            return Err(code(ErrorCode::ReadOnly));
        };
        if !std::ptr::eq(sa, sb) {
            return Err(code(ErrorCode::CrossDevice));
        }
        Ok((a.tree.clone(), a.resolve(from)?, b.resolve(to)?))
    }

    pub(crate) fn rename_at(&mut self, fd: Fd<'_>, from: &str, to_fd: Fd<'_>, to: &str) -> Res<()> {
        let (tree, src, dst) = self.two_paths(fd, from, to_fd, to)?;
        // What is written under `src` moves with it; a file open at `dst`
        // is replaced, and lives on for its descriptors.
        self.settle(&tree, &src)?;
        if src != dst && tree.stat(&src, false).is_ok() {
            self.orphan_open(&tree, &dst)?;
        }
        let store = tree.store()?;
        let args = (&src, &dst);
        store.mutate("wasi.rename", &args, &[], |ws| ws.rename(&src, &dst))?;
        self.moved(&tree, &src, &dst);
        Ok(())
    }

    pub(crate) fn symlink_at(&self, fd: Fd<'_>, target: &str, path: &str) -> Res<()> {
        // As wasmtime (cap-std): a link may not point out of its tree by
        // an absolute target.
        if target.starts_with('/') {
            return Err(code(ErrorCode::NotPermitted));
        }
        let d = self.dir(fd)?;
        let full = d.resolve(path)?;
        if path.ends_with('/') {
            // symlink(2) with "name/": EEXIST if something is there, else
            // ENOENT (a link is not a directory).
            return Err(code(match d.tree.stat(&full, true) {
                Ok(m) if m.kind == Kind::Dir => ErrorCode::Exist,
                Ok(_) => ErrorCode::NotDirectory,
                Err(_) => ErrorCode::NoEntry,
            }));
        }
        let store = d.tree.store()?;
        let args = (target, &full);
        store.mutate("wasi.symlink", &args, &[], |ws| ws.symlink(target, &full))
    }

    /// A hard link `new` (under `to_fd`) to what `old` (under `fd`) names,
    /// as wasmtime: following a symlink is refused (`EINVAL`), a directory
    /// cannot be linked (`EPERM`), trees of different stores are `EXDEV`.
    pub(crate) fn link_at(
        &mut self,
        fd: Fd<'_>,
        follow: bool,
        old: &str,
        to_fd: Fd<'_>,
        new: &str,
    ) -> Res<()> {
        if follow {
            return Err(code(ErrorCode::Invalid));
        }
        let (tree, src, dst) = self.two_paths(fd, old, to_fd, new)?;
        // Paths are joined without their trailing slash: link(2)'s
        // answers for "name/" are decided here.
        if old.ends_with('/') {
            return Err(code(match tree.stat(&src, false)?.kind {
                Kind::Dir => ErrorCode::NotPermitted,
                _ => ErrorCode::NotDirectory,
            }));
        }
        if new.ends_with('/') {
            return Err(code(match tree.stat(&dst, false) {
                Ok(_) => ErrorCode::Exist,
                Err(_) => ErrorCode::NoEntry,
            }));
        }
        let store = tree.store()?;
        store.mutate("wasi.link", &(&src, &dst), &[], |ws| ws.link(&src, &dst))
    }

    pub(crate) fn readlink_at(&self, fd: Fd<'_>, path: &str) -> Res<String> {
        let d = self.dir(fd)?;
        let full = d.resolve(path)?;
        d.tree.readlink(&full)
    }

    /// Sets the access and modification times of `full` in `fd`'s tree;
    /// `follow: false` sets a symlink's own (`lutimes`).
    pub(crate) fn set_times(
        &self,
        fd: Fd<'_>,
        full: &str,
        follow: bool,
        atime: NewTimestamp,
        mtime: NewTimestamp,
    ) -> Res<()> {
        let d = self.get(fd)?;
        let store = d.tree.store()?;
        if matches!(
            (atime, mtime),
            (NewTimestamp::NoChange, NewTimestamp::NoChange)
        ) {
            return Ok(());
        }
        // The journal records "now" as asked, not the clock's reading: a
        // replay asks for "now" again at another time (git's freshen_file
        // is `utime(path, NULL)`), and must still match.
        let args = (full, timestamp_arg(atime), timestamp_arg(mtime), follow);
        store.mutate("wasi.set-times", &args, &[], |ws| {
            ws.set_times(full, mtime_of(atime), mtime_of(mtime), follow)
        })
    }

    pub(crate) fn set_times_at(
        &self,
        fd: Fd<'_>,
        follow: bool,
        path: &str,
        atime: NewTimestamp,
        mtime: NewTimestamp,
    ) -> Res<()> {
        let full = self.dir(fd)?.resolve(path)?;
        self.set_times(fd, &full, follow, atime, mtime)
    }
}
