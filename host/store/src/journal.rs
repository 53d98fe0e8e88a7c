//! The journal of a durable run ([`Workspace::journal`]): a row per host
//! call, by position, and the output the run already emitted.
//!
//! A workspace mutation and the journal rows waiting for it commit in the
//! same transaction: the runtime hands them over with
//! [`Journal::commit_with`], which leaves them in a thread-local, and
//! `write_tx` writes them just before it commits. So after a crash the
//! files and the journal always agree.

use std::any::Any;
use std::cell::RefCell;

use rusqlite::{Connection, params};

use crate::error::Result;
use crate::status::{EntryKind, EntryStatus};
use crate::workspace::Workspace;

/// One journalled host call, at position `seq` of its run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JournalEntry {
    /// Position in the run: the n-th journalled call.
    pub seq: u64,
    /// What kind of call it was.
    pub kind: EntryKind,
    /// The function, e.g. `append` or `ws:github.post-comment`.
    pub name: String,
    /// The SHA-256 of the call's arguments, to detect a replay that
    /// diverges. `None` for a row written by an older build, which kept
    /// only 8 bytes of it: such a row matches no call with arguments.
    pub args_digest: Option<ArgsDigest>,
    /// Whether the result is recorded (see [`EntryStatus`]).
    pub status: EntryStatus,
    /// The recorded result, once there is one.
    pub result: Option<Vec<u8>>,
    /// Chunks `result` refers to (a large read kept as chunk pieces): each
    /// is pinned with the row, for as long as the run's journal exists.
    pub pins: Vec<i64>,
    /// The result to record instead if a pinned chunk is gone by the time
    /// the row is written (the file changed meanwhile).
    pub fallback: Option<Vec<u8>>,
}

/// A SHA-256 digest of a call's arguments (all zeros for a call that has
/// none, such as a clock reading).
pub type ArgsDigest = [u8; 32];

/// The digest of a row that has only the 8-byte `args_hash` of an older
/// build: a hash of 0 was a call without arguments; any other cannot be
/// told apart from a colliding call, so it is unknown.
fn legacy_digest(hash: i64) -> Option<ArgsDigest> {
    (hash == 0).then_some([0; 32])
}

/// The 8-byte prefix kept in `args_hash` (the column older builds read).
fn digest_prefix(d: &Option<ArgsDigest>) -> i64 {
    d.map_or(0, |d| {
        i64::from_le_bytes(d[..8].try_into().expect("8 bytes"))
    })
}

/// Builds the result bytes of the row that commits with a mutation, from
/// the mutation's own return value (`&dyn Any` of the operation's output).
pub type ResultEncoder = Box<dyn FnOnce(&dyn Any) -> Vec<u8>>;

/// Rows handed over by `commit_with`, waiting for `write_tx`.
struct Attached {
    /// Set once a transaction has written the rows (it may still roll back).
    written: bool,
    run_id: String,
    /// The epoch the workspace handle claimed the run at (see `fence.rs`).
    epoch: Option<i64>,
    /// Set when the fence refused the rows.
    fenced: bool,
    rows: Vec<JournalEntry>,
    /// The row of the mutation itself; its result comes from the encoder.
    last: Option<(JournalEntry, ResultEncoder)>,
}

thread_local! {
    static ATTACHED: RefCell<Option<Attached>> = const { RefCell::new(None) };
}

/// Called by `write_tx` inside its transaction: writes the attached rows.
/// Returns whether there were any (they are consumed either way; on an
/// error the transaction rolls back and `commit_with` reports them unwritten).
pub(crate) fn write_attached(conn: &Connection, out: &dyn Any) -> Result<()> {
    ATTACHED.with(|a| {
        let mut a = a.borrow_mut();
        let Some(att) = a.as_mut().filter(|att| !att.written) else {
            return Ok(());
        };
        if let Some(epoch) = att.epoch
            && let Err(e) = crate::fence::check(conn, &att.run_id, epoch)
        {
            att.fenced = true;
            return Err(e);
        }
        insert_rows(conn, &att.run_id, &att.rows)?;
        if let Some((row, encode)) = att.last.take() {
            let row = JournalEntry {
                result: Some(encode(out)),
                ..row
            };
            insert_rows(conn, &att.run_id, std::slice::from_ref(&row))?;
        }
        att.written = true;
        Ok(())
    })
}

/// Pins `chunks` for the run's journal (once per run and chunk); `false`
/// if one of them is gone.
fn pin_all(conn: &Connection, run_id: &str, chunks: &[i64]) -> Result<bool> {
    let mut note = conn
        .prepare_cached("INSERT OR IGNORE INTO journal_chunks (run_id, chunk) VALUES (?1, ?2)")?;
    for &chunk in chunks {
        if note.execute(params![run_id, chunk])? == 1 && !crate::content::pin(conn, chunk)? {
            conn.prepare_cached("DELETE FROM journal_chunks WHERE run_id = ?1 AND chunk = ?2")?
                .execute(params![run_id, chunk])?;
            return Ok(false);
        }
    }
    Ok(true)
}

/// Drops the run's pins on chunks (its journal is going away).
pub(crate) fn unpin_all(conn: &Connection, run_id: &str) -> Result<()> {
    let ids: Vec<i64> = conn
        .prepare_cached("DELETE FROM journal_chunks WHERE run_id = ?1 RETURNING chunk")?
        .query_map([run_id], |r| r.get(0))?
        .collect::<rusqlite::Result<_>>()?;
    crate::content::unpin(conn, &ids)
}

/// Writes (or updates) journal rows inside an open transaction.
pub(crate) fn insert_rows(conn: &Connection, run_id: &str, rows: &[JournalEntry]) -> Result<()> {
    let mut stmt = conn.prepare_cached(
        "INSERT INTO journal (run_id, seq, kind, name, args_hash, status, result, args_digest)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
         ON CONFLICT (run_id, seq) DO UPDATE SET status = excluded.status, result = excluded.result",
    )?;
    for r in rows {
        let result = match pin_all(conn, run_id, &r.pins)? {
            true => &r.result,
            false => &r.fallback,
        };
        stmt.execute(params![
            run_id,
            r.seq as i64,
            r.kind,
            r.name,
            digest_prefix(&r.args_digest),
            r.status,
            result,
            r.args_digest.as_ref().map(|d| &d[..]),
        ])?;
    }
    Ok(())
}

/// The journals of a workspace's durable runs ([`Workspace::journal`]).
#[derive(Clone, Copy)]
pub struct Journal<'a> {
    pub(crate) ws: &'a Workspace,
}

impl Journal<'_> {
    /// Runs `op` (one mutating operation) so that `rows`, and `last` with
    /// its result built from the operation's return value, commit in the
    /// operation's own transaction. Returns the operation's result and, if
    /// the operation committed nothing (it failed, or had nothing to
    /// change), the rows back, for the caller to keep.
    pub fn commit_with<T>(
        &self,
        run_id: &str,
        rows: Vec<JournalEntry>,
        last: Option<(JournalEntry, ResultEncoder)>,
        op: impl FnOnce() -> Result<T>,
    ) -> (Result<T>, Option<Vec<JournalEntry>>) {
        ATTACHED.with(|a| {
            *a.borrow_mut() = Some(Attached {
                written: false,
                run_id: run_id.to_owned(),
                epoch: self.ws.fences.epoch(run_id),
                fenced: false,
                rows,
                last,
            })
        });
        let out = op();
        let Some(att) = ATTACHED.with(|a| a.borrow_mut().take()) else {
            return (out, Some(Vec::new()));
        };
        if att.fenced {
            self.ws.fences.mark_fenced(run_id);
        }
        if out.is_ok() && att.written {
            return (out, None);
        }
        // Never used, or written by a transaction that then rolled back.
        (out, Some(att.rows))
    }

    /// Commits journal rows on their own (a flush before an external effect).
    pub fn commit(&self, run_id: &str, rows: &[JournalEntry]) -> Result<()> {
        if rows.is_empty() {
            return Ok(());
        }
        self.ws.run_tx(run_id, |c| insert_rows(c, run_id, rows))
    }

    /// Commits `rows` and output chunks of the run (channel 1 stdout, 2
    /// stderr, in the order written) together; the caller emits them only
    /// after this returns.
    pub fn commit_output(
        &self,
        run_id: &str,
        rows: &[JournalEntry],
        chunks: &[(u8, Vec<u8>)],
    ) -> Result<()> {
        self.ws.run_tx(run_id, |c| {
            insert_rows(c, run_id, rows)?;
            let next: i64 = c
                .prepare_cached(
                    "SELECT coalesce(max(seq), 0) + 1 FROM run_output WHERE run_id = ?1",
                )?
                .query_row([run_id], |r| r.get(0))?;
            let mut stmt = c.prepare_cached(
                "INSERT INTO run_output (run_id, seq, channel, data) VALUES (?1, ?2, ?3, ?4)",
            )?;
            for (i, (channel, data)) in chunks.iter().enumerate() {
                stmt.execute(params![run_id, next + i as i64, channel, data])?;
            }
            Ok(())
        })
    }

    /// The run's journal, by position.
    pub fn entries(&self, run_id: &str) -> Result<Vec<JournalEntry>> {
        self.ws.read_tx(|c| {
            let mut stmt = c.prepare_cached(
                "SELECT seq, kind, name, args_hash, status, result, args_digest FROM journal
                 WHERE run_id = ?1 ORDER BY seq",
            )?;
            let rows = stmt
                .query_map([run_id], |r| {
                    Ok(JournalEntry {
                        seq: r.get::<_, i64>(0)? as u64,
                        kind: r.get(1)?,
                        name: r.get(2)?,
                        args_digest: match r.get::<_, Option<Vec<u8>>>(6)? {
                            Some(d) => d.try_into().ok(),
                            None => legacy_digest(r.get(3)?),
                        },
                        status: r.get(4)?,
                        result: r.get(5)?,
                        pins: Vec::new(),
                        fallback: None,
                    })
                })?
                .collect::<rusqlite::Result<Vec<_>>>()?;
            Ok(rows)
        })
    }

    /// Output the run already emitted: (stdout, stderr).
    pub fn emitted_output(&self, run_id: &str) -> Result<(Vec<u8>, Vec<u8>)> {
        self.ws.read_tx(|c| {
            let mut stmt = c.prepare_cached(
                "SELECT channel, data FROM run_output WHERE run_id = ?1 ORDER BY seq",
            )?;
            let mut out = (Vec::new(), Vec::new());
            let mut rows = stmt.query([run_id])?;
            while let Some(r) = rows.next()? {
                let channel: u8 = r.get(0)?;
                let data: Vec<u8> = r.get(1)?;
                if channel == 2 {
                    out.1.extend_from_slice(&data);
                } else {
                    out.0.extend_from_slice(&data);
                }
            }
            Ok(out)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unknown_stored_kind_is_an_error() {
        let ws = Workspace::in_memory().unwrap();
        let row = JournalEntry {
            seq: 0,
            kind: EntryKind::Clock,
            name: "wall".into(),
            args_digest: Some([0; 32]),
            status: EntryStatus::Done,
            result: None,
            pins: Vec::new(),
            fallback: None,
        };
        ws.journal()
            .commit("r", std::slice::from_ref(&row))
            .unwrap();
        assert_eq!(ws.journal().entries("r").unwrap(), vec![row]);
        ws.meta_tx(|c| Ok(c.execute("UPDATE journal SET kind = 'random'", [])?))
            .unwrap();
        let e = ws.journal().entries("r").unwrap_err();
        assert!(
            e.message.contains("unknown journal entry kind \"random\""),
            "{}",
            e.message
        );
    }
}
