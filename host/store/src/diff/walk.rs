//! The tree comparison: two directory nodes walked side by side, skipping
//! every pair of entries that name the same node (copy-on-write sharing
//! means same node id, same subtree), so the cost follows the changes,
//! not the tree. Only where one side holds a subtree the other lacks is
//! that subtree listed in full.

use std::cmp::Ordering;

use rusqlite::{Connection, OptionalExtension};

use crate::error::Result;
use crate::path::WsPath;
use crate::tree::{self, Node, NodeKind};

/// One side of a changed path: the node and what git would call its mode.
#[derive(Debug, Clone)]
pub(crate) struct Side {
    pub node: i64,
    pub kind: NodeKind,
    pub mode: u32,
    pub size: u64,
}

/// A path whose file or symlink differs between the trees (directories
/// are not listed, as git lists none).
#[derive(Debug, Clone)]
pub(crate) struct Leaf {
    pub path: String,
    pub old: Option<Side>,
    pub new: Option<Side>,
}

/// A top-most entry that differs, for undo: the node each tree has there
/// (`None`: absent). Directories on both sides are walked into, not listed,
/// unless only their mode differs.
#[derive(Debug, Clone)]
pub(crate) struct EntryChange {
    pub path: WsPath,
    pub old: Option<i64>,
    pub new: Option<i64>,
}

/// Path prefixes the comparison is limited to (none: everything).
pub(crate) struct Scope<'a>(pub &'a [WsPath]);

impl Scope<'_> {
    /// Whether anything at or below `path` is in scope.
    fn reaches(&self, path: &WsPath) -> bool {
        self.0.is_empty()
            || self
                .0
                .iter()
                .any(|f| path.starts_with(f) || f.starts_with(path))
    }

    /// Whether `path` itself is in scope.
    fn holds(&self, path: &WsPath) -> bool {
        self.0.is_empty() || self.0.iter().any(|f| path.starts_with(f))
    }
}

fn side(n: &Node) -> Side {
    Side {
        node: n.id,
        kind: n.kind,
        mode: n.mode,
        size: n.size,
    }
}

/// The bytes that decide whether two files or symlinks hold the same
/// thing: the chunk list (content-addressed, so equal content means an
/// equal list) or the target.
pub(crate) fn content_key(c: &Connection, id: i64) -> Result<Option<Vec<u8>>> {
    Ok(c.prepare_cached(
        "SELECT CASE kind WHEN 3 THEN CAST(target AS BLOB) ELSE chunks END FROM nodes WHERE id = ?1",
    )?
    .query_row([id], |r| r.get::<_, Option<Vec<u8>>>(0))
    .optional()?
    .flatten())
}

/// git's view of a mode: 100755 for a file anyone may execute... or the
/// owner may (git looks at the owner's bit), 100644 otherwise, 120000 for
/// a symlink.
pub(crate) fn git_mode(kind: NodeKind, mode: u32) -> u32 {
    match kind {
        NodeKind::Symlink => 0o120000,
        NodeKind::Directory => 0o040000,
        NodeKind::File if mode & 0o100 != 0 => 0o100755,
        NodeKind::File => 0o100644,
    }
}

/// The two trees' workspaces: one connection for both (node ids are
/// comparable, so a shared subtree is skipped), or two (a fork's tree
/// against another workspace's: node ids mean nothing across files, so
/// every directory is walked and files are compared by content key, which
/// is content-addressed in every file alike).
#[derive(Clone, Copy)]
pub(crate) struct Conns<'a> {
    pub old: &'a Connection,
    pub new: &'a Connection,
}

impl<'a> Conns<'a> {
    /// Both trees in one workspace.
    pub fn one(c: &'a Connection) -> Self {
        Conns { old: c, new: c }
    }

    fn same_file(&self) -> bool {
        std::ptr::eq(self.old, self.new)
    }
}

/// Whether two non-directory nodes differ as git sees them.
fn leaf_differs(c: Conns<'_>, a: &Node, b: &Node) -> Result<bool> {
    if a.kind != b.kind || git_mode(a.kind, a.mode) != git_mode(b.kind, b.mode) {
        return Ok(true);
    }
    if a.size != b.size {
        return Ok(true);
    }
    Ok(content_key(c.old, a.id)? != content_key(c.new, b.id)?)
}

/// Merges two sorted listings by name.
fn merged(
    a: Vec<(String, Node)>,
    b: Vec<(String, Node)>,
) -> Vec<(String, Option<Node>, Option<Node>)> {
    let mut out = Vec::with_capacity(a.len().max(b.len()));
    let (mut a, mut b) = (a.into_iter().peekable(), b.into_iter().peekable());
    loop {
        let order = match (a.peek(), b.peek()) {
            (None, None) => break,
            (Some(_), None) => Ordering::Less,
            (None, Some(_)) => Ordering::Greater,
            (Some((x, _)), Some((y, _))) => x.as_bytes().cmp(y.as_bytes()),
        };
        match order {
            Ordering::Less => {
                let (n, x) = a.next().expect("peeked");
                out.push((n, Some(x), None));
            }
            Ordering::Greater => {
                let (n, y) = b.next().expect("peeked");
                out.push((n, None, Some(y)));
            }
            Ordering::Equal => {
                let (n, x) = a.next().expect("peeked");
                let (_, y) = b.next().expect("peeked");
                out.push((n, Some(x), Some(y)));
            }
        }
    }
    out
}

/// The leaves that differ between directories `a` and `b`, unsorted.
pub(crate) fn leaves(
    c: Conns<'_>,
    a: i64,
    b: i64,
    scope: &Scope<'_>,
    out: &mut Vec<Leaf>,
) -> Result<()> {
    if a != b || !c.same_file() {
        dir_leaves(c, a, b, &WsPath::root(), scope, out)?;
    }
    Ok(())
}

fn dir_leaves(
    c: Conns<'_>,
    a: i64,
    b: i64,
    at: &WsPath,
    scope: &Scope<'_>,
    out: &mut Vec<Leaf>,
) -> Result<()> {
    let pairs = merged(
        tree::list(c.old, a, 0, None)?,
        tree::list(c.new, b, 0, None)?,
    );
    for (name, x, y) in pairs {
        let path = at.join(&name);
        if !scope.reaches(&path) {
            continue;
        }
        match (x, y) {
            (Some(x), Some(y)) if x.id == y.id && c.same_file() => {}
            (Some(x), Some(y)) => {
                let (xd, yd) = (x.kind == NodeKind::Directory, y.kind == NodeKind::Directory);
                if xd && yd {
                    dir_leaves(c, x.id, y.id, &path, scope, out)?;
                } else if xd || yd {
                    whole(c.old, &x, &path, scope, true, out)?;
                    whole(c.new, &y, &path, scope, false, out)?;
                } else if scope.holds(&path) && leaf_differs(c, &x, &y)? {
                    out.push(Leaf {
                        path: path.to_string(),
                        old: Some(side(&x)),
                        new: Some(side(&y)),
                    });
                }
            }
            (Some(x), None) => whole(c.old, &x, &path, scope, true, out)?,
            (None, Some(y)) => whole(c.new, &y, &path, scope, false, out)?,
            (None, None) => {}
        }
    }
    Ok(())
}

/// Every leaf in the subtree at `node`, as removed (`old`) or added.
fn whole(
    c: &Connection,
    node: &Node,
    at: &WsPath,
    scope: &Scope<'_>,
    old: bool,
    out: &mut Vec<Leaf>,
) -> Result<()> {
    if node.kind == NodeKind::Directory {
        for (name, child) in tree::list(c, node.id, 0, None)? {
            let path = at.join(&name);
            if scope.reaches(&path) {
                whole(c, &child, &path, scope, old, out)?;
            }
        }
        return Ok(());
    }
    if !scope.holds(at) {
        return Ok(());
    }
    let s = Some(side(node));
    let (o, n) = if old { (s, None) } else { (None, s) };
    out.push(Leaf {
        path: at.to_string(),
        old: o,
        new: n,
    });
    Ok(())
}

/// The top-most differing entries between directories `a` and `b`.
pub(crate) fn entries(c: &Connection, a: i64, b: i64, out: &mut Vec<EntryChange>) -> Result<()> {
    if a != b {
        dir_entries(c, a, b, &WsPath::root(), out)?;
    }
    Ok(())
}

fn dir_entries(
    c: &Connection,
    a: i64,
    b: i64,
    at: &WsPath,
    out: &mut Vec<EntryChange>,
) -> Result<()> {
    let pairs = merged(tree::list(c, a, 0, None)?, tree::list(c, b, 0, None)?);
    for (name, x, y) in pairs {
        let path = at.join(&name);
        match (&x, &y) {
            (Some(x), Some(y)) if x.id == y.id => continue,
            // Directories on both sides are walked into; one whose mode
            // changed is a change itself (same_leaf says no for directories).
            (Some(x), Some(y))
                if x.kind == NodeKind::Directory
                    && y.kind == NodeKind::Directory
                    && x.mode == y.mode =>
            {
                dir_entries(c, x.id, y.id, &path, out)?;
                continue;
            }
            (Some(x), Some(y)) if !same_leaf(c, x, y)? => {}
            (Some(_), Some(_)) => continue,
            _ => {}
        }
        out.push(EntryChange {
            path,
            old: x.map(|n| n.id),
            new: y.map(|n| n.id),
        });
    }
    Ok(())
}

/// Two non-directory nodes (or a directory and not) that hold the same:
/// same kind, mode and content. Times are not compared.
fn same_leaf(c: &Connection, a: &Node, b: &Node) -> Result<bool> {
    if a.kind == NodeKind::Directory || b.kind == NodeKind::Directory {
        return Ok(false);
    }
    Ok(a.kind == b.kind
        && a.mode == b.mode
        && a.size == b.size
        && content_key(c, a.id)? == content_key(c, b.id)?)
}

/// Whether the subtrees at nodes `a` and `b` hold the same (same node,
/// or equal leaves, directory modes and names all the way down).
pub(crate) fn same_tree(c: &Connection, a: i64, b: i64) -> Result<bool> {
    if a == b {
        return Ok(true);
    }
    let (x, y) = (tree::get_node(c, a)?, tree::get_node(c, b)?);
    match (x.kind, y.kind) {
        (NodeKind::Directory, NodeKind::Directory) => {
            if x.mode != y.mode {
                return Ok(false);
            }
            let mut diff = Vec::new();
            dir_entries(c, a, b, &WsPath::root(), &mut diff)?;
            Ok(diff.is_empty())
        }
        _ => same_leaf(c, &x, &y),
    }
}
