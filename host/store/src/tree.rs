//! The node tree: lookups, path resolution with symlinks, and the
//! copy-on-write bookkeeping that makes copying a subtree O(1).
//!
//! A copied subtree is shared: the new directory entry points at the same
//! node and `refs` goes up. Before anything is changed through a path, the
//! nodes on that path that are shared (`refs > 1`) are cloned one level at a
//! time (`unshare`), so the change is never visible through another path.
//!
//! Hard links are entries too, counted in `nlink`: a node with `nlink > 1`
//! is never shared by a copy (`hard_links::copy_source` clones it), so its
//! `refs` are all hard links and only nodes with `refs > nlink` are cloned.

use std::collections::VecDeque;

use rusqlite::{Connection, OptionalExtension, Row, params};
use serde::Serialize;

use crate::content;
use crate::error::{Errno, FsError, Result};
use crate::path::WsPath;

/// Symlinks followed during one resolution before `ELOOP`.
pub const MAX_SYMLINK_HOPS: u32 = 40;

/// What a node is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum NodeKind {
    /// A regular file.
    File,
    /// A directory.
    Directory,
    /// A symbolic link.
    Symlink,
}

impl NodeKind {
    pub(crate) fn to_db(self) -> i64 {
        match self {
            NodeKind::File => 1,
            NodeKind::Directory => 2,
            NodeKind::Symlink => 3,
        }
    }

    pub(crate) fn from_db(v: i64) -> rusqlite::Result<Self> {
        match v {
            1 => Ok(NodeKind::File),
            2 => Ok(NodeKind::Directory),
            3 => Ok(NodeKind::Symlink),
            other => Err(rusqlite::Error::IntegralValueOutOfRange(0, other)),
        }
    }

    /// `file`, `directory` or `symlink`.
    pub fn as_str(self) -> &'static str {
        match self {
            NodeKind::File => "file",
            NodeKind::Directory => "directory",
            NodeKind::Symlink => "symlink",
        }
    }
}

#[derive(Debug, Clone)]
pub(crate) struct Node {
    pub id: i64,
    pub kind: NodeKind,
    pub mode: u32,
    pub size: u64,
    pub mtime_ns: i64,
    pub refs: i64,
    pub target: Option<String>,
    /// Names that are hard links to this node (1 for most nodes).
    pub nlink: i64,
    /// `None`: the access time is `mtime_ns`.
    pub atime_ns: Option<i64>,
    /// The inode number's base (`ino`, or the id): copy-on-write clones
    /// keep it (see `eff_ino`).
    pub ino: i64,
    /// The salt of the entry this node was reached through (0 when it was
    /// read by id).
    pub salt: i64,
}

impl Node {
    /// Shared with a copy: a change through one path must clone it first.
    pub fn is_shared(&self) -> bool {
        self.refs > self.nlink
    }
}

macro_rules! node_columns {
    () => {
        "n.id, n.kind, n.mode, n.size, n.mtime_ns, n.refs, n.target, n.nlink, n.atime_ns, coalesce(n.ino, n.id)"
    };
}

fn node_from_row(row: &Row<'_>) -> rusqlite::Result<Node> {
    node_from_row_salted(row, 0)
}

fn node_from_row_salted(row: &Row<'_>, salt: i64) -> rusqlite::Result<Node> {
    Ok(Node {
        id: row.get(0)?,
        kind: NodeKind::from_db(row.get(1)?)?,
        mode: row.get::<_, i64>(2)? as u32,
        size: row.get::<_, i64>(3)? as u64,
        mtime_ns: row.get(4)?,
        refs: row.get(5)?,
        target: row.get(6)?,
        nlink: row.get(7)?,
        atime_ns: row.get(8)?,
        ino: row.get(9)?,
        salt,
    })
}

/// One resolved path component: the entry `(parent, name)` and its node.
#[derive(Debug, Clone)]
pub(crate) struct Step {
    pub parent: i64,
    pub name: String,
    pub node: Node,
}

/// A resolved path: every component from the root down, after symlinks.
#[derive(Debug, Clone)]
pub(crate) struct Chain {
    /// The live root the path was resolved from (`live_root`).
    pub root: i64,
    pub steps: Vec<Step>,
}

impl Chain {
    /// Id of the node the chain ends at.
    pub fn id(&self) -> i64 {
        self.steps.last().map_or(self.root, |s| s.node.id)
    }

    pub fn kind(&self) -> NodeKind {
        self.steps
            .last()
            .map_or(NodeKind::Directory, |s| s.node.kind)
    }

    pub fn last(&self) -> Option<&Step> {
        self.steps.last()
    }

    pub fn is_root(&self) -> bool {
        self.steps.is_empty()
    }

    /// The XOR of the salts of the entries on the path (see `eff_ino`).
    pub fn salt(&self) -> i64 {
        self.salt_through(self.steps.len())
    }

    /// The XOR of the salts of the first `n` entries.
    pub fn salt_through(&self, n: usize) -> i64 {
        self.steps[..n.min(self.steps.len())]
            .iter()
            .fold(0, |s, step| s ^ step.node.salt)
    }

    /// The inode number of the node the chain ends at.
    pub fn ino(&self, conn: &Connection) -> Result<u64> {
        Ok(match self.steps.last() {
            Some(step) => eff_ino(step.node.ino, self.salt()),
            None => eff_ino(get_node(conn, self.root)?.ino, 0),
        })
    }

    /// The canonical path (symlinks resolved).
    pub fn path(&self) -> WsPath {
        WsPath::from_components(self.steps.iter().map(|s| s.name.clone()).collect())
    }
}

/// The outcome of resolving a path.
pub(crate) enum Lookup {
    Found(Chain),
    /// Everything but the last component exists; `parent` is a directory.
    Missing {
        parent: Chain,
        name: String,
    },
}

/// The live tree's root node: node 1 until a snapshot shares the root and
/// a change clones it (`unshare_root`).
pub(crate) fn live_root(conn: &Connection) -> Result<i64> {
    Ok(conn
        .prepare_cached("SELECT root FROM workspace WHERE id = 1")?
        .query_row([], |r| r.get(0))?)
}

pub(crate) fn get_node(conn: &Connection, id: i64) -> Result<Node> {
    let mut stmt = conn.prepare_cached(concat!(
        "SELECT ",
        node_columns!(),
        " FROM nodes n WHERE n.id = ?1"
    ))?;
    Ok(stmt.query_row([id], node_from_row)?)
}

pub(crate) fn lookup(conn: &Connection, dir: i64, name: &str) -> Result<Option<Node>> {
    let mut stmt = conn.prepare_cached(concat!(
        "SELECT ",
        node_columns!(),
        ", d.salt FROM dentries d JOIN nodes n ON n.id = d.child WHERE d.dir = ?1 AND d.name = ?2"
    ))?;
    Ok(stmt
        .query_row(params![dir, name], |r| node_from_row_salted(r, r.get(10)?))
        .optional()?)
}

/// Resolves `path`. Intermediate symlinks are always followed; the last
/// component is followed only when `follow_last`.
pub(crate) fn resolve(conn: &Connection, path: &WsPath, follow_last: bool) -> Result<Lookup> {
    let shown = path.to_string();
    let root = live_root(conn)?;
    let mut queue: VecDeque<String> = path.components().iter().cloned().collect();
    let mut steps: Vec<Step> = Vec::new();
    let mut hops = 0u32;
    while let Some(name) = queue.pop_front() {
        match name.as_str() {
            "" | "." => continue,
            ".." => {
                steps.pop();
                continue;
            }
            _ => {}
        }
        let (dir_id, dir_kind) = steps
            .last()
            .map_or((root, NodeKind::Directory), |s| (s.node.id, s.node.kind));
        if dir_kind != NodeKind::Directory {
            return Err(FsError::new(Errno::ENOTDIR, &shown));
        }
        let Some(node) = lookup(conn, dir_id, &name)? else {
            if queue.is_empty() {
                return Ok(Lookup::Missing {
                    parent: Chain { root, steps },
                    name,
                });
            }
            let missing = WsPath::from_components(
                steps.iter().map(|s| s.name.clone()).chain([name]).collect(),
            );
            return Err(FsError::detail(
                Errno::ENOENT,
                &shown,
                format!("{missing} does not exist"),
            ));
        };
        if node.kind == NodeKind::Symlink && (follow_last || !queue.is_empty()) {
            hops += 1;
            if hops > MAX_SYMLINK_HOPS {
                return Err(FsError::detail(
                    Errno::ELOOP,
                    &shown,
                    format!("more than {MAX_SYMLINK_HOPS} symlinks followed"),
                ));
            }
            let target = node.target.clone().unwrap_or_default();
            if target.starts_with('/') {
                steps.clear();
            }
            for part in target.split('/').rev() {
                queue.push_front(part.to_owned());
            }
            continue;
        }
        steps.push(Step {
            parent: dir_id,
            name,
            node,
        });
    }
    Ok(Lookup::Found(Chain { root, steps }))
}

/// Resolves a path that must exist.
pub(crate) fn resolve_existing(
    conn: &Connection,
    path: &WsPath,
    follow_last: bool,
) -> Result<Chain> {
    match resolve(conn, path, follow_last)? {
        Lookup::Found(chain) => {
            if path.trailing_slash() && chain.kind() != NodeKind::Directory {
                return Err(FsError::new(Errno::ENOTDIR, path.to_string()));
            }
            Ok(chain)
        }
        Lookup::Missing { .. } => Err(FsError::new(Errno::ENOENT, path.to_string())),
    }
}

/// Resolves a path that must be an existing directory.
pub(crate) fn resolve_dir(conn: &Connection, path: &WsPath) -> Result<Chain> {
    let chain = resolve_existing(conn, path, true)?;
    if chain.kind() != NodeKind::Directory {
        return Err(FsError::new(Errno::ENOTDIR, path.to_string()));
    }
    Ok(chain)
}

pub(crate) fn insert_node(
    conn: &Connection,
    kind: NodeKind,
    mode: u32,
    mtime_ns: i64,
    target: Option<&str>,
) -> Result<i64> {
    let mut stmt = conn.prepare_cached(
        "INSERT INTO nodes (kind, mode, size, mtime_ns, refs, target) VALUES (?1, ?2, ?3, ?4, 0, ?5)",
    )?;
    let size = target.map_or(0, |t| t.len() as i64);
    stmt.execute(params![
        kind.to_db(),
        (mode & 0o7777) as i64,
        size,
        mtime_ns,
        target
    ])?;
    Ok(conn.last_insert_rowid())
}

/// Adds the entry `(dir, name) -> child` and takes a reference on `child`.
pub(crate) fn link(conn: &Connection, dir: i64, name: &str, child: i64) -> Result<()> {
    link_salted(conn, dir, name, child, 0)
}

/// `link` with the entry's salt (see `eff_ino`).
pub(crate) fn link_salted(
    conn: &Connection,
    dir: i64,
    name: &str,
    child: i64,
    salt: i64,
) -> Result<()> {
    conn.prepare_cached("INSERT INTO dentries (dir, name, child, salt) VALUES (?1, ?2, ?3, ?4)")?
        .execute(params![dir, name, child, salt])?;
    conn.prepare_cached("UPDATE nodes SET refs = refs + 1 WHERE id = ?1")?
        .execute([child])?;
    Ok(())
}

/// Removes the entry `(dir, name)` and drops its reference on `child`.
pub(crate) fn unlink(conn: &Connection, dir: i64, name: &str, child: i64) -> Result<()> {
    conn.prepare_cached("DELETE FROM dentries WHERE dir = ?1 AND name = ?2")?
        .execute(params![dir, name])?;
    release(conn, child)
}

/// Points the existing entry `(dir, name)` at `new_child`, moving the reference.
pub(crate) fn repoint(
    conn: &Connection,
    dir: i64,
    name: &str,
    old_child: i64,
    new_child: i64,
) -> Result<()> {
    conn.prepare_cached("UPDATE dentries SET child = ?3 WHERE dir = ?1 AND name = ?2")?
        .execute(params![dir, name, new_child])?;
    conn.prepare_cached("UPDATE nodes SET refs = refs + 1 WHERE id = ?1")?
        .execute([new_child])?;
    release(conn, old_child)
}

/// Drops one reference on `id`; a node nobody references is deleted along
/// with its content and, for directories, its entries (recursively).
pub(crate) fn release(conn: &Connection, id: i64) -> Result<()> {
    let mut pending = vec![id];
    while let Some(id) = pending.pop() {
        let refs: i64 = conn
            // A node with several hard links loses one with the entry (its
            // refs are all hard links); others keep their count of 1.
            .prepare_cached(
                "UPDATE nodes SET refs = refs - 1, nlink = max(nlink - 1, 1) WHERE id = ?1 RETURNING refs",
            )?
            .query_row([id], |r| r.get(0))?;
        if refs > 0 {
            continue;
        }
        let kind: i64 = conn
            .prepare_cached("SELECT kind FROM nodes WHERE id = ?1")?
            .query_row([id], |r| r.get(0))?;
        match NodeKind::from_db(kind)? {
            NodeKind::Directory => {
                let mut stmt = conn.prepare_cached("SELECT child FROM dentries WHERE dir = ?1")?;
                let children = stmt
                    .query_map([id], |r| r.get::<_, i64>(0))?
                    .collect::<rusqlite::Result<Vec<_>>>()?;
                pending.extend(children);
                conn.prepare_cached("DELETE FROM dentries WHERE dir = ?1")?
                    .execute([id])?;
            }
            NodeKind::File => content::release_all(conn, id)?,
            NodeKind::Symlink => {}
        }
        conn.prepare_cached("DELETE FROM nodes WHERE id = ?1")?
            .execute([id])?;
    }
    Ok(())
}

/// A private copy of `node` for one path: same attributes and inode number,
/// shared children or chunks, one name. The caller links or repoints an
/// entry at the clone.
pub(crate) fn clone_node(conn: &Connection, node: &Node) -> Result<Node> {
    conn.prepare_cached(
        "INSERT INTO nodes (kind, mode, size, mtime_ns, refs, target, chunks, nlink, atime_ns, ino)
         SELECT kind, mode, size, mtime_ns, 0, target, chunks, 1, atime_ns, coalesce(ino, id) FROM nodes WHERE id = ?1",
    )?
    .execute([node.id])?;
    let new_id = conn.last_insert_rowid();
    match node.kind {
        NodeKind::Directory => {
            conn.prepare_cached(
                "INSERT INTO dentries (dir, name, child, salt) SELECT ?2, name, child, salt FROM dentries WHERE dir = ?1",
            )?
            .execute(params![node.id, new_id])?;
            // A node may have several names in the directory (a copy made
            // beside its source): one reference for each.
            conn.prepare_cached(
                "UPDATE nodes SET refs = refs + c.n
                 FROM (SELECT child, count(*) AS n FROM dentries WHERE dir = ?1 GROUP BY child) AS c
                 WHERE nodes.id = c.child",
            )?
            .execute([node.id])?;
        }
        NodeKind::File => content::retain_all(conn, new_id)?,
        NodeKind::Symlink => {}
    }
    let mut clone = node.clone();
    clone.id = new_id;
    clone.refs = 1;
    clone.nlink = 1;
    Ok(clone)
}

/// `node`, the child `name` of the private directory `dir`, made private
/// too (cloned and repointed if shared), for a walk that goes down by ids
/// instead of resolving each path from the root.
pub(crate) fn private_child(conn: &Connection, dir: i64, name: &str, node: Node) -> Result<Node> {
    if !node.is_shared() {
        return Ok(node);
    }
    let clone = clone_node(conn, &node)?;
    repoint(conn, dir, name, node.id, clone.id)?;
    Ok(clone)
}

/// Makes every node on `chain` private to this path, so it can be changed.
/// `through` is how many steps (from the root) must be private.
pub(crate) fn unshare(conn: &Connection, chain: &mut Chain, through: usize) -> Result<()> {
    unshare_root(conn, chain)?;
    let through = through.min(chain.steps.len());
    for i in 0..through {
        if !chain.steps[i].node.is_shared() {
            continue;
        }
        let old = chain.steps[i].node.clone();
        let clone = clone_node(conn, &old)?;
        let parent = chain.steps[i].parent;
        repoint(conn, parent, &chain.steps[i].name, old.id, clone.id)?;
        let is_dir = clone.kind == NodeKind::Directory;
        let clone_id = clone.id;
        chain.steps[i].node = clone;
        if let Some(next) = chain.steps.get_mut(i + 1) {
            next.parent = clone_id;
            if is_dir {
                // The clone took a reference on every child.
                next.node.refs += 1;
            }
        }
    }
    Ok(())
}

/// Makes the live root private before anything below it changes: a
/// snapshot (or a run's tree) may hold the root node itself, which is what
/// makes taking one O(1). The clone names the same children (each one
/// more reference, so they are shared in turn) and becomes the live root;
/// the old root stays with its holders. A chain resolved before another
/// chain's unshare cloned the root is moved onto the new one.
fn unshare_root(conn: &Connection, chain: &mut Chain) -> Result<()> {
    // One query on every change: the root and whether anything shares it.
    let (live, refs): (i64, i64) = conn
        .prepare_cached(
            "SELECT w.root, n.refs FROM workspace w JOIN nodes n ON n.id = w.root WHERE w.id = 1",
        )?
        .query_row([], |r| Ok((r.get(0)?, r.get(1)?)))?;
    if chain.root != live {
        chain.root = live;
        if let Some(first) = chain.steps.first_mut()
            && let Some(node) = lookup(conn, live, &first.name)?
        {
            first.parent = live;
            first.node = node;
        }
    }
    if refs <= 1 {
        return Ok(());
    }
    let root = get_node(conn, live)?;
    let clone = clone_node(conn, &root)?;
    conn.prepare_cached("UPDATE nodes SET refs = 1 WHERE id = ?1")?
        .execute([clone.id])?;
    conn.prepare_cached("UPDATE workspace SET root = ?1 WHERE id = 1")?
        .execute([clone.id])?;
    release(conn, root.id)?;
    chain.root = clone.id;
    if let Some(first) = chain.steps.first_mut() {
        first.parent = clone.id;
        // The clone took a reference on every child.
        first.node.refs += 1;
    }
    Ok(())
}

/// Unshares the whole chain, including its last node.
pub(crate) fn unshare_all(conn: &Connection, chain: &mut Chain) -> Result<()> {
    let n = chain.steps.len();
    unshare(conn, chain, n)
}

pub(crate) fn set_mtime(conn: &Connection, id: i64, mtime_ns: i64) -> Result<()> {
    conn.prepare_cached("UPDATE nodes SET mtime_ns = ?2 WHERE id = ?1")?
        .execute(params![id, mtime_ns])?;
    Ok(())
}

pub(crate) fn has_children(conn: &Connection, dir: i64) -> Result<bool> {
    Ok(conn
        .prepare_cached("SELECT 1 FROM dentries WHERE dir = ?1 LIMIT 1")?
        .query_row([dir], |_| Ok(()))
        .optional()?
        .is_some())
}

/// Entries of a directory, sorted by name (bytewise), paged.
pub(crate) fn list(
    conn: &Connection,
    dir: i64,
    offset: u64,
    limit: Option<u64>,
) -> Result<Vec<(String, Node)>> {
    let mut stmt = conn.prepare_cached(concat!(
        "SELECT ",
        node_columns!(),
        ", d.name, d.salt FROM dentries d JOIN nodes n ON n.id = d.child WHERE d.dir = ?1 ORDER BY d.name LIMIT ?2 OFFSET ?3"
    ))?;
    let limit = limit.map_or(-1, |l| l.min(i64::MAX as u64) as i64);
    let rows = stmt
        .query_map(
            params![dir, limit, offset.min(i64::MAX as u64) as i64],
            |r| Ok((r.get(10)?, node_from_row_salted(r, r.get(11)?)?)),
        )?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    Ok(rows)
}

/// The inode number a node shows through a path: its `ino` where the
/// entries on the path carry no salt (everywhere but below a copy), else
/// `ino` mixed with the XOR of their salts, so a copy, which shares its
/// source's nodes, shows numbers of its own from the start. Mixed numbers
/// have bit 51 set (above every node id, below 2^53 so JavaScript's
/// numbers hold them exactly).
pub(crate) fn eff_ino(ino: i64, salt: i64) -> u64 {
    let ino = ino as u64;
    if salt == 0 {
        return ino;
    }
    // splitmix64's finalizer.
    let mut z = (salt as u64).wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^= z >> 31;
    ino ^ ((z & ((1 << 51) - 1)) | (1 << 51))
}

/// A new, random, non-zero salt for the entry a copy makes.
pub(crate) fn fresh_salt() -> i64 {
    use std::hash::{BuildHasher, Hasher};
    use std::sync::atomic::{AtomicU64, Ordering};
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u64(COUNTER.fetch_add(1, Ordering::Relaxed));
    h.write_i64(crate::clock::now_ns());
    h.write_u32(std::process::id());
    match h.finish() as i64 {
        0 => 1,
        s => s,
    }
}

/// Gives node `id` the inode number `ino`: a new node that takes an old
/// one's place at a path (a write that replaces a file's content).
pub(crate) fn keep_ino(conn: &Connection, id: i64, ino: i64) -> Result<()> {
    conn.prepare_cached("UPDATE nodes SET ino = ?2 WHERE id = ?1")?
        .execute(params![id, ino])?;
    Ok(())
}

/// Sets the salt of the entry `(dir, name)`.
pub(crate) fn set_salt(conn: &Connection, dir: i64, name: &str, salt: i64) -> Result<()> {
    conn.prepare_cached("UPDATE dentries SET salt = ?3 WHERE dir = ?1 AND name = ?2")?
        .execute(params![dir, name, salt])?;
    Ok(())
}
