//! The shell guest's hardening (issue 18), through `Runtime::exec` with the
//! built-in `shell` guest:
//!
//! - an append the script was told succeeded is in the workspace, else the
//!   command (or, for bashkit's own streaming commands, the run) fails;
//! - the endless devices give the bytes asked for, or say why they cannot;
//! - `rm` reports a read-only subtree; `find` and `grep -r` report entries
//!   whose paths the store cannot address.

use std::sync::Arc;
use std::time::Duration;

use computer_runtime::{ExecOptions, Limits, RunResult, RuntimeConfig};
use computer_store::{Config, MkdirOptions, Workspace, WriteOptions};

mod appends;
mod devices;
mod paths;

/// The shell tests' runtime (one engine and compiled shell per test process).
use crate::shell_limits::runtime;

/// Runs `script` in the shell with the default limits and a generous timeout.
fn run(ws: &Arc<Workspace>, script: &str) -> RunResult {
    let config = RuntimeConfig::default();
    let limits = Limits {
        timeout: Duration::from_secs(120),
        memory_bytes: config.backend_memory["shell"],
        ..config.limits
    };
    let options = ExecOptions {
        backend: "shell".into(),
        limits: Some(limits),
        ..Default::default()
    };
    runtime()
        .exec(ws.clone(), script, options)
        .unwrap_or_else(|e| panic!("exec refused {script:?}: {e}"))
        .wait()
}

fn show(script: &str, r: &RunResult) -> String {
    let clip = |b: &[u8]| {
        let s = String::from_utf8_lossy(b);
        s.chars().take(800).collect::<String>()
    };
    format!(
        "script: {script}\nstatus: {:?}, exit {}, error {:?}\nstdout: {}\nstderr: {}",
        r.status,
        r.exit_code,
        r.error,
        clip(&r.stdout),
        clip(&r.stderr)
    )
}

fn stdout(r: &RunResult) -> String {
    String::from_utf8_lossy(&r.stdout).into_owned()
}

fn stderr(r: &RunResult) -> String {
    String::from_utf8_lossy(&r.stderr).into_owned()
}

fn in_memory() -> Arc<Workspace> {
    Arc::new(Workspace::in_memory().expect("in-memory workspace"))
}

/// A workspace file in a fresh temporary directory (kept alive by the caller),
/// opened with `config`.
fn on_disk(config: Config) -> (tempfile::TempDir, Arc<Workspace>) {
    let dir = tempfile::tempdir().expect("temporary directory");
    let ws = Workspace::open_with(dir.path().join("ws.db"), config).expect("opening");
    (dir, Arc::new(ws))
}

fn write(ws: &Workspace, path: &str, data: &[u8]) {
    ws.write(path, data, &WriteOptions::default())
        .unwrap_or_else(|e| panic!("writing {path}: {e}"));
}

fn mkdir(ws: &Workspace, path: &str) {
    let options = MkdirOptions {
        recursive: true,
        mode: None,
    };
    ws.mkdir(path, &options)
        .unwrap_or_else(|e| panic!("mkdir {path}: {e}"));
}
