//! The output contract: `--json` gives exactly one JSON document on stdout
//! for every command; errors are `computer: CODE: message` on stderr (or
//! `{"error":{...}}` on stdout with `--json`) with a non-zero exit; bad
//! usage is clap's message with exit 2.

use computer_tests::{Ws, describe, json, one_json, parse_error_json, parse_error_line, text};

#[test]
fn every_command_prints_one_json_document() {
    let ws = Ws::new();
    let host = ws.host("host");
    std::fs::create_dir_all(host.join("d")).expect("mkdir");
    std::fs::write(host.join("d/h.txt"), "host\n").expect("write");
    let host = host.to_str().expect("UTF-8");
    let out = ws.host("out");
    let out = out.to_str().expect("UTF-8");

    // Each step's document, minus fields that vary from run to run.
    let steps: &[(&[&str], &str, serde_json::Value)] = &[
        (
            &["init"],
            "",
            json!({"workspace": ws.db().display().to_string(), "rev": 0}),
        ),
        (
            &["fs", "mkdir", "-p", "/w/sub"],
            "",
            json!({"path": "/w/sub"}),
        ),
        (
            &["fs", "write", "/w/f.txt"],
            "one\ntwo\n",
            json!({"path": "/w/f.txt", "bytes_written": 8}),
        ),
        (
            &["fs", "append", "/w/f.txt"],
            "three\n",
            json!({"path": "/w/f.txt", "bytes_appended": 6}),
        ),
        (
            &["fs", "read", "/w/f.txt"],
            "",
            json!({"path": "/w/f.txt", "size": 14, "content": "one\ntwo\nthree\n"}),
        ),
        (
            &["fs", "truncate", "/w/f.txt", "8"],
            "",
            json!({"path": "/w/f.txt", "size": 8}),
        ),
        (
            &["fs", "chmod", "600", "/w/f.txt"],
            "",
            json!({"path": "/w/f.txt", "mode": "600"}),
        ),
        (
            &["fs", "ln", "-s", "f.txt", "/w/l"],
            "",
            json!({"path": "/w/l", "target": "f.txt"}),
        ),
        (
            &["fs", "readlink", "/w/l"],
            "",
            json!({"path": "/w/l", "target": "f.txt"}),
        ),
        (
            &["fs", "cp", "/w/f.txt", "/w/sub"],
            "",
            json!({"from": "/w/f.txt", "to": "/w/sub/f.txt"}),
        ),
        (
            &["fs", "mv", "/w/sub/f.txt", "/w/g.txt"],
            "",
            json!({"from": "/w/sub/f.txt", "to": "/w/g.txt"}),
        ),
        (
            &["fs", "find", "/w", "*.txt"],
            "",
            json!({"entries": [{"path": "/w/f.txt", "kind": "file"}, {"path": "/w/g.txt", "kind": "file"}], "next_offset": null}),
        ),
        (
            &["fs", "grep", "two", "/w/g.txt"],
            "",
            json!({"matches": [{"path": "/w/g.txt", "line_number": 2, "line": "two", "before": [], "after": []}], "next_offset": null, "binary_files_skipped": 0}),
        ),
        (
            &["fs", "edit", "/w/g.txt", "--old", "two", "--new", "2"],
            "",
            json!({"path": "/w/g.txt", "applied": 1, "fuzzy": 0, "diff": "--- /w/g.txt\n+++ /w/g.txt\n@@ -1,2 +1,2 @@\n one\n-two\n+2\n"}),
        ),
        (
            &["fs", "readonly", "/w/sub"],
            "",
            json!({"readonly": ["/w/sub"]}),
        ),
        (
            &["fs", "readonly", "--off", "/w/sub"],
            "",
            json!({"readonly": []}),
        ),
        (
            &["fs", "rm", "-r", "/w/sub"],
            "",
            json!({"removed": ["/w/sub"]}),
        ),
        (
            &["import", host, "/imp"],
            "",
            json!({"files": 1, "dirs": 1, "symlinks": 0, "bytes": 5, "skipped": []}),
        ),
        (
            &["export", "/imp", out],
            "",
            json!({"files": 1, "dirs": 1, "symlinks": 0, "bytes": 5, "skipped": []}),
        ),
    ];
    for (args, stdin, want) in steps {
        assert_eq!(
            &ws.json_with(args, stdin),
            want,
            "computer {}",
            args.join(" ")
        );
    }

    // The rest carry mtimes and inode numbers; check their shape.
    let st = ws.json(&["fs", "stat", "/w/g.txt"]);
    assert_eq!(
        (&st["path"], &st["kind"], &st["mode"], &st["size"]),
        (&json!("/w/g.txt"), &json!("file"), &json!("600"), &json!(6))
    );
    let st = ws.json(&["fs", "stat", "--no-follow", "/w/l"]);
    assert_eq!(st["kind"], "symlink");
    let ls = ws.json(&["fs", "ls", "-l", "/w"]);
    assert_eq!(ls["path"], "/w");
    assert_eq!(ls["entries"].as_array().map(Vec::len), Some(3));
    let info = ws.json(&["info"]);
    assert_eq!(info["readonly"], json!([]));
    assert!(info["rev"].as_u64().is_some_and(|r| r > 10), "{info}");
}

#[test]
fn json_flag_is_accepted_before_or_after_the_subcommand() {
    let ws = Ws::new();
    ws.put("/f", "x");
    let want = json!({"path": "/f", "size": 1, "content": "x"});
    for args in [
        vec!["--json", "fs", "read", "/f"],
        vec!["fs", "--json", "read", "/f"],
        vec!["fs", "read", "--json", "/f"],
        vec!["fs", "read", "/f", "--json"],
    ] {
        let out = ws.run(&args, "");
        assert!(
            out.status.success() && out.stderr.is_empty(),
            "{}",
            describe(&args, &out)
        );
        assert_eq!(one_json(&out.stdout), want, "{args:?}");
    }
}

#[test]
fn an_error_prints_code_and_message_on_stderr() {
    let ws = Ws::new();
    ws.ok(&["fs", "mkdir", "/a"]);
    let out = ws.run(&["fs", "read", "/a/b"], "");
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(text(&out.stdout), "");
    assert_eq!(
        text(&out.stderr),
        "computer: ENOENT: no such file or directory: /a/b\n"
    );
}

#[test]
fn an_error_with_json_prints_an_error_document_on_stdout() {
    let ws = Ws::new();
    ws.ok(&["fs", "mkdir", "/a"]);
    let out = ws.run(&["--json", "fs", "read", "/a/b"], "");
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(text(&out.stderr), "");
    assert_eq!(
        one_json(&out.stdout),
        json!({"error": {"code": "ENOENT", "message": "no such file or directory: /a/b"}})
    );
}

#[test]
fn errors_of_every_kind_follow_the_contract() {
    let ws = Ws::new();
    ws.put("/file", "x");
    ws.ok(&["fs", "mkdir", "/dir"]);
    ws.put("/full/child", "");
    ws.ok(&["fs", "ln", "-s", "/loop", "/loop"]);
    ws.ok(&["fs", "mkdir", "/ro"]);
    ws.ok(&["fs", "readonly", "/ro"]);
    let long = format!("/{}", "n".repeat(256));
    let cases: &[(&[&str], &str)] = &[
        (&["fs", "read", "/missing"], "ENOENT"),
        (&["fs", "mkdir", "/dir"], "EEXIST"),
        (&["fs", "ls", "/file/"], "ENOTDIR"),
        (&["fs", "read", "/dir"], "EISDIR"),
        (&["fs", "rm", "/full"], "ENOTEMPTY"),
        (&["fs", "stat", "relative"], "EINVAL"),
        (&["fs", "stat", "/loop"], "ELOOP"),
        (&["fs", "mkdir", "/ro/x"], "EROFS"),
        (&["fs", "rm", "-rf", "/"], "EPERM"),
        (&["fs", "stat", &long], "ENAMETOOLONG"),
    ];
    for (args, code) in cases {
        // `err` checks both the plain and the --json form.
        let (got, message) = ws.err(args);
        assert_eq!(got, *code, "{args:?}");
        assert!(!message.is_empty());
    }
}

#[test]
fn usage_errors_exit_2_with_clap_messages() {
    let ws = Ws::without_file();
    let stderr = ws.usage_err(&["frobnicate"]);
    assert!(
        stderr.starts_with("error: unrecognized subcommand 'frobnicate'"),
        "{stderr}"
    );
    let stderr = ws.usage_err(&["fs", "frobnicate"]);
    assert!(
        stderr.starts_with("error: unrecognized subcommand 'frobnicate'"),
        "{stderr}"
    );
    let stderr = ws.usage_err(&["fs", "read"]);
    assert!(
        stderr.starts_with("error: the following required arguments were not provided"),
        "{stderr}"
    );
    assert!(stderr.contains("<PATH>"), "{stderr}");
    let stderr = ws.usage_err(&["fs", "mv", "/a"]);
    assert!(stderr.contains("<TO>"), "{stderr}");
    let stderr = ws.usage_err(&["fs", "ls", "/", "--limit", "abc"]);
    assert!(
        stderr.starts_with("error: invalid value 'abc' for '--limit <LIMIT>'"),
        "{stderr}"
    );
    let stderr = ws.usage_err(&["fs", "truncate", "/f", "-1"]);
    assert!(
        stderr.starts_with("error: unexpected argument '-1'"),
        "{stderr}"
    );
    let stderr = ws.usage_err(&["fs", "read", "/f", "--bogus"]);
    assert!(
        stderr.starts_with("error: unexpected argument '--bogus'"),
        "{stderr}"
    );
    // --json does not change how clap reports usage errors.
    ws.usage_err(&["--json", "frobnicate"]);
    ws.usage_err(&["--json", "fs", "read"]);
    // Nothing was created by a rejected command line.
    assert!(!ws.db().exists());
}

#[test]
fn no_subcommand_prints_help_and_exits_2() {
    let ws = Ws::new();
    let out = ws.run(&[], "");
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    assert!(stderr.contains("Usage: computer"), "{stderr}");
    let out = ws.run(&["fs"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("Usage: computer fs"));
}

#[test]
fn help_and_version_succeed() {
    let ws = Ws::new();
    let out = ws.run(&["--help"], "");
    assert!(out.status.success());
    let help = text(&out.stdout);
    for cmd in ["init", "fs", "import", "export"] {
        assert!(
            help.contains(&format!("  {cmd} ")),
            "{cmd} missing from help:\n{help}"
        );
    }
    let out = ws.run(&["fs", "--help"], "");
    let help = text(&out.stdout);
    for cmd in [
        "read", "write", "append", "truncate", "ls", "stat", "mkdir", "rm", "mv", "cp", "ln",
        "readlink", "chmod", "find", "grep", "edit", "readonly",
    ] {
        assert!(
            help.contains(&format!("  {cmd} ")),
            "{cmd} missing from help:\n{help}"
        );
    }
    let out = ws.run(&["--version"], "");
    assert!(out.status.success());
    assert_eq!(
        text(&out.stdout),
        format!("computer {}\n", env!("CARGO_PKG_VERSION"))
    );
}

#[test]
fn successful_mutations_print_nothing_without_json() {
    let ws = Ws::new();
    let quiet: &[(&[&str], &str)] = &[
        (&["fs", "mkdir", "/d"], ""),
        (&["fs", "write", "/d/f"], "abc"),
        (&["fs", "append", "/d/f"], "def"),
        (&["fs", "truncate", "/d/f", "4"], ""),
        (&["fs", "chmod", "640", "/d/f"], ""),
        (&["fs", "ln", "-s", "f", "/d/l"], ""),
        (&["fs", "cp", "/d/f", "/d/g"], ""),
        (&["fs", "mv", "/d/g", "/d/h"], ""),
        (&["fs", "rm", "/d/h"], ""),
    ];
    for (args, stdin) in quiet {
        assert_eq!(ws.ok_with(args, stdin), "", "{args:?}");
    }
    assert_eq!(ws.cat("/d/f"), "abcd");
}

#[test]
fn error_parsers_reject_malformed_output() {
    // The helpers themselves: a malformed error line must not pass.
    let (code, message) = parse_error_line(b"computer: EEXIST: file exists: /x\n");
    assert_eq!(
        (code.as_str(), message.as_str()),
        ("EEXIST", "file exists: /x")
    );
    let doc = json!({"error": {"code": "EEXIST", "message": "file exists: /x"}});
    assert_eq!(parse_error_json(&doc), (code, message));
    assert!(std::panic::catch_unwind(|| parse_error_line(b"error: nope\n")).is_err());
    assert!(std::panic::catch_unwind(|| one_json(b"{} {}")).is_err());
}

/// `computer audit | head -1`, `computer fs read BIG | head -c 16`: the
/// reader leaves, and the CLI ends with the status of a process its pipe
/// reader left (141), saying nothing and with no panic.
#[test]
fn a_reader_that_leaves_early_gets_no_panic() {
    use std::io::Read;
    let ws = Ws::new();
    // More than a pipe holds, so that the CLI is still writing when the
    // reader goes.
    let big = "0123456789abcdef\n".repeat(64 << 10);
    ws.run(&["fs", "write", "/big.txt"], &big);
    for i in 0..3 {
        ws.run(&["fs", "write", &format!("/{i}.txt")], &big);
    }
    for args in [
        &["fs", "read", "/big.txt"][..],
        &["fs", "grep", "0123", "/"],
    ] {
        let mut child = ws
            .command(args)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("spawn computer");
        let mut stdout = child.stdout.take().expect("stdout");
        let mut first = [0u8; 16];
        stdout.read_exact(&mut first).expect("some output");
        drop(stdout);
        let out = child.wait_with_output().expect("wait");
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(141), "{args:?}: stderr: {stderr}");
        assert!(stderr.is_empty(), "{args:?}: stderr: {stderr}");
    }
}
