//! Export and import never write or read a workspace database this
//! process has open, and export drops setuid, setgid and sticky bits.

use std::os::unix::fs::{PermissionsExt, symlink};

use computer_store::{Workspace, WriteOptions};

use crate::support::*;

fn parents() -> WriteOptions {
    WriteOptions {
        create_parents: true,
        ..Default::default()
    }
}

/// A workspace at `<dir>/.computer/workspace.db`, as the CLI's default.
fn live(dir: &std::path::Path) -> (Workspace, std::path::PathBuf) {
    let db = dir.join(".computer/workspace.db");
    let ws = Workspace::open(&db).unwrap();
    put(&ws, "/keep.txt", "the real one\n");
    (ws, db)
}

#[test]
fn export_skips_the_live_database_and_its_sidecars() {
    let host = tempfile::tempdir().unwrap();
    let (ws, db) = live(host.path());
    for name in [
        "workspace.db",
        "workspace.db-wal",
        "workspace.db-shm",
        "workspace.db-journal",
    ] {
        ws.write(&format!("/.computer/{name}"), b"crafted", &parents())
            .unwrap();
    }
    ws.write("/.computer/other", b"fine", &parents()).unwrap();
    // Through a symlink to the same directory too.
    symlink(host.path(), host.path().join("alias")).unwrap();
    for target in [host.path().to_path_buf(), host.path().join("alias")] {
        let stats = ws.export("/", &target).unwrap();
        assert_eq!(stats.skipped.len(), 4, "{:?}", stats.skipped);
        assert!(
            stats.skipped[0].starts_with("/.computer/workspace.db: not exported: it is the database of a workspace open in this process"),
            "{:?}",
            stats.skipped
        );
    }
    assert_eq!(
        std::fs::read(host.path().join(".computer/other")).unwrap(),
        b"fine"
    );
    drop(ws);
    let reopened = Workspace::open(&db).unwrap();
    assert_eq!(get(&reopened, "/keep.txt"), "the real one\n");
    assert!(reopened.fsck().unwrap().is_clean());
}

#[test]
fn export_does_not_remove_a_directory_holding_the_live_database() {
    let host = tempfile::tempdir().unwrap();
    let (ws, db) = live(host.path());
    // A file where the host has the database's directory.
    put(&ws, "/.computer", "a file\n");
    let stats = ws.export("/", host.path()).unwrap();
    assert_eq!(stats.skipped.len(), 1, "{:?}", stats.skipped);
    assert!(
        stats.skipped[0].contains("directory holding the database"),
        "{:?}",
        stats.skipped
    );
    assert!(db.is_file());
    assert_eq!(get(&ws, "/keep.txt"), "the real one\n");
}

#[test]
fn export_into_a_missing_directory_next_to_the_database_is_guarded_too() {
    let host = tempfile::tempdir().unwrap();
    let (ws, _db) = live(host.path());
    ws.write("/workspace.db-wal", b"crafted", &parents())
        .unwrap();
    // Guarded by name (and by inode while the -wal exists).
    let stats = ws.export("/", &host.path().join(".computer")).unwrap();
    assert_eq!(stats.skipped.len(), 1, "{:?}", stats.skipped);
    assert!(stats.skipped[0].starts_with("/workspace.db-wal: not exported"));
}

#[test]
fn import_skips_the_live_database() {
    let host = tempfile::tempdir().unwrap();
    let (ws, _db) = live(host.path());
    std::fs::write(host.path().join("notes.txt"), "hello\n").unwrap();
    // A hard link to the database under another name is the same file.
    std::fs::hard_link(
        host.path().join(".computer/workspace.db"),
        host.path().join("copy.db"),
    )
    .unwrap();
    let stats = ws.import(host.path(), "/proj", &mut |_| {}).unwrap();
    let skipped = stats.skipped.join("\n");
    assert!(
        skipped.contains("/proj/.computer/workspace.db: not imported"),
        "{skipped}"
    );
    assert!(skipped.contains("/proj/copy.db: not imported"), "{skipped}");
    assert!(!ws.exists("/proj/.computer/workspace.db").unwrap());
    assert!(!ws.exists("/proj/copy.db").unwrap());
    assert_eq!(get(&ws, "/proj/notes.txt"), "hello\n");
}

#[test]
fn export_drops_setuid_setgid_and_sticky_bits() {
    let ws = ws();
    put(&ws, "/d/tool", "#!/bin/sh\n");
    ws.chmod("/d/tool", 0o6755).unwrap();
    ws.chmod("/d", 0o3777).unwrap();
    let host = tempfile::tempdir().unwrap();
    ws.export("/", host.path()).unwrap();
    let mode = |p: &str| {
        std::fs::metadata(host.path().join(p))
            .unwrap()
            .permissions()
            .mode()
            & 0o7777
    };
    assert_eq!(mode("d/tool"), 0o755);
    assert_eq!(mode("d"), 0o777);
    // The workspace keeps them.
    assert_eq!(ws.stat("/d/tool").unwrap().mode, 0o6755);
}
