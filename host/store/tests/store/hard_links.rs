//! Hard links: one node with several names, beside copy-on-write copies.

use crate::support::*;
use computer_store::{Errno, MkdirOptions, Patch, RmOptions, Workspace, WriteOptions};

#[track_caller]
fn clean(ws: &Workspace) {
    let report = ws.fsck().unwrap();
    assert!(report.is_clean(), "fsck: {:?}", report.problems);
}

fn nlink(ws: &Workspace, path: &str) -> u64 {
    ws.lstat(path).unwrap().nlink
}

#[test]
fn a_write_through_one_name_is_seen_through_the_other() {
    let ws = ws();
    put(&ws, "/a/file", "one");
    mkdirp(&ws, "/b");
    ws.link("/a/file", "/b/name").unwrap();
    assert_eq!(nlink(&ws, "/a/file"), 2);
    assert_eq!(
        ws.stat("/a/file").unwrap().ino,
        ws.stat("/b/name").unwrap().ino
    );
    put(&ws, "/b/name", "two");
    assert_eq!(get(&ws, "/a/file"), "two");
    ws.append("/a/file", b"+").unwrap();
    assert_eq!(get(&ws, "/b/name"), "two+");
    ws.truncate("/b/name", 1).unwrap();
    assert_eq!(get(&ws, "/a/file"), "t");
    ws.chmod("/b/name", 0o600).unwrap();
    assert_eq!(ws.stat("/a/file").unwrap().mode, 0o600);
    // Streamed whole-file writes replace content in place too.
    ws.write_from("/a/file", &mut &b"streamed"[..], &WriteOptions::default())
        .unwrap();
    assert_eq!(get(&ws, "/b/name"), "streamed");
    // An open file's commit (a patch) lands on the shared node.
    let page: &[u8] = b"PATCHED!";
    let pages = [(0u64, page)];
    let change = Patch {
        size: 8,
        keep: 8,
        pages: &pages,
    };
    ws.patch("/b/name", &change).unwrap();
    assert_eq!(get(&ws, "/a/file"), "PATCHED!");
    clean(&ws);
}

#[test]
fn unlinking_one_name_leaves_the_other() {
    let ws = ws();
    put(&ws, "/f", "data");
    ws.link("/f", "/g").unwrap();
    ws.rm("/f", RmOptions::default()).unwrap();
    assert_eq!(get(&ws, "/g"), "data");
    assert_eq!(nlink(&ws, "/g"), 1);
    clean(&ws);
    // Renaming over a name drops one link as well.
    ws.link("/g", "/h").unwrap();
    put(&ws, "/other", "x");
    ws.rename("/other", "/h").unwrap();
    assert_eq!(nlink(&ws, "/g"), 1);
    assert_eq!(get(&ws, "/g"), "data");
    clean(&ws);
    // The last name goes with the node and its content.
    ws.rm("/g", RmOptions::default()).unwrap();
    ws.rm("/h", RmOptions::default()).unwrap();
    assert_eq!(ws.fsck().unwrap().nodes, 1);
    clean(&ws);
}

#[test]
fn link_refuses_as_link_2_does() {
    let ws = ws();
    put(&ws, "/f", "data");
    put(&ws, "/exists", "x");
    mkdirp(&ws, "/dir");
    assert_err(ws.link("/f", "/exists"), Errno::EEXIST, "/exists");
    assert_err(ws.link("/f", "/f"), Errno::EEXIST, "/f");
    assert_err(ws.link("/f", "/dir"), Errno::EEXIST, "/dir");
    assert_err(ws.link("/dir", "/d2"), Errno::EPERM, "/dir");
    assert_err(ws.link("/missing", "/m"), Errno::ENOENT, "/missing");
    assert_err(ws.link("/f", "/nodir/x"), Errno::ENOENT, "/nodir/x");
    assert_err(ws.link("/f", "/new/"), Errno::ENOENT, "/new");
    assert_err(ws.link("/f/", "/new"), Errno::ENOTDIR, "/f");
    assert_err(ws.link("/f", "/"), Errno::EEXIST, "/");
    // A symlink is linked itself, dangling or not.
    ws.symlink("nowhere", "/dangling").unwrap();
    ws.link("/dangling", "/also").unwrap();
    assert_eq!(ws.readlink("/also").unwrap(), "nowhere");
    assert_eq!(nlink(&ws, "/dangling"), 2);
    // A read-only subtree's file gets no name outside it.
    put(&ws, "/ro/file", "locked");
    ws.set_readonly("/ro", true).unwrap();
    assert_err(ws.link("/ro/file", "/out"), Errno::EROFS, "/ro/file");
    assert_err(ws.link("/f", "/ro/in"), Errno::EROFS, "/ro/in");
    clean(&ws);
}

#[test]
fn a_copy_of_a_directory_with_hard_links_is_its_own() {
    let ws = ws();
    put(&ws, "/src/deep/a", "shared");
    mkdirp(&ws, "/src/other");
    ws.link("/src/deep/a", "/src/other/b").unwrap();
    put(&ws, "/src/plain", "plain");
    ws.copy("/src", "/dst", true).unwrap();
    clean(&ws);
    // The copy keeps its own two names linked...
    assert_eq!(nlink(&ws, "/dst/deep/a"), 2);
    put(&ws, "/dst/other/b", "copy");
    assert_eq!(get(&ws, "/dst/deep/a"), "copy");
    // ...and the original does not see it.
    assert_eq!(get(&ws, "/src/deep/a"), "shared");
    assert_eq!(get(&ws, "/src/other/b"), "shared");
    put(&ws, "/src/deep/a", "orig");
    assert_eq!(get(&ws, "/src/other/b"), "orig");
    assert_eq!(get(&ws, "/dst/other/b"), "copy");
    assert_eq!(get(&ws, "/dst/plain"), "plain");
    clean(&ws);
}

#[test]
fn a_link_made_inside_a_copied_tree_stays_inside_that_copy() {
    let ws = ws();
    put(&ws, "/src/f", "v1");
    ws.copy("/src", "/dst", true).unwrap();
    ws.link("/dst/f", "/dst/g").unwrap();
    clean(&ws);
    put(&ws, "/dst/g", "v2");
    assert_eq!(get(&ws, "/dst/f"), "v2");
    assert_eq!(get(&ws, "/src/f"), "v1");
    // Copy the tree holding the link, then write through the copy.
    ws.copy("/dst", "/third", true).unwrap();
    put(&ws, "/third/f", "v3");
    assert_eq!(get(&ws, "/third/g"), "v3");
    assert_eq!(get(&ws, "/dst/g"), "v2");
    assert_eq!(get(&ws, "/src/f"), "v1");
    // A linked file copied alone is a new file with one name.
    ws.copy("/dst/f", "/single", false).unwrap();
    assert_eq!(nlink(&ws, "/single"), 1);
    put(&ws, "/single", "alone");
    assert_eq!(get(&ws, "/dst/g"), "v2");
    // Removing a tree drops the links it held.
    ws.link("/dst/f", "/outside").unwrap();
    ws.rm(
        "/dst",
        RmOptions {
            recursive: true,
            force: false,
        },
    )
    .unwrap();
    assert_eq!(nlink(&ws, "/outside"), 1);
    assert_eq!(get(&ws, "/outside"), "v2");
    clean(&ws);
}

#[test]
fn a_link_into_a_shared_directory_unshares_it_first() {
    let ws = ws();
    put(&ws, "/a/f", "a");
    ws.copy("/a", "/b", true).unwrap();
    ws.mkdir("/a/sub", &MkdirOptions::default()).unwrap();
    // /b still shares /a's old node; link across them.
    ws.link("/b/f", "/a/sub/g").unwrap();
    put(&ws, "/a/sub/g", "through a");
    assert_eq!(get(&ws, "/b/f"), "through a");
    assert_eq!(get(&ws, "/a/f"), "a");
    clean(&ws);
}

#[test]
fn setting_only_the_mtime_keeps_the_atime() {
    let ws = ws();
    put(&ws, "/f", "x");
    let before = ws.stat("/f").unwrap();
    assert_eq!(before.atime_ns, before.mtime_ns);
    ws.set_times("/f", None, Some(before.mtime_ns - 2_000_000), true)
        .unwrap();
    let after = ws.stat("/f").unwrap();
    assert_eq!(after.mtime_ns, before.mtime_ns - 2_000_000);
    assert_eq!(after.atime_ns, before.mtime_ns);
    ws.set_times("/f", Some(7), None, true).unwrap();
    let after = ws.stat("/f").unwrap();
    assert_eq!(
        (after.atime_ns, after.mtime_ns),
        (7, before.mtime_ns - 2_000_000)
    );
    ws.symlink("f", "/l").unwrap();
    ws.set_times("/l", Some(3), Some(4), false).unwrap();
    let own = ws.lstat("/l").unwrap();
    assert_eq!((own.atime_ns, own.mtime_ns), (3, 4));
    assert_eq!(ws.stat("/l").unwrap().atime_ns, 7);
    assert_err(
        ws.set_times("/none", Some(1), None, true),
        Errno::ENOENT,
        "/none",
    );
    clean(&ws);
}
