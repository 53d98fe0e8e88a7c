//! How a git command ends badly, as git says it: `fatal:` with exit 128,
//! `error:` lines with their own codes, and what this git does not do
//! (exit 127 before touching anything, so the `auto` backend can give the
//! whole script to a container's real git).

use std::fmt;

#[derive(Debug)]
pub enum Error {
    /// `fatal: MESSAGE`, exit 128.
    Fatal(String),
    /// Already reported on stderr (or nothing to say): exit with this code.
    Exit(i32),
    /// A command or option this git lacks.
    Unsupported(String),
    /// A tree holds a path git never lets into its index or work tree
    /// (`..`, `.git`, ...): `error: invalid path 'P'`, exit 1 unless the
    /// command says more.
    InvalidPath(String),
}

pub type Result<T> = std::result::Result<T, Error>;

pub fn fatal<T>(message: impl Into<String>) -> Result<T> {
    Err(Error::Fatal(message.into()))
}

impl From<std::io::Error> for Error {
    fn from(e: std::io::Error) -> Self {
        Error::Fatal(e.to_string())
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Fatal(m) => write!(f, "fatal: {m}"),
            Error::Exit(code) => write!(f, "exit {code}"),
            Error::InvalidPath(p) => write!(f, "error: invalid path '{p}'"),
            Error::Unsupported(what) => write!(
                f,
                "git: {what} is not supported by the workspace's git; run it with the container backend (computer exec --backend container ...)"
            ),
        }
    }
}

impl Error {
    pub fn code(&self) -> i32 {
        match self {
            Error::Fatal(_) => 128,
            Error::Exit(code) => *code,
            Error::Unsupported(_) => 127,
            Error::InvalidPath(_) => 1,
        }
    }
}
