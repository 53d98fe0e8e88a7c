//! `computer tools`: the agent tools' definitions; and the tool set that
//! `computer mcp` serves.

use std::io::Write;
use std::sync::Arc;

use computer_runtime::{Runtime, RuntimeConfig, builtin_guests};
use computer_store::Workspace;
use computer_tools::{Format, ToolDef, ToolOptions, Tools, definitions_for, render};

use crate::args::ToolSetArgs;
use crate::error::{CliError, CliResult};

/// The container backends, offered only when `--backends` names them (they
/// need an engine, and a container per workspace).
const CONTAINER_BACKENDS: [&str; 2] = [
    computer_container::CONTAINER_BACKEND,
    computer_container::AUTO_BACKEND,
];

fn wants_container(args: &ToolSetArgs) -> bool {
    args.backends
        .iter()
        .any(|b| CONTAINER_BACKENDS.contains(&b.as_str()))
}

/// Checks `--backends` against the guests built into this binary (and the
/// container backends).
pub fn check_backends(args: &ToolSetArgs) -> CliResult {
    let builtin: Vec<&str> = builtin_guests().iter().map(|(name, _)| *name).collect();
    for b in &args.backends {
        if !builtin.contains(&b.as_str()) && !CONTAINER_BACKENDS.contains(&b.as_str()) {
            let known = if builtin.is_empty() {
                "none are built into this binary (run scripts/build-guests.sh)".to_owned()
            } else {
                format!(
                    "built-in backends: {}, plus container and auto",
                    builtin.join(", ")
                )
            };
            return Err(CliError::invalid(format!(
                "unknown backend {b:?} in --backends; {known}"
            )));
        }
    }
    Ok(())
}

/// The runtime `exec` uses: `Runtime::with_builtin_guests`, whose guests
/// load on first use (compiling one can take many seconds the first time;
/// later processes load it from the component cache). `Tools` offers only
/// the ones `--backends` names. `None` for a read-only tool set, which has
/// no `exec`. The workspace's module components (`computer modules add`)
/// are registered, so `exec` can import them.
pub fn runtime_for(args: &ToolSetArgs, ws: &Workspace) -> CliResult<Option<Runtime>> {
    if args.readonly {
        return Ok(None);
    }
    let runtime = Runtime::with_builtin_guests(RuntimeConfig::default())?;
    runtime.register_workspace_modules(ws)?;
    Ok(Some(runtime))
}

/// The tool set over `ws` that `args` asks for. The container backends
/// come in when `--backends` names them; without an engine configuration
/// they are left out, and the reason logged.
pub fn tool_set(ws: Arc<Workspace>, runtime: Option<Runtime>, args: &ToolSetArgs) -> Tools {
    let container = if wants_container(args) && runtime.is_some() {
        match computer_container::ContainerBackend::from_env() {
            Ok(c) => Some(c),
            Err(e) => {
                tracing::error!("the container backends are unavailable: {e}");
                None
            }
        }
    } else {
        None
    };
    Tools::with_container(
        ws,
        runtime,
        container,
        ToolOptions {
            readonly: args.readonly,
            backends: args.backends.clone(),
        },
    )
}

/// The definitions of the tool set `args` asks for, without building it:
/// the built-in guests' names are all `exec` needs, so no guest is compiled.
pub fn definitions(args: &ToolSetArgs) -> Vec<ToolDef> {
    let mut builtin: Vec<String> = builtin_guests()
        .into_iter()
        .map(|(name, _)| name.to_owned())
        .collect();
    if wants_container(args) {
        builtin.extend(CONTAINER_BACKENDS.map(str::to_owned));
    }
    definitions_for(
        ToolOptions {
            readonly: args.readonly,
            backends: args.backends.clone(),
        },
        builtin,
    )
}

/// `computer tools`: one JSON document on stdout. Needs no workspace.
pub fn print(format: Format, args: &ToolSetArgs) -> CliResult {
    check_backends(args)?;
    let doc = render(&definitions(args), format);
    let text = serde_json::to_string_pretty(&doc).map_err(|e| CliError::invalid(e.to_string()))?;
    // A reader that stops early (`| head`) is not an error.
    match writeln!(std::io::stdout().lock(), "{text}") {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(e.into()),
        _ => Ok(()),
    }
}
