//! MCP resources, the audit of MCP calls, and the raw protocol.

use super::*;

// ------------------------------------------------------------- resources

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn runs_are_resources() {
    let ws = Ws::new();
    let s = Session::start(&ws, &["--backends", "js"]).await;
    let resources = s.client.list_all_resources().await.expect("resources/list");
    let uris: Vec<&str> = resources.iter().map(|r| r.uri.as_str()).collect();
    assert_eq!(
        uris,
        [
            "computer://approvals",
            "computer://runs",
            "computer://forks"
        ]
    );
    assert_eq!(
        s.read_resource("computer://runs").await.unwrap(),
        json!({"runs": []})
    );
    assert_eq!(
        s.read_resource("computer://approvals").await.unwrap(),
        json!({"pending": []})
    );

    let v = s
        .ok("exec", json!({"command": "console.log('first')"}))
        .await;
    let first = v["runId"].as_str().unwrap().to_owned();
    let v = s
        .ok(
            "exec",
            json!({"command": "export default () => ({ok: true})"}),
        )
        .await;
    let second = v["runId"].as_str().unwrap().to_owned();

    let resources = s.client.list_all_resources().await.unwrap();
    let uris: Vec<String> = resources.iter().map(|r| r.uri.clone()).collect();
    assert_eq!(
        uris,
        [
            "computer://approvals".to_owned(),
            "computer://runs".to_owned(),
            "computer://forks".to_owned(),
            format!("computer://runs/{second}"),
            format!("computer://runs/{first}"),
        ]
    );
    assert!(
        resources[3]
            .description
            .as_deref()
            .unwrap()
            .contains("js run")
    );

    let templates = s.client.list_all_resource_templates().await.unwrap();
    let templates: Vec<&str> = templates.iter().map(|t| t.uri_template.as_str()).collect();
    assert_eq!(
        templates,
        ["computer://runs/{id}", "computer://forks/{name}"]
    );

    let list = s.read_resource("computer://runs").await.unwrap();
    let ids: Vec<&str> = list["runs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, [second.as_str(), first.as_str()]);

    let run = s
        .read_resource(&format!("computer://runs/{first}"))
        .await
        .unwrap();
    assert_eq!(run["id"], first);
    assert_eq!(run["backend"], "js");
    assert_eq!(run["status"], "completed");
    assert_eq!(run["exitCode"], 0);
    assert!(run["startedNs"].as_i64().is_some(), "{run}");
    assert_eq!(run["options"]["timeoutMs"], 60000, "{run}");
    assert!(
        run.get("exit_code").is_none(),
        "MCP keys are camelCase: {run}"
    );
    assert_eq!(run["stdout"], "first\n");
    assert_eq!(run["source"], "console.log('first')");
    let run = s
        .read_resource(&format!("computer://runs/{second}"))
        .await
        .unwrap();
    assert_eq!(run["value"], "{\"ok\":true}");

    for uri in [
        "computer://runs/no-such-run",
        "computer://nothing",
        "file:///etc/passwd",
    ] {
        match s.read_resource(uri).await {
            Err(ServiceError::McpError(e)) => {
                assert!(
                    e.message.contains("computer://runs"),
                    "{uri}: {}",
                    e.message
                );
            }
            other => panic!("{uri}: expected an MCP error, got {other:?}"),
        }
    }
    s.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn forks_are_resources_with_what_differs_from_the_parent() {
    let ws = Ws::new();
    ws.put("/app/main.txt", "v1\n");
    ws.put("/app/same.txt", "same\n");
    ws.ok(&["snapshot", "create", "base"]);
    let doc = ws.json(&["fork", "try", "--from", "base"]);
    let path = doc["forks"][0]["path"].as_str().unwrap().to_owned();
    ws.put("/app/main.txt", "v2 in the parent\n");
    let args = [
        "--workspace",
        path.as_str(),
        "fs",
        "write",
        "/app/added.txt",
    ];
    let out = computer_tests::run_command(computer(ws.dir()).args(args), b"in the fork\n");
    assert!(out.status.success(), "{}", describe(&args, &out));

    let s = Session::start(&ws, &["--backends", "js"]).await;
    let resources = s.client.list_all_resources().await.unwrap();
    let fork = resources
        .iter()
        .find(|r| r.uri == "computer://forks/try")
        .expect("the fork is listed");
    assert!(fork.description.as_deref().unwrap().contains("base"));
    let list = s.read_resource("computer://forks").await.unwrap();
    assert_eq!(list["forks"][0]["name"], "try");
    assert_eq!(list["forks"][0]["fromSnapshot"], "base");
    assert_eq!(list["forks"][0]["exists"], true);
    let one = s.read_resource("computer://forks/try").await.unwrap();
    assert_eq!(one["path"], path.as_str());
    assert_eq!(
        one["changedFromParent"],
        json!([
            {"path": "/app/added.txt", "status": "added"},
            {"path": "/app/main.txt", "status": "modified"},
        ])
    );
    assert_eq!(one["changesTruncated"], false);
    match s.read_resource("computer://forks/nope").await {
        Err(ServiceError::McpError(e)) => {
            assert!(e.message.contains("computer://forks"), "{}", e.message)
        }
        other => panic!("expected an MCP error, got {other:?}"),
    }
    s.stop().await;
}

// ------------------------------------------------------------- audit

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mcp_calls_land_in_the_audit_log() {
    let ws = Ws::new();
    ws.put("/locked/keep.txt", "keep\n");
    ws.ok(&["fs", "readonly", "/locked"]);
    let s = Session::start(&ws, &["--backends", "js"]).await;
    s.ok("write", json!({"path": "/a.txt", "content": "x"}))
        .await;
    let msg = s
        .err(
            "write",
            args(json!({"path": "/locked/keep.txt", "content": "y"})),
        )
        .await;
    assert!(msg.starts_with("EROFS"), "{msg}");
    s.err("nope", args(json!({"q": 1}))).await;
    s.stop().await;

    let calls = ws.json(&["audit", "--tools"]);
    let calls = calls["tool_calls"].as_array().unwrap();
    let names: Vec<&str> = calls.iter().map(|c| c["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["write", "write", "nope"]);
    assert!(calls[0]["error"].is_null());
    assert!(calls[1]["error"].as_str().unwrap().starts_with("EROFS"));
    let params: Value = serde_json::from_str(calls[0]["parameters"].as_str().unwrap()).unwrap();
    assert_eq!(params, json!({"path": "/a.txt", "content": "x"}));

    let rows = ws.json(&["audit", "--path", "/locked/**"]);
    let denied: Vec<&Value> = rows["audit"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["outcome"] == "denied")
        .collect();
    assert_eq!(denied.len(), 1, "{rows}");
    assert_eq!(denied[0]["actor"], "tool");
    assert_eq!(denied[0]["operation"], "write");
    assert_eq!(denied[0]["target"], "/locked/keep.txt");
    let rows = ws.json(&["audit", "--path", "/a.txt"]);
    assert!(
        rows["audit"]
            .as_array()
            .unwrap()
            .iter()
            .any(|r| r["actor"] == "tool" && r["operation"] == "write" && r["outcome"] == "ok"),
        "{rows}"
    );
}

// ------------------------------------------------------------- raw protocol

async fn send(stdin: &mut tokio::process::ChildStdin, msg: &str) {
    stdin.write_all(msg.as_bytes()).await.unwrap();
    stdin.write_all(b"\n").await.unwrap();
    stdin.flush().await.unwrap();
}

/// Raw JSON-RPC over the server's pipes: junk is ignored, malformed
/// requests get errors, stdout carries only JSON-RPC messages, and the
/// server exits cleanly when stdin closes.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_input_does_not_stop_the_server() {
    let ws = Ws::new();
    let mut child = mcp_command(&ws, &["--readonly"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    send(&mut stdin, "this is not json {").await;
    send(&mut stdin, r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}"#).await;
    send(
        &mut stdin,
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
    )
    .await;
    send(&mut stdin, r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"read","arguments":{"path":7}}}"#).await;
    send(
        &mut stdin,
        r#"{"jsonrpc":"2.0","id":3,"method":"no/such/method"}"#,
    )
    .await;
    send(
        &mut stdin,
        r#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"arguments":{}}}"#,
    )
    .await;
    send(
        &mut stdin,
        r#"{"jsonrpc":"2.0","id":5,"method":"tools/list"}"#,
    )
    .await;

    let mut replies = Map::new();
    while replies.len() < 5 {
        let line = tokio::time::timeout(Duration::from_secs(30), lines.next_line())
            .await
            .expect("a reply in time")
            .unwrap()
            .expect("stdout open");
        let msg: Value = serde_json::from_str(&line)
            .unwrap_or_else(|e| panic!("stdout line is not JSON ({e}): {line}"));
        assert_eq!(msg["jsonrpc"], "2.0", "{msg}");
        if let Some(id) = msg.get("id").and_then(Value::as_u64) {
            replies.insert(id.to_string(), msg);
        }
    }
    assert_eq!(replies["1"]["result"]["serverInfo"]["name"], "computer");
    let r2 = &replies["2"]["result"];
    assert_eq!(r2["isError"], true, "{r2}");
    assert!(
        r2["content"][0]["text"]
            .as_str()
            .unwrap()
            .contains("invalid type")
    );
    assert!(replies["3"]["error"]["code"].is_i64(), "{}", replies["3"]);
    assert!(replies["4"]["error"]["code"].is_i64(), "{}", replies["4"]);
    let listed: Vec<&str> = replies["5"]["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(listed, READ_TOOLS);

    drop(stdin);
    let status = tokio::time::timeout(Duration::from_secs(30), child.wait())
        .await
        .expect("exits once stdin closes")
        .unwrap();
    assert!(status.success(), "{status}");
    assert!(
        tokio::time::timeout(Duration::from_secs(5), lines.next_line())
            .await
            .unwrap()
            .unwrap()
            .is_none(),
        "nothing more on stdout"
    );
}

#[test]
fn mcp_rejects_an_unknown_backend() {
    let ws = Ws::new();
    let out = ws.run(&["mcp", "--backends", "js,cobol"], "");
    assert_eq!(out.status.code(), Some(1), "{}", describe(&["mcp"], &out));
    assert!(out.stdout.is_empty());
    let (code, msg) = parse_error_line(&out.stderr);
    assert_eq!(code, "EINVAL");
    assert!(msg.contains("\"cobol\"") && msg.contains("js"), "{msg}");
    // Even with --json, stdout stays clean for the protocol.
    let out = ws.run(&["mcp", "--backends", "cobol", "--json"], "");
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty(), "{}", text(&out.stdout));
}
