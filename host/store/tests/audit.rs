mod common;

use common::*;
use computer_store::{AuditQuery, Errno, Page, ToolCall, WriteOptions, with_actor};

#[test]
fn every_operation_is_recorded_with_actor_outcome_and_args() {
    let ws = ws();
    with_actor("cli", || {
        put(&ws, "/a.txt", "hello");
        ws.read("/a.txt").unwrap();
        ws.stat("/missing").unwrap_err();
    });
    ws.set_readonly("/a.txt", true).unwrap();
    with_actor("run:r1/js", || {
        ws.write("/a.txt", b"x", &WriteOptions::default())
            .unwrap_err();
    });
    let log = ws.audit_log(&AuditQuery::default()).unwrap();
    let rows: Vec<(&str, &str, &str, &str)> = log
        .iter()
        .map(|r| {
            (
                r.actor.as_str(),
                r.operation.as_str(),
                r.target.as_str(),
                r.outcome.as_str(),
            )
        })
        .collect();
    assert_eq!(
        rows,
        [
            ("cli", "write", "/a.txt", "ok"),
            ("cli", "read", "/a.txt", "ok"),
            ("cli", "stat", "/missing", "ENOENT"),
            ("embedder", "set_readonly", "/a.txt", "ok"),
            ("run:r1/js", "write", "/a.txt", "denied"),
        ]
    );
    let denied = &log[4];
    assert!(denied.error.as_deref().unwrap().contains("read-only"));
    assert!(
        log[0]
            .args
            .as_deref()
            .unwrap()
            .contains("\"data\":\"hello\"")
    );
    assert!(log.iter().all(|r| r.duration_ns >= 0 && r.time_ns > 0));
}

#[test]
fn large_payloads_are_summarized_by_size_and_hash() {
    let ws = ws();
    ws.write("/big", &vec![b'x'; 10_000], &WriteOptions::default())
        .unwrap();
    let log = ws.audit_log(&AuditQuery::default()).unwrap();
    let args = log[0].args.as_deref().unwrap();
    assert!(args.contains("\"size\":10000"), "{args}");
    assert!(args.contains("sha256"), "{args}");
    assert!(!args.contains("xxxxxxxx"), "{args}");
}

#[test]
fn queries_filter_by_run_path_and_time() {
    let ws = ws();
    with_actor("run:one/shell", || put(&ws, "/src/a.rs", "a"));
    with_actor("run:two/js", || put(&ws, "/docs/b.md", "b"));
    let cut = ws.audit_log(&AuditQuery::default()).unwrap()[1].time_ns;
    let one = ws
        .audit_log(&AuditQuery {
            run: Some("one".into()),
            ..Default::default()
        })
        .unwrap();
    assert_eq!(one.len(), 1);
    assert_eq!(one[0].target, "/src/a.rs");
    let docs = ws
        .audit_log(&AuditQuery {
            path: Some("/docs/**".into()),
            ..Default::default()
        })
        .unwrap();
    assert_eq!(docs.len(), 1);
    assert_eq!(docs[0].actor, "run:two/js");
    let since = ws
        .audit_log(&AuditQuery {
            since_ns: Some(cut),
            ..Default::default()
        })
        .unwrap();
    assert!(since.iter().all(|r| r.time_ns >= cut));
    assert_eq!(since.len(), 1);
    let bad = ws.audit_log(&AuditQuery {
        path: Some("[".into()),
        ..Default::default()
    });
    assert_eq!(bad.unwrap_err().code, Errno::EINVAL);
}

#[test]
fn failed_mutations_are_logged_although_rolled_back() {
    let ws = ws();
    put(&ws, "/f", "1");
    let rev = ws.rev().unwrap();
    ws.write("/f/child", b"", &WriteOptions::default())
        .unwrap_err();
    assert_eq!(ws.rev().unwrap(), rev);
    let log = ws.audit_log(&AuditQuery::default()).unwrap();
    let last = log.last().unwrap();
    assert_eq!(
        (last.operation.as_str(), last.outcome.as_str()),
        ("write", "ENOTDIR")
    );
}

#[test]
fn audit_survives_reopen_and_tool_calls_are_recorded() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("w.db");
    {
        let ws = computer_store::Workspace::open(&db).unwrap();
        ws.stat("/").unwrap(); // buffered read: flushed on drop
        ws.record_tool_call(&ToolCall {
            name: "read".into(),
            parameters: "{\"path\":\"/x\"}".into(),
            result: None,
            error: Some("no such file".into()),
            started_ns: 10,
            completed_ns: 25,
        })
        .unwrap();
    }
    let ws = computer_store::Workspace::open(&db).unwrap();
    let log = ws.audit_log(&AuditQuery::default()).unwrap();
    assert_eq!(log.len(), 1);
    assert_eq!(log[0].operation, "stat");
    let calls = ws.tool_calls(Page::all()).unwrap();
    assert_eq!(calls.len(), 1);
    assert_eq!((calls[0].name.as_str(), calls[0].duration_ns), ("read", 15));
}

#[test]
fn audit_can_be_turned_off() {
    let dir = tempfile::tempdir().unwrap();
    let config = computer_store::Config {
        audit: false,
        ..Default::default()
    };
    let ws = computer_store::Workspace::open_with(dir.path().join("w.db"), config).unwrap();
    put(&ws, "/a", "1");
    assert!(ws.audit_log(&AuditQuery::default()).unwrap().is_empty());
    let _ = Page::all();
}
