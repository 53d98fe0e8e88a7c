//! `exec` through the runtime.

use crate::support::*;

// ------------------------------------------------------------- exec

#[test]
fn exec_returns_streams_exit_code_and_run_id() {
    let (ws, tools) = exec_tools();
    let v = ok(
        &tools,
        "exec",
        json!({"command": "console.log('out'); console.error('err'); process.exitCode = 3;"}),
    );
    assert_eq!(v["stdout"], "out\n");
    assert_eq!(v["stderr"], "err\n");
    assert_eq!(v["exitCode"], 3);
    assert_eq!(v["backend"], "js");
    assert!(v.get("hint").is_none());
    let id = v["runId"].as_str().unwrap();
    let run = ws.runs().get(id).unwrap().expect("the run is recorded");
    assert_eq!(run.exit_code, Some(3));
    assert_eq!(run.stdout, b"out\n");
}

#[test]
fn exec_value_input_cwd_env_and_workspace_access() {
    let (ws, tools) = exec_tools();
    let v = ok(
        &tools,
        "exec",
        json!({
            "command": "export default (input) => ({ doubled: input.n * 2 });",
            "backend": "js",
            "input": {"n": 21},
        }),
    );
    assert_eq!(v["value"], json!({"doubled": 42}));
    assert_eq!(v["exitCode"], 0);
    assert_eq!(v["status"], "completed");

    ws.mkdir("/work", &Default::default()).unwrap();
    let v = ok(
        &tools,
        "exec",
        json!({
            "command": "import fs from 'node:fs'; fs.writeFileSync('out.txt', process.env.GREETING); console.log(process.cwd());",
            "cwd": "/work",
            "env": {"GREETING": "hello"},
        }),
    );
    assert_eq!(v["stdout"], "/work\n");
    assert_eq!(text(&ws, "/work/out.txt"), "hello");
    // The guest's file operations are audited under the run.
    let id = v["runId"].as_str().unwrap();
    let rows = ws
        .audit()
        .query(&AuditQuery {
            run: Some(id.to_owned()),
            ..Default::default()
        })
        .unwrap();
    assert!(
        rows.iter()
            .any(|r| r.target == "/work/out.txt" && r.outcome == "ok"),
        "{rows:#?}"
    );
    assert!(
        rows.iter().all(|r| r.actor == format!("run:{id}/js")),
        "{rows:#?}"
    );
}

#[test]
fn exec_caps_each_stream_at_64_kib_and_keeps_the_whole_stream() {
    let (_ws, tools) = exec_tools();
    let v = ok(
        &tools,
        "exec",
        json!({"command": "process.stdout.write('x'.repeat(100000)); process.stderr.write('€'.repeat(30000));"}),
    );
    let id = v["runId"].as_str().unwrap();
    let marker = |dropped: usize, stream: &str| {
        format!(
            "\n[output truncated: {dropped} more bytes over the 65536-byte limit; \
             all of it is in /.computer/output/{id}.{stream} (read it in ranges)]\n"
        )
    };
    let stdout = v["stdout"].as_str().unwrap();
    assert_eq!(
        stdout,
        format!("{}{}", "x".repeat(65536), marker(100000 - 65536, "stdout"))
    );
    // 30000 three-byte characters: the cut moves back to a character boundary.
    let stderr = v["stderr"].as_str().unwrap();
    let kept = 65535; // the largest multiple of 3 not above 65536
    assert_eq!(
        stderr,
        format!("{}{}", "€".repeat(kept / 3), marker(90000 - kept, "stderr"))
    );
    // The whole streams are in the workspace, for `read` to page through.
    let read = ok(
        &tools,
        "read",
        json!({"path": format!("/.computer/output/{id}.stderr")}),
    );
    assert!(
        read.to_string().contains(&"€".repeat(100)),
        "{}",
        &read.to_string()[..200]
    );
}

#[test]
fn exec_timeout_exits_124() {
    let (_ws, tools) = exec_tools();
    // The loop never ends: the exit code and status are the timeout's doing
    // (no bound on how long it took, which depends on the machine).
    let v = ok(
        &tools,
        "exec",
        json!({"command": "while (true) {}", "timeoutMs": 300}),
    );
    assert_eq!(v["exitCode"], 124, "{v}");
    assert_eq!(v["status"], "timed_out");
}

#[test]
fn exec_exit_127_hints_at_another_backend() {
    let (_ws, tools) = exec_tools();
    let v = ok(&tools, "exec", json!({"command": "process.exit(127)"}));
    assert_eq!(v["exitCode"], 127);
    // Only `js` is offered here, so the hint (from the backend registry)
    // says that no offered backend can run it, rather than "retry elsewhere".
    let hint = v["hint"].as_str().unwrap();
    assert!(
        hint.starts_with("exit 127:") && hint.contains("no backend offered here can run it"),
        "{v}"
    );
}

#[test]
fn exec_errors() {
    let (_ws, tools) = exec_tools();
    let msg = err(&tools, "exec", json!({"command": "1", "backend": "python"}));
    assert!(
        msg.contains("\"python\" is not available") && msg.contains("js"),
        "{msg}"
    );
    let msg = err(&tools, "exec", json!({"command": "1", "timeout": 5}));
    assert!(
        msg.contains("unknown field `timeout`") && msg.contains("timeoutMs"),
        "{msg}"
    );
    let msg = err(&tools, "exec", json!({"backend": "js"}));
    assert!(msg.contains("missing field `command`"), "{msg}");
    let msg = err(
        &tools,
        "exec",
        json!({"command": "1", "cwd": "/no/such/dir"}),
    );
    assert!(msg.contains("/no/such/dir"), "{msg}");
    let msg = err(&tools, "exec", json!({"command": "1", "env": {"A": 1}}));
    assert!(msg.contains("invalid type"), "{msg}");
}

#[test]
fn exec_backends_option_filters_and_orders() {
    let ws = workspace();
    let tools = Tools::new(
        ws,
        Some(runtime()),
        ToolOptions {
            readonly: false,
            backends: vec!["container".into(), "js".into()],
            ..Default::default()
        },
    );
    assert_eq!(tools.backends(), ["js"]);
    // Nothing left: no exec at all.
    let tools = Tools::new(
        workspace(),
        Some(runtime()),
        ToolOptions {
            readonly: false,
            backends: vec!["container".into()],
            ..Default::default()
        },
    );
    assert!(!tools.definitions().iter().any(|d| d.name == "exec"));
    let msg = err(&tools, "exec", json!({"command": "1"}));
    assert!(msg.contains("unknown tool"), "{msg}");
}

#[test]
fn exec_runs_a_command_component_through_the_command_backend() {
    let bytes = std::fs::read(
        PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../../guests/target/wasm32-wasip2/release/test_command.wasm"),
    )
    .expect("test_command.wasm: run scripts/build-guests.sh");
    // A runtime of its own: the shared one's backends are other tests'.
    let rt = Runtime::new(RuntimeConfig {
        cache_dir: Some(PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("component-cache")),
        ..Default::default()
    })
    .unwrap();
    rt.register_guest("js", JS_GUEST.expect("the JS guest"))
        .unwrap();
    rt.register_backend(computer_runtime::command_backend())
        .unwrap();
    // Offered only when asked for.
    let default = Tools::new(workspace(), Some(rt.clone()), ToolOptions::default());
    assert_eq!(default.backends(), ["js"]);
    rt.register_command(computer_runtime::CommandSpec {
        name: "test_command".into(),
        description: "the test command".into(),
        component: bytes.into(),
        mounts: Vec::new(),
        sha256: None,
        own_cwd: false,
    })
    .unwrap();
    let ws = workspace();
    let tools = Tools::new(
        ws.clone(),
        Some(rt),
        ToolOptions {
            readonly: false,
            backends: vec!["js".into(), "command".into()],
            ..Default::default()
        },
    );
    let exec = tools
        .definitions()
        .into_iter()
        .find(|d| d.name == "exec")
        .unwrap();
    assert!(
        exec.description.contains("registered command component"),
        "{}",
        exec.description
    );
    let v = ok(
        &tools,
        "exec",
        json!({"command": "test_command write made.txt 'by a command'", "backend": "command"}),
    );
    assert_eq!(v["exitCode"], 0, "{v}");
    assert_eq!(v["backend"], "command");
    assert_eq!(text(&ws, "/made.txt"), "by a command");
    let v = ok(
        &tools,
        "exec",
        json!({"command": "test_command exit 6", "backend": "command"}),
    );
    assert_eq!(v["exitCode"], 6, "{v}");
}
