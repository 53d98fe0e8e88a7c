//! File metadata for the work tree. Inside the workspace it comes from the
//! workspace's own `fs` interface, where one `readdir` call lists a
//! directory with every entry's size, time and mode (wasi-libc's `readdir`
//! plus `lstat` cost two store lookups an entry), and where modes are real,
//! so executable bits are seen as git sees them. Elsewhere (the run's
//! scratch `/tmp`, which wasi:filesystem shows but the workspace does not
//! hold), and if that interface refuses, std's wasi:filesystem calls are
//! used.

use std::io;
use std::path::Path;

use crate::computer::workspace::fs as ws;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Kind {
    File,
    Dir,
    Symlink,
}

#[derive(Clone, Debug)]
pub struct Meta {
    pub kind: Kind,
    pub size: u64,
    /// Modification time: seconds and nanoseconds since the epoch.
    pub mtime: (u64, u32),
    /// Permission bits, when known (wasi:filesystem does not say).
    pub mode: Option<u32>,
}

impl Meta {
    pub fn is_dir(&self) -> bool {
        self.kind == Kind::Dir
    }

    pub fn is_file(&self) -> bool {
        self.kind == Kind::File
    }

    pub fn is_symlink(&self) -> bool {
        self.kind == Kind::Symlink
    }

    pub fn executable(&self) -> bool {
        self.mode.is_some_and(|m| m & 0o100 != 0)
    }

    fn from_ws(s: &ws::NodeStat) -> Meta {
        Meta {
            kind: match s.kind {
                ws::NodeKind::File => Kind::File,
                ws::NodeKind::Directory => Kind::Dir,
                ws::NodeKind::Symlink => Kind::Symlink,
            },
            size: s.size,
            mtime: (
                s.mtime_ns / 1_000_000_000,
                (s.mtime_ns % 1_000_000_000) as u32,
            ),
            mode: Some(s.mode),
        }
    }

    fn from_std(m: &std::fs::Metadata) -> Meta {
        let d = m
            .modified()
            .ok()
            .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
            .unwrap_or_default();
        let t = m.file_type();
        Meta {
            kind: if t.is_symlink() {
                Kind::Symlink
            } else if t.is_dir() {
                Kind::Dir
            } else {
                Kind::File
            },
            size: m.len(),
            mtime: (d.as_secs(), d.subsec_nanos()),
            mode: None,
        }
    }
}

/// The workspace path of `path`, if the workspace holds it.
fn in_workspace(path: &Path) -> Option<&str> {
    let s = path.to_str()?;
    let scratch = s == "/tmp" || s.starts_with("/tmp/");
    (s.starts_with('/') && !scratch).then_some(s)
}

fn not_found(e: &ws::FsError) -> bool {
    e.code == ws::ErrorCode::Enoent || e.code == ws::ErrorCode::Enotdir
}

/// `lstat`: the entry itself, a symlink not followed.
pub fn lstat(path: impl AsRef<Path>) -> io::Result<Meta> {
    let path = path.as_ref();
    if let Some(p) = in_workspace(path) {
        match ws::lstat(p) {
            Ok(s) => return Ok(Meta::from_ws(&s)),
            Err(e) if not_found(&e) => return Err(io::ErrorKind::NotFound.into()),
            Err(_) => {}
        }
    }
    std::fs::symlink_metadata(path).map(|m| Meta::from_std(&m))
}

/// A directory's entries with their metadata, sorted by name.
pub fn list(dir: &Path) -> io::Result<Vec<(String, Meta)>> {
    if let Some(p) = in_workspace(dir) {
        match ws::readdir(p, 0, None) {
            Ok(entries) => {
                return Ok(entries
                    .iter()
                    .map(|s| (s.name.clone(), Meta::from_ws(s)))
                    .collect());
            }
            Err(e) if not_found(&e) => return Err(io::ErrorKind::NotFound.into()),
            Err(_) => {}
        }
    }
    let mut out: Vec<(String, Meta)> = std::fs::read_dir(dir)?
        .flatten()
        .filter_map(|e| {
            let meta = e.metadata().ok()?;
            Some((
                e.file_name().to_string_lossy().into_owned(),
                Meta::from_std(&meta),
            ))
        })
        .collect();
    out.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(out)
}

/// Gives a checked-out file the permission bits of git mode `mode` (755 or
/// 644); nothing outside the workspace, where wasi:filesystem has no modes.
pub fn set_mode(path: &Path, mode: u32) {
    if let Some(p) = in_workspace(path) {
        let bits = if mode == 0o100755 { 0o755 } else { 0o644 };
        // A failure leaves the default 644, which status then reports.
        let _ = ws::chmod(p, bits);
    }
}

/// Makes a symlink inside the workspace; false outside it (the caller then
/// writes a file holding the target, as git does with core.symlinks=false).
pub fn symlink(target: &[u8], path: &Path) -> io::Result<bool> {
    let Some(p) = in_workspace(path) else {
        return Ok(false);
    };
    let target = String::from_utf8_lossy(target);
    match ws::symlink(&target, p) {
        Ok(()) => Ok(true),
        Err(e) => Err(io::Error::other(e.message)),
    }
}

/// A whole file in one call (std's read is open, stat and reads).
pub fn read(path: &Path) -> io::Result<Vec<u8>> {
    if let Some(p) = in_workspace(path) {
        match ws::read(p, None, None) {
            Ok(data) => return Ok(data),
            Err(e) if not_found(&e) => return Err(io::ErrorKind::NotFound.into()),
            Err(_) => {}
        }
    }
    std::fs::read(path)
}

/// Creates `path` holding `data`, parents too, read-only as git's objects
/// are: one transaction, so no temporary file is needed for it to appear
/// whole. `Ok(false)`: it already existed. `None`: not in the workspace
/// (the caller writes through wasi:filesystem).
pub fn create_whole(path: &Path, data: &[u8]) -> Option<io::Result<bool>> {
    let p = in_workspace(path)?;
    let options = ws::WriteOptions {
        mode: Some(0o444),
        exclusive: true,
        create_parents: true,
    };
    Some(match ws::write(p, data, options) {
        Ok(()) => Ok(true),
        Err(e) if e.code == ws::ErrorCode::Eexist => Ok(false),
        Err(e) => Err(io::Error::other(e.message)),
    })
}
