//! The `auto` backend: run in the shell guest first; when the script fails
//! with exit 127 (command not found) before it has changed the workspace,
//! run it again in the container, if an engine is configured.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use computer_runtime::{Event, ExecError, ExecOptions, Runtime, SHELL_BACKEND};
use computer_store::{MAX_RUN_ID, Workspace};

use crate::backend::{ContainerBackend, ContainerExecOptions, ExecResult, Fallback};

/// Name of the backend in options and tool schemas.
pub const AUTO_BACKEND: &str = "auto";
/// The shell's exit code for a command it does not have.
pub const EXIT_NOT_FOUND: i32 = 127;

/// An `auto` exec in progress. Events of both attempts are streamed; the
/// result is the last attempt's, and says which backend ran.
pub struct AutoRun {
    events: Receiver<Event>,
    thread: JoinHandle<ExecResult>,
    state: Arc<KillState>,
}

struct KillState {
    cancelled: AtomicBool,
    runtime: Runtime,
    container: Option<ContainerBackend>,
    current: Mutex<Option<(bool, String)>>,
}

impl AutoRun {
    pub fn next_event(&self) -> Option<Event> {
        self.events.recv().ok()
    }

    pub fn events(&self) -> &Receiver<Event> {
        &self.events
    }

    /// Stops the current attempt (exit 130) and prevents a fallback.
    pub fn kill(&self) {
        self.state.cancelled.store(true, Ordering::SeqCst);
        let current = self
            .state
            .current
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone();
        match current {
            Some((false, id)) => {
                self.state.runtime.kill(&id);
            }
            Some((true, id)) => {
                if let Some(c) = &self.state.container {
                    c.kill(&id);
                }
            }
            None => {}
        }
    }

    pub fn wait(self) -> ExecResult {
        self.thread.join().unwrap_or_else(|_| {
            let mut r = crate::backend::failed("", 1, "the run's host thread panicked".into());
            r.backend = AUTO_BACKEND.to_owned();
            r
        })
    }
}

/// The run id of the container attempt: the shell attempt's, suffixed.
fn fallback_id(shell_id: &str) -> String {
    let suffix = ".container";
    let keep = shell_id.len().min(MAX_RUN_ID - suffix.len());
    let mut cut = keep;
    while !shell_id.is_char_boundary(cut) {
        cut -= 1;
    }
    format!("{}{suffix}", &shell_id[..cut])
}

/// True if an `auto` run that ended with `exit_code`, with the workspace at
/// `rev_before` before and `rev_after` after, should be retried in a container.
pub fn should_fall_back(exit_code: i32, rev_before: Option<u64>, rev_after: Option<u64>) -> bool {
    exit_code == EXIT_NOT_FOUND && rev_before.is_some() && rev_before == rev_after
}

/// Starts an `auto` exec: `shell` (its backend is set to `shell`) first;
/// the container (with `container_options`) when the shell exits 127
/// without having written to the workspace and `container` has an engine.
pub fn auto_exec(
    runtime: &Runtime,
    container: Option<&ContainerBackend>,
    ws: Arc<Workspace>,
    source: &str,
    mut shell: ExecOptions,
    container_options: ContainerExecOptions,
) -> Result<AutoRun, ExecError> {
    shell.backend = SHELL_BACKEND.to_owned();
    let rev_before = ws.rev().ok();
    let handle = runtime.exec(ws.clone(), source, shell)?;
    let state = Arc::new(KillState {
        cancelled: AtomicBool::new(false),
        runtime: runtime.clone(),
        container: container.cloned(),
        current: Mutex::new(Some((false, handle.run_id().to_owned()))),
    });
    let (tx, rx) = mpsc::channel();
    let source = source.to_owned();
    let thread_state = state.clone();
    let thread = std::thread::Builder::new()
        .name(format!("auto {}", handle.run_id()))
        .spawn(move || {
            let state = thread_state;
            forward(handle.events(), &tx);
            let shell = handle.wait();
            let rev_after = ws.rev().ok();
            let retry = should_fall_back(shell.exit_code, rev_before, rev_after)
                && !state.cancelled.load(Ordering::SeqCst);
            let mut note = None;
            if retry {
                match &state.container {
                    Some(c) if c.engine_configured() => {
                        let mut options = container_options;
                        options.id = Some(fallback_id(&shell.run_id));
                        let _ = tx.send(Event::Stderr(
                            b"computer: exit 127 in the shell (command not found); running it in the container\n"
                                .to_vec(),
                        ));
                        match c.exec(ws.clone(), &source, options) {
                            Ok(run) => {
                                *state.current.lock().unwrap_or_else(|p| p.into_inner()) =
                                    Some((true, run.run_id().to_owned()));
                                if state.cancelled.load(Ordering::SeqCst) {
                                    run.kill();
                                }
                                forward(run.events(), &tx);
                                let mut result = run.wait();
                                result.fallback = Some(Fallback {
                                    from: SHELL_BACKEND.to_owned(),
                                    run_id: shell.run_id.clone(),
                                    exit_code: shell.exit_code,
                                    reason: "command not found in the shell backend".into(),
                                });
                                let _ = tx.send(Event::Exit {
                                    code: result.exit_code,
                                    value: None,
                                });
                                return result;
                            }
                            Err(e) => {
                                note = Some(format!(
                                    "computer: cannot fall back to the container: {e}\n"
                                ))
                            }
                        }
                    }
                    _ => {
                        note = Some(
                            "computer: command not found in the shell, and no container engine is configured to fall back to (set DOCKER_HOST)\n"
                                .to_owned(),
                        )
                    }
                }
            }
            let exit = shell.exit_code;
            let value = shell.value.clone();
            let mut result = ExecResult::from(shell);
            if let Some(note) = note {
                let _ = tx.send(Event::Stderr(note.clone().into_bytes()));
                result.stderr.extend_from_slice(note.as_bytes());
            }
            let _ = tx.send(Event::Exit { code: exit, value });
            result
        })
        .map_err(|e| ExecError::Engine(format!("cannot start a run thread: {e}")))?;
    Ok(AutoRun {
        events: rx,
        thread,
        state,
    })
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
        assert_eq!(fallback_id("run-1"), "run-1.container");
        assert_eq!(fallback_id(&"x".repeat(128)).len(), 128);
    }
}
