//! The workspace's path bound: a number no stored path is longer than (in
//! bytes), kept in `workspace.path_bound`. It lets a directory move or copy
//! to a longer prefix be checked against [`MAX_PATH`] without walking the
//! subtree, so both stay O(1) in its size.
//!
//! Every change raises the bound to the paths it touches (`will_change`
//! sees each canonical target), in the same `UPDATE` that bumps `rev`, so
//! it costs no page of its own. A move or copy of a directory raises it by
//! what the prefix grew. Nothing lowers it but a walk of the whole tree,
//! made only when the bound is too high to prove a move safe; removals
//! leave it high, which is safe.

use std::cell::Cell;

use rusqlite::Connection;

use crate::error::Result;
use crate::path::MAX_PATH;

thread_local! {
    /// The longest path the current write transaction may have created.
    static LONGEST: Cell<usize> = const { Cell::new(0) };
}

/// Starts a write transaction's count.
pub(crate) fn begin() {
    LONGEST.with(|l| l.set(0));
}

/// Notes that the transaction may leave a path of `len` bytes.
pub(crate) fn raise(len: usize) {
    LONGEST.with(|l| l.set(l.get().max(len)));
}

/// What the transaction's `rev` bump raises the stored bound to (at least).
pub(crate) fn take() -> i64 {
    LONGEST.with(|l| l.replace(0)) as i64
}

/// The stored bound, as this transaction sees it.
fn stored(c: &Connection) -> Result<usize> {
    let bound: i64 = c
        .prepare_cached("SELECT path_bound FROM workspace WHERE id = 1")?
        .query_row([], |r| r.get(0))?;
    Ok(usize::try_from(bound).unwrap_or(MAX_PATH))
}

/// Whether the tree at node `id`, now under a prefix of `old_len` bytes,
/// fits under `MAX_PATH` below a prefix of `new_len` bytes (longer). `Ok(None)`
/// when it does; else the byte length of the first path found that would
/// be too long. Called before the move, in its transaction.
pub(crate) fn check_move(
    c: &Connection,
    id: i64,
    old_len: usize,
    new_len: usize,
) -> Result<Option<usize>> {
    let grown = new_len - old_len;
    // Every path below the old prefix is at most the bound, so after the
    // move each is at most the bound plus what the prefix grew.
    let bound = stored(c)?;
    if bound + grown <= MAX_PATH {
        raise(bound + grown);
        return Ok(None);
    }
    let budget = MAX_PATH.saturating_sub(new_len);
    let below = deepest(c, id, budget)?;
    if below > budget {
        return Ok(Some(new_len + below));
    }
    // Too high to decide, but the move fits: the bound has drifted above
    // the tree (removals, earlier moves). Make it exact again so the next
    // move takes the short path.
    let whole = deepest(c, crate::tree::live_root(c)?, MAX_PATH)?.max(1);
    c.prepare_cached("UPDATE workspace SET path_bound = ?1 WHERE id = 1")?
        .execute([whole as i64])?;
    raise(new_len + below);
    Ok(None)
}

/// The byte length of the longest path below node `id`, relative to it (of
/// every path, for the root: the walk of migration `0012_path_bound`).
/// The walk stops descending past `budget` bytes, so it costs the part of
/// the tree within that (and ends on a damaged tree with a cycle); a
/// result over `budget` means some path is at least that long.
fn deepest(c: &Connection, id: i64, budget: usize) -> Result<usize> {
    let budget = i64::try_from(budget).unwrap_or(i64::MAX);
    let len: i64 = c
        .prepare_cached(
            "WITH RECURSIVE below(id, len) AS ( \
                 SELECT ?1, 0 \
                 UNION ALL \
                 SELECT d.child, below.len + 1 + length(CAST(d.name AS BLOB)) \
                 FROM dentries d JOIN below ON d.dir = below.id \
                 WHERE below.len <= ?2 \
             ) SELECT max(len) FROM below",
        )?
        .query_row(rusqlite::params![id, budget], |r| r.get(0))?;
    Ok(len as usize)
}

/// For `fsck`: a line for what is wrong with the bound, if anything. The
/// walk is bounded by the limit, so a damaged tree with a cycle ends.
pub(crate) fn problem(c: &Connection) -> Result<Option<String>> {
    let bound = stored(c)?;
    let longest = deepest(c, crate::tree::live_root(c)?, MAX_PATH)?.max(1);
    Ok(if longest > MAX_PATH {
        Some(format!(
            "paths: an entry's path is at least {longest} bytes, the limit is {MAX_PATH}"
        ))
    } else if bound < longest {
        Some(format!(
            "path bound: the workspace records {bound} bytes as its longest path, but one of {longest} bytes is stored"
        ))
    } else {
        None
    })
}
