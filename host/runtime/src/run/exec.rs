//! `exec`: one run of a guest component, on its own thread, streaming
//! events and ending in a `RunResult` that is also recorded in the workspace.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use computer_store::{DurableRun, NewRun, NodeKind, OnInterrupt, RunEnd, RunStatus, Workspace};
use serde::Serialize;
use serde_json::Value;
use wasmtime::component::ResourceTable;
use wasmtime::{Store, UpdateDeadline};
use wasmtime_wasi::WasiCtx;
use wasmtime_wasi::p2::pipe::MemoryInputPipe;

use crate::bindings::RunRequest;
use crate::durable::journal::{self, Journal, JournalMonotonicClock, JournalWallClock};
use crate::durable::lease::{self, LeaseKeeper};
use crate::durable::runs::RunSpec;
use crate::error::ExecError;
use crate::run::limits::{Limits, MemoryLimiter};
use crate::run::output::{Channel, GuestStream, Sink};
use crate::run::run_id;
use crate::run::state::{RunState, Stop};
use crate::{Guest, GuestSlot, Inner, Runtime};

/// Exit code of a run stopped by its timeout (as `timeout(1)`).
pub const EXIT_TIMEOUT: i32 = 124;
/// Exit code of a killed run (as a shell's SIGINT).
pub const EXIT_CANCELLED: i32 = 130;
/// Exit code reported for a run parked at an interrupt (`EX_TEMPFAIL`):
/// it has not ended; it waits for an answer.
pub const EXIT_WAITING: i32 = 75;

/// Options of one exec.
#[derive(Debug, Clone, Default)]
pub struct ExecOptions {
    /// Backend name (`js`, or a registered guest).
    pub backend: String,
    /// Absolute working directory; must be an existing directory. Default `/`.
    pub cwd: Option<String>,
    /// The run's whole environment: the host's is never passed through.
    pub env: BTreeMap<String, String>,
    /// The program name, `argv[0]` [default: the backend name].
    pub program: Option<String>,
    /// Arguments after the program name.
    pub args: Vec<String>,
    pub stdin: Vec<u8>,
    /// JSON input, given to the guest as text (validated here).
    pub input: Option<String>,
    /// Overrides the runtime's default limits for this run.
    pub limits: Option<Limits>,
    /// A caller-chosen run id, unique per workspace.
    pub id: Option<String>,
    /// Overrides the runtime's (and the backend's) `on_interrupt`.
    pub on_interrupt: Option<OnInterrupt>,
}

/// What a run streams while it goes on. `Exit` comes exactly once, last.
#[derive(Debug, Clone, PartialEq)]
pub enum Event {
    Stdout(Vec<u8>),
    Stderr(Vec<u8>),
    Exit { code: i32, value: Option<Value> },
}

/// How a run ended.
#[derive(Debug, Clone, Serialize)]
pub struct RunResult {
    pub run_id: String,
    pub backend: String,
    pub status: RunStatus,
    pub exit_code: i32,
    #[serde(serialize_with = "lossy")]
    pub stdout: Vec<u8>,
    #[serde(serialize_with = "lossy")]
    pub stderr: Vec<u8>,
    pub value: Option<Value>,
    /// Why the host ended the run, when it did (timeout, memory, trap).
    pub error: Option<String>,
    #[serde(serialize_with = "millis")]
    pub duration: Duration,
}

/// Serializers of run results, shared with backends outside the runtime
/// (containers) so every backend's result has the same JSON shape.
pub mod serialize {
    use std::time::Duration;

    /// Output bytes as (lossy) UTF-8 text.
    pub fn lossy<S: serde::Serializer>(b: &[u8], s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&String::from_utf8_lossy(b))
    }

    /// A duration as fractional milliseconds.
    pub fn millis<S: serde::Serializer>(d: &Duration, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_f64(d.as_secs_f64() * 1000.0)
    }
}
use serialize::{lossy, millis};

/// A run in progress.
pub struct RunHandle {
    run_id: String,
    events: Receiver<Event>,
    thread: JoinHandle<RunResult>,
}

impl RunHandle {
    pub fn run_id(&self) -> &str {
        &self.run_id
    }

    /// The next event; `None` once the run has ended and all were read.
    pub fn next_event(&self) -> Option<Event> {
        self.events.recv().ok()
    }

    /// The event stream, for iteration.
    pub fn events(&self) -> &Receiver<Event> {
        &self.events
    }

    /// Waits for the end of the run.
    pub fn wait(self) -> RunResult {
        let id = self.run_id.clone();
        self.thread.join().unwrap_or_else(|_| RunResult {
            run_id: id,
            backend: String::new(),
            status: RunStatus::Failed,
            exit_code: 1,
            stdout: Vec::new(),
            stderr: Vec::new(),
            value: None,
            error: Some("the run's host thread panicked".into()),
            duration: Duration::ZERO,
        })
    }
}

/// Releases the concurrency slot and the kill switch when the run ends.
pub(crate) struct Slot {
    pub inner: Arc<Inner>,
    pub run_id: String,
}

impl Drop for Slot {
    fn drop(&mut self) {
        self.inner.active.fetch_sub(1, Ordering::SeqCst);
        self.inner
            .running
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .remove(&self.run_id);
    }
}

impl Runtime {
    /// Starts a run of `source` on `options.backend` against `workspace`.
    /// Everything that makes the run impossible is an `ExecError` here;
    /// everything that happens once it runs is in the `RunResult`.
    pub fn exec(
        &self,
        workspace: Arc<Workspace>,
        source: &str,
        options: ExecOptions,
    ) -> Result<RunHandle, ExecError> {
        let config = &self.inner.config;
        let limits = options.limits.clone().unwrap_or_else(|| Limits {
            memory_bytes: config
                .backend_memory
                .get(&options.backend)
                .copied()
                .unwrap_or(config.limits.memory_bytes),
            ..config.limits.clone()
        });
        check_size("source", source.len(), limits.source_bytes)?;
        if let Some(input) = &options.input {
            check_size("input", input.len(), limits.input_bytes)?;
            serde_json::from_str::<Value>(input)
                .map_err(|e| ExecError::InvalidInput(e.to_string()))?;
        }
        if limits.memory_bytes == 0 || limits.timeout.is_zero() {
            return Err(ExecError::InvalidOption(
                "timeout and memory limits must be above zero".into(),
            ));
        }
        let guest = self.guest(&options.backend)?;
        let cwd = options.cwd.clone().unwrap_or_else(|| "/".to_owned());
        let canonical_cwd = workspace.realpath(&cwd)?;
        if workspace.stat(&canonical_cwd)?.kind != NodeKind::Directory {
            return Err(ExecError::InvalidOption(format!(
                "cwd {cwd} is not a directory"
            )));
        }
        for key in options.env.keys() {
            if key.is_empty() || key.contains('=') || key.contains('\0') {
                return Err(ExecError::InvalidOption(format!(
                    "invalid environment variable name {key:?}"
                )));
            }
        }

        let run_id = match &options.id {
            Some(id) => id.clone(),
            None => run_id::generate(),
        };
        let on_interrupt = options
            .on_interrupt
            .or_else(|| config.backend_on_interrupt.get(&options.backend).copied())
            .unwrap_or(config.on_interrupt);
        let seed: [u8; 32] = rand::random();
        let spec = (on_interrupt == OnInterrupt::Replay)
            .then(|| RunSpec::new(&options, &cwd, &limits, seed).to_json());
        let cancel = self.claim_slot(&run_id)?;
        let slot = Slot {
            inner: self.inner.clone(),
            run_id: run_id.clone(),
        };
        let options_json = serde_json::json!({
            "cwd": cwd,
            "args": options.args,
            "env": options.env.keys().collect::<Vec<_>>(),
            "input": options.input.is_some(),
            "timeout_ms": limits.timeout.as_millis() as u64,
            "memory_bytes": limits.memory_bytes,
        })
        .to_string();
        workspace.runs().create_durable(
            &NewRun {
                id: &run_id,
                backend: &options.backend,
                source,
                options: &options_json,
            },
            &DurableRun {
                on_interrupt,
                spec: spec.as_deref(),
                owner: lease::owner_id(),
                lease: config.lease,
            },
        )?;

        workspace.audit().event(
            "exec",
            &options.backend,
            Some(serde_json::json!({
                "run_id": run_id,
                "cwd": cwd,
                "args": options.args,
                "env": computer_store::redact_env(&options.env),
                "source": computer_store::summarize_text(source),
            })),
            "ok",
            None,
            Duration::ZERO,
        );
        let job = Job {
            inner: self.inner.clone(),
            guest,
            workspace,
            source: source.to_owned(),
            cwd,
            options,
            limits,
            run_id: run_id.clone(),
            cancel,
            events: None,
            durable: spec.is_some().then_some(seed),
        };
        self.start(job, slot)
    }

    /// Runs `job` on its own thread.
    pub(crate) fn start(&self, mut job: Job, slot: Slot) -> Result<RunHandle, ExecError> {
        let run_id = job.run_id.clone();
        let (tx, rx) = mpsc::channel();
        job.events = Some(tx);
        let thread = std::thread::Builder::new()
            .name(format!("run {run_id}"))
            .spawn(move || {
                let _slot = slot;
                // Everything this run does to the workspace is attributed to it.
                computer_store::set_actor(format!("run:{}/{}", job.run_id, job.options.backend));
                job.run()
            })
            .map_err(|e| ExecError::Engine(format!("cannot start a run thread: {e}")))?;
        Ok(RunHandle {
            run_id,
            events: rx,
            thread,
        })
    }

    pub(crate) fn guest(&self, backend: &str) -> Result<Arc<Guest>, ExecError> {
        let slot = {
            let guests = self.inner.guests.read().unwrap_or_else(|p| p.into_inner());
            match guests.get(backend) {
                Some(slot) => slot.clone(),
                None => {
                    let mut names: Vec<String> = guests.keys().cloned().collect();
                    names.sort();
                    return Err(ExecError::UnknownBackend {
                        name: backend.to_owned(),
                        available: names,
                    });
                }
            }
        };
        match &*slot {
            GuestSlot::Ready(g) => Ok(g.clone()),
            GuestSlot::Lazy { bytes, loaded } => loaded
                .get_or_init(|| {
                    self.inner
                        .load_guest(backend, bytes)
                        .map_err(|e| e.to_string())
                })
                .clone()
                .map_err(|reason| ExecError::BadGuest {
                    name: backend.to_owned(),
                    reason,
                }),
        }
    }

    pub(crate) fn claim_slot(&self, run_id: &str) -> Result<Arc<AtomicBool>, ExecError> {
        let limit = self.inner.config.max_concurrent_runs;
        let prev = self.inner.active.fetch_add(1, Ordering::SeqCst);
        if prev >= limit {
            self.inner.active.fetch_sub(1, Ordering::SeqCst);
            return Err(ExecError::TooManyRuns { limit });
        }
        let flag = Arc::new(AtomicBool::new(false));
        let mut running = self.inner.running.lock().unwrap_or_else(|p| p.into_inner());
        if running.contains_key(run_id) {
            self.inner.active.fetch_sub(1, Ordering::SeqCst);
            return Err(ExecError::InvalidOption(format!(
                "run id {run_id} is already running"
            )));
        }
        running.insert(run_id.to_owned(), flag.clone());
        Ok(flag)
    }
}

fn check_size(what: &'static str, size: usize, limit: usize) -> Result<(), ExecError> {
    if size > limit {
        return Err(ExecError::TooLarge { what, size, limit });
    }
    Ok(())
}

pub(crate) struct Job {
    pub inner: Arc<Inner>,
    pub guest: Arc<Guest>,
    pub workspace: Arc<Workspace>,
    pub source: String,
    pub cwd: String,
    pub options: ExecOptions,
    pub limits: Limits,
    pub run_id: String,
    pub cancel: Arc<AtomicBool>,
    /// Set by `Runtime::start`.
    pub events: Option<mpsc::Sender<Event>>,
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
        Outcome {
            status: RunStatus::Failed,
            exit_code: 1,
            value: None,
            error: Some(error),
            lease_lost: false,
        }
    }
}

impl Job {
    fn run(self) -> RunResult {
        let started = Instant::now();
        let events = self.events.clone().expect("started by Runtime::start");
        let mut stdout = Sink::new(Channel::Stdout, self.limits.stdout_bytes, events.clone());
        let mut stderr = Sink::new(Channel::Stderr, self.limits.stderr_bytes, events.clone());
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
        let lost = Arc::new(AtomicBool::new(false));
        let lease = LeaseKeeper::start(
            self.workspace.clone(),
            self.run_id.clone(),
            self.inner.config.lease,
            lost.clone(),
        );
        let mut outcome = self.call_guest(&stdout, &stderr, journal.clone(), lost);
        drop(lease);
        if let Some(j) = &journal {
            let mut jl = journal::lock(j);
            // The journal's own account of what went wrong is the clearest.
            if let Some(d) = jl.diverged.clone().or_else(|| jl.failure.clone()) {
                outcome = Outcome::failed(d);
            }
            // The rest of the output, then the end (or the parking) of the run.
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
        }
        self.finish(outcome, &stdout, &stderr, &events, started)
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
        if ended
            && let Err(e) = self.workspace.runs().finish(
                &self.run_id,
                &RunEnd {
                    status: outcome.status,
                    exit_code: Some(outcome.exit_code),
                    value: value_text.as_deref(),
                    error: outcome.error.as_deref(),
                    stdout: &stdout,
                    stderr: &stderr,
                },
            )
        {
            tracing::error!(run = %self.run_id, "cannot record the end of the run: {e}");
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
        }
    }

    fn call_guest(
        &self,
        stdout: &Sink,
        stderr: &Sink,
        journal: Option<journal::SharedJournal>,
        lost: Arc<AtomicBool>,
    ) -> Outcome {
        let shell = self.options.backend == crate::SHELL_BACKEND;
        let program = self.options.program.clone().unwrap_or_else(|| {
            // So messages read `bash: NAME: command not found`, as agents expect.
            if shell {
                "bash".to_owned()
            } else {
                self.options.backend.clone()
            }
        });
        let mut argv = vec![program];
        argv.extend(self.options.args.iter().cloned());
        let mut env: Vec<(String, String)> = self
            .options
            .env
            .iter()
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        if shell {
            // Variables the caller set explicitly win over the run's limits.
            for (key, value) in self.limits.shell_env() {
                if !self.options.env.contains_key(key) {
                    env.push((key.to_owned(), value));
                }
            }
        }
        let mut wasi = WasiCtx::builder();
        wasi.args(&argv)
            .envs(&env)
            .stdin(MemoryInputPipe::new(self.options.stdin.clone()))
            .stdout(GuestStream(stdout.clone()))
            .stderr(GuestStream(stderr.clone()))
            .allow_tcp(false)
            .allow_udp(false)
            .allow_ip_name_lookup(false);
        if let (Some(j), Some(seed)) = (&journal, self.durable) {
            // Time comes from the journal and randomness from the run's
            // recorded seed, so a replay sees what the first attempt saw.
            use rand::SeedableRng;
            let mut insecure = seed;
            insecure[0] ^= 0x5a;
            wasi.wall_clock(JournalWallClock(j.clone()))
                .monotonic_clock(JournalMonotonicClock(j.clone()))
                .secure_random(rand::rngs::StdRng::from_seed(seed))
                .insecure_random(rand::rngs::StdRng::from_seed(insecure))
                .insecure_random_seed(u128::from_le_bytes(
                    seed[..16].try_into().expect("16 bytes"),
                ));
        }
        let state = RunState {
            wasi: wasi.build(),
            table: ResourceTable::new(),
            workspace: self.workspace.clone(),
            modules: self.inner.modules.clone(),
            limiter: MemoryLimiter {
                max_memory: self.limits.memory_bytes,
                max_tables: 1_000_000,
                hit: false,
            },
            cancel: self.cancel.clone(),
            deadline: Instant::now() + self.limits.timeout,
            stop: None,
            journal,
        };
        let mut store = Store::new(&self.inner.engine, state);
        store.limiter(|s| &mut s.limiter);
        store.set_epoch_deadline(1);
        store.epoch_deadline_callback(move |mut ctx| {
            let state = ctx.data_mut();
            if lost.load(Ordering::SeqCst) {
                state.stop = Some(Stop::LeaseLost);
                return Err(wasmtime::Error::msg("lease lost"));
            }
            if let Some(j) = &state.journal {
                let mut j = journal::lock(j);
                j.flush_if_stale();
                if j.failure.is_some() || j.diverged.is_some() {
                    drop(j);
                    state.stop = Some(Stop::Journal);
                    return Err(wasmtime::Error::msg("journal failure"));
                }
            }
            if state.cancel.load(Ordering::SeqCst) {
                state.stop = Some(Stop::Cancelled);
                return Err(wasmtime::Error::msg("run cancelled"));
            }
            if Instant::now() >= state.deadline {
                state.stop = Some(Stop::TimedOut);
                return Err(wasmtime::Error::msg("run timed out"));
            }
            Ok(UpdateDeadline::Continue(1))
        });

        let request = RunRequest {
            source: self.source.clone(),
            argv,
            cwd: self.cwd.clone(),
            input_json: self.options.input.clone(),
        };
        let result = self
            .guest
            .pre
            .instantiate(&mut store)
            .and_then(|runner| runner.call_run(&mut store, &request));
        let state = store.data();
        match result {
            Ok(outcome) => {
                let value = match outcome.value_json {
                    None => None,
                    Some(text) if text.len() > self.limits.value_bytes => {
                        return Outcome {
                            status: RunStatus::Failed,
                            exit_code: 1,
                            value: None,
                            error: Some(format!(
                                "the run's value is {} bytes, over the {}-byte limit",
                                text.len(),
                                self.limits.value_bytes
                            )),
                            lease_lost: false,
                        };
                    }
                    Some(text) => match serde_json::from_str(&text) {
                        Ok(v) => Some(v),
                        Err(e) => {
                            return Outcome {
                                status: RunStatus::Failed,
                                exit_code: 1,
                                value: None,
                                error: Some(format!(
                                    "the guest returned a value that is not JSON: {e}"
                                )),
                                lease_lost: false,
                            };
                        }
                    },
                };
                let memory = state.limiter.hit && outcome.exit_code != 0;
                Outcome {
                    status: if outcome.exit_code == 0 {
                        RunStatus::Completed
                    } else {
                        RunStatus::Failed
                    },
                    exit_code: outcome.exit_code,
                    value,
                    error: memory.then(|| memory_message(self.limits.memory_bytes)),
                    lease_lost: false,
                }
            }
            Err(e) => self.failure(e, state),
        }
    }

    fn failure(&self, e: wasmtime::Error, state: &RunState) -> Outcome {
        if let Some(exit) = e.downcast_ref::<wasmtime_wasi::I32Exit>() {
            let code = exit.0;
            return Outcome {
                status: if code == 0 {
                    RunStatus::Completed
                } else {
                    RunStatus::Failed
                },
                exit_code: code,
                value: None,
                error: None,
                lease_lost: false,
            };
        }
        match state.stop {
            Some(Stop::Parked) => Outcome {
                status: RunStatus::Waiting,
                exit_code: EXIT_WAITING,
                value: None,
                error: None,
                lease_lost: false,
            },
            Some(Stop::Diverged | Stop::Journal) => Outcome::failed(crate::error::one_line(&e)),
            Some(Stop::LeaseLost) => Outcome {
                lease_lost: true,
                ..Outcome::failed(
                    "another process took the run over (this process's lease on it ran out)".into(),
                )
            },
            Some(Stop::TimedOut) => Outcome {
                status: RunStatus::TimedOut,
                exit_code: EXIT_TIMEOUT,
                value: None,
                error: Some(format!("timed out after {:?}", self.limits.timeout)),
                lease_lost: false,
            },
            Some(Stop::Cancelled) => Outcome {
                status: RunStatus::Cancelled,
                exit_code: EXIT_CANCELLED,
                value: None,
                error: Some("cancelled".into()),
                lease_lost: false,
            },
            None if state.limiter.hit => Outcome {
                status: RunStatus::Failed,
                exit_code: 1,
                value: None,
                error: Some(memory_message(self.limits.memory_bytes)),
                lease_lost: false,
            },
            None => Outcome {
                status: RunStatus::Failed,
                exit_code: 1,
                value: None,
                error: Some(format!("guest trapped: {}", trap_summary(&e))),
                lease_lost: false,
            },
        }
    }
}

fn memory_message(limit: usize) -> String {
    format!("memory limit exceeded ({} MiB)", limit >> 20)
}

/// What trapped, in one line: the trap's own description when there is one.
fn trap_summary(e: &wasmtime::Error) -> String {
    match e.downcast_ref::<wasmtime::Trap>() {
        Some(t) => t.to_string(),
        None => crate::error::one_line(e),
    }
}
