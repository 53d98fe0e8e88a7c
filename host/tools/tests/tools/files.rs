//! `read`, `write` and `edit`.

use crate::support::*;

// ------------------------------------------------------------- read

#[test]
fn read_whole_small_file() {
    let (ws, tools) = fs_tools();
    put(&ws, "/a.txt", "one\ntwo\nthree\n");
    let v = ok(&tools, "read", json!({"path": "/a.txt"}));
    assert_eq!(v["content"], "one\ntwo\nthree\n");
    assert_eq!(v["totalLines"], 3);
    assert!(v.get("nextOffset").is_none(), "{v}");
    // No trailing newline: the last line still counts.
    put(&ws, "/b.txt", "x\ny");
    let v = ok(&tools, "read", json!({"path": "/b.txt"}));
    assert_eq!(v["totalLines"], 2);
    assert_eq!(v["content"], "x\ny");
    // Empty file.
    put(&ws, "/empty", "");
    let v = ok(&tools, "read", json!({"path": "/empty"}));
    assert_eq!(v["content"], "");
    assert_eq!(v["totalLines"], 0);
}

#[test]
fn read_pages_by_offset_and_limit() {
    let (ws, tools) = fs_tools();
    let body: String = (1..=10).map(|i| format!("{i}\n")).collect();
    put(&ws, "/n.txt", &body);
    let v = ok(
        &tools,
        "read",
        json!({"path": "/n.txt", "offset": 3, "limit": 4}),
    );
    assert_eq!(v["content"], "3\n4\n5\n6\n");
    assert_eq!(v["totalLines"], 10);
    assert_eq!(v["nextOffset"], 7);
    let v = ok(
        &tools,
        "read",
        json!({"path": "/n.txt", "offset": 7, "limit": 100}),
    );
    assert_eq!(v["content"], "7\n8\n9\n10\n");
    assert!(v.get("nextOffset").is_none(), "{v}");
    let v = ok(&tools, "read", json!({"path": "/n.txt", "limit": 1}));
    assert_eq!(v["content"], "1\n");
    assert_eq!(v["nextOffset"], 2);

    let msg = err(&tools, "read", json!({"path": "/n.txt", "offset": 11}));
    assert!(
        msg.contains("past the end") && msg.contains("10 lines"),
        "{msg}"
    );
}

#[test]
fn read_caps_a_call_at_256_kib() {
    let (ws, tools) = fs_tools();
    let line = format!("{}\n", "a".repeat(999));
    put(&ws, "/big.txt", line.repeat(1000));
    let v = ok(&tools, "read", json!({"path": "/big.txt"}));
    let content = v["content"].as_str().unwrap();
    assert!(content.len() <= 256 * 1024, "{}", content.len());
    assert_eq!(content.len(), 262 * 1000);
    assert_eq!(v["totalLines"], 1000);
    assert_eq!(v["nextOffset"], 263);
    // The next page picks up where the first stopped.
    let v = ok(&tools, "read", json!({"path": "/big.txt", "offset": 263}));
    assert_eq!(v["content"].as_str().unwrap().len(), 262 * 1000);
    assert_eq!(v["nextOffset"], 525);

    // One line longer than the cap: its first 256 KiB, marked.
    put(&ws, "/line.txt", format!("{}\nnext\n", "b".repeat(300_000)));
    let v = ok(&tools, "read", json!({"path": "/line.txt"}));
    let content = v["content"].as_str().unwrap();
    assert!(content.starts_with(&"b".repeat(256 * 1024)));
    assert!(
        content.contains("[line truncated]"),
        "{}",
        &content[content.len() - 40..]
    );
    assert_eq!(v["nextOffset"], 2);
}

#[test]
fn read_binary_answers_kind_and_size() {
    let (ws, tools) = fs_tools();
    put(&ws, "/nul.bin", [b'a', 0, 1, 2, 255]);
    let v = ok(&tools, "read", json!({"path": "/nul.bin"}));
    assert_eq!(v["kind"], "binary");
    assert_eq!(v["size"], 5);
    assert!(v.get("content").is_none(), "{v}");
    // Not UTF-8, even without a NUL.
    put(&ws, "/latin1.txt", [b'c', b'a', b'f', 0xe9]);
    let v = ok(&tools, "read", json!({"path": "/latin1.txt"}));
    assert_eq!(v["kind"], "binary");
    assert_eq!(v["size"], 4);
}

#[test]
fn read_errors_say_what_to_do() {
    let (ws, tools) = fs_tools();
    let msg = err(&tools, "read", json!({"path": "/missing.txt"}));
    assert!(msg.starts_with("ENOENT"), "{msg}");
    assert!(msg.contains("ls or find"), "{msg}");
    ws.mkdir("/dir", &Default::default()).unwrap();
    let msg = err(&tools, "read", json!({"path": "/dir"}));
    assert!(
        msg.contains("is a directory") && msg.contains("ls"),
        "{msg}"
    );
    let msg = err(&tools, "read", json!({}));
    assert!(msg.contains("missing field `path`"), "{msg}");
    let msg = err(&tools, "read", json!({"path": 5}));
    assert!(msg.contains("invalid type"), "{msg}");
    let msg = err(&tools, "read", Value::Null);
    assert!(msg.contains("missing field `path`"), "{msg}");
    let msg = err(&tools, "read", json!(["/a"]));
    assert!(msg.contains("invalid arguments for read"), "{msg}");
}

// ------------------------------------------------------------- write

#[test]
fn write_creates_parents_and_reports_bytes() {
    let (ws, tools) = fs_tools();
    let v = ok(
        &tools,
        "write",
        json!({"path": "/deep/er/f.txt", "content": "héllo\n"}),
    );
    assert_eq!(v["bytesWritten"], 7);
    assert_eq!(text(&ws, "/deep/er/f.txt"), "héllo\n");
    assert_eq!(ws.stat("/deep/er").unwrap().kind, NodeKind::Directory);
    assert_eq!(ws.stat("/deep/er/f.txt").unwrap().mode, 0o644);
    // Overwrite.
    ok(
        &tools,
        "write",
        json!({"path": "/deep/er/f.txt", "content": ""}),
    );
    assert_eq!(text(&ws, "/deep/er/f.txt"), "");
}

#[test]
fn write_keeps_an_existing_mode() {
    let (ws, tools) = fs_tools();
    put(&ws, "/run.sh", "#!/bin/sh\n");
    ws.chmod("/run.sh", 0o755).unwrap();
    ok(
        &tools,
        "write",
        json!({"path": "/run.sh", "content": "#!/bin/sh\necho hi\n"}),
    );
    assert_eq!(ws.stat("/run.sh").unwrap().mode, 0o755);
    assert_eq!(text(&ws, "/run.sh"), "#!/bin/sh\necho hi\n");
}

#[test]
fn write_caps_content_at_2_mib() {
    let (ws, tools) = fs_tools();
    let limit = 2 * 1024 * 1024;
    let v = ok(
        &tools,
        "write",
        json!({"path": "/max.txt", "content": "x".repeat(limit)}),
    );
    assert_eq!(v["bytesWritten"], limit);
    let msg = err(
        &tools,
        "write",
        json!({"path": "/over.txt", "content": "x".repeat(limit + 1)}),
    );
    assert!(
        msg.contains("2097153 bytes") && msg.contains("2097152-byte limit"),
        "{msg}"
    );
    assert!(msg.contains("split the file"), "{msg}");
    assert!(!ws.exists("/over.txt").unwrap());
}

#[test]
fn write_errors() {
    let (ws, tools) = fs_tools();
    ws.mkdir("/d", &Default::default()).unwrap();
    let msg = err(&tools, "write", json!({"path": "/d", "content": "x"}));
    assert!(msg.starts_with("EISDIR"), "{msg}");
    put(&ws, "/file", "x");
    let msg = err(
        &tools,
        "write",
        json!({"path": "/file/child", "content": "x"}),
    );
    assert!(msg.starts_with("ENOTDIR"), "{msg}");
    let msg = err(&tools, "write", json!({"path": "/a"}));
    assert!(msg.contains("missing field `content`"), "{msg}");
    let msg = err(
        &tools,
        "write",
        json!({"path": "/a", "content": "x", "mode": 755}),
    );
    assert!(msg.contains("unknown field `mode`"), "{msg}");
}

// ------------------------------------------------------------- edit

#[test]
fn edit_applies_a_batch_with_a_diff() {
    let (ws, tools) = fs_tools();
    put(&ws, "/f.txt", "one\ntwo\nthree\n");
    let v = ok(
        &tools,
        "edit",
        json!({"path": "/f.txt", "edits": [
            {"oldText": "one", "newText": "1"},
            {"oldText": "three", "newText": "3"},
        ]}),
    );
    assert_eq!(v["editsApplied"], 2);
    let diff = v["diff"].as_str().unwrap();
    assert!(
        diff.contains("-one") && diff.contains("+1") && diff.contains("+3"),
        "{diff}"
    );
    assert_eq!(text(&ws, "/f.txt"), "1\ntwo\n3\n");
}

#[test]
fn edit_accepts_a_single_old_and_new_text() {
    let (ws, tools) = fs_tools();
    put(&ws, "/f.txt", "fn main() {}\n");
    ws.chmod("/f.txt", 0o600).unwrap();
    let v = ok(
        &tools,
        "edit",
        json!({"path": "/f.txt", "oldText": "main", "newText": "start"}),
    );
    assert_eq!(v["editsApplied"], 1);
    assert_eq!(text(&ws, "/f.txt"), "fn start() {}\n");
    assert_eq!(ws.stat("/f.txt").unwrap().mode, 0o600);
}

#[test]
fn edit_ambiguous_and_missing_text_say_what_to_do() {
    let (ws, tools) = fs_tools();
    put(&ws, "/f.txt", "x = 1\nx = 1\n");
    let msg = err(
        &tools,
        "edit",
        json!({"path": "/f.txt", "oldText": "x = 1", "newText": "x = 2"}),
    );
    assert!(
        msg.contains("found 2 occurrences of oldText; add more context"),
        "{msg}"
    );
    let msg = err(
        &tools,
        "edit",
        json!({"path": "/f.txt", "oldText": "y = 1", "newText": "y = 2"}),
    );
    assert!(msg.contains("oldText not found"), "{msg}");
    // A batch is atomic: one bad edit and nothing changes.
    let msg = err(
        &tools,
        "edit",
        json!({"path": "/f.txt", "edits": [
            {"oldText": "x = 1\nx", "newText": "z = 1\nx"},
            {"oldText": "nope", "newText": "yes"},
        ]}),
    );
    assert!(msg.contains("edit 2"), "{msg}");
    assert_eq!(text(&ws, "/f.txt"), "x = 1\nx = 1\n");
}

#[test]
fn edit_keeps_crlf_and_bom() {
    let (ws, tools) = fs_tools();
    put(&ws, "/win.txt", "\u{feff}a\r\nb\r\nc\r\n");
    ok(
        &tools,
        "edit",
        json!({"path": "/win.txt", "oldText": "a\nb", "newText": "x\ny"}),
    );
    assert_eq!(text(&ws, "/win.txt"), "\u{feff}x\r\ny\r\nc\r\n");
}

#[test]
fn edit_argument_errors() {
    let (ws, tools) = fs_tools();
    put(&ws, "/f.txt", "abc\n");
    for args in [
        json!({"path": "/f.txt"}),
        json!({"path": "/f.txt", "edits": []}),
        json!({"path": "/f.txt", "oldText": "a"}),
        json!({"path": "/f.txt", "oldText": "a", "newText": "b", "edits": [{"oldText": "a", "newText": "b"}]}),
    ] {
        let msg = err(&tools, "edit", args);
        assert!(msg.contains("give either edits"), "{msg}");
    }
    let msg = err(
        &tools,
        "edit",
        json!({"path": "/f.txt", "edits": [{"old_text": "a", "newText": "b"}]}),
    );
    assert!(
        msg.contains("unknown field `old_text`") && msg.contains("oldText"),
        "{msg}"
    );
    let msg = err(
        &tools,
        "edit",
        json!({"path": "/nope.txt", "oldText": "a", "newText": "b"}),
    );
    assert!(msg.starts_with("ENOENT"), "{msg}");
    let msg = err(
        &tools,
        "edit",
        json!({"path": "/f.txt", "oldText": "abc", "newText": "abc"}),
    );
    assert!(msg.contains("identical"), "{msg}");
}
