//! SIGINT, SIGTERM and SIGHUP while the CLI follows a run (`exec`, `run`,
//! `respond`, `recover`): the user gave up on it, so the run is cancelled
//! and recorded `cancelled` before the process exits with 128 + the signal
//! (130, 143, 129), as a shell reports it. Without this the signal killed
//! the process mid-run, the record stayed `running`, and the next `recover`
//! finished the job the user had aborted. Only a process that dies with no
//! chance to say so (SIGKILL, a crash) leaves a run for `recover`.
//!
//! A second signal while a run is still stopping (a host call that does
//! not return at once) records the run cancelled right away and exits.

use std::sync::{Arc, Mutex, MutexGuard};
use std::thread::JoinHandle;

use computer_runtime::{EXIT_CANCELLED, Killer, RunStatus};
use computer_store::{RunEnd, Workspace};
use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
use signal_hook::iterator::{Handle, Signals};

use crate::error::CliResult;

#[derive(Default)]
struct State {
    /// The runs being followed.
    runs: Vec<(String, Killer)>,
    /// The first signal received.
    got: Option<i32>,
}

/// The handler, from [`Interrupts::install`] until dropped.
pub struct Interrupts {
    state: Arc<Mutex<State>>,
    handle: Handle,
    thread: Option<JoinHandle<()>>,
}

fn lock(state: &Mutex<State>) -> MutexGuard<'_, State> {
    state.lock().unwrap_or_else(|p| p.into_inner())
}

impl Interrupts {
    /// Catches the signals from now on; runs of `ws` given to
    /// [`watch`](Self::watch) are the ones cancelled.
    pub fn install(ws: Arc<Workspace>) -> CliResult<Interrupts> {
        let mut signals = Signals::new([SIGINT, SIGTERM, SIGHUP])?;
        let handle = signals.handle();
        let state = Arc::new(Mutex::new(State::default()));
        let shared = state.clone();
        let thread = std::thread::Builder::new()
            .name("signals".into())
            .spawn(move || {
                for sig in signals.forever() {
                    on_signal(&ws, &shared, sig);
                }
            })?;
        Ok(Interrupts {
            state,
            handle,
            thread: Some(thread),
        })
    }

    /// Cancels run `run_id` (through `killer`) on a signal; at once if one
    /// came while it was starting.
    pub fn watch(&self, run_id: &str, killer: Killer) {
        let mut st = lock(&self.state);
        st.runs.push((run_id.to_owned(), killer.clone()));
        if st.got.is_some() {
            drop(st);
            killer();
        }
    }

    /// The process's exit code if a signal came: 128 + its number.
    pub fn exit_code(&self) -> Option<u8> {
        lock(&self.state).got.map(|sig| 128 + sig as u8)
    }
}

fn on_signal(ws: &Workspace, state: &Mutex<State>, sig: i32) {
    let mut st = lock(state);
    match st.got {
        None => {
            st.got = Some(sig);
            let killers: Vec<Killer> = st.runs.iter().map(|(_, k)| k.clone()).collect();
            drop(st);
            for kill in killers {
                kill();
            }
        }
        Some(first) => {
            for (run_id, _) in &st.runs {
                record_cancelled(ws, run_id, sig);
            }
            eprintln!("computer: interrupted again; the run was recorded cancelled");
            std::process::exit(128 + first);
        }
    }
}

/// Ends a run that has not ended by itself yet as `cancelled`.
fn record_cancelled(ws: &Workspace, run_id: &str, sig: i32) {
    let still_running = ws
        .runs()
        .get(run_id)
        .ok()
        .flatten()
        .is_some_and(|r| r.status == RunStatus::Running);
    if !still_running {
        return;
    }
    let error = format!("cancelled by signal {sig} before it stopped by itself");
    let end = RunEnd {
        exit_code: Some(EXIT_CANCELLED),
        error: Some(&error),
        ..RunEnd::new(RunStatus::Cancelled)
    };
    if let Err(e) = ws.runs().finish(run_id, &end) {
        eprintln!("computer: cannot record run {run_id} as cancelled: {e}");
    }
}

impl Drop for Interrupts {
    fn drop(&mut self) {
        self.handle.close();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}
