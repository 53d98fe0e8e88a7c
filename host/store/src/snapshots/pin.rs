//! Pinned trees: roots that hold the whole tree as it was.
//!
//! Pinning takes a reference on the live root node itself: O(1), whatever
//! the tree holds. The live tree stays copy-on-write: the next change
//! clones the shared root (`tree::unshare_root`, O(entries of `/`)), then
//! the nodes on its path, as a change below an `fs cp -r` copy does. When
//! the tree has hard links, a pin is a copy of the root instead, with the
//! hard-linked nodes cloned (`hard_links::copy_dir_node`): a hard-linked
//! node must never sit below a shared directory.
//!
//! A pinned root's `refs` counts its holders (snapshot rows, runs' before
//! and after columns), plus one while it is also the live root; `trees`
//! lists it with the revision it was taken at. Two pins at one revision
//! are one node.

use rusqlite::{Connection, OptionalExtension};

use crate::error::Result;
use crate::hard_links;
use crate::tree;

/// Whether any hard-linked node is below directory `dir`.
fn has_hard_links(c: &Connection, dir: i64) -> Result<bool> {
    let any = c
        .prepare_cached("SELECT 1 FROM nodes WHERE nlink > 1 LIMIT 1")?
        .query_row([], |_| Ok(()))
        .optional()?
        .is_some();
    Ok(any && hard_links::has_links_below(c, dir)?)
}

/// The live tree as a pinned root, with one more holder. Reuses the pin of
/// the current revision when there is one (the tree cannot have changed).
pub(crate) fn pin_live(c: &Connection) -> Result<i64> {
    let rev: i64 = c
        .prepare_cached("SELECT rev FROM workspace WHERE id = 1")?
        .query_row([], |r| r.get(0))?;
    let existing: Option<i64> = c
        .prepare_cached("SELECT root FROM trees WHERE rev = ?1 ORDER BY root DESC LIMIT 1")?
        .query_row([rev], |r| r.get(0))
        .optional()?;
    if let Some(root) = existing {
        hold(c, root)?;
        return Ok(root);
    }
    let live = tree::live_root(c)?;
    let root = if has_hard_links(c, live)? {
        let copy = hard_links::copy_dir_node(c, live)?;
        c.prepare_cached("UPDATE nodes SET refs = 1 WHERE id = ?1")?
            .execute([copy])?;
        copy
    } else {
        hold(c, live)?;
        live
    };
    // The live root may be listed already (pinned at an earlier revision
    // that changed nothing in the tree): keep its first revision.
    c.prepare_cached("INSERT OR IGNORE INTO trees (root, rev) VALUES (?1, ?2)")?
        .execute([root, rev])?;
    Ok(root)
}

/// One more holder of pinned root `root`.
pub(crate) fn hold(c: &Connection, root: i64) -> Result<()> {
    c.prepare_cached("UPDATE nodes SET refs = refs + 1 WHERE id = ?1")?
        .execute([root])?;
    Ok(())
}

/// Drops one holder of `root` (its row must be gone already); the last one
/// frees the tree's nodes and whatever chunks nothing else uses
/// (`tree::release`), unless it is the live root, which stays.
pub(crate) fn unpin(c: &Connection, root: i64) -> Result<()> {
    tree::release(c, root)?;
    if holder_count(c, root)? == 0 {
        c.prepare_cached("DELETE FROM trees WHERE root = ?1")?
            .execute([root])?;
    }
    Ok(())
}

fn holder_count(c: &Connection, root: i64) -> Result<i64> {
    Ok(c.prepare_cached(
        "SELECT (SELECT count(*) FROM snapshots WHERE root = ?1)
              + (SELECT count(*) FROM runs WHERE tree_before = ?1)
              + (SELECT count(*) FROM runs WHERE tree_after = ?1)",
    )?
    .query_row([root], |r| r.get(0))?)
}

/// Makes pinned root `root` the live tree: the live root becomes `root`
/// itself, shared (O(1)), or a copy of it when hard links are below. The
/// new root's reference is taken before the old one is dropped, so nothing
/// both trees share is freed on the way.
pub(crate) fn restore_live(c: &Connection, root: i64) -> Result<()> {
    let old = tree::live_root(c)?;
    let new = if has_hard_links(c, root)? {
        let copy = hard_links::copy_dir_node(c, root)?;
        c.prepare_cached("UPDATE nodes SET refs = 1 WHERE id = ?1")?
            .execute([copy])?;
        copy
    } else {
        hold(c, root)?;
        root
    };
    c.prepare_cached("UPDATE workspace SET root = ?1 WHERE id = 1")?
        .execute([new])?;
    tree::release(c, old)?;
    if old != new && holder_count(c, old)? == 0 {
        c.prepare_cached("DELETE FROM trees WHERE root = ?1")?
            .execute([old])?;
    }
    Ok(())
}

/// Every pinned root and how many holders the rows name, for fsck and gc.
pub(crate) fn holders(c: &Connection) -> Result<Vec<(i64, i64)>> {
    let mut stmt = c.prepare(
        "SELECT t.root,
            (SELECT count(*) FROM snapshots s WHERE s.root = t.root)
          + (SELECT count(*) FROM runs r WHERE r.tree_before = t.root)
          + (SELECT count(*) FROM runs r WHERE r.tree_after = t.root)
         FROM trees t ORDER BY t.root",
    )?;
    let rows = stmt
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    Ok(rows)
}
