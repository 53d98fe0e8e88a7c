//! The workspace's history as tools: `snapshot` (create, list, restore,
//! delete named snapshots), `diff` (what differs between snapshots, the
//! live tree, or a run's before and after) and `undo` (revert one run).
//! Each call is in the audit log as a tool call, and the store records
//! the snapshot and undo operations themselves, attributed to `tool`.

use computer_store::{DiffOptions, FsError, TreeRef};
use serde_json::{Value, json};

use crate::Tools;
use crate::args;
use crate::calls::{ToolError, ToolResult};
use crate::definitions::{ToolDef, def};
use crate::output::cap_text;

/// Most patch text returned by one `diff` call.
const PATCH_CAP: usize = 64 * 1024;

fn err(e: FsError) -> ToolError {
    ToolError(format!("{}: {}", e.code, e.message))
}

pub(crate) fn diff_def() -> ToolDef {
    def(
        "diff",
        "Show what differs between two states of the workspace: `from` and `to` are snapshot names, `live` (the current files, the default `to`), `run:ID:before`, `run:ID:after` or `fork:NAME` (a fork's current files); or give `run` to see what one exec run changed. Returns each changed file's `path` and `status` (added, deleted, modified, renamed, type_changed) and a git-style unified `patch` (capped at 64 KiB; `nameOnly: true` leaves it out). `paths` limits it to paths at or below those given.",
        true,
        json!({
            "from": {"type": "string", "description": "Snapshot name, live, run:ID:before, run:ID:after or fork:NAME"},
            "to": {"type": "string", "description": "Default: live"},
            "run": {"type": "string", "description": "A run id: what that run changed (instead of from/to)"},
            "paths": {"type": "array", "items": {"type": "string"}, "description": "Absolute paths to limit the diff to"},
            "nameOnly": {"type": "boolean", "description": "Only list the changed files, no patch"},
        }),
        &[],
    )
}

pub(crate) fn mutating_defs() -> Vec<ToolDef> {
    vec![
        def(
            "snapshot",
            "Save or bring back the whole workspace (files and settings) in O(1): `action: \"create\"` (optional `name`, `message`) before a risky change, `\"list\"` to see them, `\"restore\"` with `name` to put every file back as it was (run history is kept), `\"delete\"` with `name` to drop one.",
            false,
            json!({
                "action": {"type": "string", "enum": ["create", "list", "restore", "delete"]},
                "name": {"type": "string", "description": "Snapshot name: letters, digits, . _ - (create picks snap-N without one)"},
                "message": {"type": "string", "description": "What the snapshot is for (create)"},
            }),
            &["action"],
        ),
        def(
            "undo",
            "Revert exactly what one exec run changed in the workspace (its id is in the exec result and in the audit log). Refuses, naming the paths, if anything changed those paths since the run; `force: true` then reverts the rest and leaves those.",
            false,
            json!({
                "run": {"type": "string", "description": "The run id"},
                "force": {"type": "boolean", "description": "Revert what still can be, skipping paths changed since"},
            }),
            &["run"],
        ),
    ]
}

fn tree(spec: &str) -> Result<TreeRef, ToolError> {
    TreeRef::parse(spec).map_err(err)
}

impl Tools {
    pub(crate) fn snapshot(&self, a: args::Snapshot) -> ToolResult {
        let snaps = self.workspace().snapshots();
        let need_name = |what: &str| {
            a.name.clone().ok_or_else(|| {
                ToolError(format!(
                    "snapshot {what} needs `name` (list shows the names)"
                ))
            })
        };
        match a.action.as_str() {
            "create" => {
                let s = snaps.create(a.name.as_deref(), &a.message).map_err(err)?;
                Ok(json!({"created": s.name, "rev": s.rev}))
            }
            "list" => {
                let all = snaps.list().map_err(err)?;
                let list: Vec<Value> = all
                    .iter()
                    .map(|s| json!({"name": s.name, "message": s.message, "rev": s.rev, "createdNs": s.created_ns}))
                    .collect();
                Ok(json!({ "snapshots": list }))
            }
            "restore" => {
                let name = need_name("restore")?;
                snaps.restore(&name).map_err(err)?;
                Ok(json!({ "restored": name }))
            }
            "delete" => {
                let name = need_name("delete")?;
                snaps.remove(&name).map_err(err)?;
                Ok(json!({ "deleted": name }))
            }
            other => Err(ToolError(format!(
                "unknown snapshot action {other:?}: use create, list, restore or delete"
            ))),
        }
    }

    pub(crate) fn diff(&self, a: args::Diff) -> ToolResult {
        let (from, to) = match (&a.run, &a.from) {
            (Some(id), None) if a.to.is_none() => (
                TreeRef::RunBefore(id.clone()),
                TreeRef::RunAfter(id.clone()),
            ),
            (Some(_), _) => {
                return Err(ToolError(
                    "give either `run` or `from`/`to`, not both".into(),
                ));
            }
            (None, Some(from)) => (
                tree(from)?,
                a.to.as_deref().map_or(Ok(TreeRef::Live), tree)?,
            ),
            (None, None) => {
                return Err(ToolError(
                    "diff needs `from` (a snapshot name) or `run` (a run id)".into(),
                ));
            }
        };
        let opts = DiffOptions {
            paths: a.paths,
            no_renames: false,
            patch: !a.name_only,
        };
        let d = self.workspace().diff(&from, &to, &opts).map_err(err)?;
        let files: Vec<Value> = d
            .files
            .iter()
            .map(|f| {
                let mut v = json!({"path": f.path, "status": f.status});
                if let Some(old) = &f.old_path {
                    v["oldPath"] = json!(old);
                }
                v
            })
            .collect();
        let mut out = json!({"from": d.from, "to": d.to, "files": files});
        if !a.name_only {
            out["patch"] = json!(cap_text(&d.patch(), PATCH_CAP));
        }
        Ok(out)
    }

    pub(crate) fn undo(&self, a: args::Undo) -> ToolResult {
        let r = self.workspace().undo_with(&a.run, a.force).map_err(err)?;
        Ok(json!({"run": r.run, "reverted": r.reverted, "conflicts": r.conflicts}))
    }
}
