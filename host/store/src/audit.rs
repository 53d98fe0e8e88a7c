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

use std::cell::RefCell;
use std::time::Instant;

use globset::GlobBuilder;
use rusqlite::{Connection, params};
use serde::Serialize;
use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::clock::now_ns;
use crate::error::{Errno, FsError, Result};
use crate::types::Page;
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
pub(crate) fn summarize_content(content: &crate::content::Hashed) -> Value {
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
    time_ns: i64,
    actor: String,
    operation: &'static str,
    target: String,
    args: Option<String>,
    outcome: String,
    error: Option<String>,
    duration_ns: i64,
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

/// A filter for `Workspace::audit_log`.
#[derive(Debug, Clone, Default)]
pub struct AuditQuery {
    /// Only rows of this run (actor `run:<id>/...`).
    pub run: Option<String>,
    /// Only rows whose target matches this glob (`**` crosses `/`).
    pub path: Option<String>,
    /// Only rows at or after this time (ns since the epoch).
    pub since_ns: Option<i64>,
    pub page: Page,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct AuditRecord {
    pub id: i64,
    pub time_ns: i64,
    pub actor: String,
    pub operation: String,
    pub target: String,
    pub args: Option<String>,
    pub outcome: String,
    pub error: Option<String>,
    pub duration_ns: i64,
}

/// One agent tool call.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ToolCall {
    pub name: String,
    /// JSON of the parameters, large values summarized.
    pub parameters: String,
    pub result: Option<String>,
    pub error: Option<String>,
    pub started_ns: i64,
    pub completed_ns: i64,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ToolCallRecord {
    pub id: i64,
    pub name: String,
    pub parameters: String,
    pub result: Option<String>,
    pub error: Option<String>,
    pub started_ns: i64,
    pub completed_ns: i64,
    pub duration_ns: i64,
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
        if !self.config.audit {
            return body();
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
        let out = body();
        let op = CURRENT.with(|cur| cur.borrow_mut().pop());
        if let Some(op) = op
            && !op.recorded
        {
            let (outcome, error) = match &out {
                Ok(_) => ("ok".to_owned(), None),
                Err(e) => (outcome_of(e), Some(e.message.clone())),
            };
            self.buffer(Row {
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

    fn buffer(&self, row: Row) {
        let full = {
            let mut pending = self.pending_audit();
            pending.push(row);
            pending.len() >= FLUSH_AT
        };
        if full && let Err(e) = self.flush_audit() {
            tracing::warn!("cannot write the audit log: {e}");
        }
    }

    /// Records an operation that happened outside the store (a module
    /// call, an exec) in the audit log, attributed to this thread's actor.
    /// `outcome` is `ok`, `denied`, or an error code.
    pub fn audit_event(
        &self,
        operation: &'static str,
        target: &str,
        args: Option<Value>,
        outcome: &str,
        error: Option<&str>,
        duration: std::time::Duration,
    ) {
        if !self.config.audit {
            return;
        }
        self.buffer(Row {
            time_ns: now_ns() - duration.as_nanos().min(i64::MAX as u128) as i64,
            actor: actor(),
            operation,
            target: target.to_owned(),
            args: args.map(|v| v.to_string()),
            outcome: outcome.to_owned(),
            error: error.map(str::to_owned),
            duration_ns: duration.as_nanos().min(i64::MAX as u128) as i64,
        });
    }

    /// Writes buffered audit rows now.
    pub fn flush_audit(&self) -> Result<()> {
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

    /// Reads the audit log, oldest first.
    pub fn audit_log(&self, q: &AuditQuery) -> Result<Vec<AuditRecord>> {
        self.flush_audit()?;
        let glob = q
            .path
            .as_deref()
            .map(|g| {
                GlobBuilder::new(g)
                    .literal_separator(true)
                    .build()
                    .map(|g| g.compile_matcher())
                    .map_err(|e| {
                        FsError::custom(
                            Errno::EINVAL,
                            g,
                            format!("invalid argument: bad glob {g:?}: {e}"),
                        )
                    })
            })
            .transpose()?;
        let run_prefix = q.run.as_ref().map(|r| format!("run:{r}/"));
        let offset = q.page.offset as usize;
        let limit = q.page.limit.map_or(usize::MAX, |l| l as usize);
        self.read_tx(|c| {
            let mut stmt = c.prepare_cached(
                "SELECT id, time_ns, actor, operation, target, args, outcome, error, duration_ns
                 FROM audit WHERE time_ns >= ?1 ORDER BY id",
            )?;
            let mut rows = stmt.query([q.since_ns.unwrap_or(i64::MIN)])?;
            let mut out = Vec::new();
            let mut matched = 0usize;
            while let Some(r) = rows.next()? {
                let rec = AuditRecord {
                    id: r.get(0)?,
                    time_ns: r.get(1)?,
                    actor: r.get(2)?,
                    operation: r.get(3)?,
                    target: r.get(4)?,
                    args: r.get(5)?,
                    outcome: r.get(6)?,
                    error: r.get(7)?,
                    duration_ns: r.get(8)?,
                };
                if let Some(prefix) = &run_prefix
                    && !rec.actor.starts_with(prefix.as_str())
                {
                    continue;
                }
                if let Some(g) = &glob
                    && !g.is_match(&rec.target)
                {
                    continue;
                }
                matched += 1;
                if matched > offset && out.len() < limit {
                    out.push(rec);
                }
            }
            Ok(out)
        })
    }

    /// Records one agent tool call.
    pub fn record_tool_call(&self, call: &ToolCall) -> Result<()> {
        self.meta_tx(|c| {
            c.prepare_cached(
                "INSERT INTO tool_calls (name, parameters, result, error, started_ns, completed_ns, duration_ns)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
            )?
            .execute(params![
                call.name,
                call.parameters,
                call.result,
                call.error,
                call.started_ns,
                call.completed_ns,
                call.completed_ns - call.started_ns
            ])?;
            Ok(())
        })
    }

    /// Tool calls, oldest first.
    pub fn tool_calls(&self, page: Page) -> Result<Vec<ToolCallRecord>> {
        self.read_tx(|c| {
            let limit = page.limit.map_or(-1, |l| l.min(i64::MAX as u64) as i64);
            let mut stmt = c.prepare_cached(
                "SELECT id, name, parameters, result, error, started_ns, completed_ns, duration_ns
                 FROM tool_calls ORDER BY id LIMIT ?1 OFFSET ?2",
            )?;
            let rows = stmt
                .query_map(
                    params![limit, page.offset.min(i64::MAX as u64) as i64],
                    |r| {
                        Ok(ToolCallRecord {
                            id: r.get(0)?,
                            name: r.get(1)?,
                            parameters: r.get(2)?,
                            result: r.get(3)?,
                            error: r.get(4)?,
                            started_ns: r.get(5)?,
                            completed_ns: r.get(6)?,
                            duration_ns: r.get(7)?,
                        })
                    },
                )?
                .collect::<rusqlite::Result<Vec<_>>>()?;
            Ok(rows)
        })
    }
}
