//! `/healthz`, `/metrics` and `/requests` (the server's own request log).

use std::collections::BTreeMap;
use std::sync::Arc;

use axum::Json;
use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

use super::{ApiQuery, PageQuery};
use crate::auth::Access;
use crate::error::{ApiError, ApiResult};
use crate::metrics::Gauges;
use crate::state::Server;

/// `GET /healthz`: 200 while serving, 503 once shutting down.
pub async fn healthz(State(server): State<Arc<Server>>) -> Response {
    if server.stopping() {
        (
            StatusCode::SERVICE_UNAVAILABLE,
            Json(json!({"status": "stopping"})),
        )
            .into_response()
    } else {
        Json(json!({"status": "ok"})).into_response()
    }
}

/// `GET /metrics` (admin): Prometheus text.
pub async fn metrics(State(server): State<Arc<Server>>, access: Access) -> ApiResult<Response> {
    access.admin()?;
    let s = server.clone();
    let text = tokio::task::spawn_blocking(move || {
        let mut running: BTreeMap<String, u64> = BTreeMap::new();
        let mut pending = 0u64;
        let entries = s.entries();
        for e in &entries {
            for id in e.live.ids() {
                if let Some(r) = e.live.get(&id) {
                    *running.entry(r.backend.clone()).or_default() += 1;
                }
            }
            pending += e.ws.interrupts().pending().map_or(0, |p| p.len() as u64);
        }
        let store_bytes = s
            .ids()
            .unwrap_or_default()
            .iter()
            .map(|id| std::fs::metadata(s.path_of(id)).map_or(0, |m| m.len()))
            .sum();
        s.metrics.render(&Gauges {
            running,
            pending_approvals: pending,
            open_workspaces: entries.len() as u64,
            store_bytes,
        })
    })
    .await
    .map_err(ApiError::internal)?;
    Ok((
        [(
            header::CONTENT_TYPE,
            "text/plain; version=0.0.4; charset=utf-8",
        )],
        text,
    )
        .into_response())
}

/// `GET /requests?offset=&limit=` (admin): requests that named no
/// workspace, newest first.
pub async fn requests(
    State(server): State<Arc<Server>>,
    access: Access,
    ApiQuery(page): ApiQuery<PageQuery>,
) -> ApiResult<Json<Value>> {
    access.admin()?;
    let limit = page.limit.unwrap_or(100).min(super::MAX_PAGE);
    let rows = server
        .tokens
        .requests(page.offset, limit)
        .map_err(ApiError::internal)?;
    Ok(Json(json!({ "requests": rows })))
}
