//! `computer tools`: the agent tools' definitions; and the tool set that
//! `computer mcp` serves.

use std::io::Write;
use std::sync::Arc;

use computer_runtime::{Runtime, RuntimeConfig, builtin_guests};
use computer_store::Workspace;
use computer_tools::{Format, ToolDef, ToolOptions, Tools, definitions_for, render};

use crate::args::ToolSetArgs;
use crate::error::{CliError, CliResult};

use crate::backends::CONTAINER_BACKENDS;

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
pub fn runtime_for(
    args: &ToolSetArgs,
    ws: &Workspace,
    config: RuntimeConfig,
) -> CliResult<Option<Runtime>> {
    if args.readonly {
        return Ok(None);
    }
    // The container backends are offered only when `--backends` names them
    // (they need an engine, and a container per workspace).
    let (runtime, _) = crate::backends::runtime(config, wants_container(args))?;
    runtime.register_workspace_modules(ws)?;
    Ok(Some(runtime))
}

/// The tool set over `ws` that `args` asks for.
pub fn tool_set(ws: Arc<Workspace>, runtime: Option<Runtime>, args: &ToolSetArgs) -> Tools {
    Tools::new(
        ws,
        runtime,
        ToolOptions {
            readonly: args.readonly,
            backends: args.backends.clone(),
            max_memory_mb: Some(args.max_memory),
        },
    )
}

/// The definitions of the tool set `args` asks for, without compiling any
/// guest (the registry's descriptions are all `exec` needs).
pub fn definitions(args: &ToolSetArgs) -> CliResult<Vec<ToolDef>> {
    let infos = if args.readonly {
        Vec::new()
    } else {
        let (runtime, _) =
            crate::backends::runtime(RuntimeConfig::default(), wants_container(args))?;
        runtime.backend_infos()
    };
    Ok(definitions_for(
        ToolOptions {
            readonly: args.readonly,
            backends: args.backends.clone(),
            max_memory_mb: Some(args.max_memory),
        },
        infos,
    ))
}

/// `computer tools`: one JSON document on stdout. Needs no workspace.
pub fn print(format: Format, args: &ToolSetArgs) -> CliResult {
    check_backends(args)?;
    let doc = render(&definitions(args)?, format);
    let text = serde_json::to_string_pretty(&doc).map_err(|e| CliError::invalid(e.to_string()))?;
    // A reader that stops early (`| head`) is not an error.
    match writeln!(std::io::stdout().lock(), "{text}") {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(e.into()),
        _ => Ok(()),
    }
}
