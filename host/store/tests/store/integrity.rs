//! Chunks are checked against their sha256 on every read, and `fsck`
//! finds damage in the tree, the reference counts and the chunks.

use computer_store::{Errno, Workspace};

use crate::support::*;

/// A workspace file holding `/f` (two chunks) and a copy of it.
fn on_disk() -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("w.db");
    let ws = Workspace::open(&db).unwrap();
    let mut data = vec![7u8; 300_000];
    data[299_999] = 8;
    ws.write("/f", &data, &Default::default()).unwrap();
    ws.copy("/f", "/g", false).unwrap();
    put(&ws, "/d/small.txt", "small\n");
    (dir, db)
}

/// Changes the bytes of every chunk in `db` behind the store's back, as bit rot would.
fn flip_chunk_bytes(db: &std::path::Path, where_size: &str) {
    let conn = rusqlite::Connection::open(db).unwrap();
    let n = conn
        .execute(
            &format!("UPDATE chunks SET data = zeroblob(size) WHERE {where_size}"),
            [],
        )
        .unwrap();
    assert!(n > 0, "no chunk changed");
}

#[test]
fn a_chunk_whose_bytes_changed_fails_every_read_with_eio() {
    let (_dir, db) = on_disk();
    flip_chunk_bytes(&db, "size = 262144");
    let ws = Workspace::open(&db).unwrap();
    for path in ["/f", "/g"] {
        let e = ws.read(path).unwrap_err();
        assert_eq!(e.code, Errno::EIO, "{e}");
        assert!(
            e.message.contains(path) && e.message.contains("checksum"),
            "{e}"
        );
        let e = ws.read_range(path, 10, Some(5)).unwrap_err();
        assert_eq!(e.code, Errno::EIO, "{e}");
        let e = ws.read_each(path, &mut |_| Ok(())).unwrap_err();
        assert_eq!(e.code, Errno::EIO, "{e}");
    }
    // The undamaged last chunk and other files still read.
    assert_eq!(ws.read_range("/f", 299_999, None).unwrap(), [8]);
    assert_eq!(get(&ws, "/d/small.txt"), "small\n");
    // Appending rebuilds the short last chunk, which is sound: allowed.
    ws.append("/d/small.txt", b"more\n").unwrap();
}

#[test]
fn fsck_of_a_sound_workspace_is_clean() {
    let (_dir, db) = on_disk();
    let ws = Workspace::open(&db).unwrap();
    ws.rename("/d", "/e").unwrap();
    ws.write("/g", b"diverged", &Default::default()).unwrap();
    ws.symlink("/e/small.txt", "/link").unwrap();
    rmrf(&ws, "/f");
    let report = ws.fsck().unwrap();
    assert!(report.is_clean(), "{:?}", report.problems);
    // root, /e, /e/small.txt, /g, /link
    assert_eq!((report.nodes, report.entries, report.chunks), (5, 4, 2));
}

#[test]
fn fsck_reports_changed_chunks() {
    let (_dir, db) = on_disk();
    flip_chunk_bytes(&db, "size = 262144");
    let report = Workspace::open(&db).unwrap().fsck().unwrap();
    assert!(!report.is_clean());
    assert_eq!(report.problems.len(), 1, "{:?}", report.problems);
    assert!(
        report.problems[0].contains("does not match its sha256"),
        "{:?}",
        report.problems
    );
}

#[test]
fn fsck_reports_broken_tree_and_reference_counts() {
    let (_dir, db) = on_disk();
    {
        let conn = rusqlite::Connection::open(&db).unwrap();
        conn.execute_batch(
            "UPDATE nodes SET refs = refs + 3 WHERE id = (SELECT child FROM dentries WHERE name = 'small.txt');
             INSERT INTO nodes (id, kind, mode, size, mtime_ns, refs) VALUES (900, 2, 493, 0, 0, 1);
             INSERT INTO dentries (dir, name, child) VALUES (1, 'ghost', 901);
             UPDATE chunks SET refs = refs + 1 WHERE size < 262144;
             UPDATE nodes SET size = size + 1 WHERE id = (SELECT child FROM dentries WHERE name = 'f');",
        )
        .unwrap();
    }
    let report = Workspace::open(&db).unwrap().fsck().unwrap();
    let all = report.problems.join("\n");
    for expected in [
        "records 4 references, 1 entries point at it",
        "points at node 901, which does not exist",
        "node 900 cannot be reached from the root",
        "records 1 references, 0 entries point at it",
        "records 300001 bytes, its chunks hold 300000",
    ] {
        assert!(all.contains(expected), "missing {expected:?} in\n{all}");
    }
    assert!(all.contains("references, it is used"), "{all}");
}

#[test]
fn fsck_finds_a_directory_inside_itself() {
    let (_dir, db) = on_disk();
    {
        let conn = rusqlite::Connection::open(&db).unwrap();
        // /d/loop -> /d, with /d's count raised so only the cycle is wrong.
        conn.execute_batch(
            "INSERT INTO dentries (dir, name, child) SELECT child, 'loop', child FROM dentries WHERE dir = 1 AND name = 'd';
             UPDATE nodes SET refs = 2 WHERE id = (SELECT child FROM dentries WHERE dir = 1 AND name = 'd');",
        )
        .unwrap();
    }
    let report = Workspace::open(&db).unwrap().fsck().unwrap();
    assert_eq!(report.problems.len(), 1, "{:?}", report.problems);
    assert!(
        report.problems[0].contains("is inside itself"),
        "{:?}",
        report.problems
    );
}

#[test]
fn fsck_finds_a_path_bound_below_the_longest_path() {
    let (_dir, db) = on_disk();
    assert!(Workspace::open(&db).unwrap().fsck().unwrap().is_clean());
    rusqlite::Connection::open(&db)
        .unwrap()
        .execute("UPDATE workspace SET path_bound = 3", [])
        .unwrap();
    let report = Workspace::open(&db).unwrap().fsck().unwrap();
    // "/d/small.txt" is the longest path: 12 bytes.
    assert_eq!(
        report.problems,
        [
            "path bound: the workspace records 3 bytes as its longest path, but one of 12 bytes is stored"
        ]
    );
}

#[test]
fn a_chunk_stored_before_crcs_is_checked_by_its_sha256() {
    let (_dir, db) = on_disk();
    // What migration 0011 leaves for older chunks: no CRC.
    flip_chunk_bytes(&db, "size = 262144");
    rusqlite::Connection::open(&db)
        .unwrap()
        .execute("UPDATE chunks SET crc = NULL", [])
        .unwrap();
    let ws = Workspace::open(&db).unwrap();
    assert_eq!(ws.read("/f").unwrap_err().code, Errno::EIO);
    assert_eq!(get(&ws, "/d/small.txt"), "small\n");
}

#[test]
fn fsck_checks_the_crc_too() {
    let (_dir, db) = on_disk();
    rusqlite::Connection::open(&db)
        .unwrap()
        .execute("UPDATE chunks SET crc = crc + 1 WHERE size = 262144", [])
        .unwrap();
    let ws = Workspace::open(&db).unwrap();
    assert_eq!(ws.read("/f").unwrap_err().code, Errno::EIO);
    let report = ws.fsck().unwrap();
    assert_eq!(report.problems.len(), 1, "{:?}", report.problems);
    assert!(
        report.problems[0].contains("does not match its crc32"),
        "{:?}",
        report.problems
    );
}
