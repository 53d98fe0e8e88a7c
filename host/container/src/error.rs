//! Why a container exec could not run. (How a run ends is an `ExecResult`.)

use computer_store::FsError;

/// The message every "no engine" failure starts with.
pub const NO_ENGINE: &str = "no container engine: set DOCKER_HOST or start podman system service";

/// Exit code of a container exec that could not run because of the engine
/// (as `docker run` reports daemon errors).
pub const EXIT_ENGINE: i32 = 125;

#[derive(Debug, thiserror::Error)]
pub enum ContainerError {
    /// No engine is reachable: nothing was started.
    #[error("{NO_ENGINE} ({detail})")]
    NoEngine { detail: String },
    /// The engine answered with an error.
    #[error("container engine: {0}")]
    Engine(String),
    /// The image is missing and could not be pulled.
    #[error("image {image}: {reason}")]
    Image { image: String, reason: String },
    #[error("{0}")]
    Workspace(#[from] FsError),
    /// Copying between the workspace and the host directory failed.
    #[error("workspace sync: {0}")]
    Sync(String),
    #[error("invalid exec option: {0}")]
    InvalidOption(String),
}

impl ContainerError {
    /// The exit code a CLI should give for this error: 125 for the engine
    /// (as `docker run`), 1 otherwise.
    pub fn exit_code(&self) -> i32 {
        match self {
            ContainerError::NoEngine { .. }
            | ContainerError::Engine(_)
            | ContainerError::Image { .. } => EXIT_ENGINE,
            _ => 1,
        }
    }

    pub(crate) fn engine(e: impl std::fmt::Display) -> Self {
        ContainerError::Engine(e.to_string())
    }

    pub(crate) fn sync(what: impl std::fmt::Display, e: impl std::fmt::Display) -> Self {
        ContainerError::Sync(format!("{what}: {e}"))
    }
}

/// True for a 404 from the engine (no such container, image or exec).
pub(crate) fn is_not_found(e: &bollard::errors::Error) -> bool {
    matches!(
        e,
        bollard::errors::Error::DockerResponseServerError {
            status_code: 404,
            ..
        }
    )
}

/// True for a 409 from the engine (a name in use, a container not running).
pub(crate) fn is_conflict(e: &bollard::errors::Error) -> bool {
    matches!(
        e,
        bollard::errors::Error::DockerResponseServerError {
            status_code: 409,
            ..
        }
    )
}
