//! The container backend: `exec` of `/bin/sh -c SOURCE` in the workspace's
//! container, bracketed by a push of the workspace into the container's
//! mount and a pull of the changes back.

mod admin;
mod attempt;
mod copies;
mod exec;
mod options;
mod registration;

pub use admin::{Status, StopReport};
pub use exec::ContainerRunInfo;
pub use options::ContainerExecOptions;
pub use registration::{AUTO_BACKEND, register};

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use bollard::Docker;

use crate::config::ContainerConfig;
use crate::engine;
use crate::error::ContainerError;
use crate::sync::{Manifest, Stamp, Watcher};

/// How long a container run's record stays claimed without renewal.
const RUN_LEASE: Duration = Duration::from_secs(15);

/// Name of this backend in results and run records.
pub const CONTAINER_BACKEND: &str = "container";

/// A connected engine, with the I/O runtime its client runs on (started
/// at the first connect, so a process that never uses a container never
/// starts its thread).
struct Engine {
    rt: tokio::runtime::Runtime,
    docker: Docker,
    addr: String,
    rootless: bool,
}

struct Inner {
    config: ContainerConfig,
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

impl ContainerBackend {
    /// A backend with these settings. Nothing is contacted until the first
    /// exec (or [`connect`](Self::connect)).
    pub fn new(config: ContainerConfig) -> Result<Self, ContainerError> {
        Ok(ContainerBackend {
            inner: Arc::new(Inner {
                config,
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

    /// True if an engine is configured (`COMPUTER_CONTAINER_ENGINE`,
    /// `DOCKER_HOST`, or a socket found), without contacting it.
    pub fn engine_configured(&self) -> bool {
        self.engine_choice().is_ok()
    }

    /// The engine this backend uses and where its address came from (the
    /// connected one once connected), without contacting it; `Err` says
    /// why there is none.
    pub fn engine_choice(&self) -> Result<engine::EngineChoice, String> {
        engine::choose_engine(self.inner.config.docker_host.as_deref())
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
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .thread_name("computer-container")
            .enable_all()
            .build()
            .map_err(|e| ContainerError::Engine(format!("cannot start the I/O runtime: {e}")))?;
        let explicit = self.inner.config.docker_host.clone();
        let (docker, addr, rootless) = rt.block_on(async move {
            let (docker, addr) = engine::connect(explicit.as_deref()).await?;
            let rootless = engine::is_rootless(&docker).await;
            Ok::<_, ContainerError>((docker, addr, rootless))
        })?;
        let engine = Arc::new(Engine {
            rt,
            docker,
            addr,
            rootless,
        });
        *slot = Some(engine.clone());
        Ok(engine)
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
