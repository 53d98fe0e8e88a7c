//! The paths the guest answers itself, because a Linux machine has them and a bare
//! workspace may not:
//!
//! - `/dev/null`, `/dev/zero`, `/dev/random`, `/dev/urandom`. Redirections to
//!   `/dev/null` and `/dev/std*` never reach the filesystem (bashkit handles them);
//!   these cover commands that open the paths themselves (`cat /dev/null`,
//!   `head -c 16 /dev/urandom`, `cp /dev/null f`). The guest's streaming commands
//!   (`cat`, `head`) read the endless devices piece by piece, for as long as they
//!   want (`Device::piece`). A whole read (every other command, and an input
//!   redirection `< /dev/zero`, which bashkit reads whole) gets a bounded prefix:
//!   an endless file read whole would never return. When the guest's `cat` or `head`
//!   runs out of such a redirected device before it has what it was asked for, it
//!   says so and fails (`WorkspaceFs::stdin_is_device_prefix`).
//! - `/dev` and `/tmp` as directories when the workspace has none. `/tmp` is created
//!   for real by the first write below it (see `workspace_fs::with_tmp`).
//!
//! - `/usr/bin/NAME`, `/bin/NAME` and their directories for the shell's commands
//!   (see `bin_stubs`), when the workspace has none.
//!
//! Every lookup the guest makes (its `FileSystem` and its own commands) goes through
//! `stat` and `readdir` here, so they all agree.

use crate::bin_stubs;
use crate::computer::workspace::fs::{self, FsError, NodeKind, NodeStat};
use crate::fs_errors;

/// Bytes a whole read of `/dev/zero` returns.
const ZERO_WHOLE_BYTES: usize = 1 << 20;
/// Bytes a whole read of `/dev/random` or `/dev/urandom` returns. Small: bashkit
/// turns a redirected input into text as well, which costs about 35 µs per byte of
/// random data (8 KiB: 0.3 s).
const RANDOM_WHOLE_BYTES: usize = 8 << 10;
/// Bytes one piece of a streamed read returns.
const PIECE_BYTES: usize = 64 << 10;

pub const TMP: &str = "/tmp";
pub const TMP_MODE: u32 = 0o1777;
const DEV: &str = "/dev";

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

    /// Whether reading never reaches an end.
    pub fn is_endless(self) -> bool {
        self != Device::Null
    }

    /// The device read whole: bounded for the endless ones (see the module notes).
    pub fn read(self) -> Vec<u8> {
        match self {
            Device::Null => Vec::new(),
            Device::Zero => self.bytes(ZERO_WHOLE_BYTES),
            Device::Random | Device::Urandom => self.bytes(RANDOM_WHOLE_BYTES),
        }
    }

    /// The next piece of a streamed read; empty at the end (`/dev/null` only).
    pub fn piece(self) -> Vec<u8> {
        self.bytes(PIECE_BYTES)
    }

    fn bytes(self, len: usize) -> Vec<u8> {
        match self {
            Device::Null => Vec::new(),
            Device::Zero => vec![0; len],
            Device::Random | Device::Urandom => {
                crate::wasi::random::random::get_random_bytes(len as u64)
            }
        }
    }

    fn stat(self) -> NodeStat {
        NodeStat {
            name: self.name().to_string(),
            kind: NodeKind::File,
            mode: 0o666,
            size: 0,
            mtime_ns: 0,
            ino: 0,
        }
    }
}

/// A made-up directory, dated now (it is as new as the run).
fn dir_stat(name: &str, mode: u32) -> NodeStat {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| u64::try_from(d.as_nanos()).unwrap_or(u64::MAX))
        .unwrap_or(0);
    NodeStat {
        name: name.to_string(),
        kind: NodeKind::Directory,
        mode,
        size: 0,
        mtime_ns: now,
        ino: 0,
    }
}

/// `stat` (`follow`) or `lstat` of an absolute, normalized path.
pub fn stat(path: &str, follow: bool) -> Result<NodeStat, FsError> {
    if let Some(device) = Device::at(path) {
        return Ok(device.stat());
    }
    let found = if follow {
        fs::stat(path)
    } else {
        fs::lstat(path)
    };
    match found {
        Err(e) if fs_errors::is_not_found(&e) && path == TMP => Ok(dir_stat("tmp", TMP_MODE)),
        Err(e) if fs_errors::is_not_found(&e) && path == DEV => Ok(dir_stat("dev", 0o755)),
        Err(e) if fs_errors::is_not_found(&e) => made_up_bin(path).ok_or(e),
        other => other,
    }
}

/// A command stub or one of its directories, for a path the workspace lacks.
fn made_up_bin(path: &str) -> Option<NodeStat> {
    if bin_stubs::is_dir(path) {
        let name = path.rsplit('/').next().unwrap_or(path);
        return Some(dir_stat(name, 0o755));
    }
    bin_stubs::command_at(path).map(bin_stubs::stat)
}

/// The entries of a directory, sorted by name.
pub fn readdir(path: &str) -> Result<Vec<NodeStat>, FsError> {
    let mut entries = match fs::readdir(path, 0, None) {
        Err(e) if fs_errors::is_not_found(&e) && (path == TMP || path == DEV) => Vec::new(),
        Err(e) if fs_errors::is_not_found(&e) && bin_stubs::is_dir(path) => {
            bin_stubs::listing(path)
        }
        other => other?,
    };
    if path == DEV {
        entries.retain(|e| Device::at(&format!("{DEV}/{}", e.name)).is_none());
        entries.extend(ALL.iter().map(|d| d.stat()));
        entries.sort_by(|a, b| a.name.cmp(&b.name));
    }
    Ok(entries)
}

/// Whether the path is one the guest makes up.
pub fn is_virtual(path: &str) -> bool {
    Device::at(path).is_some() || path == TMP || path == DEV
}
