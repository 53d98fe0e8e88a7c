#![warn(missing_docs)]
//! The execution runtime: a wasmtime host that runs guest components of
//! the `runner` world (`computer:workspace`) against a workspace.
//!
//! One [`Runtime`] per process holds the shared `Engine` (pooling allocator,
//! copy-on-write memory images, epoch interruption), one `InstancePre` per
//! registered guest, and an on-disk cache of compiled components.
//! [`Runtime::exec`] starts a run on its own thread and returns a
//! [`RunHandle`] that streams [`Event`]s and ends in a [`RunResult`].
//!
//! An application embedding it:
//! 1. opens a [`computer_store::Workspace`] and makes a runtime:
//!    [`Runtime::with_builtin_guests`] registers the `js` and `shell`
//!    backends (the crate `computer-builtins` adds python3, git, sqlite3
//!    and curl); [`Runtime::register_backend`] adds its own [`Backend`]s;
//! 2. registers its `ws:` modules on [`Runtime::modules`]: a Rust
//!    [`HostModule`] (or an [`AsyncModule`]), or a [`ComponentModule`];
//!    agent code imports them (`import { postComment } from "ws:github"`);
//! 3. runs code with [`Runtime::exec`]. A module function that needs a
//!    human's approval calls [`CallContext::interrupt`]: the run parks
//!    ([`RunStatus::Waiting`]), the workspace lists it in
//!    `interrupts().pending()`, and [`Runtime::respond`] answers it and
//!    resumes the run by replaying its journal, in this process or a later
//!    one. After a restart, [`Runtime::recover`] takes over the runs a dead
//!    process left.
//!
//! `examples/embed-agent` in the repository is that whole flow, with a
//! restart in the middle.
//!
//! The example below runs JavaScript, so it needs the JS guest built into
//! this crate (`scripts/build-guests.sh` before the build); the first run
//! on a machine compiles it into the component cache.
//!
//! ```
//! use std::sync::Arc;
//! use computer_runtime::{CallContext, ExecOptions, FunctionInfo, HostModule, JS_BACKEND};
//! use computer_runtime::{ModuleCallError, RunStatus, Runtime, RuntimeConfig};
//! use computer_store::{Workspace, WriteOptions};
//! use serde_json::{Value, json};
//!
//! /// `ws:greet`: `hello(name)`, written in Rust.
//! struct Greet;
//! impl HostModule for Greet {
//!     fn functions(&self) -> Vec<FunctionInfo> {
//!         let docs = "Greets someone.".into();
//!         vec![FunctionInfo { name: "hello".into(), params: vec![], result: None, docs }]
//!     }
//!     fn call(&self, _: &str, args: Value, _: &mut CallContext) -> Result<Value, ModuleCallError> {
//!         Ok(json!(format!("hello, {}", args[0].as_str().unwrap_or("you"))))
//!     }
//! }
//!
//! let ws = Arc::new(Workspace::in_memory()?);
//! ws.write("/who.txt", b"world", &WriteOptions::default())?;
//! let runtime = Runtime::with_builtin_guests(RuntimeConfig::default())?;
//! runtime.modules().register("ws:greet", Arc::new(Greet))?;
//!
//! let agent = r#"
//!     import { readFileSync } from "node:fs";
//!     import { hello } from "ws:greet";
//!     console.log("working");
//!     export default hello(readFileSync("/who.txt", "utf8"));
//! "#;
//! let options = ExecOptions { backend: JS_BACKEND.into(), ..Default::default() };
//! let result = runtime.exec(ws.clone(), agent, options)?.wait();
//! assert_eq!(result.status, RunStatus::Completed, "{:?}", result.error);
//! assert_eq!(result.value, Some(json!("hello, world")));
//! assert_eq!(result.stdout, b"working\n");
//! // The run is recorded in the workspace, with its result.
//! assert!(ws.runs().get(&result.run_id)?.is_some());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod backend;
mod bindings;
mod commands;
mod durable;
mod engine;
mod error;
mod host;
mod modules;
mod net;
mod run;

pub use backend::builtin::{
    COMMAND_BACKEND, JS_BACKEND, JS_GUEST, SHELL_BACKEND, SHELL_GUEST, builtin_guests,
    command_backend,
};
pub use backend::{
    Backend, BackendInfo, Commands, FallbackBackend, GuestProfile, LimitsEnv, Resume,
    missing_command, should_fall_back,
};
/// Component and file bytes (`CommandSpec::component`, `FileTree`).
pub use bytes::Bytes;
pub use commands::{CommandListing, CommandOrigin, CommandSpec, MAX_COMMAND_DEPTH};
/// The store's enums, part of this crate's API: how a run ended
/// (`RunResult::status`) and what an interrupted run does.
pub use computer_store::{OnInterrupt, RunStatus};
pub use durable::lease::RunLease;
pub use durable::runs::Recovered;
pub use engine::component_cache::{CompileEvent, CompileObserver};
pub use error::ExecError;
pub use host::modules::{FunctionInfo, HostModule, ModuleCallError, ModuleRegistry, ParamInfo};
pub use host::wasi_fs::{FileTree, Mount, MountSource};
pub use modules::async_module::{AsyncModule, ModuleFuture};
pub use modules::call_context::{Answer, CallContext};
pub use modules::component::{ComponentModule, ModuleLimits};
pub use run::command::CommandOptions;
pub use run::exec::RunSlot;
pub use run::handle::{Killer, RunHandle};
pub use run::host_memory::{HostMemoryUse, RUN_OVERHEAD, default_host_memory, reservation_of};
pub use run::limit_names::LimitNames;
pub use run::limits::{Limits, ShellLimits};
pub use run::options::ExecOptions;
pub use run::output::{Channel as OutputChannel, Sink as OutputSink};
pub use run::result::{
    EXIT_CANCELLED, EXIT_NOT_FOUND, EXIT_TIMEOUT, EXIT_WAITING, Event, Extras, Fallback, RunResult,
    SyncStats, SyncTimings, serialize,
};
pub use run::run_id::generate as generate_run_id;

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize};
use std::sync::{Arc, Mutex, RwLock};

use wasmtime::Engine;
use wasmtime::component::Linker;

use crate::backend::guest::{Guest, GuestBackend, GuestSlot};
use crate::bindings::RunnerPre;
use crate::run::state::RunState;

/// Runs at once in one process unless [`RuntimeConfig::max_concurrent_runs`]
/// says otherwise: each may take its memory limit (the shell's is 1 GiB), so
/// this bounds what one process can be made to hold.
pub const DEFAULT_MAX_CONCURRENT_RUNS: usize = 8;

/// Settings for a [`Runtime`].
#[derive(Debug, Clone)]
pub struct RuntimeConfig {
    /// Where compiled components are cached. `None` picks
    /// `$COMPUTER_CACHE_DIR`, else `$XDG_CACHE_HOME/computer`, else
    /// `~/.cache/computer`.
    pub cache_dir: Option<PathBuf>,
    /// Default limits of every run; each run may lower or raise them.
    pub limits: Limits,
    /// The memory cap of particular backends, in place of
    /// `limits.memory_bytes` (a run's own `limits` still win). By default
    /// the shell gets 1 GiB: `sort` of a 100 MB file needs several times
    /// the file's size.
    pub backend_memory: HashMap<String, usize>,
    /// Runs allowed at once in this process, on any backend (8 by
    /// default). One more is refused with [`ExecError::TooManyRuns`], not
    /// queued: a queued run would hold its caller with no word of why, and
    /// its timeout would have to either count the wait or not. Commands a
    /// run calls run inside it and take no slot. (Memory is different: a
    /// run waits for [`Self::host_memory`] holding its slot, since memory
    /// frees up as runs end; the slots bound how many wait.)
    pub max_concurrent_runs: usize,
    /// Bytes of host memory all runs together may make this process hold
    /// (the ceiling). Each guest run reserves [`reservation_of`] its limits
    /// (its memory limit, as much again for its private `/tmp` if its guest
    /// writes files through WASI, and [`RUN_OVERHEAD`]) before it starts and gives it back when it ends or
    /// parks; one that does not fit waits for others to end, first come
    /// first served, up to its own timeout, then is refused with
    /// [`ExecError::HostMemoryBusy`]; one larger than the whole ceiling is
    /// refused at once ([`ExecError::RunTooBig`]). Commands a run starts
    /// share its memory limit, so its reservation. The default,
    /// [`default_host_memory`], is `COMPUTER_HOST_MEMORY` (MiB) or three
    /// quarters of the machine's memory.
    pub host_memory: u64,
    /// What happens to interrupted runs, unless the backend or the run says
    /// otherwise: `Replay` (journalled, resumable) by default.
    pub on_interrupt: OnInterrupt,
    /// `on_interrupt` of particular backends.
    pub backend_on_interrupt: HashMap<String, OnInterrupt>,
    /// How long a process's claim on a run lasts without renewal; another
    /// process may take the run over after that (on the same machine, at
    /// once when the owner is gone).
    pub lease: std::time::Duration,
    /// Told when a component has to be compiled (not in the cache yet).
    pub on_compile: Option<CompileObserver>,
    /// How a run's consecutive workspace changes share a transaction
    /// ([`GroupCommitLimits`]); `None` gives every change its own.
    pub group_commit: Option<GroupCommitLimits>,
}

/// Group commit of a run's changes (see `computer_store::GroupCommit`): a
/// run's consecutive changes share one SQLite transaction, committed after
/// `max_changes` of them or `max_age`, and always before the run's output is
/// shown, before a module call, when something else uses the workspace, and
/// at the end of the run. A crash loses at most that uncommitted tail (with
/// its journal rows, so a durable run replays it exactly).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GroupCommitLimits {
    /// Changes a transaction holds before it commits.
    pub max_changes: u32,
    /// How long after its first change a transaction commits.
    pub max_age: std::time::Duration,
}

impl GroupCommitLimits {
    /// The default; none when `COMPUTER_GROUP_COMMIT` is `0` or `off` (for
    /// measuring what it saves, and as a way out); groups of at most N
    /// changes when it is a number N (a crash test's many commit points).
    pub fn from_env() -> Option<Self> {
        let var = std::env::var("COMPUTER_GROUP_COMMIT");
        match var.as_deref() {
            Ok("0" | "off") => None,
            Ok(n) => Some(GroupCommitLimits {
                max_changes: n
                    .parse()
                    .unwrap_or(GroupCommitLimits::default().max_changes),
                ..GroupCommitLimits::default()
            }),
            Err(_) => Some(GroupCommitLimits::default()),
        }
    }
}

impl Default for GroupCommitLimits {
    fn default() -> Self {
        GroupCommitLimits {
            max_changes: 256,
            max_age: std::time::Duration::from_millis(10),
        }
    }
}

impl Default for RuntimeConfig {
    fn default() -> Self {
        RuntimeConfig {
            cache_dir: None,
            limits: Limits::default(),
            backend_memory: HashMap::from([(SHELL_BACKEND.to_owned(), 1 << 30)]),
            max_concurrent_runs: DEFAULT_MAX_CONCURRENT_RUNS,
            host_memory: default_host_memory(),
            on_interrupt: OnInterrupt::Replay,
            backend_on_interrupt: HashMap::new(),
            lease: std::time::Duration::from_secs(15),
            on_compile: None,
            group_commit: GroupCommitLimits::from_env(),
        }
    }
}

pub(crate) struct Inner {
    pub engine: Engine,
    pub linker: Linker<RunState>,
    pub backends: RwLock<BTreeMap<String, Arc<dyn Backend>>>,
    pub modules: Arc<ModuleRegistry>,
    pub commands: commands::registry::CommandRegistry,
    pub active: AtomicUsize,
    pub host_memory: Arc<run::host_memory::Budget>,
    pub running: Mutex<HashMap<String, Arc<AtomicBool>>>,
    pub config: RuntimeConfig,
    pub cache_dir: PathBuf,
}

impl Inner {
    /// Compiles (or loads from the cache) and pre-instantiates a guest.
    pub(crate) fn load_guest(&self, name: &str, component: &[u8]) -> Result<Arc<Guest>, ExecError> {
        let digest = engine::component_cache::digest(component);
        self.load_guest_digested(name, component, &digest)
    }

    /// As `load_guest`, for bytes whose SHA-256 is known.
    pub(crate) fn load_guest_digested(
        &self,
        name: &str,
        component: &[u8],
        digest: &[u8; 32],
    ) -> Result<Arc<Guest>, ExecError> {
        let component = engine::component_cache::load_digested(
            &self.engine,
            name,
            component,
            digest,
            &self.cache_dir,
            self.config.on_compile.as_ref(),
        )?;
        let pre = self
            .linker
            .instantiate_pre(&component)
            .map_err(|e| ExecError::BadGuest {
                name: name.to_owned(),
                reason: error::one_line(&e),
            })?;
        let pre = RunnerPre::new(pre).map_err(|e| ExecError::BadGuest {
            name: name.to_owned(),
            reason: format!(
                "it does not implement the runner world: {}",
                error::one_line(&e)
            ),
        })?;
        Ok(Arc::new(Guest { pre }))
    }
}

/// A runner-world component to register as a backend
/// ([`Runtime::register_runner`]).
#[derive(Clone)]
pub struct RunnerSpec {
    /// The backend name runs ask for.
    pub name: String,
    /// The component's bytes (`Bytes::from_static` for an embedded one).
    pub component: Bytes,
    /// Its SHA-256 in hex, when the build computed it (else hashed on
    /// first use).
    pub sha256: Option<String>,
    /// How it presents itself and prepares its runs.
    pub profile: GuestProfile,
    /// Read-only trees its runs see besides the workspace.
    pub mounts: Vec<Mount>,
}

/// The process-wide execution runtime. Cheap to clone.
#[derive(Clone)]
pub struct Runtime {
    pub(crate) inner: Arc<Inner>,
}

impl Runtime {
    /// A runtime with no guests registered.
    pub fn new(config: RuntimeConfig) -> Result<Self, ExecError> {
        let engine = engine::shared(&config)?;
        let linker = engine::linker(&engine)?;
        let cache_dir = config
            .cache_dir
            .clone()
            .unwrap_or_else(engine::component_cache::default_dir);
        Ok(Runtime {
            inner: Arc::new(Inner {
                engine,
                linker,
                backends: RwLock::new(BTreeMap::new()),
                modules: Arc::new(ModuleRegistry::default()),
                commands: Default::default(),
                active: AtomicUsize::new(0),
                host_memory: Arc::new(run::host_memory::Budget::new(config.host_memory)),
                running: Mutex::new(HashMap::new()),
                config,
                cache_dir,
            }),
        })
    }

    /// A runtime with the guests built into this binary (`js` and `shell`,
    /// when they were built) registered under their backend names; each is
    /// compiled on first use.
    pub fn with_builtin_guests(config: RuntimeConfig) -> Result<Self, ExecError> {
        let rt = Runtime::new(config)?;
        let backends = backend::builtin::backends();
        for (name, command) in backend::builtin::runner_commands(&backends) {
            rt.inner.commands.register_runner(name, command);
        }
        for backend in backends {
            rt.register_backend(backend)?;
        }
        Ok(rt)
    }

    /// Registers a component of the `runner` world as backend `name`.
    /// It is compiled once (or loaded from the on-disk cache) and
    /// pre-instantiated; later runs only instantiate it.
    pub fn register_guest(&self, name: &str, component: &[u8]) -> Result<(), ExecError> {
        self.register_guest_with(name, component, backend::builtin::profile(name))
    }

    /// As [`register_guest`](Self::register_guest), with the description
    /// and run preparation of `profile`.
    pub fn register_guest_with(
        &self,
        name: &str,
        component: &[u8],
        profile: GuestProfile,
    ) -> Result<(), ExecError> {
        backend::registry::validate_backend_name(name)?;
        let guest = self.inner.load_guest(name, component)?;
        self.register_backend(Arc::new(GuestBackend {
            name: name.to_owned(),
            slot: GuestSlot::Ready(guest),
            profile,
            mounts: Vec::new(),
        }))
    }

    /// Registers a runner-world component as backend `spec.name`, with the
    /// read-only trees its runs see; it is compiled on first use (or loaded
    /// from the component cache), so a process that never runs it never
    /// pays for it.
    pub fn register_runner(&self, spec: RunnerSpec) -> Result<(), ExecError> {
        backend::registry::validate_backend_name(&spec.name)?;
        run::command::validate_mounts(&format!("backend {}", spec.name), &spec.mounts)?;
        let digest = spec
            .sha256
            .as_deref()
            .and_then(engine::component_cache::parse_digest);
        self.register_backend(Arc::new(GuestBackend {
            name: spec.name,
            slot: GuestSlot::Lazy {
                bytes: spec.component,
                digest,
                loaded: Default::default(),
            },
            profile: spec.profile,
            mounts: spec.mounts,
        }))
    }

    /// Registers a component file as backend `name`.
    pub fn register_guest_file(&self, name: &str, path: &Path) -> Result<(), ExecError> {
        let bytes = std::fs::read(path).map_err(|e| ExecError::BadGuest {
            name: name.to_owned(),
            reason: format!("cannot read {}: {e}", path.display()),
        })?;
        self.register_guest(name, &bytes)
    }

    /// Compiles every registered component that is compiled on first use
    /// (built-in commands, built-in and lazily registered backends) into
    /// the component cache now, so no later run waits for it; each name
    /// with its outcome. Already cached ones only load.
    pub fn prepare(&self) -> Vec<(String, Result<(), ExecError>)> {
        // Backends first, the default (the shell) first of all: a run
        // starts with its backend, and calls commands later.
        let mut backends = self.all_backends();
        backends.sort_by_key(|b| b.info().name != SHELL_BACKEND);
        let mut out = Vec::new();
        for backend in backends {
            let name = backend.info().name;
            out.push((name, backend.prepare(self)));
        }
        out.extend(self.inner.commands.prepare_all(&self.inner));
        out
    }

    /// The `ws:` modules guests can call.
    pub fn modules(&self) -> &ModuleRegistry {
        &self.inner.modules
    }

    /// Where compiled components are cached.
    pub fn cache_dir(&self) -> &Path {
        &self.inner.cache_dir
    }
}
