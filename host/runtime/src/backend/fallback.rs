//! A backend made of two others: run on the first; when it exits 127
//! (command not found) without having changed the workspace, run the same
//! code on the second. `auto` is this, with the shell first and a
//! container second.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, Sender};
use std::sync::{Arc, Mutex};

use computer_store::{MAX_RUN_ID, Workspace};

use crate::Runtime;
use crate::backend::{Backend, BackendInfo, Commands};
use crate::error::ExecError;
use crate::run::handle::{Killer, RunHandle};
use crate::run::limits::Limits;
use crate::run::options::ExecOptions;
use crate::run::result::{EXIT_NOT_FOUND, Event, Fallback, RunResult};

/// The key of a result's `details` that says a fallback was due and could
/// not run: `{"to": BACKEND, "reason": TEXT}`.
pub const FALLBACK_FAILED: &str = "fallback_failed";

/// Runs on `first`, and on `second` when `first` does not have the command.
pub struct FallbackBackend {
    name: String,
    first: String,
    second: String,
}

impl FallbackBackend {
    /// `name` runs on the backend `first`, falling back to `second`.
    pub fn new(name: &str, first: &str, second: &str) -> Self {
        FallbackBackend {
            name: name.to_owned(),
            first: first.to_owned(),
            second: second.to_owned(),
        }
    }
}

/// True if a run that ended with `exit_code`, with the workspace at
/// `rev_before` before and `rev_after` after, should be retried elsewhere.
pub fn should_fall_back(exit_code: i32, rev_before: Option<u64>, rev_after: Option<u64>) -> bool {
    exit_code == EXIT_NOT_FOUND && rev_before.is_some() && rev_before == rev_after
}

/// The run id of the second attempt: the first's, suffixed with the backend.
fn second_id(first_id: &str, backend: &str) -> String {
    let suffix = format!(".{backend}");
    let keep = first_id.len().min(MAX_RUN_ID.saturating_sub(suffix.len()));
    let mut cut = keep;
    while !first_id.is_char_boundary(cut) {
        cut -= 1;
    }
    format!("{}{suffix}", &first_id[..cut])
}

/// Who stops the attempt that runs now, and whether a kill came.
struct Current {
    cancelled: AtomicBool,
    killer: Mutex<Killer>,
}

impl Backend for FallbackBackend {
    fn info(&self) -> BackendInfo {
        BackendInfo {
            name: self.name.clone(),
            description: format!(
                "runs on `{}`, and again on `{}` when a command is not found there (exit 127)",
                self.first, self.second
            ),
            source: format!("what `{}` takes", self.first),
            commands: Commands::None,
            slow_start: true,
        }
    }

    fn default_limits(&self, rt: &Runtime) -> Limits {
        rt.backend(&self.first)
            .map(|b| b.default_limits(rt))
            .unwrap_or_else(|_| rt.inner.config.limits.clone())
    }

    fn exec(
        &self,
        rt: &Runtime,
        ws: Arc<Workspace>,
        source: &str,
        options: ExecOptions,
    ) -> Result<RunHandle, ExecError> {
        let mut first = options.clone();
        first.backend = self.first.clone();
        let rev_before = ws.rev().ok();
        let handle = rt.exec(ws.clone(), source, first)?;
        let run_id = handle.run_id().to_owned();
        let current = Arc::new(Current {
            cancelled: AtomicBool::new(false),
            killer: Mutex::new(handle.killer()),
        });
        let kill_current = current.clone();
        let kill: Killer = Arc::new(move || {
            kill_current.cancelled.store(true, Ordering::SeqCst);
            let killer = kill_current
                .killer
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .clone();
            killer();
        });
        let attempt = Attempt {
            rt: rt.clone(),
            ws,
            source: source.to_owned(),
            options,
            second: self.second.clone(),
            current,
            rev_before,
        };
        RunHandle::spawn(&run_id, &self.name, kill, move |tx| attempt.run(handle, tx))
    }
}

/// The thread of a fallback run.
struct Attempt {
    rt: Runtime,
    ws: Arc<Workspace>,
    source: String,
    options: ExecOptions,
    second: String,
    current: Arc<Current>,
    rev_before: Option<u64>,
}

impl Attempt {
    fn run(self, handle: RunHandle, tx: Sender<Event>) -> RunResult {
        forward(handle.events(), &tx);
        let mut first = handle.wait();
        let retry = should_fall_back(first.exit_code, self.rev_before, self.ws.rev().ok())
            && !self.current.cancelled.load(Ordering::SeqCst);
        if !retry {
            return self.end(first, None, &tx);
        }
        match self.second(&first, &tx) {
            Ok(result) => result,
            Err((note, reason)) => {
                first.stderr.extend_from_slice(note.as_bytes());
                // So that nothing after this (the exit-127 hint) offers
                // the backend that just failed.
                first.extras.details.insert(
                    FALLBACK_FAILED.into(),
                    serde_json::json!({"to": self.second, "reason": reason}),
                );
                self.end(first, Some(note), &tx)
            }
        }
    }

    /// Runs the code on the second backend; `Err` is the note saying why
    /// not, and the reason alone.
    fn second(&self, first: &RunResult, tx: &Sender<Event>) -> Result<RunResult, (String, String)> {
        let backend = self.rt.backend(&self.second).map_err(|e| {
            let note = format!(
                "computer: command not found in {}, and there is no backend to fall back to: {e}\n",
                first.backend
            );
            (note, e.to_string())
        })?;
        backend.available().map_err(|why| {
            let note = format!(
                "computer: command not found in {}, and the `{}` backend is not available to fall back to: {why}\n",
                first.backend, self.second
            );
            (note, why)
        })?;
        let mut options = self.options.clone();
        options.backend = self.second.clone();
        options.id = Some(second_id(&first.run_id, &self.second));
        let on = backend
            .runs_on(&self.options)
            .map(|on| format!(" ({on})"))
            .unwrap_or_default();
        let _ = tx.send(Event::Stderr(
            format!(
                "computer: exit 127 in {} (command not found); running it on `{}`{on}\n",
                first.backend, self.second
            )
            .into_bytes(),
        ));
        let run = backend
            .exec(&self.rt, self.ws.clone(), &self.source, options)
            .map_err(|e| {
                let note = format!("computer: cannot fall back to `{}`: {e}\n", self.second);
                (note, e.to_string())
            })?;
        *self
            .current
            .killer
            .lock()
            .unwrap_or_else(|p| p.into_inner()) = run.killer();
        if self.current.cancelled.load(Ordering::SeqCst) {
            run.kill();
        }
        forward(run.events(), tx);
        let mut result = run.wait();
        result.extras.fallback = Some(Fallback {
            from: first.backend.clone(),
            run_id: first.run_id.clone(),
            exit_code: first.exit_code,
            reason: format!("command not found on the {} backend", first.backend),
        });
        let _ = tx.send(Event::Exit {
            code: result.exit_code,
            value: result.value.clone(),
        });
        Ok(result)
    }

    fn end(&self, result: RunResult, note: Option<String>, tx: &Sender<Event>) -> RunResult {
        if let Some(note) = note {
            let _ = tx.send(Event::Stderr(note.into_bytes()));
        }
        let _ = tx.send(Event::Exit {
            code: result.exit_code,
            value: result.value.clone(),
        });
        result
    }
}

/// Passes a run's output on, up to (not including) its `Exit`.
fn forward(events: &Receiver<Event>, tx: &Sender<Event>) {
    while let Ok(ev) = events.recv() {
        match ev {
            Event::Exit { .. } => break,
            other => {
                let _ = tx.send(other);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn falls_back_only_on_127_with_an_untouched_workspace() {
        assert!(should_fall_back(127, Some(5), Some(5)));
        assert!(!should_fall_back(127, Some(5), Some(6)));
        assert!(!should_fall_back(1, Some(5), Some(5)));
        assert!(!should_fall_back(127, None, None));
        assert_eq!(second_id("run-1", "vm"), "run-1.vm");
        assert_eq!(second_id(&"x".repeat(128), "vm").len(), 128);
    }
}
