//! The agent `exec` tool on the `container` and `auto` backends (real
//! engine; skipped loudly without one unless `COMPUTER_REQUIRE_CONTAINER=1`).

use std::sync::Arc;

use computer_container::{ContainerBackend, ContainerConfig};
use computer_runtime::{Runtime, RuntimeConfig};
use computer_store::Workspace;
use computer_tools::{ToolOptions, Tools};
use serde_json::json;

use crate::support::{TEST_IMAGE, skip};

#[test]
fn the_exec_tool_offers_and_runs_the_container_backends() {
    let dir = tempfile::tempdir().unwrap();
    let ws = Arc::new(Workspace::open(dir.path().join("ws.db")).unwrap());
    let backend = ContainerBackend::new(ContainerConfig {
        image: TEST_IMAGE.to_owned(),
        state_dir: Some(dir.path().join("state")),
        ..ContainerConfig::default()
    })
    .unwrap();
    if let Err(e) = backend.connect() {
        return skip("the exec tool on containers", &e.to_string());
    }
    let runtime = Runtime::with_builtin_guests(RuntimeConfig::default()).unwrap();
    computer_container::register(&runtime, backend.clone()).unwrap();
    let tools = Tools::new(ws.clone(), Some(runtime), ToolOptions::default());
    let offered = tools.backends().to_vec();
    assert!(
        offered.ends_with(&["auto".to_owned(), "container".to_owned()]),
        "{offered:?}"
    );
    // Without a container backend they are not offered.
    let plain = Tools::new(
        ws.clone(),
        Some(Runtime::with_builtin_guests(RuntimeConfig::default()).unwrap()),
        ToolOptions::default(),
    );
    assert!(!plain.backends().iter().any(|b| b == "container"));

    let out = tools.call(
        "exec",
        json!({"command": "echo hi > hi.txt; cat hi.txt", "backend": "container"}),
    );
    assert_eq!(out["exitCode"], 0, "{out}");
    assert_eq!(out["backend"], "container");
    assert_eq!(out["stdout"], "hi\n");
    assert_eq!(out["pulled"], 1);
    assert_eq!(ws.read("/hi.txt").unwrap(), b"hi\n");

    if offered.iter().any(|b| b == "shell") {
        let out = tools.call(
            "exec",
            json!({"command": "dc -e '4 5 * p'", "backend": "auto"}),
        );
        assert_eq!(
            (out["backend"].as_str(), out["stdout"].as_str()),
            (Some("container"), Some("20\n")),
            "{out}"
        );
    }
    backend.stop(&ws).unwrap();
}
