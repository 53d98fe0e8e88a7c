//! `Runtime::exec`: a run on any registered backend, and the bookkeeping
//! every guest run shares (the concurrency cap, the kill switches).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use computer_store::Workspace;

use crate::error::ExecError;
use crate::run::handle::RunHandle;
use crate::run::limits::Limits;
use crate::run::options::ExecOptions;
use crate::{Inner, Runtime};

/// One of the process's run slots ([`RuntimeConfig::max_concurrent_runs`]),
/// given back when dropped. Guest runs take theirs inside the runtime;
/// a backend of another crate takes one with [`Runtime::run_slot`] and
/// keeps it until its run ends.
///
/// [`RuntimeConfig::max_concurrent_runs`]: crate::RuntimeConfig::max_concurrent_runs
pub struct RunSlot {
    inner: Arc<Inner>,
}

impl Drop for RunSlot {
    fn drop(&mut self) {
        self.inner.active.fetch_sub(1, Ordering::SeqCst);
    }
}

/// A guest run's slot and its kill switch, both released when it ends.
pub(crate) struct Slot {
    _slot: RunSlot,
    inner: Arc<Inner>,
    run_id: String,
}

impl Drop for Slot {
    fn drop(&mut self) {
        self.inner
            .running
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .remove(&self.run_id);
    }
}

impl Runtime {
    /// Starts a run of `source` on the backend `options.backend` names,
    /// against `workspace`. Everything that makes the run impossible is an
    /// `ExecError` here; everything that happens once it runs is in the
    /// `RunResult`.
    pub fn exec(
        &self,
        workspace: Arc<Workspace>,
        source: &str,
        options: ExecOptions,
    ) -> Result<RunHandle, ExecError> {
        let backend = self.backend(&options.backend)?;
        backend.exec(self, workspace, source, options)
    }

    /// The limits a run on `backend` gets when it sets none.
    pub fn default_limits(&self, backend: &str) -> Result<Limits, ExecError> {
        Ok(self.backend(backend)?.default_limits(self))
    }

    /// Cancels a running run: it ends with exit code 130 and status
    /// `cancelled`. Returns false if no such run is running here.
    pub fn kill(&self, run_id: &str) -> bool {
        let flag = self
            .inner
            .running
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .get(run_id)
            .cloned();
        if let Some(flag) = flag {
            flag.store(true, Ordering::SeqCst);
            return true;
        }
        self.all_backends().iter().any(|b| b.kill(run_id))
    }

    /// Takes one of the process's run slots, or refuses with
    /// [`ExecError::TooManyRuns`] when all are taken.
    pub fn run_slot(&self) -> Result<RunSlot, ExecError> {
        let limit = self.inner.config.max_concurrent_runs;
        let prev = self.inner.active.fetch_add(1, Ordering::SeqCst);
        let slot = RunSlot {
            inner: self.inner.clone(),
        };
        if prev >= limit {
            return Err(ExecError::TooManyRuns { limit });
        }
        Ok(slot)
    }

    /// Takes one of the process's run slots for `run_id`, with its kill
    /// switch; the slot is given back when the returned guard drops.
    pub(crate) fn claim_slot(&self, run_id: &str) -> Result<(Arc<AtomicBool>, Slot), ExecError> {
        let slot = self.run_slot()?;
        let flag = Arc::new(AtomicBool::new(false));
        let mut running = self.inner.running.lock().unwrap_or_else(|p| p.into_inner());
        if running.contains_key(run_id) {
            return Err(ExecError::RunBusy {
                run_id: run_id.to_owned(),
                holder: "this process is running it".into(),
            });
        }
        running.insert(run_id.to_owned(), flag.clone());
        let slot = Slot {
            _slot: slot,
            inner: self.inner.clone(),
            run_id: run_id.to_owned(),
        };
        Ok((flag, slot))
    }
}
