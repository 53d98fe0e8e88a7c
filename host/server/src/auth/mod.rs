//! Who may do what: bearer tokens (`tokens.rs`), per-token rate limits
//! (`rate.rs`), and the middleware that checks both, then counts, logs and
//! audits every request under its token's name.

pub mod rate;
pub mod tokens;

use std::sync::Arc;
use std::time::Instant;

use axum::extract::{FromRequestParts, Request, State};
use axum::http::request::Parts;
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use serde_json::json;

use crate::error::{ApiError, ApiResult};
use crate::state::Server;
use tokens::Principal;

/// A right a request needs in a workspace.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Right {
    /// Reading.
    Read,
    /// Changing and running.
    Exec,
    /// Answering approvals.
    Approve,
}

/// The caller of a handler (put in by the middleware).
#[derive(Debug, Clone)]
pub struct Access(pub Principal);

impl Access {
    /// Refuses anything but an admin token.
    pub fn admin(&self) -> ApiResult<()> {
        if self.0.is_admin() {
            Ok(())
        } else {
            Err(ApiError::forbidden(format!(
                "token {:?} is scoped to workspace {:?}; this needs an admin token",
                self.0.name,
                self.0.workspace.as_deref().unwrap_or_default()
            )))
        }
    }

    /// Refuses unless the token may do `right` in workspace `id`.
    pub fn need(&self, id: &str, right: Right) -> ApiResult<()> {
        let p = &self.0;
        if !p.sees(id) {
            return Err(ApiError::forbidden(format!(
                "token {:?} is scoped to workspace {:?}, not {id:?}",
                p.name,
                p.workspace.as_deref().unwrap_or_default()
            )));
        }
        let granted = match right {
            Right::Read => p.rights.read || p.rights.exec || p.rights.approve,
            Right::Exec => p.rights.exec,
            Right::Approve => p.rights.approve,
        };
        if granted {
            Ok(())
        } else {
            Err(ApiError::forbidden(format!(
                "token {:?} lacks the {} right in workspace {id:?} (it has {})",
                p.name,
                match right {
                    Right::Read => "read",
                    Right::Exec => "exec",
                    Right::Approve => "approve",
                },
                p.rights.as_text()
            )))
        }
    }

    /// The actor store rows get: `http:NAME`.
    pub fn actor(&self) -> String {
        format!("http:{}", self.0.name)
    }
}

impl<S: Send + Sync> FromRequestParts<S> for Access {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        parts
            .extensions
            .get::<Principal>()
            .cloned()
            .map(Access)
            .ok_or_else(|| ApiError::new(StatusCode::UNAUTHORIZED, "EAUTH", "no token was checked"))
    }
}

/// Paths anyone may read: health, the API's description and the console's
/// files (the console asks for a token before it calls the API).
fn public(path: &str) -> bool {
    path == "/healthz" || path == "/openapi.json" || path == "/" || path.starts_with("/console/")
}

/// The workspace a path is about: `/workspaces/ID/...`.
fn workspace_of(path: &str) -> Option<&str> {
    let rest = path.strip_prefix("/workspaces/")?;
    let id = rest.split('/').next()?;
    (!id.is_empty()).then_some(id)
}

fn bearer(req: &Request) -> Option<&str> {
    let value = req.headers().get(header::AUTHORIZATION)?.to_str().ok()?;
    let (scheme, token) = value.split_once(' ')?;
    scheme.eq_ignore_ascii_case("bearer").then(|| token.trim())
}

/// The middleware: authenticate, rate-limit, then run the request and
/// record it (metrics, a `tracing` line, an audit row).
pub async fn middleware(
    State(server): State<Arc<Server>>,
    mut req: Request,
    next: Next,
) -> Response {
    let started = Instant::now();
    let method = req.method().as_str().to_owned();
    let path = req.uri().path().to_owned();
    let principal = if server.config.no_auth {
        Some(Principal::anonymous())
    } else {
        match bearer(&req) {
            Some(secret) => match server.tokens.verify(secret) {
                Ok(p) => p,
                Err(e) => return ApiError::internal(e).into_response(),
            },
            None => None,
        }
    };
    let response = match &principal {
        None if !public(&path) => {
            let e = ApiError::new(
                StatusCode::UNAUTHORIZED,
                "EAUTH",
                "no valid token: send Authorization: Bearer TOKEN (computer serve token create makes one)",
            );
            e.into_response()
        }
        _ => {
            let name = principal.as_ref().map(|p| p.name.clone());
            let limited = name.as_deref().map(|n| server.rate.take(n));
            if let Some(Err(wait)) = limited {
                let mut r = ApiError::new(
                    StatusCode::TOO_MANY_REQUESTS,
                    "EAGAIN",
                    format!("too many requests for this token; retry in {wait} s"),
                )
                .into_response();
                if let Ok(v) = HeaderValue::from_str(&wait.to_string()) {
                    r.headers_mut().insert(header::RETRY_AFTER, v);
                }
                r
            } else {
                if let Some(p) = &principal {
                    req.extensions_mut().insert(p.clone());
                }
                next.run(req).await
            }
        }
    };
    let status = response.status().as_u16();
    let took = started.elapsed();
    server.metrics.request(&method, status);
    let token = principal.as_ref().map_or("-", |p| p.name.as_str());
    tracing::info!(
        target: "computer::http",
        method = %method,
        path = %path,
        status,
        token,
        micros = took.as_micros() as u64,
        "request"
    );
    if public(&path) && principal.is_none() {
        return response;
    }
    // Workspace requests go to that workspace's audit log (buffered with
    // its other rows); the rest, and those refused before a workspace was
    // opened, to the server's request log.
    let entry = workspace_of(&path).and_then(|id| server.open_entry(id));
    match entry {
        Some(e) => computer_store::with_actor(format!("http:{token}"), || {
            e.ws.audit().event(
                "http",
                &format!("{method} {path}"),
                Some(json!({"status": status})),
                if status < 400 { "ok" } else { "error" },
                None,
                took,
            );
        }),
        None => {
            let server = server.clone();
            let token = token.to_owned();
            let nanos = took.as_nanos().min(i64::MAX as u128) as i64;
            tokio::task::spawn_blocking(move || {
                server
                    .tokens
                    .log_request(&token, &method, &path, status, nanos)
            });
        }
    }
    response
}
