//! `snapshot`, `diff` and `undo` as a model calls them, and what the audit
//! log keeps of them.

use crate::support::*;

#[test]
fn snapshot_diff_restore_round_trip() {
    let (ws, tools) = fs_tools();
    put(&ws, "/notes.txt", "first\n");
    let v = ok(
        &tools,
        "snapshot",
        json!({"action": "create", "name": "before", "message": "safe point"}),
    );
    assert_eq!(v["created"], "before");
    put(&ws, "/notes.txt", "second\n");
    put(&ws, "/extra.txt", "more\n");

    let d = ok(&tools, "diff", json!({"from": "before"}));
    assert_eq!(names(&d, "files", "path"), ["/extra.txt", "/notes.txt"]);
    let patch = d["patch"].as_str().unwrap();
    assert!(patch.contains("-first\n+second\n"), "{patch}");
    let only = ok(
        &tools,
        "diff",
        json!({"from": "before", "to": "live", "paths": ["/notes.txt"], "nameOnly": true}),
    );
    assert_eq!(names(&only, "files", "path"), ["/notes.txt"]);
    assert!(only.get("patch").is_none());

    let listed = ok(&tools, "snapshot", json!({"action": "list"}));
    assert_eq!(names(&listed, "snapshots", "name"), ["before"]);
    ok(
        &tools,
        "snapshot",
        json!({"action": "restore", "name": "before"}),
    );
    assert_eq!(text(&ws, "/notes.txt"), "first\n");
    assert!(!ws.exists("/extra.txt").unwrap());
    ok(
        &tools,
        "snapshot",
        json!({"action": "delete", "name": "before"}),
    );
    assert!(ws.snapshots().list().unwrap().is_empty());

    // Each call is a tool call in the audit log, and the store's own rows
    // say the tool did it.
    let calls = ws.audit().tool_calls(Page::default()).unwrap();
    let called: Vec<&str> = calls.iter().map(|c| c.name.as_str()).collect();
    assert!(
        called.contains(&"snapshot") && called.contains(&"diff"),
        "{called:?}"
    );
    let ops = ws.audit().query(&AuditQuery::default()).unwrap();
    let restore = ops
        .iter()
        .find(|r| r.operation == "snapshot_restore")
        .unwrap();
    assert_eq!(restore.actor, "tool");
    assert_eq!(restore.target, "before");
}

#[test]
fn bad_snapshot_and_diff_calls_say_what_is_wrong() {
    let (_ws, tools) = fs_tools();
    let msg = err(
        &tools,
        "snapshot",
        json!({"action": "restore", "name": "nope"}),
    );
    assert!(msg.contains("ENOENT") && msg.contains("nope"), "{msg}");
    let msg = err(&tools, "snapshot", json!({"action": "restore"}));
    assert!(msg.contains("needs `name`"), "{msg}");
    let msg = err(&tools, "snapshot", json!({"action": "fork"}));
    assert!(msg.contains("unknown snapshot action"), "{msg}");
    let msg = err(
        &tools,
        "snapshot",
        json!({"action": "create", "name": "a b"}),
    );
    assert!(msg.contains("invalid snapshot name"), "{msg}");
    let msg = err(&tools, "diff", json!({}));
    assert!(msg.contains("needs `from`"), "{msg}");
    let msg = err(&tools, "undo", json!({"run": "missing"}));
    assert!(msg.contains("no run with id missing"), "{msg}");
}

#[test]
fn undo_reverts_an_exec_run_and_refuses_after_a_later_change() {
    let (ws, tools) = exec_tools();
    put(&ws, "/data.txt", "original\n");
    let r = ok(
        &tools,
        "exec",
        json!({"command": "import fs from 'node:fs'; fs.writeFileSync('/data.txt', 'from the run\\n'); fs.writeFileSync('/made.txt', 'x');", "backend": "js"}),
    );
    let run = r["runId"].as_str().unwrap().to_owned();
    assert_eq!(text(&ws, "/data.txt"), "from the run\n");
    let d = ok(&tools, "diff", json!({"run": run}));
    assert_eq!(names(&d, "files", "path"), ["/data.txt", "/made.txt"]);

    put(&ws, "/made.txt", "changed after the run");
    let msg = err(&tools, "undo", json!({"run": run}));
    assert!(
        msg.contains("/made.txt") && !msg.contains("/data.txt"),
        "{msg}"
    );
    let v = ok(&tools, "undo", json!({"run": run, "force": true}));
    assert_eq!(v["reverted"], json!(["/data.txt"]));
    assert_eq!(v["conflicts"], json!(["/made.txt"]));
    assert_eq!(text(&ws, "/data.txt"), "original\n");
}
