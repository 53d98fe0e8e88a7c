//! `computer mcp`: the agent tools served over MCP on stdin/stdout.
//!
//! - `tools/list` is `render(.., Format::Mcp)`: name, description,
//!   inputSchema and annotations, exactly as `computer tools --format mcp`
//!   prints them.
//! - `tools/call` runs `Tools::call` on a blocking thread (it is
//!   synchronous, and `exec` can take seconds). A tool error is an ordinary
//!   result with `isError: true` and the `{"error": "..."}` JSON as its text,
//!   so the model reads what to do next; success carries the JSON both as
//!   text and as `structuredContent`.
//! - Resources show what the computer has been doing: `computer://runs`
//!   lists recent runs and `computer://runs/{id}` is one run with its output;
//!   `computer://forks` lists the forks made from the workspace and
//!   `computer://forks/{name}` is one, with the paths that differ from it.
//!
//! - At most `--max-runs` execs run at once (`COMPUTER_MAX_RUNS`, default
//!   8): one more is refused at once with a tool error saying so, not
//!   queued (see `RuntimeConfig::max_concurrent_runs`).
//! - A request the client cancels (`notifications/cancelled`) cancels its
//!   run; a client that goes away (end of stdin, broken pipe) cancels every
//!   run it started, and the server exits once they are recorded
//!   `cancelled` (`mcp_calls.rs`).
//!
//! - A `tools/call` that sent a `progressToken` gets `notifications/progress`
//!   every second while a component compiles (`mcp_progress.rs`).
//! - `exec`'s `memoryMb` is capped at `--max-memory` (default 1024 MiB).
//! - All execs together reserve at most `--host-memory` MiB
//!   (`COMPUTER_HOST_MEMORY`; see `RuntimeConfig::host_memory`): one that
//!   does not fit waits for others to end, up to its timeout, then is
//!   refused with a tool error naming the knob.
//!
//! stdout carries protocol messages only; logs go to stderr. Bad input never
//! ends the server, and every request gets an answer: lines rmcp would drop
//! (too long, not UTF-8, not JSON) get a JSON-RPC error from our own stdio
//! transport (`mcp_stdio.rs`, `mcp_jsonrpc.rs`), and nothing here panics on
//! arguments.

use std::sync::Arc;

use computer_runtime::RuntimeConfig;
use computer_store::{DiffOptions, Page, RunRecord, TreeRef, Workspace};
use computer_tools::{Format, ToolDef, Tools, render};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation,
    ListResourceTemplatesResult, ListResourcesResult, ListToolsResult, PaginatedRequestParams,
    ReadResourceRequestParams, ReadResourceResponse, ReadResourceResult, Resource,
    ResourceContents, ResourceTemplate, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler, ServiceExt};
use serde_json::{Value, json};
use tokio::sync::OnceCell;

use crate::args::ToolSetArgs;
use crate::error::{CliError, CliResult};
use crate::mcp_calls::InFlight;
use crate::mcp_json::mcp_record;
use crate::mcp_progress::Compiles;
use crate::{mcp_stdio, tools_cmd};

/// How many runs `computer://runs` and `resources/list` show.
const RUNS_LISTED: u64 = 50;
/// Largest stdout or stderr a run resource shows.
const RUN_OUTPUT_CAP: usize = 64 * 1024;

const INSTRUCTIONS: &str = "A computer for agents: a durable workspace filesystem (paths are \
absolute, like /src/main.rs) with tools to read, write, edit, list, find, grep and delete \
files, and exec to run code against it. Tool errors come back as {\"error\": \"...\"} saying \
what to do next. Recent runs are readable as resources (computer://runs), and so are the workspace's forks (computer://forks). A run whose code needs a human's approval parks (status waiting); computer://approvals lists what waits, and the application answers with `computer respond`.";

/// The resources this server knows.
#[derive(Debug, PartialEq)]
enum ResourceUri {
    /// `computer://approvals`: interrupts waiting for the application's
    /// answer (`computer respond` answers them).
    Approvals,
    /// `computer://runs`: the most recent runs, newest first.
    Runs,
    /// `computer://runs/{id}`: one run with its source and output.
    Run(String),
    /// `computer://forks`: the forks made from this workspace.
    Forks,
    /// `computer://forks/{name}`: one fork, and what differs between this
    /// workspace's live tree and the fork's.
    Fork(String),
}

const RUNS_URI: &str = "computer://runs";
const APPROVALS_URI: &str = "computer://approvals";
const FORKS_URI: &str = "computer://forks";
/// Changed paths a fork resource lists at most.
const FORK_CHANGES_LISTED: usize = 500;

impl ResourceUri {
    fn parse(uri: &str) -> Option<ResourceUri> {
        if uri == APPROVALS_URI {
            return Some(ResourceUri::Approvals);
        }
        if let Some(rest) = uri.strip_prefix(FORKS_URI) {
            if rest.is_empty() || rest == "/" {
                return Some(ResourceUri::Forks);
            }
            let name = rest.strip_prefix('/')?;
            return (!name.is_empty() && !name.contains('/'))
                .then(|| ResourceUri::Fork(name.to_owned()));
        }
        let rest = uri.strip_prefix(RUNS_URI)?;
        if rest.is_empty() || rest == "/" {
            return Some(ResourceUri::Runs);
        }
        let id = rest.strip_prefix('/')?;
        (!id.is_empty() && !id.contains('/')).then(|| ResourceUri::Run(id.to_owned()))
    }
}

/// The tool set, built on a blocking thread as the server starts, so that no
/// request waits on the runtime's set-up. (The guests themselves compile on
/// their first `exec`, which can take many seconds with a cold cache.)
struct State {
    ws: Arc<Workspace>,
    args: ToolSetArgs,
    /// Execs at once (`--max-runs`).
    max_runs: usize,
    /// The host memory ceiling in MiB (`--host-memory`), if given.
    host_memory: Option<u64>,
    tools: OnceCell<Arc<Tools>>,
    calls: Arc<InFlight>,
    /// The compile under way, for calls that asked for progress.
    compiles: Arc<Compiles>,
}

#[derive(Clone)]
struct ComputerServer {
    state: Arc<State>,
}

fn internal(e: impl std::fmt::Display) -> ErrorData {
    ErrorData::internal_error(e.to_string(), None)
}

fn cap(bytes: &[u8]) -> String {
    computer_tools::cap_text(&String::from_utf8_lossy(bytes), RUN_OUTPUT_CAP)
}

fn run_summary(r: &RunRecord) -> String {
    let code = r.exit_code.map_or("-".to_owned(), |c| c.to_string());
    format!("{} run, {}, exit code {code}", r.backend, r.status)
}

impl ComputerServer {
    fn new(ws: Arc<Workspace>, args: ToolSetArgs, (max_runs, host_memory): Caps) -> Self {
        ComputerServer {
            state: Arc::new(State {
                ws,
                args,
                max_runs,
                host_memory,
                tools: OnceCell::new(),
                calls: Arc::default(),
                compiles: Arc::default(),
            }),
        }
    }

    /// The tool set, building it on first use. Without a runtime (it failed
    /// to start) the set has no `exec`, and the reason is logged.
    async fn tools(&self) -> Arc<Tools> {
        let state = self.state.clone();
        self.state
            .tools
            .get_or_init(|| async move {
                let build_state = state.clone();
                let built = tokio::task::spawn_blocking(move || {
                    let config = RuntimeConfig {
                        max_concurrent_runs: build_state.max_runs,
                        host_memory: build_state
                            .host_memory
                            .map_or_else(computer_runtime::default_host_memory, |mib| {
                                mib.saturating_mul(1 << 20)
                            }),
                        on_compile: Some(build_state.compiles.observer()),
                        ..RuntimeConfig::default()
                    };
                    let runtime =
                        match tools_cmd::runtime_for(&build_state.args, &build_state.ws, config) {
                            Ok(rt) => rt,
                            Err(e) => {
                                tracing::error!(
                                    "exec is unavailable: cannot start the runtime: {}",
                                    e.message
                                );
                                None
                            }
                        };
                    if let Some(rt) = &runtime {
                        warm_in_background(rt.clone());
                    }
                    tools_cmd::tool_set(build_state.ws.clone(), runtime, &build_state.args)
                })
                .await;
                let tools = built.unwrap_or_else(|e| {
                    tracing::error!("exec is unavailable: starting the runtime panicked: {e}");
                    tools_cmd::tool_set(state.ws.clone(), None, &state.args)
                });
                Arc::new(tools)
            })
            .await
            .clone()
    }

    /// Runs a workspace query on a blocking thread.
    async fn blocking<T: Send + 'static>(
        &self,
        f: impl FnOnce(&Workspace) -> Result<T, ErrorData> + Send + 'static,
    ) -> Result<T, ErrorData> {
        let ws = self.state.ws.clone();
        tokio::task::spawn_blocking(move || f(&ws))
            .await
            .map_err(internal)?
    }
}

fn tool_list(defs: &[ToolDef]) -> Result<Vec<Tool>, ErrorData> {
    let rendered = render(defs, Format::Mcp);
    serde_json::from_value(rendered).map_err(internal)
}

fn json_contents(uri: &str, doc: &Value) -> ReadResourceResult {
    let text = serde_json::to_string_pretty(doc).unwrap_or_else(|_| doc.to_string());
    ReadResourceResult::new(vec![
        ResourceContents::text(text, uri).with_mime_type("application/json"),
    ])
}

impl ServerHandler for ComputerServer {
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
        // While the tool set is still being built (the first start compiles
        // the guests, which can take many seconds), list what it will offer
        // rather than keep the client waiting.
        let defs = match self.state.tools.get() {
            Some(tools) => tools.definitions(),
            None => tools_cmd::definitions(&self.state.args)
                .map_err(|e| ErrorData::internal_error(e.message, None))?,
        };
        Ok(ListToolsResult::with_all_items(tool_list(&defs)?))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        // Set up before the tool set: building it may be what compiles.
        let progress = context
            .meta
            .get_progress_token()
            .map(|token| self.state.compiles.report(context.peer.clone(), token));
        let tools = self.tools().await;
        let name = request.name.into_owned();
        let args = request.arguments.map_or(Value::Null, Value::Object);
        let shown = name.clone();
        let call = self.state.calls.begin();
        let cancel = call.cancel.clone();
        // rmcp cancels the token on the client's notifications/cancelled,
        // and when the session ends.
        let token = context.ct.clone();
        let watcher = tokio::spawn(async move {
            token.cancelled().await;
            cancel.cancel();
        });
        // The call stays registered until its blocking work is over, so the
        // server does not exit before a cancelled run is recorded.
        let value = tokio::task::spawn_blocking(move || {
            let value = tools.call_cancellable(&name, args, &call.cancel);
            drop(call);
            value
        })
        .await
            .unwrap_or_else(|e| {
                tracing::error!("tool {shown} panicked: {e}");
                json!({"error": format!("internal error: the {shown} tool failed unexpectedly; the workspace is unchanged if it was a read, otherwise check it and retry")})
            });
        watcher.abort();
        if let Some(p) = progress {
            p.abort();
        }
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
        let (runs, forks) = self
            .blocking(|ws| {
                let runs = ws
                    .runs()
                    .list(Page::new(0, Some(RUNS_LISTED)))
                    .map_err(internal)?;
                Ok((runs, ws.forks().map_err(internal)?))
            })
            .await?;
        let mut resources = vec![
            Resource::new(APPROVALS_URI, "approvals")
                .with_title("Pending approvals")
                .with_description(
                    "Module calls waiting for the application's answer: run id, call id, module, function, payload; their runs are parked until answered",
                )
                .with_mime_type("application/json"),
            Resource::new(RUNS_URI, "runs")
                .with_title("Recent runs")
                .with_description(format!(
                    "The {RUNS_LISTED} most recent exec runs, newest first: id, backend, status, exit code, times"
                ))
                .with_mime_type("application/json"),
            Resource::new(FORKS_URI, "forks")
                .with_title("Forks")
                .with_description(
                    "The workspaces forked from this one (computer fork): name, workspace file, the snapshot each started from, whether its file is still there",
                )
                .with_mime_type("application/json"),
        ];
        resources.extend(runs.iter().map(|r| {
            Resource::new(format!("{RUNS_URI}/{}", r.id), format!("run {}", r.id))
                .with_description(run_summary(r))
                .with_mime_type("application/json")
        }));
        resources.extend(forks.iter().map(|f| {
            let from = f.from_snapshot.as_deref().unwrap_or("the live tree");
            Resource::new(
                format!("{FORKS_URI}/{}", f.name),
                format!("fork {}", f.name),
            )
            .with_description(format!(
                "fork of {from}, at {}; reading it lists what differs from this workspace's files",
                f.path.display()
            ))
            .with_mime_type("application/json")
        }));
        Ok(ListResourcesResult::with_all_items(resources))
    }

    async fn list_resource_templates(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        Ok(ListResourceTemplatesResult::with_all_items(vec![
            ResourceTemplate::new(format!("{RUNS_URI}/{{id}}"), "run")
                .with_title("One run")
                .with_description(
                    "One exec run: source, options, status, exit code, value, stdout and stderr",
                )
                .with_mime_type("application/json"),
            ResourceTemplate::new(format!("{FORKS_URI}/{{name}}"), "fork")
                .with_title("One fork")
                .with_description(
                    "One fork: its workspace file and origin, and the paths that differ between this workspace's live tree and the fork's (path and status, as the diff tool gives them)",
                )
                .with_mime_type("application/json"),
        ]))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        let uri = request.uri;
        let Some(which) = ResourceUri::parse(&uri) else {
            return Err(ErrorData::resource_not_found(
                format!(
                    "no resource {uri:?}: try {APPROVALS_URI}, {RUNS_URI}, {RUNS_URI}/{{id}}, {FORKS_URI} or {FORKS_URI}/{{name}}"
                ),
                None,
            ));
        };
        let doc = match which {
            ResourceUri::Approvals => {
                let pending = self
                    .blocking(|ws| ws.interrupts().pending().map_err(internal))
                    .await?;
                json!({"pending": pending.iter().map(mcp_record).collect::<Vec<_>>()})
            }
            ResourceUri::Runs => {
                let runs = self
                    .blocking(|ws| {
                        ws.runs()
                            .list(Page::new(0, Some(RUNS_LISTED)))
                            .map_err(internal)
                    })
                    .await?;
                json!({"runs": runs.iter().map(mcp_record).collect::<Vec<_>>()})
            }
            ResourceUri::Run(id) => {
                let shown = id.clone();
                let record = self
                    .blocking(move |ws| ws.runs().get(&id).map_err(internal))
                    .await?;
                let Some(r) = record else {
                    return Err(ErrorData::resource_not_found(
                        format!("no run with id {shown:?}; {RUNS_URI} lists the runs"),
                        None,
                    ));
                };
                let mut doc = mcp_record(&r);
                doc["stdout"] = json!(cap(&r.stdout));
                doc["stderr"] = json!(cap(&r.stderr));
                doc
            }
            ResourceUri::Forks => {
                let forks = self.blocking(|ws| ws.forks().map_err(internal)).await?;
                json!({"forks": forks.iter().map(mcp_record).collect::<Vec<_>>()})
            }
            ResourceUri::Fork(name) => {
                let shown = name.clone();
                let found = self
                    .blocking(move |ws| {
                        let Some(info) = ws
                            .forks()
                            .map_err(internal)?
                            .into_iter()
                            .find(|f| f.name == name)
                        else {
                            return Ok(None);
                        };
                        let diff = info.exists.then(|| {
                            ws.diff(
                                &TreeRef::Live,
                                &TreeRef::Fork(name),
                                &DiffOptions::default(),
                            )
                        });
                        Ok(Some((info, diff)))
                    })
                    .await?;
                let Some((info, diff)) = found else {
                    return Err(ErrorData::resource_not_found(
                        format!("no fork named {shown:?}; {FORKS_URI} lists the forks"),
                        None,
                    ));
                };
                let mut doc = mcp_record(&info);
                match diff {
                    Some(Ok(d)) => {
                        let changes: Vec<Value> = d
                            .files
                            .iter()
                            .take(FORK_CHANGES_LISTED)
                            .map(|f| {
                                let mut c = json!({"path": f.path, "status": f.status});
                                if let Some(old) = &f.old_path {
                                    c["oldPath"] = json!(old);
                                }
                                c
                            })
                            .collect();
                        doc["changedFromParent"] = json!(changes);
                        doc["changesTruncated"] = json!(d.files.len() > FORK_CHANGES_LISTED);
                    }
                    Some(Err(e)) => doc["diffError"] = json!(format!("{}: {}", e.code, e.message)),
                    None => {}
                }
                doc
            }
        };
        Ok(json_contents(&uri, &doc).into())
    }
}

/// Compiles (or loads from the cache) every built-in component on a thread
/// of its own, backends first, so that a client's first `exec` does not wait
/// seconds for a compile its tool timeout may not allow. An exec that needs
/// a component still compiling waits for that compile, not for a second one.
fn warm_in_background(runtime: computer_runtime::Runtime) {
    let spawned = std::thread::Builder::new()
        .name("warm-components".into())
        .spawn(move || {
            for (name, result) in runtime.prepare() {
                if let Err(e) = result {
                    tracing::warn!("{name} could not be prepared: {e}");
                }
            }
        });
    if let Err(e) = spawned {
        tracing::warn!("cannot warm the components in the background: {e}");
    }
}

/// `--max-runs` and `--host-memory` (MiB).
pub type Caps = (usize, Option<u64>);

/// Serves until the client closes stdin; then cancels the runs still going
/// and waits until they are recorded.
pub fn serve(ws: Workspace, args: ToolSetArgs, caps: Caps, recover: bool) -> CliResult {
    let max_runs = caps.0;
    if max_runs == 0 {
        return Err(CliError::invalid(
            "invalid --max-runs 0: give how many execs may run at once, 1 or more",
        ));
    }
    tools_cmd::check_backends(&args)?;
    let ws = Arc::new(ws);
    if recover {
        crate::durable_cmd::recover_in_background(ws.clone());
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    let served = runtime.block_on(async move {
        let server = ComputerServer::new(ws, args, caps);
        // Start building the tool set now, while the client initializes.
        let warm = server.clone();
        tokio::spawn(async move {
            warm.tools().await;
        });
        let calls = server.state.calls.clone();
        let on_close = calls.clone();
        let transport = mcp_stdio::stdio(move || on_close.close());
        let session = match server.serve(transport).await {
            Ok(service) => service.waiting().await.map(drop).map_err(|e| CliError {
                code: "EIO".into(),
                message: format!("MCP session failed: {e}"),
            }),
            Err(e) => Err(CliError {
                code: "EPROTO".into(),
                message: format!("MCP session did not start: {e}"),
            }),
        };
        // However the session ended, nobody is left to read what the runs
        // still going would return.
        calls.close();
        calls.drained().await;
        session
    });
    // A read of stdin may still be pending (the session ended for another
    // reason): it holds no state worth waiting for.
    runtime.shutdown_background();
    served
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_resource_uris() {
        assert_eq!(
            ResourceUri::parse("computer://runs"),
            Some(ResourceUri::Runs)
        );
        assert_eq!(
            ResourceUri::parse("computer://runs/"),
            Some(ResourceUri::Runs)
        );
        assert_eq!(
            ResourceUri::parse("computer://runs/abc-1"),
            Some(ResourceUri::Run("abc-1".into()))
        );
        assert_eq!(
            ResourceUri::parse("computer://approvals"),
            Some(ResourceUri::Approvals)
        );
        assert_eq!(ResourceUri::parse("computer://approvals/x"), None);
        assert_eq!(ResourceUri::parse("computer://runs/a/b"), None);
        assert_eq!(ResourceUri::parse("computer://runsx"), None);
        assert_eq!(ResourceUri::parse("file:///etc/passwd"), None);
        assert_eq!(
            ResourceUri::parse("computer://forks"),
            Some(ResourceUri::Forks)
        );
        assert_eq!(
            ResourceUri::parse("computer://forks/try-1"),
            Some(ResourceUri::Fork("try-1".into()))
        );
        assert_eq!(ResourceUri::parse("computer://forks/a/b"), None);
        assert_eq!(ResourceUri::parse("computer://forksx"), None);
    }

    #[test]
    fn caps_output_on_a_char_boundary() {
        let big = "é".repeat(RUN_OUTPUT_CAP);
        let out = cap(big.as_bytes());
        assert!(out.ends_with(&format!(
            "[truncated, {} more bytes]",
            big.len() - RUN_OUTPUT_CAP
        )));
    }
}
