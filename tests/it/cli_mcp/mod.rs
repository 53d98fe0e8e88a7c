//! `computer mcp` driven end to end by a real MCP client (rmcp's, over a
//! child-process stdio transport), and `computer tools` printing the
//! definitions in each format.

use computer_tests::component_cache_dir;
use std::path::Path;
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

mod cli_tools;
mod host_memory;
mod limits;
mod not_found;
mod protocol_errors;
mod raw;
mod resources_protocol;
mod runs_lifetime;
mod tools_call;
mod vocabulary;

const ALL_TOOLS: [&str; 11] = [
    "read", "ls", "find", "grep", "diff", "write", "edit", "delete", "snapshot", "undo", "exec",
];
const READ_TOOLS: [&str; 5] = ["read", "ls", "find", "grep", "diff"];

/// `computer --workspace <db> mcp ARGS...` as a tokio command.
fn mcp_command(ws: &Ws, args: &[&str]) -> tokio::process::Command {
    mcp_command_with(ws, args, &[])
}

/// [`mcp_command`] with these environment variables.
fn mcp_command_with(ws: &Ws, args: &[&str], envs: &[(&str, &str)]) -> tokio::process::Command {
    tokio::process::Command::new(computer_bin()).configure(|cmd| {
        cmd.envs(envs.iter().copied());
        cmd.current_dir(ws.dir())
            .env_remove("COMPUTER_WORKSPACE")
            .env_remove("COMPUTER_LOG")
            .env("COMPUTER_CACHE_DIR", component_cache_dir())
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
        Session::start_with(ws, args, &[]).await
    }

    /// [`Session::start`] with these environment variables.
    async fn start_with(ws: &Ws, args: &[&str], envs: &[(&str, &str)]) -> Session {
        let (transport, stderr) = TokioChildProcess::builder(mcp_command_with(ws, args, envs))
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
        .env("COMPUTER_CACHE_DIR", component_cache_dir())
        .arg("tools")
        .args(args)
        .stdin(Stdio::null())
        .output()
        .unwrap()
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
            msg.contains("available tools: read, ls, find, grep, diff"),
            "{msg}"
        );
    }
    let v = s.ok("read", json!({"path": "/notes.txt"})).await;
    assert_eq!(v["content"], "hello\n");
    s.stop().await;
    assert_eq!(ws.cat("/notes.txt"), "hello\n");
    assert!(!ws.exists("/x"));
}
