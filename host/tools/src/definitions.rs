//! Tool names, descriptions written for a model, and JSON Schemas.

use serde::Serialize;
use serde_json::{Value, json};

use computer_runtime::BackendInfo;

use crate::{ToolOptions, Tools, choose_backends};

/// One tool as a model sees it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ToolDef {
    /// What the model calls it by (`read`, `exec`, ...), the `name` of
    /// [`Tools::call`].
    pub name: String,
    /// What it does and when to use it, written for the model.
    pub description: String,
    /// JSON Schema (draft 2020-12 subset) of the arguments object.
    pub input_schema: Value,
    /// True for tools that never change the workspace.
    pub read_only: bool,
}

pub(crate) fn def(
    name: &str,
    description: &str,
    read_only: bool,
    properties: Value,
    required: &[&str],
) -> ToolDef {
    ToolDef {
        name: name.to_owned(),
        description: description.to_owned(),
        input_schema: json!({
            "type": "object",
            "properties": properties,
            "required": required,
            "additionalProperties": false,
        }),
        read_only,
    }
}

const PATH: &str = "Absolute path in the workspace, like /src/main.rs";

/// The definitions a tool set with `options` would expose if its runtime
/// had the backends `available`, without building one (compiling guests can
/// take seconds): for printing them, as `computer tools` does.
pub fn definitions_for(options: ToolOptions, available: Vec<BackendInfo>) -> Vec<ToolDef> {
    let ceiling = options
        .max_memory_mb
        .unwrap_or(crate::DEFAULT_MAX_MEMORY_MB);
    let backends = choose_backends(options.backends, available);
    definitions_of(options.readonly, &backends, ceiling)
}

impl Tools {
    /// The tools this set exposes, in a stable order.
    pub fn definitions(&self) -> Vec<ToolDef> {
        definitions_of(self.readonly, &self.infos, self.max_memory_mb)
    }
}

fn definitions_of(readonly: bool, backends: &[BackendInfo], max_memory_mb: u64) -> Vec<ToolDef> {
    let mut defs = read_only_defs();
    defs.push(crate::history::diff_def());
    if !readonly {
        defs.extend(mutating_defs());
        defs.extend(crate::history::mutating_defs());
        if !backends.is_empty() {
            defs.push(exec_def(backends, max_memory_mb));
        }
    }
    defs
}

/// The tools that never change the workspace: read, ls, find, grep.
fn read_only_defs() -> Vec<ToolDef> {
    vec![
        def(
            "read",
            "Read a text file from the workspace, paged by lines. Returns `content` (the lines), `totalLines`, and `nextOffset` when more lines remain: call again with `offset: nextOffset`. Binary files return their kind and size instead of bytes. At most 256 KiB per call.",
            true,
            json!({
                "path": {"type": "string", "description": PATH},
                "offset": {"type": "integer", "minimum": 1, "description": "First line to read, 1-based (default 1)"},
                "limit": {"type": "integer", "minimum": 1, "maximum": 100000, "description": "Number of lines (default 2000)"},
            }),
            &["path"],
        ),
        def(
            "ls",
            "List a directory: entries with name, kind (file, directory, symlink), size and mtimeMs, sorted by name; mtimeMs is milliseconds since the epoch. Returns `nextOffset` when more entries remain.",
            true,
            json!({
                "path": {"type": "string", "description": PATH},
                "limit": {"type": "integer", "minimum": 1, "maximum": 1000, "description": "Entries per page (default 200, at most 1000)"},
                "offset": {"type": "integer", "minimum": 0, "description": "Entries to skip (default 0)"},
            }),
            &["path"],
        ),
        def(
            "find",
            "Find paths by glob under a directory (default /). `*` and `?` match within one path component, `**` across components, plus `[abc]` and `{a,b}`. Example: `**/*.rs`. Results are sorted; `nextOffset` when more remain.",
            true,
            json!({
                "path": {"type": "string", "description": "Directory to search (default /)"},
                "pattern": {"type": "string", "description": "Glob relative to path, e.g. src/**/*.ts"},
                "limit": {"type": "integer", "minimum": 1, "maximum": 5000, "description": "Results per page (default 500)"},
                "offset": {"type": "integer", "minimum": 0},
            }),
            &["pattern"],
        ),
        def(
            "grep",
            "Search file contents under a path (default /). Literal text by default; set `regex: true` for a regular expression. Returns matches with path, 1-based line number and the line, plus context lines if asked. Binary files are skipped. `nextOffset` when more matches remain.",
            true,
            json!({
                "path": {"type": "string", "description": "File or directory to search (default /)"},
                "query": {"type": "string", "description": "Text (or regex) to find"},
                "regex": {"type": "boolean", "description": "Treat query as a regular expression (default false)"},
                "ignoreCase": {"type": "boolean", "description": "Case-insensitive (default false)"},
                "include": {"type": "string", "description": "Only files whose name matches this glob, e.g. *.rs"},
                "context": {"type": "integer", "minimum": 0, "maximum": 20, "description": "Lines of context before and after"},
                "limit": {"type": "integer", "minimum": 1, "maximum": 2000, "description": "Matches per page (default 200)"},
                "offset": {"type": "integer", "minimum": 0},
            }),
            &["query"],
        ),
    ]
}

/// The file tools that change the workspace: write, edit, delete (`exec`
/// is added apart, when a backend is offered).
fn mutating_defs() -> Vec<ToolDef> {
    vec![
        def(
            "write",
            "Create or overwrite a text file. Missing parent directories are created and an existing file keeps its mode. At most 2 MiB. Prefer `edit` for changing part of an existing file.",
            false,
            json!({
                "path": {"type": "string", "description": PATH},
                "content": {"type": "string", "description": "The whole new content"},
            }),
            &["path", "content"],
        ),
        def(
            "edit",
            "Change a file by replacing exact text. Each `oldText` must appear exactly once in the file (add surrounding lines to make it unique) and edits must not overlap; all edits apply together or none do. Whitespace and quote style differences are tolerated as a fallback. Line endings, BOM and mode are kept. Returns a unified diff. Give either `edits` or a single `oldText`/`newText`.",
            false,
            json!({
                "path": {"type": "string", "description": PATH},
                "edits": {
                    "type": "array",
                    "minItems": 1,
                    "items": {
                        "type": "object",
                        "properties": {
                            "oldText": {"type": "string", "description": "Exact text to replace (unique in the file)"},
                            "newText": {"type": "string", "description": "Replacement text"},
                        },
                        "required": ["oldText", "newText"],
                        "additionalProperties": false,
                    },
                },
                "oldText": {"type": "string"},
                "newText": {"type": "string"},
            }),
            &["path"],
        ),
        def(
            "delete",
            "Delete a file, a symlink, or (with `recursive: true`) a directory and everything in it. Deleting a path that does not exist succeeds.",
            false,
            json!({
                "path": {"type": "string", "description": PATH},
                "recursive": {"type": "boolean", "description": "Required to delete a non-empty directory"},
            }),
            &["path"],
        ),
    ]
}

/// `exec`'s definition, generated from what the offered backends say of
/// themselves.
fn exec_def(backends: &[BackendInfo], max_memory_mb: u64) -> ToolDef {
    let mut guide = String::new();
    for b in backends {
        guide.push_str(&format!("- `{}`: {}", b.name, b.description));
        if let computer_runtime::Commands::Listed(names) = &b.commands
            && !names.is_empty()
        {
            guide.push_str(&format!(
                " Programs its scripts run by name: {}.",
                names.join(", ")
            ));
        }
        guide.push('\n');
    }
    let names: Vec<&str> = backends.iter().map(|b| b.name.as_str()).collect();
    let description = format!(
        "Run code against the workspace and return its exit code, stdout, stderr and value. Backends:\n{guide}The default is `{}`. If a command fails with \"command not found\" (exit 127), the result's `hint` names the backend that can run it, if one is offered. stdout and stderr are capped at 64 KiB each.",
        names[0]
    );
    def(
        "exec",
        &description,
        false,
        json!({
            "command": {"type": "string", "description": "The script or program source"},
            "backend": {"type": "string", "enum": names, "description": "Where to run it"},
            "cwd": {"type": "string", "description": "Working directory (default /)"},
            "env": {"type": "object", "additionalProperties": {"type": "string"}, "description": "Environment variables"},
            "input": {"description": "JSON input (js: the argument of the default export; python: the global `input`)"},
            "timeoutMs": {"type": "integer", "minimum": 1, "maximum": 3600000, "description": "Time limit in ms (default 60000)"},
            "memoryMb": {"type": "integer", "minimum": 1, "maximum": max_memory_mb, "description": format!("Memory limit in MiB (default: the backend's; shell 1024, others 256); at most {max_memory_mb} on this server")},
            "writable": {"type": "boolean", "description": "false: a read-only run; every change to the workspace fails with EROFS (default true)"},
        }),
        &["command"],
    )
}
