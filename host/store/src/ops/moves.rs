//! Rename and copy: both O(1) in the size of the subtree moved or copied.

use rusqlite::{Connection, params};

use crate::clock::now_ns;
use crate::error::{Errno, FsError, Result};
use crate::path::{MAX_PATH, WsPath};
use crate::tree::{self, Chain, Lookup, NodeKind};
use crate::workspace::{Touch, Workspace, will_change};

impl Workspace {
    /// Atomically renames `from` to `to`, replacing a file or an empty
    /// directory at `to` as POSIX rename does. Directories move by changing
    /// one entry, whatever their size.
    pub fn rename(&self, from: &str, to: &str) -> Result<()> {
        self.audited("rename", from, || Some(serde_json::json!({"to": to})), || {
            let src = WsPath::parse(from)?;
            let dst = WsPath::parse(to)?;
            let (src_shown, dst_shown) = (src.to_string(), dst.to_string());
            if src.is_root() || dst.is_root() {
                return Err(FsError::custom(
                    Errno::EPERM,
                    if src.is_root() {
                        &src_shown
                    } else {
                        &dst_shown
                    },
                    format!(
                        "operation not permitted: cannot rename {src_shown} to {dst_shown}: / cannot be moved or replaced"
                    ),
                ));
            }
            self.write_tx(|c| {
                let src_chain = tree::resolve_existing(c, &src, false)?;
                let src_canon = src_chain.path();
                let (dst_parent, dst_name, dst_existing) = resolve_dest(c, &dst)?;
                let dst_canon = dst_parent.path().join(&dst_name);
                if src_canon == dst_canon {
                    return Ok(());
                }
                if dst_canon.starts_with(&src_canon) {
                    return Err(FsError::custom(
                        Errno::EINVAL,
                        &dst_shown,
                        format!("invalid argument: cannot move {src_shown} into itself ({dst_shown})"),
                    ));
                }
                let src_kind = src_chain.kind();
                if let Some(existing) = &dst_existing {
                    check_replace(c, src_kind, existing, &dst_shown)?;
                }
                if src_kind == NodeKind::Directory {
                    check_depth(c, src_chain.id(), &src_canon, &dst_canon, &dst_shown)?;
                }
                will_change(c, &src_canon, Touch::Subtree, &src_shown)?;
                let dst_touch = if dst_existing.is_some() {
                    Touch::Subtree
                } else {
                    Touch::Node
                };
                will_change(c, &dst_canon, dst_touch, &dst_shown)?;

                // Make both parents private to their paths, then re-resolve:
                // unsharing one may have cloned nodes on the other's path.
                let mut s = src_chain;
                let n = s.steps.len();
                tree::unshare(c, &mut s, n - 1)?;
                let (mut dp, _, _) = resolve_dest(c, &dst)?;
                tree::unshare_all(c, &mut dp)?;
                let s = tree::resolve_existing(c, &src, false)?;
                let (dp, dst_name, dst_existing) = resolve_dest(c, &dst)?;
                let moving = s.steps[s.steps.len() - 1].clone();

                if let Some(existing) = dst_existing {
                    tree::unlink(c, dp.id(), &dst_name, existing.id)?;
                }
                // The salt moves with the entry, adjusted so that the XOR
                // of the salts on its path, and so its inode number, stay.
                let salt = moving.node.salt ^ s.salt_through(s.steps.len() - 1) ^ dp.salt();
                c.prepare_cached(
                    "UPDATE dentries SET dir = ?3, name = ?4, salt = ?5 WHERE dir = ?1 AND name = ?2",
                )?
                .execute(params![moving.parent, moving.name, dp.id(), dst_name, salt])?;
                let now = now_ns();
                tree::set_mtime(c, moving.parent, now)?;
                tree::set_mtime(c, dp.id(), now)
            })
        })
    }

    /// Copies `from` to `to`. Directories need `recursive`. The copy shares
    /// nodes and chunks with the source until either side changes, so it
    /// costs O(1) whatever the size; like `cp -a`, it keeps modes, mtimes
    /// and the hard links among the files it copies (those files are
    /// cloned, and the directories above them: O(their number × depth)).
    /// A symlink at `from` is followed; symlinks inside a tree are copied as links.
    pub fn copy(&self, from: &str, to: &str, recursive: bool) -> Result<()> {
        self.audited("copy", from, || Some(serde_json::json!({"to": to, "recursive": recursive})), || {
            let src = WsPath::parse(from)?;
            let dst = WsPath::parse(to)?;
            let (src_shown, dst_shown) = (src.to_string(), dst.to_string());
            if dst.is_root() {
                return Err(FsError::custom(
                    Errno::EEXIST,
                    "/",
                    format!("file exists: cannot copy {src_shown} over /"),
                ));
            }
            self.write_tx(|c| {
                let src_chain = tree::resolve_existing(c, &src, true)?;
                let src_kind = src_chain.kind();
                if src_kind == NodeKind::Directory && !recursive {
                    return Err(FsError::custom(
                        Errno::EISDIR,
                        &src_shown,
                        format!("is a directory: {src_shown} (use recursive to copy a directory)"),
                    ));
                }
                let src_canon = src_chain.path();
                let (dst_parent, dst_name, dst_existing) = resolve_dest(c, &dst)?;
                let dst_canon = dst_parent.path().join(&dst_name);
                if dst_canon.starts_with(&src_canon) {
                    return Err(FsError::custom(
                        Errno::EINVAL,
                        &dst_shown,
                        format!("invalid argument: cannot copy {src_shown} into itself ({dst_shown})"),
                    ));
                }
                if let Some(existing) = &dst_existing
                    && (src_kind != NodeKind::File || existing.kind == NodeKind::Directory)
                {
                    let code = if existing.kind == NodeKind::Directory && src_kind == NodeKind::File {
                        Errno::EISDIR
                    } else {
                        Errno::EEXIST
                    };
                    return Err(FsError::new(code, &dst_shown));
                }
                will_change(c, &dst_canon, Touch::Node, &dst_shown)?;
                let src_id = src_chain.id();
                if src_kind == NodeKind::Directory {
                    check_depth(c, src_id, &src_canon, &dst_canon, &dst_shown)?;
                }
                let (mut dp, _, _) = resolve_dest(c, &dst)?;
                tree::unshare_all(c, &mut dp)?;
                let (dp, dst_name, dst_existing) = resolve_dest(c, &dst)?;
                // The source itself, unless hard links below it need clones.
                let src_id = crate::hard_links::copy_source(c, src_id)?;
                // Take the new reference before dropping the old one, so
                // copying a file over a path that shares it cannot free it.
                // The copy's entry gets a salt of its own, so the nodes it
                // shares show inode numbers of its own (`tree::eff_ino`).
                let salt = tree::fresh_salt();
                if let Some(existing) = dst_existing {
                    c.prepare_cached("UPDATE dentries SET child = ?3, salt = ?4 WHERE dir = ?1 AND name = ?2")?
                        .execute(params![dp.id(), dst_name, src_id, salt])?;
                    c.prepare_cached("UPDATE nodes SET refs = refs + 1 WHERE id = ?1")?
                        .execute([src_id])?;
                    tree::release(c, existing.id)?;
                } else {
                    tree::link_salted(c, dp.id(), &dst_name, src_id, salt)?;
                }
                tree::set_mtime(c, dp.id(), now_ns())
            })
        })
    }
}

/// The existing node at a destination (not following a final symlink).
struct Existing {
    id: i64,
    kind: NodeKind,
}

/// Resolves a destination: its parent directory, final name, and what is there now.
fn resolve_dest(c: &Connection, dst: &WsPath) -> Result<(Chain, String, Option<Existing>)> {
    match tree::resolve(c, dst, false)? {
        Lookup::Found(mut chain) => {
            let step = chain
                .steps
                .pop()
                .ok_or_else(|| FsError::new(Errno::EPERM, "/"))?;
            Ok((
                chain,
                step.name,
                Some(Existing {
                    id: step.node.id,
                    kind: step.node.kind,
                }),
            ))
        }
        Lookup::Missing { parent, name } => Ok((parent, name, None)),
    }
}

/// POSIX rules for renaming over an existing entry.
fn check_replace(
    c: &Connection,
    src_kind: NodeKind,
    existing: &Existing,
    shown: &str,
) -> Result<()> {
    let src_is_dir = src_kind == NodeKind::Directory;
    let dst_is_dir = existing.kind == NodeKind::Directory;
    match (src_is_dir, dst_is_dir) {
        (true, false) => Err(FsError::new(Errno::ENOTDIR, shown)),
        (false, true) => Err(FsError::new(Errno::EISDIR, shown)),
        (true, true) if tree::has_children(c, existing.id)? => {
            Err(FsError::new(Errno::ENOTEMPTY, shown))
        }
        _ => Ok(()),
    }
}

/// `ENAMETOOLONG` if moving or copying the directory at node `id` from `from` to
/// `to` would give an entry below it a path longer than `MAX_PATH`. Every
/// stored path already fits, so only a move to a longer prefix can break
/// the limit; the workspace's path bound decides most of those without a
/// walk (`path_bound.rs`).
fn check_depth(c: &Connection, id: i64, from: &WsPath, to: &WsPath, shown: &str) -> Result<()> {
    let (old_len, new_len) = (from.byte_len(), to.byte_len());
    if new_len <= old_len {
        return Ok(());
    }
    match crate::path_bound::check_move(c, id, old_len, new_len)? {
        Some(len) => Err(FsError::custom(
            Errno::ENAMETOOLONG,
            shown,
            format!(
                "file name too long: {shown} would hold an entry whose path is at least {len} bytes, the limit is {MAX_PATH}"
            ),
        )),
        None => Ok(()),
    }
}
