//! Both directions against their full walks. The pull with a change list
//! from the watcher: after changes made directly in the copy (as a
//! container would), the watched pull must leave the workspace exactly as
//! the copy, with nothing left for a full scan to find. The push from the
//! workspace's change log: after changes made in the workspace, the copy
//! must match it, with nothing left for a full walk to find, having looked
//! at only what changed.

use std::collections::BTreeMap;
use std::os::unix::fs::{PermissionsExt, symlink};
use std::path::Path;

use computer_store::{MkdirOptions, NodeKind, Page, RmOptions, Workspace, WriteOptions};

use super::{Manifest, SyncReport, Syncer, Watcher, open_root};

const MOUNT: &str = "/workspace";

/// Kind, mode and content (or target) of every entry.
type Tree = BTreeMap<String, (char, u32, Vec<u8>)>;

fn ws_tree(ws: &Workspace, dir: &str, out: &mut Tree) {
    for st in ws.readdir(dir, Page::all()).unwrap() {
        let path = if dir == "/" {
            format!("/{}", st.name)
        } else {
            format!("{dir}/{}", st.name)
        };
        let (kind, data) = match st.kind {
            NodeKind::File => ('f', ws.read(&path).unwrap()),
            NodeKind::Directory => ('d', Vec::new()),
            NodeKind::Symlink => ('l', ws.readlink(&path).unwrap().into_bytes()),
        };
        let mode = if kind == 'l' { 0 } else { st.mode & 0o7777 };
        out.insert(path.clone(), (kind, mode, data));
        if kind == 'd' {
            ws_tree(ws, &path, out);
        }
    }
}

fn host_tree(root: &Path, dir: &Path, out: &mut Tree) {
    for e in std::fs::read_dir(dir).unwrap() {
        let e = e.unwrap();
        let path = e.path();
        let key = format!("/{}", path.strip_prefix(root).unwrap().display());
        let meta = std::fs::symlink_metadata(&path).unwrap();
        let mode = meta.permissions().mode() & 0o7777;
        if meta.is_dir() {
            out.insert(key, ('d', mode, Vec::new()));
            host_tree(root, &path, out);
        } else if meta.file_type().is_symlink() {
            let t = std::fs::read_link(&path).unwrap();
            let t = t.to_str().unwrap();
            let t = t
                .strip_prefix(MOUNT)
                .filter(|r| r.starts_with('/'))
                .unwrap_or(t);
            out.insert(key, ('l', 0, t.as_bytes().to_vec()));
        } else if meta.is_file() {
            out.insert(key, ('f', mode, std::fs::read(&path).unwrap()));
        }
    }
}

struct Setup {
    _tmp: tempfile::TempDir,
    copy: std::path::PathBuf,
    ws: Workspace,
    root: cap_std::fs::Dir,
    manifest: Manifest,
}

impl Setup {
    fn new() -> Self {
        let tmp = tempfile::tempdir().unwrap();
        let ws = Workspace::open(tmp.path().join("ws.db")).unwrap();
        let opts = WriteOptions {
            create_parents: true,
            ..Default::default()
        };
        for p in [
            "/a.txt",
            "/b.txt",
            "/edit.txt",
            "/mode.txt",
            "/dir/x",
            "/dir/sub/y",
            "/gone/z",
            "/gone/deep/w",
            "/swap/q",
            "/keep/k",
        ] {
            ws.write(p, format!("{p}\n").as_bytes(), &opts).unwrap();
        }
        let copy = tmp.path().join("copy");
        std::fs::create_dir(&copy).unwrap();
        let root = open_root(&copy).unwrap();
        let mut s = Setup {
            _tmp: tmp,
            copy,
            ws,
            root,
            manifest: Manifest::new("test".into()),
        };
        s.syncer(&mut SyncReport::default(), |sy| sy.push().unwrap());
        s
    }

    fn syncer<R>(&mut self, report: &mut SyncReport, f: impl FnOnce(&mut Syncer<'_>) -> R) -> R {
        let mut sy = Syncer {
            ws: &self.ws,
            root: &self.root,
            manifest: &mut self.manifest,
            owner: None,
            mount: MOUNT,
            report,
        };
        f(&mut sy)
    }

    fn assert_same(&self) {
        let mut w = Tree::new();
        ws_tree(&self.ws, "/", &mut w);
        let mut h = Tree::new();
        host_tree(&self.copy, &self.copy, &mut h);
        assert_eq!(w, h);
    }
}

/// What a container might do, in the copy.
fn change(c: &Path) {
    std::fs::write(c.join("new.txt"), "new\n").unwrap();
    std::fs::write(c.join("edit.txt"), "edited\n").unwrap();
    std::fs::remove_file(c.join("a.txt")).unwrap();
    std::fs::rename(c.join("b.txt"), c.join("renamed.txt")).unwrap();
    std::fs::set_permissions(c.join("mode.txt"), PermissionsExt::from_mode(0o700)).unwrap();
    std::fs::rename(c.join("dir"), c.join("moved")).unwrap();
    std::fs::write(c.join("moved/sub/after-move"), "m\n").unwrap();
    std::fs::remove_file(c.join("moved/sub/y")).unwrap();
    std::fs::set_permissions(c.join("moved/sub"), PermissionsExt::from_mode(0o750)).unwrap();
    std::fs::remove_dir_all(c.join("gone")).unwrap();
    std::fs::create_dir_all(c.join("made/deeper")).unwrap();
    std::fs::write(c.join("made/deeper/f"), "f\n").unwrap();
    symlink("/workspace/new.txt", c.join("made/abs-link")).unwrap();
    symlink("../keep", c.join("made/rel-link")).unwrap();
    std::fs::remove_dir_all(c.join("swap")).unwrap();
    std::fs::write(c.join("swap"), "now a file\n").unwrap();
    std::fs::hard_link(c.join("keep/k"), c.join("hard")).unwrap();
    rustix::fs::mknodat(
        rustix::fs::CWD,
        c.join("fifo"),
        rustix::fs::FileType::Fifo,
        rustix::fs::Mode::from_raw_mode(0o644),
        0,
    )
    .unwrap();
}

#[test]
fn a_watched_pull_applies_every_kind_of_change() {
    let mut s = Setup::new();
    s.assert_same();
    let mut w = Watcher::start(&s.root).unwrap();
    assert!(w.take(&s.root).is_none(), "not known before the first take");

    change(&s.copy);
    let dirty = w.take(&s.root).expect("watched");
    let dir_ino = s.ws.stat("/dir").unwrap().ino;
    let mut report = SyncReport::default();
    let retry = s.syncer(&mut report, |sy| sy.pull(None, Some(&dirty)).unwrap());
    assert!(report.pulled > 10, "{report:?}");
    assert!(
        report
            .skipped
            .iter()
            .any(|m| m.contains("/fifo") && m.contains("special file")),
        "{report:?}"
    );
    s.assert_same();
    // Renamed, not copied.
    assert_eq!(s.ws.stat("/moved").unwrap().ino, dir_ino);

    // Nothing left for the full scan but the fifo, reported again.
    let mut full = SyncReport::default();
    s.syncer(&mut full, |sy| sy.pull(None, None).unwrap());
    assert_eq!(full.pulled, 0, "{full:?}");
    assert_eq!(full.skipped.len(), 1, "{full:?}");

    // The next watched pull reports the fifo again, and sees later changes
    // in directories made or moved by the last run.
    w.recheck(retry);
    std::fs::write(s.copy.join("made/deeper/g"), "g\n").unwrap();
    std::fs::write(s.copy.join("moved/sub/y"), "changed\n").unwrap();
    std::fs::rename(s.copy.join("moved/sub"), s.copy.join("sub2")).unwrap();
    let dirty = w.take(&s.root).expect("watched");
    let mut report = SyncReport::default();
    let retry = s.syncer(&mut report, |sy| sy.pull(None, Some(&dirty)).unwrap());
    assert_eq!(report.skipped.len(), 1, "{report:?}");
    s.assert_same();

    // A write through one name of a hard-linked file changes the other.
    w.recheck(retry);
    std::fs::write(s.copy.join("hard"), "through the link\n").unwrap();
    let dirty = w.take(&s.root).expect("watched");
    let mut report = SyncReport::default();
    s.syncer(&mut report, |sy| sy.pull(None, Some(&dirty)).unwrap());
    assert_eq!(report.pulled, 2, "{report:?}");
    s.assert_same();

    // A push's own writes are seen too, and change nothing in a pull.
    s.ws.write("/keep/k", b"from the workspace\n", &Default::default())
        .unwrap();
    s.ws.mkdir("/pushed-dir", &Default::default()).unwrap();
    let mut pushed = SyncReport::default();
    s.syncer(&mut pushed, |sy| sy.push().unwrap());
    assert!(pushed.pushed >= 2, "{pushed:?}");
    w.drain(&s.root);
    std::fs::write(s.copy.join("pushed-dir/in"), "in\n").unwrap();
    let dirty = w.take(&s.root).expect("watched");
    let mut report = SyncReport::default();
    s.syncer(&mut report, |sy| sy.pull(None, Some(&dirty)).unwrap());
    assert_eq!(report.pulled, 1, "{report:?}");
    s.assert_same();
}

#[test]
fn a_pull_without_a_change_list_scans_everything() {
    let mut s = Setup::new();
    let mut w = Watcher::start(&s.root).unwrap();
    w.take(&s.root);
    change(&s.copy);
    // As after a queue overflow.
    w.set_broken();
    assert!(w.take(&s.root).is_none());
    let mut report = SyncReport::default();
    s.syncer(&mut report, |sy| sy.pull(None, None).unwrap());
    s.assert_same();
}

const PARENTS: WriteOptions = WriteOptions {
    mode: None,
    exclusive: false,
    create_parents: true,
};
const RECURSIVE: RmOptions = RmOptions {
    recursive: true,
    force: false,
};

/// What an agent might do in the workspace between two container execs.
fn change_workspace(ws: &Workspace) {
    let plain = WriteOptions::default();
    ws.write("/new.txt", b"new\n", &plain).unwrap();
    ws.write("/edit.txt", b"edited\n", &plain).unwrap();
    ws.append("/b.txt", b"more\n").unwrap();
    ws.truncate("/keep/k", 2).unwrap();
    ws.rm("/a.txt", RmOptions::default()).unwrap();
    ws.chmod("/mode.txt", 0o600).unwrap();
    ws.chmod("/dir/sub", 0o750).unwrap();
    ws.rename("/dir", "/moved").unwrap();
    ws.write("/moved/sub/after-move", b"m\n", &plain).unwrap();
    ws.rm("/gone", RECURSIVE).unwrap();
    let parents = MkdirOptions {
        recursive: true,
        mode: None,
    };
    ws.mkdir("/made/deeper", &parents).unwrap();
    ws.symlink("/new.txt", "/made/abs-link").unwrap();
    ws.symlink("../moved", "/made/rel-link").unwrap();
    ws.rm("/swap", RECURSIVE).unwrap();
    ws.write("/swap", b"now a file\n", &plain).unwrap();
    ws.copy("/moved", "/copied", true).unwrap();
    // Through a symlinked parent: the change is logged at /made/through.
    ws.symlink("/made", "/via").unwrap();
    ws.write("/via/through", b"t\n", &plain).unwrap();
    ws.set_mtime("/new.txt", 1_000_000_000).unwrap();
    // Removed and made again under the same name: the old entries go.
    ws.rm("/keep", RECURSIVE).unwrap();
    ws.write("/keep/fresh", b"f\n", &PARENTS).unwrap();
    // A file turned into a directory.
    ws.rm("/edit.txt", RmOptions::default()).unwrap();
    ws.write("/edit.txt/inside", b"i\n", &PARENTS).unwrap();
}

/// A full walk of the workspace after `s`'s copy was synced finds nothing to do.
fn assert_nothing_left(s: &mut Setup) {
    s.manifest.rev = None;
    let mut full = SyncReport::default();
    s.syncer(&mut full, |sy| sy.push().unwrap());
    assert_eq!(full.pushed, 0, "the full walk found more: {full:?}");
}

#[test]
fn a_push_from_the_change_log_applies_every_kind_of_workspace_change() {
    let mut s = Setup::new();
    let entries = s.manifest.entries.len() as u64;
    change_workspace(&s.ws);
    let mut report = SyncReport::default();
    s.syncer(&mut report, |sy| sy.push().unwrap());
    s.assert_same();
    assert!(report.pushed >= 15, "{report:?}");
    assert_nothing_left(&mut s);
    assert!(entries > 10, "{entries}");

    // Unchanged since: nothing looked at.
    let mut again = SyncReport::default();
    s.syncer(&mut again, |sy| sy.push().unwrap());
    assert_eq!((again.pushed, again.examined), (0, 0), "{again:?}");
}

#[test]
fn a_push_from_the_change_log_looks_only_at_what_changed() {
    let mut s = Setup::new();
    for i in 0..500 {
        s.ws.write(&format!("/big/d{}/f{i}", i % 10), b"x", &PARENTS)
            .unwrap();
    }
    let mut first = SyncReport::default();
    s.syncer(&mut first, |sy| sy.push().unwrap());
    assert!(first.examined > 500, "{first:?}");

    s.ws.write("/big/d3/f3", b"changed", &Default::default())
        .unwrap();
    let mut one = SyncReport::default();
    s.syncer(&mut one, |sy| sy.push().unwrap());
    assert_eq!((one.pushed, one.examined), (1, 1), "{one:?}");

    // A directory's own change (its mode) does not walk what it holds.
    s.ws.chmod("/big", 0o700).unwrap();
    let mut mode = SyncReport::default();
    s.syncer(&mut mode, |sy| sy.push().unwrap());
    assert_eq!((mode.pushed, mode.examined), (1, 1), "{mode:?}");
    let host_mode = std::fs::metadata(s.copy.join("big"))
        .unwrap()
        .permissions()
        .mode();
    assert_eq!(host_mode & 0o777, 0o700);

    // A moved directory is walked once, where it now is.
    s.ws.rename("/big/d4", "/d4").unwrap();
    let mut moved = SyncReport::default();
    s.syncer(&mut moved, |sy| sy.push().unwrap());
    assert!(moved.examined <= 52, "{moved:?}");
    s.assert_same();
    assert_nothing_left(&mut s);
}

#[test]
fn a_push_walks_everything_when_the_log_cannot_answer() {
    let mut s = Setup::new();
    let entries = s.manifest.entries.len() as u64;
    s.ws.write("/a.txt", b"changed\n", &Default::default())
        .unwrap();
    // A revision the log does not know (as after pruning).
    let rev = s.ws.rev().unwrap();
    s.manifest.rev = Some(rev + 1_000);
    let mut report = SyncReport::default();
    s.syncer(&mut report, |sy| sy.push().unwrap());
    assert_eq!(report.examined, entries, "{report:?}");
    assert_eq!(report.pushed, 1, "{report:?}");
    s.assert_same();
}

#[test]
fn a_pull_that_raced_a_workspace_change_leaves_the_push_incremental() {
    let mut s = Setup::new();
    let mut w = Watcher::start(&s.root).unwrap();
    w.take(&s.root);
    let rev_at_push = s.manifest.rev;
    assert!(rev_at_push.is_some());
    // While the command runs: it writes in the copy, the agent in the workspace.
    std::fs::write(s.copy.join("from-container"), "c\n").unwrap();
    s.ws.write("/from-agent", b"a\n", &Default::default())
        .unwrap();
    let dirty = w.take(&s.root).expect("watched");
    let mut report = SyncReport::default();
    s.syncer(&mut report, |sy| {
        sy.pull(rev_at_push, Some(&dirty)).unwrap()
    });
    assert_eq!(report.pulled, 1, "{report:?}");
    assert_eq!(
        s.manifest.rev, rev_at_push,
        "the copy still matches that revision"
    );

    let mut push = SyncReport::default();
    s.syncer(&mut push, |sy| sy.push().unwrap());
    assert_eq!((push.pushed, push.examined), (1, 2), "{push:?}");
    s.assert_same();
    assert_nothing_left(&mut s);
}

#[test]
fn a_directory_made_again_under_the_same_inode_loses_its_old_entries() {
    let mut s = Setup::new();
    s.ws.write("/last/old", b"o\n", &PARENTS).unwrap();
    s.syncer(&mut SyncReport::default(), |sy| sy.push().unwrap());
    let before = s.ws.stat("/last").unwrap().ino;
    s.ws.rm("/last", RECURSIVE).unwrap();
    s.ws.mkdir("/last", &MkdirOptions::default()).unwrap();
    // SQLite hands out the freed highest row id again: only the change
    // log's "subtree" mark says the directory's old contents are gone.
    assert_eq!(s.ws.stat("/last").unwrap().ino, before);
    let mut report = SyncReport::default();
    s.syncer(&mut report, |sy| sy.push().unwrap());
    assert!(!s.copy.join("last/old").exists(), "{report:?}");
    s.assert_same();
}

#[test]
fn a_directory_replaced_by_a_symlink_is_not_followed_and_needs_no_walk() {
    let mut s = Setup::new();
    // /dir/k is logged, then /dir becomes a link to /keep, which has a k.
    s.ws.write("/dir/k", b"new\n", &Default::default()).unwrap();
    s.ws.rm("/dir", RECURSIVE).unwrap();
    s.ws.symlink("/keep", "/dir").unwrap();
    let mut report = SyncReport::default();
    s.syncer(&mut report, |sy| sy.push().unwrap());
    s.assert_same();
    assert!(s.manifest.rev.is_some(), "complete: {report:?}");
    assert!(
        std::fs::symlink_metadata(s.copy.join("dir"))
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_nothing_left(&mut s);
}
