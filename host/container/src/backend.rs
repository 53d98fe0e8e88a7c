//! The container backend: `exec` of `/bin/sh -c SOURCE` in the workspace's
//! container, bracketed by a push of the workspace into the container's
//! mount and a pull of the changes back.

use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use bollard::Docker;
use computer_runtime::serialize::{lossy, millis};
use computer_runtime::{Event, OutputChannel, OutputSink, RunLease, RunStatus};
use computer_store::{DurableRun, NewRun, NodeKind, OnInterrupt, RunEnd, Workspace};
use serde::Serialize;
use serde_json::Value;

use crate::command::{self, Command, Control, Ran, RunError, Stop};
use crate::config::{ContainerConfig, MOUNT_POINT};
use crate::engine;
use crate::error::ContainerError;
use crate::lifecycle::{self, ContainerState, Spec};
use crate::state::{WsState, workspace_file_id};
use crate::sync::{
    Manifest, Owner, Stamp, SyncReport, Syncer, Watcher, manifest_log_path, manifest_stamp,
    open_root,
};

/// How long a container run's record stays claimed without renewal.
const RUN_LEASE: Duration = Duration::from_secs(15);

/// Name of this backend in results and run records.
pub const CONTAINER_BACKEND: &str = "container";
/// Exit code of a command stopped by its timeout (as `timeout(1)`).
pub const EXIT_TIMEOUT: i32 = 124;
/// Exit code of a killed command (as a shell's SIGINT).
pub const EXIT_CANCELLED: i32 = 130;

/// Options of one container exec.
#[derive(Debug, Clone)]
pub struct ContainerExecOptions {
    /// Working directory in the workspace (absolute; an existing directory).
    /// It is `/workspace/...` in the container. Default `/`.
    pub cwd: Option<String>,
    /// Variables added to the image's environment (the host's are never passed).
    pub env: BTreeMap<String, String>,
    /// `$1`, `$2`, ... of the script.
    pub args: Vec<String>,
    pub stdin: Vec<u8>,
    /// Wall-clock limit: then TERM, KILL after the grace period, exit 124.
    pub timeout: Duration,
    /// Output kept and streamed per stream; the rest is dropped with a marker.
    pub stdout_bytes: usize,
    pub stderr_bytes: usize,
    /// A caller-chosen run id, unique per workspace.
    pub id: Option<String>,
    /// Overrides the configured image.
    pub image: Option<String>,
}

impl Default for ContainerExecOptions {
    fn default() -> Self {
        ContainerExecOptions {
            cwd: None,
            env: BTreeMap::new(),
            args: Vec::new(),
            stdin: Vec::new(),
            timeout: Duration::from_secs(60),
            stdout_bytes: 1 << 20,
            stderr_bytes: 1 << 20,
            id: None,
            image: None,
        }
    }
}

/// How an exec ended, on any backend (the container's, or the shell's when
/// `auto` did not fall back). The shape of the runtime's `RunResult`, plus
/// the sync counts.
#[derive(Debug, Clone, Serialize)]
pub struct ExecResult {
    pub run_id: String,
    /// The backend that ran the code: `container`, or `shell` under `auto`.
    pub backend: String,
    pub status: RunStatus,
    pub exit_code: i32,
    #[serde(serialize_with = "lossy")]
    pub stdout: Vec<u8>,
    #[serde(serialize_with = "lossy")]
    pub stderr: Vec<u8>,
    pub value: Option<Value>,
    /// Why the host ended the run or could not run it.
    pub error: Option<String>,
    #[serde(serialize_with = "millis")]
    pub duration: Duration,
    /// Host entries the push wrote or removed before the command.
    pub pushed: u64,
    /// Workspace changes the pull made after it.
    pub pulled: u64,
    /// Entries not synced back (special files, read-only subtrees, ...).
    pub skipped: u64,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub skipped_paths: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub container: Option<ContainerRunInfo>,
    /// Where a container exec's time went.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timings: Option<Timings>,
    /// Set when `auto` ran the code here after the shell could not.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fallback: Option<Fallback>,
}

/// Which container ran the command.
#[derive(Debug, Clone, Serialize)]
pub struct ContainerRunInfo {
    pub name: String,
    pub image: String,
    /// The container was created for this exec (a cold start).
    pub created: bool,
}

/// Phases of a container exec.
#[derive(Debug, Clone, Copy, Default, Serialize)]
pub struct Timings {
    /// Copying the workspace into the container's mount.
    #[serde(serialize_with = "millis")]
    pub push: Duration,
    /// Creating and starting the container (0 when it was running).
    #[serde(serialize_with = "millis")]
    pub start: Duration,
    /// The command, from creating the exec to its exit code.
    #[serde(serialize_with = "millis")]
    pub run: Duration,
    /// Applying the container's changes to the workspace.
    #[serde(serialize_with = "millis")]
    pub pull: Duration,
    /// The pull looked only at what the change watch (inotify) saw change;
    /// false: it scanned the whole copy.
    pub watched: bool,
}

/// The first attempt of an `auto` exec, when it was retried elsewhere.
#[derive(Debug, Clone, Serialize)]
pub struct Fallback {
    pub from: String,
    pub run_id: String,
    pub exit_code: i32,
    pub reason: String,
}

impl From<computer_runtime::RunResult> for ExecResult {
    fn from(r: computer_runtime::RunResult) -> Self {
        ExecResult {
            run_id: r.run_id,
            backend: r.backend,
            status: r.status,
            exit_code: r.exit_code,
            stdout: r.stdout,
            stderr: r.stderr,
            value: r.value,
            error: r.error,
            duration: r.duration,
            pushed: 0,
            pulled: 0,
            skipped: 0,
            skipped_paths: Vec::new(),
            container: None,
            timings: None,
            fallback: None,
        }
    }
}

/// A container exec in progress.
pub struct ContainerRun {
    run_id: String,
    events: Receiver<Event>,
    thread: JoinHandle<ExecResult>,
    cancel: Arc<AtomicBool>,
}

impl ContainerRun {
    pub fn run_id(&self) -> &str {
        &self.run_id
    }

    /// The next event; `None` once the run has ended and all were read.
    pub fn next_event(&self) -> Option<Event> {
        self.events.recv().ok()
    }

    pub fn events(&self) -> &Receiver<Event> {
        &self.events
    }

    /// Stops the command: TERM, then KILL after the grace period; exit 130.
    pub fn kill(&self) {
        self.cancel.store(true, Ordering::SeqCst);
    }

    /// Waits for the end of the run (its changes pulled back).
    pub fn wait(self) -> ExecResult {
        let id = self.run_id.clone();
        self.thread
            .join()
            .unwrap_or_else(|_| failed(&id, 1, "the run's host thread panicked".into()))
    }
}

pub(crate) fn failed(run_id: &str, exit_code: i32, error: String) -> ExecResult {
    ExecResult {
        run_id: run_id.to_owned(),
        backend: CONTAINER_BACKEND.to_owned(),
        status: RunStatus::Failed,
        exit_code,
        stdout: Vec::new(),
        stderr: Vec::new(),
        value: None,
        error: Some(error),
        duration: Duration::ZERO,
        pushed: 0,
        pulled: 0,
        skipped: 0,
        skipped_paths: Vec::new(),
        container: None,
        timings: None,
        fallback: None,
    }
}

/// A connected engine.
struct Engine {
    docker: Docker,
    addr: String,
    rootless: bool,
}

struct Inner {
    config: ContainerConfig,
    rt: tokio::runtime::Runtime,
    engine: Mutex<Option<Arc<Engine>>>,
    running: Mutex<HashMap<String, Arc<AtomicBool>>>,
    manifests: Mutex<HashMap<PathBuf, (Stamp, Manifest)>>,
    /// The change watch of each copy (keyed by the copy's path), kept
    /// between execs; taken out while an exec of that copy runs.
    watchers: Mutex<HashMap<PathBuf, Watcher>>,
    /// The next pull acts as if the event queue overflowed (for tests).
    break_watch: AtomicBool,
    /// Copies this backend has run a command on, and whether a change
    /// watch can be set up on them (false: it failed, not tried again).
    copies: Mutex<HashMap<PathBuf, bool>>,
    progress: Arc<dyn Fn(&str) + Send + Sync>,
}

/// The container backend. Cheap to clone; one per process is enough.
#[derive(Clone)]
pub struct ContainerBackend {
    inner: Arc<Inner>,
}

/// What `stop` did.
#[derive(Debug, Clone, Default, Serialize)]
pub struct StopReport {
    pub container: String,
    /// A container was removed.
    pub removed: bool,
    /// The synced copy was deleted.
    pub copy_removed: bool,
}

/// What `status` knows.
#[derive(Debug, Clone, Serialize)]
pub struct Status {
    /// The engine address, when one is configured or found.
    pub engine: Option<String>,
    /// Why the engine cannot be used, if it cannot.
    pub engine_error: Option<String>,
    /// The container's name (whether or not it exists).
    pub name: String,
    pub container: Option<ContainerState>,
    pub image: String,
    pub idle_timeout_secs: u64,
    /// Where the synced copy lives on the host.
    pub copy_dir: String,
    /// Entries in the synced copy, per its manifest.
    pub synced_entries: usize,
    /// The workspace revision the copy matches, if known.
    pub synced_rev: Option<u64>,
}

impl ContainerBackend {
    /// A backend with these settings. Nothing is contacted until the first
    /// exec (or [`connect`](Self::connect)).
    pub fn new(config: ContainerConfig) -> Result<Self, ContainerError> {
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .thread_name("computer-container")
            .enable_all()
            .build()
            .map_err(|e| ContainerError::Engine(format!("cannot start the I/O runtime: {e}")))?;
        Ok(ContainerBackend {
            inner: Arc::new(Inner {
                config,
                rt,
                engine: Mutex::new(None),
                running: Mutex::new(HashMap::new()),
                manifests: Mutex::new(HashMap::new()),
                watchers: Mutex::new(HashMap::new()),
                break_watch: AtomicBool::new(false),
                copies: Mutex::new(HashMap::new()),
                progress: Arc::new(|line: &str| tracing::info!("{line}")),
            }),
        })
    }

    /// A backend configured from `COMPUTER_CONTAINER_*` variables.
    pub fn from_env() -> Result<Self, ContainerError> {
        Self::new(ContainerConfig::from_env()?)
    }

    /// Where image pull progress goes (default: `tracing` at info level).
    /// Call before sharing the backend.
    pub fn with_progress(mut self, progress: impl Fn(&str) + Send + Sync + 'static) -> Self {
        if let Some(inner) = Arc::get_mut(&mut self.inner) {
            inner.progress = Arc::new(progress);
        }
        self
    }

    pub fn config(&self) -> &ContainerConfig {
        &self.inner.config
    }

    /// True if an engine is configured (`DOCKER_HOST`, or a socket found),
    /// without contacting it.
    pub fn engine_configured(&self) -> bool {
        engine::engine_address(self.inner.config.docker_host.as_deref()).is_some()
    }

    /// Connects to the engine (once per process); returns its address.
    pub fn connect(&self) -> Result<String, ContainerError> {
        Ok(self.engine()?.addr.clone())
    }

    fn engine(&self) -> Result<Arc<Engine>, ContainerError> {
        let mut slot = self.inner.engine.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(e) = &*slot {
            return Ok(e.clone());
        }
        let explicit = self.inner.config.docker_host.clone();
        let engine = self.inner.rt.block_on(async move {
            let (docker, addr) = engine::connect(explicit.as_deref()).await?;
            let rootless = engine::is_rootless(&docker).await;
            Ok::<_, ContainerError>(Engine {
                docker,
                addr,
                rootless,
            })
        })?;
        let engine = Arc::new(engine);
        *slot = Some(engine.clone());
        Ok(engine)
    }

    /// Starts `/bin/sh -c source` in the workspace's container and records
    /// the run in the workspace. Fails at once, with nothing recorded, when
    /// no engine answers ([`ContainerError::NoEngine`], exit code 125).
    pub fn exec(
        &self,
        ws: Arc<Workspace>,
        source: &str,
        options: ContainerExecOptions,
    ) -> Result<ContainerRun, ContainerError> {
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
            "memory_bytes": self.inner.config.memory_bytes,
            "network": self.inner.config.network.as_deref().unwrap_or("none"),
        })
        .to_string();
        // Owned by this process while it runs: if the process dies mid-exec,
        // `recover` fails the run as "may have taken effect" (a command is
        // never run twice).
        ws.runs().create_durable(
            &NewRun {
                id: &run_id,
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
        let (tx, rx) = mpsc::channel();
        let this = self.clone();
        let source = source.to_owned();
        let thread_cancel = cancel.clone();
        let thread_id = run_id.clone();
        let thread = std::thread::Builder::new()
            .name(format!("run {run_id}"))
            .spawn(move || {
                let _guard = guard;
                let _lease = RunLease::hold(ws.clone(), &thread_id, RUN_LEASE);
                computer_store::set_actor(format!("run:{thread_id}/{CONTAINER_BACKEND}"));
                let result = this.run_once(&ws, &source, &options, &thread_id, &thread_cancel, &tx);
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
            .map_err(|e| ContainerError::Engine(format!("cannot start a run thread: {e}")))?;
        Ok(ContainerRun {
            run_id,
            events: rx,
            thread,
            cancel,
        })
    }

    /// Stops a run of this backend: exit 130. False if no such run is running here.
    pub fn kill(&self, run_id: &str) -> bool {
        let running = self.inner.running.lock().unwrap_or_else(|p| p.into_inner());
        match running.get(run_id) {
            Some(flag) => {
                flag.store(true, Ordering::SeqCst);
                true
            }
            None => false,
        }
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
    ) -> ExecResult {
        let started = Instant::now();
        let stdout = OutputSink::new(OutputChannel::Stdout, options.stdout_bytes, events.clone());
        let stderr = OutputSink::new(OutputChannel::Stderr, options.stderr_bytes, events.clone());
        let mut report = SyncReport::default();
        let mut info = None;
        let mut timings = Timings::default();
        let outcome = match validate(ws, options) {
            Ok(cwd) => self.attempt(
                ws,
                source,
                options,
                &cwd,
                run_id,
                cancel,
                (&stdout, &stderr),
                &mut report,
                (&mut info, &mut timings),
            ),
            Err(e) => Err(e),
        };
        let (status, exit_code, error) = match outcome {
            Ok(ran) => self.judge(ran, options),
            Err(e) => (RunStatus::Failed, e.exit_code(), Some(e.to_string())),
        };
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
        ExecResult {
            run_id: run_id.to_owned(),
            backend: CONTAINER_BACKEND.to_owned(),
            status,
            exit_code,
            stdout: stdout.finish(),
            stderr: stderr.finish(),
            value: None,
            error,
            duration: started.elapsed(),
            pushed: report.pushed,
            pulled: report.pulled,
            skipped: report.skipped.len() as u64,
            skipped_paths: report.skipped,
            container: info,
            timings: Some(timings),
            fallback: None,
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
                    self.inner.config.memory_bytes >> 20
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

    /// The user commands run as, and who the synced files belong to.
    fn identity(&self, engine: &Engine) -> (String, Option<Owner>) {
        let euid = rustix::process::geteuid().as_raw();
        let egid = rustix::process::getegid().as_raw();
        let chown = euid == 0 && !engine.rootless;
        if let Some(user) = &self.inner.config.user {
            let owner = user.split_once(':').and_then(|(u, g)| {
                Some(Owner {
                    uid: u.parse().ok()?,
                    gid: g.parse().ok()?,
                })
            });
            return (user.clone(), owner.filter(|_| chown));
        }
        if engine.rootless {
            ("0:0".to_owned(), None)
        } else if euid == 0 {
            (
                "1000:1000".to_owned(),
                Some(Owner {
                    uid: 1000,
                    gid: 1000,
                }),
            )
        } else {
            (format!("{euid}:{egid}"), None)
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn attempt(
        &self,
        ws: &Workspace,
        source: &str,
        options: &ContainerExecOptions,
        cwd: &str,
        run_id: &str,
        cancel: &AtomicBool,
        (stdout, stderr): (&OutputSink, &OutputSink),
        report: &mut SyncReport,
        (info, timings): (&mut Option<ContainerRunInfo>, &mut Timings),
    ) -> Result<Ran, ContainerError> {
        let config = &self.inner.config;
        let engine = self.engine()?;
        let st = WsState::for_workspace(ws, &config.state_root());
        st.create_dirs()?;
        let _lock = st.lock()?;
        st.touch_heartbeat();
        let root = open_root(&st.root).map_err(|e| ContainerError::sync(st.root.display(), e))?;
        let file_id = workspace_file_id(ws);
        let mut manifest = self.load_manifest(&st, &file_id, &root)?;
        // Put back only after a successful pull: a failed one may have
        // consumed changes it did not apply.
        let mut watcher = self.take_watcher(&st.root);
        let (user, owner) = self.identity(&engine);
        let image = options.image.as_deref().unwrap_or(&config.image);
        let spec = Spec {
            name: st.container_name(),
            image,
            user: &user,
            root: &st.root,
            control: &st.control,
            identity: &st.identity,
            config,
        };
        let fingerprint = spec.fingerprint();
        let pending = st.dir.join("pending");
        let known =
            std::fs::read_to_string(st.dir.join("container")).ok() == Some(fingerprint.clone());

        // A run that crashed after its command started left changes behind:
        // they took effect, so they are pulled before anything else.
        if let Ok(prev) = std::fs::read_to_string(&pending) {
            let mut recovered = SyncReport::default();
            // The crashed run was not watched: scan the whole copy.
            if let Some(w) = watcher.as_mut() {
                w.take(&root);
            }
            let retry = Syncer {
                ws,
                root: &root,
                manifest: &mut manifest,
                owner,
                mount: MOUNT_POINT,
                report: &mut recovered,
            }
            .pull(None, None)?;
            if let Some(w) = watcher.as_mut() {
                w.recheck(retry);
            }
            self.save_manifest(&st, &mut manifest)?;
            let _ = std::fs::remove_file(&pending);
            stderr.push_always(
                format!(
                    "computer: pulled {} change(s) left by the interrupted container run {}\n",
                    recovered.pulled,
                    prev.trim()
                )
                .as_bytes(),
            );
            report.skipped.extend(recovered.skipped);
        }

        // Push while the container is (re)created, if it has to be.
        let progress = self.inner.progress.clone();
        let docker = engine.docker.clone();
        let rt = &self.inner.rt;
        let ensure = || rt.block_on(lifecycle::ensure(&docker, &spec, &*progress));
        let pushed_before = manifest.rev;
        let (push, created) = std::thread::scope(|s| {
            let creating = (!known).then(|| {
                s.spawn(|| {
                    let t = Instant::now();
                    (ensure(), t.elapsed())
                })
            });
            let t = Instant::now();
            let push = Syncer {
                ws,
                root: &root,
                manifest: &mut manifest,
                owner,
                mount: MOUNT_POINT,
                report,
            }
            .push();
            timings.push = t.elapsed();
            let created = creating.map(|h| {
                let (r, took) = h.join().unwrap_or_else(|_| {
                    (
                        Err(ContainerError::Engine("container set-up panicked".into())),
                        Duration::ZERO,
                    )
                });
                timings.start = took;
                r
            });
            (push, created)
        });
        // Recording what the copy now holds is part of the push's cost.
        let t = Instant::now();
        if report.pushed > 0 || manifest.rev != pushed_before {
            self.save_manifest(&st, &mut manifest)?;
        }
        timings.push += t.elapsed();
        push?;
        // Watch the copy while the command runs (new watches for what the
        // push created; a fresh watcher if there is none).
        let t = Instant::now();
        if watcher.as_ref().is_some_and(Watcher::is_broken) {
            watcher = None;
        }
        match watcher.as_mut() {
            Some(w) => w.drain(&root),
            None => watcher = self.start_watcher(&st.root, &root),
        }
        timings.push += t.elapsed();
        let mut created = match created {
            Some(r) => {
                let c = r?;
                let _ = std::fs::write(st.dir.join("container"), &fingerprint);
                c
            }
            None => false,
        };
        // Newer than the watchdog's first mark.
        st.touch_heartbeat();
        let rev_at_push = manifest.rev;

        let mut argv = vec![
            "/bin/sh".to_owned(),
            "-c".to_owned(),
            source.to_owned(),
            "sh".to_owned(),
        ];
        argv.extend(options.args.iter().cloned());
        let env: Vec<String> = options
            .env
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect();
        let container_cwd = if cwd == "/" {
            MOUNT_POINT.to_owned()
        } else {
            format!("{MOUNT_POINT}{cwd}")
        };
        let heartbeat = || st.touch_heartbeat();
        // Well inside the watchdog's window, so a long command keeps it alive.
        let beat_every =
            (config.idle_timeout / 4).clamp(Duration::from_millis(100), Duration::from_secs(60));
        std::fs::write(&pending, run_id).map_err(|e| ContainerError::sync(pending.display(), e))?;

        let mut tries = 0;
        let t = Instant::now();
        let ran = loop {
            tries += 1;
            let cmd = Command {
                container: &spec.name,
                argv: argv.clone(),
                env: env.clone(),
                cwd: container_cwd.clone(),
                user: &user,
                stdin: &options.stdin,
            };
            let ctl = Control {
                timeout: options.timeout,
                grace: config.kill_grace,
                cancel,
                heartbeat: &heartbeat,
                heartbeat_every: beat_every,
            };
            match rt.block_on(command::run(&engine.docker, cmd, ctl, stdout, stderr)) {
                Ok(ran) => break Ok(ran),
                // It died (or idled out) since we last used it: replace it once.
                Err(RunError::Gone(why)) if tries == 1 => {
                    tracing::info!(container = %spec.name, "container gone ({why}); creating it again");
                    let t = Instant::now();
                    let ensured = rt.block_on(lifecycle::ensure(&engine.docker, &spec, &*progress));
                    timings.start += t.elapsed();
                    match ensured {
                        Ok(c) => {
                            created = c;
                            let _ = std::fs::write(st.dir.join("container"), &fingerprint);
                            st.touch_heartbeat();
                        }
                        Err(e) => break Err(e),
                    }
                }
                Err(RunError::Gone(why)) => break Err(ContainerError::Engine(why)),
                Err(RunError::Engine(e)) => break Err(e),
            }
        };
        timings.run = t.elapsed().saturating_sub(timings.start);
        *info = Some(ContainerRunInfo {
            name: spec.name.clone(),
            image: image.to_owned(),
            created,
        });

        // Whatever happened, pull what the command did.
        let pulled_before = report.pulled;
        let rev_before = manifest.rev;
        let t = Instant::now();
        if let Some(w) = watcher.as_mut()
            && self.inner.break_watch.swap(false, Ordering::SeqCst)
        {
            w.set_broken();
        }
        let changes = watcher.as_mut().and_then(|w| w.take(&root));
        timings.watched = changes.as_ref().is_some_and(|d| !d.is_everything());
        let pull = Syncer {
            ws,
            root: &root,
            manifest: &mut manifest,
            owner,
            mount: MOUNT_POINT,
            report,
        }
        .pull(rev_at_push, changes.as_ref());
        let pull = match pull {
            Ok(retry) => {
                if let Some(mut w) = watcher {
                    w.recheck(retry);
                    self.put_watcher(&st.root, w);
                }
                Ok(())
            }
            Err(e) => Err(e),
        };
        let changed = report.pulled != pulled_before || manifest.rev != rev_before || pull.is_err();
        if changed || !report.skipped.is_empty() {
            self.save_manifest(&st, &mut manifest)?;
        }
        self.keep_manifest(&st, manifest);
        timings.pull = t.elapsed();
        if pull.is_ok() {
            let _ = std::fs::remove_file(&pending);
        }
        st.touch_heartbeat();
        match (ran, pull) {
            (Ok(ran), Ok(())) => Ok(ran),
            (Ok(ran), Err(e)) => Err(ContainerError::Sync(format!(
                "the command ran (exit {}) but its changes could not all be synced back: {e}",
                ran.exit_code
                    .map_or("unknown".to_owned(), |c| c.to_string())
            ))),
            (Err(e), _) => Err(e),
        }
    }

    /// Most copies one backend keeps a change watch on (each is an inotify
    /// instance; the kernel allows 128 per user by default).
    const MAX_WATCHERS: usize = 32;

    fn take_watcher(&self, root: &std::path::Path) -> Option<Watcher> {
        self.inner
            .watchers
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .remove(root)
    }

    fn put_watcher(&self, root: &std::path::Path, w: Watcher) {
        let mut map = self
            .inner
            .watchers
            .lock()
            .unwrap_or_else(|p| p.into_inner());
        if map.len() < Self::MAX_WATCHERS {
            map.insert(root.to_path_buf(), w);
        }
    }

    /// A change watch on every directory of the copy, or `None` (then
    /// the pull scans the whole copy): on the first exec of a copy in this
    /// backend (a one-shot process would pay for the watches and never
    /// use them), when inotify is not available, when a watch cannot be
    /// added (`max_user_watches`; then this copy is not tried again by
    /// this backend), or with `COMPUTER_CONTAINER_WATCH=0`.
    fn start_watcher(&self, path: &std::path::Path, root: &cap_std::fs::Dir) -> Option<Watcher> {
        if std::env::var_os("COMPUTER_CONTAINER_WATCH").is_some_and(|v| v == "0") {
            return None;
        }
        let full = self
            .inner
            .watchers
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .len()
            >= Self::MAX_WATCHERS;
        {
            let mut copies = self.inner.copies.lock().unwrap_or_else(|p| p.into_inner());
            match copies.get(path) {
                Some(true) if !full => {}
                Some(_) => return None,
                None => {
                    copies.insert(path.to_path_buf(), true);
                    return None;
                }
            }
        }
        let t = Instant::now();
        match Watcher::start(root) {
            Ok(w) => {
                tracing::debug!(
                    "watching {} directories of the copy (set up in {:?})",
                    w.watches(),
                    t.elapsed()
                );
                Some(w)
            }
            Err(e) => {
                tracing::warn!(
                    "no change watch on {} ({e}): its pulls scan the whole copy",
                    path.display()
                );
                self.inner
                    .copies
                    .lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .insert(path.to_path_buf(), false);
                None
            }
        }
    }

    /// Makes the next pull of this backend act as if the change watch's
    /// event queue overflowed during the command: it scans the whole copy
    /// (and the watch is set up again). For tests of that fallback.
    #[doc(hidden)]
    pub fn break_change_watch(&self) {
        self.inner.break_watch.store(true, Ordering::SeqCst);
    }

    /// The manifest for this copy; a missing or foreign one means the copy
    /// is rebuilt from scratch.
    fn load_manifest(
        &self,
        st: &WsState,
        file_id: &str,
        root: &cap_std::fs::Dir,
    ) -> Result<Manifest, ContainerError> {
        let stamp = manifest_stamp(&st.manifest);
        {
            let mut cache = self
                .inner
                .manifests
                .lock()
                .unwrap_or_else(|p| p.into_inner());
            if let Some((s, m)) = cache.remove(&st.manifest)
                && s == stamp
                && m.workspace == file_id
            {
                return Ok(m);
            }
        }
        if let Some(m) = Manifest::load(&st.manifest, file_id) {
            return Ok(m);
        }
        // Unknown contents: start over.
        let entries = root
            .entries()
            .map_err(|e| ContainerError::sync(st.root.display(), e))?;
        for entry in entries.flatten() {
            let name = entry.file_name();
            let gone = match entry.file_type() {
                Ok(ft) if ft.is_dir() => root.remove_dir_all(&name),
                _ => root.remove_file(&name),
            };
            gone.map_err(|e| ContainerError::sync(st.root.display(), e))?;
        }
        Ok(Manifest::new(file_id.to_owned()))
    }

    fn save_manifest(&self, st: &WsState, m: &mut Manifest) -> Result<(), ContainerError> {
        m.save(&st.manifest)
    }

    /// Keeps the manifest in memory for the next exec, valid while its
    /// files stay as they are now.
    fn keep_manifest(&self, st: &WsState, m: Manifest) {
        self.inner
            .manifests
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .insert(st.manifest.clone(), (manifest_stamp(&st.manifest), m));
    }

    /// Removes the workspace's container (stopping whatever runs in it) and
    /// deletes its synced copy. The next exec starts cold.
    pub fn stop(&self, ws: &Workspace) -> Result<StopReport, ContainerError> {
        let st = WsState::for_workspace(ws, &self.inner.config.state_root());
        let engine = self.engine()?;
        let name = st.container_name();
        let removed = self
            .inner
            .rt
            .block_on(lifecycle::remove(&engine.docker, &name))?;
        let mut copy_removed = false;
        if st.dir.exists() {
            // Wait for a command that was running to finish its pull.
            let _lock = st.lock()?;
            for p in [&st.root, &st.control] {
                if p.exists() {
                    std::fs::remove_dir_all(p).map_err(|e| ContainerError::sync(p.display(), e))?;
                    copy_removed = true;
                }
            }
            for f in [
                st.manifest.clone(),
                manifest_log_path(&st.manifest),
                st.dir.join("container"),
                st.dir.join("pending"),
            ] {
                let _ = std::fs::remove_file(f);
            }
            self.inner
                .manifests
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .remove(&st.manifest);
        }
        self.take_watcher(&st.root);
        self.inner
            .copies
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .remove(&st.root);
        Ok(StopReport {
            container: name,
            removed,
            copy_removed,
        })
    }

    /// The engine, the container and the synced copy of this workspace.
    pub fn status(&self, ws: &Workspace) -> Status {
        let config = &self.inner.config;
        let st = WsState::for_workspace(ws, &config.state_root());
        let name = st.container_name();
        let (engine, engine_error, container) = match self.engine() {
            Ok(e) => match self.inner.rt.block_on(lifecycle::inspect(&e.docker, &name)) {
                Ok(c) => (Some(e.addr.clone()), None, c),
                Err(err) => (Some(e.addr.clone()), Some(err.to_string()), None),
            },
            Err(err) => (
                engine::engine_address(config.docker_host.as_deref()),
                Some(err.to_string()),
                None,
            ),
        };
        let manifest = Manifest::load(&st.manifest, &workspace_file_id(ws));
        Status {
            engine,
            engine_error,
            name,
            container,
            image: config.image.clone(),
            idle_timeout_secs: config.idle_timeout.as_secs(),
            copy_dir: st.root.display().to_string(),
            synced_entries: manifest.as_ref().map_or(0, |m| m.entries.len()),
            synced_rev: manifest.and_then(|m| m.rev),
        }
    }
}

/// Checks the options; returns the canonical cwd.
fn validate(ws: &Workspace, options: &ContainerExecOptions) -> Result<String, ContainerError> {
    if options.timeout.is_zero() {
        return Err(ContainerError::InvalidOption(
            "the timeout must be above zero".into(),
        ));
    }
    for key in options.env.keys() {
        if key.is_empty() || key.contains('=') || key.contains('\0') {
            return Err(ContainerError::InvalidOption(format!(
                "invalid environment variable name {key:?}"
            )));
        }
    }
    let cwd = options.cwd.clone().unwrap_or_else(|| "/".to_owned());
    let canonical = ws.realpath(&cwd)?;
    if ws.stat(&canonical)?.kind != NodeKind::Directory {
        return Err(ContainerError::InvalidOption(format!(
            "cwd {cwd} is not a directory"
        )));
    }
    Ok(canonical)
}

/// Releases a run id when its run ends.
struct RunningGuard {
    inner: Arc<Inner>,
    run_id: String,
}

impl Drop for RunningGuard {
    fn drop(&mut self) {
        self.inner
            .running
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .remove(&self.run_id);
    }
}
