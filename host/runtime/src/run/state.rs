//! What a run's `Store` holds: WASI state, the workspace, limits, and why
//! the run was stopped, if it was.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use computer_store::Workspace;
use wasmtime::component::ResourceTable;
use wasmtime_wasi::{WasiCtx, WasiCtxView, WasiView};

use crate::durable::journal::SharedJournal;
use crate::host::modules::ModuleRegistry;
use crate::host::wasi_fs::WasiFs;
use crate::run::limits::MemoryLimiter;

/// Why the host stopped a guest.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Stop {
    TimedOut,
    Cancelled,
    /// An interrupt parked the run: it waits for an answer.
    Parked,
    /// A replay made a call other than the journal's.
    Diverged,
    /// The journal could not be written.
    Journal,
    /// Another process took the run over (this one's lease ran out).
    LeaseLost,
}

pub(crate) struct RunState {
    pub wasi: WasiCtx,
    pub table: ResourceTable,
    pub workspace: Arc<Workspace>,
    pub modules: Arc<ModuleRegistry>,
    pub limiter: MemoryLimiter,
    pub cancel: Arc<AtomicBool>,
    pub deadline: Instant,
    pub stop: Option<Stop>,
    /// A durable run's journal; `None` for an ephemeral run.
    pub journal: Option<SharedJournal>,
    /// `wasi:filesystem`: preopens and open descriptors.
    pub wasi_fs: WasiFs,
}

impl WasiView for RunState {
    fn ctx(&mut self) -> WasiCtxView<'_> {
        WasiCtxView {
            ctx: &mut self.wasi,
            table: &mut self.table,
        }
    }
}
