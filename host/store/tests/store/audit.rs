use crate::support::*;
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
    let log = ws.audit().query(&AuditQuery::default()).unwrap();
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
    let log = ws.audit().query(&AuditQuery::default()).unwrap();
    let args = log[0].args.as_deref().unwrap();
    assert!(args.contains("\"size\":10000"), "{args}");
    assert!(args.contains("sha256"), "{args}");
    assert!(!args.contains("xxxxxxxx"), "{args}");
}

/// The first 16 hex digits of a sha256, as the audit log shows them.
fn short_sha256(data: &[u8]) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(data)[..8]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

#[test]
fn a_large_write_is_identified_by_its_chunk_hashes_without_hashing_it_twice() {
    let ws = ws();
    let one_chunk = vec![7u8; 1000];
    let chunk = computer_store::CHUNK_SIZE;
    let three_chunks: Vec<u8> = (0..2 * chunk + 10).map(|i| (i % 251) as u8).collect();
    ws.write("/one", &one_chunk, &WriteOptions::default())
        .unwrap();
    ws.write("/three", &three_chunks, &WriteOptions::default())
        .unwrap();
    let log = ws.audit().query(&AuditQuery::default()).unwrap();
    let data = |i: usize| -> serde_json::Value {
        serde_json::from_str::<serde_json::Value>(log[i].args.as_deref().unwrap()).unwrap()["data"]
            .clone()
    };
    // One chunk: its plain sha256.
    assert_eq!(
        data(0),
        serde_json::json!({"size": 1000, "sha256": short_sha256(&one_chunk)})
    );
    // More: the sha256 of the chunks' sha256s, in order.
    let list: Vec<u8> = three_chunks
        .chunks(chunk)
        .flat_map(|piece| {
            use sha2::Digest;
            sha2::Sha256::digest(piece).to_vec()
        })
        .collect();
    assert_eq!(
        data(1),
        serde_json::json!({"size": three_chunks.len(), "chunks_sha256": short_sha256(&list)})
    );
}

#[test]
fn a_write_refused_as_too_big_is_logged_with_its_size() {
    let dir = tempfile::tempdir().unwrap();
    let config = computer_store::Config {
        max_file_size: 100,
        ..Default::default()
    };
    let ws = computer_store::Workspace::open_with(dir.path().join("ws.db"), config).unwrap();
    let e = ws
        .write("/f", &[1u8; 101], &WriteOptions::default())
        .unwrap_err();
    assert_eq!(e.code, Errno::EFBIG);
    let log = ws.audit().query(&AuditQuery::default()).unwrap();
    assert_eq!(log[0].outcome, "EFBIG");
    assert!(
        log[0].args.as_deref().unwrap().contains("{\"size\":101}"),
        "{:?}",
        log[0].args
    );
}

#[test]
fn queries_filter_by_run_path_and_time() {
    let ws = ws();
    with_actor("run:one/shell", || put(&ws, "/src/a.rs", "a"));
    with_actor("run:two/js", || put(&ws, "/docs/b.md", "b"));
    let cut = ws.audit().query(&AuditQuery::default()).unwrap()[1].time_ns;
    let one = ws
        .audit()
        .query(&AuditQuery {
            run: Some("one".into()),
            ..Default::default()
        })
        .unwrap();
    assert_eq!(one.len(), 1);
    assert_eq!(one[0].target, "/src/a.rs");
    let docs = ws
        .audit()
        .query(&AuditQuery {
            path: Some("/docs/**".into()),
            ..Default::default()
        })
        .unwrap();
    assert_eq!(docs.len(), 1);
    assert_eq!(docs[0].actor, "run:two/js");
    let since = ws
        .audit()
        .query(&AuditQuery {
            since_ns: Some(cut),
            ..Default::default()
        })
        .unwrap();
    assert!(since.iter().all(|r| r.time_ns >= cut));
    assert_eq!(since.len(), 1);
    let bad = ws.audit().query(&AuditQuery {
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
    let log = ws.audit().query(&AuditQuery::default()).unwrap();
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
        ws.audit()
            .record_tool_call(&ToolCall {
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
    let log = ws.audit().query(&AuditQuery::default()).unwrap();
    assert_eq!(log.len(), 1);
    assert_eq!(log[0].operation, "stat");
    let calls = ws.audit().tool_calls(Page::all()).unwrap();
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
    assert!(ws.audit().query(&AuditQuery::default()).unwrap().is_empty());
    let _ = Page::all();
}

#[test]
fn a_mutations_row_commits_with_it_even_if_the_process_dies_after() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("ws.db");
    let ws = computer_store::Workspace::open(&path).unwrap();
    with_actor("cli", || put(&ws, "/kept.txt", "k"));
    // No drop, no flush: as if the process were killed after the commit.
    std::mem::forget(ws);
    let other = computer_store::Workspace::open(&path).unwrap();
    let log = other.audit().query(&AuditQuery::default()).unwrap();
    let rows: Vec<(&str, &str, &str)> = log
        .iter()
        .map(|r| (r.actor.as_str(), r.operation.as_str(), r.target.as_str()))
        .collect();
    assert_eq!(rows, [("cli", "write", "/kept.txt")]);
}

#[test]
fn many_rows_keep_their_order_through_the_pending_batches() {
    let ws = ws();
    for i in 0..200 {
        put(&ws, &format!("/f{i:03}"), &"x".repeat(i));
        ws.stat(&format!("/f{i:03}")).unwrap();
    }
    let log = ws.audit().query(&AuditQuery::default()).unwrap();
    assert_eq!(log.len(), 400);
    for (i, pair) in log.chunks(2).enumerate() {
        let name = format!("/f{i:03}");
        assert_eq!(
            (pair[0].operation.as_str(), pair[0].target.as_str()),
            ("write", name.as_str())
        );
        assert_eq!(
            (pair[1].operation.as_str(), pair[1].target.as_str()),
            ("stat", name.as_str())
        );
    }
    assert!(
        log.windows(2)
            .all(|w| w[0].id < w[1].id && w[0].time_ns <= w[1].time_ns)
    );
    // Queried again: the same rows, the same ids.
    assert_eq!(ws.audit().query(&AuditQuery::default()).unwrap(), log);
}
