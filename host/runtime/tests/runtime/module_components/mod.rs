//! Module components through the public API: loading and refusing
//! components, the function list with WIT-like types, JSON <-> component
//! values of every kind in both directions, errors that name the function
//! and the argument, the call context (call id, config, interrupts,
//! unsafe-to-repeat), limits, outgoing HTTP allowed and denied, and the
//! `ws:github` example end to end against a local HTTP server.
//!
//! The components are built by `scripts/build-guests.sh`:
//! `tests/fixtures/test-module` (every value kind, ways to fail) and
//! `examples/github-module`.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use computer_runtime::{
    Answer, CallContext, ComponentModule, ExecError, ExecOptions, HostModule, JS_GUEST,
    ModuleCallError, ModuleLimits, RunStatus, Runtime,
};
use computer_store::{NewModule, Workspace};
use serde_json::{Value, json};

use crate::support::*;

mod context_limits;
mod http;
mod loading;
mod values;

// ------------------------------------------------------------------ helpers

fn runtime() -> Runtime {
    bare_runtime()
}

/// A component built by `scripts/build-guests.sh` (or `$VAR`).
fn built(var: &str, file: &str) -> Vec<u8> {
    let path = std::env::var_os(var).map(PathBuf::from).unwrap_or_else(|| {
        PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../../guests/target/wasm32-wasip2/release")
            .join(file)
    });
    std::fs::read(&path).unwrap_or_else(|e| {
        panic!(
            "cannot read {} ({e}): run scripts/build-guests.sh to build the module components",
            path.display()
        )
    })
}

fn test_module_bytes() -> &'static [u8] {
    static BYTES: std::sync::OnceLock<Vec<u8>> = std::sync::OnceLock::new();
    BYTES.get_or_init(|| built("COMPUTER_TEST_MODULE_WASM", "computer_test_module.wasm"))
}

fn github_bytes() -> &'static [u8] {
    static BYTES: std::sync::OnceLock<Vec<u8>> = std::sync::OnceLock::new();
    BYTES.get_or_init(|| built("COMPUTER_GITHUB_MODULE_WASM", "github_module.wasm"))
}

fn kinds() -> ComponentModule {
    kinds_with(vec![("k".into(), "v".into()), ("a".into(), "b".into())])
}

fn kinds_with(config: Vec<(String, String)>) -> ComponentModule {
    ComponentModule::load(&runtime(), "ws:kinds", test_module_bytes(), config, vec![])
        .unwrap_or_else(|e| panic!("loading the test module: {e}"))
}

fn ctx(function: &str) -> CallContext {
    CallContext::detached("call-1", "kinds", function)
}

fn call(m: &ComponentModule, function: &str, args: Value) -> Result<Value, ModuleCallError> {
    m.call(function, args, &mut ctx(function))
}

fn ok(m: &ComponentModule, function: &str, args: Value) -> Value {
    call(m, function, args).unwrap_or_else(|e| panic!("{function} failed: {e:?}"))
}

/// The message of a `BadArguments` error.
fn bad_args(m: &ComponentModule, function: &str, args: Value) -> String {
    match call(m, function, args.clone()) {
        Err(ModuleCallError::BadArguments(msg)) => msg,
        other => panic!("{function}({args}): expected BadArguments, got {other:?}"),
    }
}

fn failed(r: Result<Value, ModuleCallError>) -> String {
    match r {
        Err(ModuleCallError::Failed(msg)) => msg,
        other => panic!("expected Failed, got {other:?}"),
    }
}

fn bad_module(r: Result<ComponentModule, ExecError>) -> String {
    match r {
        Err(ExecError::BadModule { reason, .. }) => reason,
        Err(other) => panic!("expected BadModule, got {other:?}"),
        Ok(m) => panic!("expected BadModule, loaded {}", m.name()),
    }
}

/// A value of the `everything` record, as JSON.
fn everything() -> Value {
    json!({
        "flag": true,
        "v-u8": 255, "v-s8": -128, "v-u16": 65535, "v-s16": -32768,
        "v-u32": 4294967295u64, "v-s32": -2147483648i64,
        "v-u64": u64::MAX, "v-s64": i64::MIN,
        "v-f32": 0.5, "v-f64": 1e300,
        "letter": "é",
        "text": "hello \"world\"\n",
        "bytes": [0, 1, 255],
        "pair": ["a", 7],
        "maybe": {"x": 1, "y": -2, "label": "p"},
        "outcome": {"err": "bad"},
        "bare": {"ok": null},
        "hue": "green",
        "form": {"circle": 2.5},
        "access": ["read", "exec"],
        "points": [null, {"x": 3, "y": 4, "label": null}],
    })
}
