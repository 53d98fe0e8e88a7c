//! Finding and connecting to a Docker-API engine: `DOCKER_HOST`, else the
//! usual Docker and Podman sockets.

use std::os::unix::fs::FileTypeExt;
use std::path::{Path, PathBuf};
use std::time::Duration;

use bollard::Docker;

use crate::error::ContainerError;

/// How long connecting to the engine may take before it counts as absent.
const PING_TIMEOUT: Duration = Duration::from_secs(5);
/// Timeout of one API request (long: a pull or a big exec stream is one request).
const REQUEST_TIMEOUT_SECS: u64 = 24 * 3600;

/// The sockets probed, in order, when `DOCKER_HOST` is not set.
pub fn probed_sockets() -> Vec<PathBuf> {
    let mut socks = vec![
        PathBuf::from("/var/run/docker.sock"),
        PathBuf::from("/run/podman/podman.sock"),
    ];
    if let Some(dir) = std::env::var_os("XDG_RUNTIME_DIR").filter(|v| !v.is_empty()) {
        socks.push(PathBuf::from(dir).join("podman/podman.sock"));
    }
    let uid = rustix::process::geteuid().as_raw();
    socks.push(PathBuf::from(format!("/run/user/{uid}/podman/podman.sock")));
    // Where scripts/setup-podman.sh serves the API.
    socks.push(PathBuf::from("/tmp/podman.sock"));
    socks
}

fn is_socket(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|m| m.file_type().is_socket())
}

/// The engine address to use: `explicit`, else `DOCKER_HOST`, else the
/// first probed socket that exists. `None` when there is none: no engine
/// is configured.
pub fn engine_address(explicit: Option<&str>) -> Option<String> {
    if let Some(addr) = explicit.filter(|a| !a.is_empty()) {
        return Some(addr.to_owned());
    }
    if let Some(addr) = std::env::var("DOCKER_HOST").ok().filter(|a| !a.is_empty()) {
        return Some(addr);
    }
    probed_sockets()
        .into_iter()
        .find(|p| is_socket(p))
        .map(|p| format!("unix://{}", p.display()))
}

/// Connects to the engine at `addr` (or the one found) and checks it answers.
pub(crate) async fn connect(explicit: Option<&str>) -> Result<(Docker, String), ContainerError> {
    let Some(addr) = engine_address(explicit) else {
        let tried: Vec<String> = probed_sockets()
            .iter()
            .map(|p| p.display().to_string())
            .collect();
        return Err(ContainerError::NoEngine {
            detail: format!(
                "DOCKER_HOST is not set and none of {} exists",
                tried.join(", ")
            ),
        });
    };
    let no_engine = |why: String| ContainerError::NoEngine {
        detail: format!("{addr}: {why}"),
    };
    if let Some(path) = addr.strip_prefix("unix://")
        && !is_socket(Path::new(path))
    {
        return Err(no_engine("no such socket".into()));
    }
    let docker = Docker::connect_with_host(&addr)
        .map_err(|e| no_engine(e.to_string()))?
        .with_timeout(Duration::from_secs(REQUEST_TIMEOUT_SECS));
    match tokio::time::timeout(PING_TIMEOUT, docker.ping()).await {
        Ok(Ok(_)) => Ok((docker, addr)),
        Ok(Err(e)) => Err(no_engine(format!("it does not answer: {e}"))),
        Err(_) => Err(no_engine(format!(
            "it did not answer within {}s",
            PING_TIMEOUT.as_secs()
        ))),
    }
}

/// True when the engine runs rootless (its root is this user on the host).
pub(crate) async fn is_rootless(docker: &Docker) -> bool {
    match docker.info().await {
        Ok(info) => info
            .security_options
            .unwrap_or_default()
            .iter()
            .any(|o| o.contains("rootless")),
        Err(_) => false,
    }
}
