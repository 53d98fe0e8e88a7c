//! Runner-world guest components as backends: the built-in `js` and
//! `shell`, and the ones users register. A guest is compiled once (or
//! loaded from the component cache), pre-instantiated, and instantiated
//! per run on the run's own thread.

use std::sync::atomic::AtomicBool;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use bytes::Bytes;
use computer_store::{DurableRun, NewRun, NodeKind, OnInterrupt, Workspace};
use serde_json::Value;

use crate::backend::{Backend, BackendInfo, Commands, Resume};
use crate::bindings::RunnerPre;
use crate::commands::registry::Start;
use crate::durable::lease;
use crate::durable::runs::RunSpec;
use crate::error::ExecError;
use crate::host::wasi_fs::Mount;
use crate::run::exec::Slot;
use crate::run::handle::RunHandle;
use crate::run::job::{Job, Program};
use crate::run::limits::Limits;
use crate::run::options::ExecOptions;
use crate::run::run_id;
use crate::run::state::RunState;
use crate::{Inner, Runtime};

/// A compiled, pre-instantiated guest component.
pub(crate) struct Guest {
    pub pre: RunnerPre<RunState>,
}

/// A guest compiled at registration, or a built-in one that is loaded on
/// first use so a process that never runs it never pays for it.
pub(crate) enum GuestSlot {
    Ready(Arc<Guest>),
    Lazy {
        bytes: Bytes,
        /// The bytes' SHA-256, when the build computed it.
        digest: Option<[u8; 32]>,
        loaded: OnceLock<Result<Arc<Guest>, String>>,
    },
    /// The `command` backend: any command component of the workspace or
    /// the runtime, named by the first word of the run's command line.
    Commands,
}

/// Variables derived from a run's limits (the shell's budgets).
pub type LimitsEnv = fn(&Limits) -> Vec<(&'static str, String)>;

/// How a guest backend presents itself and prepares its runs.
#[derive(Clone)]
pub struct GuestProfile {
    /// One line for a model: what it runs and when to use it.
    pub description: String,
    /// What its source is (`bash script`, `ES module`, ...).
    pub source: String,
    /// Which programs its scripts can call.
    pub commands: Commands,
    /// `argv[0]` when the caller gives none [default: the backend name].
    pub program: Option<String>,
    /// Variables a run gets from its limits, unless the caller set them.
    pub limits_env: Option<LimitsEnv>,
    /// Whether its runs write files through WASI (`std::fs`, wasi-libc),
    /// so that the private `/tmp` every run is given (in memory, capped at
    /// its memory limit) may fill: then a run reserves that much more host
    /// memory ([`reservation_of`](crate::reservation_of)). The built-in
    /// shell and JavaScript guests write `/tmp` through the workspace
    /// interface, into the workspace, so theirs stays empty.
    pub wasi_files: bool,
}

impl GuestProfile {
    /// The profile of a user's runner guest.
    pub fn custom() -> Self {
        GuestProfile {
            description: "a custom runner component".into(),
            source: "whatever the component takes".into(),
            commands: Commands::None,
            program: None,
            limits_env: None,
            wasi_files: true,
        }
    }
}

/// What a run starts: the program, and for a command its argv and, for a runner
/// started as a command (`node`), the source that makes it one.
struct Planned {
    program: Program,
    argv: Option<Vec<String>>,
    source: Option<&'static str>,
}

/// A runner-world guest registered as a backend.
pub(crate) struct GuestBackend {
    pub name: String,
    pub slot: GuestSlot,
    pub profile: GuestProfile,
    /// Read-only trees its runs see besides the workspace (Python's
    /// standard library).
    pub mounts: Vec<Mount>,
}

impl GuestBackend {
    /// What a run of `source` runs, and for a command its argv.
    fn program(
        &self,
        rt: &Runtime,
        ws: &Workspace,
        source: &str,
        options: &ExecOptions,
    ) -> Result<Planned, ExecError> {
        if let GuestSlot::Commands = &self.slot {
            let argv = command_line(source, &options.args)?;
            let inner = &rt.inner;
            let resolved = inner
                .commands
                .resolve(inner, ws, &argv[0])?
                .ok_or_else(|| ExecError::CommandNotFound {
                    name: argv[0].clone(),
                })?;
            return Ok(match resolved.start {
                Start::Component(pre) => Planned {
                    program: Program::Command {
                        pre,
                        mounts: resolved.mounts,
                    },
                    argv: Some(argv),
                    source: None,
                },
                // `node`, `sh`: a runner guest started with its command-line source.
                Start::Runner { guest, source } => Planned {
                    program: Program::Runner {
                        guest,
                        mounts: resolved.mounts,
                    },
                    argv: Some(argv),
                    source: Some(source),
                },
            });
        }
        Ok(Planned {
            program: Program::Runner {
                guest: self.guest(&rt.inner)?,
                mounts: self.mounts.clone(),
            },
            argv: None,
            source: None,
        })
    }

    pub(crate) fn guest(&self, inner: &Inner) -> Result<Arc<Guest>, ExecError> {
        match &self.slot {
            GuestSlot::Commands => Err(ExecError::BadGuest {
                name: self.name.clone(),
                reason: "it runs commands, not sources".into(),
            }),
            GuestSlot::Ready(g) => Ok(g.clone()),
            GuestSlot::Lazy {
                bytes,
                digest,
                loaded,
            } => loaded
                .get_or_init(|| {
                    let digest =
                        digest.unwrap_or_else(|| crate::engine::component_cache::digest(bytes));
                    inner
                        .load_guest_digested(&self.name, bytes, &digest)
                        .map_err(|e| e.to_string())
                })
                .clone()
                .map_err(|reason| ExecError::BadGuest {
                    name: self.name.clone(),
                    reason,
                }),
        }
    }

    /// The guest's argv and environment for `options`.
    fn argv_env(
        &self,
        options: &ExecOptions,
        limits: &Limits,
    ) -> (Vec<String>, Vec<(String, String)>) {
        let program = options
            .program
            .clone()
            .or_else(|| self.profile.program.clone())
            .unwrap_or_else(|| self.name.clone());
        let mut argv = vec![program];
        argv.extend(options.args.iter().cloned());
        let mut env: Vec<(String, String)> = options
            .env
            .iter()
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        if let Some(extra) = self.profile.limits_env {
            // Variables the caller set explicitly win over the run's limits.
            for (key, value) in extra(limits) {
                if !options.env.contains_key(key) {
                    env.push((key.to_owned(), value));
                }
            }
        }
        (argv, env)
    }

    #[allow(clippy::too_many_arguments)]
    fn job(
        &self,
        rt: &Runtime,
        planned: Planned,
        ws: Arc<Workspace>,
        source: String,
        options: ExecOptions,
        limits: Limits,
        run_id: String,
        durable: Option<[u8; 32]>,
        (cancel, slot): (Arc<AtomicBool>, Slot),
    ) -> Result<RunHandle, ExecError> {
        let cwd = options.cwd.clone().unwrap_or_else(|| "/".to_owned());
        let (argv, env) = self.argv_env(&options, &limits);
        let argv = planned.argv.unwrap_or(argv);
        let job = Job {
            inner: rt.inner.clone(),
            program: planned.program,
            workspace: ws,
            source: planned.source.map_or(source, str::to_owned),
            cwd,
            argv,
            env,
            options,
            limits,
            run_id: run_id.clone(),
            cancel: cancel.clone(),
            flooded: Arc::new(AtomicBool::new(false)),
            durable,
        };
        let actor = format!("run:{run_id}/{}", self.name);
        let scope = ws_scope(&job)?;
        let kill = Arc::new(move || cancel.store(true, std::sync::atomic::Ordering::SeqCst));
        RunHandle::spawn(&run_id, &self.name, kill, move |events| {
            let _slot = slot;
            // Everything this run does to the workspace is attributed to it.
            computer_store::set_actor(actor);
            // And limited by its options (read-only), on this thread and
            // on each command's (`Invocation` hands the scope on).
            let _scope = scope.enter();
            job.run(events)
        })
    }
}

/// The store-level scope of a job's run (`computer_store::RunScope`):
/// read-only, and the hosts `--allow-host` adds.
fn ws_scope(job: &Job) -> Result<computer_store::RunScope, ExecError> {
    let hosts = computer_store::AllowList::parse(&job.options.allow_hosts)
        .map_err(ExecError::InvalidOption)?;
    Ok(job.workspace.run_scope_with(job.options.read_only, hosts))
}

impl Backend for GuestBackend {
    fn info(&self) -> BackendInfo {
        BackendInfo {
            name: self.name.clone(),
            description: self.profile.description.clone(),
            source: self.profile.source.clone(),
            commands: self.profile.commands.clone(),
            slow_start: false,
        }
    }

    fn prepare(&self, rt: &Runtime) -> Result<(), ExecError> {
        match &self.slot {
            GuestSlot::Lazy { .. } => self.guest(&rt.inner).map(|_| ()),
            GuestSlot::Ready(_) | GuestSlot::Commands => Ok(()),
        }
    }

    fn default_limits(&self, rt: &Runtime) -> Limits {
        let config = &rt.inner.config;
        Limits {
            memory_bytes: config
                .backend_memory
                .get(&self.name)
                .copied()
                .unwrap_or(config.limits.memory_bytes),
            ..config.limits.clone()
        }
    }

    fn exec(
        &self,
        rt: &Runtime,
        ws: Arc<Workspace>,
        source: &str,
        options: ExecOptions,
    ) -> Result<RunHandle, ExecError> {
        let limits = options
            .limits
            .clone()
            .unwrap_or_else(|| self.default_limits(rt));
        validate(&ws, source, &options, &limits)?;
        let program = self.program(rt, &ws, source, &options)?;
        let cwd = options.cwd.clone().unwrap_or_else(|| "/".to_owned());
        let run_id = options.id.clone().unwrap_or_else(run_id::generate);
        let config = &rt.inner.config;
        let on_interrupt = options
            .on_interrupt
            .or_else(|| config.backend_on_interrupt.get(&self.name).copied())
            .unwrap_or(config.on_interrupt);
        let seed: [u8; 32] = rand::random();
        let spec = (on_interrupt == OnInterrupt::Replay)
            .then(|| RunSpec::new(&options, &cwd, &limits, seed).to_json());
        let claim = rt.claim_slot(&run_id, self.reservation(&limits), limits.timeout)?;
        self.record(
            rt,
            &ws,
            source,
            &options,
            &limits,
            &run_id,
            on_interrupt,
            spec.as_deref(),
        )?;
        let mut options = options;
        options.cwd = Some(cwd);
        let durable = spec.is_some().then_some(seed);
        self.job(
            rt,
            program,
            ws,
            source.to_owned(),
            options,
            limits,
            run_id,
            durable,
            claim,
        )
    }

    fn resume(
        &self,
        rt: &Runtime,
        ws: Arc<Workspace>,
        run: Resume,
    ) -> Result<RunHandle, ExecError> {
        let program = self.program(rt, &ws, &run.source, &run.options)?;
        let limits = run
            .options
            .limits
            .clone()
            .unwrap_or_else(|| self.default_limits(rt));
        let claim = rt.claim_slot(&run.run_id, self.reservation(&limits), limits.timeout)?;
        self.job(
            rt,
            program,
            ws,
            run.source,
            run.options,
            limits,
            run.run_id,
            Some(run.seed),
            claim,
        )
    }
}

impl GuestBackend {
    /// The host memory a run with `limits` reserves.
    fn reservation(&self, limits: &Limits) -> u64 {
        crate::reservation_of(limits, self.profile.wasi_files)
    }

    /// Creates the run's record and its audit row.
    #[allow(clippy::too_many_arguments)]
    fn record(
        &self,
        rt: &Runtime,
        ws: &Workspace,
        source: &str,
        options: &ExecOptions,
        limits: &Limits,
        run_id: &str,
        on_interrupt: OnInterrupt,
        spec: Option<&str>,
    ) -> Result<(), ExecError> {
        let cwd = options.cwd.as_deref().unwrap_or("/");
        let options_json = serde_json::json!({
            "cwd": cwd,
            "args": options.args,
            "env": options.env.keys().collect::<Vec<_>>(),
            "input": options.input.is_some(),
            "timeout_ms": limits.timeout.as_millis() as u64,
            "memory_bytes": limits.memory_bytes,
            "read_only": options.read_only,
            "allow_hosts": options.allow_hosts,
        })
        .to_string();
        ws.runs().create_durable(
            &NewRun {
                id: run_id,
                backend: &self.name,
                source,
                options: &options_json,
            },
            &DurableRun {
                on_interrupt,
                spec,
                owner: lease::owner_id(),
                lease: rt.inner.config.lease,
            },
        )?;
        ws.audit().event(
            "exec",
            &self.name,
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
        Ok(())
    }
}

/// Checks what a run is given before anything is recorded.
fn validate(
    ws: &Workspace,
    source: &str,
    options: &ExecOptions,
    limits: &Limits,
) -> Result<(), ExecError> {
    check_size("source", source.len(), limits.source_bytes)?;
    check_size("stdin", options.stdin.len(), limits.input_bytes)?;
    if let Some(input) = &options.input {
        check_size("input", input.len(), limits.input_bytes)?;
        serde_json::from_str::<Value>(input).map_err(|e| ExecError::InvalidInput(e.to_string()))?;
    }
    if limits.memory_bytes == 0 || limits.timeout.is_zero() {
        return Err(ExecError::InvalidOption(
            "timeout and memory limits must be above zero".into(),
        ));
    }
    let cwd = options.cwd.as_deref().unwrap_or("/");
    let canonical = ws.realpath(cwd)?;
    if ws.stat(&canonical)?.kind != NodeKind::Directory {
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
    Ok(())
}

fn check_size(what: &'static str, size: usize, limit: usize) -> Result<(), ExecError> {
    if size > limit {
        return Err(ExecError::TooLarge { what, size, limit });
    }
    Ok(())
}

/// The argv of a command run: the words of `source` (quotes and
/// backslashes as a shell reads them, nothing expanded), then `args`.
fn command_line(source: &str, args: &[String]) -> Result<Vec<String>, ExecError> {
    let mut argv = shell_words::split(source).map_err(|e| {
        ExecError::InvalidOption(format!("cannot read the command line {source:?}: {e}"))
    })?;
    argv.extend(args.iter().cloned());
    match argv.first() {
        None => Err(ExecError::InvalidOption(
            "no command given: the command line is empty".into(),
        )),
        Some(name) => {
            computer_store::validate_command_name(name)
                .map_err(|_| ExecError::CommandNotFound { name: name.clone() })?;
            Ok(argv)
        }
    }
}
