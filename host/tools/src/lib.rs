#![warn(missing_docs)]
//! The agent tool layer: `read`, `write`, `edit`, `ls`, `find`, `grep`,
//! `delete` and `exec` over a workspace, each with a JSON Schema and a
//! description written for a model, behind one `call(name, args)` entry
//! point that never fails: errors come back as `{"error": "..."}` saying
//! what to do next. Every call is recorded in the workspace's `tool_calls`
//! table, and the filesystem operations it makes are audited as actor `tool`.
//!
//! An application hands [`Tools::definitions`] to its model (rendered for
//! its API with [`render`]), and each tool call the model makes to
//! [`Tools::call`]; the returned JSON goes back to the model as it is.
//! `computer mcp` is this crate behind an MCP server.
//!
//! ```
//! use std::sync::Arc;
//! use computer_store::Workspace;
//! use computer_tools::{Format, ToolOptions, Tools, render};
//! use serde_json::json;
//!
//! let ws = Arc::new(Workspace::in_memory().unwrap());
//! // No runtime: the file tools only (`exec` needs a `computer_runtime::Runtime`).
//! let tools = Tools::new(ws, None, ToolOptions::default());
//! let for_the_model = render(&tools.definitions(), Format::Anthropic);
//! assert!(for_the_model.as_array().unwrap().iter().any(|t| t["name"] == "edit"));
//!
//! tools.call("write", json!({"path": "/notes.md", "content": "draft\n"}));
//! let edited = tools.call(
//!     "edit",
//!     json!({"path": "/notes.md", "edits": [{"oldText": "draft", "newText": "final"}]}),
//! );
//! assert!(!Tools::is_error(&edited), "{edited}");
//! let read = tools.call("read", json!({"path": "/notes.md"}));
//! assert!(read.to_string().contains("final"), "{read}");
//!
//! // Mistakes are answers the model can act on, not crashes.
//! let missing = tools.call("read", json!({"path": "/nope.md"}));
//! assert!(Tools::is_error(&missing));
//! assert!(missing["error"].as_str().unwrap().contains("/nope.md"));
//! ```

mod args;
mod calls;
mod cancel;
mod definitions;
mod format;
mod history;
mod locks;
mod output;

pub use cancel::CallCancel;
pub use definitions::{ToolDef, definitions_for};
pub use format::{Format, render};
pub use output::cap_text;

use std::sync::Arc;

use computer_runtime::{BackendInfo, Commands, Runtime};
use computer_store::Workspace;

use crate::locks::PathLocks;

/// Which tools are exposed and how `exec` runs.
#[derive(Clone, Default)]
pub struct ToolOptions {
    /// Only `read`, `ls`, `find` and `grep`.
    pub readonly: bool,
    /// Backends `exec` may use, in order of preference; empty means every
    /// backend the runtime has.
    pub backends: Vec<String>,
    /// The most memory `exec`'s `memoryMb` may ask for, in MiB [default:
    /// [`DEFAULT_MAX_MEMORY_MB`]]. A run that asks for none gets its
    /// backend's default, whatever this is.
    pub max_memory_mb: Option<u64>,
}

/// The default ceiling of `exec`'s `memoryMb`: the shell's default memory,
/// the largest of the built-in backends'.
pub const DEFAULT_MAX_MEMORY_MB: u64 = 1024;

/// A tool set over one workspace.
pub struct Tools {
    ws: Arc<Workspace>,
    runtime: Option<Runtime>,
    readonly: bool,
    /// The backends `exec` offers, by name, in order.
    backends: Vec<String>,
    /// What they say of themselves (for `exec`'s description).
    infos: Vec<BackendInfo>,
    /// The ceiling of `memoryMb`.
    max_memory_mb: u64,
    locks: PathLocks,
}

impl Tools {
    /// `runtime` is needed for `exec`; without one, `exec` is not offered.
    /// `exec` offers the runtime's backends (`options.backends` picks and
    /// orders them).
    pub fn new(ws: Arc<Workspace>, runtime: Option<Runtime>, options: ToolOptions) -> Self {
        let available = runtime
            .as_ref()
            .map(Runtime::backend_infos)
            .unwrap_or_default();
        let infos = choose_backends(options.backends, available);
        Tools {
            ws,
            runtime,
            readonly: options.readonly,
            backends: infos.iter().map(|i| i.name.clone()).collect(),
            infos,
            max_memory_mb: options.max_memory_mb.unwrap_or(DEFAULT_MAX_MEMORY_MB),
            locks: PathLocks::default(),
        }
    }

    /// The workspace every tool acts on.
    pub fn workspace(&self) -> &Arc<Workspace> {
        &self.ws
    }

    /// The backends `exec` offers, by name, first the one it uses when a
    /// call names none.
    pub fn backends(&self) -> &[String] {
        &self.backends
    }
}

/// The backends `exec` offers: those of `wanted` that are `available`, in
/// `wanted`'s order, or every available one when `wanted` is empty.
pub(crate) fn choose_backends(
    wanted: Vec<String>,
    mut available: Vec<BackendInfo>,
) -> Vec<BackendInfo> {
    if wanted.is_empty() {
        // `command` runs one command component, which the shell already
        // runs by name: offered only when asked for, so it never becomes
        // the default.
        available.retain(|b| b.name != computer_runtime::COMMAND_BACKEND);
        // Agents think in shell: a backend that runs commands by name comes
        // first; those slow to start (containers) come last.
        available.sort_by_key(|b| {
            (
                b.slow_start,
                !matches!(b.commands, Commands::Listed(_)),
                b.name.clone(),
            )
        });
        available
    } else {
        wanted
            .into_iter()
            .filter_map(|w| available.iter().find(|b| b.name == w).cloned())
            .collect()
    }
}
