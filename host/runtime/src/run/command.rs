//! `Runtime::run_command`: a `wasi:cli/command` component (a plain
//! `fn main()` built for wasm32-wasip2) run against a workspace, with argv,
//! environment, cwd and stdin, its output in sinks, the run's memory and
//! time limits, and the exit code it gave (`exit-with-code` included).
//!
//! The command sees the workspace at `/`, a scratch `/tmp` (`$TMPDIR`)
//! and the mounts it is given. It runs on the calling thread, is not
//! journalled as a durable run, and keeps no run record.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::sync::mpsc;
use std::time::Instant;

use computer_store::{RunStatus, Workspace};
use wasmtime::Store;
use wasmtime::component::ResourceTable;
use wasmtime_wasi::WasiCtx;
use wasmtime_wasi::p2::bindings::sync::Command;
use wasmtime_wasi::p2::pipe::MemoryInputPipe;

use crate::Runtime;
use crate::commands::{CommandListing, CommandSpec};
use crate::error::ExecError;
use crate::host::stdio::StdioRoutes;
use crate::host::wasi_fs::{Mount, TMP, WasiFs};
use crate::run::limit_names::LimitNames;
use crate::run::limits::{Limits, MemoryLimiter};
use crate::run::output::{Channel, GuestStream, Sink};
use crate::run::result::{EXIT_TIMEOUT, RunResult, status_of_exit};
use crate::run::state::{Nesting, RunState, Stop, finish_wasi, watched_store};

/// What a command runs with.
#[derive(Debug, Clone, Default)]
pub struct CommandOptions {
    /// `argv[0]` and the rest.
    pub argv: Vec<String>,
    /// Its whole environment (nothing is inherited), in order.
    pub env: Vec<(String, String)>,
    /// The working directory (`/` if empty).
    pub cwd: String,
    /// All of its standard input.
    pub stdin: Vec<u8>,
    /// Its time, memory and output caps.
    pub limits: Limits,
    /// Read-only trees the command sees besides the workspace and `/tmp`.
    pub mounts: Vec<Mount>,
    /// See [`CommandSpec::own_cwd`].
    pub own_cwd: bool,
}

/// Mounts go at absolute paths, never over the whole workspace.
pub(crate) fn validate_mounts(owner: &str, mounts: &[Mount]) -> Result<(), ExecError> {
    for m in mounts {
        if !m.guest_path.starts_with('/') || m.guest_path == "/" {
            return Err(ExecError::InvalidOption(format!(
                "mount path {:?} of {owner} must be an absolute path other than /",
                m.guest_path
            )));
        }
    }
    Ok(())
}

/// The backend name a command's result reports.
const COMMAND_BACKEND: &str = "command";

impl Runtime {
    /// Registers a command component for every workspace: scripts of the
    /// shell call it by `spec.name`, and the `command` backend runs it. A
    /// workspace's own command of the same name shadows it. It is compiled
    /// on first use (or loaded from the component cache).
    pub fn register_command(&self, spec: CommandSpec) -> Result<(), ExecError> {
        computer_store::validate_command_name(&spec.name)?;
        validate_mounts(&spec.name, &spec.mounts)?;
        self.inner.commands.register(spec);
        Ok(())
    }

    /// Every command runs in `workspace` can call: the runtime's and the
    /// workspace's, by name.
    pub fn commands(&self, workspace: &Workspace) -> Result<Vec<CommandListing>, ExecError> {
        self.inner.commands.list(workspace)
    }

    /// Checks that `component` is a `wasi:cli/command` component (or a
    /// wasip1 command module, adapted into one) this runtime can run (and compiles it into the cache), before it is
    /// stored as a command.
    pub fn check_command(&self, name: &str, component: &[u8]) -> Result<(), ExecError> {
        crate::commands::registry::compile(&self.inner, name, component).map(|_| ())
    }

    /// Runs the command component `component` (bytes of a `wasi:cli/command`
    /// component; compiled once and cached) against `workspace`.
    pub fn run_command(
        &self,
        workspace: Arc<Workspace>,
        name: &str,
        component: &[u8],
        options: CommandOptions,
    ) -> Result<RunResult, ExecError> {
        let inner = &self.inner;
        let component = crate::engine::component_cache::load_command(
            &inner.engine,
            name,
            component,
            &crate::engine::component_cache::digest(component),
            &inner.cache_dir,
            inner.config.on_compile.as_ref(),
        )?;
        // It has no run slot (it is not a run), but it holds memory as one.
        let _memory = inner.host_memory.reserve(
            // A WASI program: its private `/tmp` may fill.
            crate::run::host_memory::reservation_of(&options.limits, true),
            options.limits.timeout,
            &AtomicBool::new(false),
        )?;
        let started = Instant::now();
        let (events, _rx) = mpsc::channel();
        let flooded = Arc::new(AtomicBool::new(false));
        let stdout = Sink::new(Channel::Stdout, options.limits.stdout_bytes, events.clone())
            .stop_on_flood(flooded.clone());
        let stderr = Sink::new(Channel::Stderr, options.limits.stderr_bytes, events)
            .stop_on_flood(flooded.clone());
        let mut store = command_store(self, workspace, &options, (&stdout, &stderr), flooded);
        let result = Command::instantiate(&mut store, &component, &inner.linker)
            .and_then(|cmd| cmd.wasi_cli_run().call_run(&mut store));
        store.data_mut().wasi_fs.remove_stale_locks();
        let state = store.data();
        let (exit_code, error) = match result {
            Ok(Ok(())) => (0, None),
            Ok(Err(())) => (1, None),
            Err(e) => ended_by(&e, state, &options.limits),
        };
        let status = match state.stop {
            Some(Stop::TimedOut) => RunStatus::TimedOut,
            _ if error.is_some() && exit_code == 1 => RunStatus::Failed,
            _ => status_of_exit(exit_code),
        };
        if let Some(err) = &error {
            stderr.push_always(format!("computer: {err}\n").as_bytes());
        }
        Ok(RunResult {
            run_id: crate::run::run_id::generate(),
            backend: COMMAND_BACKEND.to_owned(),
            status,
            exit_code,
            stdout: stdout.finish(),
            stderr: stderr.finish(),
            value: None,
            error,
            duration: started.elapsed(),
            extras: Default::default(),
        })
    }
}

/// The exit code and host error of a command that did not return.
fn ended_by(e: &wasmtime::Error, state: &RunState, limits: &Limits) -> (i32, Option<String>) {
    // A library call: the knobs are the `Limits` fields.
    let names = LimitNames::default();
    if let Some(exit) = e.downcast_ref::<wasmtime_wasi::I32Exit>() {
        return (exit.0, None);
    }
    match state.stop {
        Some(Stop::TimedOut) => (EXIT_TIMEOUT, Some(names.timed_out(limits.timeout))),
        Some(Stop::Flooded) => (
            1,
            Some(names.output_flooded(limits.stdout_bytes, limits.stderr_bytes)),
        ),
        _ if state.limiter.hit => (1, Some(names.memory_exceeded(limits.memory_bytes))),
        _ => (
            1,
            Some(format!("command trapped: {}", crate::error::one_line(e))),
        ),
    }
}

fn command_store(
    rt: &Runtime,
    workspace: Arc<Workspace>,
    options: &CommandOptions,
    (stdout, stderr): (&Sink, &Sink),
    flooded: Arc<AtomicBool>,
) -> Store<RunState> {
    let cwd = if options.cwd.is_empty() {
        "/"
    } else {
        options.cwd.as_str()
    };
    let stdio = StdioRoutes::new(
        MemoryInputPipe::new(options.stdin.clone()),
        GuestStream(stdout.clone()),
        GuestStream(stderr.clone()),
    );
    let mut wasi = WasiCtx::builder();
    wasi.args(&options.argv)
        .env("TMPDIR", TMP)
        .envs(&options.env)
        .env("PWD", cwd)
        .initial_cwd(cwd)
        .stdin(stdio.stdin())
        .stdout(stdio.out(1))
        .stderr(stdio.out(2));
    let limits = &options.limits;
    let deadline = Instant::now() + limits.timeout;
    let loopback = crate::host::sockets::Loopback::default();
    let state = RunState {
        http: crate::net::RunHttp::new(workspace.clone(), deadline, None, loopback.clone()),
        wasi: finish_wasi(wasi, None, None),
        stdio,
        table: ResourceTable::new(),
        wasi_fs: WasiFs::new(
            workspace.clone(),
            None,
            Some(limits.memory_bytes as u64),
            &options.mounts,
            (!options.own_cwd).then_some(cwd),
        ),
        workspace,
        modules: rt.inner.modules.clone(),
        limiter: MemoryLimiter::new(limits.memory_bytes),
        cancel: Arc::new(AtomicBool::new(false)),
        flooded,
        deadline,
        stop: None,
        journal: None,
        group: None,
        nesting: Nesting::top(rt.inner.clone(), None, loopback),
    };
    watched_store(&rt.inner, state, None)
}
