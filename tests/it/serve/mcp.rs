//! Remote MCP at `/workspaces/{id}/mcp` with the official MCP Python SDK's
//! streamable HTTP client (`tests/mcp_sdk/http_session.py`).

use std::process::Command;

use computer_tests::workspace_root;
use serde_json::Value;

use super::Served;

pub fn sdk_python() -> std::path::PathBuf {
    if let Some(p) = std::env::var_os("COMPUTER_MCP_PYTHON") {
        return p.into();
    }
    let target = std::env::var_os("CARGO_TARGET_DIR").map_or_else(
        || workspace_root().join("target"),
        |d| workspace_root().join(d),
    );
    let venv = target.join("mcp-sdk/venv/bin/python");
    assert!(
        venv.exists(),
        "the MCP Python SDK is not installed at {}: run scripts/setup.sh",
        venv.display()
    );
    venv
}

fn session(url: &str, token: &str) -> (bool, Value, String) {
    let out = Command::new(sdk_python())
        .arg(workspace_root().join("tests/mcp_sdk/http_session.py"))
        .args([url, token])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let doc = serde_json::from_str(stdout.trim()).unwrap_or(Value::Null);
    (
        out.status.success(),
        doc,
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn the_sdk_over_http_lists_execs_reads_and_is_held_to_its_token() {
    let s = Served::start(&[]);
    s.workspace("w");
    s.workspace("other");
    let url = format!("http://{}/workspaces/w/mcp", s.addr);

    let (ok, seen, err) = session(&url, &s.token);
    assert!(ok, "{err}");
    assert_eq!(seen["server"], "computer");
    let tools: Vec<&str> = seen["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_str().unwrap())
        .collect();
    for t in ["exec", "read", "write", "edit", "ls", "grep"] {
        assert!(tools.contains(&t), "{tools:?}");
    }
    assert_eq!(seen["exec"]["stdout"], "over http\n", "{seen}");
    assert_eq!(seen["exec"]["exitCode"], 0);
    assert_eq!(seen["read"], "over http\n");
    assert_eq!(seen["approvals"]["pending"], serde_json::json!([]));
    // The calls are in the workspace's audit log under the token.
    let rows = s.ok(
        "GET",
        "/workspaces/w/audit?actor=tool%3Ahttp%3Aadmin&path=%2Fmcp.txt",
        None,
    );
    assert!(!rows["audit"].as_array().unwrap().is_empty(), "{rows}");

    // A read-only token gets the read-only tool set: no exec, no write.
    let reader = s.token("reader", "w", "read");
    let (ok, seen, err) = session(&url, &reader);
    assert!(ok, "{err}");
    let tools: Vec<&str> = seen["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_str().unwrap())
        .collect();
    assert!(
        tools.contains(&"read") && !tools.contains(&"exec") && !tools.contains(&"write"),
        "{tools:?}"
    );
    assert_eq!(seen["read"], "over http\n");

    // A token of another workspace, or none, is refused.
    let other = s.token("other", "other", "read,exec");
    let (ok, _, err) = session(&url, &other);
    assert!(!ok, "a token for another workspace must not connect: {err}");
    let (ok, _, _) = session(&url, "ctk_wrong");
    assert!(!ok);
    let r = s.req_as(None, "POST", "/workspaces/w/mcp", Some(b"{}"));
    assert_eq!(r.status, 401);
}
