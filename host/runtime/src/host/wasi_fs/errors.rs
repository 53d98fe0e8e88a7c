//! Store errors (and the guest `fs` errors journalled results carry) as
//! `wasi:filesystem` error codes.

use computer_store::Errno;
use wasmtime_wasi::p2::FsError;
use wasmtime_wasi::p2::bindings::filesystem::types::ErrorCode;

use crate::bindings::fs;

/// The nearest `wasi:filesystem` code of a store errno.
pub(crate) fn from_errno(e: Errno) -> ErrorCode {
    match e {
        Errno::ENOENT => ErrorCode::NoEntry,
        Errno::EEXIST => ErrorCode::Exist,
        Errno::ENOTDIR => ErrorCode::NotDirectory,
        Errno::EISDIR => ErrorCode::IsDirectory,
        Errno::ENOTEMPTY => ErrorCode::NotEmpty,
        Errno::EINVAL => ErrorCode::Invalid,
        Errno::ELOOP => ErrorCode::Loop,
        Errno::EROFS => ErrorCode::ReadOnly,
        Errno::EPERM => ErrorCode::NotPermitted,
        Errno::EFBIG => ErrorCode::FileTooLarge,
        Errno::ENAMETOOLONG => ErrorCode::NameTooLong,
        Errno::ENOSPC => ErrorCode::InsufficientSpace,
        Errno::EIO => ErrorCode::Io,
    }
}

/// The code of a guest-facing `fs-error` (what the journal records).
pub(crate) fn from_fs(e: &fs::FsError) -> ErrorCode {
    use fs::ErrorCode as C;
    match e.code {
        C::Enoent => ErrorCode::NoEntry,
        C::Eexist => ErrorCode::Exist,
        C::Enotdir => ErrorCode::NotDirectory,
        C::Eisdir => ErrorCode::IsDirectory,
        C::Enotempty => ErrorCode::NotEmpty,
        C::Einval => ErrorCode::Invalid,
        C::Eloop => ErrorCode::Loop,
        C::Erofs => ErrorCode::ReadOnly,
        C::Eperm => ErrorCode::NotPermitted,
        C::Efbig => ErrorCode::FileTooLarge,
        C::Enametoolong => ErrorCode::NameTooLong,
        C::Eacces => ErrorCode::Access,
        C::Enospc => ErrorCode::InsufficientSpace,
        C::Ebusy => ErrorCode::Busy,
        C::Eilseq => ErrorCode::IllegalByteSequence,
        _ => ErrorCode::Io,
    }
}

/// A host I/O error (read-only mounts of host directories).
pub(crate) fn from_io(e: &std::io::Error) -> ErrorCode {
    use std::io::ErrorKind as K;
    match e.kind() {
        K::NotFound => ErrorCode::NoEntry,
        K::PermissionDenied => ErrorCode::Access,
        K::AlreadyExists => ErrorCode::Exist,
        K::NotADirectory => ErrorCode::NotDirectory,
        K::IsADirectory => ErrorCode::IsDirectory,
        K::DirectoryNotEmpty => ErrorCode::NotEmpty,
        K::InvalidInput | K::InvalidFilename => ErrorCode::Invalid,
        K::ReadOnlyFilesystem => ErrorCode::ReadOnly,
        K::FileTooLarge => ErrorCode::FileTooLarge,
        _ => match e.raw_os_error() {
            Some(40) => ErrorCode::Loop,
            _ => ErrorCode::Io,
        },
    }
}

/// An error code as the trappable error the generated traits return.
pub(crate) fn code(c: ErrorCode) -> FsError {
    c.into()
}

/// A failed stream operation: `filesystem-error-code` finds the code again.
#[derive(Debug)]
pub(crate) struct StreamFsError(pub ErrorCode);

impl std::fmt::Display for StreamFsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "filesystem error: {:?}", self.0)
    }
}

impl std::error::Error for StreamFsError {}

/// A filesystem error met inside a stream.
pub(crate) fn stream_error(e: FsError) -> wasmtime_wasi::p2::StreamError {
    match e.downcast() {
        Ok(c) => wasmtime_wasi::p2::StreamError::LastOperationFailed(StreamFsError(c).into()),
        Err(trap) => wasmtime_wasi::p2::StreamError::Trap(trap),
    }
}
