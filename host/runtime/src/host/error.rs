//! Why a host call of a run failed on the host's side. Not the guest's
//! errors (those are `fs-error` and `module-error` values it gets back) but
//! the journal's, the store's behind an interrupt, or a stored answer's:
//! they stop the guest ([`RunState::trap`]) or fail the module call that
//! met them (`From<HostError> for ModuleCallError`).

use computer_store as store;

use crate::bindings::fs;
use crate::host::modules::ModuleCallError;
use crate::run::state::{RunState, Stop};

#[derive(Debug, thiserror::Error)]
pub(crate) enum HostError {
    /// A replay made a call other than the journal's; the message says
    /// which.
    #[error("{0}")]
    Diverged(String),
    /// The journal could not be written.
    #[error("cannot write the run's journal: {0}")]
    Journal(#[source] store::FsError),
    /// A recorded result cannot be decoded.
    #[error(
        "the journal's record of {what} cannot be read ({source}); was the workspace written by another version?"
    )]
    Unreadable {
        what: String,
        #[source]
        source: postcard::Error,
    },
    /// The store failed looking up an interrupt or marking a call unsafe.
    #[error("{0}")]
    Store(#[source] store::FsError),
    /// A new interrupt could not be recorded.
    #[error("cannot record the interrupt: {0}")]
    RaiseInterrupt(#[source] store::FsError),
    /// A stored answer is not JSON.
    #[error("stored answer is not JSON: {0}")]
    Answer(#[source] serde_json::Error),
    /// An interrupt parked the run: it waits for an answer.
    #[error("the run is waiting for an answer")]
    Parked,
    /// Another process took the run over: this one's write for it was
    /// refused (see the store's `fence.rs`).
    #[error("{0}")]
    Fenced(String),
}

impl HostError {
    /// How the run stops when this error ends a host call, if it is one the
    /// run's result reports on its own.
    fn stop(&self) -> Option<Stop> {
        match self {
            HostError::Diverged(_) => Some(Stop::Diverged),
            HostError::Journal(_) => Some(Stop::Journal),
            HostError::Parked => Some(Stop::Parked),
            HostError::Fenced(_) => Some(Stop::LeaseLost),
            HostError::Unreadable { .. }
            | HostError::Store(_)
            | HostError::RaiseInterrupt(_)
            | HostError::Answer(_) => None,
        }
    }
}

impl RunState {
    /// Stops the guest with `e`: the trap that ends the host call, with
    /// the reason the run's result reports.
    pub(crate) fn trap(&mut self, e: HostError) -> wasmtime::Error {
        if let Some(stop) = e.stop() {
            self.stop = Some(stop);
        }
        wasmtime::Error::msg(e.to_string())
    }
}

/// A module call that met a host error fails with it (a parked run stays
/// parked).
impl From<HostError> for ModuleCallError {
    fn from(e: HostError) -> Self {
        match e {
            HostError::Parked => ModuleCallError::Parked,
            other => ModuleCallError::Failed(other.to_string()),
        }
    }
}

/// The store's error as the guest's `fs-error`.
impl From<store::FsError> for fs::FsError {
    fn from(e: store::FsError) -> Self {
        fs::FsError {
            code: code(e.code),
            path: e.path,
            message: e.message,
        }
    }
}

fn code(e: store::Errno) -> fs::ErrorCode {
    use fs::ErrorCode as C;
    use store::Errno as E;
    match e {
        E::ENOENT => C::Enoent,
        E::EEXIST => C::Eexist,
        E::ENOTDIR => C::Enotdir,
        E::EISDIR => C::Eisdir,
        E::ENOTEMPTY => C::Enotempty,
        E::EINVAL => C::Einval,
        E::ELOOP => C::Eloop,
        E::EROFS => C::Erofs,
        E::EPERM => C::Eperm,
        E::EFBIG => C::Efbig,
        E::ENAMETOOLONG => C::Enametoolong,
        E::ENOSPC => C::Enospc,
        E::EIO => C::Eio,
    }
}
