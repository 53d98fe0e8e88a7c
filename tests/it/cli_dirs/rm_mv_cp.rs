//! `fs rm`, `mv` and `cp`.

use super::*;

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
fn cp_has_an_inode_number_of_its_own_at_once_and_keeps_it_when_written() {
    // The copy shares the source's node until one side changes (O(1)),
    // but shows a number of its own from the start, as cp does.
    let ws = with_src();
    let src = ws.stat("/src/a.txt")["ino"].clone();
    ws.ok(&["fs", "cp", "/src/a.txt", "/copy.txt"]);
    let copy = ws.stat("/copy.txt")["ino"].clone();
    assert_ne!(copy, src);
    ws.ok_with(&["fs", "write", "/copy.txt"], "changed");
    assert_eq!(ws.stat("/copy.txt")["ino"], copy);
    assert_eq!(ws.stat("/src/a.txt")["ino"], src);
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
