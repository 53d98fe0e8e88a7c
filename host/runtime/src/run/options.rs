//! What a caller asks of one run: `ExecOptions`.

use std::collections::BTreeMap;

use computer_store::OnInterrupt;

use crate::run::limit_names::LimitNames;
use crate::run::limits::Limits;

/// Options of one exec, on any backend.
#[derive(Debug, Clone, Default)]
pub struct ExecOptions {
    /// Backend name: a registered backend (`shell`, `js`, a user guest, or
    /// one the embedder registered).
    pub backend: String,
    /// Absolute working directory; must be an existing directory. Default `/`.
    pub cwd: Option<String>,
    /// The run's whole environment: the host's is never passed through.
    pub env: BTreeMap<String, String>,
    /// The program name, `argv[0]` [default: chosen by the backend].
    pub program: Option<String>,
    /// Arguments after the program name.
    pub args: Vec<String>,
    /// Bytes the run reads on standard input.
    pub stdin: Vec<u8>,
    /// JSON input, given to the guest as text (validated here).
    pub input: Option<String>,
    /// Overrides the backend's default limits for this run.
    pub limits: Option<Limits>,
    /// A caller-chosen run id, unique per workspace.
    pub id: Option<String>,
    /// Overrides the runtime's (and the backend's) `on_interrupt`.
    pub on_interrupt: Option<OnInterrupt>,
    /// The image to run in, for backends that run in one (containers);
    /// others ignore it.
    pub image: Option<String>,
    /// How the caller's surface names the knobs that raise each limit, for
    /// the limit errors (default: the `Limits` fields).
    pub limit_names: LimitNames,
    /// A read-only run: every change to the workspace, by the run or any
    /// command it starts, fails with `EROFS` (its private `/tmp` stays
    /// writable); the container backend drops the changes it would sync
    /// back and reports them. Reads and the network are unchanged.
    pub read_only: bool,
    /// Hosts (`host`, `host:port`, `*.domain`) this run's commands may
    /// reach over HTTP besides the workspace's allow-list; for this run
    /// only.
    pub allow_hosts: Vec<String>,
}
