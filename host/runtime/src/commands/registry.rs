//! Which commands a run can call, and their compiled form. Commands come
//! from two places: the embedder (`Runtime::register_command`, e.g. the
//! binary's built-in `python3`), and the workspace (`computer commands
//! add`, stored by `Workspace::commands`). A workspace's command shadows an
//! embedder's of the same name: its owner chose it.
//!
//! A command is a `wasi:cli/command` component or a wasip1 command module
//! (adapted into one by `wasip1`).
//!
//! Components are compiled once per content hash (and cached on disk by
//! the component cache), so every workspace that stores the same `rg`
//! shares one `InstancePre`.

use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;
use std::sync::{Arc, Mutex, OnceLock, RwLock};

use bytes::Bytes;
use computer_store::Workspace;
use serde::Serialize;
use wasmtime_wasi::p2::bindings::sync::CommandPre;

use crate::Inner;
use crate::backend::guest::{Guest, GuestBackend};
use crate::engine::component_cache;
use crate::error::{ExecError, one_line};
use crate::host::wasi_fs::{Mount, MountSource};
use crate::run::state::RunState;

/// A command the embedder registers for every workspace.
#[derive(Clone, Debug)]
pub struct CommandSpec {
    /// What scripts type (`rg`, `python3`).
    pub name: String,
    /// One line on what it does, for listings and models.
    pub description: String,
    /// The `wasi:cli/command` component's bytes (`Bytes::from_static` for
    /// one embedded in the binary: nothing is copied).
    pub component: bytes::Bytes,
    /// Read-only trees it sees besides the workspace (its runtime files).
    pub mounts: Vec<Mount>,
    /// The component's SHA-256 in hex, when the caller knows it (the build
    /// computed it for an embedded one): the process then does not hash
    /// the bytes to find their compiled form. Computed on first use if not.
    pub sha256: Option<String>,
    /// The program changes to `$PWD` itself (our built-ins: python3, git,
    /// sqlite3). Others, built on a wasi-libc that starts in `/`, are given
    /// their cwd by the host instead (see `wit/README.md`, "Working
    /// directory").
    pub own_cwd: bool,
}

/// Where a listed command comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum CommandOrigin {
    /// Registered by the embedding application (the binary's built-ins).
    Runtime,
    /// Stored in the workspace (`computer commands add`).
    Workspace,
}

/// A command as listed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CommandListing {
    /// What a run types to start it.
    pub name: String,
    /// One line on what it does, for people and models.
    pub description: String,
    /// Whose it is: built in, the embedder's, or the workspace's.
    pub origin: CommandOrigin,
}

/// A command ready to instantiate.
pub(crate) struct Resolved {
    pub start: Start,
    pub mounts: Vec<Mount>,
    /// See [`CommandSpec::own_cwd`]; runner guests are given theirs.
    pub own_cwd: bool,
    /// This resolution loaded or compiled the component (its first use in
    /// this process), which the caller's run is not charged for.
    pub prepared: bool,
}

/// What starting a command instantiates.
pub(crate) enum Start {
    /// A `wasi:cli/command` component: its `run`.
    Component(Arc<CommandPre<RunState>>),
    /// A runner guest given `source`, with the command's argv as its own
    /// (the shell backend's bash as `sh`: `$0` is `sh`, then the args).
    Runner {
        guest: Arc<Guest>,
        source: &'static str,
    },
}

/// A runner guest offered to runs as a command: the shell as `sh` and
/// `bash` (commands such as `python3`'s `subprocess.run(..., shell=True)`
/// need a shell, and the shell is a backend), the JavaScript guest as
/// `node` and `npm`.
pub(crate) struct RunnerCommand {
    pub backend: Arc<GuestBackend>,
    pub source: &'static str,
    /// What `list-commands` says of it; `None` keeps it off the list (`sh`:
    /// the shell that lists commands runs its own).
    pub listed: Option<&'static str>,
}

type Compiled = Arc<OnceLock<Result<Arc<CommandPre<RunState>>, String>>>;

/// A runtime command and, once needed, its digest.
struct Registered {
    spec: CommandSpec,
    digest: OnceLock<[u8; 32]>,
}

impl Registered {
    fn digest(&self) -> [u8; 32] {
        *self.digest.get_or_init(|| {
            self.spec
                .sha256
                .as_deref()
                .and_then(component_cache::parse_digest)
                .unwrap_or_else(|| component_cache::digest(&self.spec.component))
        })
    }
}

#[derive(Default)]
pub(crate) struct CommandRegistry {
    runtime: RwLock<BTreeMap<String, Arc<Registered>>>,
    runners: RwLock<BTreeMap<String, Arc<RunnerCommand>>>,
    /// By component sha256.
    compiled: Mutex<HashMap<String, Compiled>>,
}

impl CommandRegistry {
    pub(crate) fn register(&self, spec: CommandSpec) {
        let registered = Arc::new(Registered {
            spec,
            digest: OnceLock::new(),
        });
        self.runtime
            .write()
            .unwrap_or_else(|e| e.into_inner())
            .insert(registered.spec.name.clone(), registered);
    }

    pub(crate) fn register_runner(&self, name: &str, command: RunnerCommand) {
        self.runners
            .write()
            .unwrap_or_else(|e| e.into_inner())
            .insert(name.to_owned(), Arc::new(command));
    }

    /// The names of the embedder's commands.
    pub(crate) fn runtime_names(&self) -> Vec<String> {
        self.runtime
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .keys()
            .cloned()
            .collect()
    }

    /// Compiles every runtime command not compiled yet (one per digest).
    pub(crate) fn prepare_all(&self, inner: &Inner) -> Vec<(String, Result<(), ExecError>)> {
        let registered: Vec<Arc<Registered>> = self
            .runtime
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .values()
            .cloned()
            .collect();
        let mut seen = std::collections::HashSet::new();
        let mut out = Vec::new();
        for r in registered {
            let digest = r.digest();
            if !seen.insert(digest) {
                continue;
            }
            let key: String = digest.iter().map(|b| format!("{b:02x}")).collect();
            let done = self
                .compiled(inner, &r.spec.name, &key, || {
                    Ok((r.spec.component.clone(), digest))
                })
                .map(|_| ());
            out.push((r.spec.name.clone(), done));
        }
        out
    }

    /// Every command a run in `ws` can call, by name.
    pub(crate) fn list(&self, ws: &Workspace) -> Result<Vec<CommandListing>, ExecError> {
        let mut all: BTreeMap<String, CommandListing> = self
            .runtime
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .values()
            .map(|r| &r.spec)
            .map(|spec| {
                (
                    spec.name.clone(),
                    CommandListing {
                        name: spec.name.clone(),
                        description: spec.description.clone(),
                        origin: CommandOrigin::Runtime,
                    },
                )
            })
            .collect();
        for (name, runner) in self
            .runners
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
        {
            if let Some(description) = runner.listed {
                all.entry(name.clone()).or_insert_with(|| CommandListing {
                    name: name.clone(),
                    description: description.to_owned(),
                    origin: CommandOrigin::Runtime,
                });
            }
        }
        for c in ws.commands().list()? {
            all.insert(
                c.name.clone(),
                CommandListing {
                    name: c.name,
                    description: c.description,
                    origin: CommandOrigin::Workspace,
                },
            );
        }
        Ok(all.into_values().collect())
    }

    /// The command `name` of `ws`, compiled; `None` if there is none.
    pub(crate) fn resolve(
        &self,
        inner: &Inner,
        ws: &Workspace,
        name: &str,
    ) -> Result<Option<Resolved>, ExecError> {
        if let Some(info) = ws.commands().get(name)? {
            let mounts = info
                .mounts
                .iter()
                .map(|(guest, host)| Mount {
                    guest_path: guest.clone(),
                    source: MountSource::HostDir(PathBuf::from(host)),
                })
                .collect();
            let digest = component_cache::parse_digest(&info.sha256);
            let (pre, prepared) = self.compiled(inner, name, &info.sha256, || {
                let bytes = ws
                    .commands()
                    .component(name)
                    .map_err(|e| e.to_string())?
                    .ok_or_else(|| format!("command {name} was removed"))?;
                let digest = digest.unwrap_or_else(|| component_cache::digest(&bytes));
                Ok((Bytes::from(bytes), digest))
            })?;
            return Ok(Some(Resolved {
                start: Start::Component(pre),
                mounts,
                own_cwd: false,
                prepared,
            }));
        }
        let found = self
            .runtime
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .get(name)
            .cloned();
        let Some(registered) = found else {
            return self.resolve_runner(inner, name);
        };
        let digest = registered.digest();
        let key: String = digest.iter().map(|b| format!("{b:02x}")).collect();
        let (pre, prepared) = self.compiled(inner, name, &key, || {
            Ok((registered.spec.component.clone(), digest))
        })?;
        Ok(Some(Resolved {
            start: Start::Component(pre),
            mounts: registered.spec.mounts.clone(),
            own_cwd: registered.spec.own_cwd,
            prepared,
        }))
    }

    fn resolve_runner(&self, inner: &Inner, name: &str) -> Result<Option<Resolved>, ExecError> {
        let found = self
            .runners
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .get(name)
            .cloned();
        let Some(runner) = found else {
            return Ok(None);
        };
        Ok(Some(Resolved {
            start: Start::Runner {
                guest: runner.backend.guest(inner)?,
                source: runner.source,
            },
            mounts: runner.backend.mounts.clone(),
            own_cwd: true,
            // A runner guest (seconds to compile at most) is charged.
            prepared: false,
        }))
    }

    fn compiled(
        &self,
        inner: &Inner,
        name: &str,
        sha: &str,
        bytes: impl FnOnce() -> Result<(Bytes, [u8; 32]), String>,
    ) -> Result<(Arc<CommandPre<RunState>>, bool), ExecError> {
        let slot = self
            .compiled
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .entry(sha.to_owned())
            .or_default()
            .clone();
        let mut prepared = false;
        slot.get_or_init(|| {
            prepared = true;
            let (bytes, digest) = bytes()?;
            compile_digested(inner, name, &bytes, &digest).map_err(|e| e.to_string())
        })
        .clone()
        .map(|pre| (pre, prepared))
        .map_err(|reason| ExecError::BadGuest {
            name: name.to_owned(),
            reason,
        })
    }
}

/// Compiles (or loads from the cache) a `wasi:cli/command` component, or
/// a wasip1 command module (adapted into one).
pub(crate) fn compile(
    inner: &Inner,
    name: &str,
    bytes: &[u8],
) -> Result<Arc<CommandPre<RunState>>, ExecError> {
    compile_digested(inner, name, bytes, &component_cache::digest(bytes))
}

fn compile_digested(
    inner: &Inner,
    name: &str,
    bytes: &[u8],
    digest: &[u8; 32],
) -> Result<Arc<CommandPre<RunState>>, ExecError> {
    let bad = |reason: String| ExecError::BadGuest {
        name: name.to_owned(),
        reason,
    };
    let component = component_cache::load_command(
        &inner.engine,
        name,
        bytes,
        digest,
        &inner.cache_dir,
        inner.config.on_compile.as_ref(),
    )?;
    let pre = inner
        .linker
        .instantiate_pre(&component)
        .map_err(|e| bad(one_line(&e)))?;
    let pre = CommandPre::new(pre).map_err(|e| {
        bad(format!(
            "it is not a wasi:cli/command component (no `wasi:cli/run` export): {}",
            one_line(&e)
        ))
    })?;
    Ok(Arc::new(pre))
}
