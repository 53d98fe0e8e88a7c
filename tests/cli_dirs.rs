//! The tree: `fs ls`, `mkdir`, `rm`, `mv`, `cp`, `ln -s`, `readlink` and
//! `readonly`.

use computer_tests::{Ws, entry_strings, json};

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

// ---------------------------------------------------------------- rm

#[test]
fn rm_removes_a_file_and_an_empty_directory() {
    let ws = with_src();
    assert_eq!(ws.ok(&["fs", "rm", "/src/a.txt"]), "");
    ws.ok(&["fs", "mkdir", "/empty"]);
    ws.ok(&["fs", "rm", "/empty"]);
    assert_eq!(ws.tree("/"), ["/src", "/src/sub", "/src/sub/b.txt"]);
}

#[test]
fn rm_of_a_non_empty_directory_needs_recursive() {
    let ws = with_src();
    let (code, message) = ws.err(&["fs", "rm", "/src"]);
    assert_eq!(code, "ENOTEMPTY");
    assert!(
        message.starts_with("directory not empty: /src"),
        "{message}"
    );
    assert_eq!(ws.tree("/").len(), 4);
    ws.ok(&["fs", "rm", "-r", "/src"]);
    assert_eq!(ws.names("/"), Vec::<String>::new());
}

#[test]
fn rm_missing_is_enoent_unless_forced() {
    let ws = Ws::new();
    assert_eq!(
        ws.err(&["fs", "rm", "/nope"]),
        ("ENOENT".into(), "no such file or directory: /nope".into())
    );
    assert_eq!(ws.ok(&["fs", "rm", "-f", "/nope"]), "");
    ws.ok(&["fs", "rm", "-rf", "/nope/deeper"]);
}

#[test]
fn rm_of_root_is_eperm() {
    let ws = with_src();
    for flags in [
        vec![],
        vec!["-r"],
        vec!["-rf"],
        vec!["--recursive", "--force"],
    ] {
        let mut args = vec!["fs", "rm"];
        args.extend(flags);
        args.push("/");
        let (code, message) = ws.err(&args);
        assert_eq!(code, "EPERM", "{args:?}");
        assert!(message.contains('/'), "{message}");
    }
    assert_eq!(ws.errno(&["fs", "rm", "-r", "/src/.."]), "EPERM");
    assert_eq!(ws.tree("/").len(), 4);
}

#[test]
fn rm_of_a_symlink_removes_the_link_not_the_target() {
    let ws = with_src();
    ws.ok(&["fs", "ln", "-s", "/src/a.txt", "/file-link"]);
    ws.ok(&["fs", "ln", "-s", "/src", "/dir-link"]);
    ws.ok(&["fs", "rm", "/file-link"]);
    ws.ok(&["fs", "rm", "-r", "/dir-link"]);
    assert_eq!(ws.names("/"), ["src"]);
    assert_eq!(
        ws.tree("/src"),
        ["/src/a.txt", "/src/sub", "/src/sub/b.txt"]
    );
    assert_eq!(ws.cat("/src/a.txt"), "a\n");
}

#[test]
fn rm_several_paths_and_json() {
    let ws = with_src();
    let doc = ws.json(&["fs", "rm", "-r", "/src/a.txt", "/src/sub"]);
    assert_eq!(doc, json!({"removed": ["/src/a.txt", "/src/sub"]}));
    assert_eq!(ws.tree("/"), ["/src"]);
}

// ---------------------------------------------------------------- mv

#[test]
fn mv_renames_a_file() {
    let ws = with_src();
    let ino = ws.stat("/src/a.txt")["ino"].clone();
    assert_eq!(ws.ok(&["fs", "mv", "/src/a.txt", "/renamed.txt"]), "");
    assert!(!ws.exists("/src/a.txt"));
    assert_eq!(ws.cat("/renamed.txt"), "a\n");
    assert_eq!(ws.stat("/renamed.txt")["ino"], ino);
}

#[test]
fn mv_replaces_an_existing_file() {
    let ws = Ws::new();
    ws.put("/one", "1");
    ws.put("/two", "2");
    ws.ok(&["fs", "mv", "/one", "/two"]);
    assert_eq!(ws.names("/"), ["two"]);
    assert_eq!(ws.cat("/two"), "1");
}

#[test]
fn mv_a_directory_moves_its_subtree() {
    let ws = with_src();
    let ino = ws.stat("/src")["ino"].clone();
    let doc = ws.json(&["fs", "mv", "/src", "/dst"]);
    assert_eq!(doc, json!({"from": "/src", "to": "/dst"}));
    assert_eq!(
        ws.tree("/"),
        ["/dst", "/dst/a.txt", "/dst/sub", "/dst/sub/b.txt"]
    );
    assert_eq!(ws.cat("/dst/sub/b.txt"), "b\n");
    assert_eq!(ws.stat("/dst")["ino"], ino, "a rename keeps the node");
}

#[test]
fn mv_into_an_existing_directory() {
    let ws = with_src();
    ws.ok(&["fs", "mkdir", "/into"]);
    let doc = ws.json(&["fs", "mv", "/src/a.txt", "/into"]);
    assert_eq!(doc, json!({"from": "/src/a.txt", "to": "/into/a.txt"}));
    ws.ok(&["fs", "mv", "/src/sub", "/into/"]);
    assert_eq!(
        ws.tree("/"),
        [
            "/into",
            "/into/a.txt",
            "/into/sub",
            "/into/sub/b.txt",
            "/src"
        ]
    );
}

#[test]
fn mv_a_directory_into_itself_is_einval() {
    let ws = with_src();
    let (code, message) = ws.err(&["fs", "mv", "/src", "/src/sub/inner"]);
    assert_eq!(code, "EINVAL");
    assert!(message.contains("/src"), "{message}");
    // `mv /src /src` means "into /src" and is refused the same way.
    assert_eq!(ws.errno(&["fs", "mv", "/src", "/src"]), "EINVAL");
    assert_eq!(ws.errno(&["fs", "mv", "/src", "/src/sub"]), "EINVAL");
    assert_eq!(
        ws.tree("/"),
        ["/src", "/src/a.txt", "/src/sub", "/src/sub/b.txt"]
    );
}

#[test]
fn mv_errors() {
    let ws = with_src();
    let (code, message) = ws.err(&["fs", "mv", "/missing", "/x"]);
    assert_eq!(code, "ENOENT");
    assert!(message.contains("/missing"), "{message}");
    assert_eq!(ws.errno(&["fs", "mv", "/src/a.txt", "/nodir/x"]), "ENOENT");
    let (code, message) = ws.err(&["fs", "mv", "/", "/x"]);
    assert_eq!(code, "EPERM");
    assert!(message.starts_with("operation not permitted"), "{message}");
}

// ---------------------------------------------------------------- cp

#[test]
fn cp_copies_a_file() {
    let ws = with_src();
    assert_eq!(ws.ok(&["fs", "cp", "/src/a.txt", "/copy.txt"]), "");
    assert_eq!(ws.cat("/copy.txt"), "a\n");
    assert_eq!(ws.cat("/src/a.txt"), "a\n");
}

/// Copies are copy-on-write: a copy reports its source's inode number
/// until either side changes, and the side that changes gets a private
/// node with a new number (documented in host/store/README.md).
#[test]
fn cp_shares_the_node_until_one_side_changes() {
    let ws = with_src();
    ws.ok(&["fs", "cp", "/src/a.txt", "/copy.txt"]);
    assert_eq!(ws.stat("/copy.txt")["ino"], ws.stat("/src/a.txt")["ino"]);
    ws.ok_with(&["fs", "write", "/copy.txt"], "changed");
    assert_ne!(ws.stat("/copy.txt")["ino"], ws.stat("/src/a.txt")["ino"]);
    assert_eq!(ws.cat("/src/a.txt"), "a\n");
}

#[test]
fn cp_of_a_directory_needs_recursive() {
    let ws = with_src();
    let (code, message) = ws.err(&["fs", "cp", "/src", "/dst"]);
    assert_eq!(code, "EISDIR");
    assert!(message.starts_with("is a directory: /src"), "{message}");
    assert!(!ws.exists("/dst"));
    let doc = ws.json(&["fs", "cp", "-r", "/src", "/dst"]);
    assert_eq!(doc, json!({"from": "/src", "to": "/dst"}));
    assert_eq!(
        ws.tree("/dst"),
        ["/dst/a.txt", "/dst/sub", "/dst/sub/b.txt"]
    );
    assert_eq!(ws.cat("/dst/sub/b.txt"), "b\n");
}

#[test]
fn cp_into_an_existing_directory() {
    let ws = with_src();
    ws.ok(&["fs", "mkdir", "/into"]);
    let doc = ws.json(&["fs", "cp", "/src/a.txt", "/into"]);
    assert_eq!(doc, json!({"from": "/src/a.txt", "to": "/into/a.txt"}));
    ws.ok(&["fs", "cp", "--recursive", "/src", "/into"]);
    assert_eq!(
        ws.tree("/into"),
        [
            "/into/a.txt",
            "/into/src",
            "/into/src/a.txt",
            "/into/src/sub",
            "/into/src/sub/b.txt"
        ]
    );
}

#[test]
fn cp_then_changing_either_side_leaves_the_other_alone() {
    let ws = with_src();
    ws.ok(&["fs", "cp", "-r", "/src", "/copy"]);

    ws.ok_with(&["fs", "write", "/copy/sub/b.txt"], "changed in copy\n");
    ws.ok_with(&["fs", "append", "/src/a.txt"], "appended to original\n");
    ws.put("/copy/sub/new.txt", "only in copy");
    ws.ok(&["fs", "rm", "/src/sub/b.txt"]);
    ws.ok(&["fs", "chmod", "600", "/copy/a.txt"]);

    assert_eq!(ws.tree("/src"), ["/src/a.txt", "/src/sub"]);
    assert_eq!(
        ws.tree("/copy"),
        [
            "/copy/a.txt",
            "/copy/sub",
            "/copy/sub/b.txt",
            "/copy/sub/new.txt"
        ]
    );
    assert_eq!(ws.cat("/src/a.txt"), "a\nappended to original\n");
    assert_eq!(ws.cat("/copy/a.txt"), "a\n");
    assert_eq!(ws.cat("/copy/sub/b.txt"), "changed in copy\n");
    assert_eq!(ws.stat("/src/a.txt")["mode"], "644");
    assert_eq!(ws.stat("/copy/a.txt")["mode"], "600");
}

#[test]
fn cp_of_a_file_then_modify_the_copy() {
    let ws = Ws::new();
    ws.put("/orig", "original");
    ws.ok(&["fs", "cp", "/orig", "/dup"]);
    ws.ok(&["fs", "truncate", "/dup", "4"]);
    assert_eq!(ws.cat("/orig"), "original");
    assert_eq!(ws.cat("/dup"), "orig");
}

#[test]
fn cp_a_directory_into_itself_is_einval() {
    let ws = with_src();
    assert_eq!(
        ws.errno(&["fs", "cp", "-r", "/src", "/src/sub/again"]),
        "EINVAL"
    );
    assert_eq!(ws.errno(&["fs", "cp", "-r", "/src", "/src"]), "EINVAL");
    assert_eq!(ws.tree("/").len(), 4);
}

#[test]
fn cp_of_a_missing_source_is_enoent() {
    let ws = Ws::new();
    let (code, message) = ws.err(&["fs", "cp", "/missing", "/x"]);
    assert_eq!(code, "ENOENT");
    assert!(message.contains("/missing"), "{message}");
}

// ---------------------------------------------------------------- ln / readlink

#[test]
fn ln_s_makes_a_symlink_and_readlink_prints_its_target() {
    let ws = with_src();
    assert_eq!(ws.ok(&["fs", "ln", "-s", "/src/a.txt", "/link"]), "");
    assert_eq!(ws.ok(&["fs", "readlink", "/link"]), "/src/a.txt\n");
    assert_eq!(ws.cat("/link"), "a\n");
    let doc = ws.json(&["fs", "ln", "--symbolic", "sub/b.txt", "/src/rel"]);
    assert_eq!(doc, json!({"path": "/src/rel", "target": "sub/b.txt"}));
    assert_eq!(
        ws.json(&["fs", "readlink", "/src/rel"]),
        json!({"path": "/src/rel", "target": "sub/b.txt"})
    );
    // Relative targets resolve from the link's directory.
    assert_eq!(ws.cat("/src/rel"), "b\n");
}

#[test]
fn symlink_targets_are_stored_verbatim_and_may_dangle() {
    let ws = Ws::new();
    for target in [
        "../../up/and/away",
        "/does/not/exist",
        "./x//y/",
        "name with spaces",
    ] {
        ws.ok(&["fs", "ln", "-s", target, "/l"]);
        assert_eq!(ws.ok(&["fs", "readlink", "/l"]), format!("{target}\n"));
        ws.ok(&["fs", "rm", "/l"]);
    }
    ws.ok(&["fs", "ln", "-s", "/does/not/exist", "/dangling"]);
    assert_eq!(ws.errno(&["fs", "read", "/dangling"]), "ENOENT");
}

#[test]
fn ln_without_s_is_an_error() {
    let ws = with_src();
    let (code, message) = ws.err(&["fs", "ln", "/src/a.txt", "/hard"]);
    assert_eq!(code, "EINVAL");
    assert_eq!(
        message,
        "hard links are not supported; use ln -s TARGET PATH for a symbolic link"
    );
    assert!(!ws.exists("/hard"));
}

#[test]
fn ln_over_an_existing_path_is_eexist() {
    let ws = with_src();
    assert_eq!(
        ws.err(&["fs", "ln", "-s", "/x", "/src/a.txt"]),
        ("EEXIST".into(), "file exists: /src/a.txt".into())
    );
    assert_eq!(ws.cat("/src/a.txt"), "a\n");
    assert_eq!(
        ws.errno(&["fs", "ln", "-s", "/x", "/missing/dir/l"]),
        "ENOENT"
    );
}

#[test]
fn readlink_errors() {
    let ws = with_src();
    assert_eq!(
        ws.err(&["fs", "readlink", "/nope"]),
        ("ENOENT".into(), "no such file or directory: /nope".into())
    );
    let (code, message) = ws.err(&["fs", "readlink", "/src/a.txt"]);
    assert_eq!(code, "EINVAL");
    assert!(message.contains("/src/a.txt"), "{message}");
}

// ---------------------------------------------------------------- readonly

#[test]
fn readonly_declares_lists_and_undeclares_subtrees() {
    let ws = with_src();
    assert_eq!(ws.ok(&["fs", "readonly"]), "");
    assert_eq!(ws.json(&["fs", "readonly"]), json!({"readonly": []}));
    assert_eq!(ws.ok(&["fs", "readonly", "/src/sub"]), "/src/sub\n");
    assert_eq!(
        ws.json(&["fs", "readonly", "/src/a.txt"]),
        json!({"readonly": ["/src/a.txt", "/src/sub"]})
    );
    assert_eq!(ws.ok(&["fs", "readonly"]), "/src/a.txt\n/src/sub\n");
    assert_eq!(
        ws.json(&["fs", "readonly", "--off", "/src/sub"]),
        json!({"readonly": ["/src/a.txt"]})
    );
}

#[test]
fn writes_inside_a_readonly_subtree_are_erofs() {
    let ws = with_src();
    ws.put("/outside.txt", "o");
    ws.ok(&["fs", "readonly", "/src"]);
    let refused: &[(&[&str], &str)] = &[
        (&["fs", "write", "/src/a.txt"], "x"),
        (&["fs", "write", "/src/new.txt"], "x"),
        (&["fs", "write", "-p", "/src/new/deep.txt"], "x"),
        (&["fs", "append", "/src/a.txt"], "x"),
        (&["fs", "truncate", "/src/a.txt", "0"], ""),
        (&["fs", "mkdir", "/src/d"], ""),
        (&["fs", "rm", "/src/a.txt"], ""),
        (&["fs", "rm", "-r", "/src/sub"], ""),
        (&["fs", "mv", "/src/a.txt", "/moved.txt"], ""),
        (&["fs", "mv", "/outside.txt", "/src/in.txt"], ""),
        (&["fs", "cp", "/outside.txt", "/src/in.txt"], ""),
        (&["fs", "chmod", "600", "/src/a.txt"], ""),
        (&["fs", "ln", "-s", "/x", "/src/l"], ""),
        (
            &["fs", "edit", "/src/a.txt", "--old", "a", "--new", "b"],
            "",
        ),
        // Removing or moving an ancestor would take the subtree with it.
        (&["fs", "mv", "/src", "/elsewhere"], ""),
    ];
    for (args, stdin) in refused {
        let (code, message) = ws.err_with(args, stdin);
        assert_eq!(code, "EROFS", "{args:?}");
        assert!(message.starts_with("read-only file system: "), "{message}");
        assert!(message.contains("/src"), "{message}");
    }
    assert_eq!(
        ws.tree("/src"),
        ["/src/a.txt", "/src/sub", "/src/sub/b.txt"]
    );
    assert_eq!(ws.cat("/src/a.txt"), "a\n");
    assert_eq!(ws.stat("/src/a.txt")["mode"], "644");
}

#[test]
fn removing_an_ancestor_of_a_readonly_subtree_is_erofs() {
    let ws = with_src();
    ws.ok(&["fs", "readonly", "/src/sub"]);
    assert_eq!(ws.errno(&["fs", "rm", "-r", "/src"]), "EROFS");
    assert_eq!(ws.errno(&["fs", "rm", "-rf", "/src"]), "EROFS");
    // Siblings of the subtree stay writable.
    ws.ok_with(&["fs", "write", "/src/a.txt"], "still writable");
    assert_eq!(ws.cat("/src/sub/b.txt"), "b\n");
}

#[test]
fn a_readonly_subtree_can_still_be_read_and_copied_out() {
    let ws = with_src();
    ws.ok(&["fs", "readonly", "/src"]);
    assert_eq!(ws.cat("/src/a.txt"), "a\n");
    assert_eq!(ws.ok(&["fs", "ls", "/src"]), "a.txt\nsub\n");
    ws.ok(&["fs", "cp", "-r", "/src", "/copy"]);
    ws.ok_with(&["fs", "write", "/copy/a.txt"], "copies are writable");
    assert_eq!(ws.cat("/src/a.txt"), "a\n");
}

#[test]
fn readonly_off_makes_the_subtree_writable_again() {
    let ws = with_src();
    ws.ok(&["fs", "readonly", "/src"]);
    assert_eq!(ws.errno_with(&["fs", "write", "/src/a.txt"], "x"), "EROFS");
    ws.ok(&["fs", "readonly", "--off", "/src"]);
    ws.ok_with(&["fs", "write", "/src/a.txt"], "x");
    assert_eq!(ws.cat("/src/a.txt"), "x");
    ws.ok(&["fs", "rm", "-r", "/src"]);
    assert_eq!(ws.names("/"), Vec::<String>::new());
}

#[test]
fn readonly_off_needs_a_path() {
    let ws = Ws::new();
    let stderr = ws.usage_err(&["fs", "readonly", "--off"]);
    assert!(
        stderr.contains("required arguments were not provided"),
        "{stderr}"
    );
}
