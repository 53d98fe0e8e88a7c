//! `/workspaces/{id}/files/...`: the workspace's files, with the shapes of
//! `computer fs ... --json`.

use std::sync::Arc;

use axum::Json;
use axum::extract::{Path, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use base64::Engine;
use computer_store::{GrepOptions, MkdirOptions, RmOptions, TextEdit, WriteOptions};
use serde::Deserialize;
use serde_json::{Value, json};

use super::{ApiBytes, ApiJson, ApiQuery, PageQuery, with_ws};
use crate::auth::{Access, Right};
use crate::error::{ApiError, ApiResult};
use crate::state::Server;

/// `?path=`.
#[derive(Deserialize)]
pub struct PathQuery {
    path: String,
}

/// `files/read` parameters.
#[derive(Deserialize)]
pub struct ReadQuery {
    path: String,
    #[serde(default)]
    offset: u64,
    length: Option<u64>,
    /// `raw`: the bytes themselves (`application/octet-stream`).
    format: Option<String>,
}

/// `GET files/read?path=&offset=&length=&format=raw|json`: JSON gives
/// `content` (text) or `content_base64` (not UTF-8).
pub async fn read(
    State(server): State<Arc<Server>>,
    access: Access,
    Path(id): Path<String>,
    ApiQuery(q): ApiQuery<ReadQuery>,
) -> ApiResult<Response> {
    let raw = match q.format.as_deref() {
        None | Some("json") => false,
        Some("raw") => true,
        Some(other) => {
            return Err(ApiError::invalid(format!(
                "invalid format {other:?}: json or raw"
            )));
        }
    };
    let path = q.path.clone();
    let data = with_ws(&server, &access, &id, Right::Read, move |e| {
        Ok(e.ws.read_range(&q.path, q.offset, q.length)?)
    })
    .await?;
    if raw {
        return Ok(([(header::CONTENT_TYPE, "application/octet-stream")], data).into_response());
    }
    let doc = match String::from_utf8(data) {
        Ok(text) => json!({"path": path, "size": text.len(), "content": text}),
        Err(e) => {
            let bytes = e.into_bytes();
            json!({"path": path, "size": bytes.len(), "content_base64": base64::engine::general_purpose::STANDARD.encode(&bytes)})
        }
    };
    Ok(Json(doc).into_response())
}

/// `files/write` parameters.
#[derive(Deserialize)]
pub struct WriteQuery {
    path: String,
    /// Octal permission bits, e.g. `755`.
    mode: Option<String>,
    #[serde(default)]
    exclusive: bool,
    #[serde(default)]
    parents: bool,
}

/// `PUT files/write?path=` with the bytes as the body.
pub async fn write(
    State(server): State<Arc<Server>>,
    access: Access,
    Path(id): Path<String>,
    ApiQuery(q): ApiQuery<WriteQuery>,
    ApiBytes(body): ApiBytes,
) -> ApiResult<Json<Value>> {
    let mode = q
        .mode
        .as_deref()
        .map(|m| {
            u32::from_str_radix(m, 8)
                .map_err(|_| ApiError::invalid(format!("invalid mode {m:?}: octal, like 644")))
        })
        .transpose()?;
    let path = q.path.clone();
    let size = body.len();
    with_ws(&server, &access, &id, Right::Exec, move |e| {
        let opts = WriteOptions {
            mode,
            exclusive: q.exclusive,
            create_parents: q.parents,
        };
        Ok(e.ws.write(&q.path, &body, &opts)?)
    })
    .await?;
    Ok(Json(json!({"path": path, "bytes_written": size})))
}

/// `POST files/edit` body: exact replacements, as the `edit` tool takes them.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Edit {
    path: String,
    edits: Vec<EditItem>,
}

/// One replacement.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EditItem {
    old: String,
    new: String,
}

/// `POST files/edit`.
pub async fn edit(
    State(server): State<Arc<Server>>,
    access: Access,
    Path(id): Path<String>,
    ApiJson(body): ApiJson<Edit>,
) -> ApiResult<Json<Value>> {
    let path = body.path.clone();
    let result = with_ws(&server, &access, &id, Right::Exec, move |e| {
        let edits: Vec<TextEdit> = body
            .edits
            .into_iter()
            .map(|i| TextEdit {
                old: i.old,
                new: i.new,
            })
            .collect();
        Ok(e.ws.edit(&body.path, &edits)?)
    })
    .await?;
    let mut doc = json!(result);
    doc["path"] = json!(path);
    Ok(Json(doc))
}

/// `GET files/ls?path=&offset=&limit=`.
pub async fn ls(
    State(server): State<Arc<Server>>,
    access: Access,
    Path(id): Path<String>,
    ApiQuery(q): ApiQuery<PathQuery>,
    ApiQuery(page): ApiQuery<PageQuery>,
) -> ApiResult<Json<Value>> {
    let path = q.path.clone();
    let entries = with_ws(&server, &access, &id, Right::Read, move |e| {
        Ok(e.ws.readdir(&q.path, page.page(super::MAX_PAGE))?)
    })
    .await?;
    Ok(Json(json!({"path": path, "entries": entries})))
}

/// `GET files/stat?path=`.
pub async fn stat(
    State(server): State<Arc<Server>>,
    access: Access,
    Path(id): Path<String>,
    ApiQuery(q): ApiQuery<PathQuery>,
) -> ApiResult<Json<Value>> {
    let path = q.path.clone();
    let st = with_ws(&server, &access, &id, Right::Read, move |e| {
        Ok(e.ws.lstat(&q.path)?)
    })
    .await?;
    let mut doc = json!(st);
    doc["path"] = json!(path);
    Ok(Json(doc))
}

/// `files/find` parameters.
#[derive(Deserialize)]
pub struct FindQuery {
    #[serde(default = "root")]
    path: String,
    pattern: String,
}

fn root() -> String {
    "/".into()
}

/// `GET files/find?path=&pattern=` (a glob).
pub async fn find(
    State(server): State<Arc<Server>>,
    access: Access,
    Path(id): Path<String>,
    ApiQuery(q): ApiQuery<FindQuery>,
    ApiQuery(page): ApiQuery<PageQuery>,
) -> ApiResult<Json<Value>> {
    let found = with_ws(&server, &access, &id, Right::Read, move |e| {
        Ok(e.ws.find(&q.path, &q.pattern, page.page(super::MAX_PAGE))?)
    })
    .await?;
    Ok(Json(json!(found)))
}

/// `files/grep` parameters.
#[derive(Deserialize)]
pub struct GrepQuery {
    #[serde(default = "root")]
    path: String,
    query: String,
    #[serde(default)]
    regex: bool,
    #[serde(default)]
    ignore_case: bool,
    #[serde(default)]
    context: u32,
    include: Option<String>,
}

/// `GET files/grep?path=&query=&regex=&ignore_case=&include=&context=`.
pub async fn grep(
    State(server): State<Arc<Server>>,
    access: Access,
    Path(id): Path<String>,
    ApiQuery(q): ApiQuery<GrepQuery>,
    ApiQuery(page): ApiQuery<PageQuery>,
) -> ApiResult<Json<Value>> {
    let found = with_ws(&server, &access, &id, Right::Read, move |e| {
        let opts = GrepOptions {
            regex: q.regex,
            ignore_case: q.ignore_case,
            context: q.context,
            include: q.include,
            page: page.page(super::MAX_PAGE),
        };
        Ok(e.ws.grep(&q.path, &q.query, &opts)?)
    })
    .await?;
    Ok(Json(json!(found)))
}

/// `POST files/rm` body.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rm {
    path: String,
    #[serde(default)]
    recursive: bool,
    #[serde(default)]
    force: bool,
}

/// `POST files/rm`.
pub async fn rm(
    State(server): State<Arc<Server>>,
    access: Access,
    Path(id): Path<String>,
    ApiJson(body): ApiJson<Rm>,
) -> ApiResult<Json<Value>> {
    let path = body.path.clone();
    with_ws(&server, &access, &id, Right::Exec, move |e| {
        let opts = RmOptions {
            recursive: body.recursive,
            force: body.force,
        };
        Ok(e.ws.rm(&body.path, opts)?)
    })
    .await?;
    Ok(Json(json!({"path": path})))
}

/// `POST files/mkdir` body.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Mkdir {
    path: String,
    #[serde(default)]
    parents: bool,
}

/// `POST files/mkdir`.
pub async fn mkdir(
    State(server): State<Arc<Server>>,
    access: Access,
    Path(id): Path<String>,
    ApiJson(body): ApiJson<Mkdir>,
) -> ApiResult<Json<Value>> {
    let path = body.path.clone();
    with_ws(&server, &access, &id, Right::Exec, move |e| {
        let opts = MkdirOptions {
            recursive: body.parents,
            mode: None,
        };
        Ok(e.ws.mkdir(&body.path, &opts)?)
    })
    .await?;
    Ok(Json(json!({"path": path})))
}

/// `POST files/mv` and `files/cp` body.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Move {
    from: String,
    to: String,
    #[serde(default)]
    recursive: bool,
}

/// `POST files/mv`.
pub async fn mv(
    State(server): State<Arc<Server>>,
    access: Access,
    Path(id): Path<String>,
    ApiJson(body): ApiJson<Move>,
) -> ApiResult<Json<Value>> {
    let doc = json!({"from": body.from, "to": body.to});
    with_ws(&server, &access, &id, Right::Exec, move |e| {
        Ok(e.ws.rename(&body.from, &body.to)?)
    })
    .await?;
    Ok(Json(doc))
}

/// `POST files/cp` (`recursive` for directories).
pub async fn cp(
    State(server): State<Arc<Server>>,
    access: Access,
    Path(id): Path<String>,
    ApiJson(body): ApiJson<Move>,
) -> ApiResult<Json<Value>> {
    let doc = json!({"from": body.from, "to": body.to});
    with_ws(&server, &access, &id, Right::Exec, move |e| {
        Ok(e.ws.copy(&body.from, &body.to, body.recursive)?)
    })
    .await?;
    Ok(Json(doc))
}
