//! Change tracking on the host copy with inotify, so a pull looks only at
//! what changed instead of scanning the whole copy.
//!
//! A [`Watcher`] holds one inotify instance with a watch on every directory
//! of the copy. It lives as long as the backend (one per copy), so its
//! watches are added once; events queue in the kernel between execs and
//! are read when a pull takes the changes. The container's writes go
//! through the bind mount to the same inodes, so they raise events here.
//!
//! Whenever the watcher cannot vouch for having seen everything since the
//! last pull (just started, queue overflow, a watch that could not be
//! added, the copy's root itself removed), [`Watcher::take`] answers `None`
//! and the pull scans the whole copy, as without a watcher.
//!
//! Directories are opened one component at a time with `O_NOFOLLOW`
//! relative to the copy's root, so a symlink the container made is never
//! followed; watches are added through `/proc/self/fd`, on the directory
//! actually opened.

use std::collections::{BTreeSet, HashMap};
use std::io;
use std::mem::MaybeUninit;

use cap_std::fs::Dir;
use rustix::fd::{AsFd, AsRawFd, OwnedFd};
use rustix::fs::inotify::{self, CreateFlags, ReadFlags, WatchFlags};
use rustix::io::Errno;

use super::manifest::join;

/// Paths of the copy that may have changed since the last pull.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Dirty {
    /// Entries to look at (the entry itself, not its children).
    pub paths: BTreeSet<String>,
    /// Subtrees to scan whole (the entry and everything below it); `""` is
    /// the whole copy.
    pub trees: BTreeSet<String>,
}

impl Dirty {
    pub fn mark_path(&mut self, key: &str) {
        if !key.is_empty() {
            self.paths.insert(key.to_owned());
        }
    }

    pub fn mark_tree(&mut self, key: &str) {
        self.trees.insert(key.to_owned());
    }

    pub fn extend(&mut self, other: Dirty) {
        self.paths.extend(other.paths);
        self.trees.extend(other.trees);
    }

    /// True if the whole copy is to be scanned.
    pub fn is_everything(&self) -> bool {
        self.trees.contains("")
    }

    /// The same set without trees inside other trees and without paths
    /// inside trees.
    pub fn normalized(&self) -> Dirty {
        let mut trees: BTreeSet<String> = BTreeSet::new();
        for t in &self.trees {
            if !Self::in_trees(&trees, t) {
                trees.insert(t.clone());
            }
        }
        // A tree that sorts after one inside it (`a` < `a/b`, so only
        // ancestors come first): the pass above already dropped those.
        let paths = self
            .paths
            .iter()
            .filter(|p| !Self::in_trees(&trees, p))
            .cloned()
            .collect();
        Dirty { paths, trees }
    }

    fn in_trees(trees: &BTreeSet<String>, key: &str) -> bool {
        if trees.contains("") {
            return true;
        }
        let mut k = key;
        loop {
            if trees.contains(k) {
                return true;
            }
            match k.rfind('/') {
                Some(i) => k = &k[..i],
                None => return false,
            }
        }
    }

    /// True if a scan of this set looks at `key`.
    pub fn covers(&self, key: &str) -> bool {
        self.paths.contains(key) || Self::in_trees(&self.trees, key)
    }
}

/// Opens the directory `key` of the copy without following any symlink
/// (every component must be a real directory).
pub(crate) fn open_dir_strict(root: &Dir, key: &str) -> io::Result<Dir> {
    let mut dir: Option<OwnedFd> = None;
    for name in key.split('/').filter(|n| !n.is_empty()) {
        if name == ".." || name == "." {
            return Err(io::Error::from(io::ErrorKind::InvalidInput));
        }
        let flags = rustix::fs::OFlags::DIRECTORY
            | rustix::fs::OFlags::NOFOLLOW
            | rustix::fs::OFlags::CLOEXEC
            | rustix::fs::OFlags::RDONLY;
        let next = match &dir {
            Some(d) => rustix::fs::openat(d, name, flags, rustix::fs::Mode::empty()),
            None => rustix::fs::openat(root, name, flags, rustix::fs::Mode::empty()),
        }
        .map_err(io::Error::from)?;
        dir = Some(next);
    }
    match dir {
        Some(fd) => Ok(Dir::from_std_file(std::fs::File::from(fd))),
        None => root.try_clone(),
    }
}

const EVENTS: WatchFlags = WatchFlags::CREATE
    .union(WatchFlags::DELETE)
    .union(WatchFlags::MODIFY)
    .union(WatchFlags::ATTRIB)
    .union(WatchFlags::MOVED_FROM)
    .union(WatchFlags::MOVED_TO)
    .union(WatchFlags::CLOSE_WRITE)
    .union(WatchFlags::DELETE_SELF)
    .union(WatchFlags::MOVE_SELF)
    .union(WatchFlags::ONLYDIR);

/// The watches on one copy, and what changed in it.
pub(crate) struct Watcher {
    fd: OwnedFd,
    /// Watch descriptor → the directory's key (`""`: the root).
    keys: HashMap<i32, String>,
    dirty: Dirty,
    /// Every change since the last [`take`](Self::take) was seen.
    whole: bool,
    /// An event may have been missed: the watcher must be replaced.
    broken: bool,
}

impl Watcher {
    /// Watches every directory of the copy. The first
    /// [`take`](Self::take) answers `None`: what changed before now is not
    /// known.
    pub fn start(root: &Dir) -> io::Result<Watcher> {
        let fd = inotify::init(CreateFlags::CLOEXEC | CreateFlags::NONBLOCK)?;
        let mut w = Watcher {
            fd,
            keys: HashMap::new(),
            dirty: Dirty::default(),
            whole: false,
            broken: false,
        };
        let dir = root.try_clone()?;
        w.watch_tree(&dir, "")?;
        Ok(w)
    }

    /// Number of watched directories.
    pub fn watches(&self) -> usize {
        self.keys.len()
    }

    /// True once the watcher can no longer vouch for its changes.
    pub fn is_broken(&self) -> bool {
        self.broken
    }

    /// Makes the next [`take`](Self::take) answer `None` (as after a queue
    /// overflow).
    pub fn set_broken(&mut self) {
        self.broken = true;
    }

    /// Adds entries to look at again in the next pull (ones the last pull
    /// could not sync, so they are reported again).
    pub fn recheck(&mut self, keys: Dirty) {
        self.dirty.extend(keys);
    }

    /// Watches `dir` (the directory `key`) and every directory below it.
    /// The watch is added before the directory is listed, so an entry made
    /// meanwhile raises an event.
    fn watch_tree(&mut self, dir: &Dir, key: &str) -> io::Result<()> {
        let proc_path = format!("/proc/self/fd/{}", dir.as_fd().as_raw_fd());
        let wd = inotify::add_watch(&self.fd, proc_path.as_str(), EVENTS)?;
        self.keys.insert(wd, key.to_owned());
        for entry in dir.entries()? {
            let entry = entry?;
            // d_type: a symlink is a symlink, never followed.
            let Ok(ft) = entry.file_type() else { continue };
            if !ft.is_dir() {
                continue;
            }
            let os_name = entry.file_name();
            // The pull skips (and reports) such names and their subtrees.
            let Some(name) = os_name.to_str() else {
                continue;
            };
            match open_dir_strict(dir, name) {
                Ok(sub) => self.watch_tree(&sub, &join(key, name))?,
                // Gone or replaced since it was listed: its events say so.
                Err(e)
                    if matches!(
                        e.raw_os_error().map(Errno::from_raw_os_error),
                        Some(Errno::NOENT | Errno::NOTDIR | Errno::LOOP)
                    ) => {}
                Err(e) => return Err(e),
            }
        }
        Ok(())
    }

    /// Reads the queued events into the dirty set (adding watches for new
    /// directories).
    pub fn drain(&mut self, root: &Dir) {
        if self.broken {
            return;
        }
        loop {
            let mut batch: Vec<(i32, ReadFlags, Option<Vec<u8>>)> = Vec::new();
            let mut buf = [MaybeUninit::<u8>::uninit(); 64 * 1024];
            let mut reader = inotify::Reader::new(&self.fd, &mut buf);
            let mut done = false;
            loop {
                match reader.next() {
                    Ok(ev) => {
                        batch.push((
                            ev.wd(),
                            ev.events(),
                            ev.file_name().map(|n| n.to_bytes().to_vec()),
                        ));
                        if reader.is_buffer_empty() {
                            break;
                        }
                    }
                    Err(Errno::AGAIN) => {
                        done = true;
                        break;
                    }
                    Err(Errno::INTR) => continue,
                    Err(e) => {
                        tracing::debug!("inotify read failed: {e}");
                        self.broken = true;
                        return;
                    }
                }
            }
            for (wd, mask, name) in batch {
                self.handle(root, wd, mask, name.as_deref());
                if self.broken {
                    return;
                }
            }
            if done {
                return;
            }
        }
    }

    fn handle(&mut self, root: &Dir, wd: i32, mask: ReadFlags, name: Option<&[u8]>) {
        if mask.contains(ReadFlags::QUEUE_OVERFLOW) {
            tracing::debug!("inotify queue overflow: the next pull scans the whole copy");
            self.broken = true;
            return;
        }
        let Some(dir_key) = self.keys.get(&wd).cloned() else {
            return;
        };
        if mask.contains(ReadFlags::IGNORED) {
            self.keys.remove(&wd);
            if dir_key.is_empty() {
                self.broken = true;
            }
            return;
        }
        if mask.intersects(ReadFlags::DELETE_SELF | ReadFlags::MOVE_SELF) {
            // A subdirectory's removal or move is reported by its parent.
            if dir_key.is_empty() {
                self.broken = true;
            }
            return;
        }
        let Some(name) = name else {
            // On the directory itself (its mode, say).
            self.dirty.mark_path(&dir_key);
            return;
        };
        // The directory's listing (and so its mtime) changed.
        self.dirty.mark_path(&dir_key);
        let Ok(name) = std::str::from_utf8(name) else {
            // The scan of the parent reports it.
            self.dirty.mark_tree(&dir_key);
            return;
        };
        let key = join(&dir_key, name);
        let is_dir = mask.contains(ReadFlags::ISDIR);
        if is_dir && mask.intersects(ReadFlags::CREATE | ReadFlags::MOVED_TO) {
            // Its contents were never watched (or were watched under
            // another name): scan it whole, and watch it from now on.
            self.dirty.mark_tree(&key);
            match open_dir_strict(root, &key) {
                Ok(dir) => {
                    if let Err(e) = self.watch_tree(&dir, &key) {
                        tracing::debug!("cannot watch {key}: {e}");
                        self.broken = true;
                    }
                }
                // Gone or replaced since: later events tell.
                Err(e)
                    if matches!(
                        e.raw_os_error().map(Errno::from_raw_os_error),
                        Some(Errno::NOENT | Errno::NOTDIR | Errno::LOOP)
                    ) => {}
                Err(e) => {
                    tracing::debug!("cannot open {key} to watch it: {e}");
                    self.broken = true;
                }
            }
            // Watches below that now point elsewhere are re-keyed by the
            // walk above (a watch is per inode); ones under the old name
            // that were not found again keep a stale key, which only makes
            // their events mark paths that are checked and found absent.
        } else if is_dir && mask.contains(ReadFlags::MOVED_FROM) {
            self.dirty.mark_tree(&key);
        } else {
            self.dirty.mark_path(&key);
        }
    }

    /// The changes since the last take, or `None` when they are not all
    /// known (then the caller scans the whole copy). Either way the next
    /// take starts from now.
    pub fn take(&mut self, root: &Dir) -> Option<Dirty> {
        self.drain(root);
        let dirty = std::mem::take(&mut self.dirty);
        let known = self.whole && !self.broken;
        self.whole = !self.broken;
        known.then(|| dirty.normalized())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn root() -> (tempfile::TempDir, Dir) {
        let tmp = tempfile::tempdir().unwrap();
        let dir = Dir::open_ambient_dir(tmp.path(), cap_std::ambient_authority()).unwrap();
        (tmp, dir)
    }

    #[test]
    fn normalized_drops_what_a_tree_covers() {
        let mut d = Dirty::default();
        for t in ["a/b", "a", "c/d"] {
            d.mark_tree(t);
        }
        for p in ["a/x", "ab", "c", "c/d/e"] {
            d.mark_path(p);
        }
        let n = d.normalized();
        assert_eq!(n.trees.iter().collect::<Vec<_>>(), ["a", "c/d"]);
        assert_eq!(n.paths.iter().collect::<Vec<_>>(), ["ab", "c"]);
        assert!(n.covers("a/b/c") && n.covers("c") && !n.covers("c/e"));
    }

    #[test]
    fn changes_are_collected_and_new_directories_watched() {
        let (tmp, dir) = root();
        let p = tmp.path();
        std::fs::create_dir_all(p.join("d/e")).unwrap();
        std::fs::write(p.join("d/f"), "f").unwrap();
        std::fs::write(p.join("top"), "t").unwrap();
        let mut w = Watcher::start(&dir).unwrap();
        assert_eq!(w.watches(), 3);
        // Not known before the first take.
        assert_eq!(w.take(&dir), None);

        std::fs::write(p.join("d/e/new"), "n").unwrap();
        std::fs::create_dir(p.join("made")).unwrap();
        std::fs::write(p.join("made/inside"), "i").unwrap();
        std::fs::rename(p.join("d"), p.join("moved")).unwrap();
        let d = w.take(&dir).unwrap();
        assert!(d.covers("d/e/new"), "{d:?}");
        assert!(
            d.trees.contains("made") && d.trees.contains("moved"),
            "{d:?}"
        );
        assert!(d.trees.contains("d"), "{d:?}");
        assert_eq!(w.watches(), 4);

        // Watches follow the move and the new directory.
        std::fs::write(p.join("moved/e/later"), "l").unwrap();
        std::fs::write(p.join("made/more"), "m").unwrap();
        std::os::unix::fs::symlink("/etc", p.join("made/link")).unwrap();
        std::fs::set_permissions(
            p.join("top"),
            std::os::unix::fs::PermissionsExt::from_mode(0o600),
        )
        .unwrap();
        let d = w.take(&dir).unwrap();
        for k in [
            "moved/e/later",
            "made/more",
            "made/link",
            "top",
            "moved/e",
            "made",
        ] {
            assert!(d.paths.contains(k), "{k}: {d:?}");
        }
        assert!(d.trees.is_empty(), "{d:?}");
        assert_eq!(w.take(&dir), Some(Dirty::default()));

        w.set_broken();
        std::fs::write(p.join("top"), "x").unwrap();
        assert_eq!(w.take(&dir), None);
    }

    /// Set-up of the watches against a full scan, on 1,000 directories of
    /// 10 files: `cargo test -p computer-container --lib -- --ignored
    /// --nocapture watch_cost`.
    #[test]
    #[ignore]
    fn watch_cost() {
        let (tmp, dir) = root();
        for d in 0..1000 {
            let p = tmp.path().join(format!("d{d}"));
            std::fs::create_dir(&p).unwrap();
            for f in 0..10 {
                std::fs::write(p.join(format!("f{f}")), "x").unwrap();
            }
        }
        let t = std::time::Instant::now();
        let mut w = Watcher::start(&dir).unwrap();
        let start = t.elapsed();
        let t = std::time::Instant::now();
        w.take(&dir);
        let take = t.elapsed();
        let t = std::time::Instant::now();
        let scanned = super::super::host::scan(&dir).entries.len();
        let scan = t.elapsed();
        let t = std::time::Instant::now();
        drop(w);
        let close = t.elapsed();
        eprintln!(
            "watch 1001 dirs: {start:?}; take with nothing changed: {take:?}; \
             close: {close:?}; full scan of {scanned} entries: {scan:?}"
        );
    }

    #[test]
    fn a_symlinked_directory_is_not_watched_through() {
        let (tmp, dir) = root();
        let outside = tempfile::tempdir().unwrap();
        std::os::unix::fs::symlink(outside.path(), tmp.path().join("link")).unwrap();
        let mut w = Watcher::start(&dir).unwrap();
        assert_eq!(w.watches(), 1);
        w.take(&dir);
        std::fs::write(outside.path().join("x"), "x").unwrap();
        assert_eq!(w.take(&dir), Some(Dirty::default()));
        assert!(open_dir_strict(&dir, "link").is_err());
    }
}
