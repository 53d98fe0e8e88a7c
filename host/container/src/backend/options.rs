//! What a container exec is given, and how it is made from the options
//! every backend takes.

use std::collections::BTreeMap;
use std::time::Duration;

use computer_runtime::{ExecOptions, Limits};
use computer_store::{NodeKind, Workspace};

use crate::error::ContainerError;

/// Options of one container exec.
#[derive(Debug, Clone)]
pub struct ContainerExecOptions {
    /// Working directory in the workspace (absolute; an existing directory).
    /// It is `/workspace/...` in the container. Default `/`.
    pub cwd: Option<String>,
    /// Variables added to the image's environment (the host's are never passed).
    pub env: BTreeMap<String, String>,
    /// `$1`, `$2`, ... of the script.
    pub args: Vec<String>,
    /// Bytes the command reads on standard input.
    pub stdin: Vec<u8>,
    /// Wall-clock limit: then TERM, KILL after the grace period, exit 124.
    pub timeout: Duration,
    /// Output kept and streamed per stream; the rest is dropped with a marker.
    pub stdout_bytes: usize,
    /// As `stdout_bytes`, for standard error.
    pub stderr_bytes: usize,
    /// A caller-chosen run id, unique per workspace.
    pub id: Option<String>,
    /// Overrides the configured image.
    pub image: Option<String>,
    /// Overrides the configured memory limit (bytes); the container is
    /// created again when it changes.
    pub memory_bytes: Option<u64>,
    /// A read-only run: the command may change its copy, but nothing is
    /// synced back; each change is reported as skipped ("not synced back:
    /// read-only file system: ...") and the copy put back.
    pub read_only: bool,
}

impl ContainerExecOptions {
    /// The container options of a run given `options` with `limits`.
    pub fn from_exec(options: &ExecOptions, limits: &Limits) -> Self {
        ContainerExecOptions {
            cwd: options.cwd.clone(),
            env: options.env.clone(),
            args: options.args.clone(),
            stdin: options.stdin.clone(),
            timeout: limits.timeout,
            stdout_bytes: limits.stdout_bytes,
            stderr_bytes: limits.stderr_bytes,
            id: options.id.clone(),
            image: options.image.clone(),
            memory_bytes: Some(limits.memory_bytes as u64),
            read_only: options.read_only,
        }
    }
}

impl Default for ContainerExecOptions {
    fn default() -> Self {
        ContainerExecOptions {
            cwd: None,
            env: BTreeMap::new(),
            args: Vec::new(),
            stdin: Vec::new(),
            timeout: Duration::from_secs(60),
            stdout_bytes: 1 << 20,
            stderr_bytes: 1 << 20,
            id: None,
            image: None,
            memory_bytes: None,
            read_only: false,
        }
    }
}

/// Checks the options; returns the canonical cwd.
pub(super) fn validate(
    ws: &Workspace,
    options: &ContainerExecOptions,
) -> Result<String, ContainerError> {
    if options.timeout.is_zero() {
        return Err(ContainerError::InvalidOption(
            "the timeout must be above zero".into(),
        ));
    }
    for key in options.env.keys() {
        if key.is_empty() || key.contains('=') || key.contains('\0') {
            return Err(ContainerError::InvalidOption(format!(
                "invalid environment variable name {key:?}"
            )));
        }
    }
    let cwd = options.cwd.clone().unwrap_or_else(|| "/".to_owned());
    let canonical = ws.realpath(&cwd)?;
    if ws.stat(&canonical)?.kind != NodeKind::Directory {
        return Err(ContainerError::InvalidOption(format!(
            "cwd {cwd} is not a directory"
        )));
    }
    Ok(canonical)
}
