//! Turning `computer:workspace/fs` errors into the `std::io::Error`s bashkit's commands
//! understand.
//!
//! bashkit renders a filesystem error by its `ErrorKind` and message
//! (`io_error_reason`): a message is printed as is, so each code carries the text of
//! the matching `strerror`, and `cat /x` reports `cat: /x: No such file or directory`
//! as GNU cat does. The kinds are the ones bashkit's own in-memory filesystem uses,
//! because its commands branch on them (`AlreadyExists` for `mkdir -p`, `NotFound` for
//! `rm -f`, `NotADirectory` for `ls`).

use std::io::{Error as IoError, ErrorKind};

use crate::computer::workspace::fs::{ErrorCode, FsError};

/// The `strerror` text bash tools print for a code.
pub fn strerror(code: ErrorCode) -> &'static str {
    match code {
        ErrorCode::Enoent => "No such file or directory",
        ErrorCode::Eexist => "File exists",
        ErrorCode::Enotdir => "Not a directory",
        ErrorCode::Eisdir => "Is a directory",
        ErrorCode::Enotempty => "Directory not empty",
        ErrorCode::Einval => "Invalid argument",
        ErrorCode::Eloop => "Too many levels of symbolic links",
        ErrorCode::Erofs => "Read-only file system",
        ErrorCode::Eperm => "Operation not permitted",
        ErrorCode::Efbig => "File too large",
        ErrorCode::Enametoolong => "File name too long",
        ErrorCode::Eacces => "Permission denied",
        ErrorCode::Eio => "Input/output error",
        ErrorCode::Enospc => "No space left on device",
        ErrorCode::Ebusy => "Device or resource busy",
        ErrorCode::Eilseq => "Invalid or incomplete multibyte or wide character",
    }
}

fn kind(code: ErrorCode) -> ErrorKind {
    match code {
        ErrorCode::Enoent => ErrorKind::NotFound,
        ErrorCode::Eexist => ErrorKind::AlreadyExists,
        ErrorCode::Enotdir => ErrorKind::NotADirectory,
        ErrorCode::Eisdir => ErrorKind::IsADirectory,
        ErrorCode::Enotempty => ErrorKind::DirectoryNotEmpty,
        ErrorCode::Einval => ErrorKind::InvalidInput,
        ErrorCode::Eloop => ErrorKind::Other,
        ErrorCode::Erofs => ErrorKind::ReadOnlyFilesystem,
        ErrorCode::Eperm | ErrorCode::Eacces => ErrorKind::PermissionDenied,
        ErrorCode::Efbig => ErrorKind::FileTooLarge,
        ErrorCode::Enametoolong => ErrorKind::InvalidFilename,
        ErrorCode::Eio => ErrorKind::Other,
        ErrorCode::Enospc => ErrorKind::StorageFull,
        ErrorCode::Ebusy => ErrorKind::ResourceBusy,
        ErrorCode::Eilseq => ErrorKind::InvalidData,
    }
}

/// An error with the code's kind and `strerror` text.
pub fn from_code(code: ErrorCode) -> bashkit::Error {
    IoError::new(kind(code), strerror(code)).into()
}

/// A workspace error as bashkit sees it. The host's message (which names the path) is
/// dropped: bash tools print the operand themselves, then the `strerror` text. An I/O
/// error of the host keeps its message, since that is the only clue to what failed.
pub fn convert(e: FsError) -> bashkit::Error {
    match e.code {
        ErrorCode::Eio => IoError::other(format!("Input/output error ({})", e.message)).into(),
        code => from_code(code),
    }
}

/// A file too big for the guest's memory (the host's memory cap).
pub fn out_of_memory() -> bashkit::Error {
    IoError::new(ErrorKind::OutOfMemory, "Cannot allocate memory").into()
}

/// Whether an error is "no such file or directory".
pub fn is_not_found(e: &FsError) -> bool {
    e.code == ErrorCode::Enoent
}
