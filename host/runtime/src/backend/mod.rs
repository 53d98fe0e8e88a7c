//! Backends: what a run executes on. Every backend — the runner guests
//! (`js`, `shell`, user guests), a container, a fallback of two others —
//! implements [`Backend`], returns one [`RunHandle`](crate::RunHandle)
//! type and ends in one [`RunResult`](crate::RunResult). The runtime keeps
//! a registry of them by name and names none itself, except where the
//! built-in ones are registered (`builtin.rs`).

pub(crate) mod builtin;
mod fallback;
pub(crate) mod guest;
mod not_found;
pub(crate) mod registry;

pub use fallback::{FALLBACK_FAILED, FallbackBackend, should_fall_back};
pub use guest::{GuestProfile, LimitsEnv};
pub use not_found::missing_command;

use std::sync::Arc;

use computer_store::Workspace;
use serde::Serialize;

use crate::Runtime;
use crate::error::ExecError;
use crate::run::handle::RunHandle;
use crate::run::limits::Limits;
use crate::run::options::ExecOptions;
use crate::run::result::RunResult;

/// What a backend says of itself, for people and for models.
#[derive(Debug, Clone, Serialize)]
pub struct BackendInfo {
    /// The name runs ask for (`ExecOptions::backend`).
    pub name: String,
    /// One line written for a model: what it is and when to use it.
    pub description: String,
    /// What its source is (`bash script`, `ES module`, ...).
    pub source: String,
    /// Which programs a script run here can call by name.
    pub commands: Commands,
    /// It takes long to start (a container): offered after the others.
    pub slow_start: bool,
}

/// Which programs a backend can run by name.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "kind", content = "names")]
pub enum Commands {
    /// It runs no programs (a language runtime).
    None,
    /// Exactly these (and its own built-ins).
    Listed(Vec<String>),
    /// Any program its environment has (a container image).
    Any,
}

impl Commands {
    /// True if `program` is known to run here.
    pub fn can_run(&self, program: &str) -> bool {
        match self {
            Commands::None => false,
            Commands::Listed(names) => names.iter().any(|n| n == program),
            Commands::Any => true,
        }
    }
}

/// A run to take up again from its journal (see [`Backend::resume`]).
#[derive(Debug, Clone)]
pub struct Resume {
    /// The run's id.
    pub run_id: String,
    /// Its source, as recorded.
    pub source: String,
    /// Its options, as recorded (limits included).
    pub options: ExecOptions,
    /// Its random seed, as recorded, so a replay sees the same values.
    pub seed: [u8; 32],
}

/// Something runs execute on: a guest component, a container engine, or a
/// combination ([`FallbackBackend`]). Register one with
/// [`Runtime::register_backend`](crate::Runtime::register_backend); runs
/// reach it by [`BackendInfo::name`], and the tools describe it to a
/// model from its [`info`](Self::info).
pub trait Backend: Send + Sync {
    /// Its name and what it can run.
    fn info(&self) -> BackendInfo;

    /// Starts a run of `source`. Everything that makes the run impossible
    /// is an error here; everything that happens once it runs is in the
    /// result.
    fn exec(
        &self,
        rt: &Runtime,
        ws: Arc<Workspace>,
        source: &str,
        options: ExecOptions,
    ) -> Result<RunHandle, ExecError>;

    /// The limits of a run that sets none.
    fn default_limits(&self, rt: &Runtime) -> Limits {
        rt.inner.config.limits.clone()
    }

    /// Whether a run could start now; `Err` says why not (an engine that
    /// is not configured). Checked before a fallback moves to this backend.
    fn available(&self) -> Result<(), String> {
        Ok(())
    }

    /// Where a run with `options` goes, when that is a choice made outside
    /// the code (the engine and image of a container): said when a fallback
    /// moves a run here, so nobody has to guess what ran it.
    fn runs_on(&self, _options: &ExecOptions) -> Option<String> {
        None
    }

    /// What to add to an exit-127 answer of `result` (a run of this
    /// backend) that no other backend can take over: why `command` is
    /// missing here and how to get an environment that has it.
    fn missing_command_note(&self, _result: &RunResult, _command: &str) -> Option<String> {
        None
    }

    /// Does now what its first run would otherwise wait for (compiling a
    /// guest loaded on first use).
    fn prepare(&self, _rt: &Runtime) -> Result<(), ExecError> {
        Ok(())
    }

    /// Stops a run of this backend; false if none such runs here.
    fn kill(&self, _run_id: &str) -> bool {
        false
    }

    /// Runs a journalled run again from the start with its recorded
    /// results. Backends that keep no journal cannot.
    fn resume(
        &self,
        _rt: &Runtime,
        _ws: Arc<Workspace>,
        run: Resume,
    ) -> Result<RunHandle, ExecError> {
        Err(ExecError::InvalidOption(format!(
            "run {} cannot be resumed: its backend {:?} does not replay runs",
            run.run_id,
            self.info().name
        )))
    }

    /// What is recorded for a run of this backend whose process (`owner`)
    /// died, when it is not replayed.
    fn abandoned(&self, owner: &str) -> String {
        format!(
            "the process running it ({owner}) died; its on_interrupt is \"fail\", so it was not resumed"
        )
    }
}

#[cfg(test)]
mod tests;
