//! Interrupts of durable runs ([`Workspace::interrupts`]): approval gates
//! waiting for (or holding) the application's answer.

use rusqlite::{OptionalExtension, params};
use serde::Serialize;

use crate::clock::now_ns;
use crate::error::{Errno, FsError, Result};
use crate::journal::{JournalEntry, insert_rows};
use crate::status::RunStatus;
use crate::workspace::Workspace;

/// An interrupt waiting for (or holding) the application's answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Interrupt {
    /// The run that is interrupted.
    pub run_id: String,
    /// The module call that asks (`RUN/SEQ`).
    pub call_id: String,
    /// Which interrupt of the call (0-based): a call may ask several times.
    pub index: u32,
    /// The module asking, without `ws:`.
    pub module: String,
    /// Its function that asks.
    pub function: String,
    /// JSON: what the module asks about.
    pub payload: String,
    /// When it was raised (ns since the epoch).
    pub created_ns: i64,
    /// JSON `{"approved": V}` or `{"rejected": REASON, "value": V}`.
    pub answer: Option<String>,
}

/// The interrupts of a workspace's runs ([`Workspace::interrupts`]).
#[derive(Clone, Copy)]
pub struct Interrupts<'a> {
    pub(crate) ws: &'a Workspace,
}

impl Interrupts<'_> {
    /// The interrupt `index` of `call_id`, if it was raised.
    pub fn get(&self, run_id: &str, call_id: &str, index: u32) -> Result<Option<Interrupt>> {
        self.ws.read_tx(|c| {
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
    pub fn raise(&self, i: &Interrupt, rows: &[JournalEntry]) -> Result<()> {
        self.ws.run_tx(&i.run_id, |c| {
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
    pub fn pending(&self) -> Result<Vec<Interrupt>> {
        self.ws.read_tx(|c| {
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
    pub fn answer(&self, run_id: &str, call_id: &str, answer: &str) -> Result<Interrupt> {
        self.ws.meta_tx(|c| {
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
                let status: Option<RunStatus> = c
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
                } else if let Some(status) = status.filter(|s| s.is_ended()) {
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
