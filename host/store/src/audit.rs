//! The audit log. Every public operation runs inside `Workspace::audited`,
//! which times it and records one row: who did it (the thread's actor), the
//! operation, its target, its arguments (large payloads as size and hash),
//! the outcome, and the duration.
//!
//! A successful mutation writes its row in its own transaction, so the
//! change and its audit row commit together. Reads, and operations that
//! failed (their transaction rolled back), are buffered in memory and
//! written in batches: with the next mutation's transaction, when the
//! buffer fills, before the log is queried, and when the handle is dropped.
//!
//! Reading the log, and recording events and tool calls from outside the
//! store, is `audit_log.rs` ([`Workspace::audit`]).

use std::cell::RefCell;
use std::time::Instant;

use rusqlite::{Connection, params};
use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::clock::now_ns;
use crate::error::{Errno, FsError, Result};
use crate::workspace::Workspace;

/// Buffered rows are flushed once this many are waiting.
const FLUSH_AT: usize = 256;
/// Payloads up to this size are recorded verbatim; larger ones as size and hash.
const INLINE_ARG: usize = 256;

thread_local! {
    static ACTOR: RefCell<Option<String>> = const { RefCell::new(None) };
    static CURRENT: RefCell<Vec<OpState>> = const { RefCell::new(Vec::new()) };
}

/// Sets who this thread's operations are attributed to (`cli`, `tool`,
/// `run:<id>/<backend>`, ...). The default is `embedder`.
pub fn set_actor(actor: impl Into<String>) {
    ACTOR.with(|a| *a.borrow_mut() = Some(actor.into()));
}

/// Runs `f` with this thread's actor set to `actor`, then restores it.
pub fn with_actor<T>(actor: impl Into<String>, f: impl FnOnce() -> T) -> T {
    let previous = ACTOR.with(|a| a.borrow_mut().replace(actor.into()));
    let out = f();
    ACTOR.with(|a| *a.borrow_mut() = previous);
    out
}

/// Who this thread's operations are attributed to now (see [`set_actor`]),
/// so work handed to another thread can keep the same actor.
pub fn current_actor() -> String {
    actor()
}

pub(crate) fn actor() -> String {
    ACTOR.with(|a| a.borrow().clone().unwrap_or_else(|| "embedder".to_owned()))
}

/// A large payload as `{"size": n, "sha256": "…"}`, a small text verbatim.
pub fn summarize_bytes(data: &[u8]) -> Value {
    if data.len() <= INLINE_ARG
        && let Ok(text) = std::str::from_utf8(data)
    {
        return Value::String(text.to_owned());
    }
    let hash = Sha256::digest(data);
    let hex: String = hash[..8].iter().map(|b| format!("{b:02x}")).collect();
    serde_json::json!({"size": data.len(), "sha256": hex})
}

/// [`summarize_bytes`] for content the store has already hashed in chunks,
/// without a second pass over the bytes: content of one chunk gets its
/// sha256 as usual; larger content is identified by the sha256 of its
/// chunks' sha256s (`chunks_sha256`, chunks of [`crate::CHUNK_SIZE`]).
pub(crate) fn summarize_content(content: &crate::content::Hashed<'_>) -> Value {
    let data = content.data;
    if data.len() <= INLINE_ARG
        && let Ok(text) = std::str::from_utf8(data)
    {
        return Value::String(text.to_owned());
    }
    let short = |hash: &[u8]| -> String { hash[..8].iter().map(|b| format!("{b:02x}")).collect() };
    match content.digests.as_slice() {
        [one] => serde_json::json!({"size": data.len(), "sha256": short(one)}),
        many => {
            let mut list = Sha256::new();
            for d in many {
                list.update(d);
            }
            serde_json::json!({"size": data.len(), "chunks_sha256": short(&list.finalize())})
        }
    }
}

/// Environment variables for the audit log: values of keys that look like
/// secrets (token, secret, password, key, auth, credential) are redacted.
pub fn redact_env<'a>(env: impl IntoIterator<Item = (&'a String, &'a String)>) -> Value {
    const SECRET_WORDS: &[&str] = &[
        "TOKEN",
        "SECRET",
        "PASSWORD",
        "PASSWD",
        "KEY",
        "AUTH",
        "CREDENTIAL",
        "COOKIE",
        "SESSION",
    ];
    let map: serde_json::Map<String, Value> = env
        .into_iter()
        .map(|(k, v)| {
            let upper = k.to_ascii_uppercase();
            let secret = SECRET_WORDS.iter().any(|w| upper.contains(w));
            let shown = if secret {
                "[redacted]".to_owned()
            } else {
                v.clone()
            };
            (k.clone(), Value::String(shown))
        })
        .collect();
    Value::Object(map)
}

/// A string argument, summarized the same way when large.
pub fn summarize_text(text: &str) -> Value {
    summarize_bytes(text.as_bytes())
}

/// One audit row, ready to insert.
#[derive(Debug, Clone)]
pub(crate) struct Row {
    pub(crate) time_ns: i64,
    pub(crate) actor: String,
    pub(crate) operation: &'static str,
    pub(crate) target: String,
    pub(crate) args: Option<String>,
    pub(crate) outcome: String,
    pub(crate) error: Option<String>,
    pub(crate) duration_ns: i64,
}

struct OpState {
    operation: &'static str,
    target: String,
    args: Option<String>,
    started: Instant,
    time_ns: i64,
    /// Set once a write transaction has recorded this operation.
    recorded: bool,
}

fn outcome_of(e: &FsError) -> String {
    match e.code {
        // Refusals by policy rather than failures of the operation.
        Errno::EROFS | Errno::EPERM => "denied".to_owned(),
        code => code.as_str().to_owned(),
    }
}

fn insert(c: &Connection, row: &Row) -> rusqlite::Result<()> {
    c.prepare_cached(
        "INSERT INTO audit (time_ns, actor, operation, target, args, outcome, error, duration_ns)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
    )?
    .execute(params![
        row.time_ns,
        row.actor,
        row.operation,
        row.target,
        row.args,
        row.outcome,
        row.error,
        row.duration_ns
    ])?;
    Ok(())
}

/// The row of the innermost operation on this thread, marked as recorded,
/// if it has not been recorded yet. Called inside write transactions.
pub(crate) fn take_current_ok() -> Option<Row> {
    CURRENT.with(|cur| {
        let mut cur = cur.borrow_mut();
        let op = cur.last_mut()?;
        if op.recorded {
            return None;
        }
        op.recorded = true;
        Some(Row {
            time_ns: op.time_ns,
            actor: actor(),
            operation: op.operation,
            target: op.target.clone(),
            args: op.args.clone(),
            outcome: "ok".to_owned(),
            error: None,
            duration_ns: op.started.elapsed().as_nanos() as i64,
        })
    })
}

/// Writes rows within an open write transaction.
pub(crate) fn write_rows(c: &Connection, rows: &[Row]) -> rusqlite::Result<()> {
    for row in rows {
        insert(c, row)?;
    }
    Ok(())
}

impl Workspace {
    /// Runs one public operation with auditing around it.
    pub(crate) fn audited<T>(
        &self,
        operation: &'static str,
        target: &str,
        args: impl FnOnce() -> Option<Value>,
        body: impl FnOnce() -> Result<T>,
    ) -> Result<T> {
        if self.has_gates() {
            let run = || self.audited_inner(operation, target, args, body);
            return crate::policy::in_op(operation, target, run);
        }
        self.audited_inner(operation, target, args, body)
    }

    fn audited_inner<T>(
        &self,
        operation: &'static str,
        target: &str,
        args: impl FnOnce() -> Option<Value>,
        body: impl FnOnce() -> Result<T>,
    ) -> Result<T> {
        if !self.config.audit {
            return body().map_err(|e| e.at(target));
        }
        let args = args().map(|v| v.to_string());
        CURRENT.with(|cur| {
            cur.borrow_mut().push(OpState {
                operation,
                target: target.to_owned(),
                args,
                started: Instant::now(),
                time_ns: now_ns(),
                recorded: false,
            })
        });
        let out = body().map_err(|e| e.at(target));
        let op = CURRENT.with(|cur| cur.borrow_mut().pop());
        if let Some(op) = op
            && !op.recorded
        {
            let (outcome, error) = match &out {
                Ok(_) => ("ok".to_owned(), None),
                Err(e) => (outcome_of(e), Some(e.message.clone())),
            };
            self.buffer_audit(Row {
                time_ns: op.time_ns,
                actor: actor(),
                operation: op.operation,
                target: op.target,
                args: op.args,
                outcome,
                error,
                duration_ns: op.started.elapsed().as_nanos() as i64,
            });
        }
        out
    }

    /// Buffers a row of a read, a failure or an outside event.
    pub(crate) fn buffer_audit(&self, row: Row) {
        let full = {
            let mut pending = self.pending_audit();
            pending.push(row);
            pending.len() >= FLUSH_AT
        };
        if full && let Err(e) = self.flush_audit() {
            tracing::warn!("cannot write the audit log: {e}");
        }
    }

    /// Writes buffered audit rows now (`Audit::flush`).
    pub(crate) fn flush_audit(&self) -> Result<()> {
        let rows = std::mem::take(&mut *self.pending_audit());
        if rows.is_empty() {
            return Ok(());
        }
        let written = self.meta_tx(|c| Ok(write_rows(c, &rows)?));
        if written.is_err() {
            // Keep them for the next attempt rather than lose them.
            let mut pending = self.pending_audit();
            let newer = std::mem::take(&mut *pending);
            *pending = rows;
            pending.extend(newer);
        }
        written
    }
}
