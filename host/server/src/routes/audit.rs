//! `GET /workspaces/{id}/audit`: the audit log, filtered and paged.

use std::sync::Arc;

use axum::Json;
use axum::extract::{Path, State};
use computer_store::AuditQuery;
use serde::Deserialize;
use serde_json::{Value, json};

use super::{ApiQuery, with_ws};
use crate::auth::{Access, Right};
use crate::error::ApiResult;
use crate::state::Server;

/// The filters.
#[derive(Deserialize, Default)]
pub struct Query {
    /// At or after (ns since the epoch).
    since_ns: Option<i64>,
    /// At or before.
    until_ns: Option<i64>,
    /// Actor prefix (`http:alice`, `run:ID`, `tool`).
    actor: Option<String>,
    /// Operation (`write`, `exec`, `http`, ...).
    operation: Option<String>,
    /// A glob over targets (`/src/**`).
    path: Option<String>,
    /// Rows of one run.
    run: Option<String>,
    /// `desc` (newest first, the default) or `asc`.
    order: Option<String>,
    #[serde(default)]
    offset: u64,
    limit: Option<u64>,
}

/// `GET audit?since_ns=&until_ns=&actor=&operation=&path=&run=&order=&offset=&limit=`
/// (`limit` 100 by default, at most 1,000).
pub async fn query(
    State(server): State<Arc<Server>>,
    access: Access,
    Path(id): Path<String>,
    ApiQuery(q): ApiQuery<Query>,
) -> ApiResult<Json<Value>> {
    let limit = q.limit.unwrap_or(100).min(super::MAX_PAGE);
    let offset = q.offset;
    let rows = with_ws(&server, &access, &id, Right::Read, move |e| {
        let query = AuditQuery {
            run: q.run,
            path: q.path,
            since_ns: q.since_ns,
            until_ns: q.until_ns,
            actor: q.actor,
            operation: q.operation,
            newest_first: q.order.as_deref() != Some("asc"),
            // One more than asked, to say whether there is a next page.
            page: computer_store::Page::new(offset, Some(limit + 1)),
        };
        Ok(e.ws.audit().query(&query)?)
    })
    .await?;
    let more = rows.len() as u64 > limit;
    let rows: Vec<_> = rows.into_iter().take(limit as usize).collect();
    let next = more.then_some(offset + limit);
    Ok(Json(json!({"audit": rows, "next_offset": next})))
}
