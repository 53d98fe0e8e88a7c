//! The tree: `fs ls`, `mkdir`, `rm`, `mv`, `cp`, `ln -s`, `readlink` and
//! `readonly`.

use computer_tests::{Ws, entry_strings, json};

mod links_readonly;
mod rm_mv_cp;

/// A workspace holding `/src/{a.txt, sub/b.txt}`.
fn with_src() -> Ws {
    let ws = Ws::new();
    ws.put("/src/a.txt", "a\n");
    ws.put("/src/sub/b.txt", "b\n");
    ws
}

// ---------------------------------------------------------------- ls

#[test]
fn ls_lists_names_sorted_bytewise() {
    let ws = Ws::new();
    for name in ["b", "a", "C", "_x", "a1", "Z.txt"] {
        ws.put(&format!("/d/{name}"), "");
    }
    ws.ok(&["fs", "mkdir", "/d/dir"]);
    assert_eq!(ws.ok(&["fs", "ls", "/d"]), "C\nZ.txt\n_x\na\na1\nb\ndir\n");
    assert_eq!(ws.names("/d"), ["C", "Z.txt", "_x", "a", "a1", "b", "dir"]);
}

#[test]
fn ls_defaults_to_root() {
    let ws = Ws::new();
    ws.put("/x", "");
    ws.ok(&["fs", "mkdir", "/y"]);
    assert_eq!(ws.ok(&["fs", "ls"]), "x\ny\n");
}

#[test]
fn ls_of_an_empty_directory_prints_nothing() {
    let ws = Ws::new();
    ws.ok(&["fs", "mkdir", "/empty"]);
    assert_eq!(ws.ok(&["fs", "ls", "/empty"]), "");
    assert_eq!(
        ws.json(&["fs", "ls", "/empty"]),
        json!({"path": "/empty", "entries": []})
    );
}

#[test]
fn ls_long_format() {
    let ws = Ws::new();
    ws.ok_with(
        &["fs", "write", "-p", "--mode", "600", "/d/secret"],
        "12345",
    );
    ws.ok_with(&["fs", "write", "--mode", "755", "/d/run.sh"], "#!");
    ws.ok(&["fs", "mkdir", "/d/sub"]);
    ws.ok(&["fs", "ln", "-s", "/d/secret", "/d/link"]);
    let mtimes = ws.json(&["fs", "ls", "/d"])["entries"]
        .as_array()
        .expect("entries")
        .iter()
        .map(|e| e["mtime"].as_str().expect("mtime").to_owned())
        .collect::<Vec<_>>();
    let expect = [
        ("lrwxrwxrwx", 9, "link -> /d/secret"),
        ("-rwxr-xr-x", 2, "run.sh"),
        ("-rw-------", 5, "secret"),
        ("drwxr-xr-x", 0, "sub"),
    ];
    let want: String = expect
        .iter()
        .zip(&mtimes)
        .map(|((mode, size, name), mtime)| format!("{mode} {size:>10} {mtime} {name}\n"))
        .collect();
    assert_eq!(ws.ok(&["fs", "ls", "-l", "/d"]), want);
}

#[test]
fn ls_json_entries() {
    let ws = Ws::new();
    ws.put("/d/f.txt", "hello");
    ws.ok(&["fs", "mkdir", "/d/sub"]);
    ws.ok(&["fs", "ln", "-s", "f.txt", "/d/link"]);
    let doc = ws.json(&["fs", "ls", "/d"]);
    assert_eq!(doc["path"], "/d");
    let entries = doc["entries"].as_array().expect("entries");
    let summary: Vec<_> = entries
        .iter()
        .map(|e| json!([e["name"], e["kind"], e["mode"], e["size"], e.get("target")]))
        .collect();
    assert_eq!(
        summary,
        [
            json!(["f.txt", "file", "644", 5, null]),
            json!(["link", "symlink", "777", 5, "f.txt"]),
            json!(["sub", "directory", "755", 0, null]),
        ]
    );
    for e in entries {
        let path = format!("/d/{}", e["name"].as_str().expect("name"));
        let st = ws.json(&["fs", "stat", "--no-follow", &path]);
        assert_eq!(e["ino"], st["ino"], "{path}");
        assert!(
            e["mtime_ns"].as_u64().is_some() && e["mtime"].is_string(),
            "{e}"
        );
    }
}

#[test]
fn ls_shows_symlink_targets() {
    let ws = Ws::new();
    ws.ok(&["fs", "mkdir", "/d"]);
    ws.ok(&["fs", "ln", "-s", "../elsewhere", "/d/rel"]);
    ws.ok(&["fs", "ln", "-s", "/abs/target", "/d/abs"]);
    assert_eq!(
        ws.ok(&["fs", "ls", "/d"]),
        "abs -> /abs/target\nrel -> ../elsewhere\n"
    );
}

#[test]
fn ls_shows_the_target_of_a_lone_symlink_named_like_its_directory() {
    let ws = Ws::new();
    ws.ok(&["fs", "mkdir", "/d"]);
    ws.ok(&["fs", "ln", "-s", "/target", "/d/d"]);
    assert_eq!(ws.ok(&["fs", "ls", "/d"]), "d -> /target\n");
    assert_eq!(
        ws.json(&["fs", "ls", "/d"])["entries"][0]["target"],
        "/target"
    );
}

#[test]
fn ls_pages_with_offset_and_limit() {
    let ws = Ws::new();
    for name in ["e", "d", "c", "b", "a"] {
        ws.put(&format!("/p/{name}"), "");
    }
    let page = |extra: &[&str]| {
        let mut args = vec!["fs", "ls", "/p"];
        args.extend_from_slice(extra);
        ws.ok(&args)
    };
    assert_eq!(page(&["--limit", "2"]), "a\nb\n");
    assert_eq!(page(&["--offset", "2", "--limit", "2"]), "c\nd\n");
    assert_eq!(page(&["--offset", "4", "--limit", "2"]), "e\n");
    assert_eq!(page(&["--offset", "4"]), "e\n");
    assert_eq!(page(&["--offset", "5"]), "");
    assert_eq!(page(&["--limit", "0"]), "");
    let doc = ws.json(&["fs", "ls", "/p", "--offset", "1", "--limit", "3"]);
    assert_eq!(entry_strings(&doc, "entries", "name"), ["b", "c", "d"]);
}

#[test]
fn ls_of_a_file_lists_the_file() {
    let ws = Ws::new();
    ws.put("/d/f.txt", "abc");
    // As ls(1) does, a file operand is printed as given.
    assert_eq!(ws.ok(&["fs", "ls", "/d/f.txt"]), "/d/f.txt\n");
    let doc = ws.json(&["fs", "ls", "/d/f.txt"]);
    assert_eq!(doc["path"], "/d/f.txt");
    assert_eq!(entry_strings(&doc, "entries", "name"), ["f.txt"]);
    assert_eq!(doc["entries"][0]["size"], 3);
}

#[test]
fn ls_through_a_symlink_to_a_directory_lists_the_target() {
    let ws = with_src();
    ws.ok(&["fs", "ln", "-s", "/src", "/link"]);
    assert_eq!(ws.ok(&["fs", "ls", "/link"]), "a.txt\nsub\n");
}

#[test]
fn ls_errors() {
    let ws = Ws::new();
    ws.put("/f", "");
    assert_eq!(
        ws.err(&["fs", "ls", "/missing"]),
        (
            "ENOENT".into(),
            "no such file or directory: /missing".into()
        )
    );
    assert_eq!(ws.errno(&["fs", "ls", "/f/"]), "ENOTDIR");
}

// ---------------------------------------------------------------- mkdir

#[test]
fn mkdir_creates_a_directory() {
    let ws = Ws::new();
    assert_eq!(ws.ok(&["fs", "mkdir", "/d"]), "");
    assert_eq!(ws.stat("/d")["kind"], "directory");
    assert_eq!(ws.stat("/d")["mode"], "755");
    assert_eq!(ws.json(&["fs", "mkdir", "/e"]), json!({"path": "/e"}));
}

#[test]
fn mkdir_mode() {
    let ws = Ws::new();
    ws.ok(&["fs", "mkdir", "--mode", "700", "/private"]);
    assert_eq!(ws.stat("/private")["mode"], "700");
    assert_eq!(
        ws.errno(&["fs", "mkdir", "--mode", "rwx", "/bad"]),
        "EINVAL"
    );
    assert!(!ws.exists("/bad"));
}

#[test]
fn mkdir_on_an_existing_path_is_eexist() {
    let ws = Ws::new();
    ws.ok(&["fs", "mkdir", "/d"]);
    ws.put("/f", "");
    assert_eq!(
        ws.err(&["fs", "mkdir", "/d"]),
        ("EEXIST".into(), "file exists: /d".into())
    );
    assert_eq!(
        ws.err(&["fs", "mkdir", "/f"]),
        ("EEXIST".into(), "file exists: /f".into())
    );
    assert_eq!(
        ws.err(&["fs", "mkdir", "/"]),
        ("EEXIST".into(), "file exists: /".into())
    );
}

#[test]
fn mkdir_parents_creates_the_chain_and_is_idempotent() {
    let ws = Ws::new();
    ws.ok(&["fs", "mkdir", "-p", "/a/b/c"]);
    assert_eq!(ws.tree("/"), ["/a", "/a/b", "/a/b/c"]);
    let ino = ws.stat("/a/b")["ino"].clone();
    ws.put("/a/b/keep", "k");
    ws.ok(&["fs", "mkdir", "-p", "/a/b/c"]);
    ws.ok(&["fs", "mkdir", "--parents", "/a/b"]);
    ws.ok(&["fs", "mkdir", "-p", "/"]);
    assert_eq!(ws.stat("/a/b")["ino"], ino);
    assert_eq!(ws.cat("/a/b/keep"), "k");
    assert_eq!(ws.tree("/"), ["/a", "/a/b", "/a/b/c", "/a/b/keep"]);
}

#[test]
fn mkdir_parents_over_a_file_is_eexist() {
    let ws = Ws::new();
    ws.put("/f", "");
    assert_eq!(
        ws.err(&["fs", "mkdir", "-p", "/f"]),
        ("EEXIST".into(), "file exists: /f".into())
    );
    assert_eq!(ws.errno(&["fs", "mkdir", "-p", "/f/sub"]), "ENOTDIR");
}

#[test]
fn mkdir_without_parents_needs_the_parent() {
    let ws = Ws::new();
    ws.put("/f", "");
    let (code, message) = ws.err(&["fs", "mkdir", "/x/y"]);
    assert_eq!(code, "ENOENT");
    assert!(
        message.starts_with("no such file or directory: /x/y"),
        "{message}"
    );
    assert_eq!(ws.errno(&["fs", "mkdir", "/f/y"]), "ENOTDIR");
    assert_eq!(ws.names("/"), ["f"]);
}
