//! The container backend: runs `/bin/sh -c` in a Docker or Podman container
//! (any Docker-API engine, through bollard) against a synced copy of the
//! workspace, and the `auto` backend that falls back to it from the shell.
//!
//! - **Engine** ([`choose_engine`]): `COMPUTER_CONTAINER_ENGINE` (an
//!   address, or `none` to turn containers off), else `DOCKER_HOST`, else the
//!   usual Docker and Podman sockets. With none answering, an exec fails at
//!   once with "no container engine: set DOCKER_HOST or start podman system
//!   service" (exit code 125); the wasm backends are unaffected. A run's
//!   result names its engine and image ([`ContainerRunInfo`]).
//! - **Image**: [`DEFAULT_IMAGE`] (Debian 12 with gcc, make, python3, pip,
//!   nodejs, npm and git, built by `scripts/build-image.sh`), or
//!   `COMPUTER_CONTAINER_IMAGE`, or a run's own (`ExecOptions::image`).
//! - **One container per workspace**, created on first use, reused, replaced
//!   when it died, removed by [`ContainerBackend::stop`] or by its own idle
//!   watchdog. No network, no capabilities, memory and pids limits, a
//!   non-root user; the workspace is mounted at `/workspace`.
//! - **Sync**: before each exec the workspace is pushed into a host directory
//!   (incrementally: nothing is copied when nothing changed), and after it
//!   the changes are pulled back. All host access goes through cap-std, so
//!   symlinks the container makes never lead outside the copy.
//!
//! ```no_run
//! use std::sync::Arc;
//! use computer_container::{ContainerBackend, ContainerConfig, ContainerExecOptions};
//! let ws = Arc::new(computer_store::Workspace::open("/tmp/ws.db").unwrap());
//! let backend = ContainerBackend::new(ContainerConfig::default()).unwrap();
//! let run = backend.exec(ws, "ls -la && echo hi > out.txt", ContainerExecOptions::default()).unwrap();
//! let result = run.wait();
//! let sync = result.sync().expect("a container run reports its sync");
//! println!("exit {} pushed {} pulled {}", result.exit_code, sync.pushed, sync.pulled);
//! ```

mod backend;
mod command;
mod config;
mod engine;
mod error;
mod lifecycle;
mod state;
mod sync;

pub use backend::{
    AUTO_BACKEND, CONTAINER_BACKEND, ContainerBackend, ContainerExecOptions, ContainerRunInfo,
    Status, StopReport, register,
};
pub use config::{
    BUSYBOX_IMAGE, ContainerConfig, DEFAULT_IMAGE, DEFAULT_IMAGE_PROGRAMS, MOUNT_POINT,
};
pub use engine::{ENGINE_NONE, EngineChoice, choose_engine, engine_address, probed_sockets};
pub use error::{ContainerError, EXIT_ENGINE, NO_ENGINE};
pub use lifecycle::ContainerState;
pub use sync::SyncReport;
