//! Settings of the container backend, with defaults and `COMPUTER_CONTAINER_*`
//! environment overrides.

use std::path::PathBuf;
use std::time::Duration;

use crate::error::ContainerError;

/// The default image: Debian 12 with gcc, make, python3, pip, nodejs, npm
/// and git, what the `auto` fallback is for. `scripts/build-image.sh` builds
/// it from Debian's packages (no image registry needed).
pub const DEFAULT_IMAGE: &str = "localhost/computer-debian:12";

/// The small image (busybox only) `scripts/build-image.sh busybox` builds;
/// the container tests use it.
pub const BUSYBOX_IMAGE: &str = "localhost/computer-busybox:latest";

/// The programs the default image is built to have, by the names a script
/// calls them.
pub const DEFAULT_IMAGE_PROGRAMS: &[&str] = &[
    "gcc", "cc", "make", "python3", "python", "pip", "pip3", "node", "nodejs", "npm", "npx", "git",
];

/// How to build `image` when it is one of ours, for messages.
pub(crate) fn build_hint(image: &str) -> Option<&'static str> {
    match image {
        DEFAULT_IMAGE => Some(
            "build it with scripts/build-image.sh (Debian 12 with gcc, make, python3, pip, nodejs, npm and git)",
        ),
        BUSYBOX_IMAGE => Some("build it with scripts/build-image.sh busybox"),
        _ => None,
    }
}

/// Where the workspace is mounted in the container; also the default cwd.
pub const MOUNT_POINT: &str = "/workspace";

/// Settings of a [`ContainerBackend`](crate::ContainerBackend).
#[derive(Debug, Clone)]
pub struct ContainerConfig {
    /// Engine address (`unix:///path`, `tcp://host:port`), or `none` for no
    /// engine at all. `None`: the `DOCKER_HOST` variable, else the first of
    /// the usual Docker and Podman sockets that exists
    /// ([`choose_engine`](crate::choose_engine)).
    pub docker_host: Option<String>,
    /// Image of the workspace's container.
    pub image: String,
    /// Network mode; `None` means no network at all.
    pub network: Option<String>,
    /// Memory limit of the whole container.
    pub memory_bytes: u64,
    /// Most processes (and threads) the container may hold.
    pub pids_limit: i64,
    /// `uid:gid` (or a name) commands run as. `None` picks a non-root user:
    /// 1000:1000 when this process is root (the synced files are given to
    /// it), this process's own ids otherwise, and 0:0 under a rootless
    /// engine (where container root is this user on the host).
    pub user: Option<String>,
    /// The container removes itself after this long without an exec.
    pub idle_timeout: Duration,
    /// Where each workspace's synced copy and manifest live. `None`:
    /// `$COMPUTER_CACHE_DIR/containers`, else `$XDG_CACHE_HOME/computer/containers`,
    /// else `~/.cache/computer/containers`.
    pub state_dir: Option<PathBuf>,
    /// Pull the image from its registry when it is not present locally.
    pub pull: bool,
    /// How long a command has after TERM (timeout or kill) before KILL.
    pub kill_grace: Duration,
}

impl Default for ContainerConfig {
    fn default() -> Self {
        ContainerConfig {
            docker_host: None,
            image: DEFAULT_IMAGE.to_owned(),
            network: None,
            memory_bytes: 1 << 30,
            pids_limit: 512,
            user: None,
            idle_timeout: Duration::from_secs(600),
            state_dir: None,
            pull: true,
            kill_grace: Duration::from_secs(5),
        }
    }
}

impl ContainerConfig {
    /// The defaults, with these variables applied when set:
    /// `COMPUTER_CONTAINER_ENGINE` (an engine address, or `none`),
    /// `COMPUTER_CONTAINER_IMAGE`, `COMPUTER_CONTAINER_NETWORK` (`none` or a
    /// network mode such as `bridge`), `COMPUTER_CONTAINER_MEMORY` (MiB),
    /// `COMPUTER_CONTAINER_PIDS`, `COMPUTER_CONTAINER_USER`,
    /// `COMPUTER_CONTAINER_IDLE_TIMEOUT` (seconds) and
    /// `COMPUTER_CONTAINER_PULL` (`0` to never pull).
    pub fn from_env() -> Result<Self, ContainerError> {
        let mut c = ContainerConfig::default();
        let var = |name: &str| std::env::var(name).ok().filter(|v| !v.trim().is_empty());
        if let Some(v) = var("COMPUTER_CONTAINER_ENGINE") {
            c.docker_host = Some(v);
        }
        if let Some(v) = var("COMPUTER_CONTAINER_IMAGE") {
            c.image = v;
        }
        if let Some(v) = var("COMPUTER_CONTAINER_NETWORK") {
            c.network = (v != "none").then_some(v);
        }
        if let Some(v) = var("COMPUTER_CONTAINER_MEMORY") {
            let mib: u64 = parse_number("COMPUTER_CONTAINER_MEMORY", &v)?;
            if mib == 0 {
                return Err(ContainerError::InvalidOption(
                    "COMPUTER_CONTAINER_MEMORY must be above 0 MiB".into(),
                ));
            }
            c.memory_bytes = mib << 20;
        }
        if let Some(v) = var("COMPUTER_CONTAINER_PIDS") {
            c.pids_limit = parse_number("COMPUTER_CONTAINER_PIDS", &v)?;
        }
        if let Some(v) = var("COMPUTER_CONTAINER_USER") {
            c.user = Some(v);
        }
        if let Some(v) = var("COMPUTER_CONTAINER_IDLE_TIMEOUT") {
            let secs: u64 = parse_number("COMPUTER_CONTAINER_IDLE_TIMEOUT", &v)?;
            c.idle_timeout = Duration::from_secs(secs.max(1));
        }
        if let Some(v) = var("COMPUTER_CONTAINER_PULL") {
            c.pull = !matches!(v.as_str(), "0" | "false" | "no");
        }
        Ok(c)
    }

    /// The directory holding every workspace's state.
    pub fn state_root(&self) -> PathBuf {
        if let Some(dir) = &self.state_dir {
            return dir.clone();
        }
        cache_dir().join("containers")
    }
}

fn parse_number<T: std::str::FromStr>(name: &str, value: &str) -> Result<T, ContainerError> {
    value
        .trim()
        .parse()
        .map_err(|_| ContainerError::InvalidOption(format!("{name}={value:?} is not a number")))
}

/// `$COMPUTER_CACHE_DIR`, else `$XDG_CACHE_HOME/computer`, else
/// `~/.cache/computer` (the runtime's compiled-component cache lives there too).
pub(crate) fn cache_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("COMPUTER_CACHE_DIR").filter(|v| !v.is_empty()) {
        return PathBuf::from(dir);
    }
    if let Some(dir) = std::env::var_os("XDG_CACHE_HOME").filter(|v| !v.is_empty()) {
        return PathBuf::from(dir).join("computer");
    }
    if let Some(home) = std::env::var_os("HOME").filter(|v| !v.is_empty()) {
        return PathBuf::from(home).join(".cache").join("computer");
    }
    std::env::temp_dir().join("computer-cache")
}
