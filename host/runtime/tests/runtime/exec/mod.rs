//! `Runtime::exec` through the public API: results, events, limits, errors,
//! cancellation, concurrency, run records, and the workspace as JS sees it.
//!
//! Nothing here asserts speed. Waits are bounded by a watchdog so a run that
//! never ends fails its test instead of hanging the suite; where a test needs
//! two things to happen in an order, it uses a handshake through workspace
//! files rather than sleeps.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::mpsc;
use std::time::Duration;

use computer_runtime::{
    Event, ExecError, ExecOptions, FunctionInfo, HostModule, JS_GUEST, Limits, ModuleCallError,
    RunHandle, RunResult, RunStatus, Runtime, RuntimeConfig, builtin_guests,
};
use computer_store::{Errno, MkdirOptions, Page, Workspace, WriteOptions};
use serde_json::{Value, json};

use crate::support::*;

mod errors;
mod group_commit;
mod guests_modules;
mod lifecycle;
mod limits;
mod records_workspace;
mod results;

/// Timeout of runs that are meant to finish by themselves (generous).
const LONG: Duration = Duration::from_secs(30);

// ------------------------------------------------------------------ helpers

/// A fresh in-memory workspace with an empty `/work`.
fn workspace() -> Arc<Workspace> {
    let ws = Workspace::in_memory().expect("in-memory workspace");
    ws.mkdir("/work", &MkdirOptions::default())
        .expect("mkdir /work");
    Arc::new(ws)
}

fn limits(timeout: Duration) -> Limits {
    Limits {
        timeout,
        ..Limits::default()
    }
}

/// JS options with a generous timeout and cwd `/work`.
fn js() -> ExecOptions {
    ExecOptions {
        backend: "js".into(),
        cwd: Some("/work".into()),
        limits: Some(limits(LONG)),
        ..Default::default()
    }
}

/// Reads every event and waits for the result, under the watchdog.
fn finish(handle: RunHandle) -> (Vec<Event>, RunResult) {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut events = Vec::new();
        while let Some(ev) = handle.next_event() {
            events.push(ev);
        }
        let _ = tx.send((events, handle.wait()));
    });
    rx.recv_timeout(WATCHDOG)
        .unwrap_or_else(|_| panic!("the run did not end within {WATCHDOG:?}"))
}

/// Waits for the result under the watchdog, ignoring events.
fn wait(handle: RunHandle) -> RunResult {
    finish(handle).1
}

fn exec(rt: &Runtime, ws: &Arc<Workspace>, source: &str, options: ExecOptions) -> RunResult {
    let handle = rt
        .exec(ws.clone(), source, options)
        .unwrap_or_else(|e| panic!("exec refused the run: {e}"));
    wait(handle)
}

/// Runs `source` with [`js`] options in a fresh workspace.
fn run_js(source: &str) -> RunResult {
    exec(&runtime(), &workspace(), source, js())
}

/// The next event, or a failure after the watchdog.
fn next_event(handle: &RunHandle) -> Event {
    handle
        .events()
        .recv_timeout(WATCHDOG)
        .unwrap_or_else(|e| panic!("no event within {WATCHDOG:?}: {e}"))
}

/// Waits for the run's first stdout chunk, which must be `expected`.
fn expect_stdout(handle: &RunHandle, expected: &str) {
    match next_event(handle) {
        Event::Stdout(b) => assert_eq!(s(&b), expected),
        other => panic!("expected stdout {expected:?} first, got {other:?}"),
    }
}

fn write(ws: &Workspace, path: &str, data: &[u8]) {
    ws.write(
        path,
        data,
        &WriteOptions {
            create_parents: true,
            ..Default::default()
        },
    )
    .unwrap_or_else(|e| panic!("writing {path}: {e}"));
}

/// JS that waits (in 5 ms timer steps) until `path` exists.
fn wait_for_file_js(path: &str) -> String {
    format!(
        "await new Promise((resolve) => {{
           const poll = () => fs.existsSync({path:?}) ? resolve() : setTimeout(poll, 5);
           poll();
         }});"
    )
}

/// The built-in backends, sorted (`js`, and others as they are built, and
/// `command`, which needs no guest).
fn builtin_names() -> Vec<String> {
    let mut names: Vec<String> = builtin_guests()
        .iter()
        .map(|(n, _)| (*n).to_owned())
        .chain([computer_runtime::COMMAND_BACKEND.to_owned()])
        .collect();
    names.sort();
    names
}
