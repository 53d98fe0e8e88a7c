//! File contents and metadata: `fs read`, `write`, `append`, `truncate`,
//! `stat`, `chmod`, and how paths are validated and normalized.

use std::time::{SystemTime, UNIX_EPOCH};

use computer_tests::{Ws, json, text};

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

// ---------------------------------------------------------------- stat / chmod

#[test]
fn stat_json_fields_of_a_file() {
    let ws = Ws::new();
    let before = now_ns();
    ws.put("/dir/f.txt", "12345");
    let after = now_ns();
    let st = ws.stat("/dir/f.txt");
    let obj = st.as_object().expect("stat is an object");
    let mut keys: Vec<&str> = obj.keys().map(String::as_str).collect();
    keys.sort_unstable();
    assert_eq!(
        keys,
        [
            "ino", "kind", "mode", "mtime", "mtime_ns", "name", "path", "size"
        ]
    );
    assert_eq!(st["path"], "/dir/f.txt");
    assert_eq!(st["name"], "f.txt");
    assert_eq!(st["kind"], "file");
    assert_eq!(st["mode"], "644");
    assert_eq!(st["size"], 5);
    let mtime = st["mtime_ns"].as_u64().expect("mtime_ns is a number");
    assert!(
        (before..=after).contains(&mtime),
        "{before} <= {mtime} <= {after}"
    );
    let shown = st["mtime"].as_str().expect("mtime is a string");
    assert_eq!(shown.len(), "2024-01-02T03:04:05Z".len(), "{shown}");
    assert!(
        shown.ends_with('Z') && shown.as_bytes()[10] == b'T',
        "{shown}"
    );
    assert!(st["ino"].as_u64().is_some());
}

#[test]
fn stat_of_a_directory_and_of_root() {
    let ws = Ws::new();
    ws.ok(&["fs", "mkdir", "/d"]);
    let st = ws.stat("/d");
    assert_eq!(
        (&st["kind"], &st["mode"], &st["size"]),
        (&json!("directory"), &json!("755"), &json!(0))
    );
    let root = ws.stat("/");
    assert_eq!(
        (&root["name"], &root["kind"], &root["ino"]),
        (&json!("/"), &json!("directory"), &json!(1))
    );
}

#[test]
fn stat_plain_output() {
    let ws = Ws::new();
    ws.put("/f", "abc");
    let st = ws.stat("/f");
    let out = ws.ok(&["fs", "stat", "/f"]);
    assert_eq!(
        out,
        format!(
            "path: /f\nkind: file\nmode: 644\nsize: 3\nmtime: {}\nino: {}\n",
            st["mtime"].as_str().expect("mtime"),
            st["ino"]
        )
    );
}

#[test]
fn every_node_has_its_own_inode() {
    let ws = Ws::new();
    ws.put("/a", "same");
    ws.put("/b", "same");
    ws.ok(&["fs", "mkdir", "/c"]);
    let inos: Vec<_> = ["/", "/a", "/b", "/c"]
        .iter()
        .map(|p| ws.stat(p)["ino"].clone())
        .collect();
    for (i, a) in inos.iter().enumerate() {
        for b in &inos[i + 1..] {
            assert_ne!(a, b, "{inos:?}");
        }
    }
}

#[test]
fn stat_follows_symlinks_unless_no_follow() {
    let ws = Ws::new();
    ws.put("/target.txt", "0123456789");
    ws.ok(&["fs", "ln", "-s", "/target.txt", "/link"]);
    let target = ws.stat("/target.txt");
    let followed = ws.stat("/link");
    assert_eq!(followed["kind"], "file");
    assert_eq!(followed["size"], 10);
    assert_eq!(followed["ino"], target["ino"]);
    assert_eq!(followed["path"], "/link");

    let link = ws.json(&["fs", "stat", "--no-follow", "/link"]);
    assert_eq!(link["kind"], "symlink");
    assert_eq!(link["name"], "link");
    assert_eq!(link["mode"], "777");
    // A symlink's size is the length of its target.
    assert_eq!(link["size"], "/target.txt".len());
    assert_ne!(link["ino"], target["ino"]);
}

#[test]
fn stat_of_a_dangling_or_looping_symlink() {
    let ws = Ws::new();
    ws.ok(&["fs", "ln", "-s", "/nowhere", "/dangling"]);
    assert_eq!(ws.errno(&["fs", "stat", "/dangling"]), "ENOENT");
    assert_eq!(
        ws.json(&["fs", "stat", "--no-follow", "/dangling"])["kind"],
        "symlink"
    );

    ws.ok(&["fs", "ln", "-s", "/loop2", "/loop1"]);
    ws.ok(&["fs", "ln", "-s", "/loop1", "/loop2"]);
    let (code, message) = ws.err(&["fs", "stat", "/loop1"]);
    assert_eq!(code, "ELOOP");
    assert!(
        message.starts_with("too many levels of symbolic links: /loop1"),
        "{message}"
    );
    assert_eq!(ws.errno(&["fs", "read", "/loop2"]), "ELOOP");
    assert_eq!(
        ws.json(&["fs", "stat", "--no-follow", "/loop1"])["kind"],
        "symlink"
    );
}

#[test]
fn stat_of_a_missing_path_is_enoent() {
    let ws = Ws::new();
    assert_eq!(
        ws.err(&["fs", "stat", "/nope"]),
        ("ENOENT".into(), "no such file or directory: /nope".into())
    );
    assert_eq!(ws.errno(&["fs", "stat", "--no-follow", "/nope"]), "ENOENT");
}

#[test]
fn chmod_accepts_octal_forms() {
    let ws = Ws::new();
    ws.put("/f", "x");
    for (given, shown) in [
        ("755", "755"),
        ("0644", "644"),
        ("0o600", "600"),
        ("0", "0"),
        ("4755", "4755"),
    ] {
        assert_eq!(ws.ok(&["fs", "chmod", given, "/f"]), "", "{given}");
        assert_eq!(ws.stat("/f")["mode"], shown, "{given}");
    }
    let doc = ws.json(&["fs", "chmod", "0755", "/f"]);
    assert_eq!(doc, json!({"path": "/f", "mode": "755"}));
}

#[test]
fn chmod_a_directory() {
    let ws = Ws::new();
    ws.ok(&["fs", "mkdir", "/d"]);
    ws.ok(&["fs", "chmod", "700", "/d"]);
    assert_eq!(ws.stat("/d")["mode"], "700");
}

#[test]
fn chmod_with_an_invalid_mode_is_einval() {
    let ws = Ws::new();
    ws.put("/f", "x");
    for bad in ["9z", "8", "rwx", "77777", "0x1f", ""] {
        let (code, message) = ws.err(&["fs", "chmod", bad, "/f"]);
        assert_eq!(code, "EINVAL", "{bad}");
        assert_eq!(
            message,
            format!("invalid mode {bad:?}: expected octal permission bits such as 644 or 0755")
        );
    }
    assert_eq!(ws.stat("/f")["mode"], "644");
}

#[test]
fn chmod_of_a_missing_path_is_enoent() {
    let ws = Ws::new();
    assert_eq!(
        ws.err(&["fs", "chmod", "644", "/nope"]),
        ("ENOENT".into(), "no such file or directory: /nope".into())
    );
}

// ---------------------------------------------------------------- paths

#[test]
fn relative_paths_are_einval() {
    let ws = Ws::new();
    for args in [
        vec!["fs", "read", "a/b"],
        vec!["fs", "write", "rel.txt"],
        vec!["fs", "ls", "."],
        vec!["fs", "mkdir", "-p", "x/y"],
        vec!["fs", "stat", "./a"],
    ] {
        let (code, message) = ws.err(&args);
        assert_eq!(code, "EINVAL", "{args:?}");
        let path = args.last().expect("a path");
        assert!(message.starts_with("invalid argument"), "{message}");
        assert!(message.contains(path), "{message} does not name {path}");
    }
    assert_eq!(ws.names("/"), Vec::<String>::new());
}

#[test]
fn an_empty_path_is_einval() {
    let ws = Ws::new();
    let (code, message) = ws.err(&["fs", "stat", ""]);
    assert_eq!(code, "EINVAL");
    assert!(
        message.starts_with("invalid argument: empty path"),
        "{message}"
    );
}

#[test]
fn a_component_over_255_bytes_is_enametoolong() {
    let ws = Ws::new();
    let long = format!("/{}", "x".repeat(300));
    let (code, message) = ws.err_with(&["fs", "write", &long], "x");
    assert_eq!(code, "ENAMETOOLONG");
    assert!(message.starts_with("file name too long"), "{message}");
    assert!(
        message.contains("/xxxxxxxx"),
        "{message} does not name the path"
    );
    // 255 bytes is still fine.
    let max = format!("/{}", "y".repeat(255));
    ws.put(&max, "ok");
    assert_eq!(ws.cat(&max), "ok");
    // Multi-byte: 128 two-byte chars is 256 bytes.
    let wide = format!("/{}", "é".repeat(128));
    assert_eq!(ws.errno(&["fs", "mkdir", &wide]), "ENAMETOOLONG");
}

#[test]
fn a_path_over_4096_bytes_is_enametoolong() {
    let ws = Ws::new();
    let long = "/abcdefgh".repeat(460);
    assert!(long.len() > 4096);
    assert_eq!(ws.errno(&["fs", "mkdir", "-p", &long]), "ENAMETOOLONG");
    assert_eq!(ws.names("/"), Vec::<String>::new());
}

#[test]
fn dot_dot_never_climbs_above_root() {
    let ws = Ws::new();
    ws.put("/../../top.txt", "top");
    assert_eq!(ws.names("/"), ["top.txt"]);
    assert_eq!(ws.cat("/a/../../../top.txt"), "top");
    assert_eq!(ws.names("/../.."), ["top.txt"]);
    assert_eq!(
        ws.err(&["fs", "read", "/.."]),
        ("EISDIR".into(), "is a directory: /".into())
    );
}

#[test]
fn dots_and_repeated_slashes_are_normalized() {
    let ws = Ws::new();
    ws.put("//x/./y//z.txt", "z");
    assert_eq!(ws.tree("/"), ["/x", "/x/y", "/x/y/z.txt"]);
    assert_eq!(ws.cat("/x/y/../y/./z.txt"), "z");
    let doc = ws.json(&["fs", "stat", "/x//y/./z.txt"]);
    assert_eq!(doc["name"], "z.txt");
}

#[test]
fn symlink_resolution_allows_40_hops_then_eloop() {
    let ws = Ws::new();
    ws.put("/target", "reached");
    // /l1 -> /target, /lN -> /l(N-1): reading /lN follows N links.
    ws.ok(&["fs", "ln", "-s", "/target", "/l1"]);
    for n in 2..=41 {
        ws.ok(&["fs", "ln", "-s", &format!("/l{}", n - 1), &format!("/l{n}")]);
    }
    assert_eq!(ws.cat("/l40"), "reached");
    let (code, message) = ws.err(&["fs", "read", "/l41"]);
    assert_eq!(code, "ELOOP");
    assert!(message.contains("/l41"), "{message}");
}
