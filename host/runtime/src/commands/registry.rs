//! Which commands a run can call, and their compiled form. Commands come
//! from two places: the embedder (`Runtime::register_command`, e.g. the
//! binary's built-in `python3`), and the workspace (`computer commands
//! add`, stored by `Workspace::commands`). A workspace's command shadows an
//! embedder's of the same name: its owner chose it.
//!
//! Components are compiled once per content hash (and cached on disk by
//! the component cache), so every workspace that stores the same `rg`
//! shares one `InstancePre`.

use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;
use std::sync::{Arc, Mutex, OnceLock, RwLock};

use computer_store::Workspace;
use serde::Serialize;
use sha2::{Digest, Sha256};
use wasmtime_wasi::p2::bindings::sync::CommandPre;

use crate::Inner;
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
    pub name: String,
    pub description: String,
    pub origin: CommandOrigin,
}

/// A command ready to instantiate.
pub(crate) struct Resolved {
    pub pre: Arc<CommandPre<RunState>>,
    pub mounts: Vec<Mount>,
}

type Compiled = Arc<OnceLock<Result<Arc<CommandPre<RunState>>, String>>>;

#[derive(Default)]
pub(crate) struct CommandRegistry {
    runtime: RwLock<BTreeMap<String, (CommandSpec, String)>>,
    /// By component sha256.
    compiled: Mutex<HashMap<String, Compiled>>,
}

fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

impl CommandRegistry {
    pub(crate) fn register(&self, spec: CommandSpec) {
        let sha = sha256_hex(&spec.component);
        self.runtime
            .write()
            .unwrap_or_else(|e| e.into_inner())
            .insert(spec.name.clone(), (spec, sha));
    }

    /// Every command a run in `ws` can call, by name.
    pub(crate) fn list(&self, ws: &Workspace) -> Result<Vec<CommandListing>, ExecError> {
        let mut all: BTreeMap<String, CommandListing> = self
            .runtime
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .values()
            .map(|(spec, _)| {
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
            let pre = self.compiled(inner, name, &info.sha256, || {
                ws.commands()
                    .component(name)
                    .map_err(|e| e.to_string())?
                    .ok_or_else(|| format!("command {name} was removed"))
            })?;
            return Ok(Some(Resolved { pre, mounts }));
        }
        let found = self
            .runtime
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .get(name)
            .cloned();
        let Some((spec, sha)) = found else {
            return Ok(None);
        };
        let pre = self.compiled(inner, name, &sha, || Ok(spec.component.to_vec()))?;
        Ok(Some(Resolved {
            pre,
            mounts: spec.mounts,
        }))
    }

    fn compiled(
        &self,
        inner: &Inner,
        name: &str,
        sha: &str,
        bytes: impl FnOnce() -> Result<Vec<u8>, String>,
    ) -> Result<Arc<CommandPre<RunState>>, ExecError> {
        let slot = self
            .compiled
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .entry(sha.to_owned())
            .or_default()
            .clone();
        slot.get_or_init(|| {
            let bytes = bytes()?;
            compile(inner, name, &bytes).map_err(|e| e.to_string())
        })
        .clone()
        .map_err(|reason| ExecError::BadGuest {
            name: name.to_owned(),
            reason,
        })
    }
}

/// Compiles (or loads from the cache) a `wasi:cli/command` component.
pub(crate) fn compile(
    inner: &Inner,
    name: &str,
    bytes: &[u8],
) -> Result<Arc<CommandPre<RunState>>, ExecError> {
    let bad = |reason: String| ExecError::BadGuest {
        name: name.to_owned(),
        reason,
    };
    let component =
        crate::engine::component_cache::load(&inner.engine, name, bytes, &inner.cache_dir)?;
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
