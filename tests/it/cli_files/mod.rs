//! File contents and metadata: `fs read`, `write`, `append`, `truncate`,
//! `stat`, `chmod`, and how paths are validated and normalized.

use std::time::{SystemTime, UNIX_EPOCH};

use computer_tests::{Ws, json, text};

mod metadata_paths;

/// Deterministic pseudo-random bytes (xorshift), so failures reproduce.
fn noise(len: usize, mut seed: u64) -> Vec<u8> {
    let mut out = Vec::with_capacity(len);
    while out.len() < len {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        out.extend_from_slice(&seed.to_le_bytes());
    }
    out.truncate(len);
    out
}

fn now_ns() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .expect("clock after 1970")
        .as_nanos() as u64
}

// ---------------------------------------------------------------- read/write

#[test]
fn write_takes_stdin_and_read_prints_it() {
    let ws = Ws::new();
    assert_eq!(
        ws.ok_with(&["fs", "write", "/hello.txt"], "hello\nworld\n"),
        ""
    );
    assert_eq!(ws.cat("/hello.txt"), "hello\nworld\n");
}

#[test]
fn write_json_reports_bytes_written() {
    let ws = Ws::new();
    let doc = ws.json_with(&["fs", "write", "/f"], "12345");
    assert_eq!(doc, json!({"path": "/f", "bytes_written": 5}));
}

#[test]
fn write_with_empty_stdin_creates_an_empty_file() {
    let ws = Ws::new();
    ws.ok(&["fs", "write", "/empty"]);
    assert_eq!(ws.read("/empty"), b"");
    assert_eq!(ws.stat("/empty")["size"], 0);
}

#[test]
fn write_replaces_the_whole_content() {
    let ws = Ws::new();
    ws.put("/f", "a long first version\n");
    ws.ok_with(&["fs", "write", "/f"], "short\n");
    assert_eq!(ws.cat("/f"), "short\n");
    assert_eq!(ws.stat("/f")["size"], 6);
}

#[test]
fn binary_content_round_trips_exactly() {
    let ws = Ws::new();
    let mut data: Vec<u8> = (0..=255u8).cycle().take(4096).collect();
    data.extend_from_slice(b"\r\n\0\xff\xfe");
    ws.ok_with(&["fs", "write", "/bin"], &data);
    assert_eq!(ws.read("/bin"), data);
}

#[test]
fn large_content_round_trips_and_ranges_cross_chunk_boundaries() {
    let ws = Ws::new();
    // More than two 256 KiB chunks, not a multiple of the chunk size.
    let data = noise(600_001, 0x9e37_79b9_7f4a_7c15);
    let doc = ws.json_with(&["fs", "write", "/big"], &data);
    assert_eq!(doc["bytes_written"], 600_001);
    assert_eq!(ws.read("/big"), data);
    let boundary = 256 * 1024;
    let got = ws.ok_bytes(
        &[
            "fs",
            "read",
            "/big",
            "--offset",
            &(boundary - 10).to_string(),
            "--length",
            "20",
        ],
        "",
    );
    assert_eq!(got, &data[boundary - 10..boundary + 10]);
}

#[test]
fn read_range_with_offset_and_length() {
    let ws = Ws::new();
    ws.put("/digits", "0123456789");
    let range = |args: &[&str]| {
        let mut full = vec!["fs", "read", "/digits"];
        full.extend_from_slice(args);
        text(&ws.ok_bytes(&full, ""))
    };
    assert_eq!(range(&["--offset", "2", "--length", "3"]), "234");
    assert_eq!(range(&["--offset", "3"]), "3456789");
    assert_eq!(range(&["--length", "4"]), "0123");
    assert_eq!(range(&["--length", "0"]), "");
}

#[test]
fn read_range_is_clamped_at_end_of_file() {
    let ws = Ws::new();
    ws.put("/digits", "0123456789");
    let read = |offset: &str, length: Option<&str>| {
        let mut args = vec!["fs", "read", "/digits", "--offset", offset];
        if let Some(l) = length {
            args.extend(["--length", l]);
        }
        text(&ws.ok_bytes(&args, ""))
    };
    assert_eq!(read("8", Some("10")), "89");
    assert_eq!(read("10", Some("1")), "");
    assert_eq!(read("10", None), "");
    assert_eq!(read("1000", None), "");
    assert_eq!(read("0", Some("18446744073709551615")), "0123456789");
}

#[test]
fn read_json_gives_text_as_content_and_binary_as_base64() {
    let ws = Ws::new();
    ws.put("/t.txt", "héllo\n");
    assert_eq!(
        ws.json(&["fs", "read", "/t.txt"]),
        json!({"path": "/t.txt", "size": 7, "content": "héllo\n"})
    );
    ws.put("/b.bin", b"\xff\xfe\x00\x01");
    assert_eq!(
        ws.json(&["fs", "read", "/b.bin"]),
        json!({"path": "/b.bin", "size": 4, "base64": "//4AAQ=="})
    );
    assert_eq!(
        ws.json(&["fs", "read", "/t.txt", "--offset", "1", "--length", "2"]),
        json!({"path": "/t.txt", "size": 2, "content": "é"})
    );
}

#[test]
fn read_errors() {
    let ws = Ws::new();
    ws.put("/dir/file", "x");
    assert_eq!(
        ws.err(&["fs", "read", "/dir/missing"]),
        (
            "ENOENT".into(),
            "no such file or directory: /dir/missing".into()
        )
    );
    assert_eq!(
        ws.err(&["fs", "read", "/dir"]),
        ("EISDIR".into(), "is a directory: /dir".into())
    );
    assert_eq!(
        ws.err(&["fs", "read", "/dir/file/"]),
        ("ENOTDIR".into(), "not a directory: /dir/file".into())
    );
    assert_eq!(ws.errno(&["fs", "read", "/dir/file/x"]), "ENOTDIR");
}

#[test]
fn write_exclusive_refuses_an_existing_file() {
    let ws = Ws::new();
    ws.ok_with(&["fs", "write", "--exclusive", "/once"], "first");
    assert_eq!(
        ws.err_with(&["fs", "write", "--exclusive", "/once"], "second"),
        ("EEXIST".into(), "file exists: /once".into())
    );
    assert_eq!(ws.cat("/once"), "first");
}

#[test]
fn write_parents_creates_missing_directories() {
    let ws = Ws::new();
    ws.ok_with(&["fs", "write", "--parents", "/a/b/c/d.txt"], "deep");
    assert_eq!(ws.cat("/a/b/c/d.txt"), "deep");
    for dir in ["/a", "/a/b", "/a/b/c"] {
        let st = ws.stat(dir);
        assert_eq!(
            (&st["kind"], &st["mode"]),
            (&json!("directory"), &json!("755")),
            "{dir}"
        );
    }
    // -p is the short form.
    ws.ok_with(&["fs", "write", "-p", "/x/y.txt"], "short");
    assert_eq!(ws.cat("/x/y.txt"), "short");
}

#[test]
fn write_with_a_missing_parent_is_enoent() {
    let ws = Ws::new();
    let (code, message) = ws.err_with(&["fs", "write", "/nodir/f.txt"], "x");
    assert_eq!(code, "ENOENT");
    assert!(
        message.starts_with("no such file or directory: /nodir/f.txt"),
        "{message}"
    );
    assert!(!ws.exists("/nodir"));
}

#[test]
fn write_under_a_file_is_enotdir() {
    let ws = Ws::new();
    ws.put("/file", "x");
    assert_eq!(
        ws.err_with(&["fs", "write", "/file/child"], "y"),
        ("ENOTDIR".into(), "not a directory: /file/child".into())
    );
    assert_eq!(
        ws.errno_with(&["fs", "write", "--parents", "/file/a/b"], "y"),
        "ENOTDIR"
    );
    assert_eq!(ws.cat("/file"), "x");
}

#[test]
fn write_to_a_directory_or_root_is_eisdir() {
    let ws = Ws::new();
    ws.ok(&["fs", "mkdir", "/dir"]);
    assert_eq!(
        ws.err_with(&["fs", "write", "/dir"], "x"),
        ("EISDIR".into(), "is a directory: /dir".into())
    );
    assert_eq!(
        ws.err_with(&["fs", "write", "/"], "x"),
        ("EISDIR".into(), "is a directory: /".into())
    );
    assert_eq!(ws.errno_with(&["fs", "write", "/new/"], "x"), "EISDIR");
}

#[test]
fn write_mode_sets_permission_bits() {
    let ws = Ws::new();
    ws.ok_with(&["fs", "write", "--mode", "755", "/run.sh"], "#!/bin/sh\n");
    assert_eq!(ws.stat("/run.sh")["mode"], "755");
    ws.ok_with(&["fs", "write", "--mode", "0600", "/secret"], "s");
    assert_eq!(ws.stat("/secret")["mode"], "600");
    // New files default to 644.
    ws.put("/plain", "p");
    assert_eq!(ws.stat("/plain")["mode"], "644");
}

#[test]
fn rewriting_keeps_the_mode_unless_one_is_given() {
    let ws = Ws::new();
    ws.ok_with(&["fs", "write", "--mode", "755", "/run.sh"], "v1");
    ws.ok_with(&["fs", "write", "/run.sh"], "v2");
    assert_eq!(ws.stat("/run.sh")["mode"], "755");
    ws.ok_with(&["fs", "write", "--mode", "640", "/run.sh"], "v3");
    assert_eq!(ws.stat("/run.sh")["mode"], "640");
    assert_eq!(ws.cat("/run.sh"), "v3");
}

#[test]
fn write_with_an_invalid_mode_is_einval_and_creates_nothing() {
    let ws = Ws::new();
    assert_eq!(
        ws.err_with(&["fs", "write", "--mode", "999", "/f"], "x"),
        (
            "EINVAL".into(),
            "invalid mode \"999\": expected octal permission bits such as 644 or 0755".into()
        )
    );
    assert!(!ws.exists("/f"));
}

#[test]
fn write_through_a_symlink_writes_its_target() {
    let ws = Ws::new();
    ws.put("/real.txt", "old");
    ws.ok(&["fs", "ln", "-s", "/real.txt", "/link"]);
    ws.ok_with(&["fs", "write", "/link"], "new");
    assert_eq!(ws.cat("/real.txt"), "new");
    assert_eq!(
        ws.json(&["fs", "stat", "--no-follow", "/link"])["kind"],
        "symlink"
    );
}

// ---------------------------------------------------------------- append / truncate

#[test]
fn append_adds_to_the_end_and_creates_a_missing_file() {
    let ws = Ws::new();
    assert_eq!(ws.ok_with(&["fs", "append", "/log"], "one\n"), "");
    ws.ok_with(&["fs", "append", "/log"], "two\n");
    let doc = ws.json_with(&["fs", "append", "/log"], "three\n");
    assert_eq!(doc, json!({"path": "/log", "bytes_appended": 6}));
    assert_eq!(ws.cat("/log"), "one\ntwo\nthree\n");
}

#[test]
fn append_of_binary_across_a_chunk_boundary() {
    let ws = Ws::new();
    let first = noise(256 * 1024 - 3, 7);
    let second = noise(10, 8);
    ws.ok_with(&["fs", "write", "/b"], &first);
    ws.ok_with(&["fs", "append", "/b"], &second);
    let mut want = first;
    want.extend_from_slice(&second);
    assert_eq!(ws.read("/b"), want);
}

#[test]
fn append_errors() {
    let ws = Ws::new();
    ws.ok(&["fs", "mkdir", "/dir"]);
    assert_eq!(
        ws.err_with(&["fs", "append", "/dir"], "x"),
        ("EISDIR".into(), "is a directory: /dir".into())
    );
    assert_eq!(
        ws.errno_with(&["fs", "append", "/missing/log"], "x"),
        "ENOENT"
    );
}

#[test]
fn truncate_shrinks_and_zero_extends() {
    let ws = Ws::new();
    ws.put("/f", "hello world");
    assert_eq!(ws.ok(&["fs", "truncate", "/f", "5"]), "");
    assert_eq!(ws.cat("/f"), "hello");
    let doc = ws.json(&["fs", "truncate", "/f", "8"]);
    assert_eq!(doc, json!({"path": "/f", "size": 8}));
    assert_eq!(ws.read("/f"), b"hello\0\0\0");
    ws.ok(&["fs", "truncate", "/f", "0"]);
    assert_eq!(ws.read("/f"), b"");
    assert_eq!(ws.stat("/f")["size"], 0);
}

#[test]
fn truncate_errors() {
    let ws = Ws::new();
    ws.ok(&["fs", "mkdir", "/dir"]);
    assert_eq!(
        ws.err(&["fs", "truncate", "/missing", "1"]),
        (
            "ENOENT".into(),
            "no such file or directory: /missing".into()
        )
    );
    assert_eq!(
        ws.err(&["fs", "truncate", "/dir", "0"]),
        ("EISDIR".into(), "is a directory: /dir".into())
    );
}
