//! Read-only mounts: a host directory, or files handed over as bytes.
//! Paths are normalized before they get here, and a host path is checked
//! to stay under the mount's root after its symlinks are resolved.

use std::collections::BTreeMap;
use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::sync::{Arc, LazyLock};

use bytes::Bytes;

use wasmtime_wasi::p2::bindings::filesystem::types::ErrorCode;

use super::errors::{code, from_io};
use super::tree::{Kind, Meta, Res};

/// A read-only tree a run sees at `guest_path` (a preopen of its own). It
/// shadows nothing in the workspace: paths under it reach the mount only.
#[derive(Clone, Debug)]
pub struct Mount {
    /// Where the guest sees it, e.g. `/usr/lib/python3.14`.
    pub guest_path: String,
    /// What is there.
    pub source: MountSource,
}

/// Where a [`Mount`]'s files come from.
#[derive(Clone, Debug)]
pub enum MountSource {
    /// A directory of the host, read-only.
    HostDir(PathBuf),
    /// Files as bytes (e.g. embedded in the binary); directories are
    /// implied by the paths.
    Files(Arc<FileTree>),
}

/// `O_NONBLOCK` on Linux (the host this runs on).
const O_NONBLOCK: i32 = 0o4000;

fn io(e: std::io::Error) -> wasmtime_wasi::p2::FsError {
    code(from_io(&e))
}

/// The host path of `path`, refusing anything that resolves outside `root`.
fn host_path(root: &Path, path: &str, follow: bool) -> Res<PathBuf> {
    let joined = root.join(path.trim_start_matches('/'));
    let root = root.canonicalize().map_err(io)?;
    let resolved = if follow {
        joined.canonicalize().map_err(io)?
    } else {
        match (joined.parent(), joined.file_name()) {
            (Some(parent), Some(name)) => parent.canonicalize().map_err(io)?.join(name),
            _ => joined.canonicalize().map_err(io)?,
        }
    };
    if !resolved.starts_with(&root) {
        return Err(code(ErrorCode::NotPermitted));
    }
    Ok(resolved)
}

/// Mounts expose regular files, directories and symlinks; anything else is
/// `Special`, which is never opened.
fn kind_of(ft: std::fs::FileType) -> Kind {
    match () {
        _ if ft.is_symlink() => Kind::Symlink,
        _ if ft.is_dir() => Kind::Dir,
        _ if ft.is_file() => Kind::File,
        _ => Kind::Special,
    }
}

fn meta_of(m: &std::fs::Metadata) -> Meta {
    use std::os::unix::fs::MetadataExt;
    let kind = kind_of(m.file_type());
    let mtime_ns = (m.mtime().max(0) as u64) * 1_000_000_000 + m.mtime_nsec().max(0) as u64;
    Meta {
        kind,
        size: if kind == Kind::Dir { 0 } else { m.len() },
        mtime_ns,
        ino: m.ino(),
        nlink: m.nlink(),
        atime_ns: Some((m.atime().max(0) as u64) * 1_000_000_000 + m.atime_nsec().max(0) as u64),
    }
}

pub(crate) fn host_stat(root: &Path, path: &str, follow: bool) -> Res<Meta> {
    let p = host_path(root, path, follow)?;
    let m = std::fs::symlink_metadata(&p).map_err(io)?;
    Ok(meta_of(&m))
}

pub(crate) fn host_read(root: &Path, path: &str, offset: u64, len: u64) -> Res<Vec<u8>> {
    use std::os::unix::fs::OpenOptionsExt;
    let p = host_path(root, path, true)?;
    // Non-blocking, then checked: a FIFO swapped in after `open-at` looked
    // must not hold the host until a writer appears.
    let mut f = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(O_NONBLOCK)
        .open(&p)
        .map_err(io)?;
    if !f.metadata().map_err(io)?.is_file() {
        tracing::warn!(path = %p.display(), "wasi: a mount's special file (FIFO, socket or device) is never read");
        return Err(code(ErrorCode::Unsupported));
    }
    f.seek(SeekFrom::Start(offset)).map_err(io)?;
    let mut out = Vec::new();
    f.take(len).read_to_end(&mut out).map_err(io)?;
    Ok(out)
}

pub(crate) fn host_readdir(
    root: &Path,
    path: &str,
    offset: u64,
    limit: u64,
) -> Res<Vec<(String, Kind)>> {
    let p = host_path(root, path, true)?;
    let mut names = Vec::new();
    for entry in std::fs::read_dir(p).map_err(io)? {
        let entry = entry.map_err(io)?;
        let Ok(name) = entry.file_name().into_string() else {
            continue;
        };
        names.push((name, kind_of(entry.file_type().map_err(io)?)));
    }
    names.sort();
    Ok(names
        .into_iter()
        .skip(offset as usize)
        .take(limit as usize)
        .collect())
}

pub(crate) fn host_readlink(root: &Path, path: &str) -> Res<String> {
    let p = host_path(root, path, false)?;
    let target = std::fs::read_link(p).map_err(io)?;
    target
        .into_os_string()
        .into_string()
        .map_err(|_| code(ErrorCode::IllegalByteSequence))
}

/// Files given as bytes, looked up by normalized path: what a
/// [`MountSource::Files`] mount serves. Built once (e.g. from bytes embedded
/// in the binary, without copying them) and shared by every run; a
/// [`lazy`](FileTree::lazy) one is built on its first use, so a process that
/// never runs the program it belongs to never walks its files.
#[derive(Debug)]
pub struct FileTree {
    files: LazyLock<Result<Files, String>, Unpack>,
}

type Files = BTreeMap<String, Bytes>;
type Unpack = Box<dyn FnOnce() -> Result<Files, String> + Send>;

impl Default for FileTree {
    fn default() -> Self {
        FileTree::new([])
    }
}

fn by_path(files: impl IntoIterator<Item = (String, Bytes)>) -> Files {
    files
        .into_iter()
        .map(|(k, v)| (format!("/{}", k.trim_start_matches('/')), v))
        .collect()
}

impl FileTree {
    /// The files at their paths relative to the mount (`lib/os.py`).
    pub fn new(files: impl IntoIterator<Item = (String, Bytes)>) -> Self {
        let files = by_path(files);
        FileTree {
            files: LazyLock::new(Box::new(move || Ok(files))),
        }
    }

    /// Files `unpack` gives on first use. If it fails, every access fails with
    /// an I/O error, and the reason is logged.
    pub fn lazy(
        unpack: impl FnOnce() -> Result<Vec<(String, Bytes)>, String> + Send + 'static,
    ) -> Self {
        FileTree {
            files: LazyLock::new(Box::new(move || unpack().map(by_path))),
        }
    }

    fn files(&self) -> Res<&Files> {
        match &*self.files {
            Ok(files) => Ok(files),
            Err(reason) => {
                tracing::error!("a mount's embedded files are damaged: {reason}");
                Err(code(ErrorCode::Io))
            }
        }
    }

    /// How many files it holds (none when they cannot be unpacked).
    pub fn len(&self) -> usize {
        self.files().map_or(0, BTreeMap::len)
    }

    /// Whether it holds no file.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn is_dir(files: &Files, path: &str) -> bool {
        let prefix = if path == "/" {
            "/".to_owned()
        } else {
            format!("{path}/")
        };
        files
            .range(prefix.clone()..)
            .next()
            .is_some_and(|(k, _)| k.starts_with(&prefix))
    }

    pub(crate) fn stat(&self, path: &str) -> Res<Meta> {
        let files = self.files()?;
        if let Some(bytes) = files.get(path) {
            return Ok(Meta {
                kind: Kind::File,
                size: bytes.len() as u64,
                mtime_ns: 0,
                ino: bytes.as_ptr() as u64,
                nlink: 1,
                atime_ns: None,
            });
        }
        if path == "/" || Self::is_dir(files, path) {
            return Ok(Meta {
                kind: Kind::Dir,
                size: 0,
                mtime_ns: 0,
                ino: 1,
                nlink: 1,
                atime_ns: None,
            });
        }
        Err(code(ErrorCode::NoEntry))
    }

    pub(crate) fn read(&self, path: &str, offset: u64, len: u64) -> Res<Vec<u8>> {
        let bytes = self.files()?.get(path).ok_or(code(ErrorCode::NoEntry))?;
        let start = (offset as usize).min(bytes.len());
        let end = start.saturating_add(len as usize).min(bytes.len());
        Ok(bytes[start..end].to_vec())
    }

    pub(crate) fn readdir(&self, path: &str, offset: u64, limit: u64) -> Res<Vec<(String, Kind)>> {
        if self.stat(path)?.kind != Kind::Dir {
            return Err(code(ErrorCode::NotDirectory));
        }
        let prefix = if path == "/" {
            "/".to_owned()
        } else {
            format!("{path}/")
        };
        let mut names: Vec<(String, Kind)> = Vec::new();
        for (k, _) in self.files()?.range(prefix.clone()..) {
            let Some(rest) = k.strip_prefix(&prefix) else {
                break;
            };
            let (name, kind) = match rest.split_once('/') {
                Some((dir, _)) => (dir, Kind::Dir),
                None => (rest, Kind::File),
            };
            if names.last().is_none_or(|(n, _)| n != name) {
                names.push((name.to_owned(), kind));
            }
        }
        Ok(names
            .into_iter()
            .skip(offset as usize)
            .take(limit as usize)
            .collect())
    }
}
