//! Per-workspace state on the host: a directory named after the workspace
//! holding the synced copy (`root/`, bind-mounted at `/workspace`), the
//! control directory (`control/`, mounted read-only: the idle heartbeat),
//! the sync manifest and a lock file that serializes container execs.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use computer_store::Workspace;
use sha2::{Digest, Sha256};

use crate::error::ContainerError;

pub(crate) struct WsState {
    /// Identifies the workspace: `computer-<key>` is the container's name.
    pub key: String,
    /// What the key was made from, shown in status and labels.
    pub identity: String,
    pub dir: PathBuf,
    pub root: PathBuf,
    pub control: PathBuf,
    pub manifest: PathBuf,
}

impl WsState {
    pub fn for_workspace(ws: &Workspace, state_root: &Path) -> Self {
        let identity = workspace_identity(ws);
        let digest = Sha256::digest(identity.as_bytes());
        let key: String = digest[..8].iter().map(|b| format!("{b:02x}")).collect();
        let dir = state_root.join(&key);
        WsState {
            root: dir.join("root"),
            control: dir.join("control"),
            manifest: dir.join("manifest.json"),
            dir,
            key,
            identity,
        }
    }

    pub fn container_name(&self) -> String {
        format!("computer-{}", self.key)
    }

    /// Creates the directories (not the copy's contents).
    pub fn create_dirs(&self) -> Result<(), ContainerError> {
        for d in [&self.dir, &self.root, &self.control] {
            std::fs::create_dir_all(d).map_err(|e| ContainerError::sync(d.display(), e))?;
        }
        Ok(())
    }

    /// Takes the workspace's exec lock (blocking): one container exec per
    /// workspace at a time, across processes. Released on drop.
    pub fn lock(&self) -> Result<File, ContainerError> {
        let path = self.dir.join("lock");
        let file = File::options()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .map_err(|e| ContainerError::sync(path.display(), e))?;
        rustix::fs::flock(&file, rustix::fs::FlockOperation::LockExclusive)
            .map_err(|e| ContainerError::sync(path.display(), e))?;
        Ok(file)
    }

    pub fn heartbeat_path(&self) -> PathBuf {
        self.control.join("heartbeat")
    }

    /// Marks the container as in use now (its idle watchdog reads this).
    pub fn touch_heartbeat(&self) {
        let path = self.heartbeat_path();
        let file = File::options()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path);
        if let Err(e) = file.and_then(|f| f.set_modified(SystemTime::now())) {
            tracing::warn!("cannot touch {}: {e}", path.display());
        }
    }
}

/// The canonical path of the workspace file, or a per-process identity for
/// an in-memory workspace (its container is reaped by the idle timeout).
fn workspace_identity(ws: &Workspace) -> String {
    match ws.location() {
        Some(path) => std::fs::canonicalize(path)
            .unwrap_or_else(|_| path.to_path_buf())
            .display()
            .to_string(),
        None => format!("memory:{}:{:p}", std::process::id(), ws as *const Workspace),
    }
}

/// Device and inode of the workspace file: tells a workspace apart from
/// another created later at the same path (whose copy must not be reused).
pub(crate) fn workspace_file_id(ws: &Workspace) -> String {
    use std::os::unix::fs::MetadataExt;
    match ws.location().and_then(|p| std::fs::metadata(p).ok()) {
        Some(m) => format!("{}:{}", m.dev(), m.ino()),
        None => "memory".to_owned(),
    }
}
