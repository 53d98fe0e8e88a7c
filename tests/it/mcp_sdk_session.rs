//! `computer mcp` with the official MCP Python SDK (`mcp` on PyPI) as the
//! client (issue 19, items 10 and 1): a session that lists the tools, runs
//! an exec and reads a file, then closes while a long exec runs. The run
//! must end recorded `cancelled`, and `recover` must not run it again. And
//! an exec that waits for a compile sends progress to a client that asked.
//!
//! The SDK lives in a venv that `scripts/setup.sh` makes
//! (`target/mcp-sdk/venv`, or `$COMPUTER_MCP_PYTHON` naming a python that
//! has it). Only a machine without python3 skips; a missing SDK fails.

use std::path::PathBuf;
use std::process::Command;

use computer_tests::{Ws, component_cache_dir, computer_bin, describe, text, workspace_root};
use serde_json::Value;

/// The python that has the SDK, or `None` (with the reason printed) where
/// there is no python3 at all.
fn sdk_python() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("COMPUTER_MCP_PYTHON") {
        return Some(PathBuf::from(p));
    }
    let target = std::env::var_os("CARGO_TARGET_DIR").map_or_else(
        || workspace_root().join("target"),
        |d| workspace_root().join(d),
    );
    let venv = target.join("mcp-sdk/venv/bin/python");
    if venv.exists() {
        return Some(venv);
    }
    let has_python = Command::new("python3").arg("--version").output().is_ok();
    if !has_python {
        eprintln!("skipped: no python3 on this machine (the MCP SDK client needs it)");
        return None;
    }
    panic!(
        "the MCP Python SDK is not installed at {}: run scripts/setup.sh (or set COMPUTER_MCP_PYTHON to a python with `mcp`)",
        venv.display()
    );
}

fn script(name: &str) -> PathBuf {
    workspace_root().join("tests/mcp_sdk").join(name)
}

/// Runs an SDK script against `ws` with the shared component cache.
fn run_sdk(python: &PathBuf, ws: &Ws, name: &str, args: &[&str]) -> Value {
    run_sdk_with_cache(python, ws, name, args, &component_cache_dir())
}

/// Runs an SDK script against `ws`; returns the JSON it printed.
fn run_sdk_with_cache(
    python: &PathBuf,
    ws: &Ws,
    name: &str,
    args: &[&str],
    cache: &std::path::Path,
) -> Value {
    let out = Command::new(python)
        .arg(script(name))
        .arg(computer_bin())
        .arg(ws.db())
        .args(args)
        .current_dir(ws.dir())
        .env("COMPUTER_CACHE_DIR", cache)
        .env_remove("COMPUTER_LOG")
        .output()
        .expect("running the SDK client");
    assert!(out.status.success(), "{}", describe(&[name], &out));
    serde_json::from_str(text(&out.stdout).trim()).expect("the client prints one JSON object")
}

#[test]
fn an_sdk_session_that_closes_mid_exec_leaves_its_run_cancelled_and_not_rerun() {
    let Some(python) = sdk_python() else { return };
    let ws = Ws::new();
    let seen = run_sdk(&python, &ws, "session.py", &["/side-effect.txt"]);
    assert_eq!(seen["server"], "computer");
    let tools: Vec<&str> = seen["tools"]
        .as_array()
        .expect("tools")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    for t in [
        "exec", "read", "write", "edit", "ls", "find", "grep", "delete",
    ] {
        assert!(tools.contains(&t), "{t} missing from {tools:?}");
    }
    assert_eq!(seen["exec"]["status"], "completed");
    assert_eq!(seen["exec"]["exitCode"], 0);
    assert_eq!(seen["exec"]["stdout"], "hi\n");
    assert_eq!(seen["read"], "hi\n");
    assert_eq!(seen["long_exec_started"], true);

    let runs = ws.json(&["runs"]);
    let long: Vec<&Value> = runs["runs"]
        .as_array()
        .expect("runs")
        .iter()
        .filter(|r| {
            r["source"]
                .as_str()
                .is_some_and(|s| s.contains("side-effect"))
        })
        .collect();
    assert_eq!(long.len(), 1, "one long run: {runs}");
    assert_eq!(long[0]["status"], "cancelled", "{}", long[0]);

    let recovered = ws.json(&["recover"]);
    assert_eq!(ws.cat("/side-effect.txt"), "once\n", "recover: {recovered}");
    let after = ws.json(&["runs", "show", long[0]["id"].as_str().expect("id")]);
    assert_eq!(after["status"], "cancelled");
}

#[test]
fn an_exec_that_compiles_sends_progress_to_a_client_that_asked() {
    let Some(python) = sdk_python() else { return };
    let ws = Ws::new();
    let empty_cache = tempfile::tempdir().expect("a cache directory");
    let seen = run_sdk_with_cache(&python, &ws, "progress.py", &["js"], empty_cache.path());
    assert_eq!(seen["stdout"], "ran\n");
    let first: Vec<&str> = seen["first"]
        .as_array()
        .expect("first")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert!(!first.is_empty(), "no progress while compiling: {seen}");
    // The server also compiles the others in the background from its
    // start: the call hears of whatever it waits behind, js among them.
    assert!(
        first
            .iter()
            .any(|m| m.starts_with("compiling js (") && m.contains("for this machine")),
        "{first:?}"
    );
    // Compiled once: the second exec does not wait for js again (it may
    // still hear of a background compile of another component, such as
    // python's, that has not ended yet).
    let second = seen["second"].as_array().expect("second");
    assert!(
        !second
            .iter()
            .filter_map(Value::as_str)
            .any(|m| m.starts_with("compiling js (")),
        "{seen}"
    );
}
