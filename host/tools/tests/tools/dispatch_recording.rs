//! Dispatch (unknown tools, misspelled arguments, the read-only set), and the record and audit of tool calls.

use crate::support::*;

// ------------------------------------------------------------- dispatch

#[test]
fn unknown_tool_lists_the_available_ones() {
    let (_ws, tools) = fs_tools();
    let msg = err(&tools, "frobnicate", json!({}));
    assert_eq!(
        msg,
        "unknown tool \"frobnicate\"; available tools: read, ls, find, grep, diff, write, edit, delete, snapshot, undo"
    );
}

#[test]
fn misspelled_argument_is_named() {
    let (ws, tools) = fs_tools();
    put(&ws, "/a", "x\n");
    let msg = err(&tools, "read", json!({"path": "/a", "ofset": 2}));
    assert!(msg.contains("unknown field `ofset`"), "{msg}");
    assert!(msg.contains("`offset`"), "{msg}");
    assert!(msg.contains("input schema"), "{msg}");
}

#[test]
fn readonly_set_exposes_only_read_tools() {
    let (ws, tools) = readonly_tools();
    let names: Vec<String> = tools.definitions().into_iter().map(|d| d.name).collect();
    assert_eq!(names, ["read", "ls", "find", "grep", "diff"]);
    assert!(tools.definitions().iter().all(|d| d.read_only));
    for (name, args) in [
        ("write", json!({"path": "/a", "content": "x"})),
        (
            "edit",
            json!({"path": "/a", "oldText": "x", "newText": "y"}),
        ),
        ("delete", json!({"path": "/a"})),
        ("exec", json!({"command": "1"})),
    ] {
        let msg = err(&tools, name, args);
        assert!(msg.contains("read-only"), "{msg}");
        assert!(
            msg.contains("available tools: read, ls, find, grep, diff"),
            "{msg}"
        );
    }
    assert!(!ws.exists("/a").unwrap());
    put(&ws, "/a", "x\n");
    assert_eq!(ok(&tools, "read", json!({"path": "/a"}))["content"], "x\n");
    ok(&tools, "ls", json!({"path": "/"}));
    ok(&tools, "find", json!({"pattern": "*"}));
    ok(&tools, "grep", json!({"query": "x"}));
}

// ------------------------------------------------------------- recording

#[test]
fn tool_calls_are_recorded() {
    let (ws, tools) = fs_tools();
    ok(
        &tools,
        "write",
        json!({"path": "/a.txt", "content": "hello\n"}),
    );
    err(&tools, "read", json!({"path": "/missing"}));
    err(&tools, "nope", json!({"x": 1}));
    let big = "y".repeat(10_000);
    ok(&tools, "write", json!({"path": "/big.txt", "content": big}));

    let calls = ws.audit().tool_calls(Page::all()).unwrap();
    assert_eq!(calls.len(), 4);
    let names: Vec<&str> = calls.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["write", "read", "nope", "write"]);

    let params: Value = serde_json::from_str(&calls[0].parameters).unwrap();
    assert_eq!(params, json!({"path": "/a.txt", "content": "hello\n"}));
    assert!(calls[0].error.is_none());
    assert!(
        calls[0]
            .result
            .as_deref()
            .unwrap()
            .contains("bytesWritten: 6")
    );
    assert!(calls[0].completed_ns >= calls[0].started_ns);
    assert_eq!(
        calls[0].duration_ns,
        calls[0].completed_ns - calls[0].started_ns
    );

    assert!(calls[1].error.as_deref().unwrap().starts_with("ENOENT"));
    assert!(calls[1].result.is_none());
    assert!(calls[2].error.as_deref().unwrap().contains("unknown tool"));

    // Large payloads are summarized by size and hash.
    let params: Value = serde_json::from_str(&calls[3].parameters).unwrap();
    assert_eq!(params["content"]["size"], 10_000);
    assert!(params["content"]["sha256"].is_string());
}

#[test]
fn tool_operations_are_audited_as_tool() {
    let (ws, tools) = fs_tools();
    ok(
        &tools,
        "write",
        json!({"path": "/a.txt", "content": "hello\n"}),
    );
    ok(&tools, "read", json!({"path": "/a.txt"}));
    err(&tools, "read", json!({"path": "/missing.txt"}));

    let rows = audit(&ws, "/a.txt");
    let ops: Vec<(&str, &str, &str)> = rows
        .iter()
        .map(|r| (r.actor.as_str(), r.operation.as_str(), r.outcome.as_str()))
        .collect();
    assert!(ops.contains(&("tool", "write", "ok")), "{ops:?}");
    assert!(rows.iter().all(|r| r.actor == "tool"), "{rows:#?}");
    let rows = audit(&ws, "/missing.txt");
    assert!(
        rows.iter()
            .any(|r| r.actor == "tool" && r.outcome == "ENOENT"),
        "{rows:#?}"
    );
}

#[test]
fn denied_operations_are_audited_as_denied() {
    let (ws, tools) = fs_tools();
    put(&ws, "/locked/f.txt", "keep\n");
    ws.set_readonly("/locked", true).unwrap();
    for (name, args) in [
        ("write", json!({"path": "/locked/f.txt", "content": "x"})),
        (
            "edit",
            json!({"path": "/locked/f.txt", "oldText": "keep", "newText": "lose"}),
        ),
        ("delete", json!({"path": "/locked/f.txt"})),
        ("write", json!({"path": "/locked/new.txt", "content": "x"})),
    ] {
        let msg = err(&tools, name, args);
        assert!(msg.starts_with("EROFS"), "{name}: {msg}");
        assert!(msg.contains("read-only"), "{name}: {msg}");
    }
    assert_eq!(text(&ws, "/locked/f.txt"), "keep\n");
    let rows = audit(&ws, "/locked/*");
    let denied: Vec<(&str, &str)> = rows
        .iter()
        .filter(|r| r.outcome == "denied")
        .map(|r| (r.operation.as_str(), r.target.as_str()))
        .collect();
    assert!(denied.contains(&("write", "/locked/f.txt")), "{rows:#?}");
    assert!(denied.contains(&("edit", "/locked/f.txt")), "{rows:#?}");
    assert!(denied.contains(&("rm", "/locked/f.txt")), "{rows:#?}");
    assert!(denied.contains(&("write", "/locked/new.txt")), "{rows:#?}");
    assert!(
        rows.iter()
            .filter(|r| r.outcome == "denied")
            .all(|r| r.actor == "tool"),
        "{rows:#?}"
    );
}

#[test]
fn concurrent_edits_of_one_file_all_land() {
    let (ws, tools) = fs_tools();
    let body: String = (0..8).map(|i| format!("line {i}\n")).collect();
    put(&ws, "/shared.txt", &body);
    let tools = Arc::new(tools);
    let handles: Vec<_> = (0..8)
        .map(|i| {
            let tools = tools.clone();
            std::thread::spawn(move || {
                tools.call(
                    "edit",
                    json!({"path": "/shared.txt", "oldText": format!("line {i}\n"), "newText": format!("done {i}\n")}),
                )
            })
        })
        .collect();
    for h in handles {
        let v = h.join().unwrap();
        assert!(!Tools::is_error(&v), "{v}");
    }
    let want: String = (0..8).map(|i| format!("done {i}\n")).collect();
    assert_eq!(text(&ws, "/shared.txt"), want);
}

/// `ws:gate.ask()` waits for an approval.
struct Gate;

impl computer_runtime::HostModule for Gate {
    fn functions(&self) -> Vec<computer_runtime::FunctionInfo> {
        vec![computer_runtime::FunctionInfo {
            name: "ask".into(),
            params: vec![],
            result: None,
            docs: String::new(),
        }]
    }

    fn call(
        &self,
        _: &str,
        _: Value,
        ctx: &mut computer_runtime::CallContext,
    ) -> Result<Value, computer_runtime::ModuleCallError> {
        ctx.interrupt(json!({"deploy": true}))
    }
}

#[test]
fn exec_of_a_run_parked_at_an_approval_says_so() {
    let ws = workspace();
    let rt = runtime();
    rt.modules().register("ws:gate", Arc::new(Gate)).unwrap();
    let tools = Tools::new(ws.clone(), Some(rt), ToolOptions::default());
    let v = ok(
        &tools,
        "exec",
        json!({"command": "import { ask } from 'ws:gate'; ask();", "backend": "js"}),
    );
    assert_eq!(v["status"], "waiting", "{v}");
    assert_eq!(v["exitCode"], 75, "{v}");
    assert!(
        v["hint"].as_str().unwrap().contains("do not run it again"),
        "{v}"
    );
    assert_eq!(ws.interrupts().pending().unwrap().len(), 1);
}
