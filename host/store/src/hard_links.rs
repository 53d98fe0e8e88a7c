//! Hard links beside copy-on-write sharing.
//!
//! A node's `refs` counts every entry naming it; `nlink` counts the names
//! that are hard links. The two are kept apart by one rule: a node with
//! `nlink > 1` is only reachable through private directories (`refs = 1`
//! all the way up) and is never shared by a copy. Then all its `refs` are
//! hard links, a write through any name lands on it (`unshare` clones
//! only `refs > nlink`), and removing a name drops one of each.
//!
//! `link` keeps the rule by unsharing both paths first; a copy keeps it by
//! giving the copy clones of the hard-linked nodes below its source
//! (`copy_source`), linked among themselves as the originals are.

use std::collections::{HashMap, HashSet};

use rusqlite::{Connection, OptionalExtension};

use crate::db::ROOT_ID;
use crate::error::Result;
use crate::tree::{self, NodeKind};

/// Adds the entry `(dir, name)` as one more hard link to `node`.
pub(crate) fn add_name(conn: &Connection, dir: i64, name: &str, node: i64) -> Result<()> {
    tree::link(conn, dir, name, node)?;
    conn.prepare_cached("UPDATE nodes SET nlink = nlink + 1 WHERE id = ?1")?
        .execute([node])?;
    Ok(())
}

/// The node a copy of node `id` should name: `id` itself (shared, O(1))
/// unless hard links are involved; then a clone, or for a directory a new
/// tree of directories down to clones of the hard-linked nodes below it,
/// sharing everything else. The caller takes the reference.
pub(crate) fn copy_source(conn: &Connection, id: i64) -> Result<i64> {
    let node = tree::get_node(conn, id)?;
    if node.nlink > 1 {
        return Ok(tree::clone_node(conn, &node)?.id);
    }
    if node.kind != NodeKind::Directory {
        return Ok(id);
    }
    let on_path = dirs_above_links(conn, id)?;
    if on_path.is_empty() {
        return Ok(id);
    }
    let mut clones = HashMap::new();
    copy_dir(conn, id, &on_path, &mut clones)
}

/// A new directory like directory `dir`, naming what it names: a pinned
/// tree (a snapshot, a run's before and after) or the root being restored
/// from one. Shares every child but the hard-linked nodes below, which are
/// cloned as a copy clones them. Costs O(entries of `dir`) plus the paths
/// to hard links, not O(tree). The new node has no reference yet.
pub(crate) fn copy_dir_node(conn: &Connection, dir: i64) -> Result<i64> {
    let on_path = dirs_above_links(conn, dir)?;
    if on_path.is_empty() {
        let node = tree::get_node(conn, dir)?;
        return Ok(tree::clone_node(conn, &node)?.id);
    }
    let mut clones = HashMap::new();
    copy_dir(conn, dir, &on_path, &mut clones)
}

/// Whether any hard-linked node is below directory `top`.
pub(crate) fn has_links_below(conn: &Connection, top: i64) -> Result<bool> {
    Ok(!dirs_above_links(conn, top)?.is_empty())
}

/// The directories from `top` (included) down to hard-linked nodes below
/// it; empty when there are none. Walks up from every hard-linked node:
/// by the rule above, each directory on the way has a single entry.
fn dirs_above_links(conn: &Connection, top: i64) -> Result<HashSet<i64>> {
    let linked: Vec<i64> = conn
        .prepare_cached("SELECT id FROM nodes WHERE nlink > 1")?
        .query_map([], |r| r.get(0))?
        .collect::<rusqlite::Result<_>>()?;
    let mut names_of = conn.prepare_cached("SELECT dir FROM dentries WHERE child = ?1")?;
    let mut parent_of = conn.prepare_cached("SELECT dir FROM dentries WHERE child = ?1 LIMIT 1")?;
    let mut on_path = HashSet::new();
    for node in linked {
        let dirs: Vec<i64> = names_of
            .query_map([node], |r| r.get(0))?
            .collect::<rusqlite::Result<_>>()?;
        for dir in dirs {
            let mut path = vec![dir];
            let mut cur = dir;
            // Bounded: a damaged tree with a cycle must not hang a copy.
            for _ in 0..crate::path::MAX_PATH {
                if cur == top {
                    on_path.extend(path.iter().copied());
                    break;
                }
                if cur == ROOT_ID {
                    break;
                }
                match parent_of.query_row([cur], |r| r.get(0)).optional()? {
                    Some(up) => {
                        path.push(up);
                        cur = up;
                    }
                    None => break,
                }
            }
        }
    }
    Ok(on_path)
}

/// A new directory like `dir` whose entries share `dir`'s children, except
/// on the paths to hard-linked nodes: those directories are copied the same
/// way, and each hard-linked node is cloned once per copy (`clones`), so
/// its names inside the copy stay linked to each other.
fn copy_dir(
    conn: &Connection,
    dir: i64,
    on_path: &HashSet<i64>,
    clones: &mut HashMap<i64, i64>,
) -> Result<i64> {
    // Inode numbers and entries' salts are kept, as a clone keeps them
    // (a copy gets numbers of its own from its top entry's salt).
    conn.prepare_cached(
        "INSERT INTO nodes (kind, mode, size, mtime_ns, refs, nlink, atime_ns, ino)
         SELECT kind, mode, size, mtime_ns, 0, 1, atime_ns, coalesce(ino, id) FROM nodes WHERE id = ?1",
    )?
    .execute([dir])?;
    let new_dir = conn.last_insert_rowid();
    for (name, child) in tree::list(conn, dir, 0, None)? {
        if on_path.contains(&child.id) {
            let copied = copy_dir(conn, child.id, on_path, clones)?;
            tree::link_salted(conn, new_dir, &name, copied, child.salt)?;
        } else if child.nlink > 1 {
            match clones.get(&child.id) {
                Some(&clone) => {
                    add_name(conn, new_dir, &name, clone)?;
                    tree::set_salt(conn, new_dir, &name, child.salt)?;
                }
                None => {
                    let clone = tree::clone_node(conn, &child)?.id;
                    clones.insert(child.id, clone);
                    tree::link_salted(conn, new_dir, &name, clone, child.salt)?;
                }
            }
        } else {
            tree::link_salted(conn, new_dir, &name, child.id, child.salt)?;
        }
    }
    Ok(new_dir)
}

/// Problems with the rule above, for fsck: `nodes` maps each node to its
/// `(kind, refs, nlink)`, `parents` each node to the directories naming it.
pub(crate) fn problems(
    nodes: &HashMap<i64, (i64, i64, i64)>,
    parents: &HashMap<i64, Vec<i64>>,
) -> Vec<String> {
    let mut out = Vec::new();
    let mut ids: Vec<_> = nodes.keys().copied().collect();
    ids.sort_unstable();
    for id in ids {
        let (kind, refs, nlink) = nodes[&id];
        if nlink < 1 {
            out.push(format!("links: node {id} records {nlink} hard links"));
            continue;
        }
        if nlink == 1 {
            continue;
        }
        if kind == NodeKind::Directory.to_db() {
            out.push(format!(
                "links: directory node {id} records {nlink} hard links"
            ));
        }
        if refs != nlink {
            out.push(format!(
                "links: node {id} has {nlink} hard links but {refs} entries: a copy shares it"
            ));
        }
        for &dir in parents.get(&id).map_or(&[][..], |p| &p[..]) {
            if let Some(shared) = shared_above(nodes, parents, dir) {
                out.push(format!(
                    "links: hard-linked node {id} is below directory node {shared}, which a copy shares"
                ));
            }
        }
    }
    out
}

/// The first directory from `dir` up to the root that has more than one entry.
fn shared_above(
    nodes: &HashMap<i64, (i64, i64, i64)>,
    parents: &HashMap<i64, Vec<i64>>,
    dir: i64,
) -> Option<i64> {
    let mut cur = dir;
    for _ in 0..=nodes.len() {
        if cur == ROOT_ID {
            return None;
        }
        match parents.get(&cur).map_or(&[][..], |p| &p[..]) {
            [up] => cur = *up,
            [] => return None,
            _ => return Some(cur),
        }
    }
    None
}
