//! The host side of the sync: the copy under one `cap_std::fs::Dir`, so no
//! path, and no symlink the container made, can reach outside it. Symlinks
//! are read and written as links, never followed.

use std::collections::{BTreeMap, HashMap};
use std::io::{self, Read};
use std::path::Path;

use cap_std::fs::{Dir, Metadata, MetadataExt};
use sha2::{Digest, Sha256};

use super::manifest::{Kind, Meta, join, ws_path};
use super::watch::Dirty;

/// Who the synced files belong to on the host (so the container's user can
/// write them); `None` leaves them to this process's user.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Owner {
    pub uid: u32,
    pub gid: u32,
}

impl Owner {
    fn ids(self) -> (Option<rustix::fs::Uid>, Option<rustix::fs::Gid>) {
        (
            Some(rustix::fs::Uid::from_raw(self.uid)),
            Some(rustix::fs::Gid::from_raw(self.gid)),
        )
    }

    /// Changes the owner of an open file or directory (also an `O_PATH`
    /// one, as cap-std opens directories).
    pub fn chown_fd(self, fd: impl rustix::fd::AsFd) -> io::Result<()> {
        let (u, g) = self.ids();
        rustix::fs::chownat(fd, "", u, g, rustix::fs::AtFlags::EMPTY_PATH).map_err(io::Error::from)
    }

    /// Changes the owner of `key` itself (a symlink is not followed).
    pub fn chown_at(self, root: &Dir, key: &str) -> io::Result<()> {
        let (parent, name) = split(key);
        let (u, g) = self.ids();
        let flags = rustix::fs::AtFlags::SYMLINK_NOFOLLOW;
        if parent.is_empty() {
            rustix::fs::chownat(root, name, u, g, flags).map_err(io::Error::from)
        } else {
            let dir = root.open_dir(parent)?;
            rustix::fs::chownat(&dir, name, u, g, flags).map_err(io::Error::from)
        }
    }
}

/// (`a/b`, `c`) for `a/b/c`; (``, `c`) for `c`.
pub(crate) fn split(key: &str) -> (&str, &str) {
    match key.rfind('/') {
        Some(i) => (&key[..i], &key[i + 1..]),
        None => ("", key),
    }
}

pub(crate) fn kind_of(meta: &Metadata) -> Option<Kind> {
    let ft = meta.file_type();
    if ft.is_dir() {
        Some(Kind::Dir)
    } else if ft.is_symlink() {
        Some(Kind::Symlink)
    } else if ft.is_file() {
        Some(Kind::File)
    } else {
        None
    }
}

pub(crate) fn meta_of(meta: &Metadata) -> Meta {
    Meta {
        mode: meta.mode() & 0o7777,
        size: meta.len(),
        mtime_ns: (meta.mtime().max(0) as u64)
            .saturating_mul(1_000_000_000)
            .saturating_add(meta.mtime_nsec().max(0) as u64),
        ino: meta.ino(),
    }
}

pub(crate) fn std_meta_of(meta: std::fs::Metadata) -> Meta {
    meta_of(&Metadata::from_just_metadata(meta))
}

/// Removes whatever is at `key` (a directory with its contents); nothing
/// there is fine.
pub(crate) fn remove_any(root: &Dir, key: &str) -> io::Result<()> {
    match root.symlink_metadata(key) {
        Ok(m) if m.file_type().is_dir() => root.remove_dir_all(key),
        Ok(_) => root.remove_file(key),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(e),
    }
}

/// One entry of the host copy as scanned.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Scanned {
    pub kind: Kind,
    pub meta: Meta,
    /// Hard links to it: a change made through another name raises no
    /// event for this one.
    pub links: u64,
}

/// What a scan found: the entries, what it skipped (with the reason), and
/// the keys to look at again next time: what could not be synced (so it is
/// reported again) and files with more than one name (a write through one
/// name raises no event for the others).
#[derive(Debug, Default)]
pub(crate) struct ScanOut {
    pub entries: BTreeMap<String, Scanned>,
    pub skipped: Vec<String>,
    pub retry: Dirty,
}

/// Lists the whole copy (never following symlinks). Special files and
/// names that are not UTF-8 are left out and reported in `skipped`.
pub(crate) fn scan(root: &Dir) -> ScanOut {
    let mut out = ScanOut::default();
    scan_dir(root, "", &mut out);
    out
}

/// Lists only the entries of `dirty` (normalized): its paths, and its
/// trees whole. Directories are opened without following symlinks, so a
/// key whose parent is no longer a directory is absent.
pub(crate) fn scan_dirty(root: &Dir, dirty: &Dirty) -> ScanOut {
    let mut out = ScanOut::default();
    if dirty.is_everything() {
        scan_dir(root, "", &mut out);
        return out;
    }
    let mut lookup = Lookup::new(root);
    for key in dirty.paths.iter().chain(dirty.trees.iter()) {
        match lookup.entry(key) {
            Ok(Found::Entry(node)) => {
                if node.kind != Kind::Dir && node.links > 1 {
                    out.retry.mark_path(key);
                }
                out.entries.insert(key.clone(), node);
            }
            Ok(Found::Absent) => {}
            Ok(Found::Special) => {
                out.skipped.push(format!(
                    "{}: special file (fifo, socket or device) not synced",
                    ws_path(key)
                ));
                out.retry.mark_path(key);
            }
            Err(e) => {
                out.skipped
                    .push(format!("{}: cannot read its metadata ({e})", ws_path(key)));
                out.retry.mark_path(key);
            }
        }
    }
    for key in &dirty.trees {
        if out.entries.get(key).is_some_and(|n| n.kind == Kind::Dir) {
            match super::watch::open_dir_strict(root, key) {
                Ok(dir) => scan_dir(&dir, key, &mut out),
                Err(e) if gone(&e) => {
                    out.entries.remove(key);
                }
                Err(e) => {
                    out.skipped
                        .push(format!("{}: cannot open the directory ({e})", ws_path(key)));
                    out.retry.mark_tree(key);
                }
            }
        }
    }
    out
}

/// The error of a path that is not (or no longer) there as a directory.
pub(crate) fn gone(e: &io::Error) -> bool {
    use rustix::io::Errno;
    e.kind() == io::ErrorKind::NotFound
        || matches!(
            e.raw_os_error().map(Errno::from_raw_os_error),
            Some(Errno::NOENT | Errno::NOTDIR | Errno::LOOP)
        )
}

/// What is at a key of the copy.
pub(crate) enum Found {
    Entry(Scanned),
    /// A fifo, socket or device.
    Special,
    Absent,
}

/// Looks up single entries of the copy, opening their parents without
/// following symlinks (and keeping them open for the next lookup).
pub(crate) struct Lookup<'a> {
    root: &'a Dir,
    parents: HashMap<String, Option<Dir>>,
}

impl<'a> Lookup<'a> {
    pub fn new(root: &'a Dir) -> Self {
        Lookup {
            root,
            parents: HashMap::new(),
        }
    }

    pub fn entry(&mut self, key: &str) -> io::Result<Found> {
        let (parent, name) = split(key);
        let meta = if parent.is_empty() {
            self.root.symlink_metadata(name)
        } else {
            if !self.parents.contains_key(parent) {
                let dir = match super::watch::open_dir_strict(self.root, parent) {
                    Ok(d) => Some(d),
                    Err(e) if gone(&e) => None,
                    Err(e) => return Err(e),
                };
                self.parents.insert(parent.to_owned(), dir);
            }
            match &self.parents[parent] {
                // A single component: nothing is followed.
                Some(dir) => dir.symlink_metadata(name),
                None => return Ok(Found::Absent),
            }
        };
        match meta {
            Ok(m) => Ok(match kind_of(&m) {
                Some(kind) => Found::Entry(Scanned {
                    kind,
                    meta: meta_of(&m),
                    links: m.nlink(),
                }),
                None => Found::Special,
            }),
            Err(e) if gone(&e) => Ok(Found::Absent),
            Err(e) => Err(e),
        }
    }
}

fn scan_dir(dir: &Dir, prefix: &str, out: &mut ScanOut) {
    let shown = if prefix.is_empty() {
        "/".to_owned()
    } else {
        ws_path(prefix)
    };
    let entries = match dir.entries() {
        Ok(e) => e,
        Err(e) => {
            out.skipped
                .push(format!("{shown}: cannot list the directory ({e})"));
            out.retry.mark_tree(prefix);
            return;
        }
    };
    for entry in entries {
        let entry = match entry {
            Ok(e) => e,
            Err(e) => {
                out.skipped
                    .push(format!("{shown}: cannot list the directory ({e})"));
                out.retry.mark_tree(prefix);
                continue;
            }
        };
        let os_name = entry.file_name();
        let Some(name) = os_name.to_str() else {
            out.skipped.push(format!(
                "{}: the name is not UTF-8",
                ws_path(&join(prefix, &os_name.to_string_lossy()))
            ));
            out.retry.mark_tree(prefix);
            continue;
        };
        let key = join(prefix, name);
        // fstatat of the entry itself: one call, never following a link.
        let meta = match entry.metadata() {
            Ok(m) => m,
            // Gone since it was listed.
            Err(e) if e.kind() == io::ErrorKind::NotFound => continue,
            Err(e) => {
                out.skipped
                    .push(format!("{}: cannot read its metadata ({e})", ws_path(&key)));
                out.retry.mark_path(&key);
                continue;
            }
        };
        let Some(kind) = kind_of(&meta) else {
            out.skipped.push(format!(
                "{}: special file (fifo, socket or device) not synced",
                ws_path(&key)
            ));
            out.retry.mark_path(&key);
            continue;
        };
        out.entries.insert(
            key.clone(),
            Scanned {
                kind,
                meta: meta_of(&meta),
                links: meta.nlink(),
            },
        );
        if kind != Kind::Dir && meta.nlink() > 1 {
            out.retry.mark_path(&key);
        }
        if kind == Kind::Dir {
            match dir.open_dir(name) {
                Ok(sub) => scan_dir(&sub, &key, out),
                Err(e) => {
                    out.skipped.push(format!(
                        "{}: cannot open the directory ({e})",
                        ws_path(&key)
                    ));
                    out.retry.mark_tree(&key);
                }
            }
        }
    }
}

/// sha256 of a host file's content, in hex.
pub(crate) fn hash_file(root: &Dir, key: &str) -> io::Result<String> {
    let mut file = root.open(key)?.into_std();
    let mut reader = HashingReader::new(&mut file);
    io::copy(&mut reader, &mut io::sink())?;
    Ok(reader.hex())
}

/// A reader that hashes what passes through it.
pub(crate) struct HashingReader<'a> {
    inner: &'a mut dyn Read,
    hasher: Sha256,
}

impl<'a> HashingReader<'a> {
    pub fn new(inner: &'a mut dyn Read) -> Self {
        HashingReader {
            inner,
            hasher: Sha256::new(),
        }
    }

    pub fn hex(self) -> String {
        hex(&self.hasher.finalize())
    }
}

impl Read for HashingReader<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.hasher.update(&buf[..n]);
        Ok(n)
    }
}

pub(crate) fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write as _;
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        let _ = write!(s, "{b:02x}");
    }
    s
}

/// Symlink targets: an absolute workspace target is absolute in the
/// workspace, so in the container it lives under the mount point.
pub(crate) fn target_to_host(target: &str, mount: &str) -> String {
    if target == "/" {
        mount.to_owned()
    } else if target.starts_with('/') {
        format!("{mount}{target}")
    } else {
        target.to_owned()
    }
}

/// The reverse of [`target_to_host`]; an absolute target outside the mount
/// is kept as it is (it dangles in the workspace).
pub(crate) fn target_to_ws(target: &str, mount: &str) -> String {
    if target == mount {
        "/".to_owned()
    } else if let Some(rest) = target.strip_prefix(mount).filter(|r| r.starts_with('/')) {
        rest.to_owned()
    } else {
        target.to_owned()
    }
}

/// Opens the copy's root directory.
pub(crate) fn open_root(path: &Path) -> io::Result<Dir> {
    Dir::open_ambient_dir(path, cap_std::ambient_authority())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symlink_targets_round_trip_through_the_mount() {
        for t in ["/", "/a/b", "rel/x", "../up"] {
            assert_eq!(
                target_to_ws(&target_to_host(t, "/workspace"), "/workspace"),
                t
            );
        }
        assert_eq!(target_to_ws("/workspacex", "/workspace"), "/workspacex");
        assert_eq!(target_to_ws("/usr/bin/env", "/workspace"), "/usr/bin/env");
        assert_eq!(split("a/b/c"), ("a/b", "c"));
        assert_eq!(split("c"), ("", "c"));
    }
}
