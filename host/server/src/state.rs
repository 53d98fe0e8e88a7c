//! The server's state: its configuration, the workspaces it has open, the
//! runtime each uses, and the runs going on now.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use computer_runtime::Runtime;
use computer_store::Workspace;
use computer_tools::{ToolOptions, Tools};

use crate::auth::rate::RateLimiter;
use crate::auth::tokens::TokenStore;
use crate::error::{ApiError, ApiResult};
use crate::live::LiveRuns;
use crate::metrics::Metrics;

/// Makes the runtime a workspace's runs use (its backends, its modules).
/// The CLI's registers the built-in guests, the container backends and the
/// workspace's module components; an embedder passes its own.
pub type RuntimeFactory = Arc<dyn Fn(&Workspace) -> anyhow::Result<Runtime> + Send + Sync>;

/// How the server runs.
#[derive(Clone)]
pub struct ServerConfig {
    /// Where workspaces (`workspaces/ID.db`) and `server.db` live.
    pub data_dir: PathBuf,
    /// Makes each workspace's runtime.
    pub runtime: RuntimeFactory,
    /// No tokens needed (`--insecure-no-auth`; the CLI allows it on
    /// loopback addresses only).
    pub no_auth: bool,
    /// Largest request body in bytes (`--max-body`).
    pub max_body_bytes: usize,
    /// Requests a second per token (`--rate-limit`; 0: none).
    pub rate_limit: u32,
    /// The backends `exec` and MCP offer (empty: every backend).
    pub backends: Vec<String>,
    /// The largest `memory_mb` a run may ask for.
    pub max_memory_mb: u64,
}

/// One open workspace.
pub struct Entry {
    /// Its id (the file is `workspaces/ID.db`).
    pub id: String,
    /// The store handle every request shares.
    pub ws: Arc<Workspace>,
    runtime: OnceLock<Result<Runtime, String>>,
    tools: Mutex<[Option<Arc<Tools>>; 2]>,
    /// Runs started here and not yet ended.
    pub live: LiveRuns,
    pub(crate) mcp: Mutex<[Option<crate::mcp::McpService>; 2]>,
}

impl Entry {
    /// The runtime, made on first use.
    pub fn runtime(&self, factory: &RuntimeFactory) -> ApiResult<Runtime> {
        self.runtime
            .get_or_init(|| factory(&self.ws).map_err(|e| format!("{e:#}")))
            .clone()
            .map_err(|e| ApiError::internal(format!("the runtime did not start: {e}")))
    }

    /// The runtime if it was made (runs can only be live on it then).
    pub fn runtime_if_made(&self) -> Option<Runtime> {
        self.runtime.get().and_then(|r| r.as_ref().ok()).cloned()
    }

    /// The agent tool set (`readonly`: no exec, no changes).
    pub fn tools(&self, server: &Server, readonly: bool) -> Arc<Tools> {
        let mut sets = self.tools.lock().unwrap_or_else(|p| p.into_inner());
        let slot = &mut sets[usize::from(readonly)];
        if let Some(t) = slot {
            return t.clone();
        }
        let runtime = if readonly {
            None
        } else {
            self.runtime(&server.config.runtime).ok()
        };
        let tools = Arc::new(Tools::new(
            self.ws.clone(),
            runtime,
            ToolOptions {
                readonly,
                backends: server.config.backends.clone(),
                max_memory_mb: Some(server.config.max_memory_mb),
            },
        ));
        *slot = Some(tools.clone());
        tools
    }
}

/// The server: what every handler reaches through `State`.
pub struct Server {
    /// Its configuration.
    pub config: ServerConfig,
    /// Tokens and the request log.
    pub tokens: TokenStore,
    /// Per-token request budgets.
    pub rate: RateLimiter,
    /// Counters for `/metrics`.
    pub metrics: Metrics,
    open: Mutex<HashMap<String, Arc<Entry>>>,
    stopping: AtomicBool,
    /// Cancelled at shutdown: ends the MCP sessions' open streams, so the
    /// graceful shutdown does not wait on them.
    pub(crate) mcp_cancel: tokio_util::sync::CancellationToken,
}

/// Workspace ids: lower-case letters, digits, `-` and `_`, 1 to 64, so an
/// id is always one file name in `workspaces/` and never a path.
pub fn check_id(id: &str) -> ApiResult<()> {
    let ok = !id.is_empty()
        && id.len() <= 64
        && id
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'_')
        && !id.starts_with('-');
    if ok {
        Ok(())
    } else {
        Err(ApiError::invalid(format!(
            "invalid workspace id {id:?}: 1 to 64 of a-z, 0-9, - and _, not starting with -"
        )))
    }
}

impl Server {
    /// A server over `config.data_dir` (made if missing).
    pub fn new(config: ServerConfig) -> anyhow::Result<Arc<Server>> {
        std::fs::create_dir_all(config.data_dir.join("workspaces"))?;
        let tokens = TokenStore::open(&config.data_dir)?;
        Ok(Arc::new(Server {
            rate: RateLimiter::new(config.rate_limit),
            tokens,
            metrics: Metrics::default(),
            open: Mutex::default(),
            stopping: AtomicBool::new(false),
            mcp_cancel: tokio_util::sync::CancellationToken::new(),
            config,
        }))
    }

    /// The file of workspace `id`.
    pub fn path_of(&self, id: &str) -> PathBuf {
        self.config
            .data_dir
            .join("workspaces")
            .join(format!("{id}.db"))
    }

    /// Every workspace id in the data directory, sorted.
    pub fn ids(&self) -> ApiResult<Vec<String>> {
        let dir = self.config.data_dir.join("workspaces");
        let mut ids: Vec<String> = std::fs::read_dir(&dir)
            .map_err(ApiError::internal)?
            .filter_map(|e| e.ok())
            .filter_map(|e| {
                let name = e.file_name().into_string().ok()?;
                let id = name.strip_suffix(".db")?.to_owned();
                check_id(&id).ok().map(|_| id)
            })
            .collect();
        ids.sort();
        Ok(ids)
    }

    /// The open entry of `id`, if any (no file is touched).
    pub fn open_entry(&self, id: &str) -> Option<Arc<Entry>> {
        self.open
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .get(id)
            .cloned()
    }

    /// Every open entry.
    pub fn entries(&self) -> Vec<Arc<Entry>> {
        self.open
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .values()
            .cloned()
            .collect()
    }

    /// Workspace `id`, opened on first use; `create` makes a missing one
    /// (else a missing one is 404). Blocking: call from a blocking thread.
    pub fn entry(&self, id: &str, create: bool) -> ApiResult<Arc<Entry>> {
        check_id(id)?;
        if let Some(e) = self.open_entry(id) {
            return Ok(e);
        }
        let path = self.path_of(id);
        if !create && !path.exists() {
            return Err(ApiError::not_found(format!(
                "no workspace {id:?}: GET /workspaces lists them, POST /workspaces makes one"
            )));
        }
        let ws = Workspace::open(&path)?;
        let mut open = self.open.lock().unwrap_or_else(|p| p.into_inner());
        // Another request may have opened it meanwhile: keep one handle.
        let entry = open
            .entry(id.to_owned())
            .or_insert_with(|| {
                Arc::new(Entry {
                    id: id.to_owned(),
                    ws: Arc::new(ws),
                    runtime: OnceLock::new(),
                    tools: Mutex::default(),
                    live: LiveRuns::default(),
                    mcp: Mutex::default(),
                })
            })
            .clone();
        Ok(entry)
    }

    /// Forgets workspace `id` (its runs are cancelled first) and deletes
    /// its files.
    pub fn delete(&self, id: &str) -> ApiResult<()> {
        check_id(id)?;
        let path = self.path_of(id);
        if !path.exists() {
            return Err(ApiError::not_found(format!("no workspace {id:?}")));
        }
        let entry = self
            .open
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .remove(id);
        if let Some(e) = entry {
            e.live.cancel_all();
            e.live.wait_idle();
        }
        for suffix in ["", "-wal", "-shm", ".secrets-key"] {
            let mut p = path.clone().into_os_string();
            p.push(suffix);
            match std::fs::remove_file(&p) {
                Ok(()) => {}
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(e) => return Err(ApiError::internal(e)),
            }
        }
        Ok(())
    }

    /// Whether a graceful shutdown has begun (new runs are refused).
    pub fn stopping(&self) -> bool {
        self.stopping.load(Ordering::SeqCst)
    }

    /// Begins the shutdown: refuses new runs, cancels the running ones and
    /// waits until they are recorded. Runs parked at an approval stay
    /// parked; `recover` at the next start resumes what its owner left.
    pub fn begin_shutdown(&self) {
        self.stopping.store(true, Ordering::SeqCst);
        self.mcp_cancel.cancel();
        for e in self.entries() {
            e.live.cancel_all();
        }
        for e in self.entries() {
            e.live.wait_idle();
            if let Err(err) = e.ws.audit().flush() {
                tracing::warn!("cannot flush the audit log of {}: {err}", e.id);
            }
        }
    }

    /// Resumes, in the background, the runs a previous server left running
    /// (killed, crashed): each workspace's `recover`.
    pub fn recover_all(self: &Arc<Self>) {
        let server = self.clone();
        let spawned = std::thread::Builder::new()
            .name("recover".into())
            .spawn(move || {
                let ids = match server.ids() {
                    Ok(ids) => ids,
                    Err(e) => {
                        tracing::error!("cannot list workspaces to recover: {}", e.message);
                        return;
                    }
                };
                for id in ids {
                    if let Err(e) = crate::routes::runs::recover(&server, &id) {
                        tracing::warn!("recovering runs of {id}: {}", e.message);
                    }
                }
            });
        if let Err(e) = spawned {
            tracing::error!("cannot start recovery: {e}");
        }
    }
}
