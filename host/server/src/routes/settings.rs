//! Network allow-list, secrets (write-only) and the policy file. Reading
//! them needs `read`; changing them needs an admin token, because each
//! widens or narrows what the workspace's runs may do.

use std::sync::Arc;

use axum::Json;
use axum::extract::{Path, State};
use serde::Deserialize;
use serde_json::{Value, json};
use zeroize::Zeroize;

use super::{ApiBytes, ApiJson, with_ws};
use crate::auth::{Access, Right};
use crate::error::{ApiError, ApiResult};
use crate::state::Server;

/// `GET net`: the allow-list.
pub async fn net(
    State(server): State<Arc<Server>>,
    access: Access,
    Path(id): Path<String>,
) -> ApiResult<Json<Value>> {
    let rules = with_ws(&server, &access, &id, Right::Read, |e| {
        Ok(e.ws.net().list()?)
    })
    .await?;
    Ok(Json(json!({ "allow": rules })))
}

/// `net/allow` and `net/deny` body.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Host {
    /// `HOST`, `HOST:PORT` or `*.DOMAIN`.
    host: String,
}

/// `POST net/allow` (admin).
pub async fn allow(
    State(server): State<Arc<Server>>,
    access: Access,
    Path(id): Path<String>,
    ApiJson(body): ApiJson<Host>,
) -> ApiResult<Json<Value>> {
    access.admin()?;
    let (entry, added) = with_ws(&server, &access, &id, Right::Exec, move |e| {
        Ok(e.ws.net().allow(&body.host)?)
    })
    .await?;
    Ok(Json(json!({"entry": entry, "added": added})))
}

/// `POST net/deny` (admin).
pub async fn deny(
    State(server): State<Arc<Server>>,
    access: Access,
    Path(id): Path<String>,
    ApiJson(body): ApiJson<Host>,
) -> ApiResult<Json<Value>> {
    access.admin()?;
    let entry = with_ws(&server, &access, &id, Right::Exec, move |e| {
        Ok(e.ws.net().deny(&body.host)?)
    })
    .await?;
    Ok(Json(json!({"entry": entry, "removed": true})))
}

/// `GET secrets`: names and times only; values never leave.
pub async fn secrets(
    State(server): State<Arc<Server>>,
    access: Access,
    Path(id): Path<String>,
) -> ApiResult<Json<Value>> {
    let list = with_ws(&server, &access, &id, Right::Read, |e| {
        Ok(e.ws.secrets().list()?)
    })
    .await?;
    Ok(Json(json!({ "secrets": list })))
}

/// `PUT secrets/{name}` (admin): the body is the value.
pub async fn secret_set(
    State(server): State<Arc<Server>>,
    access: Access,
    Path((id, name)): Path<(String, String)>,
    ApiBytes(body): ApiBytes,
) -> ApiResult<Json<Value>> {
    access.admin()?;
    let shown = name.clone();
    let mut value = body.to_vec();
    let created = with_ws(&server, &access, &id, Right::Exec, move |e| {
        let r = e.ws.secrets().set(&name, &value);
        value.zeroize();
        Ok(r?)
    })
    .await?;
    Ok(Json(json!({"name": shown, "created": created})))
}

/// `DELETE secrets/{name}` (admin).
pub async fn secret_rm(
    State(server): State<Arc<Server>>,
    access: Access,
    Path((id, name)): Path<(String, String)>,
) -> ApiResult<Json<Value>> {
    access.admin()?;
    let shown = name.clone();
    with_ws(&server, &access, &id, Right::Exec, move |e| {
        Ok(e.ws.secrets().remove(&name)?)
    })
    .await?;
    Ok(Json(json!({"name": shown, "deleted": true})))
}

/// `GET policy`: the policy file's text, or null.
pub async fn policy(
    State(server): State<Arc<Server>>,
    access: Access,
    Path(id): Path<String>,
) -> ApiResult<Json<Value>> {
    let text = with_ws(&server, &access, &id, Right::Read, |e| {
        Ok(e.ws.policy_text()?)
    })
    .await?;
    Ok(Json(json!({ "policy": text })))
}

/// `PUT policy` (admin): the body is the TOML text.
pub async fn policy_set(
    State(server): State<Arc<Server>>,
    access: Access,
    Path(id): Path<String>,
    ApiBytes(body): ApiBytes,
) -> ApiResult<Json<Value>> {
    access.admin()?;
    let text = String::from_utf8(body.to_vec())
        .map_err(|_| ApiError::invalid("the policy is not UTF-8 text"))?;
    with_ws(&server, &access, &id, Right::Exec, move |e| {
        e.ws.set_policy(&text)?;
        Ok(())
    })
    .await?;
    Ok(Json(json!({"set": true})))
}

/// `DELETE policy` (admin).
pub async fn policy_clear(
    State(server): State<Arc<Server>>,
    access: Access,
    Path(id): Path<String>,
) -> ApiResult<Json<Value>> {
    access.admin()?;
    let cleared = with_ws(&server, &access, &id, Right::Exec, |e| {
        Ok(e.ws.clear_policy()?)
    })
    .await?;
    Ok(Json(json!({ "cleared": cleared })))
}
