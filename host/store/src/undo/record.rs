//! What every run records for `diff` and `undo`: the tree it started from
//! and the tree it ended with, as pinned trees (`snapshots::pin`), in the
//! same transactions that create and finish its run record.
//!
//! A pin is O(1) (a reference on the live root), and a run that changes
//! nothing shares its before and after (same revision, same node). Old run trees are
//! dropped once more than [`RUN_TREES_KEPT`] runs hold some, so the content
//! they keep alive is bounded; `gc` drops them sooner.

use rusqlite::{Connection, params};

use crate::error::Result;
use crate::snapshots::pin;

/// Runs whose before and after trees are kept; older runs cannot be undone.
pub const RUN_TREES_KEPT: usize = 64;

/// At run start: pins the live tree as the run's `tree_before`, and drops
/// the trees of runs beyond the newest [`RUN_TREES_KEPT`].
pub(crate) fn at_start(c: &Connection, run_id: &str) -> Result<()> {
    let root = pin::pin_live(c)?;
    c.prepare_cached("UPDATE runs SET tree_before = ?2 WHERE id = ?1")?
        .execute(params![run_id, root])?;
    drop_older_than(c, RUN_TREES_KEPT)?;
    Ok(())
}

/// At run end: pins the live tree as the run's `tree_after` (once).
pub(crate) fn at_end(c: &Connection, run_id: &str) -> Result<()> {
    let has_before: bool = c
        .prepare_cached(
            "SELECT tree_before IS NOT NULL AND tree_after IS NULL FROM runs WHERE id = ?1",
        )?
        .query_row([run_id], |r| r.get(0))?;
    if has_before {
        let root = pin::pin_live(c)?;
        c.prepare_cached("UPDATE runs SET tree_after = ?2 WHERE id = ?1")?
            .execute(params![run_id, root])?;
    }
    Ok(())
}

/// Drops the trees of every run but the newest `keep` that hold some.
/// Returns how many runs lost theirs.
pub(crate) fn drop_older_than(c: &Connection, keep: usize) -> Result<u64> {
    let old: Vec<(String, Option<i64>, Option<i64>)> = c
        .prepare_cached(
            "SELECT id, tree_before, tree_after FROM runs
              WHERE tree_before IS NOT NULL OR tree_after IS NOT NULL
              ORDER BY started_ns DESC, id DESC LIMIT -1 OFFSET ?1",
        )?
        .query_map([keep as i64], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?
        .collect::<rusqlite::Result<_>>()?;
    for (id, before, after) in &old {
        c.prepare_cached("UPDATE runs SET tree_before = NULL, tree_after = NULL WHERE id = ?1")?
            .execute([id])?;
        for root in [before, after].into_iter().flatten() {
            pin::unpin(c, *root)?;
        }
    }
    Ok(old.len() as u64)
}
