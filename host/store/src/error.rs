//! POSIX-coded errors. Every error names the path it concerns, because the
//! reader is often a model that has to decide what to do next.

use std::fmt;

use serde::Serialize;

/// The POSIX error codes the workspace reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[allow(clippy::upper_case_acronyms)]
pub enum Errno {
    /// No such file or directory.
    ENOENT,
    /// It already exists.
    EEXIST,
    /// A path component is not a directory.
    ENOTDIR,
    /// It is a directory.
    EISDIR,
    /// The directory is not empty.
    ENOTEMPTY,
    /// An invalid argument.
    EINVAL,
    /// Too many symlinks.
    ELOOP,
    /// Inside a read-only subtree.
    EROFS,
    /// Not permitted.
    EPERM,
    /// The file would grow past the size cap.
    EFBIG,
    /// A name or path is too long.
    ENAMETOOLONG,
    /// The workspace's quota (or the disk holding it) is full.
    ENOSPC,
    /// An I/O or database error.
    EIO,
}

impl Errno {
    /// The code's name, e.g. `ENOENT`.
    pub fn as_str(self) -> &'static str {
        match self {
            Errno::ENOENT => "ENOENT",
            Errno::EEXIST => "EEXIST",
            Errno::ENOTDIR => "ENOTDIR",
            Errno::EISDIR => "EISDIR",
            Errno::ENOTEMPTY => "ENOTEMPTY",
            Errno::EINVAL => "EINVAL",
            Errno::ELOOP => "ELOOP",
            Errno::EROFS => "EROFS",
            Errno::EPERM => "EPERM",
            Errno::EFBIG => "EFBIG",
            Errno::ENAMETOOLONG => "ENAMETOOLONG",
            Errno::ENOSPC => "ENOSPC",
            Errno::EIO => "EIO",
        }
    }

    /// The strerror-style description used as the start of messages.
    pub fn describe(self) -> &'static str {
        match self {
            Errno::ENOENT => "no such file or directory",
            Errno::EEXIST => "file exists",
            Errno::ENOTDIR => "not a directory",
            Errno::EISDIR => "is a directory",
            Errno::ENOTEMPTY => "directory not empty",
            Errno::EINVAL => "invalid argument",
            Errno::ELOOP => "too many levels of symbolic links",
            Errno::EROFS => "read-only file system",
            Errno::EPERM => "operation not permitted",
            Errno::EFBIG => "file too large",
            Errno::ENAMETOOLONG => "file name too long",
            Errno::ENOSPC => "no space left on device",
            Errno::EIO => "input/output error",
        }
    }
}

impl fmt::Display for Errno {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// An error from a workspace operation.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct FsError {
    /// The POSIX code.
    pub code: Errno,
    /// The path the error concerns, as the caller gave it (normalized).
    pub path: String,
    /// Human-readable, always mentions `path` when there is one.
    pub message: String,
}

/// What a disk-full error says (see `reserve.rs`, which tells it apart from
/// the quota's).
pub(crate) const DISK_FULL: &str = "the disk holding the workspace file is full";

impl FsError {
    /// The standard message: `<description>: <path>`.
    pub fn new(code: Errno, path: impl Into<String>) -> Self {
        let path = path.into();
        let message = format!("{}: {}", code.describe(), path);
        FsError {
            code,
            path,
            message,
        }
    }

    /// A message with extra detail: `<description>: <path> (<detail>)`.
    pub fn detail(code: Errno, path: impl Into<String>, detail: impl fmt::Display) -> Self {
        let path = path.into();
        let message = format!("{}: {} ({})", code.describe(), path, detail);
        FsError {
            code,
            path,
            message,
        }
    }

    /// A fully custom message; it should still name the path.
    pub fn custom(code: Errno, path: impl Into<String>, message: impl Into<String>) -> Self {
        FsError {
            code,
            path: path.into(),
            message: message.into(),
        }
    }

    pub(crate) fn db(err: rusqlite::Error) -> Self {
        match err.sqlite_error_code() {
            Some(rusqlite::ErrorCode::DiskFull) => FsError::custom(
                Errno::ENOSPC,
                "",
                format!("no space left on device: {DISK_FULL} (remove files to free space)"),
            ),
            Some(rusqlite::ErrorCode::ReadOnly) => FsError::custom(
                Errno::EROFS,
                "",
                "read-only file system: the workspace file was opened read-only (this user cannot write it or its directory)",
            ),
            _ => FsError::custom(Errno::EIO, "", format!("workspace database error: {err}")),
        }
    }

    /// Names `path` in an error raised where the path was not known (a
    /// chunk, the quota, the database): `<description>: <path> (<detail>)`.
    pub(crate) fn at(self, path: &str) -> Self {
        if !self.path.is_empty() || path.is_empty() {
            return self;
        }
        let prefix = format!("{}: ", self.code.describe());
        let detail = self
            .message
            .strip_prefix(&prefix)
            .unwrap_or(&self.message)
            .to_owned();
        FsError::detail(self.code, path, detail)
    }

    pub(crate) fn host_io(path: impl Into<String>, err: std::io::Error) -> Self {
        let path = path.into();
        let code = match err.kind() {
            std::io::ErrorKind::NotFound => Errno::ENOENT,
            std::io::ErrorKind::AlreadyExists => Errno::EEXIST,
            std::io::ErrorKind::PermissionDenied => Errno::EPERM,
            std::io::ErrorKind::NotADirectory => Errno::ENOTDIR,
            std::io::ErrorKind::IsADirectory => Errno::EISDIR,
            std::io::ErrorKind::InvalidInput => Errno::EINVAL,
            std::io::ErrorKind::StorageFull => Errno::ENOSPC,
            std::io::ErrorKind::ReadOnlyFilesystem => Errno::EROFS,
            std::io::ErrorKind::FileTooLarge => Errno::EFBIG,
            std::io::ErrorKind::InvalidFilename => Errno::ENAMETOOLONG,
            _ => Errno::EIO,
        };
        let message = format!("{}: {} ({err})", code.describe(), path);
        FsError {
            code,
            path,
            message,
        }
    }
}

impl From<rusqlite::Error> for FsError {
    fn from(err: rusqlite::Error) -> Self {
        FsError::db(err)
    }
}

/// The result of a workspace operation.
pub type Result<T, E = FsError> = std::result::Result<T, E>;
