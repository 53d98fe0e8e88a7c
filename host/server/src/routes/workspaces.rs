//! `/workspaces`: make, list, get and delete workspaces.

use std::sync::Arc;

use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use serde::Deserialize;
use serde_json::{Value, json};

use super::{ApiJson, with_ws};
use crate::auth::{Access, Right};
use crate::error::{ApiError, ApiResult};
use crate::state::{Server, check_id};

/// `POST /workspaces` body.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Create {
    id: String,
}

fn summary(server: &Server, id: &str) -> Value {
    let size = std::fs::metadata(server.path_of(id)).map_or(0, |m| m.len());
    let live = server.open_entry(id).map_or(0, |e| e.live.len());
    json!({"id": id, "file_bytes": size, "open": server.open_entry(id).is_some(), "runs_live": live})
}

/// `GET /workspaces`: those the token may see.
pub async fn list(State(server): State<Arc<Server>>, access: Access) -> ApiResult<Json<Value>> {
    let s = server.clone();
    let docs = tokio::task::spawn_blocking(move || -> ApiResult<Vec<Value>> {
        Ok(s.ids()?
            .into_iter()
            .filter(|id| access.0.sees(id))
            .map(|id| summary(&s, &id))
            .collect())
    })
    .await
    .map_err(ApiError::internal)??;
    Ok(Json(json!({ "workspaces": docs })))
}

/// `POST /workspaces`: makes one (admin).
pub async fn create(
    State(server): State<Arc<Server>>,
    access: Access,
    ApiJson(body): ApiJson<Create>,
) -> ApiResult<(StatusCode, Json<Value>)> {
    access.admin()?;
    check_id(&body.id)?;
    if server.path_of(&body.id).exists() {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            "EEXIST",
            format!("workspace {:?} exists", body.id),
        ));
    }
    let s = server.clone();
    let actor = access.actor();
    let id = body.id.clone();
    tokio::task::spawn_blocking(move || {
        computer_store::with_actor(actor, || s.entry(&id, true).map(drop))
    })
    .await
    .map_err(ApiError::internal)??;
    Ok((StatusCode::CREATED, Json(summary(&server, &body.id))))
}

/// `GET /workspaces/{id}`: its file size, revision, runs going on, usage.
pub async fn get(
    State(server): State<Arc<Server>>,
    access: Access,
    Path(id): Path<String>,
) -> ApiResult<Json<Value>> {
    let s = server.clone();
    let shown = id.clone();
    let pending = with_ws(&server, &access, &id, Right::Read, |e| {
        Ok(e.ws.interrupts().pending()?.len())
    })
    .await?;
    let mut doc = summary(&s, &shown);
    doc["pending_approvals"] = json!(pending);
    Ok(Json(doc))
}

/// `DELETE /workspaces/{id}` (admin): cancels its runs, deletes its files.
pub async fn delete(
    State(server): State<Arc<Server>>,
    access: Access,
    Path(id): Path<String>,
) -> ApiResult<Json<Value>> {
    access.admin()?;
    let s = server.clone();
    let gone = id.clone();
    tokio::task::spawn_blocking(move || s.delete(&gone))
        .await
        .map_err(ApiError::internal)??;
    Ok(Json(json!({"id": id, "deleted": true})))
}
