//! `POST /workspaces/{id}/exec`: run code, and either wait for the result
//! or (`"stream": true`, or `Accept: text/event-stream`) follow it as
//! server-sent events. A client that goes away leaves its run going unless
//! it sent `"cancel_on_disconnect": true`.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use axum::Json;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use computer_runtime::{ExecOptions, OnInterrupt};
use serde::Deserialize;
use serde_json::Value;

use super::{ApiJson, with_ws};
use crate::auth::{Access, Right};
use crate::error::{ApiError, ApiResult};
use crate::live::{LiveEvent, LiveRun, pump};
use crate::state::{Entry, Server};

/// The request body.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExecBody {
    /// The program text (a shell script for `shell`, JS for `js`, ...).
    pub source: String,
    /// The backend; `shell` when not given.
    pub backend: Option<String>,
    /// Working directory in the workspace.
    pub cwd: Option<String>,
    /// Environment variables.
    #[serde(default)]
    pub env: BTreeMap<String, String>,
    /// Text on standard input.
    pub stdin: Option<String>,
    /// A JSON value for JS runs (`input`).
    pub input: Option<Value>,
    /// Wall-clock limit.
    pub timeout_ms: Option<u64>,
    /// Memory limit.
    pub memory_mb: Option<u64>,
    /// Refuse every change to the workspace.
    #[serde(default)]
    pub read_only: bool,
    /// The run's id (unique in the workspace); made up when not given.
    pub id: Option<String>,
    /// `replay` (default) or `fail`.
    pub on_interrupt: Option<OnInterrupt>,
    /// Answer with server-sent events.
    #[serde(default)]
    pub stream: bool,
    /// Cancel the run when a streaming client disconnects.
    #[serde(default)]
    pub cancel_on_disconnect: bool,
}

/// Starts a run on a blocking thread; returns it live.
pub fn start(
    server: &Arc<Server>,
    entry: &Arc<Entry>,
    body: ExecBody,
    actor: String,
) -> ApiResult<Arc<LiveRun>> {
    if server.stopping() {
        return Err(ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "ESHUTDOWN",
            "the server is shutting down; no new runs",
        ));
    }
    let backend = body.backend.unwrap_or_else(|| "shell".to_owned());
    let allowed = &server.config.backends;
    if !allowed.is_empty() && !allowed.contains(&backend) {
        return Err(ApiError::invalid(format!(
            "backend {backend:?} is not offered here; offered: {}",
            allowed.join(", ")
        )));
    }
    let runtime = entry.runtime(&server.config.runtime)?;
    let mut limits = runtime.default_limits(&backend)?;
    if let Some(ms) = body.timeout_ms {
        limits.timeout = Duration::from_millis(ms);
    }
    if let Some(mb) = body.memory_mb {
        let cap = server.config.max_memory_mb;
        if mb == 0 || mb > cap {
            return Err(ApiError::invalid(format!(
                "invalid memory_mb {mb}: 1 to {cap} here"
            )));
        }
        limits.memory_bytes = (mb as usize).saturating_mul(1 << 20);
    }
    let options = ExecOptions {
        backend,
        cwd: body.cwd,
        env: body.env,
        stdin: body.stdin.map(String::into_bytes).unwrap_or_default(),
        input: body.input.map(|v| v.to_string()),
        limits: Some(limits),
        id: body.id,
        on_interrupt: body.on_interrupt,
        read_only: body.read_only,
        ..ExecOptions::default()
    };
    let handle = runtime.exec(entry.ws.clone(), &body.source, options)?;
    Ok(pump_run(server, entry, handle, actor))
}

/// Follows a started (or resumed) run, counting its end in the metrics.
pub fn pump_run(
    server: &Arc<Server>,
    entry: &Arc<Entry>,
    handle: computer_runtime::RunHandle,
    actor: String,
) -> Arc<LiveRun> {
    let s = server.clone();
    pump(entry, handle, actor, move |r| {
        s.metrics
            .run_ended(&r.backend, &r.status.to_string(), r.duration)
    })
}

/// Waits for a live run's result document.
pub async fn result_of(live: &LiveRun) -> ApiResult<Value> {
    let (past, mut rx) = live.follow();
    if let Some(LiveEvent::Result(v)) = past.into_iter().last() {
        return Ok(v);
    }
    loop {
        match rx.recv().await {
            Ok(LiveEvent::Result(v)) => return Ok(v),
            Ok(_) | Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => {}
            Err(tokio::sync::broadcast::error::RecvError::Closed) => {
                return Err(ApiError::internal("the run ended without a result"));
            }
        }
    }
}

/// `POST /workspaces/{id}/exec`.
pub async fn exec(
    State(server): State<Arc<Server>>,
    access: Access,
    Path(id): Path<String>,
    headers: HeaderMap,
    ApiJson(body): ApiJson<ExecBody>,
) -> ApiResult<Response> {
    let wants_events = body.stream
        || headers
            .get(header::ACCEPT)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.contains("text/event-stream"));
    let cancel = body.cancel_on_disconnect;
    let actor = access.actor();
    let s = server.clone();
    let live = with_ws(&server, &access, &id, Right::Exec, move |e| {
        start(&s, e, body, actor)
    })
    .await?;
    if wants_events {
        return Ok(crate::sse::follow(live, cancel).into_response());
    }
    Ok(Json(result_of(&live).await?).into_response())
}
