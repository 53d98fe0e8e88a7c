//! Durable runs in the store: the journal of a run's host calls, its
//! emitted output, its interrupts (approval gates) and its lease.
//!
//! A workspace mutation and the journal rows waiting for it commit in the
//! same transaction: the runtime hands them over with
//! [`Workspace::with_journal`], and `write_tx` writes them just before it
//! commits. So after a crash the files and the journal always agree.

use std::any::Any;
use std::cell::RefCell;
use std::time::Duration;

use rusqlite::{Connection, OptionalExtension, params};
use serde::Serialize;

use crate::clock::now_ns;
use crate::error::{Errno, FsError, Result};
use crate::workspace::Workspace;

/// What became of a journalled call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EntryStatus {
    /// The result is recorded: replay returns it without executing.
    Done,
    /// A module call began and has no result: replay executes it again.
    Started,
    /// A module call passed unsafe-to-repeat and has no result: replay
    /// must not execute it again.
    Unsafe,
}

impl EntryStatus {
    fn as_str(self) -> &'static str {
        match self {
            EntryStatus::Done => "done",
            EntryStatus::Started => "started",
            EntryStatus::Unsafe => "unsafe",
        }
    }

    fn parse(s: &str) -> Self {
        match s {
            "started" => EntryStatus::Started,
            "unsafe" => EntryStatus::Unsafe,
            _ => EntryStatus::Done,
        }
    }
}

/// One journalled host call, at position `seq` of its run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JournalEntry {
    pub seq: u64,
    /// `fs`, `module`, `clock`, `random`, ...
    pub kind: String,
    /// The function, e.g. `append` or `ws:github.post-comment`.
    pub name: String,
    /// A hash of the arguments, to detect a replay that diverges.
    pub args_hash: i64,
    pub status: EntryStatus,
    pub result: Option<Vec<u8>>,
}

/// Builds the result bytes of the row that commits with a mutation, from
/// the mutation's own return value (`&dyn Any` of the operation's output).
pub type ResultEncoder = Box<dyn FnOnce(&dyn Any) -> Vec<u8>>;

struct Attached {
    /// Set once a transaction has written the rows (it may still roll back).
    written: bool,
    run_id: String,
    rows: Vec<JournalEntry>,
    /// The row of the mutation itself; its result comes from the encoder.
    last: Option<(JournalEntry, ResultEncoder)>,
}

thread_local! {
    static ATTACHED: RefCell<Option<Attached>> = const { RefCell::new(None) };
}

/// Called by `write_tx` inside its transaction: writes the attached rows.
/// Returns whether there were any (they are consumed either way; on an
/// error the transaction rolls back and `with_journal` reports them unwritten).
pub(crate) fn write_attached(conn: &Connection, out: &dyn Any) -> Result<()> {
    ATTACHED.with(|a| {
        let mut a = a.borrow_mut();
        let Some(att) = a.as_mut().filter(|att| !att.written) else {
            return Ok(());
        };
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

fn insert_rows(conn: &Connection, run_id: &str, rows: &[JournalEntry]) -> Result<()> {
    let mut stmt = conn.prepare_cached(
        "INSERT INTO journal (run_id, seq, kind, name, args_hash, status, result)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
         ON CONFLICT (run_id, seq) DO UPDATE SET status = excluded.status, result = excluded.result",
    )?;
    for r in rows {
        stmt.execute(params![
            run_id,
            r.seq as i64,
            r.kind,
            r.name,
            r.args_hash,
            r.status.as_str(),
            r.result
        ])?;
    }
    Ok(())
}

/// An interrupt waiting for (or holding) the application's answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Interrupt {
    pub run_id: String,
    pub call_id: String,
    /// Which interrupt of the call (0-based): a call may ask several times.
    pub index: u32,
    pub module: String,
    pub function: String,
    /// JSON.
    pub payload: String,
    pub created_ns: i64,
    /// JSON `{"approved": V}` or `{"rejected": REASON, "value": V}`.
    pub answer: Option<String>,
}

/// What a durable run needs beyond [`crate::NewRun`].
#[derive(Debug, Clone)]
pub struct DurableRun<'a> {
    /// `replay` or `fail`.
    pub on_interrupt: &'a str,
    /// JSON: everything needed to run it again (a replaying run).
    pub spec: Option<&'a str>,
    pub owner: &'a str,
    pub lease: Duration,
}

/// A run that `recover` may have to take over.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unfinished {
    pub id: String,
    pub status: String,
    pub on_interrupt: String,
    pub owner: Option<String>,
    pub lease_until_ns: Option<i64>,
    /// For a waiting run: whether every interrupt has its answer.
    pub answered: bool,
}

/// A run taken over by this process, with what it takes to run it again.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Claimed {
    pub backend: String,
    pub source: String,
    pub on_interrupt: String,
    pub spec: Option<String>,
    pub attempts: u32,
}

fn lease_end(lease: Duration) -> i64 {
    now_ns().saturating_add(lease.as_nanos().min(i64::MAX as u128) as i64)
}

impl Workspace {
    /// Runs `op` (one mutating operation) so that `rows`, and `last` with
    /// its result built from the operation's return value, commit in the
    /// operation's own transaction. Returns the operation's result and, if
    /// the operation committed nothing (it failed, or had nothing to
    /// change), the rows back, for the caller to keep.
    pub fn with_journal<T>(
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
                rows,
                last,
            })
        });
        let out = op();
        let Some(att) = ATTACHED.with(|a| a.borrow_mut().take()) else {
            return (out, Some(Vec::new()));
        };
        if out.is_ok() && att.written {
            return (out, None);
        }
        // Never used, or written by a transaction that then rolled back.
        (out, Some(att.rows))
    }

    /// Commits journal rows on their own (a flush before an external effect).
    pub fn journal_commit(&self, run_id: &str, rows: &[JournalEntry]) -> Result<()> {
        if rows.is_empty() {
            return Ok(());
        }
        self.meta_tx(|c| insert_rows(c, run_id, rows))
    }

    /// Commits `rows` and output chunks of the run (channel 1 stdout, 2
    /// stderr, in the order written) together; the caller emits them only
    /// after this returns.
    pub fn journal_output(
        &self,
        run_id: &str,
        rows: &[JournalEntry],
        chunks: &[(u8, Vec<u8>)],
    ) -> Result<()> {
        self.meta_tx(|c| {
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
    pub fn journal(&self, run_id: &str) -> Result<Vec<JournalEntry>> {
        self.read_tx(|c| {
            let mut stmt = c.prepare_cached(
                "SELECT seq, kind, name, args_hash, status, result FROM journal
                 WHERE run_id = ?1 ORDER BY seq",
            )?;
            let rows = stmt
                .query_map([run_id], |r| {
                    Ok(JournalEntry {
                        seq: r.get::<_, i64>(0)? as u64,
                        kind: r.get(1)?,
                        name: r.get(2)?,
                        args_hash: r.get(3)?,
                        status: EntryStatus::parse(&r.get::<_, String>(4)?),
                        result: r.get(5)?,
                    })
                })?
                .collect::<rusqlite::Result<Vec<_>>>()?;
            Ok(rows)
        })
    }

    /// Output the run already emitted: (stdout, stderr).
    pub fn emitted_output(&self, run_id: &str) -> Result<(Vec<u8>, Vec<u8>)> {
        self.read_tx(|c| {
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

    /// Records a durable run as `running`, owned by `durable.owner`.
    pub fn create_durable_run(
        &self,
        run: &crate::NewRun<'_>,
        durable: &DurableRun<'_>,
    ) -> Result<()> {
        crate::validate_run_id(run.id)?;
        // One transaction: a crash never leaves a run without its owner.
        self.meta_tx(|c| {
            crate::runs::insert_run(c, run)?;
            c.prepare_cached(
                "UPDATE runs SET on_interrupt = ?2, spec = ?3, owner = ?4, lease_until_ns = ?5
                 WHERE id = ?1",
            )?
            .execute(params![
                run.id,
                durable.on_interrupt,
                durable.spec,
                durable.owner,
                lease_end(durable.lease)
            ])?;
            Ok(())
        })
    }

    /// Takes over run `id` for `owner`, if it may run: it is `waiting`, or
    /// `running` with no live owner (`owner_dead` says whether a recorded
    /// owner is gone; an expired lease counts as gone). At most one process
    /// wins: the check and the update are one transaction.
    pub fn claim_run(
        &self,
        id: &str,
        owner: &str,
        lease: Duration,
        owner_dead: &dyn Fn(&str) -> bool,
    ) -> Result<Option<Claimed>> {
        self.meta_tx(|c| {
            let row = c
                .prepare_cached(
                    "SELECT status, owner, lease_until_ns, backend, source, on_interrupt, spec, attempts
                     FROM runs WHERE id = ?1",
                )?
                .query_row([id], |r| {
                    Ok((
                        r.get::<_, String>(0)?,
                        r.get::<_, Option<String>>(1)?,
                        r.get::<_, Option<i64>>(2)?,
                        Claimed {
                            backend: r.get(3)?,
                            source: r.get(4)?,
                            on_interrupt: r.get(5)?,
                            spec: r.get(6)?,
                            attempts: r.get::<_, i64>(7)? as u32,
                        },
                    ))
                })
                .optional()?;
            let Some((status, current, lease_until, mut claimed)) = row else {
                return Err(FsError::custom(
                    Errno::ENOENT,
                    id,
                    format!("no run with id {id}"),
                ));
            };
            let free = match status.as_str() {
                "waiting" => true,
                "running" => match &current {
                    None => true,
                    Some(o) if o == owner => true,
                    Some(o) => lease_until.is_none_or(|t| t < now_ns()) || owner_dead(o),
                },
                _ => false,
            };
            if !free {
                return Ok(None);
            }
            c.prepare_cached(
                "UPDATE runs SET status = 'running', owner = ?2, lease_until_ns = ?3,
                 attempts = attempts + 1 WHERE id = ?1",
            )?
            .execute(params![id, owner, lease_end(lease)])?;
            claimed.attempts += 1;
            Ok(Some(claimed))
        })
    }

    /// Extends `owner`'s lease on run `id`. False if it no longer owns it.
    pub fn renew_lease(&self, id: &str, owner: &str, lease: Duration) -> Result<bool> {
        self.meta_tx(|c| {
            let n = c
                .prepare_cached(
                    "UPDATE runs SET lease_until_ns = ?3 WHERE id = ?1 AND owner = ?2 AND status = 'running'",
                )?
                .execute(params![id, owner, lease_end(lease)])?;
            Ok(n == 1)
        })
    }

    /// Parks run `id`: `waiting`, no owner. `rows` commit with it.
    pub fn park_run(&self, id: &str, rows: &[JournalEntry]) -> Result<()> {
        self.meta_tx(|c| {
            insert_rows(c, id, rows)?;
            c.prepare_cached(
                "UPDATE runs SET status = 'waiting', owner = NULL, lease_until_ns = NULL WHERE id = ?1",
            )?
            .execute([id])?;
            Ok(())
        })
    }

    /// Runs that are `running` or `waiting`, for recovery.
    pub fn unfinished_runs(&self) -> Result<Vec<Unfinished>> {
        self.read_tx(|c| {
            let mut stmt = c.prepare_cached(
                "SELECT id, status, on_interrupt, owner, lease_until_ns,
                        NOT EXISTS (SELECT 1 FROM interrupts i WHERE i.run_id = runs.id AND i.answer IS NULL)
                 FROM runs WHERE status IN ('running', 'waiting') ORDER BY started_ns, id",
            )?;
            let rows = stmt
                .query_map([], |r| {
                    Ok(Unfinished {
                        id: r.get(0)?,
                        status: r.get(1)?,
                        on_interrupt: r.get(2)?,
                        owner: r.get(3)?,
                        lease_until_ns: r.get(4)?,
                        answered: r.get(5)?,
                    })
                })?
                .collect::<rusqlite::Result<Vec<_>>>()?;
            Ok(rows)
        })
    }

    /// The interrupt `index` of `call_id`, if it was raised.
    pub fn interrupt(&self, run_id: &str, call_id: &str, index: u32) -> Result<Option<Interrupt>> {
        self.read_tx(|c| {
            Ok(c.prepare_cached(
                "SELECT run_id, call_id, idx, module, function, payload, created_ns, answer
                 FROM interrupts WHERE run_id = ?1 AND call_id = ?2 AND idx = ?3",
            )?
            .query_row(params![run_id, call_id, index], interrupt_from_row)
            .optional()?)
        })
    }

    /// Records a new pending interrupt (once; raising it again keeps the
    /// first). `rows` commit with it.
    pub fn raise_interrupt(&self, i: &Interrupt, rows: &[JournalEntry]) -> Result<()> {
        self.meta_tx(|c| {
            insert_rows(c, &i.run_id, rows)?;
            c.prepare_cached(
                "INSERT INTO interrupts (run_id, call_id, idx, module, function, payload, created_ns)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) ON CONFLICT DO NOTHING",
            )?
            .execute(params![
                i.run_id,
                i.call_id,
                i.index,
                i.module,
                i.function,
                i.payload,
                now_ns()
            ])?;
            Ok(())
        })
    }

    /// Interrupts waiting for an answer, oldest first.
    pub fn pending_interrupts(&self) -> Result<Vec<Interrupt>> {
        self.read_tx(|c| {
            let mut stmt = c.prepare_cached(
                "SELECT run_id, call_id, idx, module, function, payload, created_ns, answer
                 FROM interrupts WHERE answer IS NULL ORDER BY created_ns, run_id, call_id, idx",
            )?;
            let rows = stmt
                .query_map([], interrupt_from_row)?
                .collect::<rusqlite::Result<Vec<_>>>()?;
            Ok(rows)
        })
    }

    /// Stores the answer to the pending interrupt of `call_id` in `run_id`.
    /// Answering an unknown call, or one with no interrupt waiting, is an error.
    pub fn answer_interrupt(&self, run_id: &str, call_id: &str, answer: &str) -> Result<Interrupt> {
        self.meta_tx(|c| {
            let waiting = c
                .prepare_cached(
                    "SELECT run_id, call_id, idx, module, function, payload, created_ns, answer
                     FROM interrupts WHERE run_id = ?1 AND call_id = ?2 AND answer IS NULL
                     ORDER BY idx LIMIT 1",
                )?
                .query_row(params![run_id, call_id], interrupt_from_row)
                .optional()?;
            let Some(mut i) = waiting else {
                let known: i64 = c
                    .prepare_cached(
                        "SELECT count(*) FROM interrupts WHERE run_id = ?1 AND call_id = ?2",
                    )?
                    .query_row(params![run_id, call_id], |r| r.get(0))?;
                let what = format!("{run_id} {call_id}");
                let status: Option<String> = c
                    .prepare_cached("SELECT status FROM runs WHERE id = ?1")?
                    .query_row([run_id], |r| r.get(0))
                    .optional()?;
                return Err(if known > 0 {
                    FsError::custom(
                        Errno::EEXIST,
                        what,
                        format!(
                            "call {call_id} of run {run_id} was already answered; nothing is waiting"
                        ),
                    )
                } else if let Some(status) = status.filter(|s| s != "waiting" && s != "running") {
                    FsError::custom(
                        Errno::EEXIST,
                        what,
                        format!("run {run_id} has already ended ({status}); nothing waits for an answer"),
                    )
                } else {
                    FsError::custom(
                        Errno::ENOENT,
                        what,
                        format!(
                            "run {run_id} has no interrupt for call {call_id}; `computer pending` lists them"
                        ),
                    )
                });
            };
            c.prepare_cached(
                "UPDATE interrupts SET answer = ?4, answered_ns = ?5
                 WHERE run_id = ?1 AND call_id = ?2 AND idx = ?3",
            )?
            .execute(params![run_id, call_id, i.index, answer, now_ns()])?;
            i.answer = Some(answer.to_owned());
            Ok(i)
        })
    }

    /// Drops what only an unfinished run needs (journal, emitted output,
    /// interrupts), once it has ended for good.
    pub(crate) fn drop_durable_state(c: &Connection, id: &str) -> Result<()> {
        for sql in [
            "DELETE FROM journal WHERE run_id = ?1",
            "DELETE FROM run_output WHERE run_id = ?1",
            "DELETE FROM interrupts WHERE run_id = ?1",
        ] {
            c.prepare_cached(sql)?.execute([id])?;
        }
        Ok(())
    }
}

fn interrupt_from_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<Interrupt> {
    Ok(Interrupt {
        run_id: r.get(0)?,
        call_id: r.get(1)?,
        index: r.get::<_, i64>(2)? as u32,
        module: r.get(3)?,
        function: r.get(4)?,
        payload: r.get(5)?,
        created_ns: r.get(6)?,
        answer: r.get(7)?,
    })
}
