//! Runs that outlive an attempt: answering interrupts, resuming a parked
//! or orphaned run by replaying its journal, and recovering the runs of a
//! process that died.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use base64::Engine as _;
use computer_store::{OnInterrupt, RunEnd, RunStatus, Workspace};
use serde::{Deserialize, Serialize};

use crate::Runtime;
use crate::backend::Resume;
use crate::durable::calls::answer_json;
use crate::durable::lease;
use crate::error::ExecError;
use crate::modules::call_context::Answer;
use crate::run::handle::RunHandle;
use crate::run::limits::Limits;
use crate::run::options::ExecOptions;

/// Everything needed to run a durable run again, as recorded with it.
/// (The environment is kept in full: a replay must see what the first
/// attempt saw. It lives in the workspace, next to the run's source.)
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct RunSpec {
    cwd: String,
    env: BTreeMap<String, String>,
    program: Option<String>,
    args: Vec<String>,
    /// base64
    stdin: String,
    input: Option<String>,
    limits: Limits,
    /// hex: the run's random seed.
    seed: String,
    /// Started read-only (absent in older records: writable).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    read_only: bool,
    /// `exec --allow-host` (absent in older records: none).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    allow_hosts: Vec<String>,
}

impl RunSpec {
    pub fn new(options: &ExecOptions, cwd: &str, limits: &Limits, seed: [u8; 32]) -> Self {
        RunSpec {
            cwd: cwd.to_owned(),
            env: options.env.clone(),
            program: options.program.clone(),
            args: options.args.clone(),
            stdin: base64::engine::general_purpose::STANDARD.encode(&options.stdin),
            input: options.input.clone(),
            limits: limits.clone(),
            seed: seed.iter().map(|b| format!("{b:02x}")).collect(),
            read_only: options.read_only,
            allow_hosts: options.allow_hosts.clone(),
        }
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("a run spec always serializes")
    }

    fn parse(text: &str) -> Result<Self, String> {
        serde_json::from_str(text).map_err(|e| format!("its recorded options are unreadable: {e}"))
    }

    /// The options the run was started with.
    fn into_options(self, backend: &str, run_id: &str) -> ExecOptions {
        let stdin = base64::engine::general_purpose::STANDARD
            .decode(&self.stdin)
            .unwrap_or_default();
        ExecOptions {
            backend: backend.to_owned(),
            cwd: Some(self.cwd),
            env: self.env,
            program: self.program,
            args: self.args,
            stdin,
            input: self.input,
            limits: Some(self.limits),
            id: Some(run_id.to_owned()),
            on_interrupt: Some(OnInterrupt::Replay),
            image: None,
            limit_names: Default::default(),
            read_only: self.read_only,
            allow_hosts: self.allow_hosts,
        }
    }

    fn seed(&self) -> Result<[u8; 32], String> {
        let bad = || "its recorded random seed is unreadable".to_owned();
        if self.seed.len() != 64 {
            return Err(bad());
        }
        let mut out = [0u8; 32];
        for (i, b) in out.iter_mut().enumerate() {
            *b = u8::from_str_radix(&self.seed[2 * i..2 * i + 2], 16).map_err(|_| bad())?;
        }
        Ok(out)
    }
}

/// Why run `run_id` could not be claimed: it has ended, or a live
/// process holds it.
fn not_resumable(ws: &Workspace, run_id: &str) -> ExecError {
    match ws.runs().get(run_id) {
        Ok(Some(r)) if r.status.is_ended() => ExecError::InvalidOption(format!(
            "run {run_id} cannot be resumed: it has ended ({})",
            r.status
        )),
        _ => ExecError::RunBusy {
            run_id: run_id.to_owned(),
            holder: "another live process holds its lease and runs it".into(),
        },
    }
}

/// What `recover` did with one unfinished run.
pub enum Recovered {
    /// Resumed here: the run goes on (and may park again).
    Resumed {
        /// The run.
        run_id: String,
        /// Follow it, or wait for its result, as after `exec`.
        handle: RunHandle,
    },
    /// Its owner died and it does not replay (`on_interrupt: "fail"`): marked failed.
    Failed {
        /// The run.
        run_id: String,
    },
    /// Could not be resumed; the run is left as it was.
    Error {
        /// The run.
        run_id: String,
        /// Why, as [`ExecError`] says it.
        error: String,
    },
}

impl Runtime {
    /// Answers the pending interrupt of `call_id` in run `run_id`. Once the
    /// run has no other interrupt waiting, it is resumed here (re-run from
    /// the start with its journal) and its handle returned.
    pub fn respond(
        &self,
        ws: Arc<Workspace>,
        run_id: &str,
        call_id: &str,
        answer: Answer,
    ) -> Result<Option<RunHandle>, ExecError> {
        let started = std::time::Instant::now();
        let answered = ws
            .interrupts()
            .answer(run_id, call_id, &answer_json(&answer))?;
        ws.audit().event(
            "respond",
            &format!("ws:{}.{}", answered.module, answered.function),
            Some(serde_json::json!({
                "run_id": run_id,
                "call_id": call_id,
                "approved": matches!(answer, Answer::Approved(_)),
            })),
            "ok",
            None,
            started.elapsed(),
        );
        // Who decided is the audit row an approval is looked up by later:
        // written now, not left in the buffer a crash of this process loses.
        if let Err(e) = ws.audit().flush() {
            tracing::warn!("cannot write the audit row of answering {call_id}: {e}");
        }
        let others = ws
            .interrupts()
            .pending()?
            .into_iter()
            .any(|p| p.run_id == run_id);
        let waiting = ws
            .runs()
            .get(run_id)?
            .is_some_and(|r| r.status == RunStatus::Waiting);
        if others || !waiting {
            return Ok(None);
        }
        self.resume(ws, run_id).map(Some)
    }

    /// Resumes run `run_id`: it must be waiting, or running with no live
    /// owner. It re-runs from the start; recorded calls return their
    /// recorded results and output already emitted is not emitted again.
    pub fn resume(&self, ws: Arc<Workspace>, run_id: &str) -> Result<RunHandle, ExecError> {
        let config = &self.inner.config;
        let claimed = ws
            .runs()
            .claim(run_id, lease::owner_id(), config.lease, &lease::owner_dead)?
            .ok_or_else(|| not_resumable(&ws, run_id))?;
        let fail = |reason: String| -> ExecError {
            let _ = ws.runs().finish(
                run_id,
                &RunEnd {
                    exit_code: Some(1),
                    error: Some(&reason),
                    ..RunEnd::new(RunStatus::Failed)
                },
            );
            ExecError::InvalidOption(format!("run {run_id} cannot be resumed: {reason}"))
        };
        if claimed.on_interrupt != OnInterrupt::Replay {
            return Err(fail(
                "it was interrupted and its on_interrupt is \"fail\"; it has no journal to replay"
                    .into(),
            ));
        }
        let spec = claimed
            .spec
            .as_deref()
            .ok_or_else(|| "it has no recorded options".to_owned())
            .and_then(RunSpec::parse)
            .map_err(fail)?;
        let seed = spec.seed().map_err(fail)?;
        let backend = match self.backend(&claimed.backend) {
            Ok(b) => b,
            Err(e) => return Err(fail(e.to_string())),
        };
        ws.audit().event(
            "resume",
            &claimed.backend,
            Some(serde_json::json!({"run_id": run_id, "attempt": claimed.attempts})),
            "ok",
            None,
            Duration::ZERO,
        );
        // Each attempt stays on record even if this process dies in it.
        if let Err(e) = ws.audit().flush() {
            tracing::warn!("cannot write the audit row of resuming {run_id}: {e}");
        }
        let options = spec.into_options(&claimed.backend, run_id);
        let resumed = backend.resume(
            self,
            ws.clone(),
            Resume {
                run_id: run_id.to_owned(),
                source: claimed.source,
                options,
                seed,
            },
        );
        if let Err(
            ExecError::TooManyRuns { .. }
            | ExecError::HostMemoryBusy { .. }
            | ExecError::RunTooBig { .. }
            | ExecError::Cancelled,
        ) = &resumed
        {
            // Not started for want of a run slot or host memory: leave it to the next
            // `recover` rather than owned by a process that is not running it.
            let _ = ws.runs().release(run_id, lease::owner_id());
        }
        resumed
    }

    /// Takes over every run whose owner died while it was running, and
    /// every parked run whose interrupts are all answered: replaying runs
    /// are resumed here, the others are marked failed. Runs that a live
    /// process holds are left alone.
    pub fn recover(&self, ws: Arc<Workspace>) -> Result<Vec<Recovered>, ExecError> {
        let mut out = Vec::new();
        for u in ws.runs().unfinished()? {
            let orphaned = u.status == RunStatus::Running
                && match &u.owner {
                    None => true,
                    Some(o) if o == lease::owner_id() => false,
                    Some(o) => {
                        lease::owner_dead(o)
                            || u.lease_until_ns
                                .is_none_or(|t| t < computer_store::now_ns())
                    }
                };
            let answered = u.status == RunStatus::Waiting && u.answered;
            if !orphaned && !answered {
                continue;
            }
            let run_id = u.id.clone();
            if u.on_interrupt == OnInterrupt::Replay {
                match self.resume(ws.clone(), &run_id) {
                    Ok(handle) => out.push(Recovered::Resumed { run_id, handle }),
                    Err(e) => out.push(Recovered::Error {
                        run_id,
                        error: e.to_string(),
                    }),
                }
                continue;
            }
            // Claim it first, so two recovering processes do not both act.
            match ws.runs().claim(
                &run_id,
                lease::owner_id(),
                self.inner.config.lease,
                &lease::owner_dead,
            ) {
                Ok(Some(claimed)) => {
                    let owner = u.owner.as_deref().unwrap_or("unknown");
                    let reason = match self.backend(&claimed.backend) {
                        Ok(b) => b.abandoned(owner),
                        Err(_) => format!(
                            "the process running it ({owner}) died mid-run, and its backend {:?} is not registered here to say more: it may have taken effect, so it was not run again",
                            claimed.backend
                        ),
                    };
                    ws.runs().finish(
                        &run_id,
                        &RunEnd {
                            exit_code: Some(1),
                            error: Some(&reason),
                            ..RunEnd::new(RunStatus::Failed)
                        },
                    )?;
                    out.push(Recovered::Failed { run_id });
                }
                Ok(None) => {}
                Err(e) => out.push(Recovered::Error {
                    run_id,
                    error: e.to_string(),
                }),
            }
        }
        Ok(out)
    }
}
