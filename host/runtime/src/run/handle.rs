//! `RunHandle`: a run in progress on any backend — its event stream, a
//! way to stop it, and its result.

use std::sync::Arc;
use std::sync::mpsc::{self, Receiver, Sender};
use std::thread::JoinHandle;

use crate::error::ExecError;
use crate::run::result::{Event, RunResult};

/// Stops a run; safe to call from any thread, any number of times.
pub type Killer = Arc<dyn Fn() + Send + Sync>;

/// A run in progress.
pub struct RunHandle {
    run_id: String,
    backend: String,
    events: Receiver<Event>,
    thread: JoinHandle<RunResult>,
    killer: Killer,
}

impl RunHandle {
    /// Runs `body` on a thread of its own; it streams to the sender it is
    /// given and returns the result. `kill` is what [`kill`](Self::kill)
    /// calls. Backends build their handles with this.
    pub fn spawn(
        run_id: &str,
        backend: &str,
        kill: Killer,
        body: impl FnOnce(Sender<Event>) -> RunResult + Send + 'static,
    ) -> Result<Self, ExecError> {
        let (tx, rx) = mpsc::channel();
        let thread = std::thread::Builder::new()
            .name(format!("run {run_id}"))
            .spawn(move || body(tx))
            .map_err(|e| ExecError::Engine(format!("cannot start a run thread: {e}")))?;
        Ok(RunHandle {
            run_id: run_id.to_owned(),
            backend: backend.to_owned(),
            events: rx,
            thread,
            killer: kill,
        })
    }

    /// The run's id.
    pub fn run_id(&self) -> &str {
        &self.run_id
    }

    /// The backend it was started on.
    pub fn backend(&self) -> &str {
        &self.backend
    }

    /// The next event; `None` once the run has ended and all were read.
    pub fn next_event(&self) -> Option<Event> {
        self.events.recv().ok()
    }

    /// The event stream, for iteration.
    pub fn events(&self) -> &Receiver<Event> {
        &self.events
    }

    /// Stops the run: it ends with exit code 130 and status `cancelled`.
    pub fn kill(&self) {
        (self.killer)()
    }

    /// What [`kill`](Self::kill) calls, to stop the run from elsewhere.
    pub fn killer(&self) -> Killer {
        self.killer.clone()
    }

    /// Waits for the end of the run.
    pub fn wait(self) -> RunResult {
        let id = self.run_id.clone();
        let backend = self.backend.clone();
        self.thread.join().unwrap_or_else(|_| {
            RunResult::failed(&id, &backend, 1, "the run's host thread panicked".into())
        })
    }
}
