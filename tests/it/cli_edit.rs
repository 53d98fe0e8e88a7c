//! `fs edit`: unique search/replace, batches, diffs, and what is preserved.

use computer_tests::{Ws, json};

const MAIN_RS: &str = "fn main() {\n    println!(\"hi\");\n}\n";

fn with_main() -> Ws {
    let ws = Ws::new();
    ws.ok_with(&["fs", "write", "--mode", "755", "/main.rs"], MAIN_RS);
    ws
}

#[test]
fn edit_replaces_text_and_prints_a_unified_diff() {
    let ws = with_main();
    let out = ws.ok(&[
        "fs",
        "edit",
        "/main.rs",
        "--old",
        "\"hi\"",
        "--new",
        "\"hello\"",
    ]);
    assert_eq!(
        out,
        "--- /main.rs\n+++ /main.rs\n@@ -1,3 +1,3 @@\n fn main() {\n-    println!(\"hi\");\n+    println!(\"hello\");\n }\n"
    );
    assert_eq!(
        ws.cat("/main.rs"),
        "fn main() {\n    println!(\"hello\");\n}\n"
    );
}

#[test]
fn edit_keeps_the_mode() {
    let ws = with_main();
    ws.ok(&["fs", "edit", "/main.rs", "--old", "main", "--new", "start"]);
    assert_eq!(ws.stat("/main.rs")["mode"], "755");
}

#[test]
fn edit_json_document() {
    let ws = with_main();
    let doc = ws.json(&["fs", "edit", "/main.rs", "--old", "}", "--new", "} // end"]);
    assert_eq!(
        doc,
        json!({
            "path": "/main.rs",
            "applied": 1,
            "fuzzy": 0,
            "diff": "--- /main.rs\n+++ /main.rs\n@@ -1,3 +1,3 @@\n fn main() {\n     println!(\"hi\");\n-}\n+} // end\n",
        })
    );
}

#[test]
fn edit_can_insert_and_delete_lines() {
    let ws = with_main();
    ws.ok(&[
        "fs",
        "edit",
        "/main.rs",
        "--old",
        "{\n",
        "--new",
        "{\n    let x = 1;\n",
    ]);
    ws.ok(&[
        "fs",
        "edit",
        "/main.rs",
        "--old",
        "    println!(\"hi\");\n",
        "--new",
        "",
    ]);
    assert_eq!(ws.cat("/main.rs"), "fn main() {\n    let x = 1;\n}\n");
}

#[test]
fn edits_json_with_old_and_new() {
    let ws = with_main();
    let doc = ws.json(&[
        "fs",
        "edit",
        "/main.rs",
        "--edits",
        r#"[{"old": "main", "new": "start"}, {"old": "\"hi\"", "new": "\"bye\""}]"#,
    ]);
    assert_eq!(doc["applied"], 2);
    assert_eq!(
        ws.cat("/main.rs"),
        "fn start() {\n    println!(\"bye\");\n}\n"
    );
}

#[test]
fn edits_json_with_old_text_and_new_text() {
    let ws = with_main();
    let out = ws.ok(&[
        "fs",
        "edit",
        "/main.rs",
        "--edits",
        r#"[{"oldText": "fn main", "newText": "pub fn main"}, {"old": "hi", "newText": "yo"}]"#,
    ]);
    assert_eq!(
        out,
        "--- /main.rs\n+++ /main.rs\n@@ -1,3 +1,3 @@\n-fn main() {\n-    println!(\"hi\");\n+pub fn main() {\n+    println!(\"yo\");\n }\n"
    );
    assert_eq!(
        ws.cat("/main.rs"),
        "pub fn main() {\n    println!(\"yo\");\n}\n"
    );
}

#[test]
fn an_ambiguous_edit_says_how_many_occurrences_and_changes_nothing() {
    let ws = Ws::new();
    ws.put("/twice.txt", "x = 1;\nx = 1;\ny = 2;\n");
    let (code, message) = ws.err(&[
        "fs",
        "edit",
        "/twice.txt",
        "--old",
        "x = 1;",
        "--new",
        "x = 3;",
    ]);
    assert_eq!(code, "EINVAL");
    assert!(message.contains("/twice.txt"), "{message}");
    assert!(message.contains("found 2 occurrences"), "{message}");
    assert_eq!(ws.cat("/twice.txt"), "x = 1;\nx = 1;\ny = 2;\n");
}

#[test]
fn a_batch_is_atomic() {
    let ws = with_main();
    let (code, message) = ws.err(&[
        "fs",
        "edit",
        "/main.rs",
        "--edits",
        r#"[{"old": "main", "new": "start"}, {"old": "not in the file", "new": "x"}]"#,
    ]);
    assert_eq!(code, "EINVAL");
    assert!(message.contains("edit 2"), "{message}");
    assert!(message.contains("not found"), "{message}");
    assert_eq!(ws.cat("/main.rs"), MAIN_RS);
}

#[test]
fn each_bad_edit_has_its_own_error() {
    let ws = with_main();
    let cases: &[(&[&str], &str)] = &[
        (&["--old", "absent", "--new", "x"], "oldText not found"),
        (&["--old", "", "--new", "x"], "oldText is empty"),
        (&["--old", "main", "--new", "main"], "identical"),
        (&["--edits", "[]"], "no edits given"),
        (
            &[
                "--edits",
                r#"[{"old": "fn main", "new": "a"}, {"old": "main()", "new": "b"}]"#,
            ],
            "overlapping",
        ),
    ];
    for (extra, needle) in cases {
        let mut args = vec!["fs", "edit", "/main.rs"];
        args.extend_from_slice(extra);
        let (code, message) = ws.err(&args);
        assert_eq!(code, "EINVAL", "{args:?}");
        assert!(message.contains(needle), "{args:?}: {message}");
        assert!(message.contains("/main.rs"), "{args:?}: {message}");
    }
    assert_eq!(ws.cat("/main.rs"), MAIN_RS);
}

#[test]
fn invalid_edits_json_is_einval() {
    let ws = with_main();
    for bad in [
        "not json",
        r#"{"old": "a", "new": "b"}"#,
        r#"[{"old": "main"}]"#,
        r#"[{"new": "x"}]"#,
    ] {
        let (code, message) = ws.err(&["fs", "edit", "/main.rs", "--edits", bad]);
        assert_eq!(code, "EINVAL", "{bad}");
        assert!(
            message.starts_with("--edits is not valid: "),
            "{bad}: {message}"
        );
    }
    assert_eq!(ws.cat("/main.rs"), MAIN_RS);
}

#[test]
fn crlf_line_ends_are_preserved() {
    let ws = Ws::new();
    ws.put("/dos.txt", "one\r\ntwo\r\nthree\r\n");
    let out = ws.ok(&[
        "fs",
        "edit",
        "/dos.txt",
        "--old",
        "two",
        "--new",
        "2\nand a half",
    ]);
    // As in diff(1), the lines keep their CR.
    assert_eq!(
        out,
        "--- /dos.txt\n+++ /dos.txt\n@@ -1,3 +1,4 @@\n one\r\n-two\r\n+2\r\n+and a half\r\n three\r\n"
    );
    assert_eq!(ws.read("/dos.txt"), b"one\r\n2\r\nand a half\r\nthree\r\n");
    // An old text written with \n matches the CRLF file.
    ws.ok(&["fs", "edit", "/dos.txt", "--old", "one\n2", "--new", "1\n2"]);
    assert_eq!(ws.read("/dos.txt"), b"1\r\n2\r\nand a half\r\nthree\r\n");
}

#[test]
fn a_byte_order_mark_is_preserved() {
    let ws = Ws::new();
    ws.put("/bom.txt", "\u{feff}hello\n");
    ws.ok(&["fs", "edit", "/bom.txt", "--old", "hello", "--new", "bye"]);
    assert_eq!(ws.read("/bom.txt"), "\u{feff}bye\n".as_bytes());
}

#[test]
fn whitespace_and_quote_insensitive_fallback() {
    let ws = Ws::new();
    ws.put("/f.rs", "let  x =\t1;\nlet s = \u{201c}q\u{201d};\n");
    let doc = ws.json(&[
        "fs",
        "edit",
        "/f.rs",
        "--old",
        "let x = 1;",
        "--new",
        "let x = 2;",
    ]);
    assert_eq!((&doc["applied"], &doc["fuzzy"]), (&json!(1), &json!(1)));
    ws.ok(&["fs", "edit", "/f.rs", "--old", "\"q\"", "--new", "\"r\""]);
    // Only the matched text changed.
    assert_eq!(ws.cat("/f.rs"), "let x = 2;\nlet s = \"r\";\n");
}

#[test]
fn edit_errors_on_the_path() {
    let ws = Ws::new();
    ws.ok(&["fs", "mkdir", "/dir"]);
    ws.put("/bin", b"\xff\xfe\x00");
    assert_eq!(
        ws.err(&["fs", "edit", "/nope", "--old", "a", "--new", "b"]),
        ("ENOENT".into(), "no such file or directory: /nope".into())
    );
    assert_eq!(
        ws.err(&["fs", "edit", "/dir", "--old", "a", "--new", "b"]),
        ("EISDIR".into(), "is a directory: /dir".into())
    );
    let (code, message) = ws.err(&["fs", "edit", "/bin", "--old", "a", "--new", "b"]);
    assert_eq!(code, "EINVAL");
    assert!(message.contains("not UTF-8"), "{message}");
}

#[test]
fn edit_argument_combinations() {
    let ws = with_main();
    let (code, message) = ws.err(&["fs", "edit", "/main.rs"]);
    assert_eq!(code, "EINVAL");
    assert_eq!(
        message,
        "give either --old TEXT --new TEXT, or --edits JSON"
    );
    ws.usage_err(&["fs", "edit", "/main.rs", "--old", "main"]);
    ws.usage_err(&["fs", "edit", "/main.rs", "--new", "main"]);
    ws.usage_err(&[
        "fs", "edit", "/main.rs", "--old", "a", "--new", "b", "--edits", "[]",
    ]);
    assert_eq!(ws.cat("/main.rs"), MAIN_RS);
}
