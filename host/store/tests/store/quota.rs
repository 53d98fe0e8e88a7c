//! The byte quota: writes past it fail with ENOSPC; removing always works.

use computer_store::{DEFAULT_QUOTA, Errno, Workspace, WriteOptions};

use crate::support::*;

fn bytes(n: usize, seed: u8) -> Vec<u8> {
    (0..n)
        .map(|i| (i as u8).wrapping_mul(31).wrapping_add(seed))
        .collect()
}

#[test]
fn a_new_workspace_has_the_default_quota_and_counts_stored_bytes() {
    let ws = ws();
    let q = ws.quota().unwrap();
    assert_eq!((q.limit, q.used), (DEFAULT_QUOTA, 0));
    ws.write("/a", &bytes(1000, 1), &Default::default())
        .unwrap();
    // A copy and an identical file share the stored chunk.
    ws.copy("/a", "/b", false).unwrap();
    ws.write("/c", &bytes(1000, 1), &Default::default())
        .unwrap();
    assert_eq!(ws.quota().unwrap().used, 1000);
    rmrf(&ws, "/a");
    rmrf(&ws, "/b");
    assert_eq!(ws.quota().unwrap().used, 1000);
    rmrf(&ws, "/c");
    assert_eq!(ws.quota().unwrap().used, 0);
}

#[test]
fn writes_past_the_quota_fail_with_enospc_naming_the_path() {
    let ws = ws();
    ws.set_quota(2500).unwrap();
    ws.write("/one", &bytes(2000, 1), &Default::default())
        .unwrap();
    let e = ws
        .write("/two", &bytes(1000, 2), &Default::default())
        .unwrap_err();
    assert_eq!(e.code, Errno::ENOSPC, "{e}");
    assert!(
        e.message.starts_with("no space left on device: /two (")
            && e.message.contains("quota of 2500 bytes"),
        "{e}"
    );
    assert!(!ws.exists("/two").unwrap(), "a failed write leaves nothing");
    for failing in [
        ws.append("/one", &bytes(600, 3)),
        ws.truncate("/one", 4000),
        ws.write_from("/three", &mut &bytes(900, 4)[..], &WriteOptions::default())
            .map(|_| ()),
    ] {
        assert_eq!(failing.unwrap_err().code, Errno::ENOSPC);
    }
    assert_eq!(ws.read("/one").unwrap(), bytes(2000, 1));
    // Removing frees the space at once.
    rmrf(&ws, "/one");
    ws.write("/two", &bytes(1000, 2), &Default::default())
        .unwrap();
}

#[test]
fn a_quota_below_use_still_lets_files_be_removed_and_shrunk() {
    let ws = ws();
    ws.write("/big", &bytes(5000, 1), &Default::default())
        .unwrap();
    ws.write("/other", &bytes(5000, 2), &Default::default())
        .unwrap();
    ws.set_quota(100).unwrap();
    assert_eq!(
        ws.write("/x", b"y", &Default::default()).unwrap_err().code,
        Errno::ENOSPC
    );
    ws.truncate("/other", 0).unwrap();
    rmrf(&ws, "/big");
    assert_eq!(ws.quota().unwrap().used, 0);
    ws.write("/x", b"y", &Default::default()).unwrap();
    assert!(ws.fsck().unwrap().is_clean());
}

#[test]
fn the_quota_is_kept_in_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("w.db");
    Workspace::open(&db).unwrap().set_quota(12345).unwrap();
    assert_eq!(Workspace::open(&db).unwrap().quota().unwrap().limit, 12345);
}
