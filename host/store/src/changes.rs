//! The change log: the canonical paths each revision changed (migration
//! `0006_changes`). A consumer that remembers the revision it last saw asks
//! [`Workspace::changes_since`] and visits only those paths; the container
//! sync's push is the one that needs it.
//!
//! The log is off until a consumer turns it on
//! ([`Workspace::keep_change_log`]), so workspaces nobody syncs do not pay
//! a row per mutation. While a write transaction runs, the paths it
//! changes are collected here (per thread: the transaction runs on the
//! caller's thread, holding the connection); `write_tx` writes them after
//! bumping `rev`, in the same transaction, if the log is on.

use std::cell::RefCell;
use std::collections::BTreeMap;

use rusqlite::{Connection, params};

use crate::error::Result;
use crate::path::WsPath;
use crate::workspace::{Touch, Workspace};

/// How many revisions the log keeps. A consumer further behind than this
/// walks the tree instead. At ~60 bytes a row this is a few MiB at most.
pub const CHANGES_KEPT: u64 = 32_768;

/// Pruning runs on every this-many revisions, not on every commit.
const PRUNE_EVERY: u64 = 1_024;

/// One changed path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Change {
    /// Canonical: no symlink among its parents.
    pub path: String,
    /// Entries below the path may have changed too (it was removed, moved
    /// or replaced). Otherwise only the entry itself changed, or it
    /// appeared (then, for a copied or moved directory, with contents).
    pub subtree: bool,
}

/// What changed between a revision and now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Changes {
    /// The revision the answer is complete up to (the current one).
    pub rev: u64,
    /// Sorted by path, so a parent comes before its children; each path
    /// once. `None`: the log does not reach back that far (it is off, was
    /// started later, or was pruned), so anything may have changed.
    pub paths: Option<Vec<Change>>,
}

thread_local! {
    /// Paths the running write transaction changes.
    static PENDING: RefCell<Vec<(String, bool)>> = const { RefCell::new(Vec::new()) };
}

/// Notes that the running write transaction changes `target`.
pub(crate) fn note(target: &WsPath, touch: Touch) {
    PENDING.with(|p| {
        p.borrow_mut()
            .push((target.to_string(), touch == Touch::Subtree))
    });
}

/// What the running write transaction has noted so far (path, subtree).
pub(crate) fn pending() -> Vec<(String, bool)> {
    PENDING.with(|p| p.borrow().clone())
}

/// Forgets what an earlier (failed) transaction on this thread noted.
pub(crate) fn begin() {
    PENDING.with(|p| p.borrow_mut().clear());
}

/// Called by `write_tx` after the `rev` bump: logs what the transaction
/// noted, under `rev`, if the log is on, and prunes now and then.
pub(crate) fn commit(c: &Connection, rev: u64, log_on: bool) -> Result<()> {
    let noted = PENDING.with(|p| std::mem::take(&mut *p.borrow_mut()));
    if !log_on {
        return Ok(());
    }
    let mut insert = c.prepare_cached(
        "INSERT INTO changes (rev, path, subtree) VALUES (?1, ?2, ?3)
         ON CONFLICT (rev, path) DO UPDATE SET subtree = max(subtree, excluded.subtree)",
    )?;
    for (path, subtree) in noted {
        insert.execute(params![rev as i64, path, subtree])?;
    }
    if rev.is_multiple_of(PRUNE_EVERY) && rev > CHANGES_KEPT {
        let floor = (rev - CHANGES_KEPT) as i64;
        c.prepare_cached("DELETE FROM changes WHERE rev <= ?1")?
            .execute([floor])?;
        c.prepare_cached("UPDATE workspace SET changes_from = max(changes_from, ?1) WHERE id = 1")?
            .execute([floor])?;
    }
    Ok(())
}

impl Workspace {
    /// Turns the change log on (it stays on), and returns the current
    /// revision: [`Workspace::changes_since`] answers for it and later ones.
    pub fn keep_change_log(&self) -> Result<u64> {
        self.meta_tx(|c| {
            c.prepare_cached(
                "UPDATE workspace SET changes_on = 1, changes_from = rev
                 WHERE id = 1 AND changes_on = 0",
            )?
            .execute([])?;
            let rev: i64 = c
                .prepare_cached("SELECT rev FROM workspace WHERE id = 1")?
                .query_row([], |r| r.get(0))?;
            Ok(rev as u64)
        })
    }

    /// The paths changed after revision `since`, and the current revision,
    /// read in one snapshot.
    pub fn changes_since(&self, since: u64) -> Result<Changes> {
        self.read_tx(|c| {
            let (rev, on, from): (i64, bool, i64) = c
                .prepare_cached("SELECT rev, changes_on, changes_from FROM workspace WHERE id = 1")?
                .query_row([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?;
            let (rev, from) = (rev as u64, from as u64);
            if since == rev {
                return Ok(Changes {
                    rev,
                    paths: Some(Vec::new()),
                });
            }
            if !on || since < from || since > rev {
                return Ok(Changes { rev, paths: None });
            }
            let mut merged: BTreeMap<String, bool> = BTreeMap::new();
            let mut stmt = c.prepare_cached("SELECT path, subtree FROM changes WHERE rev > ?1")?;
            let mut rows = stmt.query([since as i64])?;
            while let Some(row) = rows.next()? {
                let subtree: bool = row.get(1)?;
                *merged.entry(row.get(0)?).or_default() |= subtree;
            }
            let paths = merged
                .into_iter()
                .map(|(path, subtree)| Change { path, subtree })
                .collect();
            Ok(Changes {
                rev,
                paths: Some(paths),
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::WriteOptions;

    #[test]
    fn old_rows_are_pruned_and_the_log_says_it_no_longer_reaches_back() {
        let ws = Workspace::in_memory().unwrap();
        ws.keep_change_log().unwrap();
        ws.write("/early", b"e", &WriteOptions::default()).unwrap();
        // The next commit is a pruning one, far enough along to drop /early.
        let next = (CHANGES_KEPT / PRUNE_EVERY + 2) * PRUNE_EVERY;
        ws.meta_tx(|c| {
            c.execute("UPDATE workspace SET rev = ?1", [(next - 1) as i64])?;
            Ok(())
        })
        .unwrap();
        ws.write("/late", b"l", &WriteOptions::default()).unwrap();
        assert_eq!(ws.rev().unwrap(), next);

        let kept = ws.changes_since(next - 1).unwrap();
        let late = Change {
            path: "/late".into(),
            subtree: false,
        };
        assert_eq!(kept.paths, Some(vec![late]));
        // Further back than what is kept: unknown, not "nothing changed".
        assert_eq!(ws.changes_since(0).unwrap().paths, None);
        let rows: i64 = ws
            .read_tx(|c| Ok(c.query_row("SELECT count(*) FROM changes", [], |r| r.get(0))?))
            .unwrap();
        assert_eq!(rows, 1);
    }
}
