//! `tools/call` of every tool over MCP.

use super::*;

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
    let kept = format!(
        "\n[output truncated: 4465 more bytes over the 65536-byte limit; all of it is in /.computer/output/{}.stdout (read it in ranges)]\n",
        v["runId"].as_str().unwrap()
    );
    assert!(
        v["stdout"].as_str().unwrap().ends_with(&kept),
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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn python_exec_over_mcp() {
    let ws = Ws::new();
    ws.put("/data/nums.txt", "3\n4\n");
    let s = Session::start(&ws, &[]).await;
    let exec = s
        .list_tools()
        .await
        .into_iter()
        .find(|t| t.name == "exec")
        .expect("an exec tool");
    let offered = exec.input_schema["properties"]["backend"]["enum"].clone();
    assert!(
        offered
            .as_array()
            .is_some_and(|b| b.contains(&json!("python"))),
        "{offered}"
    );
    let v = s
        .ok(
            "exec",
            json!({
                "backend": "python",
                "cwd": "/data",
                "input": {"scale": 10},
                "command": "import pathlib, subprocess\nnums = [int(x) for x in pathlib.Path('nums.txt').read_text().split()]\nprint(subprocess.run(['wc', '-l', 'nums.txt'], capture_output=True, text=True).stdout.split()[0])\npathlib.Path('sum.txt').write_text(str(sum(nums)))\n{'total': sum(nums) * input['scale']}",
            }),
        )
        .await;
    assert_eq!(v["exitCode"], 0, "{v}");
    assert_eq!(v["stdout"], "2\n", "{v}");
    assert_eq!(v["value"], json!({"total": 70}), "{v}");
    assert_eq!(v["backend"], "python");
    let v = s
        .ok(
            "exec",
            json!({"backend": "python", "command": "raise SystemExit('no good')"}),
        )
        .await;
    assert_eq!(v["exitCode"], 1, "{v}");
    assert_eq!(v["stderr"], "no good\n", "{v}");
    s.stop().await;
    assert_eq!(ws.cat("/data/sum.txt"), "7");
}

/// `exec` with `writable: false` (issue 38): the shell's changes fail with
/// EROFS and the workspace stays as it was; reads work.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn exec_writable_false_changes_nothing() {
    let ws = Ws::new();
    ws.put("/f.txt", "one\n");
    let rev = ws.rev();
    let s = Session::start(&ws, &["--backends", "shell,js"]).await;
    let v = s
        .ok(
            "exec",
            json!({"command": "cat /f.txt; echo x > /f.txt; mkdir /d; rm /f.txt", "writable": false}),
        )
        .await;
    assert_eq!(v["stdout"], "one\n", "{v}");
    let stderr = v["stderr"].as_str().unwrap();
    assert_eq!(stderr.matches("Read-only file system").count(), 3, "{v}");
    let v = s
        .ok(
            "exec",
            json!({"backend": "js", "command": "import fs from 'node:fs'; try { fs.writeFileSync('/g', 'x') } catch (e) { console.log(e.code) }", "writable": false}),
        )
        .await;
    assert_eq!(v["stdout"], "EROFS\n", "{v}");
    s.stop().await;
    assert_eq!(ws.rev(), rev);
    assert_eq!(ws.cat("/f.txt"), "one\n");
}

/// A policy (issue 38) gates the tools: the write tool's change is
/// refused with the reason, a denied exec is an error result, and a
/// read-only path fails in place.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tools_are_gated_by_the_policy() {
    let ws = crate::policy::with_policy();
    let s = Session::start(&ws, &["--backends", "shell"]).await;
    let msg = s
        .err("write", args(json!({"path": "/secrets/x", "content": "x"})))
        .await;
    assert!(
        msg.contains("EPERM") && msg.contains("secrets are off limits"),
        "{msg}"
    );
    let msg = s.err("exec", args(json!({"command": "rm -rf /"}))).await;
    assert!(msg.contains("denied"), "{msg}");
    let v = s
        .ok("exec", json!({"command": "echo y > /etc/conf; echo done"}))
        .await;
    assert!(
        v["stderr"]
            .as_str()
            .unwrap()
            .contains("Read-only file system"),
        "{v}"
    );
    s.stop().await;
    assert_eq!(ws.cat("/etc/conf"), "c\n");
    assert!(!ws.exists("/secrets/x"));
}
