//! `stop` and `status`: removing a workspace's container and copy, and
//! what is known about them.

use computer_store::Workspace;
use serde::Serialize;

use super::ContainerBackend;
use crate::engine;
use crate::error::ContainerError;
use crate::lifecycle::{self, ContainerState};
use crate::state::{WsState, workspace_file_id};
use crate::sync::{Manifest, manifest_log_path};

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
    /// Removes the workspace's container (stopping whatever runs in it) and
    /// deletes its synced copy. The next exec starts cold.
    pub fn stop(&self, ws: &Workspace) -> Result<StopReport, ContainerError> {
        let st = WsState::for_workspace(ws, &self.inner.config.state_root());
        let engine = self.engine()?;
        let name = st.container_name();
        let removed = engine
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
            Ok(e) => match e.rt.block_on(lifecycle::inspect(&e.docker, &name)) {
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
