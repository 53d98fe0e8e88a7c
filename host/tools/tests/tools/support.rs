//! Helpers shared by the tool tests, and the types they all use.

pub use std::path::PathBuf;
pub use std::sync::{Arc, OnceLock};

pub use computer_runtime::{JS_GUEST, Runtime, RuntimeConfig};
pub use computer_store::{AuditQuery, AuditRecord, NodeKind, Page, Workspace, WriteOptions};
pub use computer_tools::{Format, ToolOptions, Tools, render};
pub use serde_json::{Value, json};

pub fn workspace() -> Arc<Workspace> {
    Arc::new(Workspace::in_memory().expect("in-memory workspace"))
}

/// A tool set with no runtime (so no `exec`).
pub fn fs_tools() -> (Arc<Workspace>, Tools) {
    let ws = workspace();
    let tools = Tools::new(ws.clone(), None, ToolOptions::default());
    (ws, tools)
}

pub fn readonly_tools() -> (Arc<Workspace>, Tools) {
    let ws = workspace();
    let tools = Tools::new(
        ws.clone(),
        Some(runtime()),
        ToolOptions {
            readonly: true,
            backends: vec![],
            ..Default::default()
        },
    );
    (ws, tools)
}

/// One runtime per test process, with the JS guest as backend `js`.
/// Compiled components are cached under the target directory.
pub fn runtime() -> Runtime {
    static RT: OnceLock<Runtime> = OnceLock::new();
    RT.get_or_init(|| {
        let js = JS_GUEST.expect(
            "the JS guest is not embedded in computer-runtime: run scripts/build-guests.sh, then rebuild",
        );
        let config = RuntimeConfig {
            cache_dir: Some(PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("component-cache")),
            ..Default::default()
        };
        let rt = Runtime::new(config).expect("runtime");
        rt.register_guest("js", js).expect("registering the JS guest");
        rt
    })
    .clone()
}

pub fn exec_tools() -> (Arc<Workspace>, Tools) {
    let ws = workspace();
    let tools = Tools::new(ws.clone(), Some(runtime()), ToolOptions::default());
    (ws, tools)
}

/// Calls a tool that must succeed.
pub fn ok(tools: &Tools, name: &str, args: Value) -> Value {
    let shown = args.to_string();
    let v = tools.call(name, args);
    assert!(
        !Tools::is_error(&v),
        "{name} {shown} failed: {}",
        v["error"]
    );
    v
}

/// Calls a tool that must fail; returns the message.
pub fn err(tools: &Tools, name: &str, args: Value) -> String {
    let shown = args.to_string();
    let v = tools.call(name, args);
    assert!(Tools::is_error(&v), "{name} {shown} should fail: {v}");
    let obj = v.as_object().expect("an error is an object");
    assert_eq!(obj.len(), 1, "an error holds only `error`: {v}");
    v["error"].as_str().unwrap().to_owned()
}

pub fn put(ws: &Workspace, path: &str, data: impl AsRef<[u8]>) {
    ws.write(
        path,
        data.as_ref(),
        &WriteOptions {
            create_parents: true,
            ..Default::default()
        },
    )
    .unwrap();
}

pub fn text(ws: &Workspace, path: &str) -> String {
    String::from_utf8(ws.read(path).unwrap()).unwrap()
}

pub fn names(v: &Value, list: &str, field: &str) -> Vec<String> {
    v[list]
        .as_array()
        .unwrap_or_else(|| panic!("{list} is not an array: {v}"))
        .iter()
        .map(|e| e[field].as_str().unwrap().to_owned())
        .collect()
}

pub fn audit(ws: &Workspace, path: &str) -> Vec<AuditRecord> {
    ws.audit()
        .query(&AuditQuery {
            path: Some(path.to_owned()),
            ..Default::default()
        })
        .unwrap()
}
