use std::os::unix::fs::{PermissionsExt, symlink};

use crate::support::*;
use computer_store::{NodeKind, Workspace};

#[test]
fn import_then_export_round_trips_tree_modes_links() {
    let host = tempfile::tempdir().unwrap();
    let h = host.path();
    std::fs::create_dir_all(h.join("src/deep")).unwrap();
    std::fs::write(h.join("src/main.rs"), "fn main() {}\n").unwrap();
    std::fs::write(h.join("src/deep/big.bin"), vec![3u8; 700_000]).unwrap();
    std::fs::write(h.join("run.sh"), "#!/bin/sh\n").unwrap();
    std::fs::set_permissions(h.join("run.sh"), std::fs::Permissions::from_mode(0o755)).unwrap();
    symlink("src/main.rs", h.join("link")).unwrap();
    symlink("/etc/passwd", h.join("escape")).unwrap();

    let ws = ws();
    let mut calls = 0;
    let stats = ws.import(h, "/proj", &mut |_| calls += 1).unwrap();
    assert_eq!((stats.files, stats.dirs, stats.symlinks), (3, 2, 2));
    assert_eq!(stats.bytes, 13 + 700_000 + 10);
    assert!(calls >= 4, "progress reported per file");
    assert_eq!(get(&ws, "/proj/src/main.rs"), "fn main() {}\n");
    assert_eq!(ws.stat("/proj/run.sh").unwrap().mode, 0o755);
    assert_eq!(ws.readlink("/proj/escape").unwrap(), "/etc/passwd");
    assert_eq!(get(&ws, "/proj/link"), "fn main() {}\n");
    // The absolute link points inside the workspace now, not at the host.
    assert!(!ws.exists("/proj/escape").unwrap());

    let out = tempfile::tempdir().unwrap();
    let o = out.path().join("export");
    let stats = ws.export("/proj", &o).unwrap();
    assert_eq!((stats.files, stats.symlinks), (3, 2));
    assert_eq!(
        std::fs::read(o.join("src/deep/big.bin")).unwrap(),
        vec![3u8; 700_000]
    );
    assert_eq!(
        std::fs::read_link(o.join("escape")).unwrap().to_str(),
        Some("/etc/passwd")
    );
    let mode = std::fs::metadata(o.join("run.sh"))
        .unwrap()
        .permissions()
        .mode()
        & 0o777;
    assert_eq!(mode, 0o755);
}

#[test]
fn export_never_writes_through_host_symlinks() {
    let victim = tempfile::tempdir().unwrap();
    std::fs::write(victim.path().join("secret"), "original").unwrap();
    let out = tempfile::tempdir().unwrap();
    // The host dir already holds a symlink where the workspace has a file,
    // and a symlinked directory where the workspace has a directory.
    symlink(victim.path().join("secret"), out.path().join("secret")).unwrap();
    symlink(victim.path(), out.path().join("dir")).unwrap();

    let ws = ws();
    put(&ws, "/x/secret", "overwritten?");
    put(&ws, "/x/dir/secret", "overwritten?");
    ws.export("/x", out.path()).unwrap();
    assert_eq!(
        std::fs::read_to_string(victim.path().join("secret")).unwrap(),
        "original"
    );
    assert_eq!(
        std::fs::read_to_string(out.path().join("secret")).unwrap(),
        "overwritten?"
    );
    assert!(
        std::fs::symlink_metadata(out.path().join("dir"))
            .unwrap()
            .is_dir()
    );
}

#[test]
fn import_does_not_follow_symlinked_directories_out_of_the_tree() {
    let outside = tempfile::tempdir().unwrap();
    std::fs::write(outside.path().join("private"), "do not import").unwrap();
    let host = tempfile::tempdir().unwrap();
    symlink(outside.path(), host.path().join("out")).unwrap();
    std::fs::write(host.path().join("ok"), "fine").unwrap();
    let ws = ws();
    let stats = ws.import(host.path(), "/", &mut |_| {}).unwrap();
    assert_eq!((stats.files, stats.symlinks), (1, 1));
    assert_eq!(ws.lstat("/out").unwrap().kind, NodeKind::Symlink);
    assert!(
        ws.find("/", "**/private", Default::default())
            .unwrap()
            .entries
            .is_empty()
    );
}

#[test]
fn git_repositories_import_with_dot_git() {
    let host = tempfile::tempdir().unwrap();
    let ok = std::process::Command::new("git")
        .args(["init", "-q"])
        .current_dir(host.path())
        .status();
    if !matches!(ok, Ok(s) if s.success()) {
        eprintln!("SKIPPING: git is not installed");
        return;
    }
    std::fs::write(host.path().join("a.txt"), "a").unwrap();
    let ws = ws();
    ws.import(host.path(), "/repo", &mut |_| {}).unwrap();
    assert!(ws.exists("/repo/.git/HEAD").unwrap());
    assert_eq!(ws.stat("/repo/.git").unwrap().kind, NodeKind::Directory);
}

#[test]
fn workspace_persists_across_reopen() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("ws.db");
    {
        let ws = Workspace::open(&db).unwrap();
        put(&ws, "/keep/me", "still here");
        ws.set_readonly("/keep", true).unwrap();
    }
    let ws = Workspace::open(&db).unwrap();
    assert_eq!(get(&ws, "/keep/me"), "still here");
    assert_eq!(ws.readonly_paths().unwrap(), ["/keep"]);
    assert!(ws.rev().unwrap() >= 2);
}
