use crate::support::*;
use computer_store::{Errno, NodeKind, Page, WriteOptions};

#[test]
fn symlinks_resolve_and_dangle() {
    let ws = ws();
    put(&ws, "/real/file", "data");
    ws.symlink("/real", "/abs").unwrap();
    ws.symlink("real/file", "/rel").unwrap();
    ws.symlink("../real/file", "/real/../up").unwrap();
    ws.symlink("/nowhere", "/dangling").unwrap();
    assert_eq!(get(&ws, "/abs/file"), "data");
    assert_eq!(get(&ws, "/rel"), "data");
    assert_eq!(ws.readlink("/rel").unwrap(), "real/file");
    assert_eq!(ws.realpath("/abs/file").unwrap(), "/real/file");
    assert_eq!(ws.lstat("/abs").unwrap().kind, NodeKind::Symlink);
    assert_eq!(ws.stat("/abs").unwrap().kind, NodeKind::Directory);
    assert_eq!(ws.lstat("/dangling").unwrap().size, "/nowhere".len() as u64);
    assert_err(ws.stat("/dangling"), Errno::ENOENT, "/dangling");
    assert_err(ws.readlink("/real/file"), Errno::EINVAL, "/real/file");
    assert_err(ws.symlink("/x", "/rel"), Errno::EEXIST, "/rel");
    assert_err(ws.symlink("", "/empty"), Errno::EINVAL, "/empty");
    // readdir reports links as links.
    let kinds: Vec<_> = ws
        .readdir("/", Page::all())
        .unwrap()
        .into_iter()
        .map(|s| (s.name, s.kind))
        .collect();
    assert!(kinds.contains(&("abs".to_string(), NodeKind::Symlink)));
}

#[test]
fn writing_through_a_dangling_symlink_creates_the_target() {
    let ws = ws();
    mkdirp(&ws, "/dir");
    ws.symlink("/dir/target", "/link").unwrap();
    put(&ws, "/link", "via link");
    assert_eq!(get(&ws, "/dir/target"), "via link");
    assert_eq!(ws.lstat("/link").unwrap().kind, NodeKind::Symlink);
    // exclusive does not follow the final link
    assert_err(
        ws.write(
            "/link",
            b"",
            &WriteOptions {
                exclusive: true,
                ..Default::default()
            },
        ),
        Errno::EEXIST,
        "/link",
    );
}

#[test]
fn symlink_loops_give_eloop_after_40_hops() {
    let ws = ws();
    ws.symlink("/b", "/a").unwrap();
    ws.symlink("/a", "/b").unwrap();
    assert_err(ws.read("/a"), Errno::ELOOP, "/a");
    assert_err(ws.stat("/a/x"), Errno::ELOOP, "/a/x");
    // A chain of exactly 40 links resolves; 41 does not.
    put(&ws, "/end", "ok");
    ws.symlink("/end", "/l0").unwrap();
    for i in 1..41 {
        ws.symlink(&format!("/l{}", i - 1), &format!("/l{i}"))
            .unwrap();
    }
    assert_eq!(get(&ws, "/l39"), "ok");
    assert_err(ws.read("/l40"), Errno::ELOOP, "/l40");
}

#[test]
fn chmod_and_stat() {
    let ws = ws();
    put(&ws, "/f", "abc");
    ws.chmod("/f", 0o640).unwrap();
    let st = ws.stat("/f").unwrap();
    assert_eq!(
        (st.name.as_str(), st.kind, st.mode, st.size),
        ("f", NodeKind::File, 0o640, 3)
    );
    assert!(st.mtime_ns > 0 && st.ino > 1);
    assert_err(ws.chmod("/f", 0o17777), Errno::EINVAL, "/f");
    assert_err(ws.chmod("/nope", 0o644), Errno::ENOENT, "/nope");
    let root = ws.stat("/").unwrap();
    assert_eq!(
        (root.name.as_str(), root.kind, root.ino),
        ("/", NodeKind::Directory, 1)
    );
}

#[test]
fn paths_are_validated_everywhere() {
    let ws = ws();
    assert_err(ws.stat("rel/path"), Errno::EINVAL, "rel/path");
    assert_err(ws.read("/a\0b"), Errno::EINVAL, "NUL");
    let long = format!("/{}", "n".repeat(300));
    assert_eq!(ws.stat(&long).unwrap_err().code, Errno::ENAMETOOLONG);
    put(&ws, "/x/y", "1");
    assert_eq!(get(&ws, "/x/../x/./y"), "1");
    assert_eq!(get(&ws, "/../../x/y"), "1");
    assert_err(ws.stat("/x/y/"), Errno::ENOTDIR, "/x/y");
}
