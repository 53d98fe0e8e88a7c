//! The devices of `/dev` that every WASI program finds, whatever the
//! workspace holds: `null`, `zero`, `random`, `urandom`, and `stdin`,
//! `stdout`, `stderr` (also `fd/0`, `fd/1`, `fd/2`), which reach the
//! command's own standard streams.
//!
//! They exist only under the workspace's root preopen (`/`), not under
//! `/tmp` or a mount. They shadow whatever the workspace has at those seven
//! paths; any other entry of a workspace `/dev` directory stays visible,
//! and listings of `/dev` show both. When the workspace has no `/dev`, it
//! is a directory made up for the listing and `stat`.
//!
//! Randomness: `random` and `urandom` draw from the run's own random
//! source (`wasi:random`), which a durable run seeds from its journal, so
//! a replay reads the same bytes. A stream draws its own seed from that
//! source when it is opened.

use bytes::Bytes;
use rand::{Rng, SeedableRng};
use wasmtime::component::Resource;
use wasmtime_wasi::p2::bindings::sync::filesystem::types::{
    DescriptorFlags, DescriptorStat, DescriptorType, Filesize, OpenFlags,
};
use wasmtime_wasi::p2::bindings::sync::random::random as wasi_random;
use wasmtime_wasi::p2::{
    DynInputStream, DynOutputStream, FsError, FsResult, InputStream, OutputStream, Pollable,
    StreamError, StreamResult,
};

use super::errors::code;
use super::file::MAX_READ;
use super::tree::{Kind, Meta, Res, Tree};
use crate::run::state::RunState;
use wasmtime_wasi::p2::bindings::filesystem::types::ErrorCode;

/// The directory the devices are in.
pub(crate) const DEV: &str = "/dev";

use crate::host::stdio::{Route, StdioRoutes};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Device {
    Null,
    Zero,
    Random,
    Urandom,
    Stdin,
    Stdout,
    Stderr,
}

/// What `/dev` lists, sorted by name.
const LISTED: [(&str, Device); 7] = [
    ("null", Device::Null),
    ("random", Device::Random),
    ("stderr", Device::Stderr),
    ("stdin", Device::Stdin),
    ("stdout", Device::Stdout),
    ("urandom", Device::Urandom),
    ("zero", Device::Zero),
];

/// A device descriptor: which device, and what it was opened for.
#[derive(Clone)]
pub(crate) struct DeviceHandle {
    pub device: Device,
    pub readable: bool,
    pub writable: bool,
    /// For the standard streams: where that descriptor pointed when this
    /// was opened (`host/stdio.rs`), set by `open-at`.
    pub route: Option<Route>,
}

/// Whether the devices live in this tree (the workspace's root preopen).
fn in_tree(tree: &Tree) -> bool {
    matches!(tree, Tree::Store(s) if s.is_workspace())
}

impl DeviceHandle {
    /// The route of a standard stream's device: the one taken at its open.
    fn std_route(&self, stdio: &StdioRoutes) -> Route {
        self.route
            .clone()
            .unwrap_or_else(|| stdio.route(self.device.std_fd().unwrap_or(0)))
    }
}

impl Device {
    /// The standard descriptor this device is, if it is one.
    pub(crate) fn std_fd(self) -> Option<usize> {
        match self {
            Device::Stdin => Some(0),
            Device::Stdout => Some(1),
            Device::Stderr => Some(2),
            _ => None,
        }
    }

    /// The device at `path` (absolute, normalized) of `tree`, if any.
    pub(crate) fn at(tree: &Tree, path: &str) -> Option<Device> {
        if !in_tree(tree) {
            return None;
        }
        let name = path.strip_prefix("/dev/")?;
        match name {
            "fd/0" => Some(Device::Stdin),
            "fd/1" => Some(Device::Stdout),
            "fd/2" => Some(Device::Stderr),
            _ => LISTED.iter().find(|(n, _)| *n == name).map(|(_, d)| *d),
        }
    }

    /// Whether it may be read, and written.
    fn rights(self) -> (bool, bool) {
        match self {
            Device::Stdin => (true, false),
            Device::Stdout | Device::Stderr => (false, true),
            _ => (true, true),
        }
    }

    /// A stable inode number of its own.
    fn ino(self) -> u64 {
        // Far from the store's inode numbers.
        (u64::MAX - 16) + self as u64
    }

    pub(crate) fn meta(self) -> Meta {
        Meta {
            kind: Kind::Special,
            size: 0,
            mtime_ns: 0,
            ino: self.ino(),
            nlink: 1,
            atime_ns: None,
        }
    }

    pub(crate) fn stat(self) -> DescriptorStat {
        DescriptorStat {
            type_: DescriptorType::CharacterDevice,
            link_count: 1,
            size: 0,
            data_access_timestamp: None,
            data_modification_timestamp: None,
            status_change_timestamp: None,
        }
    }
}

/// `open-at` of a device: the handle, or the error the flags call for.
pub(crate) fn open(device: Device, oflags: OpenFlags, flags: DescriptorFlags) -> Res<DeviceHandle> {
    if oflags.contains(OpenFlags::CREATE) && oflags.contains(OpenFlags::EXCLUSIVE) {
        return Err(code(ErrorCode::Exist));
    }
    if oflags.contains(OpenFlags::DIRECTORY) {
        return Err(code(ErrorCode::NotDirectory));
    }
    let (can_read, can_write) = device.rights();
    let write = flags.contains(DescriptorFlags::WRITE);
    let read = flags.contains(DescriptorFlags::READ) || !write;
    if (read && !can_read) || (write && !can_write) {
        return Err(code(ErrorCode::Access));
    }
    Ok(DeviceHandle {
        device,
        readable: read,
        writable: write,
        route: None,
    })
}

/// Whether `path` of `tree` is the devices' directory.
pub(crate) fn is_dev_dir(tree: &Tree, path: &str) -> bool {
    path == DEV && in_tree(tree)
}

/// The made-up `/dev` of a workspace that has none.
pub(crate) fn dev_dir_meta() -> Meta {
    Meta {
        kind: Kind::Dir,
        size: 0,
        mtime_ns: 0,
        ino: u64::MAX - 17,
        nlink: 1,
        atime_ns: None,
    }
}

/// `/dev`'s listing: the workspace's own entries (if it has the directory)
/// but the devices' names, then the devices.
pub(crate) fn merge_listing(own: Vec<(String, Kind)>) -> Vec<(String, Kind)> {
    let mut all: Vec<(String, Kind)> = own
        .into_iter()
        .filter(|(name, _)| !LISTED.iter().any(|(n, _)| n == name))
        .collect();
    all.extend(LISTED.iter().map(|(n, _)| ((*n).to_owned(), Kind::Special)));
    all.sort();
    all
}

impl RunState {
    /// `read-via-stream` of a device.
    pub(crate) fn device_reader(&mut self, h: DeviceHandle) -> FsResult<Resource<DynInputStream>> {
        if !h.readable {
            return Err(code(ErrorCode::BadDescriptor));
        }
        let reader: DynInputStream = match h.device {
            // Where descriptor 0 pointed at the open (`host/stdio.rs`).
            Device::Stdin => self.stdio.fixed_in(h.std_route(&self.stdio)),
            Device::Null => Box::new(Endless::Empty),
            Device::Zero => Box::new(Endless::Zeros),
            Device::Random | Device::Urandom => {
                let seed = self.random_bytes(32)?;
                let seed: [u8; 32] = seed.try_into().map_err(|_| code(ErrorCode::Io))?;
                Box::new(Endless::Random(Box::new(rand::rngs::StdRng::from_seed(
                    seed,
                ))))
            }
            Device::Stdout | Device::Stderr => return Err(code(ErrorCode::BadDescriptor)),
        };
        Ok(self.table.push(reader)?)
    }

    /// `write-via-stream` and `append-via-stream` of a device.
    pub(crate) fn device_writer(&mut self, h: DeviceHandle) -> FsResult<Resource<DynOutputStream>> {
        if !h.writable {
            return Err(code(ErrorCode::BadDescriptor));
        }
        match h.device {
            Device::Stdout | Device::Stderr => {
                let out = self.stdio.fixed_out(h.std_route(&self.stdio));
                Ok(self.table.push(out)?)
            }
            _ => {
                let sink: DynOutputStream = Box::new(Sink);
                Ok(self.table.push(sink)?)
            }
        }
    }

    /// `read` (at an offset) of a device; the standard streams have no
    /// offsets (`spipe`, as `pread` on a pipe).
    pub(crate) fn device_read(
        &mut self,
        h: DeviceHandle,
        len: Filesize,
    ) -> FsResult<(Vec<u8>, bool)> {
        if !h.readable {
            return Err(code(ErrorCode::BadDescriptor));
        }
        let len = len.min(MAX_READ);
        match h.device {
            Device::Null => Ok((Vec::new(), true)),
            Device::Zero => Ok((vec![0; len as usize], false)),
            Device::Random | Device::Urandom => Ok((self.random_bytes(len)?, false)),
            _ => Err(code(ErrorCode::InvalidSeek)),
        }
    }

    /// `write` (at an offset) of a device: the bytes vanish.
    pub(crate) fn device_write(&mut self, h: DeviceHandle, len: usize) -> FsResult<Filesize> {
        if !h.writable {
            return Err(code(ErrorCode::BadDescriptor));
        }
        match h.device {
            Device::Stdout | Device::Stderr | Device::Stdin => Err(code(ErrorCode::InvalidSeek)),
            _ => Ok(len as Filesize),
        }
    }

    /// Bytes from the run's own random source (replayed in a durable run).
    fn random_bytes(&mut self, len: u64) -> FsResult<Vec<u8>> {
        wasi_random::Host::get_random_bytes(self.wasi.random(), len).map_err(FsError::trap)
    }
}

/// The input of `null` (at its end at once), `zero` and the random devices.
enum Endless {
    Empty,
    Zeros,
    Random(Box<rand::rngs::StdRng>),
}

impl InputStream for Endless {
    fn read(&mut self, size: usize) -> StreamResult<Bytes> {
        let size = size.min(MAX_READ as usize);
        match self {
            Endless::Empty => Err(StreamError::Closed),
            Endless::Zeros => Ok(Bytes::from(vec![0; size])),
            Endless::Random(rng) => {
                let mut buf = vec![0; size];
                rng.fill_bytes(&mut buf);
                Ok(Bytes::from(buf))
            }
        }
    }
}

#[async_trait::async_trait]
impl Pollable for Endless {
    async fn ready(&mut self) {}
}

/// Where writes to `null`, `zero` and the random devices go.
struct Sink;

impl OutputStream for Sink {
    fn write(&mut self, _bytes: Bytes) -> StreamResult<()> {
        Ok(())
    }

    fn flush(&mut self) -> StreamResult<()> {
        Ok(())
    }

    fn check_write(&mut self) -> StreamResult<usize> {
        Ok(MAX_READ as usize)
    }
}

#[async_trait::async_trait]
impl Pollable for Sink {
    async fn ready(&mut self) {}
}
