//! `computer audit`.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use computer_store::{AuditQuery, Page, Workspace};
use serde_json::json;

use crate::args::PageArgs;
use crate::error::{CliError, CliResult};
use crate::output::{Out, shown, time_string};

/// `--since`: an RFC 3339 time, or an age such as `10m` meaning that long ago.
fn parse_since(s: &str) -> CliResult<i64> {
    let t = match humantime::parse_rfc3339_weak(s) {
        Ok(t) => t,
        Err(_) => {
            let age: Duration = humantime::parse_duration(s).map_err(|_| {
                CliError::invalid(format!(
                    "invalid --since {s:?}: give a time like 2026-11-29T10:00:00Z or an age like 15m"
                ))
            })?;
            SystemTime::now() - age
        }
    };
    Ok(t.duration_since(UNIX_EPOCH)
        .map(|d| d.as_nanos().min(i64::MAX as u128) as i64)
        .unwrap_or(0))
}

pub fn audit(
    ws: &Workspace,
    run: Option<String>,
    path: Option<String>,
    since: Option<String>,
    tools: bool,
    page: PageArgs,
    out: Out,
) -> CliResult {
    let page = Page::new(page.offset, page.limit);
    if tools {
        let calls = ws.audit().tool_calls(page)?;
        out.emit(json!({"tool_calls": calls}), || {
            for c in &calls {
                println!(
                    "{}  {:<6} {:>8.3} ms  {}  {}",
                    time_string(c.started_ns.max(0) as u64),
                    shown(&c.name),
                    c.duration_ns as f64 / 1e6,
                    shown(&c.parameters),
                    c.error
                        .as_deref()
                        .map_or(String::new(), |e| format!("error: {}", shown(e)))
                );
            }
        });
        return Ok(());
    }
    let q = AuditQuery {
        run,
        path,
        since_ns: since.as_deref().map(parse_since).transpose()?,
        page,
        ..Default::default()
    };
    let rows = ws.audit().query(&q)?;
    out.emit(json!({"audit": rows}), || {
        for r in &rows {
            println!(
                "{}  {:<18} {:<12} {:<8} {}{}",
                time_string(r.time_ns.max(0) as u64),
                shown(&r.actor),
                r.operation,
                r.outcome,
                shown(&r.target),
                r.error
                    .as_deref()
                    .map_or(String::new(), |e| format!("  ({})", shown(e)))
            );
        }
    });
    Ok(())
}
