//! Metadata and links: stat, chmod, times, symlink, hard link, readlink,
//! realpath.

use rusqlite::params;

use crate::clock::now_ns;
use crate::error::{Errno, FsError, Result};
use crate::path::{MAX_PATH, WsPath};
use crate::tree::{self, Lookup, NodeKind};
use crate::types::Stat;
use crate::workspace::{Touch, Workspace, will_change};

impl Workspace {
    /// Metadata, following symlinks.
    pub fn stat(&self, path: &str) -> Result<Stat> {
        self.audited("stat", path, || None, || self.stat_impl(path, true))
    }

    /// Metadata of the path itself: a symlink is reported as a symlink.
    pub fn lstat(&self, path: &str) -> Result<Stat> {
        self.audited("lstat", path, || None, || self.stat_impl(path, false))
    }

    fn stat_impl(&self, path: &str, follow: bool) -> Result<Stat> {
        let p = WsPath::parse(path)?;
        self.read_tx(|c| {
            let chain = tree::resolve_existing(c, &p, follow)?;
            // The name is the one asked about, as in `ls`, even when a
            // symlink was followed to a node with another name.
            let name = p.file_name().unwrap_or("/");
            let ino = chain.ino(c)?;
            match chain.last() {
                Some(step) => Ok(Stat::from_node(name, &step.node, ino)),
                None => Ok(Stat::from_node(
                    name,
                    &tree::get_node(c, tree::live_root(c)?)?,
                    ino,
                )),
            }
        })
    }

    /// True if the path exists (following symlinks).
    pub fn exists(&self, path: &str) -> Result<bool> {
        match self.stat(path) {
            Ok(_) => Ok(true),
            Err(e) if matches!(e.code, Errno::ENOENT | Errno::ENOTDIR | Errno::ELOOP) => Ok(false),
            Err(e) => Err(e),
        }
    }

    /// Creates a symlink at `path` pointing at `target`, stored verbatim.
    /// The target need not exist.
    pub fn symlink(&self, target: &str, path: &str) -> Result<()> {
        self.audited(
            "symlink",
            path,
            || Some(serde_json::json!({"target": target})),
            || {
                let p = WsPath::parse(path)?;
                let shown = p.to_string();
                if target.is_empty() || target.contains('\0') || target.len() > MAX_PATH {
                    return Err(FsError::detail(
                        Errno::EINVAL,
                        &shown,
                        "symlink target must be 1 to 4096 bytes without NUL",
                    ));
                }
                if p.is_root() {
                    return Err(FsError::new(Errno::EEXIST, shown));
                }
                self.write_tx(|c| match tree::resolve(c, &p, false)? {
                    Lookup::Found(_) => Err(FsError::new(Errno::EEXIST, &shown)),
                    Lookup::Missing { mut parent, name } => {
                        will_change(c, &parent.path().join(&name), Touch::Node, &shown)?;
                        tree::unshare_all(c, &mut parent)?;
                        let now = now_ns();
                        let id = tree::insert_node(c, NodeKind::Symlink, 0o777, now, Some(target))?;
                        tree::link(c, parent.id(), &name, id)?;
                        tree::set_mtime(c, parent.id(), now)
                    }
                })
            },
        )
    }

    /// Gives the node at `existing` the further name `new`, as `link(2)`:
    /// a write through either name is seen through the other, and the node
    /// lives until its last name is removed. A symlink at `existing` is
    /// linked itself, not followed. `EEXIST` if `new` exists, `ENOENT` if
    /// `existing` or `new`'s directory is missing (or `new` ends in `/`),
    /// `EPERM` for a directory.
    pub fn link(&self, existing: &str, new: &str) -> Result<()> {
        self.audited(
            "link",
            new,
            || Some(serde_json::json!({"existing": existing})),
            || {
                let src = WsPath::parse(existing)?;
                let dst = WsPath::parse(new)?;
                let (src_shown, dst_shown) = (src.to_string(), dst.to_string());
                self.write_tx(|c| {
                    let src_chain = tree::resolve_existing(c, &src, false)?;
                    if src_chain.kind() == NodeKind::Directory {
                        return Err(FsError::custom(
                            Errno::EPERM,
                            &src_shown,
                            format!("operation not permitted: {src_shown} is a directory, which cannot have hard links"),
                        ));
                    }
                    let parent = match tree::resolve(c, &dst, false)? {
                        Lookup::Found(_) => return Err(FsError::new(Errno::EEXIST, &dst_shown)),
                        // Only a directory may be named with a trailing slash.
                        Lookup::Missing { .. } if dst.trailing_slash() => {
                            return Err(FsError::new(Errno::ENOENT, &dst_shown));
                        }
                        Lookup::Missing { parent, name } => parent.path().join(&name),
                    };
                    // A read-only subtree's files get no names outside it,
                    // which would make them writable.
                    will_change(c, &src_chain.path(), Touch::Node, &src_shown)?;
                    will_change(c, &parent, Touch::Node, &dst_shown)?;
                    // Both paths private (see `hard_links`); unsharing one
                    // may clone nodes on the other's, so resolve again.
                    let mut s = src_chain;
                    tree::unshare_all(c, &mut s)?;
                    let Lookup::Missing { parent: mut dp, name } = tree::resolve(c, &dst, false)?
                    else {
                        return Err(FsError::new(Errno::EEXIST, &dst_shown));
                    };
                    tree::unshare_all(c, &mut dp)?;
                    let s = tree::resolve_existing(c, &src, false)?;
                    crate::hard_links::add_name(c, dp.id(), &name, s.id())?;
                    // The new name shows the same inode number.
                    tree::set_salt(c, dp.id(), &name, s.salt() ^ dp.salt())?;
                    tree::set_mtime(c, dp.id(), now_ns())
                })
            },
        )
    }

    /// The target of a symlink, verbatim.
    pub fn readlink(&self, path: &str) -> Result<String> {
        self.audited(
            "readlink",
            path,
            || None,
            || {
                let p = WsPath::parse(path)?;
                self.read_tx(|c| {
                    let chain = tree::resolve_existing(c, &p, false)?;
                    match chain.last() {
                        Some(step) if step.node.kind == NodeKind::Symlink => {
                            Ok(step.node.target.clone().unwrap_or_default())
                        }
                        _ => Err(FsError::detail(
                            Errno::EINVAL,
                            p.to_string(),
                            "not a symlink",
                        )),
                    }
                })
            },
        )
    }

    /// Canonical absolute path with every symlink resolved.
    pub fn realpath(&self, path: &str) -> Result<String> {
        self.audited(
            "realpath",
            path,
            || None,
            || {
                let p = WsPath::parse(path)?;
                self.read_tx(|c| Ok(tree::resolve_existing(c, &p, true)?.path().to_string()))
            },
        )
    }

    /// Sets permission bits (following symlinks).
    pub fn chmod(&self, path: &str, mode: u32) -> Result<()> {
        self.audited(
            "chmod",
            path,
            || Some(serde_json::json!({"mode": format!("{mode:o}")})),
            || {
                let p = WsPath::parse(path)?;
                let shown = p.to_string();
                if mode > 0o7777 {
                    return Err(FsError::detail(
                        Errno::EINVAL,
                        shown,
                        format!("mode {mode:o} is not a permission mode"),
                    ));
                }
                self.write_tx(|c| {
                    let mut chain = tree::resolve_existing(c, &p, true)?;
                    will_change(c, &chain.path(), Touch::Node, &shown)?;
                    tree::unshare_all(c, &mut chain)?;
                    c.prepare_cached("UPDATE nodes SET mode = ?2 WHERE id = ?1")?
                        .execute(params![chain.id(), mode as i64])?;
                    Ok(())
                })
            },
        )
    }

    /// Sets the modification time (following symlinks).
    pub fn set_mtime(&self, path: &str, mtime_ns: u64) -> Result<()> {
        self.set_mtime_of(path, mtime_ns, true)
    }

    /// Sets the modification time of `path` itself: a symlink's own
    /// (`lutimes`).
    pub fn set_link_mtime(&self, path: &str, mtime_ns: u64) -> Result<()> {
        self.set_mtime_of(path, mtime_ns, false)
    }

    fn set_mtime_of(&self, path: &str, mtime_ns: u64, follow: bool) -> Result<()> {
        self.audited(
            "set_mtime",
            path,
            || Some(serde_json::json!({"mtime_ns": mtime_ns})),
            || {
                let p = WsPath::parse(path)?;
                let shown = p.to_string();
                self.write_tx(|c| {
                    let mut chain = tree::resolve_existing(c, &p, follow)?;
                    will_change(c, &chain.path(), Touch::Node, &shown)?;
                    tree::unshare_all(c, &mut chain)?;
                    tree::set_mtime(c, chain.id(), mtime_ns.min(i64::MAX as u64) as i64)
                })
            },
        )
    }

    /// Sets the access and/or modification time (`utimensat`); `None`
    /// leaves one as it is. Setting only the mtime keeps the atime the
    /// old mtime was standing in for. `follow: false` sets a symlink's own.
    pub fn set_times(
        &self,
        path: &str,
        atime_ns: Option<u64>,
        mtime_ns: Option<u64>,
        follow: bool,
    ) -> Result<()> {
        self.audited(
            "set_times",
            path,
            || Some(serde_json::json!({"atime_ns": atime_ns, "mtime_ns": mtime_ns, "follow": follow})),
            || {
                let p = WsPath::parse(path)?;
                let shown = p.to_string();
                let ns = |t: Option<u64>| t.map(|t| t.min(i64::MAX as u64) as i64);
                self.write_tx(|c| {
                    let mut chain = tree::resolve_existing(c, &p, follow)?;
                    will_change(c, &chain.path(), Touch::Node, &shown)?;
                    if atime_ns.is_none() && mtime_ns.is_none() {
                        return Ok(());
                    }
                    tree::unshare_all(c, &mut chain)?;
                    c.prepare_cached(
                        "UPDATE nodes SET atime_ns = coalesce(?2, atime_ns, mtime_ns),
                         mtime_ns = coalesce(?3, mtime_ns) WHERE id = ?1",
                    )?
                    .execute(params![chain.id(), ns(atime_ns), ns(mtime_ns)])?;
                    Ok(())
                })
            },
        )
    }
}
