//! The backends this binary offers: the built-in guests, and the container
//! with `auto` (the shell, falling back to the container). Everything else
//! in the CLI reaches backends through the runtime's registry.

use computer_container::{
    AUTO_BACKEND, CONTAINER_BACKEND, ContainerBackend, ContainerConfig, ContainerError,
};
use computer_runtime::{Runtime, RuntimeConfig};

use crate::error::{CliError, CliResult};

/// The container backends' names, for `--backends` checks.
pub const CONTAINER_BACKENDS: [&str; 2] = [CONTAINER_BACKEND, AUTO_BACKEND];

/// A runtime with the built-in guests and, when `container` is true, the
/// container backends. A container configuration that cannot be used
/// (a bad `COMPUTER_CONTAINER_*` value) leaves them out; the reason is
/// returned with the runtime so a run that asks for them can say why.
pub fn runtime(
    config: RuntimeConfig,
    container: bool,
) -> CliResult<(Runtime, Option<ContainerError>)> {
    let runtime = Runtime::with_builtin_guests(config)?;
    computer_builtins::register(&runtime)?;
    if !container {
        return Ok((runtime, None));
    }
    match container_backend() {
        Ok(backend) => {
            computer_container::register(&runtime, backend)?;
            Ok((runtime, None))
        }
        Err(e) => {
            tracing::warn!("the container backends are unavailable: {e}");
            Ok((runtime, Some(e)))
        }
    }
}

/// The container backend as `COMPUTER_CONTAINER_*` configures it; image
/// pulls report their progress on stderr.
pub fn container_backend() -> Result<ContainerBackend, ContainerError> {
    let config = ContainerConfig::from_env()?;
    Ok(ContainerBackend::new(config)?.with_progress(|line| eprintln!("computer: {line}")))
}

impl From<ContainerError> for CliError {
    fn from(e: ContainerError) -> Self {
        let code = match &e {
            ContainerError::Workspace(fs) => fs.code.as_str(),
            ContainerError::InvalidOption(_) => "EINVAL",
            _ => "EIO",
        };
        CliError {
            code: code.to_owned(),
            message: e.to_string(),
        }
    }
}
