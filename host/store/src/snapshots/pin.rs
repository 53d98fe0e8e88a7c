//! Pinned trees: copies of the root that hold the whole tree as it was.
//!
//! Pinning is what `fs cp -r /` would do if the root could be copied: a new
//! directory node names the root's children and takes a reference on each,
//! so every node and chunk below is shared (copy-on-write: the next change
//! through the live tree clones the nodes on its path, `tree::unshare`).
//! The cost is O(entries in the root), whatever the tree holds.
//!
//! A pinned root has no entry naming it; its `refs` counts its holders (a
//! snapshot row, a run's before or after column), and `trees` lists it with
//! the revision it was taken at. Two pins at one revision are one node.

use rusqlite::{Connection, OptionalExtension};

use crate::db::ROOT_ID;
use crate::error::Result;
use crate::hard_links;
use crate::tree;

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
    let root = hard_links::copy_dir_node(c, ROOT_ID)?;
    c.prepare_cached("UPDATE nodes SET refs = 1 WHERE id = ?1")?
        .execute([root])?;
    c.prepare_cached("INSERT INTO trees (root, rev) VALUES (?1, ?2)")?
        .execute([root, rev])?;
    Ok(root)
}

/// One more holder of pinned root `root`.
pub(crate) fn hold(c: &Connection, root: i64) -> Result<()> {
    c.prepare_cached("UPDATE nodes SET refs = refs + 1 WHERE id = ?1")?
        .execute([root])?;
    Ok(())
}

/// Drops one holder of `root`; the last one frees the tree's nodes and
/// whatever chunks nothing else uses (`tree::release`).
pub(crate) fn unpin(c: &Connection, root: i64) -> Result<()> {
    tree::release(c, root)?;
    let gone = c
        .prepare_cached("SELECT 1 FROM nodes WHERE id = ?1")?
        .query_row([root], |_| Ok(()))
        .optional()?
        .is_none();
    if gone {
        c.prepare_cached("DELETE FROM trees WHERE root = ?1")?
            .execute([root])?;
    }
    Ok(())
}

/// Makes the live root name what pinned root `root` names: its entries
/// are replaced, sharing the pinned tree's nodes. The root node itself
/// stays (its id is the live tree's), taking the pinned root's mode and
/// times. References to the new children are taken before the old ones
/// are dropped, so nothing both trees share is freed on the way.
pub(crate) fn restore_live(c: &Connection, root: i64) -> Result<()> {
    let copy = hard_links::copy_dir_node(c, root)?;
    let old: Vec<(String, i64)> = c
        .prepare_cached("SELECT name, child FROM dentries WHERE dir = ?1")?
        .query_map([ROOT_ID], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<rusqlite::Result<_>>()?;
    c.prepare_cached("DELETE FROM dentries WHERE dir = ?1")?
        .execute([ROOT_ID])?;
    c.prepare_cached("UPDATE dentries SET dir = ?1 WHERE dir = ?2")?
        .execute([ROOT_ID, copy])?;
    c.prepare_cached(
        "UPDATE nodes SET (mode, mtime_ns, atime_ns) =
           (SELECT mode, mtime_ns, atime_ns FROM nodes WHERE id = ?2) WHERE id = ?1",
    )?
    .execute([ROOT_ID, copy])?;
    c.prepare_cached("DELETE FROM nodes WHERE id = ?1")?
        .execute([copy])?;
    for (_, child) in old {
        tree::release(c, child)?;
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
