//! The audit log as a whole ([`Workspace::audit`]): reading it, recording
//! operations that happen outside the store (module calls, execs), and the
//! agent's tool calls. How each store operation records its own row is
//! `audit.rs`.

use globset::GlobBuilder;
use rusqlite::params;
use serde::Serialize;
use serde_json::Value;

use crate::audit::{Row, actor};
use crate::clock::now_ns;
use crate::error::{Errno, FsError, Result};
use crate::types::Page;
use crate::workspace::Workspace;

/// A filter for [`Audit::query`].
#[derive(Debug, Clone, Default)]
pub struct AuditQuery {
    /// Only rows of this run (actor `run:<id>/...`).
    pub run: Option<String>,
    /// Only rows whose target matches this glob (`**` crosses `/`).
    pub path: Option<String>,
    /// Only rows at or after this time (ns since the epoch).
    pub since_ns: Option<i64>,
    /// Only rows at or before this time (ns since the epoch).
    pub until_ns: Option<i64>,
    /// Only rows whose actor starts with this (`http:` rows of the server,
    /// `http:alice` one token's).
    pub actor: Option<String>,
    /// Only rows of this operation (`write`, `exec`, `respond`, `http`, ...).
    pub operation: Option<String>,
    /// Newest first (the console's order) instead of oldest first.
    pub newest_first: bool,
    /// Which of the matching rows.
    pub page: Page,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
/// One row of the audit log.
pub struct AuditRecord {
    /// Row id, in the order written.
    pub id: i64,
    /// When the operation started (ns since the epoch).
    pub time_ns: i64,
    /// Who did it (`cli`, `tool`, `run:<id>/<backend>`, `embedder`, ...).
    pub actor: String,
    /// The operation (`write`, `exec`, `respond`, ...).
    pub operation: String,
    /// Its target: a path, a backend or a module function.
    pub target: String,
    /// Its arguments as JSON, large values summarized.
    pub args: Option<String>,
    /// `ok`, `denied`, or an error code.
    pub outcome: String,
    /// The error message, when it failed.
    pub error: Option<String>,
    /// How long it took.
    pub duration_ns: i64,
}

/// One agent tool call.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ToolCall {
    /// The tool's name.
    pub name: String,
    /// JSON of the parameters, large values summarized.
    pub parameters: String,
    /// The result as JSON, when it succeeded.
    pub result: Option<String>,
    /// The error, when it failed.
    pub error: Option<String>,
    /// When it started (ns since the epoch).
    pub started_ns: i64,
    /// When it completed (ns since the epoch).
    pub completed_ns: i64,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
/// One recorded tool call.
pub struct ToolCallRecord {
    /// Row id, in the order recorded.
    pub id: i64,
    /// The tool's name.
    pub name: String,
    /// JSON of the parameters, large values summarized.
    pub parameters: String,
    /// The result as JSON, when it succeeded.
    pub result: Option<String>,
    /// The error, when it failed.
    pub error: Option<String>,
    /// When it started (ns since the epoch).
    pub started_ns: i64,
    /// When it completed (ns since the epoch).
    pub completed_ns: i64,
    /// `completed_ns - started_ns`.
    pub duration_ns: i64,
}

/// The audit log of a workspace ([`Workspace::audit`]).
#[derive(Clone, Copy)]
pub struct Audit<'a> {
    pub(crate) ws: &'a Workspace,
}

impl Audit<'_> {
    /// Records an operation that happened outside the store (a module
    /// call, an exec) in the audit log, attributed to this thread's actor.
    /// `outcome` is `ok`, `denied`, or an error code.
    pub fn event(
        &self,
        operation: &'static str,
        target: &str,
        args: Option<Value>,
        outcome: &str,
        error: Option<&str>,
        duration: std::time::Duration,
    ) {
        if !self.ws.config.audit {
            return;
        }
        self.ws.buffer_audit(Row {
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
    pub fn flush(&self) -> Result<()> {
        self.ws.flush_audit()
    }

    /// Reads the audit log, oldest first (or newest first, as `q` says).
    pub fn query(&self, q: &AuditQuery) -> Result<Vec<AuditRecord>> {
        self.ws.flush_audit()?;
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
        self.ws.read_tx(|c| {
            // Time, operation and actor are filtered by SQLite; the run and
            // the glob below.
            let sql = format!(
                "SELECT id, time_ns, actor, operation, target, args, outcome, error, duration_ns
                 FROM audit WHERE time_ns >= ?1 AND time_ns <= ?2
                 AND (?3 IS NULL OR operation = ?3)
                 AND (?4 IS NULL OR substr(actor, 1, length(?4)) = ?4)
                 ORDER BY id {}",
                if q.newest_first { "DESC" } else { "ASC" }
            );
            let mut stmt = c.prepare_cached(&sql)?;
            let mut rows = stmt.query(params![
                q.since_ns.unwrap_or(i64::MIN),
                q.until_ns.unwrap_or(i64::MAX),
                q.operation,
                q.actor,
            ])?;
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
        self.ws.meta_tx(|c| {
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
        self.ws.read_tx(|c| {
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
