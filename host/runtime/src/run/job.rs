//! One attempt of a run of a guest (a runner, or a command given argv), on
//! the run's own thread: the WASI context and store it gets, the guest
//! call, and how its outcome becomes a `RunResult` recorded in the
//! workspace.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::sync::mpsc;
use std::time::Instant;

use computer_store::{GroupCommit, RunEnd, RunStatus, Workspace};
use serde_json::Value;
use wasmtime::Store;
use wasmtime::component::ResourceTable;
use wasmtime_wasi::WasiCtx;
use wasmtime_wasi::p2::bindings::sync::CommandPre;
use wasmtime_wasi::p2::pipe::MemoryInputPipe;

use crate::Inner;
use crate::backend::guest::Guest;
use crate::bindings::{RunOutcome, RunRequest};
use crate::durable::journal::{self, Journal};
use crate::durable::lease::LeaseKeeper;
use crate::host::stdio::StdioRoutes;
use crate::host::wasi_fs::{Mount, TMP, WasiFs};
use crate::run::limit_names::LimitNames;
use crate::run::limits::{Limits, MemoryLimiter};
use crate::run::options::ExecOptions;
use crate::run::output::{Channel, GuestStream, Sink};
use crate::run::result::{
    EXIT_CANCELLED, EXIT_TIMEOUT, EXIT_WAITING, Event, RunResult, status_of_exit,
};
use crate::run::state::{Nesting, RunState, Stop, finish_wasi, watched_store};

/// What a run runs.
pub(crate) enum Program {
    /// A runner-world guest, given the source.
    Runner {
        guest: Arc<Guest>,
        mounts: Vec<Mount>,
    },
    /// A `wasi:cli/command` component, given argv.
    Command {
        pre: Arc<CommandPre<RunState>>,
        mounts: Vec<Mount>,
    },
}

pub(crate) struct Job {
    pub inner: Arc<Inner>,
    pub program: Program,
    pub workspace: Arc<Workspace>,
    pub source: String,
    pub cwd: String,
    /// `argv[0]` and the rest.
    pub argv: Vec<String>,
    /// The run's environment, with what the backend adds.
    pub env: Vec<(String, String)>,
    pub options: ExecOptions,
    pub limits: Limits,
    pub run_id: String,
    pub cancel: Arc<AtomicBool>,
    /// Set by the output sinks when the guest floods them (see `Sink::stop_on_flood`).
    pub flooded: Arc<AtomicBool>,
    /// The random seed of a durable (journalled) run.
    pub durable: Option<[u8; 32]>,
}

/// What the guest call produced, before it is turned into a result.
struct Outcome {
    status: RunStatus,
    exit_code: i32,
    value: Option<Value>,
    error: Option<String>,
    /// Another process took the run over: its record is not ours to end.
    lease_lost: bool,
}

impl Outcome {
    fn failed(error: String) -> Self {
        Outcome::ended(RunStatus::Failed, 1, Some(error))
    }

    fn ended(status: RunStatus, exit_code: i32, error: Option<String>) -> Self {
        Outcome {
            status,
            exit_code,
            value: None,
            error,
            lease_lost: false,
        }
    }
}

impl Job {
    pub(crate) fn run(self, events: mpsc::Sender<Event>) -> RunResult {
        let started = Instant::now();
        let mut stdout = Sink::new(Channel::Stdout, self.limits.stdout_bytes, events.clone())
            .stop_on_flood(self.flooded.clone())
            .keep_overflow(self.workspace.clone(), &self.run_id);
        let memory_refused = Arc::new(AtomicBool::new(false));
        let mut stderr = Sink::new(Channel::Stderr, self.limits.stderr_bytes, events.clone())
            .stop_on_flood(self.flooded.clone())
            .keep_overflow(self.workspace.clone(), &self.run_id)
            .quiet_oom_noise(memory_refused.clone());
        let journal = match self
            .durable
            .map(|_| Journal::load(self.workspace.clone(), &self.run_id))
        {
            None => None,
            Some(Ok(j)) => Some(Arc::new(std::sync::Mutex::new(j))),
            Some(Err(e)) => {
                let outcome = Outcome::failed(format!("cannot read the run's journal: {e}"));
                return self.finish(outcome, &stdout, &stderr, &events, started);
            }
        };
        if let Some(j) = &journal {
            let mut jl = journal::lock(j);
            let (out, err) = jl.take_prefill();
            stdout.prefill(&out);
            stderr.prefill(&err);
            stdout = stdout.durable(j.clone());
            stderr = stderr.durable(j.clone());
            jl.attach_sinks(stdout.clone(), stderr.clone());
        }
        let group = self
            .inner
            .config
            .group_commit
            .map(|l| GroupCommit::new(l.max_changes, l.max_age));
        if let (Some(g), None) = (&group, &journal) {
            // A durable run's output waits for its journal's commit, which
            // commits the group first; an ephemeral run's is shown at once.
            stdout = stdout.commit_before_showing(self.workspace.clone(), g.clone());
            stderr = stderr.commit_before_showing(self.workspace.clone(), g.clone());
        }
        let lost = Arc::new(AtomicBool::new(false));
        let lease = LeaseKeeper::start(
            self.workspace.clone(),
            self.run_id.clone(),
            self.inner.config.lease,
            lost.clone(),
        );
        let mut outcome = self.call_guest(
            &stdout,
            &stderr,
            journal.clone(),
            (lost, memory_refused),
            group.as_ref(),
        );
        if let Some(g) = &group {
            outcome = self.commit_group(g, outcome);
        }
        stderr.flush_held();
        drop(lease);
        if let Some(j) = &journal {
            outcome = self.settle_journal(j, outcome);
        }
        if self.workspace.is_fenced(&self.run_id) {
            // Whatever this attempt made of it, a write for the run was
            // refused: another process runs it now, and its record is that
            // process's to end.
            outcome = Outcome {
                lease_lost: true,
                ..Outcome::failed(
                    "fenced: another process took the run over (this process's lease on it ran out), \
                     so nothing more of this attempt was recorded"
                        .into(),
                )
            };
        }
        self.finish(outcome, &stdout, &stderr, &events, started)
    }

    /// Commits what the run's group still holds; a run whose changes were
    /// lost fails, saying so (its guest was told they were made).
    fn commit_group(&self, group: &GroupCommit, outcome: Outcome) -> Outcome {
        let _ = self.workspace.commit_group();
        match group.failure() {
            Some(why) => Outcome::failed(format!("the run's changes were lost: {why}")),
            None => outcome,
        }
    }

    /// Writes the rest of a durable run's output, then parks it if it waits.
    fn settle_journal(&self, j: &journal::SharedJournal, mut outcome: Outcome) -> Outcome {
        let mut jl = journal::lock(j);
        // The journal's own account of what went wrong is the clearest.
        if let Some(d) = jl.diverged.clone().or_else(|| jl.failure.clone()) {
            outcome = Outcome::failed(d);
        }
        if let Err(e) = jl.flush_all() {
            outcome = Outcome::failed(format!("cannot record the run's output: {e}"));
        }
        if outcome.status == RunStatus::Waiting {
            let rows = jl.take_pending();
            if let Err(e) = self.workspace.runs().park(&self.run_id, &rows) {
                outcome = Outcome::failed(format!("cannot park the run: {e}"));
            }
        }
        jl.detach_sinks();
        outcome
    }

    fn finish(
        self,
        outcome: Outcome,
        stdout: &Sink,
        stderr: &Sink,
        events: &mpsc::Sender<Event>,
        started: Instant,
    ) -> RunResult {
        if let Some(err) = &outcome.error {
            // Past the cap if need be: the reader must learn why the run stopped.
            stderr.push_always(format!("computer: {err}\n").as_bytes());
        }
        let stdout = stdout.finish();
        let stderr = stderr.finish();
        let value_text = outcome.value.as_ref().map(Value::to_string);
        // A parked run has not ended; a run taken over belongs to its new owner.
        let ended = !matches!(outcome.status, RunStatus::Waiting) && !outcome.lease_lost;
        let mut outcome = outcome;
        if ended {
            let end = RunEnd {
                status: outcome.status,
                exit_code: Some(outcome.exit_code),
                value: value_text.as_deref(),
                error: outcome.error.as_deref(),
                stdout: &stdout,
                stderr: &stderr,
            };
            match record_end(&self.workspace, &self.run_id, &end) {
                Ok(None) => {}
                Ok(Some(note)) => outcome.error = Some(note),
                // The caller must not read "completed" for a run whose record
                // still says `running` (a full disk): say what happened instead.
                Err(unrecorded) => outcome = Outcome::failed(unrecorded),
            }
        }
        let _ = events.send(Event::Exit {
            code: outcome.exit_code,
            value: outcome.value.clone(),
        });
        RunResult {
            run_id: self.run_id,
            backend: self.options.backend,
            status: outcome.status,
            exit_code: outcome.exit_code,
            stdout,
            stderr,
            value: outcome.value,
            error: outcome.error,
            duration: started.elapsed(),
            extras: Default::default(),
        }
    }

    /// The guest's WASI context: argv, environment, stdio, no network, and
    /// for a durable run, clocks and randomness from the journal.
    fn wasi(
        &self,
        stdout: &Sink,
        stderr: &Sink,
        journal: Option<&journal::SharedJournal>,
    ) -> (WasiCtx, StdioRoutes) {
        let stdio = StdioRoutes::new(
            MemoryInputPipe::new(self.options.stdin.clone()),
            GuestStream(stdout.clone()),
            GuestStream(stderr.clone()),
        );
        let mut wasi = WasiCtx::builder();
        wasi.args(&self.argv)
            .envs(&self.env)
            .stdin(stdio.stdin())
            .stdout(stdio.out(1))
            .stderr(stdio.out(2));
        if let Program::Command { .. } = &self.program {
            wasi.env("TMPDIR", TMP)
                .env("PWD", &self.cwd)
                .initial_cwd(&self.cwd);
        }
        (finish_wasi(wasi, journal, self.durable), stdio)
    }

    /// A store for one attempt (see `watched_store`).
    fn store(
        &self,
        (wasi, stdio): (WasiCtx, StdioRoutes),
        journal: Option<journal::SharedJournal>,
        (lost, memory_refused): (Arc<AtomicBool>, Arc<AtomicBool>),
        group: Option<&GroupCommit>,
    ) -> Store<RunState> {
        let mounts: &[Mount] = match &self.program {
            Program::Runner { mounts, .. } | Program::Command { mounts, .. } => mounts,
        };
        let deadline = Instant::now() + self.limits.timeout;
        // One network per attempt: a replay starts from an empty one.
        let loopback = crate::host::sockets::Loopback::default();
        let state = RunState {
            http: crate::net::RunHttp::new(
                self.workspace.clone(),
                deadline,
                journal.clone(),
                loopback.clone(),
            ),
            wasi,
            stdio,
            table: ResourceTable::new(),
            workspace: self.workspace.clone(),
            modules: self.inner.modules.clone(),
            limiter: MemoryLimiter::new(self.limits.memory_bytes).reporting_to(memory_refused),
            cancel: self.cancel.clone(),
            flooded: self.flooded.clone(),
            deadline,
            stop: None,
            wasi_fs: WasiFs::new(
                self.workspace.clone(),
                journal.clone(),
                Some(self.limits.memory_bytes as u64),
                mounts,
                // Runner guests are given the run's cwd in their request.
                None,
            ),
            journal,
            group: group.cloned(),
            nesting: Nesting::top(self.inner.clone(), self.durable, loopback),
        };
        watched_store(&self.inner, state, Some(lost))
    }

    fn call_guest(
        &self,
        stdout: &Sink,
        stderr: &Sink,
        journal: Option<journal::SharedJournal>,
        flags: (Arc<AtomicBool>, Arc<AtomicBool>),
        group: Option<&GroupCommit>,
    ) -> Outcome {
        let wasi = self.wasi(stdout, stderr, journal.as_ref());
        let mut store = self.store(wasi, journal, flags, group);
        // The guest's changes, on this thread, join the group.
        let _entered = group.map(GroupCommit::enter);
        let request = RunRequest {
            source: self.source.clone(),
            argv: self.argv.clone(),
            cwd: self.cwd.clone(),
            input_json: self.options.input.clone(),
        };
        let result = match &self.program {
            Program::Runner { guest, .. } => guest
                .pre
                .instantiate(&mut store)
                .and_then(|runner| runner.call_run(&mut store, &request)),
            Program::Command { pre, .. } => pre
                .instantiate(&mut store)
                .and_then(|cmd| cmd.wasi_cli_run().call_run(&mut store))
                .map(|ended| RunOutcome {
                    exit_code: if ended.is_ok() { 0 } else { 1 },
                    value_json: None,
                }),
        };
        if let Program::Command { .. } = &self.program {
            store.data_mut().wasi_fs.remove_stale_locks();
        }
        let state = store.data();
        match result {
            Ok(outcome) => self.returned(outcome, state),
            Err(e) => self.failure(e, state),
        }
    }

    fn names(&self) -> &LimitNames {
        &self.options.limit_names
    }

    /// A guest that returned from `run`: its exit code and value.
    fn returned(&self, outcome: RunOutcome, state: &RunState) -> Outcome {
        let value = match outcome.value_json {
            None => None,
            Some(text) if text.len() > self.limits.value_bytes => {
                return Outcome::failed(format!(
                    "the run's value is {} bytes, over the {}-byte limit",
                    text.len(),
                    self.limits.value_bytes
                ));
            }
            Some(text) => match serde_json::from_str(&text) {
                Ok(v) => Some(v),
                Err(e) => {
                    return Outcome::failed(format!(
                        "the guest returned a value that is not JSON: {e}"
                    ));
                }
            },
        };
        let memory = state.limiter.hit && outcome.exit_code != 0;
        Outcome {
            value,
            ..Outcome::ended(
                status_of_exit(outcome.exit_code),
                outcome.exit_code,
                memory.then(|| self.names().memory_exceeded(self.limits.memory_bytes)),
            )
        }
    }

    /// A guest that trapped, exited, or was stopped by the host.
    fn failure(&self, e: wasmtime::Error, state: &RunState) -> Outcome {
        if let Some(exit) = e.downcast_ref::<wasmtime_wasi::I32Exit>() {
            return Outcome::ended(status_of_exit(exit.0), exit.0, None);
        }
        match state.stop {
            Some(Stop::Parked) => Outcome::ended(RunStatus::Waiting, EXIT_WAITING, None),
            Some(Stop::Diverged | Stop::Journal) => Outcome::failed(crate::error::one_line(&e)),
            Some(Stop::LeaseLost) => Outcome {
                lease_lost: true,
                ..Outcome::failed(
                    "another process took the run over (this process's lease on it ran out)".into(),
                )
            },
            Some(Stop::TimedOut) => Outcome::ended(
                RunStatus::TimedOut,
                EXIT_TIMEOUT,
                Some(self.names().timed_out(self.limits.timeout)),
            ),
            Some(Stop::Flooded) => Outcome::failed(
                self.names()
                    .output_flooded(self.limits.stdout_bytes, self.limits.stderr_bytes),
            ),
            Some(Stop::Cancelled) => Outcome::ended(
                RunStatus::Cancelled,
                EXIT_CANCELLED,
                Some("cancelled".into()),
            ),
            None if state.limiter.hit => {
                Outcome::failed(self.names().memory_exceeded(self.limits.memory_bytes))
            }
            None => {
                // The summary drops the wasm backtrace; a guest's author wants it.
                tracing::debug!(run = %self.run_id, "guest trapped: {e:?}");
                Outcome::failed(format!("guest trapped: {}", trap_summary(&e)))
            }
        }
    }
}

/// Records the end of a run. When that fails (a full disk, say), records it
/// again without its output, which is most of what the row holds: then
/// `Ok(Some(note))` says so. `Err` when not even that could be recorded.
fn record_end(ws: &Workspace, run_id: &str, end: &RunEnd<'_>) -> Result<Option<String>, String> {
    let Err(first) = ws.runs().finish(run_id, end) else {
        return Ok(None);
    };
    tracing::warn!(run = %run_id, "cannot record the end of the run: {first}");
    let note = format!(
        "the run ended {} (exit {}), but its output could not be recorded: {first}",
        end.status,
        end.exit_code.unwrap_or(1)
    );
    let bare = RunEnd {
        error: Some(&note),
        stdout: &[],
        stderr: &[],
        ..*end
    };
    match ws.runs().finish(run_id, &bare) {
        Ok(()) => Ok(Some(note)),
        Err(second) => {
            tracing::warn!(run = %run_id, "cannot record the end of the run: {second}");
            Err(format!(
                "the run ended {}, but its end could not be recorded ({second}); its record \
                 still says running until this process's lease on it runs out, and then \
                 `recover` replays it from its journal",
                end.status
            ))
        }
    }
}

/// What trapped, in one line: the trap's own description when there is one.
fn trap_summary(e: &wasmtime::Error) -> String {
    match e.downcast_ref::<wasmtime::Trap>() {
        Some(t) => t.to_string(),
        None => crate::error::one_line(e),
    }
}
