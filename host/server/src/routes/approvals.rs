//! Approvals: the module calls parked runs wait on, and the answers.

use std::sync::Arc;

use axum::Json;
use axum::extract::{Path, State};
use computer_runtime::Answer;
use serde::Deserialize;
use serde_json::{Value, json};

use super::{ApiJson, ApiQuery, PageQuery, with_ws};
use crate::auth::{Access, Right};
use crate::error::{ApiError, ApiResult};
use crate::state::Server;

/// `GET /workspaces/{id}/approvals?offset=&limit=`: oldest first, with the
/// total so a client can page.
pub async fn list(
    State(server): State<Arc<Server>>,
    access: Access,
    Path(id): Path<String>,
    ApiQuery(page): ApiQuery<PageQuery>,
) -> ApiResult<Json<Value>> {
    let doc = with_ws(&server, &access, &id, Right::Read, move |e| {
        let all = e.ws.interrupts().pending()?;
        let total = all.len();
        let limit = page.limit.unwrap_or(100).min(super::MAX_PAGE) as usize;
        let shown: Vec<_> = all
            .into_iter()
            .skip(page.offset as usize)
            .take(limit)
            .collect();
        Ok(json!({"pending": shown, "total": total}))
    })
    .await?;
    Ok(Json(doc))
}

/// `GET /approvals`: what waits in every workspace the token may read
/// (counts per workspace; the console's overview).
pub async fn overview(State(server): State<Arc<Server>>, access: Access) -> ApiResult<Json<Value>> {
    let s = server.clone();
    let doc = tokio::task::spawn_blocking(move || -> ApiResult<Value> {
        let mut out = Vec::new();
        for id in s.ids()? {
            if access.need(&id, Right::Read).is_err() {
                continue;
            }
            let e = s.entry(&id, false)?;
            let n = e.ws.interrupts().pending()?.len();
            out.push(json!({"workspace": id, "pending": n}));
        }
        Ok(json!({ "workspaces": out }))
    })
    .await
    .map_err(ApiError::internal)??;
    Ok(Json(doc))
}

/// `POST approvals/respond` body: `answer` (any JSON) approves, `reject`
/// (a reason) refuses.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Respond {
    run_id: String,
    call_id: String,
    answer: Option<Value>,
    reject: Option<String>,
}

/// `POST /workspaces/{id}/approvals/respond`: answers; once the run has no
/// other question open it resumes here (follow it at `runs/{run}/events`).
pub async fn respond(
    State(server): State<Arc<Server>>,
    access: Access,
    Path(id): Path<String>,
    ApiJson(body): ApiJson<Respond>,
) -> ApiResult<Json<Value>> {
    let answer = match (body.answer, body.reject) {
        (None, Some(reason)) => Answer::Rejected {
            reason,
            value: None,
        },
        (Some(v), None) => Answer::Approved(v),
        _ => {
            return Err(ApiError::invalid(
                "give either answer (JSON, approves) or reject (a reason)",
            ));
        }
    };
    let s = server.clone();
    let actor = access.actor();
    let (run_id, call_id) = (body.run_id, body.call_id);
    let doc = with_ws(&server, &access, &id, Right::Approve, move |e| {
        if s.stopping() {
            return Err(ApiError::new(
                axum::http::StatusCode::SERVICE_UNAVAILABLE,
                "ESHUTDOWN",
                "the server is shutting down; answer after it restarts",
            ));
        }
        let runtime = e.runtime(&s.config.runtime)?;
        let resumed = runtime.respond(e.ws.clone(), &run_id, &call_id, answer)?;
        let resumed = match resumed {
            Some(handle) => {
                crate::routes::exec::pump_run(&s, e, handle, actor);
                true
            }
            None => false,
        };
        Ok(json!({"run_id": run_id, "call_id": call_id, "resumed": resumed}))
    })
    .await?;
    Ok(Json(doc))
}
