#![warn(missing_docs)]
//! The durable workspace: a POSIX-like filesystem in one SQLite file.
//!
//! Nodes (files, directories, symlinks) form a copy-on-write tree over
//! content-addressed chunks, so copies and renames of whole subtrees are
//! O(1). Every operation is one transaction and bumps the revision counter.
//!
//! The filesystem is [`Workspace`]'s own; the other records a workspace
//! keeps have handles of their own: [`Workspace::runs`] (run records and
//! the owners of durable runs), [`Workspace::journal`] (a durable run's
//! host calls and emitted output), [`Workspace::interrupts`] (approval
//! gates), [`Workspace::audit`] (the audit log), [`Workspace::modules`]
//! (module components), [`Workspace::commands`] (command components) and
//! [`Workspace::net`] (the hosts its HTTP may reach).
//!
//! A workspace is opened from a path ([`Workspace::open`]; the file is
//! created if missing, [`Workspace::open_with`] chooses) or made in memory
//! for tests. Paths are absolute POSIX paths; every failure is an
//! [`FsError`] with a POSIX [`Errno`] and a message naming the path.
//! Operations are attributed to this thread's actor ([`set_actor`],
//! [`with_actor`]) in the audit log. `computer-runtime` runs code against
//! a workspace, and `computer-tools` gives a model tools over one.
//!
//! ```
//! use computer_store::{Errno, GrepOptions, TextEdit, Workspace, WriteOptions};
//!
//! let ws = Workspace::in_memory()?;
//! let parents = WriteOptions { create_parents: true, ..Default::default() };
//! ws.write("/project/src/lib.rs", b"pub fn answer() -> u32 { 41 }\n", &parents)?;
//!
//! // A fork of the project: O(1), sharing every chunk until either side changes.
//! ws.copy("/project", "/before", true)?;
//!
//! let hits = ws.grep("/project", "41", &GrepOptions::default())?;
//! assert_eq!(hits.matches[0].path, "/project/src/lib.rs");
//! let edit = TextEdit { old: "41".into(), new: "42".into() };
//! let result = ws.edit("/project/src/lib.rs", &[edit])?;
//! assert!(result.diff.contains("+pub fn answer() -> u32 { 42 }"));
//! assert_eq!(ws.read("/before/src/lib.rs")?, b"pub fn answer() -> u32 { 41 }\n");
//!
//! // Errors carry a POSIX code and name the path.
//! let err = ws.read("/project/missing.rs").unwrap_err();
//! assert_eq!(err.code, Errno::ENOENT);
//! assert!(err.to_string().contains("/project/missing.rs"));
//!
//! // Every operation is in the audit log, with who did it.
//! let log = ws.audit().query(&Default::default())?;
//! assert!(log.iter().any(|r| r.operation == "edit" && r.actor == "embedder"));
//! # Ok::<(), computer_store::FsError>(())
//! ```

mod audit;
mod audit_log;
mod busy;
mod changes;
mod clock;
mod commands;
mod content;
mod db;
mod diff;
mod error;
mod fence;
mod forks;
mod fsck;
mod group;
mod hard_links;
mod interrupts;
mod journal;
mod location;
mod modules;
mod net;
mod ops;
mod path;
mod path_bound;
mod policy;
mod quota;
mod reserve;
mod runs;
mod search;
mod secrets;
mod snapshots;
mod status;
mod transfer;
mod tree;
mod types;
mod undo;
mod workspace;

pub use audit::{
    current_actor, redact_env, set_actor, summarize_bytes, summarize_text, with_actor,
};
pub use audit_log::{Audit, AuditQuery, AuditRecord, ToolCall, ToolCallRecord};
pub use changes::{CHANGES_KEPT, Change, Changes};
pub use clock::now_ns;
pub use commands::{CommandInfo, Commands, NewCommand, validate_command_name};
pub use content::{CHUNK_SIZE, ChunkPiece, Patch};
pub use db::Durability;
pub use diff::{Diff, DiffOptions, DiffStatus, FileDiff, TreeRef};
pub use error::{Errno, FsError, Result};
pub use forks::ForkInfo;
pub use fsck::FsckReport;
pub use group::{Entered, GroupCommit};
pub use interrupts::{Interrupt, Interrupts};
pub use journal::{ArgsDigest, Journal, JournalEntry, ResultEncoder};
pub use location::OpenMode;
pub use modules::{ModuleRecord, Modules, NewModule, validate_module_name};
pub use net::{
    AllowList, Credential, CredentialKind, Entry as NetEntry, Net, NetRule, is_internal,
    is_internal_host, render_credential, secret_names,
};
pub use path::{MAX_NAME, MAX_PATH, WsPath};
pub use policy::{
    Action, BackendLimits, CommandRule, Decision, ExecAction, Gate, Narrowing, NetworkRules,
    PathAccess, PathRule, Policy, PolicySpec, RunScope, ScopeGuard, current_scope, simple_commands,
};
pub use quota::{DEFAULT_QUOTA, Quota};
pub use runs::{
    Claimed, DurableRun, MAX_RUN_ID, NewRun, RunEnd, RunRecord, Runs, Unfinished, validate_run_id,
};
pub use secrets::{
    KEY_ENV as SECRETS_KEY_ENV, MAX_SECRET, SecretInfo, Secrets, key_path as secrets_key_path,
    validate_secret_name,
};
pub use snapshots::{
    GcReport, MAX_SNAPSHOT_NAME, SnapshotInfo, SnapshotSpace, Snapshots, validate_snapshot_name,
};
pub use status::{EntryKind, EntryStatus, OnInterrupt, RunStatus, UnknownValue};
pub use transfer::{ExportStats, ImportStats, Progress};
pub use tree::{MAX_SYMLINK_HOPS, NodeKind};
pub use types::{
    EditResult, FindEntry, FindPage, GrepMatch, GrepOptions, GrepPage, MkdirOptions, Page,
    RmOptions, Stat, TextEdit, WriteOptions,
};
pub use undo::{RUN_TREES_KEPT, UndoReport};
pub use workspace::{Config, DEFAULT_MAX_FILE_SIZE, Usage, Workspace};
