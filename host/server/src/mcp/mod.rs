//! Remote MCP: the agent tools of `computer mcp` (the same `Tools`, the
//! same definitions and results) over MCP's streamable HTTP transport at
//! `/workspaces/{id}/mcp`. A token with `exec` gets the whole tool set; one
//! with only `read` gets the read-only set (no exec, no changes).
//!
//! rmcp's `StreamableHttpService` does the transport (sessions, SSE); one
//! service per workspace and tool set, made on first use. The HTTP request
//! (with the caller, which the auth middleware put in its extensions)
//! reaches each call, so tool calls are attributed to the token.

use std::sync::Arc;

use axum::extract::{Path, Request, State};
use axum::response::{IntoResponse, Response};
use computer_store::Page;
use computer_tools::{CallCancel, Format, Tools, render};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation,
    ListResourcesResult, ListToolsResult, PaginatedRequestParams, ReadResourceRequestParams,
    ReadResourceResponse, ReadResourceResult, Resource, ResourceContents, ServerCapabilities,
    ServerConfig, Tool,
};
use rmcp::service::RequestContext;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use rmcp::{ErrorData, RoleServer, ServerHandler};
use serde_json::{Value, json};

use crate::auth::tokens::Principal;
use crate::auth::{Access, Right};
use crate::error::{ApiError, ApiResult};
use crate::state::{Entry, Server};

/// One workspace's MCP service.
pub type McpService = StreamableHttpService<WorkspaceMcp, LocalSessionManager>;

const INSTRUCTIONS: &str = "A computer for agents: a durable workspace filesystem (paths are \
absolute, like /src/main.rs) with tools to read, write, edit, list, find, grep and delete \
files, and exec to run code against it. Tool errors come back as {\"error\": \"...\"} saying \
what to do next. computer://runs lists recent runs and computer://approvals what waits for a \
human's answer (given in the console or the HTTP API).";

/// The MCP server of one workspace.
#[derive(Clone)]
pub struct WorkspaceMcp {
    tools: Arc<Tools>,
    entry: Arc<Entry>,
}

fn internal(e: impl std::fmt::Display) -> ErrorData {
    ErrorData::internal_error(e.to_string(), None)
}

/// `http:NAME` of the token behind a call.
fn actor_of(ctx: &RequestContext<RoleServer>) -> String {
    ctx.extensions
        .get::<http::request::Parts>()
        .and_then(|p| p.extensions.get::<Principal>())
        .map_or_else(|| "http:mcp".to_owned(), |p| format!("http:{}", p.name))
}

impl ServerHandler for WorkspaceMcp {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(
            ServerCapabilities::builder()
                .enable_resources()
                .enable_tools()
                .build(),
        )
        .with_server_info(
            Implementation::new("computer", env!("CARGO_PKG_VERSION"))
                .with_title("computer: a workspace and runtime for agents"),
        )
        .with_instructions(INSTRUCTIONS)
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let rendered = render(&self.tools.definitions(), Format::Mcp);
        let tools: Vec<Tool> = serde_json::from_value(rendered).map_err(internal)?;
        Ok(ListToolsResult::with_all_items(tools))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let tools = self.tools.clone();
        let name = request.name.into_owned();
        let args = request.arguments.map_or(Value::Null, Value::Object);
        let actor = actor_of(&context);
        let cancel = CallCancel::new();
        let on_cancel = cancel.clone();
        let token = context.ct.clone();
        // rmcp cancels the token on notifications/cancelled and when the
        // session ends: the call's run is cancelled with it.
        let watcher = tokio::spawn(async move {
            token.cancelled().await;
            on_cancel.cancel();
        });
        let value = tokio::task::spawn_blocking(move || {
            computer_store::with_actor(actor, || tools.call_cancellable(&name, args, &cancel))
        })
        .await
        .map_err(internal)?;
        watcher.abort();
        let result = if Tools::is_error(&value) {
            CallToolResult::error(vec![ContentBlock::text(value.to_string())])
        } else {
            CallToolResult::structured(value)
        };
        Ok(result.into())
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        Ok(ListResourcesResult::with_all_items(vec![
            Resource::new("computer://approvals", "approvals")
                .with_description("Module calls waiting for a human's answer")
                .with_mime_type("application/json"),
            Resource::new("computer://runs", "runs")
                .with_description("The 50 most recent runs, newest first")
                .with_mime_type("application/json"),
        ]))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        let uri = request.uri;
        let ws = self.entry.ws.clone();
        let which = uri.clone();
        let doc = tokio::task::spawn_blocking(move || -> Result<Value, ErrorData> {
            match which.as_str() {
                "computer://approvals" => {
                    Ok(json!({"pending": ws.interrupts().pending().map_err(internal)?}))
                }
                "computer://runs" => {
                    let runs = ws
                        .runs()
                        .list(Page::new(0, Some(50)))
                        .map_err(internal)?;
                    Ok(json!({"runs": runs.iter().map(crate::routes::runs::run_json).collect::<Vec<_>>()}))
                }
                other => Err(ErrorData::resource_not_found(
                    format!("no resource {other:?}: try computer://approvals or computer://runs"),
                    None,
                )),
            }
        })
        .await
        .map_err(internal)??;
        let text = serde_json::to_string_pretty(&doc).map_err(internal)?;
        Ok(ReadResourceResult::new(vec![
            ResourceContents::text(text, uri).with_mime_type("application/json"),
        ])
        .into())
    }
}

fn service(server: &Arc<Server>, entry: &Arc<Entry>, readonly: bool) -> McpService {
    let mut slots = entry.mcp.lock().unwrap_or_else(|p| p.into_inner());
    let slot = &mut slots[usize::from(readonly)];
    if let Some(s) = slot {
        return s.clone();
    }
    let tools = entry.tools(server, readonly);
    let handler = WorkspaceMcp {
        tools,
        entry: entry.clone(),
    };
    // Host checks against DNS rebinding are the listener's business here:
    // every request is authenticated by its token before it gets this far.
    let config = StreamableHttpServerConfig::default()
        .disable_allowed_hosts()
        .with_max_request_body_bytes(server.config.max_body_bytes)
        .with_cancellation_token(server.mcp_cancel.child_token());
    let made = StreamableHttpService::new(
        move || Ok(handler.clone()),
        Arc::new(LocalSessionManager::default()),
        config,
    );
    *slot = Some(made.clone());
    made
}

/// `/workspaces/{id}/mcp` (POST, GET, DELETE as the transport says).
pub async fn handle(
    State(server): State<Arc<Server>>,
    access: Access,
    Path(id): Path<String>,
    request: Request,
) -> ApiResult<Response> {
    access.need(&id, Right::Read)?;
    let readonly = access.need(&id, Right::Exec).is_err();
    let s = server.clone();
    let svc = tokio::task::spawn_blocking(move || -> ApiResult<McpService> {
        let entry = s.entry(&id, false)?;
        Ok(service(&s, &entry, readonly))
    })
    .await
    .map_err(ApiError::internal)??;
    Ok(svc.handle(request).await.into_response())
}
