//! One vocabulary per surface (issue 19, item 9): the CLI's `--json` is
//! snake_case, MCP is camelCase, and every duration names its unit.

use super::*;

/// Every key of `doc`'s top level.
fn keys(doc: &Value) -> Vec<String> {
    doc.as_object()
        .expect("an object")
        .keys()
        .cloned()
        .collect()
}

fn assert_case(doc: &Value, camel: bool) {
    for k in keys(doc) {
        let bad = if camel {
            k.contains('_')
        } else {
            k.chars().any(|c| c.is_ascii_uppercase())
        };
        assert!(!bad, "key {k:?} breaks the surface's case: {doc}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cli_json_is_snake_case_and_mcp_is_camel_case_with_units_named() {
    let ws = Ws::new();
    let (_, cli) = ws.exec_json(&["--backend", "shell", "echo hi"], "");
    assert_case(&cli, false);
    assert!(cli["duration_ms"].as_f64().is_some(), "{cli}");
    assert!(cli.get("duration").is_none(), "{cli}");
    let shown = ws.json(&["runs", "show", cli["run_id"].as_str().unwrap()]);
    assert_case(&shown, false);
    assert_eq!(
        shown["options"]["timeout_ms"], 60000,
        "options are an object: {shown}"
    );

    let s = Session::start(&ws, &["--backends", "shell"]).await;
    let mcp = s.ok("exec", json!({"command": "echo hi"})).await;
    assert_case(&mcp, true);
    assert!(mcp["durationMs"].as_u64().is_some(), "{mcp}");
    s.ok("write", json!({"path": "/d/f.txt", "content": "x"}))
        .await;
    let ls = s.ok("ls", json!({"path": "/d"})).await;
    let entry = &ls["entries"][0];
    assert_case(entry, true);
    assert!(
        entry["mtimeMs"]
            .as_u64()
            .is_some_and(|ms| ms > 1_600_000_000_000),
        "{entry}"
    );
    let runs = s.read_resource("computer://runs").await.unwrap();
    for run in runs["runs"].as_array().unwrap() {
        assert_case(run, true);
        assert_case(&run["options"], true);
    }
    s.stop().await;
}
