//! The container backend against a real engine (Podman's API service or
//! Docker) and the busybox image (`scripts/build-image.sh busybox`).
//!
//! Without an engine these tests print a loud SKIPPED line and pass, unless
//! `COMPUTER_REQUIRE_CONTAINER=1` (set by `scripts/test.sh`), which makes
//! them fail instead.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use computer_container::{
    ContainerBackend, ContainerConfig, ContainerError, ContainerExecOptions, ContainerRunInfo,
    EXIT_ENGINE, NO_ENGINE,
};
use computer_runtime::{
    Event, ExecOptions, RunResult, RunStatus, Runtime, RuntimeConfig, SHELL_BACKEND,
};
use computer_store::{NodeKind, Page, Workspace, WriteOptions};

use crate::support::{TEST_IMAGE, skip, text};

mod change_watch;
mod lifecycle;
mod read_only;
mod sync;

/// A workspace, a backend whose state lives in the test's temp dir, and
/// the container removed at the end (also on failure).
struct Fixture {
    ws: Arc<Workspace>,
    backend: ContainerBackend,
    dir: tempfile::TempDir,
}

impl Drop for Fixture {
    fn drop(&mut self) {
        let _ = self.backend.stop(&self.ws);
    }
}

fn config(dir: &std::path::Path) -> ContainerConfig {
    ContainerConfig {
        image: TEST_IMAGE.to_owned(),
        state_dir: Some(dir.join("state")),
        kill_grace: Duration::from_secs(2),
        ..ContainerConfig::default()
    }
}

/// The fixture, or `None` (after a loud message) when no engine can be
/// reached or the default image is missing.
fn fixture(name: &str) -> Option<Fixture> {
    fixture_with(name, |_| {})
}

fn fixture_with(name: &str, tweak: impl FnOnce(&mut ContainerConfig)) -> Option<Fixture> {
    let dir = tempfile::tempdir().expect("tempdir");
    let ws = Arc::new(Workspace::open(dir.path().join("ws.db")).expect("workspace"));
    let mut cfg = config(dir.path());
    tweak(&mut cfg);
    let backend = ContainerBackend::new(cfg).expect("backend");
    if let Err(e) = backend.connect() {
        skip(name, &e.to_string());
        return None;
    }
    Some(Fixture { ws, backend, dir })
}

fn opts() -> ContainerExecOptions {
    ContainerExecOptions {
        timeout: Duration::from_secs(60),
        ..Default::default()
    }
}

fn run(f: &Fixture, script: &str) -> RunResult {
    run_with(f, script, opts())
}

fn run_with(f: &Fixture, script: &str, o: ContainerExecOptions) -> RunResult {
    let handle = f
        .backend
        .exec(f.ws.clone(), script, o)
        .expect("exec starts");
    let r = handle.wait();
    if let Some(err) = &r.error
        && err.contains("not present locally")
    {
        panic!("{err}: run scripts/build-image.sh busybox");
    }
    r
}

fn write(ws: &Workspace, path: &str, data: &str) {
    ws.write(
        path,
        data.as_bytes(),
        &WriteOptions {
            create_parents: true,
            ..Default::default()
        },
    )
    .expect("write");
}

/// The built-in shell guest, if this build has one.
fn shell_runtime() -> Option<Runtime> {
    let rt = Runtime::with_builtin_guests(RuntimeConfig::default()).ok()?;
    if rt.backends().iter().any(|b| b == SHELL_BACKEND) {
        Some(rt)
    } else {
        eprintln!(
            "\n!!!!!!!! the shell guest is not built (scripts/build-guests.sh): using the workspace API in its place\n"
        );
        None
    }
}

fn shell(rt: &Runtime, ws: &Arc<Workspace>, script: &str) -> (i32, String) {
    let r = rt
        .exec(
            ws.clone(),
            script,
            ExecOptions {
                backend: SHELL_BACKEND.into(),
                ..Default::default()
            },
        )
        .expect("shell exec")
        .wait();
    (r.exit_code, text(&r.stdout))
}
