//! Choosing and connecting to a Docker-API engine: the configured one
//! (`COMPUTER_CONTAINER_ENGINE`), else `DOCKER_HOST`, else the usual Docker
//! and Podman sockets.

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

/// An engine address and where it came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EngineChoice {
    /// `unix:///path` or `tcp://host:port`.
    pub addr: String,
    /// Which setting named it, or that it was found at a usual place.
    pub source: &'static str,
}

impl std::fmt::Display for EngineChoice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} ({})", self.addr, self.source)
    }
}

/// The value of `COMPUTER_CONTAINER_ENGINE` that turns containers off.
pub const ENGINE_NONE: &str = "none";

/// The engine to use, by one rule: the configured address (`explicit`:
/// `COMPUTER_CONTAINER_ENGINE`), else `DOCKER_HOST`, else the first of the
/// usual Docker and Podman sockets that exists. `Err` says why there is
/// none: containers turned off (`none`), or nothing set and nothing found.
pub fn choose_engine(explicit: Option<&str>) -> Result<EngineChoice, String> {
    let chosen = |addr: &str, source| EngineChoice {
        addr: addr.to_owned(),
        source,
    };
    match explicit.map(str::trim).filter(|a| !a.is_empty()) {
        Some(ENGINE_NONE) => {
            return Err("COMPUTER_CONTAINER_ENGINE is `none`: containers are turned off".into());
        }
        Some(addr) => return Ok(chosen(addr, "COMPUTER_CONTAINER_ENGINE")),
        None => {}
    }
    if let Some(addr) = std::env::var("DOCKER_HOST").ok().filter(|a| !a.is_empty()) {
        return Ok(chosen(&addr, "DOCKER_HOST"));
    }
    let probed = probed_sockets();
    match probed.iter().find(|p| is_socket(p)) {
        Some(p) => Ok(chosen(
            &format!("unix://{}", p.display()),
            "found: neither COMPUTER_CONTAINER_ENGINE nor DOCKER_HOST is set",
        )),
        None => {
            let tried: Vec<String> = probed.iter().map(|p| p.display().to_string()).collect();
            Err(format!(
                "neither COMPUTER_CONTAINER_ENGINE nor DOCKER_HOST is set, and none of {} exists",
                tried.join(", ")
            ))
        }
    }
}

/// `Err` when `choice` names a unix socket that is not there: known without
/// contacting anything. (Whether the engine answers, only a connect says.)
pub(crate) fn socket_present(choice: &EngineChoice) -> Result<(), String> {
    match choice.addr.strip_prefix("unix://") {
        Some(path) if !is_socket(Path::new(path)) => Err(format!("{choice}: no such socket")),
        _ => Ok(()),
    }
}

/// The engine address [`choose_engine`] picks, if any.
pub fn engine_address(explicit: Option<&str>) -> Option<String> {
    choose_engine(explicit).ok().map(|c| c.addr)
}

/// Connects to the engine at `addr` (or the one found) and checks it answers.
pub(crate) async fn connect(explicit: Option<&str>) -> Result<(Docker, String), ContainerError> {
    let addr = choose_engine(explicit)
        .map_err(|detail| ContainerError::NoEngine { detail })?
        .addr;
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
