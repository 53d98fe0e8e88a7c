//! Limits over MCP and the CLI (issue 19, item 8): the same default memory
//! per backend on every surface, `memoryMb` within the server's ceiling,
//! and limit errors that name the knob raising the limit.

use super::*;

/// A shell script that needs well over 64 MiB (sorting a 5.5 MB file) and
/// well under 256.
const SORT_BIG: &str = "sort /med.txt | tail -1";

fn put_sortable(ws: &Ws) {
    let lines: String = (1..=800_000).map(|n| format!("{n}\n")).collect();
    ws.put("/med.txt", lines);
}

/// The memory a recorded run had, from `computer runs show`.
fn recorded_memory(ws: &Ws, run_id: &str) -> u64 {
    let doc = ws.json(&["runs", "show", run_id]);
    let options = &doc["options"];
    options["memory_bytes"]
        .as_u64()
        .unwrap_or_else(|| panic!("no memory_bytes in {options}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_surface_gives_a_backend_the_same_default_memory() {
    let ws = Ws::new();
    let mut by_surface = Vec::new();
    for backend in ["shell", "auto", "js"] {
        let source = if backend == "js" { "1" } else { "true" };
        let (_, doc) = ws.exec_json(&["--backend", backend, source], "");
        let id = doc["run_id"].as_str().expect("run_id").to_owned();
        by_surface.push((format!("cli {backend}"), recorded_memory(&ws, &id)));
    }
    let s = Session::start(&ws, &["--backends", "shell,auto,js"]).await;
    for backend in ["shell", "auto", "js"] {
        let source = if backend == "js" { "1" } else { "true" };
        let v = s
            .ok("exec", json!({"command": source, "backend": backend}))
            .await;
        let id = v["runId"].as_str().expect("runId").to_owned();
        by_surface.push((format!("mcp {backend}"), recorded_memory(&ws, &id)));
    }
    // The default backend, with no `backend` argument: the shell.
    let v = s.ok("exec", json!({"command": "true"})).await;
    let id = v["runId"].as_str().unwrap().to_owned();
    by_surface.push(("mcp default".into(), recorded_memory(&ws, &id)));
    s.stop().await;
    let of = |name: &str| by_surface.iter().find(|(n, _)| n == name).unwrap().1;
    let shell = of("cli shell");
    assert_eq!(shell, 1 << 30, "{by_surface:?}");
    for name in ["cli auto", "mcp shell", "mcp auto", "mcp default"] {
        assert_eq!(of(name), shell, "{name} differs: {by_surface:?}");
    }
    assert_eq!(of("mcp js"), of("cli js"), "{by_surface:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn memory_mb_is_honoured_within_the_servers_ceiling() {
    let ws = Ws::new();
    put_sortable(&ws);
    let s = Session::start(&ws, &["--backends", "shell", "--max-memory", "512"]).await;
    let tools = s.list_tools().await;
    let exec = tools.iter().find(|t| t.name == "exec").expect("exec");
    assert_eq!(
        exec.input_schema["properties"]["memoryMb"]["maximum"], 512,
        "{:?}",
        exec.input_schema
    );

    // Under the default (1 GiB) the sort fits.
    let v = s.ok("exec", json!({"command": SORT_BIG})).await;
    assert_eq!(
        (v["exitCode"].as_i64(), v["stdout"].as_str()),
        (Some(0), Some("99999\n"))
    );

    // At 64 MiB it does not, and the error names the argument that raises it,
    // with none of the Rust runtime's out-of-memory lines.
    let v = s
        .ok("exec", json!({"command": SORT_BIG, "memoryMb": 64}))
        .await;
    let id = v["runId"].as_str().unwrap().to_owned();
    assert_eq!(v["status"], "failed", "{v}");
    let stderr = v["stderr"].as_str().unwrap();
    assert!(
        stderr
            .contains("memory limit exceeded (64 MiB); raise it with memoryMb (at most 512 here)"),
        "{stderr}"
    );
    assert!(!stderr.contains("RUST_BACKTRACE"), "{stderr}");
    assert!(!stderr.contains("memory allocation of"), "{stderr}");

    let msg = s
        .err("exec", args(json!({"command": "true", "memoryMb": 600})))
        .await;
    assert!(msg.contains("600") && msg.contains("512 MiB"), "{msg}");
    let msg = s
        .err("exec", args(json!({"command": "true", "memoryMb": 0})))
        .await;
    assert!(msg.contains("invalid memoryMb 0"), "{msg}");

    // A time limit names timeoutMs.
    let v = s
        .ok("exec", json!({"command": "sleep 5", "timeoutMs": 300}))
        .await;
    assert_eq!(v["status"], "timed_out", "{v}");
    assert!(
        v["stderr"]
            .as_str()
            .unwrap()
            .contains("raise the limit with timeoutMs"),
        "{v}"
    );
    s.stop().await;
    assert_eq!(recorded_memory(&ws, &id), 64 << 20);
}

#[test]
fn cli_limit_errors_name_the_flag_that_raises_them() {
    let ws = Ws::new();
    put_sortable(&ws);
    let out = ws.exec(&["--backend", "shell", "--memory", "64", SORT_BIG], "");
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("computer: memory limit exceeded (64 MiB); raise it with --memory MIB"),
        "{stderr}"
    );
    assert!(!stderr.contains("RUST_BACKTRACE"), "{stderr}");

    let out = ws.exec(&["--backend", "shell", "--timeout", "0.3", "sleep 5"], "");
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(124), "{stderr}");
    assert!(
        stderr.contains("raise the limit with --timeout SECS"),
        "{stderr}"
    );
}
