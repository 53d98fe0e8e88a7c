//! `/tokens` (admin): make, list and revoke tokens.

use std::sync::Arc;

use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use serde::Deserialize;
use serde_json::{Value, json};

use super::ApiJson;
use crate::auth::Access;
use crate::auth::tokens::Rights;
use crate::error::{ApiError, ApiResult};
use crate::state::{Server, check_id};

/// `GET /tokens`.
pub async fn list(State(server): State<Arc<Server>>, access: Access) -> ApiResult<Json<Value>> {
    access.admin()?;
    let tokens = server.tokens.list().map_err(ApiError::internal)?;
    Ok(Json(json!({ "tokens": tokens })))
}

/// `POST /tokens` body.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewToken {
    name: String,
    /// Scope to this workspace; absent: an admin token.
    workspace: Option<String>,
    /// `read,exec,approve` (for a scoped token).
    rights: Option<String>,
}

/// `POST /tokens`: the answer holds the token, shown this once.
pub async fn create(
    State(server): State<Arc<Server>>,
    access: Access,
    ApiJson(body): ApiJson<NewToken>,
) -> ApiResult<(StatusCode, Json<Value>)> {
    access.admin()?;
    let rights = match (&body.workspace, body.rights.as_deref()) {
        (Some(ws), r) => {
            check_id(ws)?;
            Rights::parse(r.unwrap_or("read")).map_err(ApiError::invalid)?
        }
        (None, None) => Rights::ALL,
        (None, Some(_)) => {
            return Err(ApiError::invalid(
                "rights apply to a token scoped to a workspace; an admin token has them all",
            ));
        }
    };
    let secret = server
        .tokens
        .create(&body.name, body.workspace.as_deref(), rights)
        .map_err(|e| {
            let msg = format!("{e:#}");
            if msg.contains("exists") {
                ApiError::new(StatusCode::CONFLICT, "EEXIST", msg)
            } else {
                ApiError::invalid(msg)
            }
        })?;
    Ok((
        StatusCode::CREATED,
        Json(
            json!({"name": body.name, "workspace": body.workspace, "rights": rights.as_text(), "token": secret}),
        ),
    ))
}

/// `DELETE /tokens/{name}`.
pub async fn revoke(
    State(server): State<Arc<Server>>,
    access: Access,
    Path(name): Path<String>,
) -> ApiResult<Json<Value>> {
    access.admin()?;
    if !server.tokens.revoke(&name).map_err(ApiError::internal)? {
        return Err(ApiError::not_found(format!("no token named {name:?}")));
    }
    Ok(Json(json!({"name": name, "revoked": true})))
}
