//! The pull with a change list from the watcher against the full scan:
//! after changes made directly in the copy (as a container would), the
//! watched pull must leave the workspace exactly as the copy, with nothing
//! left for a full scan to find.

use std::collections::BTreeMap;
use std::os::unix::fs::{PermissionsExt, symlink};
use std::path::Path;

use computer_store::{NodeKind, Page, Workspace, WriteOptions};

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

    fn syncer<R>(&mut self, report: &mut SyncReport, f: impl FnOnce(&mut Syncer) -> R) -> R {
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
