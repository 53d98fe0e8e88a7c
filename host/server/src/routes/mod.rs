//! The HTTP API, a module per area. Every handler checks the caller's
//! rights first, then does its store work on a blocking thread with the
//! caller as the store's actor (`http:TOKEN_NAME`).

pub mod approvals;
pub mod audit;
pub mod exec;
pub mod files;
pub mod history;
pub mod ops;
pub mod runs;
pub mod settings;
pub mod tokens;
pub mod workspaces;

use std::sync::Arc;

use axum::extract::rejection::{BytesRejection, JsonRejection, QueryRejection};
use axum::extract::{FromRequest, FromRequestParts, Request};
use axum::http::request::Parts;
use serde::de::DeserializeOwned;

use crate::auth::{Access, Right};
use crate::error::{ApiError, ApiResult};
use crate::state::{Entry, Server};

/// Runs `f` on a blocking thread against workspace `id`, once the caller
/// is known to hold `right` there, with the caller as the store's actor.
pub async fn with_ws<T: Send + 'static>(
    server: &Arc<Server>,
    access: &Access,
    id: &str,
    right: Right,
    f: impl FnOnce(&Arc<Entry>) -> ApiResult<T> + Send + 'static,
) -> ApiResult<T> {
    access.need(id, right)?;
    let server = server.clone();
    let id = id.to_owned();
    let actor = access.actor();
    tokio::task::spawn_blocking(move || {
        let entry = server.entry(&id, false)?;
        computer_store::with_actor(actor, || f(&entry))
    })
    .await
    .map_err(ApiError::internal)?
}

/// A JSON body whose failures answer in the API's error format.
pub struct ApiJson<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequest<S> for ApiJson<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        match axum::Json::<T>::from_request(req, state).await {
            Ok(axum::Json(v)) => Ok(ApiJson(v)),
            Err(e) => Err(json_rejection(e)),
        }
    }
}

fn json_rejection(e: JsonRejection) -> ApiError {
    use axum::http::StatusCode;
    match e.status() {
        StatusCode::PAYLOAD_TOO_LARGE => {
            ApiError::new(StatusCode::PAYLOAD_TOO_LARGE, "EFBIG", e.body_text())
        }
        // A body that is not the JSON asked for (axum says 415 or 422) is
        // bad input, as everywhere else in the API.
        _ => ApiError::invalid(e.body_text()),
    }
}

/// A raw body whose failures (too large) answer in the API's error format.
pub struct ApiBytes(pub axum::body::Bytes);

impl<S: Send + Sync> FromRequest<S> for ApiBytes {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        match axum::body::Bytes::from_request(req, state).await {
            Ok(b) => Ok(ApiBytes(b)),
            Err(e) => Err(bytes_rejection(e)),
        }
    }
}

fn bytes_rejection(e: BytesRejection) -> ApiError {
    let status = e.status();
    let code = if status == axum::http::StatusCode::PAYLOAD_TOO_LARGE {
        "EFBIG"
    } else {
        "EINVAL"
    };
    ApiError::new(status, code, e.body_text())
}

/// Query parameters whose failures answer in the API's error format.
pub struct ApiQuery<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequestParts<S> for ApiQuery<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        match axum::extract::Query::<T>::from_request_parts(parts, state).await {
            Ok(axum::extract::Query(v)) => Ok(ApiQuery(v)),
            Err(e) => Err(query_rejection(e)),
        }
    }
}

fn query_rejection(e: QueryRejection) -> ApiError {
    ApiError::new(e.status(), "EINVAL", e.body_text())
}

/// `offset`/`limit` query parameters; `limit` at most 1,000.
#[derive(Debug, Clone, Copy, serde::Deserialize, Default)]
pub struct PageQuery {
    /// Entries to skip.
    #[serde(default)]
    pub offset: u64,
    /// Entries at most.
    pub limit: Option<u64>,
}

/// The largest page any listing returns.
pub const MAX_PAGE: u64 = 1000;

impl PageQuery {
    /// As the store's page, with `default` when no limit is given.
    pub fn page(&self, default: u64) -> computer_store::Page {
        computer_store::Page::new(
            self.offset,
            Some(self.limit.unwrap_or(default).min(MAX_PAGE)),
        )
    }
}
