//! `ls`, `find`, `grep` and `delete`.

use crate::support::*;

// ------------------------------------------------------------- ls

#[test]
fn ls_lists_entries_with_metadata() {
    let (ws, tools) = fs_tools();
    put(&ws, "/d/b.txt", "12345");
    ws.mkdir("/d/a", &Default::default()).unwrap();
    ws.symlink("b.txt", "/d/c").unwrap();
    let v = ok(&tools, "ls", json!({"path": "/d"}));
    assert_eq!(names(&v, "entries", "name"), ["a", "b.txt", "c"]);
    assert_eq!(
        names(&v, "entries", "kind"),
        ["directory", "file", "symlink"]
    );
    assert_eq!(v["entries"][1]["size"], 5);
    assert!(v["entries"][1]["mtimeMs"].as_u64().unwrap() > 1_600_000_000_000);
    assert!(v.get("nextOffset").is_none());
}

#[test]
fn ls_pages_default_200_max_1000() {
    let (ws, tools) = fs_tools();
    ws.mkdir("/many", &Default::default()).unwrap();
    for i in 0..1001 {
        put(&ws, &format!("/many/f{i:04}"), "");
    }
    let v = ok(&tools, "ls", json!({"path": "/many"}));
    assert_eq!(v["entries"].as_array().unwrap().len(), 200);
    assert_eq!(v["nextOffset"], 200);
    let v = ok(
        &tools,
        "ls",
        json!({"path": "/many", "offset": 200, "limit": 3}),
    );
    assert_eq!(names(&v, "entries", "name"), ["f0200", "f0201", "f0202"]);
    assert_eq!(v["nextOffset"], 203);
    let v = ok(&tools, "ls", json!({"path": "/many", "limit": 5000}));
    assert_eq!(v["entries"].as_array().unwrap().len(), 1000);
    assert_eq!(v["nextOffset"], 1000);
    let v = ok(&tools, "ls", json!({"path": "/many", "offset": 1000}));
    assert_eq!(names(&v, "entries", "name"), ["f1000"]);
    assert!(v.get("nextOffset").is_none());
}

#[test]
fn ls_errors() {
    let (ws, tools) = fs_tools();
    put(&ws, "/f", "x");
    assert!(err(&tools, "ls", json!({"path": "/f"})).starts_with("ENOTDIR"));
    assert!(err(&tools, "ls", json!({"path": "/nope"})).starts_with("ENOENT"));
    let msg = err(&tools, "ls", json!({"path": "/", "limit": -1}));
    assert!(msg.contains("invalid value"), "{msg}");
}

// ------------------------------------------------------------- find

#[test]
fn find_globs_and_pages() {
    let (ws, tools) = fs_tools();
    for p in [
        "/src/a.rs",
        "/src/b.rs",
        "/src/x/c.rs",
        "/src/x/d.txt",
        "/README.md",
    ] {
        put(&ws, p, "");
    }
    let v = ok(&tools, "find", json!({"pattern": "**/*.rs"}));
    assert_eq!(
        names(&v, "entries", "path"),
        ["/src/a.rs", "/src/b.rs", "/src/x/c.rs"]
    );
    assert_eq!(v["entries"][0]["kind"], "file");
    let v = ok(&tools, "find", json!({"path": "/src", "pattern": "*.rs"}));
    assert_eq!(names(&v, "entries", "path"), ["/src/a.rs", "/src/b.rs"]);
    let v = ok(
        &tools,
        "find",
        json!({"pattern": "**/*.{rs,txt}", "limit": 2}),
    );
    assert_eq!(names(&v, "entries", "path"), ["/src/a.rs", "/src/b.rs"]);
    assert_eq!(v["nextOffset"], 2);
    let v = ok(
        &tools,
        "find",
        json!({"pattern": "**/*.{rs,txt}", "offset": 2, "limit": 2}),
    );
    assert_eq!(
        names(&v, "entries", "path"),
        ["/src/x/c.rs", "/src/x/d.txt"]
    );
    assert!(v.get("nextOffset").is_none(), "{v}");
    let v = ok(&tools, "find", json!({"pattern": "*.py"}));
    assert_eq!(v["entries"], json!([]));
}

#[test]
fn find_errors() {
    let (_ws, tools) = fs_tools();
    let msg = err(&tools, "find", json!({"path": "/"}));
    assert!(msg.contains("missing field `pattern`"), "{msg}");
    assert!(err(&tools, "find", json!({"path": "/nope", "pattern": "*"})).starts_with("ENOENT"));
    let msg = err(&tools, "find", json!({"pattern": "[unclosed"}));
    assert!(msg.contains("glob"), "{msg}");
}

// ------------------------------------------------------------- grep

fn grep_fixture() -> (Arc<Workspace>, Tools) {
    let (ws, tools) = fs_tools();
    put(
        &ws,
        "/src/main.rs",
        "fn main() {\n    let abc = 1;\n    println!(\"ABC\");\n}\n",
    );
    put(&ws, "/src/lib.rs", "pub fn a_c() {}\n// abc\n");
    put(&ws, "/notes.txt", "abc\nxyz\n");
    put(&ws, "/blob.bin", [b'a', b'b', b'c', 0]);
    (ws, tools)
}

#[test]
fn grep_literal_regex_and_case() {
    let (_ws, tools) = grep_fixture();
    let v = ok(&tools, "grep", json!({"query": "abc"}));
    let hits: Vec<(String, u64)> = v["matches"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            (
                m["path"].as_str().unwrap().to_owned(),
                m["line"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        hits,
        [
            ("/notes.txt".to_owned(), 1),
            ("/src/lib.rs".to_owned(), 2),
            ("/src/main.rs".to_owned(), 2)
        ]
    );
    assert_eq!(v["binaryFilesSkipped"], 1);
    assert_eq!(v["matches"][2]["text"], "    let abc = 1;");
    assert!(v["matches"][0].get("before").is_none());

    // Literal by default: `a.c` is not a pattern.
    let v = ok(&tools, "grep", json!({"query": "a.c"}));
    assert_eq!(v["matches"], json!([]));
    let v = ok(
        &tools,
        "grep",
        json!({"query": "a.c", "regex": true, "path": "/src/lib.rs"}),
    );
    assert_eq!(v["matches"].as_array().unwrap().len(), 2);

    let v = ok(
        &tools,
        "grep",
        json!({"query": "abc", "ignoreCase": true, "path": "/src/main.rs"}),
    );
    assert_eq!(v["matches"].as_array().unwrap().len(), 2);
}

#[test]
fn grep_include_context_and_paging() {
    let (_ws, tools) = grep_fixture();
    let v = ok(&tools, "grep", json!({"query": "abc", "include": "*.rs"}));
    assert_eq!(
        names(&v, "matches", "path"),
        ["/src/lib.rs", "/src/main.rs"]
    );

    let v = ok(&tools, "grep", json!({"query": "let", "context": 1}));
    let m = &v["matches"][0];
    assert_eq!(m["before"], json!(["fn main() {"]));
    assert_eq!(m["after"], json!(["    println!(\"ABC\");"]));

    let v = ok(&tools, "grep", json!({"query": "abc", "limit": 2}));
    assert_eq!(names(&v, "matches", "path"), ["/notes.txt", "/src/lib.rs"]);
    assert_eq!(v["nextOffset"], 2);
    let v = ok(
        &tools,
        "grep",
        json!({"query": "abc", "limit": 2, "offset": 2}),
    );
    assert_eq!(names(&v, "matches", "path"), ["/src/main.rs"]);
    assert!(v.get("nextOffset").is_none(), "{v}");
}

#[test]
fn grep_errors() {
    let (_ws, tools) = grep_fixture();
    let msg = err(&tools, "grep", json!({"query": "(", "regex": true}));
    assert!(msg.starts_with("EINVAL"), "{msg}");
    let msg = err(&tools, "grep", json!({"pattern": "abc"}));
    assert!(
        msg.contains("unknown field `pattern`") && msg.contains("query"),
        "{msg}"
    );
    let msg = err(&tools, "grep", json!({"query": "abc", "ignore_case": true}));
    assert!(
        msg.contains("unknown field `ignore_case`") && msg.contains("ignoreCase"),
        "{msg}"
    );
    assert!(err(&tools, "grep", json!({"query": "a", "path": "/nope"})).starts_with("ENOENT"));
}

// ------------------------------------------------------------- delete

#[test]
fn delete_files_dirs_and_missing_paths() {
    let (ws, tools) = fs_tools();
    put(&ws, "/f.txt", "x");
    let v = ok(&tools, "delete", json!({"path": "/f.txt"}));
    assert_eq!(v["deleted"], true);
    assert!(!ws.exists("/f.txt").unwrap());
    // Forced: a missing path succeeds.
    ok(&tools, "delete", json!({"path": "/f.txt"}));
    ok(&tools, "delete", json!({"path": "/never/was"}));
    // An empty directory needs no flag.
    ws.mkdir("/empty", &Default::default()).unwrap();
    ok(&tools, "delete", json!({"path": "/empty"}));
    assert!(!ws.exists("/empty").unwrap());
}

#[test]
fn delete_non_empty_dir_needs_recursive() {
    let (ws, tools) = fs_tools();
    put(&ws, "/d/sub/f.txt", "x");
    let msg = err(&tools, "delete", json!({"path": "/d"}));
    assert!(msg.contains("non-empty directory"), "{msg}");
    assert!(msg.contains("pass recursive: true"), "{msg}");
    assert!(ws.exists("/d/sub/f.txt").unwrap());
    ok(&tools, "delete", json!({"path": "/d", "recursive": true}));
    assert!(!ws.exists("/d").unwrap());
    let msg = err(&tools, "delete", json!({"path": "/d", "recursive": "yes"}));
    assert!(msg.contains("invalid type"), "{msg}");
}
