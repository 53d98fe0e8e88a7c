//! `/workspaces/{id}/runs`: list, get (with output), cancel, follow.

use std::sync::Arc;

use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use computer_runtime::Recovered;
use computer_store::{RunRecord, RunStatus};
use serde_json::{Value, json};

use super::{ApiQuery, PageQuery, with_ws};
use crate::auth::{Access, Right};
use crate::error::{ApiError, ApiResult};
use crate::live::LiveEvent;
use crate::state::Server;

/// A run record as `computer runs --json` shows it (`options` as an object).
pub fn run_json(r: &RunRecord) -> Value {
    let mut doc = json!(r);
    if let Ok(options) = serde_json::from_str::<Value>(&r.options) {
        doc["options"] = options;
    }
    doc
}

/// `GET runs?offset=&limit=`: newest first, 50 by default.
pub async fn list(
    State(server): State<Arc<Server>>,
    access: Access,
    Path(id): Path<String>,
    ApiQuery(page): ApiQuery<PageQuery>,
) -> ApiResult<Json<Value>> {
    let runs = with_ws(&server, &access, &id, Right::Read, move |e| {
        let runs = e.ws.runs().list(page.page(50))?;
        Ok(runs
            .iter()
            .map(|r| {
                let mut doc = run_json(r);
                doc["live"] = json!(e.live.get(&r.id).is_some());
                doc
            })
            .collect::<Vec<_>>())
    })
    .await?;
    Ok(Json(json!({ "runs": runs })))
}

fn no_run(run: &str) -> ApiError {
    ApiError::not_found(format!("no run with id {run:?}"))
}

/// `GET runs/{run}`: the record with its stdout and stderr.
pub async fn get(
    State(server): State<Arc<Server>>,
    access: Access,
    Path((id, run)): Path<(String, String)>,
) -> ApiResult<Json<Value>> {
    let doc = with_ws(&server, &access, &id, Right::Read, move |e| {
        let r = e.ws.runs().get(&run)?.ok_or_else(|| no_run(&run))?;
        let mut doc = run_json(&r);
        doc["stdout"] = json!(String::from_utf8_lossy(&r.stdout));
        doc["stderr"] = json!(String::from_utf8_lossy(&r.stderr));
        doc["live"] = json!(e.live.get(&run).is_some());
        Ok(doc)
    })
    .await?;
    Ok(Json(doc))
}

/// `POST runs/{run}/cancel`: a run going on in this server ends `cancelled`.
pub async fn cancel(
    State(server): State<Arc<Server>>,
    access: Access,
    Path((id, run)): Path<(String, String)>,
) -> ApiResult<Json<Value>> {
    let shown = run.clone();
    with_ws(&server, &access, &id, Right::Exec, move |e| {
        if let Some(live) = e.live.get(&run) {
            live.kill();
            return Ok(());
        }
        let r = e.ws.runs().get(&run)?.ok_or_else(|| no_run(&run))?;
        Err(ApiError::new(
            StatusCode::CONFLICT,
            "EINVAL",
            format!(
                "run {run:?} is not going on in this server (it is {}); only a running run can be cancelled",
                r.status
            ),
        ))
    })
    .await?;
    Ok(Json(json!({"run_id": shown, "cancelled": true})))
}

/// A finished run's output and result, from its record.
pub fn record_events(r: &RunRecord) -> Vec<LiveEvent> {
    let mut events = Vec::new();
    if !r.stdout.is_empty() {
        events.push(LiveEvent::Stdout(
            String::from_utf8_lossy(&r.stdout).into_owned(),
        ));
    }
    if !r.stderr.is_empty() {
        events.push(LiveEvent::Stderr(
            String::from_utf8_lossy(&r.stderr).into_owned(),
        ));
    }
    events.push(LiveEvent::Result(run_json(r)));
    events
}

/// `GET runs/{run}/events`: server-sent events of a run; a live one is
/// followed from its start, one parked at an approval is waited for and
/// followed once resumed, a finished one is replayed from its record.
pub async fn events(
    State(server): State<Arc<Server>>,
    access: Access,
    Path((id, run)): Path<(String, String)>,
) -> ApiResult<Response> {
    enum Found {
        Live(Arc<crate::live::LiveRun>),
        Parked(Arc<crate::state::Entry>, Value, Value),
        Done(Value, Vec<LiveEvent>),
    }
    let found = with_ws(&server, &access, &id, Right::Read, move |e| {
        if let Some(live) = e.live.get(&run) {
            return Ok(Found::Live(live));
        }
        let r = e.ws.runs().get(&run)?.ok_or_else(|| no_run(&run))?;
        let first = json!({"run_id": r.id, "backend": r.backend});
        if r.status == RunStatus::Waiting {
            let pending: Vec<_> =
                e.ws.interrupts()
                    .pending()?
                    .into_iter()
                    .filter(|p| p.run_id == r.id)
                    .collect();
            return Ok(Found::Parked(
                e.clone(),
                first,
                json!({ "pending": pending }),
            ));
        }
        Ok(Found::Done(first, record_events(&r)))
    })
    .await?;
    Ok(match found {
        Found::Live(live) => crate::sse::follow(live, false).into_response(),
        Found::Parked(entry, first, pending) => {
            crate::sse::parked(server.clone(), entry, first, pending).into_response()
        }
        Found::Done(first, events) => crate::sse::finished(first, events).into_response(),
    })
}

/// Resumes the runs of workspace `id` that a previous server left (its
/// process died): `Runtime::recover`. Blocking. Only workspaces with
/// unfinished runs get a runtime for it.
pub fn recover(server: &Arc<Server>, id: &str) -> ApiResult<Vec<Value>> {
    let entry = server.entry(id, false)?;
    let unfinished = entry.ws.runs().unfinished()?;
    if unfinished.is_empty() {
        return Ok(Vec::new());
    }
    let runtime = entry.runtime(&server.config.runtime)?;
    let mut report = Vec::new();
    for r in runtime.recover(entry.ws.clone())? {
        match r {
            Recovered::Resumed { run_id, handle } => {
                crate::routes::exec::pump_run(server, &entry, handle, "recover".into());
                report.push(json!({"run_id": run_id, "action": "resumed"}));
            }
            Recovered::Failed { run_id } => {
                report.push(json!({"run_id": run_id, "action": "marked_failed"}))
            }
            Recovered::Error { run_id, error } => {
                report.push(json!({"run_id": run_id, "action": "error", "error": error}))
            }
        }
    }
    Ok(report)
}
