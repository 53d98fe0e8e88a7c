//! A container exec: its run record, its thread, its result.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Sender;
use std::time::{Duration, Instant};

use computer_runtime::{
    EXIT_CANCELLED, EXIT_TIMEOUT, Event, Extras, Killer, OutputChannel, OutputSink, RunHandle,
    RunLease, RunResult, RunSlot, RunStatus, SyncStats,
};
use computer_store::{DurableRun, NewRun, OnInterrupt, RunEnd, Workspace};
use serde::Serialize;
use serde_json::Value;

use super::attempt::{Account, Attempt};
use super::options::{ContainerExecOptions, validate};
use super::{CONTAINER_BACKEND, ContainerBackend, RUN_LEASE, RunningGuard};
use crate::command::{Ran, Stop};
use crate::error::ContainerError;

impl ContainerBackend {
    /// Starts `/bin/sh -c source` in the workspace's container and records
    /// the run in the workspace. Fails at once, with nothing recorded, when
    /// no engine answers ([`ContainerError::NoEngine`], exit code 125).
    pub fn exec(
        &self,
        ws: Arc<Workspace>,
        source: &str,
        options: ContainerExecOptions,
    ) -> Result<RunHandle, ContainerError> {
        self.exec_in_slot(ws, source, options, None)
    }

    /// As [`exec`](Self::exec), holding `slot` (a runtime's run slot,
    /// [`computer_runtime::Runtime::run_slot`]) until the run ends.
    pub fn exec_in_slot(
        &self,
        ws: Arc<Workspace>,
        source: &str,
        options: ContainerExecOptions,
        slot: Option<RunSlot>,
    ) -> Result<RunHandle, ContainerError> {
        let cwd = validate(&ws, &options)?;
        self.engine()?;
        let run_id = options
            .id
            .clone()
            .unwrap_or_else(computer_runtime::generate_run_id);
        computer_store::validate_run_id(&run_id)?;
        let cancel = Arc::new(AtomicBool::new(false));
        {
            let mut running = self.inner.running.lock().unwrap_or_else(|p| p.into_inner());
            if running.contains_key(&run_id) {
                return Err(ContainerError::InvalidOption(format!(
                    "run id {run_id} is already running"
                )));
            }
            running.insert(run_id.clone(), cancel.clone());
        }
        let guard = RunningGuard {
            inner: self.inner.clone(),
            run_id: run_id.clone(),
        };
        self.record(&ws, source, &options, &cwd, &run_id)?;
        let this = self.clone();
        let source = source.to_owned();
        let thread_id = run_id.clone();
        let kill_flag = cancel.clone();
        let kill: Killer = Arc::new(move || kill_flag.store(true, Ordering::SeqCst));
        RunHandle::spawn(&run_id, CONTAINER_BACKEND, kill, move |tx| {
            let _slot = slot;
            let _guard = guard;
            let _lease = RunLease::hold(ws.clone(), &thread_id, RUN_LEASE);
            computer_store::set_actor(format!("run:{thread_id}/{CONTAINER_BACKEND}"));
            // A read-only run's pull is refused change by change (EROFS),
            // which the pull reports as skipped and undoes in the copy.
            let _scope = ws.run_scope(options.read_only).enter();
            let result = this.run_once(&ws, &source, &options, &thread_id, &cancel, &tx);
            let value = result.value.as_ref().map(Value::to_string);
            if let Err(e) = ws.runs().finish(
                &thread_id,
                &RunEnd {
                    status: result.status,
                    exit_code: Some(result.exit_code),
                    value: value.as_deref(),
                    error: result.error.as_deref(),
                    stdout: &result.stdout,
                    stderr: &result.stderr,
                },
            ) {
                tracing::error!(run = %thread_id, "cannot record the end of the run: {e}");
            }
            let _ = tx.send(Event::Exit {
                code: result.exit_code,
                value: None,
            });
            result
        })
        .map_err(|e| ContainerError::Engine(e.to_string()))
    }

    /// Creates the run's record (owned by this process) and its audit row.
    fn record(
        &self,
        ws: &Workspace,
        source: &str,
        options: &ContainerExecOptions,
        cwd: &str,
        run_id: &str,
    ) -> Result<(), ContainerError> {
        let image = options
            .image
            .clone()
            .unwrap_or_else(|| self.inner.config.image.clone());
        let options_json = serde_json::json!({
            "cwd": cwd,
            "args": options.args,
            "env": options.env.keys().collect::<Vec<_>>(),
            "timeout_ms": options.timeout.as_millis() as u64,
            "image": image,
            "memory_bytes": options.memory_bytes.unwrap_or(self.inner.config.memory_bytes),
            "network": self.inner.config.network.as_deref().unwrap_or("none"),
            "read_only": options.read_only,
        })
        .to_string();
        // Owned by this process while it runs: if the process dies mid-exec,
        // `recover` fails the run as "may have taken effect" (a command is
        // never run twice).
        ws.runs().create_durable(
            &NewRun {
                id: run_id,
                backend: CONTAINER_BACKEND,
                source,
                options: &options_json,
            },
            &DurableRun {
                on_interrupt: OnInterrupt::Fail,
                spec: None,
                owner: RunLease::owner(),
                lease: RUN_LEASE,
            },
        )?;
        ws.audit().event(
            "exec",
            CONTAINER_BACKEND,
            Some(serde_json::json!({
                "run_id": run_id,
                "cwd": cwd,
                "args": options.args,
                "env": computer_store::redact_env(&options.env),
                "source": computer_store::summarize_text(source),
                "image": image,
            })),
            "ok",
            None,
            Duration::ZERO,
        );
        Ok(())
    }

    /// One container exec, start to end, on the calling thread: push, run,
    /// pull. Streams output to `events` (but not the final `Exit`) and
    /// records nothing in the run table. This is the unit a journal records
    /// as unsafe to repeat: once it has started, the command may have taken
    /// effect.
    pub fn run_once(
        &self,
        ws: &Workspace,
        source: &str,
        options: &ContainerExecOptions,
        run_id: &str,
        cancel: &AtomicBool,
        events: &Sender<Event>,
    ) -> RunResult {
        let started = Instant::now();
        let stdout = OutputSink::new(OutputChannel::Stdout, options.stdout_bytes, events.clone());
        let stderr = OutputSink::new(OutputChannel::Stderr, options.stderr_bytes, events.clone());
        let mut acct = Account::default();
        let outcome = match validate(ws, options) {
            Ok(cwd) => {
                let attempt = Attempt {
                    ws,
                    source,
                    options,
                    cwd: &cwd,
                    run_id,
                    cancel,
                    stdout: &stdout,
                    stderr: &stderr,
                };
                self.attempt(&attempt, &mut acct)
            }
            Err(e) => Err(e),
        };
        let (status, exit_code, error) = match outcome {
            Ok(ran) => self.judge(ran, options),
            Err(e) => (RunStatus::Failed, e.exit_code(), Some(e.to_string())),
        };
        let report = acct.report;
        for line in report.skipped.iter().take(20) {
            stderr.push_always(format!("computer: {line}\n").as_bytes());
        }
        if report.skipped.len() > 20 {
            stderr.push_always(
                format!(
                    "computer: ... and {} more entries not synced\n",
                    report.skipped.len() - 20
                )
                .as_bytes(),
            );
        }
        if let Some(err) = &error {
            stderr.push_always(format!("computer: {err}\n").as_bytes());
        }
        let mut details = serde_json::Map::new();
        if let Some(info) = acct.info
            && let Ok(v) = serde_json::to_value(info)
        {
            details.insert("container".to_owned(), v);
        }
        RunResult {
            run_id: run_id.to_owned(),
            backend: CONTAINER_BACKEND.to_owned(),
            status,
            exit_code,
            stdout: stdout.finish(),
            stderr: stderr.finish(),
            value: None,
            error,
            duration: started.elapsed(),
            extras: Extras {
                sync: Some(SyncStats {
                    pushed: report.pushed,
                    pulled: report.pulled,
                    skipped: report.skipped.len() as u64,
                    skipped_paths: report.skipped,
                    timings: Some(acct.timings),
                }),
                fallback: None,
                details,
            },
        }
    }

    fn judge(&self, ran: Ran, options: &ContainerExecOptions) -> (RunStatus, i32, Option<String>) {
        match (ran.stop, ran.exit_code) {
            (Some(Stop::TimedOut), _) => (
                RunStatus::TimedOut,
                EXIT_TIMEOUT,
                Some(format!("timed out after {:?}", options.timeout)),
            ),
            (Some(Stop::Cancelled), _) => (
                RunStatus::Cancelled,
                EXIT_CANCELLED,
                Some("cancelled".into()),
            ),
            (None, Some(0)) => (RunStatus::Completed, 0, None),
            (None, Some(137)) => (
                RunStatus::Failed,
                137,
                Some(format!(
                    "killed by SIGKILL (the container's memory limit is {} MiB)",
                    options
                        .memory_bytes
                        .unwrap_or(self.inner.config.memory_bytes)
                        >> 20
                )),
            ),
            (None, Some(code)) => (RunStatus::Failed, i32::try_from(code).unwrap_or(1), None),
            (None, None) => (
                RunStatus::Failed,
                1,
                Some("the engine did not report the command's exit code".into()),
            ),
        }
    }
}

/// Which container ran the command (`"container"` in a result's JSON).
#[derive(Debug, Clone, Serialize, serde::Deserialize)]
pub struct ContainerRunInfo {
    /// The container's name.
    pub name: String,
    /// Its image.
    pub image: String,
    /// The engine's address (empty in results recorded before it was kept).
    #[serde(default)]
    pub engine: String,
    /// The container was created for this exec (a cold start).
    pub created: bool,
}

impl ContainerRunInfo {
    /// The container facts of a container run's result.
    pub fn of(result: &RunResult) -> Option<Self> {
        serde_json::from_value(result.extras.details.get("container")?.clone()).ok()
    }
}
