//! How failures reach the user: `computer: CODE: message` on stderr, or
//! `{"error": {...}}` on stdout with `--json`.

use computer_store::{Errno, FsError};

use crate::output::shown;

/// A failure with a POSIX-style code.
#[derive(Debug)]
pub struct CliError {
    pub code: String,
    pub message: String,
}

/// The code of a write to a pipe whose reader left (`computer ... | head`).
pub const EPIPE: &str = "EPIPE";

impl CliError {
    /// Whether stdout's reader is gone: nothing is worth saying then.
    pub fn is_broken_pipe(&self) -> bool {
        self.code == EPIPE
    }

    /// The process's exit status for this failure: 124 when a wait ran out
    /// (as `timeout(1)` and a timed-out run report), else 1.
    pub fn exit_code(&self) -> u8 {
        if self.code == "ETIMEDOUT" { 124 } else { 1 }
    }

    pub fn invalid(message: impl Into<String>) -> Self {
        CliError {
            code: Errno::EINVAL.as_str().to_owned(),
            message: message.into(),
        }
    }

    pub fn print(&self, json: bool) {
        if json {
            let doc = serde_json::json!({"error": {"code": self.code, "message": self.message}});
            println!("{doc}");
        } else {
            eprintln!("computer: {}: {}", self.code, shown(&self.message));
        }
    }
}

impl From<FsError> for CliError {
    fn from(e: FsError) -> Self {
        CliError {
            code: e.code.as_str().to_owned(),
            message: e.message,
        }
    }
}

impl From<std::io::Error> for CliError {
    fn from(e: std::io::Error) -> Self {
        let code = if e.kind() == std::io::ErrorKind::BrokenPipe {
            EPIPE
        } else {
            Errno::EIO.as_str()
        };
        CliError {
            code: code.to_owned(),
            message: e.to_string(),
        }
    }
}

impl From<anyhow::Error> for CliError {
    fn from(e: anyhow::Error) -> Self {
        CliError {
            code: "ERROR".to_owned(),
            message: format!("{e:#}"),
        }
    }
}

pub type CliResult<T = ()> = Result<T, CliError>;
