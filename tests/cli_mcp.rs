//! `computer mcp` driven end to end by a real MCP client (rmcp's, over a
//! child-process stdio transport), and `computer tools` printing the
//! definitions in each format.

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use computer_tests::{Ws, computer, computer_bin, describe, one_json, parse_error_line, text};
use rmcp::model::{
    CallToolRequestParams, CallToolResult, ReadResourceRequestParams, ResourceContents,
};
use rmcp::service::{RoleClient, RunningService, ServiceError};
use rmcp::transport::{ConfigureCommandExt, TokioChildProcess};
use rmcp::{ServiceExt, model::Tool};
use serde_json::{Map, Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

const ALL_TOOLS: [&str; 8] = [
    "read", "ls", "find", "grep", "write", "edit", "delete", "exec",
];
const READ_TOOLS: [&str; 4] = ["read", "ls", "find", "grep"];

/// Compiled guests are cached under the target directory, shared with the
/// other tests, so a server starts in well under a second.
fn cache_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("component-cache")
}

/// `computer --workspace <db> mcp ARGS...` as a tokio command.
fn mcp_command(ws: &Ws, args: &[&str]) -> tokio::process::Command {
    tokio::process::Command::new(computer_bin()).configure(|cmd| {
        cmd.current_dir(ws.dir())
            .env_remove("COMPUTER_WORKSPACE")
            .env_remove("COMPUTER_LOG")
            .env("COMPUTER_CACHE_DIR", cache_dir())
            .arg("--workspace")
            .arg(ws.db())
            .arg("mcp")
            .args(args);
    })
}

/// A connected MCP client and the server's captured stderr.
struct Session {
    client: RunningService<RoleClient, ()>,
    stderr: tokio::task::JoinHandle<String>,
}

impl Session {
    async fn start(ws: &Ws, args: &[&str]) -> Session {
        let (transport, stderr) = TokioChildProcess::builder(mcp_command(ws, args))
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawning computer mcp");
        let mut stderr = stderr.expect("stderr is piped");
        let stderr = tokio::spawn(async move {
            let mut buf = String::new();
            let _ = tokio::io::AsyncReadExt::read_to_string(&mut stderr, &mut buf).await;
            buf
        });
        let client = ().serve(transport).await.expect("MCP initialize");
        Session { client, stderr }
    }

    async fn list_tools(&self) -> Vec<Tool> {
        self.client.list_all_tools().await.expect("tools/list")
    }

    async fn names(&self) -> Vec<String> {
        self.list_tools()
            .await
            .iter()
            .map(|t| t.name.to_string())
            .collect()
    }

    async fn call_raw(&self, name: &str, args: Option<Value>) -> CallToolResult {
        let mut params = CallToolRequestParams::new(name.to_owned());
        if let Some(args) = args {
            let Value::Object(map) = args else {
                panic!("arguments must be an object: {args}")
            };
            params = params.with_arguments(map);
        }
        self.client.call_tool(params).await.expect("tools/call")
    }

    /// A call that must succeed: its text content and structuredContent
    /// are the same JSON object, which is returned.
    async fn ok(&self, name: &str, args: Value) -> Value {
        let shown = args.to_string();
        let r = self.call_raw(name, Some(args)).await;
        assert_eq!(r.is_error, Some(false), "{name} {shown} failed: {r:?}");
        let text_json = content_json(&r);
        assert_eq!(
            r.structured_content.as_ref(),
            Some(&text_json),
            "structuredContent and text differ"
        );
        assert!(text_json.is_object());
        text_json
    }

    /// A call that must fail as a tool error (`isError: true`, not a
    /// protocol error); returns the message of its `{"error": "..."}`.
    async fn err(&self, name: &str, args: Option<Value>) -> String {
        let shown = format!("{args:?}");
        let r = self.call_raw(name, args).await;
        assert_eq!(r.is_error, Some(true), "{name} {shown} should fail: {r:?}");
        let doc = content_json(&r);
        let obj = doc.as_object().expect("error is an object");
        assert_eq!(obj.len(), 1, "only `error`: {doc}");
        let msg = doc["error"].as_str().expect("error is a string").to_owned();
        assert!(!msg.is_empty());
        msg
    }

    async fn read_resource(&self, uri: &str) -> Result<Value, ServiceError> {
        let r = self
            .client
            .read_resource(ReadResourceRequestParams::new(uri))
            .await?;
        assert_eq!(r.contents.len(), 1);
        match &r.contents[0] {
            ResourceContents::TextResourceContents {
                uri: got,
                mime_type,
                text,
                ..
            } => {
                assert_eq!(got, uri);
                assert_eq!(mime_type.as_deref(), Some("application/json"));
                Ok(serde_json::from_str(text).expect("resource text is JSON"))
            }
            other => panic!("not text: {other:?}"),
        }
    }

    /// Ends the session: closing stdin makes the server exit. Returns its
    /// stderr.
    async fn stop(self) -> String {
        self.client.cancel().await.expect("closing the session");
        tokio::time::timeout(Duration::from_secs(30), self.stderr)
            .await
            .expect("the server exits once stdin closes")
            .expect("stderr reader")
    }
}

fn content_json(r: &CallToolResult) -> Value {
    assert_eq!(r.content.len(), 1, "one content block: {r:?}");
    let text = &r.content[0].as_text().expect("text content").text;
    serde_json::from_str(text).unwrap_or_else(|e| panic!("content is not JSON ({e}): {text}"))
}

fn args(v: Value) -> Option<Value> {
    Some(v)
}

// ------------------------------------------------------------- tools/list

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn initialize_and_list_tools() {
    let ws = Ws::new();
    let s = Session::start(&ws, &["--backends", "js"]).await;
    let info = s.client.peer_info().expect("initialized");
    assert_eq!(
        info.server_info.as_ref().map(|i| i.name.as_str()),
        Some("computer")
    );
    assert!(info.capabilities.tools.is_some());
    assert!(info.capabilities.resources.is_some());
    assert!(
        info.instructions
            .as_deref()
            .unwrap_or("")
            .contains("workspace")
    );

    let tools = s.list_tools().await;
    let names: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
    assert_eq!(names, ALL_TOOLS);
    for t in &tools {
        assert_eq!(
            t.input_schema.get("type"),
            Some(&json!("object")),
            "{}",
            t.name
        );
        assert!(
            t.input_schema
                .get("properties")
                .is_some_and(Value::is_object)
        );
        assert!(!t.description.as_deref().unwrap_or("").is_empty());
        let ann = t.annotations.as_ref().expect("annotations");
        assert_eq!(
            ann.read_only_hint,
            Some(READ_TOOLS.contains(&t.name.as_ref())),
            "{}",
            t.name
        );
    }
    let exec = tools.iter().find(|t| t.name == "exec").unwrap();
    assert_eq!(
        exec.input_schema["properties"]["backend"]["enum"],
        json!(["js"])
    );

    // The same definitions `computer tools --format mcp` prints.
    let printed = tools_json(&["--format", "mcp", "--backends", "js"]);
    let listed = serde_json::to_value(&tools).unwrap();
    assert_eq!(listed, printed);

    let stderr = s.stop().await;
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn readonly_lists_only_the_read_tools() {
    let ws = Ws::new();
    ws.put("/notes.txt", "hello\n");
    let s = Session::start(&ws, &["--readonly"]).await;
    assert_eq!(s.names().await, READ_TOOLS);
    for (name, a) in [
        ("write", json!({"path": "/x", "content": "y"})),
        (
            "edit",
            json!({"path": "/notes.txt", "oldText": "hello", "newText": "bye"}),
        ),
        ("delete", json!({"path": "/notes.txt"})),
        ("exec", json!({"command": "1"})),
    ] {
        let msg = s.err(name, args(a)).await;
        assert!(msg.contains("read-only"), "{msg}");
        assert!(
            msg.contains("available tools: read, ls, find, grep"),
            "{msg}"
        );
    }
    let v = s.ok("read", json!({"path": "/notes.txt"})).await;
    assert_eq!(v["content"], "hello\n");
    s.stop().await;
    assert_eq!(ws.cat("/notes.txt"), "hello\n");
    assert!(!ws.exists("/x"));
}

// ------------------------------------------------------------- tools/call

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn read_and_write_over_mcp() {
    let ws = Ws::new();
    let s = Session::start(&ws, &["--backends", "js"]).await;

    let v = s
        .ok(
            "write",
            json!({"path": "/src/app/main.txt", "content": "1\n2\n3\n4\n5\n"}),
        )
        .await;
    assert_eq!(v["bytesWritten"], 10);
    let v = s
        .ok(
            "read",
            json!({"path": "/src/app/main.txt", "offset": 2, "limit": 2}),
        )
        .await;
    assert_eq!(v["content"], "2\n3\n");
    assert_eq!(v["totalLines"], 5);
    assert_eq!(v["nextOffset"], 4);

    let v = s
        .ok("write", json!({"path": "/bin.dat", "content": "a\u{0}b"}))
        .await;
    assert_eq!(v["bytesWritten"], 3);
    let v = s.ok("read", json!({"path": "/bin.dat"})).await;
    assert_eq!(v["kind"], "binary");
    assert_eq!(v["size"], 3);

    let msg = s.err("read", args(json!({"path": "/nope.txt"}))).await;
    assert!(
        msg.starts_with("ENOENT") && msg.contains("ls or find"),
        "{msg}"
    );
    let msg = s.err("read", args(json!({"path": "/src"}))).await;
    assert!(msg.contains("is a directory"), "{msg}");
    let msg = s
        .err(
            "read",
            args(json!({"path": "/src/app/main.txt", "offset": 99})),
        )
        .await;
    assert!(msg.contains("past the end"), "{msg}");
    let msg = s
        .err(
            "write",
            args(json!({"path": "/huge", "content": "x".repeat(2 * 1024 * 1024 + 1)})),
        )
        .await;
    assert!(msg.contains("2097152-byte limit"), "{msg}");
    let msg = s
        .err("write", args(json!({"path": "/src", "content": "x"})))
        .await;
    assert!(msg.starts_with("EISDIR"), "{msg}");

    s.stop().await;
    assert_eq!(ws.cat("/src/app/main.txt"), "1\n2\n3\n4\n5\n");
    assert!(!ws.exists("/huge"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn edit_over_mcp() {
    let ws = Ws::new();
    ws.put("/f.txt", "alpha\nbeta\nbeta\n");
    ws.put("/win.txt", "a\r\nb\r\n");
    let s = Session::start(&ws, &["--backends", "js"]).await;
    let v = s
        .ok(
            "edit",
            json!({"path": "/f.txt", "edits": [{"oldText": "alpha", "newText": "ALPHA"}, {"oldText": "beta\nbeta", "newText": "b\nb"}]}),
        )
        .await;
    assert_eq!(v["editsApplied"], 2);
    assert!(v["diff"].as_str().unwrap().contains("+ALPHA"));
    let v = s
        .ok(
            "edit",
            json!({"path": "/win.txt", "oldText": "a\nb", "newText": "x\ny"}),
        )
        .await;
    assert_eq!(v["editsApplied"], 1);

    let msg = s
        .err(
            "edit",
            args(json!({"path": "/f.txt", "oldText": "b", "newText": "c"})),
        )
        .await;
    assert!(
        msg.contains("found 2 occurrences of oldText; add more context"),
        "{msg}"
    );
    let msg = s
        .err(
            "edit",
            args(json!({"path": "/f.txt", "oldText": "zzz", "newText": "c"})),
        )
        .await;
    assert!(msg.contains("oldText not found"), "{msg}");
    let msg = s.err("edit", args(json!({"path": "/f.txt"}))).await;
    assert!(msg.contains("give either edits"), "{msg}");
    let msg = s
        .err(
            "edit",
            args(json!({"path": "/f.txt", "edits": [{"old": "a", "new": "b"}]})),
        )
        .await;
    // Either unknown field may be named first, depending on key order.
    assert!(
        msg.contains("unknown field `") && msg.contains("expected `oldText` or `newText`"),
        "{msg}"
    );
    s.stop().await;
    assert_eq!(ws.cat("/f.txt"), "ALPHA\nb\nb\n");
    assert_eq!(ws.cat("/win.txt"), "x\r\ny\r\n");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ls_find_grep_delete_over_mcp() {
    let ws = Ws::new();
    for i in 0..205 {
        ws.put(&format!("/many/f{i:03}.txt"), "");
    }
    ws.put("/src/a.rs", "fn a() {}\n// TODO one\n");
    ws.put("/src/b/c.rs", "// todo two\nfn c() {}\n");
    ws.put("/src/notes.md", "TODO three\n");
    let s = Session::start(&ws, &["--backends", "js"]).await;

    // ls
    let v = s.ok("ls", json!({"path": "/many"})).await;
    assert_eq!(v["entries"].as_array().unwrap().len(), 200);
    assert_eq!(v["nextOffset"], 200);
    let v = s.ok("ls", json!({"path": "/many", "offset": 200})).await;
    assert_eq!(v["entries"].as_array().unwrap().len(), 5);
    assert!(v.get("nextOffset").is_none());
    let v = s.ok("ls", json!({"path": "/src"})).await;
    assert_eq!(v["entries"][0]["name"], "a.rs");
    assert_eq!(v["entries"][0]["kind"], "file");
    assert_eq!(v["entries"][0]["size"], 22);
    assert!(
        s.err("ls", args(json!({"path": "/src/a.rs"})))
            .await
            .starts_with("ENOTDIR")
    );
    assert!(
        s.err("ls", args(json!({"path": "/zz"})))
            .await
            .starts_with("ENOENT")
    );

    // find
    let v = s.ok("find", json!({"pattern": "**/*.rs"})).await;
    assert_eq!(
        v["entries"],
        json!([{"path": "/src/a.rs", "kind": "file"}, {"path": "/src/b/c.rs", "kind": "file"}])
    );
    let v = s
        .ok(
            "find",
            json!({"path": "/many", "pattern": "*.txt", "limit": 10}),
        )
        .await;
    assert_eq!(v["nextOffset"], 10);
    let msg = s.err("find", args(json!({"path": "/src"}))).await;
    assert!(msg.contains("missing field `pattern`"), "{msg}");

    // grep
    let v = s.ok("grep", json!({"query": "TODO", "path": "/src"})).await;
    assert_eq!(v["matches"].as_array().unwrap().len(), 2);
    let v = s
        .ok(
            "grep",
            json!({"query": "todo", "ignoreCase": true, "include": "*.rs", "context": 1}),
        )
        .await;
    let m = v["matches"].as_array().unwrap();
    assert_eq!(m.len(), 2);
    assert_eq!(m[0]["path"], "/src/a.rs");
    assert_eq!(m[0]["line"], 2);
    assert_eq!(m[0]["before"], json!(["fn a() {}"]));
    let v = s
        .ok(
            "grep",
            json!({"query": "^fn [ac]", "regex": true, "limit": 1}),
        )
        .await;
    assert_eq!(v["matches"].as_array().unwrap().len(), 1);
    assert_eq!(v["nextOffset"], 1);
    let msg = s
        .err("grep", args(json!({"query": "(", "regex": true})))
        .await;
    assert!(msg.starts_with("EINVAL"), "{msg}");
    let msg = s
        .err("grep", args(json!({"query": "x", "ignorecase": true})))
        .await;
    assert!(msg.contains("unknown field `ignorecase`"), "{msg}");

    // delete
    let msg = s.err("delete", args(json!({"path": "/src"}))).await;
    assert!(msg.contains("pass recursive: true"), "{msg}");
    let v = s.ok("delete", json!({"path": "/src/a.rs"})).await;
    assert_eq!(v["deleted"], true);
    s.ok("delete", json!({"path": "/src/a.rs"})).await;
    s.ok("delete", json!({"path": "/src", "recursive": true}))
        .await;
    s.stop().await;
    assert!(!ws.exists("/src"));
    assert!(ws.exists("/many/f000.txt"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn exec_over_mcp() {
    let ws = Ws::new();
    let s = Session::start(&ws, &["--backends", "js"]).await;
    let v = s
        .ok(
            "exec",
            json!({"command": "import fs from 'node:fs'; fs.writeFileSync('/made.txt', 'by js'); console.log('hi'); console.error('warn'); process.exitCode = 2;"}),
        )
        .await;
    assert_eq!(v["stdout"], "hi\n");
    assert_eq!(v["stderr"], "warn\n");
    assert_eq!(v["exitCode"], 2);
    assert_eq!(v["backend"], "js");
    let v = s
        .ok(
            "exec",
            json!({"command": "export default (x) => x.a + x.b;", "input": {"a": 1, "b": 2}, "backend": "js"}),
        )
        .await;
    assert_eq!(v["value"], 3);
    let v = s
        .ok("exec", json!({"command": "console.log('y'.repeat(70000))"}))
        .await;
    assert!(
        v["stdout"]
            .as_str()
            .unwrap()
            .ends_with("\n[truncated, 4465 more bytes]"),
        "{}",
        &v["stdout"].as_str().unwrap()[65000..]
    );
    let v = s
        .ok("exec", json!({"command": "for (;;) {}", "timeoutMs": 300}))
        .await;
    assert_eq!(v["exitCode"], 124);
    assert_eq!(v["status"], "timed_out");

    let msg = s
        .err("exec", args(json!({"command": "1", "backend": "ruby"})))
        .await;
    assert!(
        msg.contains("\"ruby\" is not available; use one of: js"),
        "{msg}"
    );
    let msg = s
        .err("exec", args(json!({"command": "1", "timeout_ms": 5})))
        .await;
    assert!(msg.contains("unknown field `timeout_ms`"), "{msg}");
    let msg = s.err("exec", None).await;
    assert!(msg.contains("missing field `command`"), "{msg}");
    s.stop().await;
    assert_eq!(ws.cat("/made.txt"), "by js");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tool_errors_are_results_not_protocol_errors() {
    let ws = Ws::new();
    let s = Session::start(&ws, &["--backends", "js"]).await;
    let msg = s.err("frobnicate", args(json!({}))).await;
    assert!(
        msg.starts_with("unknown tool \"frobnicate\"; available tools: read, ls"),
        "{msg}"
    );
    let msg = s.err("read", None).await;
    assert!(msg.contains("missing field `path`"), "{msg}");
    let msg = s.err("read", args(json!({"path": "/a", "ofset": 1}))).await;
    assert!(
        msg.contains("unknown field `ofset`") && msg.contains("offset"),
        "{msg}"
    );
    let msg = s.err("read", args(json!({"path": ["/a"]}))).await;
    assert!(msg.contains("invalid type"), "{msg}");
    let msg = s
        .err("ls", args(json!({"path": "/", "limit": "ten"})))
        .await;
    assert!(msg.contains("invalid type"), "{msg}");
    // Still serving.
    assert_eq!(s.names().await.len(), ALL_TOOLS.len());
    let stderr = s.stop().await;
    assert!(!stderr.contains("panicked"), "{stderr}");
}

// ------------------------------------------------------------- resources

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn runs_are_resources() {
    let ws = Ws::new();
    let s = Session::start(&ws, &["--backends", "js"]).await;
    let resources = s.client.list_all_resources().await.expect("resources/list");
    let uris: Vec<&str> = resources.iter().map(|r| r.uri.as_str()).collect();
    assert_eq!(uris, ["computer://approvals", "computer://runs"]);
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
            format!("computer://runs/{second}"),
            format!("computer://runs/{first}"),
        ]
    );
    assert!(
        resources[2]
            .description
            .as_deref()
            .unwrap()
            .contains("js run")
    );

    let templates = s.client.list_all_resource_templates().await.unwrap();
    assert_eq!(templates.len(), 1);
    assert_eq!(templates[0].uri_template, "computer://runs/{id}");

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
    assert_eq!(run["exit_code"], 0);
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

// ------------------------------------------------------------- computer tools

/// `computer tools ARGS...`, in an empty directory: one JSON document.
fn tools_json(args: &[&str]) -> Value {
    let dir = tempfile::tempdir().unwrap();
    let out = tools_run(dir.path(), args);
    assert!(
        out.status.success() && out.stderr.is_empty(),
        "{}",
        describe(args, &out)
    );
    // It needs no workspace, and makes none.
    assert!(!dir.path().join(".computer").exists());
    one_json(&out.stdout)
}

fn tools_run(dir: &Path, args: &[&str]) -> std::process::Output {
    computer(dir)
        .env("COMPUTER_CACHE_DIR", cache_dir())
        .arg("tools")
        .args(args)
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

fn schema_ok(schema: &Value) {
    assert_eq!(schema["type"], "object", "{schema}");
    assert!(schema["properties"].is_object(), "{schema}");
    assert!(schema["required"].is_array(), "{schema}");
    for req in schema["required"].as_array().unwrap() {
        assert!(
            schema["properties"].get(req.as_str().unwrap()).is_some(),
            "{req} is required but not a property: {schema}"
        );
    }
}

#[test]
fn tools_prints_openai_format() {
    let doc = tools_json(&["--format", "openai", "--backends", "js"]);
    let tools = doc.as_array().expect("an array");
    let names: Vec<&str> = tools
        .iter()
        .map(|t| t["function"]["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ALL_TOOLS);
    for t in tools {
        assert_eq!(t["type"], "function");
        let f = t["function"].as_object().unwrap();
        let mut keys: Vec<&str> = f.keys().map(String::as_str).collect();
        keys.sort();
        assert_eq!(keys, ["description", "name", "parameters"]);
        schema_ok(&t["function"]["parameters"]);
    }
    // openai is the default.
    assert_eq!(tools_json(&["--backends", "js"]), doc);
}

#[test]
fn tools_prints_anthropic_format() {
    let doc = tools_json(&["--format", "anthropic", "--readonly"]);
    let tools = doc.as_array().unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert_eq!(names, READ_TOOLS);
    for t in tools {
        let mut keys: Vec<&str> = t.as_object().unwrap().keys().map(String::as_str).collect();
        keys.sort();
        assert_eq!(keys, ["description", "input_schema", "name"]);
        schema_ok(&t["input_schema"]);
    }
}

#[test]
fn tools_prints_mcp_format() {
    let doc = tools_json(&["--format", "mcp", "--backends", "js"]);
    let tools = doc.as_array().unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert_eq!(names, ALL_TOOLS);
    for t in tools {
        schema_ok(&t["inputSchema"]);
        assert!(t["description"].is_string());
        assert_eq!(
            t["annotations"]["readOnlyHint"],
            READ_TOOLS.contains(&t["name"].as_str().unwrap())
        );
        // Each one is a valid MCP tool.
        let _: Tool = serde_json::from_value(t.clone()).expect("an MCP Tool");
    }
}

#[test]
fn tools_rejects_bad_options() {
    let dir = tempfile::tempdir().unwrap();
    let out = tools_run(dir.path(), &["--format", "yaml"]);
    assert_eq!(out.status.code(), Some(2), "{}", describe(&["tools"], &out));
    assert!(
        text(&out.stderr).contains("openai"),
        "{}",
        text(&out.stderr)
    );
    let out = tools_run(dir.path(), &["--backends", "cobol"]);
    assert_eq!(out.status.code(), Some(1));
    let (code, msg) = parse_error_line(&out.stderr);
    assert_eq!(code, "EINVAL");
    assert!(msg.contains("unknown backend \"cobol\""), "{msg}");
}

#[test]
fn tools_offers_the_container_backends_only_when_named() {
    let exec_backends = |doc: &Value| -> Vec<String> {
        let tools = doc.as_array().expect("a list of tools");
        let exec = tools
            .iter()
            .find(|t| t["function"]["name"] == "exec")
            .expect("exec");
        exec["function"]["parameters"]["properties"]["backend"]["enum"]
            .as_array()
            .expect("a backend enum")
            .iter()
            .map(|b| b.as_str().unwrap().to_owned())
            .collect()
    };
    let default = exec_backends(&tools_json(&[]));
    assert!(
        !default.iter().any(|b| b == "container" || b == "auto"),
        "{default:?}"
    );
    let named = exec_backends(&tools_json(&["--backends", "shell,auto,container"]));
    assert_eq!(named, ["shell", "auto", "container"]);
}
