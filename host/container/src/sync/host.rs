//! The host side of the sync: the copy under one `cap_std::fs::Dir`, so no
//! path, and no symlink the container made, can reach outside it. Symlinks
//! are read and written as links, never followed.

use std::collections::BTreeMap;
use std::io::{self, Read};
use std::path::Path;

use cap_std::fs::{Dir, Metadata, MetadataExt};
use sha2::{Digest, Sha256};

use super::manifest::{Kind, Meta, join, ws_path};

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

pub(crate) fn std_meta_of(meta: &std::fs::Metadata) -> Meta {
    use std::os::unix::fs::MetadataExt as _;
    Meta {
        mode: meta.mode() & 0o7777,
        size: meta.len(),
        mtime_ns: (meta.mtime().max(0) as u64)
            .saturating_mul(1_000_000_000)
            .saturating_add(meta.mtime_nsec().max(0) as u64),
        ino: meta.ino(),
    }
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
}

/// Lists the whole copy (never following symlinks). Special files and
/// names that are not UTF-8 are left out and reported in `skipped`.
pub(crate) fn scan(root: &Dir) -> (BTreeMap<String, Scanned>, Vec<String>) {
    let mut out = BTreeMap::new();
    let mut skipped = Vec::new();
    scan_dir(root, "", &mut out, &mut skipped);
    (out, skipped)
}

fn scan_dir(
    dir: &Dir,
    prefix: &str,
    out: &mut BTreeMap<String, Scanned>,
    skipped: &mut Vec<String>,
) {
    let shown = if prefix.is_empty() {
        "/".to_owned()
    } else {
        ws_path(prefix)
    };
    let entries = match dir.entries() {
        Ok(e) => e,
        Err(e) => {
            skipped.push(format!("{shown}: cannot list the directory ({e})"));
            return;
        }
    };
    for entry in entries {
        let entry = match entry {
            Ok(e) => e,
            Err(e) => {
                skipped.push(format!("{shown}: cannot list the directory ({e})"));
                continue;
            }
        };
        let os_name = entry.file_name();
        let Some(name) = os_name.to_str() else {
            skipped.push(format!(
                "{}: the name is not UTF-8",
                ws_path(&join(prefix, &os_name.to_string_lossy()))
            ));
            continue;
        };
        let key = join(prefix, name);
        // fstatat of the entry itself: one call, never following a link.
        let meta = match entry.metadata() {
            Ok(m) => m,
            // Gone since it was listed.
            Err(e) if e.kind() == io::ErrorKind::NotFound => continue,
            Err(e) => {
                skipped.push(format!("{}: cannot read its metadata ({e})", ws_path(&key)));
                continue;
            }
        };
        let Some(kind) = kind_of(&meta) else {
            skipped.push(format!(
                "{}: special file (fifo, socket or device) not synced",
                ws_path(&key)
            ));
            continue;
        };
        out.insert(
            key.clone(),
            Scanned {
                kind,
                meta: meta_of(&meta),
            },
        );
        if kind == Kind::Dir {
            match dir.open_dir(name) {
                Ok(sub) => scan_dir(&sub, &key, out, skipped),
                Err(e) => skipped.push(format!(
                    "{}: cannot open the directory ({e})",
                    ws_path(&key)
                )),
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
