//! The change log: every mutation names its canonical path, in its own
//! transaction; a failed one names nothing; a revision the log cannot
//! answer for says so.

use computer_store::{Change, Errno, MkdirOptions, RmOptions, Workspace, WriteOptions};

fn ws() -> (tempfile::TempDir, Workspace) {
    let dir = tempfile::tempdir().unwrap();
    let ws = Workspace::open(dir.path().join("ws.db")).unwrap();
    assert_eq!(ws.keep_change_log().unwrap(), 0);
    (dir, ws)
}

/// The changes after `since`, as `(path, subtree)`.
fn since(ws: &Workspace, since: u64) -> Vec<(String, bool)> {
    let changes = ws.changes_since(since).unwrap();
    assert_eq!(changes.rev, ws.rev().unwrap());
    changes
        .paths
        .expect("the log reaches back")
        .into_iter()
        .map(|Change { path, subtree }| (path, subtree))
        .collect()
}

fn owned(v: &[(&str, bool)]) -> Vec<(String, bool)> {
    v.iter().map(|(p, s)| (p.to_string(), *s)).collect()
}

const PARENTS: WriteOptions = WriteOptions {
    mode: None,
    exclusive: false,
    create_parents: true,
};

#[test]
fn each_mutation_names_what_it_changed() {
    let (_d, ws) = ws();
    assert_eq!(since(&ws, 0), vec![]);

    ws.write("/a/b.txt", b"b", &PARENTS).unwrap();
    assert_eq!(since(&ws, 0), owned(&[("/a", false), ("/a/b.txt", false)]));

    let r = ws.rev().unwrap();
    ws.symlink("/a", "/link").unwrap();
    ws.write("/link/c", b"c", &WriteOptions::default()).unwrap();
    ws.chmod("/link/b.txt", 0o600).unwrap();
    // Through the symlink, the canonical path is logged.
    assert_eq!(
        since(&ws, r),
        owned(&[("/a/b.txt", false), ("/a/c", false), ("/link", false)])
    );

    let r = ws.rev().unwrap();
    ws.rename("/a", "/z").unwrap();
    ws.copy("/z", "/y", true).unwrap();
    ws.rm(
        "/y",
        RmOptions {
            recursive: true,
            force: false,
        },
    )
    .unwrap();
    ws.mkdir(
        "/m/n",
        &MkdirOptions {
            recursive: true,
            mode: None,
        },
    )
    .unwrap();
    ws.append("/z/c", b"more").unwrap();
    ws.truncate("/z/b.txt", 0).unwrap();
    ws.set_mtime("/z", 5).unwrap();
    assert_eq!(
        since(&ws, r),
        owned(&[
            ("/a", true),
            ("/m", false),
            ("/m/n", false),
            ("/y", true), // copied, then removed: the stronger mark wins
            ("/z", false),
            ("/z/b.txt", false),
            ("/z/c", false),
        ])
    );

    // Replacing an existing entry marks its subtree.
    let r = ws.rev().unwrap();
    ws.mkdir("/w", &MkdirOptions::default()).unwrap();
    ws.rename("/m", "/w").unwrap(); // over an empty directory
    ws.write("/f", b"f", &WriteOptions::default()).unwrap();
    ws.rename("/f", "/z/c").unwrap();
    assert_eq!(
        since(&ws, r),
        owned(&[("/f", true), ("/m", true), ("/w", true), ("/z/c", true)])
    );
}

#[test]
fn a_refused_mutation_names_nothing() {
    let (_d, ws) = ws();
    ws.write("/ro/f", b"x", &PARENTS).unwrap();
    ws.set_readonly("/ro", true).unwrap();
    let r = ws.rev().unwrap();
    let e = ws
        .write("/ro/f", b"y", &WriteOptions::default())
        .unwrap_err();
    assert_eq!(e.code, Errno::EROFS);
    let e = ws.rm("/nope", RmOptions::default()).unwrap_err();
    assert_eq!(e.code, Errno::ENOENT);
    assert_eq!(ws.rev().unwrap(), r);
    assert_eq!(since(&ws, r), vec![]);
}

#[test]
fn an_import_names_its_root() {
    let (_d, ws) = ws();
    let host = tempfile::tempdir().unwrap();
    std::fs::create_dir(host.path().join("sub")).unwrap();
    std::fs::write(host.path().join("sub/f"), "f").unwrap();
    ws.import(host.path(), "/proj", &mut |_| {}).unwrap();
    let changes = since(&ws, 0);
    assert!(changes.iter().any(|(p, _)| p == "/proj"), "{changes:?}");
}

#[test]
fn a_revision_the_log_cannot_answer_for_is_reported_as_unknown() {
    let (_d, ws) = ws();
    ws.write("/a", b"a", &WriteOptions::default()).unwrap();
    let rev = ws.rev().unwrap();
    let ahead = ws.changes_since(rev + 10).unwrap();
    assert_eq!((ahead.rev, ahead.paths), (rev, None));
    let current = ws.changes_since(rev).unwrap();
    assert_eq!(current.paths, Some(vec![]));
}

#[test]
fn the_log_is_kept_only_once_asked_for() {
    let dir = tempfile::tempdir().unwrap();
    let ws = Workspace::open(dir.path().join("ws.db")).unwrap();
    ws.write("/before", b"b", &WriteOptions::default()).unwrap();
    assert_eq!(ws.changes_since(0).unwrap().paths, None, "off: unknown");
    let on_at = ws.keep_change_log().unwrap();
    assert_eq!(on_at, 1);
    ws.write("/after", b"a", &WriteOptions::default()).unwrap();
    assert_eq!(
        ws.changes_since(0).unwrap().paths,
        None,
        "before it started"
    );
    assert_eq!(since(&ws, on_at), owned(&[("/after", false)]));
    // Asking again changes nothing, also from another handle.
    let other = Workspace::open(dir.path().join("ws.db")).unwrap();
    assert_eq!(other.keep_change_log().unwrap(), 2);
    other
        .write("/other", b"o", &WriteOptions::default())
        .unwrap();
    assert_eq!(
        since(&ws, on_at),
        owned(&[("/after", false), ("/other", false)])
    );
}
