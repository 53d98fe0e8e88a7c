use crate::support::*;
use computer_store::{Errno, MkdirOptions, NodeKind, Page, RmOptions};

fn mk(recursive: bool) -> MkdirOptions {
    MkdirOptions {
        recursive,
        mode: None,
    }
}

#[test]
fn mkdir_semantics() {
    let ws = ws();
    ws.mkdir("/a", &mk(false)).unwrap();
    assert_err(ws.mkdir("/a", &mk(false)), Errno::EEXIST, "/a");
    ws.mkdir("/a", &mk(true)).unwrap();
    assert_err(ws.mkdir("/b/c", &mk(false)), Errno::ENOENT, "/b/c");
    ws.mkdir("/b/c/d", &mk(true)).unwrap();
    assert_eq!(ws.stat("/b/c/d").unwrap().kind, NodeKind::Directory);
    put(&ws, "/f", "");
    assert_err(ws.mkdir("/f", &mk(true)), Errno::EEXIST, "/f");
    assert_err(ws.mkdir("/f", &mk(false)), Errno::EEXIST, "/f");
    assert_err(ws.mkdir("/f/g", &mk(true)), Errno::ENOTDIR, "/f/g");
    assert_err(ws.mkdir("/", &mk(false)), Errno::EEXIST, "/");
    ws.mkdir("/", &mk(true)).unwrap();
    ws.mkdir(
        "/m",
        &MkdirOptions {
            recursive: false,
            mode: Some(0o700),
        },
    )
    .unwrap();
    assert_eq!(ws.stat("/m").unwrap().mode, 0o700);
}

#[test]
fn readdir_is_sorted_and_paged() {
    let ws = ws();
    for name in ["zeta", "alpha", "Beta", "gamma", "delta"] {
        put(&ws, &format!("/d/{name}"), name);
    }
    mkdirp(&ws, "/d/sub");
    let all: Vec<String> = ws
        .readdir("/d", Page::all())
        .unwrap()
        .into_iter()
        .map(|s| s.name)
        .collect();
    assert_eq!(all, ["Beta", "alpha", "delta", "gamma", "sub", "zeta"]);
    let page: Vec<String> = ws
        .readdir("/d", Page::new(2, Some(2)))
        .unwrap()
        .into_iter()
        .map(|s| s.name)
        .collect();
    assert_eq!(page, ["delta", "gamma"]);
    let e = ws.readdir("/d", Page::all()).unwrap();
    let sub = e.iter().find(|s| s.name == "sub").unwrap();
    assert_eq!(sub.kind, NodeKind::Directory);
    let alpha = e.iter().find(|s| s.name == "alpha").unwrap();
    assert_eq!((alpha.kind, alpha.size), (NodeKind::File, 5));
    assert_err(
        ws.readdir("/d/alpha", Page::all()),
        Errno::ENOTDIR,
        "/d/alpha",
    );
    assert_err(ws.readdir("/nope", Page::all()), Errno::ENOENT, "/nope");
}

#[test]
fn rm_semantics() {
    let ws = ws();
    put(&ws, "/d/e/f", "x");
    assert_err(ws.rm("/d", RmOptions::default()), Errno::ENOTEMPTY, "/d");
    assert_err(
        ws.rm("/missing", RmOptions::default()),
        Errno::ENOENT,
        "/missing",
    );
    ws.rm(
        "/missing",
        RmOptions {
            force: true,
            recursive: false,
        },
    )
    .unwrap();
    ws.rm(
        "/missing/deeper",
        RmOptions {
            force: true,
            recursive: false,
        },
    )
    .unwrap();
    assert_err(
        ws.rm(
            "/",
            RmOptions {
                recursive: true,
                force: true,
            },
        ),
        Errno::EPERM,
        "/",
    );
    ws.rm("/d/e/f", RmOptions::default()).unwrap();
    ws.rm("/d/e", RmOptions::default()).unwrap(); // empty directory
    put(&ws, "/d/x/y", "1");
    ws.rm(
        "/d",
        RmOptions {
            recursive: true,
            force: false,
        },
    )
    .unwrap();
    assert!(!ws.exists("/d").unwrap());
    assert_eq!(ws.usage().unwrap().nodes, 1, "only the root is left");
}

#[test]
fn rm_of_symlink_removes_the_link_only() {
    let ws = ws();
    put(&ws, "/target/file", "keep");
    ws.symlink("/target", "/link").unwrap();
    ws.rm(
        "/link",
        RmOptions {
            recursive: true,
            force: false,
        },
    )
    .unwrap();
    assert_eq!(get(&ws, "/target/file"), "keep");
    assert_err(ws.lstat("/link"), Errno::ENOENT, "/link");
}

#[test]
fn parent_mtime_moves_on_create() {
    let ws = ws();
    mkdirp(&ws, "/d");
    ws.set_mtime("/d", 1).unwrap();
    put(&ws, "/d/new", "");
    assert!(ws.stat("/d").unwrap().mtime_ns > 1);
}
