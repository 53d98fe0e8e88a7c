use crate::support::*;
use computer_store::{Errno, NodeKind, RmOptions, WriteOptions};

#[test]
fn rename_file_and_directory() {
    let ws = ws();
    put(&ws, "/a/one", "1");
    put(&ws, "/a/sub/two", "2");
    ws.rename("/a", "/b").unwrap();
    assert!(!ws.exists("/a").unwrap());
    assert_eq!(get(&ws, "/b/sub/two"), "2");
    ws.rename("/b/one", "/b/sub/uno").unwrap();
    assert_eq!(get(&ws, "/b/sub/uno"), "1");
    ws.rename("/b/sub/uno", "/b/sub/uno").unwrap();
    assert_eq!(get(&ws, "/b/sub/uno"), "1");
}

#[test]
fn rename_replacement_rules() {
    let ws = ws();
    put(&ws, "/f1", "1");
    put(&ws, "/f2", "2");
    put(&ws, "/full/x", "");
    mkdirp(&ws, "/empty");
    mkdirp(&ws, "/d");
    ws.rename("/f1", "/f2").unwrap();
    assert_eq!(get(&ws, "/f2"), "1");
    assert_err(ws.rename("/d", "/f2"), Errno::ENOTDIR, "/f2");
    assert_err(ws.rename("/f2", "/d"), Errno::EISDIR, "/d");
    assert_err(ws.rename("/d", "/full"), Errno::ENOTEMPTY, "/full");
    ws.rename("/d", "/empty").unwrap();
    assert_err(ws.rename("/missing", "/x"), Errno::ENOENT, "/missing");
    assert_err(ws.rename("/f2", "/nodir/x"), Errno::ENOENT, "/nodir/x");
    assert_err(ws.rename("/", "/x"), Errno::EPERM, "/");
}

#[test]
fn rename_into_itself_is_einval() {
    let ws = ws();
    put(&ws, "/a/b/c", "");
    assert_err(ws.rename("/a", "/a/b/inside"), Errno::EINVAL, "/a/b/inside");
    assert_err(ws.rename("/a", "/a/x"), Errno::EINVAL, "/a/x");
    // Through a symlink that resolves into the source, too.
    ws.symlink("/a/b", "/lnk").unwrap();
    assert_err(ws.rename("/a", "/lnk/x"), Errno::EINVAL, "/lnk/x");
    assert_eq!(ws.stat("/a/b/c").unwrap().kind, NodeKind::File);
}

#[test]
fn copy_file_and_tree_share_then_diverge() {
    let ws = ws();
    put(&ws, "/src/a.txt", "A");
    put(&ws, "/src/deep/b.txt", "B");
    ws.chmod("/src/a.txt", 0o600).unwrap();
    let before = ws.usage().unwrap();
    ws.copy("/src", "/dst", true).unwrap();
    let after = ws.usage().unwrap();
    assert_eq!(before.nodes, after.nodes, "a copy shares its nodes");
    assert_eq!(before.chunks, after.chunks, "a copy moves no bytes");
    assert_eq!(get(&ws, "/dst/deep/b.txt"), "B");
    assert_eq!(ws.stat("/dst/a.txt").unwrap().mode, 0o600);

    // Changes through one path are invisible through the other.
    put(&ws, "/dst/deep/b.txt", "B2");
    ws.append("/src/a.txt", b"+").unwrap();
    put(&ws, "/dst/deep/new", "n");
    ws.chmod("/src/deep", 0o700).unwrap();
    ws.rm("/src/deep/b.txt", RmOptions::default()).unwrap();
    assert_eq!(get(&ws, "/src/a.txt"), "A+");
    assert_eq!(get(&ws, "/dst/a.txt"), "A");
    assert_eq!(get(&ws, "/dst/deep/b.txt"), "B2");
    assert!(!ws.exists("/src/deep/b.txt").unwrap());
    assert!(!ws.exists("/src/deep/new").unwrap());
    assert_eq!(ws.stat("/dst/deep").unwrap().mode, 0o755);
    assert_eq!(ws.stat("/src/deep").unwrap().mode, 0o700);

    // Removing both frees everything.
    rmrf(&ws, "/src");
    rmrf(&ws, "/dst");
    let end = ws.usage().unwrap();
    assert_eq!((end.nodes, end.chunks), (1, 0));
}

#[test]
fn copy_of_copy_and_rename_within_shared_trees() {
    let ws = ws();
    put(&ws, "/a/x/f", "1");
    ws.copy("/a", "/b", true).unwrap();
    ws.copy("/b", "/c", true).unwrap();
    ws.rename("/b/x", "/b/y").unwrap();
    put(&ws, "/c/x/f", "3");
    assert_eq!(get(&ws, "/a/x/f"), "1");
    assert_eq!(get(&ws, "/b/y/f"), "1");
    assert!(!ws.exists("/b/x").unwrap());
    assert_eq!(get(&ws, "/c/x/f"), "3");
    // Moving the original into its own copy is allowed and unshares.
    ws.rename("/a", "/c/a").unwrap();
    put(&ws, "/c/a/x/f", "4");
    assert_eq!(get(&ws, "/b/y/f"), "1");
    assert_eq!(get(&ws, "/c/a/x/f"), "4");
}

#[test]
fn copy_errors() {
    let ws = ws();
    put(&ws, "/d/f", "1");
    assert_err(ws.copy("/d", "/e", false), Errno::EISDIR, "/d");
    assert_err(ws.copy("/d", "/d/inner", true), Errno::EINVAL, "/d/inner");
    assert_err(ws.copy("/nope", "/x", true), Errno::ENOENT, "/nope");
    mkdirp(&ws, "/existing");
    assert_err(ws.copy("/d", "/existing", true), Errno::EEXIST, "/existing");
    assert_err(
        ws.copy("/d/f", "/existing", false),
        Errno::EISDIR,
        "/existing",
    );
    put(&ws, "/other", "2");
    ws.copy("/d/f", "/other", false).unwrap();
    assert_eq!(get(&ws, "/other"), "1");
    // Copying a file onto a path that already shares it.
    ws.copy("/d/f", "/other", false).unwrap();
    assert_eq!(get(&ws, "/other"), "1");
    ws.write("/d/f", b"changed", &WriteOptions::default())
        .unwrap();
    assert_eq!(get(&ws, "/other"), "1");
}

#[test]
fn rename_and_copy_of_big_trees_touch_constant_rows() {
    // O(1): the number of nodes does not grow with a copy, and a rename
    // changes nothing but one entry (observable through usage()).
    let ws = ws();
    for i in 0..500 {
        put(&ws, &format!("/tree/d{}/f{i}", i % 10), &i.to_string());
    }
    let u0 = ws.usage().unwrap();
    ws.copy("/tree", "/copy", true).unwrap();
    ws.rename("/tree", "/moved").unwrap();
    assert_eq!(ws.usage().unwrap(), u0);
    assert_eq!(get(&ws, "/copy/d3/f123"), "123");
    assert_eq!(get(&ws, "/moved/d3/f123"), "123");
}
