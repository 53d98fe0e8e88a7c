//! The agent tool layer: `read`, `write`, `edit`, `ls`, `find`, `grep`,
//! `delete` and `exec` over a workspace, each with a JSON Schema and a
//! description written for a model, behind one `call(name, args)` entry
//! point that never fails: errors come back as `{"error": "..."}` saying
//! what to do next. Every call is recorded in the workspace's `tool_calls`
//! table, and the filesystem operations it makes are audited as actor `tool`.

mod args;
mod calls;
mod definitions;
mod format;
mod locks;
mod output;

pub use definitions::{ToolDef, definitions_for};
pub use format::{Format, render};
pub use output::cap_text;

use std::sync::Arc;

use computer_runtime::Runtime;
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
}

/// A tool set over one workspace.
pub struct Tools {
    ws: Arc<Workspace>,
    runtime: Option<Runtime>,
    /// Runs the `container` and `auto` backends, when offered.
    container: Option<computer_container::ContainerBackend>,
    readonly: bool,
    backends: Vec<String>,
    locks: PathLocks,
}

impl Tools {
    /// `runtime` is needed for `exec`; without one, `exec` is not offered.
    pub fn new(ws: Arc<Workspace>, runtime: Option<Runtime>, options: ToolOptions) -> Self {
        Self::with_container(ws, runtime, None, options)
    }

    /// As [`new`](Self::new), with the `container` and `auto` backends
    /// offered too (after the runtime's, unless `options.backends` orders
    /// them) when `container` is given and the runtime exists.
    pub fn with_container(
        ws: Arc<Workspace>,
        runtime: Option<Runtime>,
        container: Option<computer_container::ContainerBackend>,
        options: ToolOptions,
    ) -> Self {
        let mut available = runtime.as_ref().map(Runtime::backends).unwrap_or_default();
        if runtime.is_some() && container.is_some() {
            available.push(computer_container::CONTAINER_BACKEND.to_owned());
            available.push(computer_container::AUTO_BACKEND.to_owned());
        }
        let backends = choose_backends(options.backends, available);
        Tools {
            ws,
            runtime,
            container,
            readonly: options.readonly,
            backends,
            locks: PathLocks::default(),
        }
    }

    pub fn workspace(&self) -> &Arc<Workspace> {
        &self.ws
    }

    /// The backends `exec` offers.
    pub fn backends(&self) -> &[String] {
        &self.backends
    }
}

/// The backends `exec` offers: those of `wanted` that are `available`, in
/// `wanted`'s order, or every available one when `wanted` is empty.
pub(crate) fn choose_backends(wanted: Vec<String>, mut available: Vec<String>) -> Vec<String> {
    if wanted.is_empty() {
        // Agents think in shell: offer it first when it exists; containers
        // (slow to start) come last.
        let container = |b: &String| b == "container" || b == "auto";
        available.sort_by_key(|b| (container(b), b != "shell", b.clone()));
        available
    } else {
        wanted
            .into_iter()
            .filter(|b| available.contains(b))
            .collect()
    }
}
