//! `computer serve`: many workspaces behind one HTTP API, remote MCP at
//! `/workspaces/{id}/mcp`, and a web console at `/`.
//!
//! A thin layer over the library, like the CLI: [`router`] is an axum
//! `Router` an embedder can mount in its own service; [`serve`] runs it on
//! a listener until a shutdown signal, then stops gracefully (new runs
//! refused, running ones cancelled and recorded).
//!
//! ```no_run
//! # async fn example(config: computer_server::ServerConfig) -> anyhow::Result<()> {
//! let server = computer_server::Server::new(config)?;
//! let app = axum::Router::new().nest("/computer", computer_server::router(server.clone()));
//! # let _ = app; Ok(())
//! # }
//! ```

mod auth;
mod console;
mod error;
mod live;
mod mcp;
mod metrics;
mod openapi;
mod routes;
mod sse;
mod state;

use std::future::Future;
use std::sync::Arc;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::routing::{any, delete, get, post, put};

pub use auth::tokens::{Principal, Rights, TokenInfo, TokenStore};
pub use error::ApiError;
pub use openapi::DOCUMENT as OPENAPI;
pub use state::{RuntimeFactory, Server, ServerConfig};

/// The API, the MCP endpoints and the console, with authentication, rate
/// limits, body limits, metrics and request logging.
pub fn router(server: Arc<Server>) -> Router {
    use routes::*;
    let ws = |p: &str| format!("/workspaces/{{id}}{p}");
    Router::new()
        .route("/healthz", get(ops::healthz))
        .route("/metrics", get(ops::metrics))
        .route("/requests", get(ops::requests))
        .route("/openapi.json", get(openapi::document))
        .route("/", get(console::index))
        .route("/console/{file}", get(console::asset))
        .route("/tokens", get(tokens::list).post(tokens::create))
        .route("/tokens/{name}", delete(tokens::revoke))
        .route("/approvals", get(approvals::overview))
        .route(
            "/workspaces",
            get(workspaces::list).post(workspaces::create),
        )
        .route(
            "/workspaces/{id}",
            get(workspaces::get).delete(workspaces::delete),
        )
        .route(&ws("/files/read"), get(files::read))
        .route(&ws("/files/write"), put(files::write))
        .route(&ws("/files/edit"), post(files::edit))
        .route(&ws("/files/ls"), get(files::ls))
        .route(&ws("/files/stat"), get(files::stat))
        .route(&ws("/files/find"), get(files::find))
        .route(&ws("/files/grep"), get(files::grep))
        .route(&ws("/files/rm"), post(files::rm))
        .route(&ws("/files/mkdir"), post(files::mkdir))
        .route(&ws("/files/mv"), post(files::mv))
        .route(&ws("/files/cp"), post(files::cp))
        .route(&ws("/exec"), post(exec::exec))
        .route(&ws("/runs"), get(runs::list))
        .route(&ws("/runs/{run}"), get(runs::get))
        .route(&ws("/runs/{run}/cancel"), post(runs::cancel))
        .route(&ws("/runs/{run}/events"), get(runs::events))
        .route(&ws("/runs/{run}/diff"), get(history::run_diff))
        .route(&ws("/runs/{run}/undo"), post(history::undo))
        .route(&ws("/approvals"), get(approvals::list))
        .route(&ws("/approvals/respond"), post(approvals::respond))
        .route(&ws("/audit"), get(audit::query))
        .route(
            &ws("/snapshots"),
            get(history::snapshots).post(history::snapshot_create),
        )
        .route(&ws("/snapshots/{name}"), delete(history::snapshot_delete))
        .route(
            &ws("/snapshots/{name}/restore"),
            post(history::snapshot_restore),
        )
        .route(&ws("/forks"), get(history::forks).post(history::fork))
        .route(&ws("/diff"), get(history::diff))
        .route(&ws("/net"), get(settings::net))
        .route(&ws("/net/allow"), post(settings::allow))
        .route(&ws("/net/deny"), post(settings::deny))
        .route(&ws("/secrets"), get(settings::secrets))
        .route(
            &ws("/secrets/{name}"),
            put(settings::secret_set).delete(settings::secret_rm),
        )
        .route(
            &ws("/policy"),
            get(settings::policy)
                .put(settings::policy_set)
                .delete(settings::policy_clear),
        )
        .route(&ws("/mcp"), any(mcp::handle))
        .fallback(|| async {
            ApiError::not_found("no such endpoint; GET /openapi.json lists them")
        })
        .layer(DefaultBodyLimit::max(server.config.max_body_bytes))
        .layer(axum::middleware::from_fn_with_state(
            server.clone(),
            auth::middleware,
        ))
        .with_state(server)
}

/// Serves `server` on `listener` until `shutdown` completes; then refuses
/// new runs, cancels those going on, waits until they are recorded, and
/// returns once open connections have closed.
pub async fn serve(
    server: Arc<Server>,
    listener: tokio::net::TcpListener,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    server.recover_all();
    let app = router(server.clone());
    let stopping = server.clone();
    axum::serve(listener, app)
        .with_graceful_shutdown(async move {
            shutdown.await;
            tracing::info!("shutting down: refusing new runs, cancelling running ones");
            let s = stopping.clone();
            let _ = tokio::task::spawn_blocking(move || s.begin_shutdown()).await;
        })
        .await
}
