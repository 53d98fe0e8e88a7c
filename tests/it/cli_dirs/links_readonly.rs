//! `fs ln -s`, `readlink` and `readonly` subtrees.

use super::*;

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
