//! The 4096-byte path limit holds for every path an operation makes, moves
//! and copies of directories included, and import and export handle trees
//! as deep as the limit allows.

use computer_store::{Errno, MAX_PATH, Workspace};

use crate::support::*;

/// `/` then `a/` `levels` times: a path of `2 * levels` bytes.
fn chain(levels: usize) -> String {
    "/a".repeat(levels)
}

#[test]
fn nesting_by_rename_stops_at_the_path_limit() {
    let ws = ws();
    mkdirp(&ws, "/x");
    let mut depth = 1;
    let err = loop {
        mkdirp(&ws, "/y");
        if let Err(e) = ws.rename("/x", "/y/x") {
            break e;
        }
        ws.rename("/y", "/x").unwrap();
        depth += 1;
        assert!(depth <= MAX_PATH, "nested {depth} levels");
    };
    assert_eq!(err.code, Errno::ENAMETOOLONG, "{err}");
    assert!(
        err.message.contains("/y/x") && err.message.contains("4096"),
        "{err}"
    );
    // Every level is two bytes ("/x"): the deepest path fits the limit.
    assert_eq!(depth, MAX_PATH / 2);
    let deepest = "/x".repeat(depth);
    assert!(ws.stat(&deepest).is_ok());
}

#[test]
fn a_directory_moves_or_copies_only_where_its_deepest_entry_fits() {
    let ws = ws();
    // /t/a/a/.../a/f: the file's path is 2 + 2 * 2000 + 2 = 4004 bytes.
    let deep = format!("/t{}/f", chain(2000));
    put(&ws, &deep, "x");
    mkdirp(&ws, &format!("/{}", "p".repeat(100)));
    let far = format!("/{}/t", "p".repeat(100));
    for result in [ws.rename("/t", &far), ws.copy("/t", &far, true)] {
        let e = result.unwrap_err();
        assert_eq!(e.code, Errno::ENAMETOOLONG, "{e}");
    }
    assert_eq!(get(&ws, &deep), "x");
    assert!(!ws.exists(&far).unwrap());
    // Ninety bytes more still fit: 4004 + 90 = 4094.
    let near = format!("/{}/t", "p".repeat(88));
    mkdirp(&ws, &format!("/{}", "p".repeat(88)));
    ws.copy("/t", &near, true).unwrap();
    ws.rename("/t", "/u").unwrap();
    assert_eq!(get(&ws, &format!("{near}{}/f", chain(2000))), "x");
}

#[test]
fn a_symlink_cannot_lengthen_a_new_path_past_the_limit() {
    let ws = ws();
    // 4090 bytes: room for "/f" below it, not for "/0123456789".
    let deep = chain(2045);
    mkdirp(&ws, &deep);
    ws.symlink(&deep, "/l").unwrap();
    let e = ws.mkdir("/l/0123456789", &Default::default()).unwrap_err();
    assert_eq!(e.code, Errno::ENAMETOOLONG, "{e}");
    let e = ws
        .write("/l/0123456789", b"x", &Default::default())
        .unwrap_err();
    assert_eq!(e.code, Errno::ENAMETOOLONG, "{e}");
    ws.write("/l/f", b"x", &Default::default()).unwrap();
    assert_eq!(get(&ws, &format!("{deep}/f")), "x");
}

#[test]
fn export_and_import_round_trip_a_tree_as_deep_as_the_limit() {
    let ws = Workspace::in_memory().unwrap();
    let deep = format!("{}/f", chain(2000));
    put(&ws, &deep, "bottom\n");
    let host = tempfile::tempdir().unwrap();
    let stats = ws.export("/", host.path()).unwrap();
    assert_eq!((stats.files, stats.dirs), (1, 2000));
    let back = Workspace::in_memory().unwrap();
    let stats = back.import(host.path(), "/", &mut |_| {}).unwrap();
    assert_eq!((stats.files, stats.dirs), (1, 2000));
    assert_eq!(get(&back, &deep), "bottom\n");
}
