//! Snapshots, forks, diffs and undo (`computer snapshot|fork|diff|undo`).

use std::sync::Arc;

use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use computer_store::{DiffOptions, TreeRef};
use serde::Deserialize;
use serde_json::{Value, json};

use super::{ApiBytes, ApiJson, ApiQuery, with_ws};
use crate::auth::{Access, Right};
use crate::error::{ApiError, ApiResult};
use crate::state::{Server, check_id};

/// `GET snapshots`.
pub async fn snapshots(
    State(server): State<Arc<Server>>,
    access: Access,
    Path(id): Path<String>,
) -> ApiResult<Json<Value>> {
    let list = with_ws(&server, &access, &id, Right::Read, |e| {
        Ok(e.ws.snapshots().list()?)
    })
    .await?;
    Ok(Json(json!({ "snapshots": list })))
}

/// `POST snapshots` body.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct NewSnapshot {
    name: Option<String>,
    #[serde(default)]
    message: String,
}

/// `POST snapshots`: pins the live tree and settings.
pub async fn snapshot_create(
    State(server): State<Arc<Server>>,
    access: Access,
    Path(id): Path<String>,
    ApiJson(body): ApiJson<NewSnapshot>,
) -> ApiResult<(StatusCode, Json<Value>)> {
    let info = with_ws(&server, &access, &id, Right::Exec, move |e| {
        Ok(e.ws
            .snapshots()
            .create(body.name.as_deref(), &body.message)?)
    })
    .await?;
    Ok((StatusCode::CREATED, Json(json!(info))))
}

/// `POST snapshots/{name}/restore`.
pub async fn snapshot_restore(
    State(server): State<Arc<Server>>,
    access: Access,
    Path((id, name)): Path<(String, String)>,
) -> ApiResult<Json<Value>> {
    let info = with_ws(&server, &access, &id, Right::Exec, move |e| {
        Ok(e.ws.snapshots().restore(&name)?)
    })
    .await?;
    Ok(Json(json!(info)))
}

/// `DELETE snapshots/{name}`.
pub async fn snapshot_delete(
    State(server): State<Arc<Server>>,
    access: Access,
    Path((id, name)): Path<(String, String)>,
) -> ApiResult<Json<Value>> {
    let shown = name.clone();
    with_ws(&server, &access, &id, Right::Exec, move |e| {
        Ok(e.ws.snapshots().remove(&name)?)
    })
    .await?;
    Ok(Json(json!({"name": shown, "deleted": true})))
}

/// `GET forks`.
pub async fn forks(
    State(server): State<Arc<Server>>,
    access: Access,
    Path(id): Path<String>,
) -> ApiResult<Json<Value>> {
    let list = with_ws(&server, &access, &id, Right::Read, |e| Ok(e.ws.forks()?)).await?;
    let docs: Vec<Value> = list
        .iter()
        .map(|f| json!({"name": f.name, "workspace": f.name, "from_snapshot": f.from_snapshot, "created_ns": f.created_ns, "exists": f.exists}))
        .collect();
    Ok(Json(json!({ "forks": docs })))
}

/// `POST forks` body.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewFork {
    /// The fork's name, which is also its new workspace's id.
    name: String,
    /// Fork this snapshot instead of the live tree.
    from_snapshot: Option<String>,
}

/// `POST forks` (admin: it makes a workspace): the fork is workspace `name`.
pub async fn fork(
    State(server): State<Arc<Server>>,
    access: Access,
    Path(id): Path<String>,
    ApiJson(body): ApiJson<NewFork>,
) -> ApiResult<(StatusCode, Json<Value>)> {
    access.admin()?;
    check_id(&body.name)?;
    let dest = server.path_of(&body.name);
    if dest.exists() {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            "EEXIST",
            format!("workspace {:?} exists; pick another fork name", body.name),
        ));
    }
    let info = with_ws(&server, &access, &id, Right::Exec, move |e| {
        Ok(e.ws.fork(&body.name, &dest, body.from_snapshot.as_deref())?)
    })
    .await?;
    Ok((
        StatusCode::CREATED,
        Json(
            json!({"name": info.name, "workspace": info.name, "from_snapshot": info.from_snapshot, "created_ns": info.created_ns, "exists": info.exists}),
        ),
    ))
}

/// `diff` parameters.
#[derive(Deserialize)]
pub struct DiffQuery {
    /// `live`, a snapshot name, `run:ID:before`, `run:ID[:after]`, `fork:NAME`.
    #[serde(default)]
    from: Option<String>,
    /// The same; `live` by default.
    #[serde(default)]
    to: Option<String>,
    /// Only paths at or below this one.
    path: Option<String>,
    /// Include each file's patch.
    #[serde(default)]
    patch: bool,
}

fn options(q: &DiffQuery) -> DiffOptions {
    DiffOptions {
        paths: q.path.iter().cloned().collect(),
        no_renames: false,
        patch: q.patch,
    }
}

/// `GET diff?from=&to=&path=&patch=`.
pub async fn diff(
    State(server): State<Arc<Server>>,
    access: Access,
    Path(id): Path<String>,
    ApiQuery(q): ApiQuery<DiffQuery>,
) -> ApiResult<Json<Value>> {
    let from = q.from.as_deref().ok_or_else(|| {
        ApiError::invalid("give from (a tree: live, a snapshot name, run:ID, fork:NAME)")
    })?;
    let from = TreeRef::parse(from)?;
    let to = TreeRef::parse(q.to.as_deref().unwrap_or("live"))?;
    // A fork is a workspace of its own: reading its tree needs the right
    // to read that workspace too.
    for tree in [&from, &to] {
        if let TreeRef::Fork(name) = tree {
            access.need(name, Right::Read)?;
        }
    }
    let d = with_ws(&server, &access, &id, Right::Read, move |e| {
        Ok(e.ws.diff(&from, &to, &options(&q))?)
    })
    .await?;
    Ok(Json(json!(d)))
}

/// `GET runs/{run}/diff?patch=`: what run `run` changed.
pub async fn run_diff(
    State(server): State<Arc<Server>>,
    access: Access,
    Path((id, run)): Path<(String, String)>,
    ApiQuery(q): ApiQuery<DiffQuery>,
) -> ApiResult<Json<Value>> {
    let d = with_ws(&server, &access, &id, Right::Read, move |e| {
        Ok(e.ws.run_diff(&run, &options(&q))?)
    })
    .await?;
    Ok(Json(json!(d)))
}

/// `POST runs/{run}/undo` body.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct Undo {
    #[serde(default)]
    force: bool,
}

/// `POST runs/{run}/undo`: puts back what the run changed; conflicts
/// refuse (`EPERM`, naming them) unless `force`.
pub async fn undo(
    State(server): State<Arc<Server>>,
    access: Access,
    Path((id, run)): Path<(String, String)>,
    ApiBytes(body): ApiBytes,
) -> ApiResult<Json<Value>> {
    // The body is optional: none means `{}`.
    let force = if body.iter().all(u8::is_ascii_whitespace) {
        false
    } else {
        serde_json::from_slice::<Undo>(&body)
            .map_err(|e| ApiError::invalid(format!("invalid body: {e}")))?
            .force
    };
    let report = with_ws(&server, &access, &id, Right::Exec, move |e| {
        Ok(e.ws.undo_with(&run, force)?)
    })
    .await?;
    Ok(Json(json!(report)))
}
