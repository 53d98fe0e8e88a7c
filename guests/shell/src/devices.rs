//! The few device files scripts expect (`/dev/null`, `/dev/zero`, `/dev/random`,
//! `/dev/urandom`), answered by the guest since the workspace has no devices.
//!
//! Redirections to `/dev/null` and `/dev/std*` never reach the filesystem (bashkit
//! handles them); these cover commands that open the paths themselves
//! (`cat /dev/null`, `head -c 16 /dev/urandom`, `cp /dev/null f`). Reads of the endless
//! devices are bounded, as in bashkit's own filesystem: a command reads whole files,
//! so an endless one would never return.

use std::time::UNIX_EPOCH;

use bashkit::{DirEntry, FileType, Metadata};

/// Bytes one read of `/dev/zero` returns.
const ZERO_READ_BYTES: usize = 1 << 20;
/// Bytes one read of `/dev/random` or `/dev/urandom` returns.
const RANDOM_READ_BYTES: usize = 8192;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Device {
    Null,
    Zero,
    Random,
    Urandom,
}

const ALL: [Device; 4] = [Device::Null, Device::Random, Device::Urandom, Device::Zero];

impl Device {
    /// The device at an absolute, normalized path.
    pub fn at(path: &str) -> Option<Device> {
        match path {
            "/dev/null" => Some(Device::Null),
            "/dev/zero" => Some(Device::Zero),
            "/dev/random" => Some(Device::Random),
            "/dev/urandom" => Some(Device::Urandom),
            _ => None,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Device::Null => "null",
            Device::Zero => "zero",
            Device::Random => "random",
            Device::Urandom => "urandom",
        }
    }

    pub fn read(self) -> Vec<u8> {
        match self {
            Device::Null => Vec::new(),
            Device::Zero => vec![0; ZERO_READ_BYTES],
            Device::Random | Device::Urandom => {
                crate::wasi::random::random::get_random_bytes(RANDOM_READ_BYTES as u64)
            }
        }
    }

    pub fn metadata(self) -> Metadata {
        Metadata {
            file_type: FileType::File,
            size: 0,
            mode: 0o666,
            modified: UNIX_EPOCH,
            created: UNIX_EPOCH,
        }
    }
}

/// Whether `path` is `/dev` itself, whose listing shows the devices.
pub fn is_dev_dir(path: &str) -> bool {
    path == "/dev"
}

/// `/dev` as a directory, when the workspace has none.
pub fn dev_dir_metadata() -> Metadata {
    Metadata {
        file_type: FileType::Directory,
        size: 0,
        mode: 0o755,
        modified: UNIX_EPOCH,
        created: UNIX_EPOCH,
    }
}

/// The devices as directory entries, to merge into a listing of `/dev`.
pub fn entries() -> impl Iterator<Item = DirEntry> {
    ALL.iter().map(|d| DirEntry {
        name: d.name().to_string(),
        metadata: d.metadata(),
    })
}
