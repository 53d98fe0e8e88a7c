//! Why an exec could not start. (How a run ends is a `RunResult`, not an error.)

use computer_store::FsError;

/// Why [`Runtime::exec`](crate::Runtime::exec), `respond`, `resume` or a
/// registration refused: nothing ran, and (but for `respond`'s answer)
/// nothing was recorded. The message says what to change.
#[derive(Debug, thiserror::Error)]
pub enum ExecError {
    /// No backend of that name is registered.
    #[error("unknown backend {name:?}; {}", offered(available))]
    UnknownBackend {
        /// The name asked for.
        name: String,
        /// The names that are registered.
        available: Vec<String>,
    },
    /// Refused, not queued: the run was not started (nor recorded).
    #[error(
        "too many concurrent runs: the limit is {limit} at once in this process and that many are running; this run was not started (runs are refused, not queued): retry when one has finished, or raise the limit (RuntimeConfig::max_concurrent_runs; `computer mcp --max-runs N` or COMPUTER_MAX_RUNS)"
    )]
    TooManyRuns {
        /// [`RuntimeConfig::max_concurrent_runs`](crate::RuntimeConfig::max_concurrent_runs).
        limit: usize,
    },
    /// The run may use more host memory than the process's whole ceiling
    /// ([`RuntimeConfig::host_memory`](crate::RuntimeConfig::host_memory)):
    /// refused at once, nothing recorded.
    #[error(
        "this run may use {} MiB of host memory (its memory limit, as much again for a private /tmp where its guest has one, and {} MiB more), over the {} MiB the process may give all its runs together; it was not started: lower its memory limit, or raise the ceiling (RuntimeConfig::host_memory; `computer mcp --host-memory MIB` or COMPUTER_HOST_MEMORY)",
        mib(*needed), crate::run::host_memory::RUN_OVERHEAD >> 20, mib(*ceiling)
    )]
    RunTooBig {
        /// What the run would reserve, in bytes.
        needed: u64,
        /// The ceiling, in bytes.
        ceiling: u64,
    },
    /// The run's host memory did not fit beside the runs going, within its
    /// own timeout of waiting for them to end: not started, nothing
    /// recorded.
    #[error(
        "not enough host memory for this run: it may use {} MiB and runs still going hold {} of the {} MiB the process may give all its runs together; it waited {} ms (its timeout) and was not started: retry when runs have ended, lower its memory limit, or raise the ceiling (RuntimeConfig::host_memory; `computer mcp --host-memory MIB` or COMPUTER_HOST_MEMORY)",
        mib(*needed), mib(*reserved), mib(*ceiling), waited.as_millis()
    )]
    HostMemoryBusy {
        /// What the run would reserve, in bytes.
        needed: u64,
        /// The ceiling, in bytes.
        ceiling: u64,
        /// What the runs going held when it gave up, in bytes.
        reserved: u64,
        /// How long it waited.
        waited: std::time::Duration,
    },
    /// Cancelled (`Runtime::kill`) while it waited for host memory: not
    /// started, nothing recorded.
    #[error("cancelled while waiting for host memory; the run was not started")]
    Cancelled,
    /// The run is already being run: by this process, or by another live
    /// process that holds its lease.
    #[error("run {run_id} is busy: {holder}; wait for it to end, or cancel it first")]
    RunBusy {
        /// The run asked for.
        run_id: String,
        /// Who runs it, in words.
        holder: String,
    },
    /// The source, stdin or JSON input is over its [`Limits`](crate::Limits).
    #[error("{what} is {size} bytes, over the {limit}-byte limit")]
    TooLarge {
        /// Which of them (`source`, `stdin`, `input`).
        what: &'static str,
        /// Its size in bytes.
        size: usize,
        /// The limit in bytes.
        limit: usize,
    },
    /// `ExecOptions::input` is not JSON; the parser's message.
    #[error("input is not valid JSON: {0}")]
    InvalidInput(String),
    /// An option, or the state of the run it names, does not allow this
    /// (a bad cwd or limit, a run that has ended, ...).
    #[error("invalid exec option: {0}")]
    InvalidOption(String),
    /// A gate (`Workspace::add_gate`, the workspace's policy) refused the
    /// run: it was not started.
    #[error("denied: {0}")]
    Denied(String),
    /// The workspace refused to record or read the run.
    #[error("{0}")]
    Workspace(#[from] FsError),
    /// No command component of that name (the `command` backend).
    #[error("{name}: command not found (see `computer commands ls`)")]
    CommandNotFound {
        /// The command asked for.
        name: String,
    },
    /// A component could not be read, compiled or linked, or does not
    /// implement the world it is registered for.
    #[error("guest component {name:?} cannot be used: {reason}")]
    BadGuest {
        /// The backend or command it was registered as.
        name: String,
        /// What is wrong with it.
        reason: String,
    },
    /// A module component could not be loaded, or its interface cannot be
    /// called with JSON.
    #[error("module {name} cannot be used: {reason}")]
    BadModule {
        /// `ws:NAME`.
        name: String,
        /// What is wrong with it.
        reason: String,
    },
    /// wasmtime itself failed (engine, linker or component cache set-up).
    #[error("runtime error: {0}")]
    Engine(String),
    /// A backend could not start the run (an engine that is absent or
    /// failing); nothing ran.
    #[error("{reason}")]
    Unavailable {
        /// The backend asked for.
        backend: String,
        /// Why it cannot run anything now, and what to do.
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

/// Bytes in MiB, rounded up (a refusal never understates what was asked).
fn mib(bytes: u64) -> u64 {
    bytes.div_ceil(1 << 20)
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
