//! Why an exec could not start. (How a run ends is a `RunResult`, not an error.)

use computer_store::FsError;

#[derive(Debug, thiserror::Error)]
pub enum ExecError {
    #[error("unknown backend {name:?}; {}", offered(available))]
    UnknownBackend {
        name: String,
        available: Vec<String>,
    },
    /// Refused, not queued: the run was not started (nor recorded).
    #[error(
        "too many concurrent runs: the limit is {limit} at once in this process and that many are running; this run was not started (runs are refused, not queued): retry when one has finished, or raise the limit (RuntimeConfig::max_concurrent_runs; `computer mcp --max-runs N` or COMPUTER_MAX_RUNS)"
    )]
    TooManyRuns { limit: usize },
    /// The run is already being run: by this process, or by another live
    /// process that holds its lease.
    #[error("run {run_id} is busy: {holder}; wait for it to end, or cancel it first")]
    RunBusy { run_id: String, holder: String },
    #[error("{what} is {size} bytes, over the {limit}-byte limit")]
    TooLarge {
        what: &'static str,
        size: usize,
        limit: usize,
    },
    #[error("input is not valid JSON: {0}")]
    InvalidInput(String),
    #[error("invalid exec option: {0}")]
    InvalidOption(String),
    #[error("{0}")]
    Workspace(#[from] FsError),
    /// No command component of that name (the `command` backend).
    #[error("{name}: command not found (see `computer commands ls`)")]
    CommandNotFound { name: String },
    #[error("guest component {name:?} cannot be used: {reason}")]
    BadGuest { name: String, reason: String },
    #[error("module {name} cannot be used: {reason}")]
    BadModule { name: String, reason: String },
    #[error("runtime error: {0}")]
    Engine(String),
    /// A backend could not start the run (an engine that is absent or
    /// failing); nothing ran.
    #[error("{reason}")]
    Unavailable {
        backend: String,
        reason: String,
        /// The exit code a CLI should give (125 for a container engine).
        exit_code: i32,
    },
}

impl ExecError {
    /// The exit code a CLI should give for this error.
    pub fn exit_code(&self) -> i32 {
        match self {
            ExecError::Unavailable { exit_code, .. } => *exit_code,
            ExecError::CommandNotFound { .. } => crate::run::result::EXIT_NOT_FOUND,
            _ => 1,
        }
    }

    pub(crate) fn engine(e: impl std::fmt::Display) -> Self {
        ExecError::Engine(e.to_string())
    }
}

/// A wasmtime error on one line: its messages joined, without backtraces or
/// dumps of bytes.
pub(crate) fn one_line(e: &wasmtime::Error) -> String {
    let full = format!("{e:#}");
    let mut parts: Vec<&str> = Vec::new();
    for line in full.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with("0x") || line.starts_with("at ") {
            continue;
        }
        if line.contains("wasm backtrace")
            || line.chars().next().is_some_and(|c| c.is_ascii_digit())
        {
            break;
        }
        parts.push(line);
    }
    if parts.is_empty() {
        "unknown error".to_owned()
    } else {
        parts.join(" ")
    }
}

/// The backends a run may ask for, or why there are none.
fn offered(available: &[String]) -> String {
    if available.is_empty() {
        // Only a build with COMPUTER_WITHOUT_GUESTS=1 and nothing registered.
        "no backends are registered: this runtime was built without its guests \
         (scripts/build-guests.sh, then cargo build) and none were added"
            .to_owned()
    } else {
        format!("available: {}", available.join(", "))
    }
}

#[cfg(test)]
mod tests {
    use super::ExecError;

    #[test]
    fn an_unknown_backend_names_the_others_or_says_why_there_are_none() {
        let some = ExecError::UnknownBackend {
            name: "shel".into(),
            available: vec!["js".into(), "shell".into()],
        };
        assert_eq!(
            some.to_string(),
            "unknown backend \"shel\"; available: js, shell"
        );
        let none = ExecError::UnknownBackend {
            name: "shell".into(),
            available: vec![],
        };
        let text = none.to_string();
        assert!(text.contains("built without its guests"), "{text}");
        assert!(text.contains("scripts/build-guests.sh"), "{text}");
    }
}
