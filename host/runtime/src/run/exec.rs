//! `Runtime::exec`: a run on any registered backend, and the bookkeeping
//! every guest run shares (the concurrency cap, the kill switches).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use computer_store::Workspace;

use crate::error::ExecError;
use crate::run::handle::RunHandle;
use crate::run::host_memory::{HostMemoryUse, Reservation};
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

/// A guest run's slot, its host memory and its kill switch, all released
/// when it ends (a parked run has ended its attempt).
pub(crate) struct Slot {
    _memory: Option<Reservation>,
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
    /// `RunResult`. A guest run first takes its host memory
    /// ([`RuntimeConfig::host_memory`](crate::RuntimeConfig::host_memory)):
    /// when other runs hold too much, `exec` waits for them to end, up to
    /// the run's timeout, before it returns.
    pub fn exec(
        &self,
        workspace: Arc<Workspace>,
        source: &str,
        options: ExecOptions,
    ) -> Result<RunHandle, ExecError> {
        let backend = self.backend(&options.backend)?;
        let options = self.gate_exec(&workspace, source, options)?;
        backend.exec(self, workspace, source, options)
    }

    /// Asks the workspace's gates about a run (`computer_store::Gate`):
    /// refused, or narrowed (read-only, a shorter timeout, less memory;
    /// never wider than asked).
    fn gate_exec(
        &self,
        ws: &Workspace,
        source: &str,
        mut options: ExecOptions,
    ) -> Result<ExecOptions, ExecError> {
        if !ws.has_gates() {
            return Ok(options);
        }
        let mut limits = match options.limits.clone() {
            Some(l) => l,
            None => self.default_limits(&options.backend)?,
        };
        let action = computer_store::ExecAction {
            backend: options.backend.clone(),
            source: source.to_owned(),
            cwd: options.cwd.clone().unwrap_or_else(|| "/".to_owned()),
            env_names: options.env.keys().cloned().collect(),
            read_only: options.read_only,
            timeout_ms: limits.timeout.as_millis() as u64,
            memory_bytes: limits.memory_bytes as u64,
            run_id: options.id.clone(),
        };
        match ws.check_gates(&computer_store::Action::Exec(&action)) {
            computer_store::Decision::Allow => Ok(options),
            computer_store::Decision::Deny(why) => Err(ExecError::Denied(why)),
            computer_store::Decision::Narrow(n) => {
                options.read_only |= n.read_only;
                if let Some(t) = n.timeout_ms {
                    limits.timeout = limits.timeout.min(std::time::Duration::from_millis(t));
                }
                if let Some(m) = n.memory_bytes {
                    limits.memory_bytes = limits.memory_bytes.min(m as usize);
                }
                options.limits = Some(limits);
                Ok(options)
            }
        }
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
            // It may be waiting for host memory.
            self.inner.host_memory.wake();
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

    /// How much of the host memory ceiling
    /// ([`RuntimeConfig::host_memory`](crate::RuntimeConfig::host_memory))
    /// runs hold now, and how many wait for it.
    pub fn host_memory(&self) -> HostMemoryUse {
        self.inner.host_memory.usage()
    }

    /// Takes one of the process's run slots for `run_id`, with its kill
    /// switch, then `memory` bytes of host memory (waiting up to `wait` for
    /// runs to end, or until it is killed); all are given back when the
    /// returned guard drops.
    pub(crate) fn claim_slot(
        &self,
        run_id: &str,
        memory: u64,
        wait: std::time::Duration,
    ) -> Result<(Arc<AtomicBool>, Slot), ExecError> {
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
        drop(running);
        let mut slot = Slot {
            _memory: None,
            _slot: slot,
            inner: self.inner.clone(),
            run_id: run_id.to_owned(),
        };
        // Waiting holds the run slot: the waiters are bounded by the
        // concurrency cap, and `kill` reaches them by their run id.
        slot._memory = Some(self.inner.host_memory.reserve(memory, wait, &flag)?);
        Ok((flag, slot))
    }
}
