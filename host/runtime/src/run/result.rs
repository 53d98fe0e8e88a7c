//! How a run ends and what it streams meanwhile: `Event`, `RunStatus`,
//! `RunResult` (one shape for every backend), and the extras only some
//! backends fill in.

use std::time::Duration;

use computer_store::RunStatus;
use serde::Serialize;
use serde_json::Value;

/// Exit code of a run stopped by its timeout (as `timeout(1)`).
pub const EXIT_TIMEOUT: i32 = 124;
/// Exit code of a killed run (as a shell's SIGINT).
pub const EXIT_CANCELLED: i32 = 130;
/// Exit code reported for a run parked at an interrupt (`EX_TEMPFAIL`):
/// it has not ended; it waits for an answer.
pub const EXIT_WAITING: i32 = 75;
/// The shell's exit code for a command it does not have.
pub const EXIT_NOT_FOUND: i32 = 127;

/// What a run streams while it goes on. `Exit` comes exactly once, last.
#[derive(Debug, Clone, PartialEq)]
pub enum Event {
    /// Bytes the run wrote on standard output.
    Stdout(Vec<u8>),
    /// Bytes the run wrote on standard error.
    Stderr(Vec<u8>),
    /// The end of the run.
    Exit {
        /// The exit code.
        code: i32,
        /// The JSON value the run returned, if any.
        value: Option<Value>,
    },
}

/// `Completed` for exit code 0, else `Failed`.
pub(crate) fn status_of_exit(code: i32) -> RunStatus {
    if code == 0 {
        RunStatus::Completed
    } else {
        RunStatus::Failed
    }
}

/// How a run ended, on any backend.
#[derive(Debug, Clone, Serialize)]
pub struct RunResult {
    /// The run's id, unique in its workspace.
    pub run_id: String,
    /// The backend that ran the code (under a fallback, the one that ran it last).
    pub backend: String,
    /// How it ended.
    pub status: RunStatus,
    /// The exit code (124 timeout, 130 cancelled, 75 waiting).
    pub exit_code: i32,
    /// Standard output, up to the cap.
    #[serde(serialize_with = "lossy")]
    pub stdout: Vec<u8>,
    /// Standard error, up to the cap (and the host's own notes).
    #[serde(serialize_with = "lossy")]
    pub stderr: Vec<u8>,
    /// The JSON value the run returned, if any.
    pub value: Option<Value>,
    /// Why the host ended the run, when it did (timeout, memory, trap).
    pub error: Option<String>,
    /// Wall time of the run (in JSON: `duration_ms`, fractional milliseconds).
    #[serde(rename = "duration_ms", serialize_with = "millis")]
    pub duration: Duration,
    /// What only some backends report; flattened into the JSON.
    #[serde(flatten)]
    pub extras: Extras,
}

impl RunResult {
    /// A run that failed before or outside its code, with `error` as the reason.
    pub fn failed(run_id: &str, backend: &str, exit_code: i32, error: String) -> Self {
        RunResult {
            run_id: run_id.to_owned(),
            backend: backend.to_owned(),
            status: RunStatus::Failed,
            exit_code,
            stdout: Vec::new(),
            stderr: Vec::new(),
            value: None,
            error: Some(error),
            duration: Duration::ZERO,
            extras: Extras::default(),
        }
    }

    /// The sync counts of a backend that runs on a copy of the workspace.
    pub fn sync(&self) -> Option<&SyncStats> {
        self.extras.sync.as_ref()
    }
}

/// Facts of a run that only some backends have.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Extras {
    /// A backend that runs on a copy of the workspace: what it copied.
    #[serde(flatten)]
    pub sync: Option<SyncStats>,
    /// Set when a fallback backend ran the code after its first choice could not.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fallback: Option<Fallback>,
    /// Anything else a backend reports (a container's name and image),
    /// keyed as it should appear in the JSON.
    #[serde(flatten)]
    pub details: serde_json::Map<String, Value>,
}

/// What a backend that works on a copy of the workspace synced.
#[derive(Debug, Clone, Default, Serialize)]
pub struct SyncStats {
    /// Host entries the push wrote or removed before the command.
    pub pushed: u64,
    /// Workspace changes the pull made after it.
    pub pulled: u64,
    /// Entries not synced back (special files, read-only subtrees, ...).
    pub skipped: u64,
    /// Which entries, and why.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub skipped_paths: Vec<String>,
    /// Where the exec's time went.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timings: Option<SyncTimings>,
}

/// Phases of an exec on a copy of the workspace (in JSON: `push_ms`,
/// `start_ms`, `run_ms`, `pull_ms`, fractional milliseconds).
#[derive(Debug, Clone, Copy, Default, Serialize)]
pub struct SyncTimings {
    /// Copying the workspace out.
    #[serde(rename = "push_ms", serialize_with = "millis")]
    pub push: Duration,
    /// Starting the environment (0 when it was running).
    #[serde(rename = "start_ms", serialize_with = "millis")]
    pub start: Duration,
    /// The command itself.
    #[serde(rename = "run_ms", serialize_with = "millis")]
    pub run: Duration,
    /// Applying the changes back to the workspace.
    #[serde(rename = "pull_ms", serialize_with = "millis")]
    pub pull: Duration,
    /// The pull looked only at what a change watch saw change; false: it
    /// scanned the whole copy.
    pub watched: bool,
}

/// The first attempt of a fallback exec, when it was retried elsewhere.
#[derive(Debug, Clone, Serialize)]
pub struct Fallback {
    /// The backend tried first.
    pub from: String,
    /// Its run's id.
    pub run_id: String,
    /// Its exit code.
    pub exit_code: i32,
    /// Why the run moved on.
    pub reason: String,
}

/// Serializers of run results, for backends' own types with the same shape.
pub mod serialize {
    use std::time::Duration;

    /// Output bytes as (lossy) UTF-8 text.
    pub fn lossy<S: serde::Serializer>(b: &[u8], s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&String::from_utf8_lossy(b))
    }

    /// A duration as fractional milliseconds.
    pub fn millis<S: serde::Serializer>(d: &Duration, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_f64(d.as_secs_f64() * 1000.0)
    }
}
use serialize::{lossy, millis};
