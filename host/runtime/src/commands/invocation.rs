//! A command started from inside a run (`commands.invocation.start`): its
//! store, built from the caller's (same workspace, journal, deadline, kill
//! switch, audit actor; the memory the caller has not used), and the thread
//! it runs on, driven through a [`Link`].

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::thread::JoinHandle;
use std::time::Instant;

use computer_store::{GroupCommit, Workspace};
use wasmtime::component::ResourceTable;
use wasmtime_wasi::WasiCtx;

use super::link::{Link, LinkStream, Role, Step};
use super::registry::{Resolved, Start};
use crate::bindings::RunRequest;
use crate::durable::journal::SharedJournal;
use crate::host::stdio::StdioRoutes;
use crate::host::wasi_fs::{TMP, WasiFs};
use crate::run::limits::{MemoryLimiter, MemoryPool};
use crate::run::oom_noise::OomNoise;
use crate::run::output::Channel;
use crate::run::result::{EXIT_CANCELLED, EXIT_TIMEOUT};
use crate::run::state::{Nesting, RunState, Stop, finish_wasi, watched_store};

/// How deep commands may start commands.
pub const MAX_COMMAND_DEPTH: u32 = 8;
/// The least memory a command is started with.
const MIN_MEMORY: usize = 4 << 20;
/// Exit code of a command whose reader went away (bash's for SIGPIPE).
const EXIT_BROKEN_PIPE: i32 = 141;

/// Why a command did not start.
#[derive(Debug)]
pub(crate) enum StartError {
    NotFound,
    TooDeep(u32),
    Failed(String),
}

/// What to start.
pub(crate) struct Request {
    pub name: String,
    pub argv: Vec<String>,
    pub env: Vec<(String, String)>,
    pub cwd: String,
}

/// A running command. Dropping it stops the command and waits for it.
pub struct Invocation {
    link: Arc<Link>,
    thread: Option<JoinHandle<()>>,
}

/// Everything the command's thread needs.
struct Child {
    name: String,
    resolved: Resolved,
    request: Request,
    workspace: Arc<Workspace>,
    journal: Option<SharedJournal>,
    /// The caller's group commit: the command's changes join it.
    group: Option<GroupCommit>,
    nesting: Nesting,
    memory: usize,
    /// The run's memory, shared with the commands alive beside this one.
    pool: Arc<MemoryPool>,
    deadline: Instant,
    cancel: Arc<AtomicBool>,
    flooded: Arc<AtomicBool>,
    actor: String,
    /// The caller's scope (read-only), entered on the command's thread.
    scope: Option<computer_store::RunScope>,
    link: Arc<Link>,
}

impl Invocation {
    pub(crate) fn start(caller: &mut RunState, request: Request) -> Result<Self, StartError> {
        let depth = caller.nesting.depth + 1;
        if depth > MAX_COMMAND_DEPTH {
            return Err(StartError::TooDeep(MAX_COMMAND_DEPTH));
        }
        let inner = caller.nesting.inner.clone();
        let resolving = std::time::Instant::now();
        let resolved = inner
            .commands
            .resolve(&inner, &caller.workspace, &request.name)
            .map_err(|e| StartError::Failed(e.to_string()))?
            .ok_or(StartError::NotFound)?;
        // Loading or compiling the component (once per process) does not
        // count against the run's time: a first `pandoc` compiles for
        // minutes, longer than a default run lasts.
        if resolved.prepared {
            caller.nesting.grace.add(resolving.elapsed());
        }
        let pool = caller.limiter.pool();
        let left = caller.limiter.room();
        if left < MIN_MEMORY {
            return Err(StartError::Failed(format!(
                "no memory left for it: the run and its commands use {} of its {} MiB",
                pool.used() >> 20,
                pool.max() >> 20
            )));
        }
        let link = Arc::new(Link::new(caller.nesting.activity.clone()));
        let child = Child {
            name: request.name.clone(),
            resolved,
            request,
            workspace: caller.workspace.clone(),
            journal: caller.journal.clone(),
            group: caller.group.clone(),
            nesting: Nesting {
                inner,
                depth,
                seed: caller.nesting.next_seed(),
                started: 0,
                pids: caller.nesting.pids.child(),
                loopback: caller.nesting.loopback.clone(),
                activity: Default::default(),
                killed: Some(link.kill_switch()),
                grace: caller.nesting.grace.clone(),
            },
            memory: left,
            pool,
            deadline: caller.deadline,
            cancel: caller.cancel.clone(),
            flooded: caller.flooded.clone(),
            actor: computer_store::current_actor(),
            scope: computer_store::current_scope(),
            link: link.clone(),
        };
        let thread = std::thread::Builder::new()
            .name(format!("computer-command-{}", child.name))
            .spawn(move || child.run())
            .map_err(|e| StartError::Failed(format!("cannot start a thread for it: {e}")))?;
        Ok(Invocation {
            link,
            thread: Some(thread),
        })
    }

    pub(crate) fn next(&self) -> Step {
        self.link.next()
    }

    pub(crate) fn poll_next(&self, wait: std::time::Duration) -> Option<Step> {
        self.link.poll_next(wait)
    }

    pub(crate) fn feed(&self, data: &[u8]) {
        self.link.feed(data)
    }
}

impl Drop for Invocation {
    fn drop(&mut self) {
        self.link.abandon();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

impl Child {
    fn run(self) {
        computer_store::set_actor(self.actor.clone());
        let _scope = self.scope.as_ref().map(computer_store::RunScope::enter);
        self.link.wait_turn();
        let link = self.link.clone();
        let name = self.name.clone();
        let code = match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.call())) {
            Ok(code) => code,
            Err(_) => {
                say(
                    &link,
                    &format!("{name}: the host failed while running it\n"),
                );
                1
            }
        };
        link.exited(code);
    }

    fn wasi(&self, oom_noise: &Arc<OomNoise>) -> (WasiCtx, StdioRoutes) {
        let stream = |role| LinkStream {
            link: self.link.clone(),
            role,
            oom_noise: (role == Role::Out(Channel::Stderr)).then(|| oom_noise.clone()),
        };
        let stdio = StdioRoutes::new(
            stream(Role::Stdin),
            stream(Role::Out(Channel::Stdout)),
            stream(Role::Out(Channel::Stderr)),
        );
        let mut wasi = WasiCtx::builder();
        if !self.request.env.iter().any(|(k, _)| k == "TMPDIR") {
            wasi.env("TMPDIR", TMP);
        }
        wasi.args(&self.request.argv)
            .envs(&self.request.env)
            .env("PWD", &self.request.cwd)
            .initial_cwd(&self.request.cwd)
            .stdin(stdio.stdin())
            .stdout(stdio.out(1))
            .stderr(stdio.out(2));
        (
            finish_wasi(wasi, self.journal.as_ref(), self.nesting.seed),
            stdio,
        )
    }

    /// Runs the command to its end; its exit code.
    fn call(self) -> i32 {
        let memory_refused = Arc::new(AtomicBool::new(false));
        let oom_noise = Arc::new(OomNoise::new(memory_refused.clone()));
        let (wasi, stdio) = self.wasi(&oom_noise);
        let inner = self.nesting.inner.clone();
        let state = RunState {
            http: crate::net::RunHttp::new(
                self.workspace.clone(),
                self.deadline,
                self.journal.clone(),
                self.nesting.loopback.clone(),
            ),
            wasi,
            stdio,
            table: ResourceTable::new(),
            workspace: self.workspace.clone(),
            modules: inner.modules.clone(),
            limiter: MemoryLimiter::in_pool(self.memory, self.pool.clone())
                .reporting_to(memory_refused),
            cancel: self.cancel.clone(),
            flooded: self.flooded.clone(),
            deadline: self.deadline,
            stop: None,
            // `/tmp` is the workspace's, as it is for the shell that called.
            wasi_fs: WasiFs::new(
                self.workspace.clone(),
                self.journal.clone(),
                None,
                &self.resolved.mounts,
                (!self.resolved.own_cwd).then_some(self.request.cwd.as_str()),
            ),
            journal: self.journal.clone(),
            group: self.group.clone(),
            nesting: Nesting {
                inner: inner.clone(),
                depth: self.nesting.depth,
                seed: self.nesting.seed,
                started: 0,
                pids: self.nesting.pids.clone(),
                loopback: self.nesting.loopback.clone(),
                activity: self.nesting.activity.clone(),
                killed: self.nesting.killed.clone(),
                grace: self.nesting.grace.clone(),
            },
        };
        // The shell shows a `/tmp` it only makes on its first write there;
        // a command called from it (Python's `tempfile`, SQLite's spills)
        // must find one.
        state.wasi_fs.ensure_workspace_dir(TMP);
        let mut store = watched_store(&inner, state, None);
        let _entered = self.group.as_ref().map(GroupCommit::enter);
        let result = match &self.resolved.start {
            Start::Component(pre) => pre
                .instantiate(&mut store)
                .and_then(|cmd| cmd.wasi_cli_run().call_run(&mut store))
                .map(|ended| i32::from(ended.is_err())),
            Start::Runner { guest, source } => {
                let request = RunRequest {
                    source: (*source).to_owned(),
                    argv: self.request.argv.clone(),
                    cwd: self.request.cwd.clone(),
                    input_json: None,
                };
                guest
                    .pre
                    .instantiate(&mut store)
                    .and_then(|runner| runner.call_run(&mut store, &request))
                    .map(|outcome| outcome.exit_code)
            }
        };
        store.data_mut().wasi_fs.remove_stale_locks();
        // A last stderr line the filter held (no newline) goes before the
        // host's own line on why the command ended.
        oom_noise.flush(|held| self.link.say(held));
        let code = match result {
            Ok(code) => code,
            Err(e) => self.ended_by(&e, store.data()),
        };
        // Dropping the store commits the command's open files: the caller
        // must see them once it has the exit code.
        drop(store);
        code
    }

    fn ended_by(&self, e: &wasmtime::Error, state: &RunState) -> i32 {
        if let Some(exit) = e.downcast_ref::<wasmtime_wasi::I32Exit>() {
            return exit.0;
        }
        if self.link.is_abandoned() {
            return EXIT_BROKEN_PIPE;
        }
        let name = &self.name;
        match state.stop {
            Some(Stop::TimedOut) => {
                say(&self.link, &format!("{name}: the run timed out\n"));
                EXIT_TIMEOUT
            }
            Some(Stop::Cancelled) => EXIT_CANCELLED,
            Some(_) => 1,
            None if state.limiter.hit => {
                say(
                    &self.link,
                    &format!(
                        "{name}: memory limit exceeded ({} MiB left to it by the run, \
                         shared with the commands running beside it)\n",
                        self.memory >> 20
                    ),
                );
                1
            }
            None => {
                // The whole trap, backtrace included, for whoever debugs
                // the program (COMPUTER_LOG=computer_runtime=debug).
                tracing::debug!("{name}: command trapped: {e:?}");
                say(
                    &self.link,
                    &format!("{name}: command trapped: {}\n", crate::error::one_line(e)),
                );
                1
            }
        }
    }
}

/// A line on the command's stderr from the host.
fn say(link: &Link, text: &str) {
    link.say(text.as_bytes());
}
