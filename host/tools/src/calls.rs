//! `Tools::call`: dispatch, the tool implementations, and recording.

use std::time::Duration;

use computer_runtime::{EXIT_NOT_FOUND, ExecOptions, LimitNames, Limits};
use computer_store::{
    Errno, FsError, GrepOptions, NodeKind, Page, RmOptions, TextEdit, ToolCall, WriteOptions,
    current_actor, summarize_text, with_actor,
};
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

use crate::Tools;
use crate::args;
use crate::cancel::CallCancel;
use crate::output::{EXEC_STREAM_CAP, MARKER_SLACK, cap_text};

/// Most bytes `read` returns per call.
const READ_CAP: usize = 256 * 1024;
const READ_DEFAULT_LINES: u64 = 2000;
/// Largest `write` content.
const WRITE_CAP: usize = 2 * 1024 * 1024;
const LS_DEFAULT: u64 = 200;
const LS_MAX: u64 = 1000;
const FIND_DEFAULT: u64 = 500;
const GREP_DEFAULT: u64 = 200;
/// Bytes inspected to call a file binary.
const BINARY_SNIFF: usize = 8000;
/// Longest `timeoutMs` (the schema's maximum): an hour.
const MAX_TIMEOUT_MS: u64 = 3_600_000;

/// A tool failure, already phrased for the model.
pub(crate) struct ToolError(pub(crate) String);

impl From<FsError> for ToolError {
    fn from(e: FsError) -> Self {
        let hint = match e.code {
            Errno::ENOENT => " Check the path with ls or find.",
            Errno::EISDIR => " It is a directory: use ls to list it.",
            Errno::ENOTDIR => " A parent in the path is a file, not a directory.",
            Errno::EROFS => " This part of the workspace is read-only.",
            _ => "",
        };
        ToolError(format!("{}: {}{hint}", e.code, e.message))
    }
}

pub(crate) type ToolResult = Result<Value, ToolError>;

pub(crate) fn parse<T: DeserializeOwned>(tool: &str, args: Value) -> Result<T, ToolError> {
    let args = if args.is_null() { json!({}) } else { args };
    serde_json::from_value(args).map_err(|e| {
        ToolError(format!(
            "invalid arguments for {tool}: {e}. See the tool's input schema."
        ))
    })
}

fn now_ns() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos().min(i64::MAX as u128) as i64)
        .unwrap_or(0)
}

/// Parameters for the tool_calls table: long strings summarized.
fn summarize_params(args: &Value) -> String {
    match args {
        Value::Object(map) => {
            let out: serde_json::Map<String, Value> = map
                .iter()
                .map(|(k, v)| match v {
                    Value::String(s) => (k.clone(), summarize_text(s)),
                    other => (k.clone(), other.clone()),
                })
                .collect();
            Value::Object(out).to_string()
        }
        other => other.to_string(),
    }
}

fn summarize_result(v: &Value) -> String {
    let keys: Vec<String> = match v {
        Value::Object(map) => map
            .iter()
            .map(|(k, v)| match v {
                Value::String(s) if s.len() > 80 => format!("{k}: <{} bytes>", s.len()),
                Value::Array(a) => format!("{k}: [{} items]", a.len()),
                other => format!("{k}: {other}"),
            })
            .collect(),
        other => vec![other.to_string()],
    };
    keys.join(", ")
}

impl Tools {
    /// Calls tool `name` with JSON `args`. Never fails: an error comes back
    /// as `{"error": "..."}`.
    pub fn call(&self, name: &str, args: Value) -> Value {
        self.call_cancellable(name, args, &CallCancel::new())
    }

    /// As [`call`](Self::call); `cancel` stops the call's run (`exec`) from
    /// another thread.
    pub fn call_cancellable(&self, name: &str, args: Value, cancel: &CallCancel) -> Value {
        let started = now_ns();
        let params = summarize_params(&args);
        // A call made for an HTTP client (`computer serve`'s remote MCP)
        // keeps whose token it was: `tool:http:NAME`.
        let outer = current_actor();
        let actor = if outer.starts_with("http:") {
            format!("tool:{outer}")
        } else {
            "tool".to_owned()
        };
        let result = with_actor(actor, || self.dispatch(name, args, cancel));
        let completed = now_ns();
        let (value, error) = match result {
            Ok(v) => (v, None),
            Err(ToolError(msg)) => (json!({"error": msg}), Some(msg)),
        };
        let record = ToolCall {
            name: name.to_owned(),
            parameters: params,
            result: error.is_none().then(|| summarize_result(&value)),
            error,
            started_ns: started,
            completed_ns: completed,
        };
        if let Err(e) = self.ws.audit().record_tool_call(&record) {
            tracing::warn!("cannot record tool call {name}: {e}");
        }
        value
    }

    /// True if `value` (from `call`) is an error.
    pub fn is_error(value: &Value) -> bool {
        value.get("error").is_some_and(Value::is_string)
    }

    fn dispatch(&self, name: &str, args: Value, cancel: &CallCancel) -> ToolResult {
        let exposed = self.definitions().iter().any(|d| d.name == name);
        if !exposed {
            let names: Vec<String> = self.definitions().into_iter().map(|d| d.name).collect();
            let why = if self.readonly
                && matches!(
                    name,
                    "write" | "edit" | "delete" | "exec" | "snapshot" | "undo"
                ) {
                " (this tool set is read-only)"
            } else {
                ""
            };
            return Err(ToolError(format!(
                "unknown tool {name:?}{why}; available tools: {}",
                names.join(", ")
            )));
        }
        match name {
            "read" => self.read(parse("read", args)?),
            "write" => self.write(parse("write", args)?),
            "edit" => self.edit(parse("edit", args)?),
            "ls" => self.ls(parse("ls", args)?),
            "find" => self.find(parse("find", args)?),
            "grep" => self.grep(parse("grep", args)?),
            "delete" => self.delete(parse("delete", args)?),
            "exec" => self.exec(parse("exec", args)?, cancel),
            "snapshot" => self.snapshot(parse("snapshot", args)?),
            "diff" => self.diff(parse("diff", args)?),
            "undo" => self.undo(parse("undo", args)?),
            _ => Err(ToolError(format!("unknown tool {name:?}"))),
        }
    }

    fn read(&self, a: args::Read) -> ToolResult {
        let st = self.ws.stat(&a.path)?;
        if st.kind == NodeKind::Directory {
            return Err(ToolError(format!(
                "{} is a directory; use ls to list it",
                a.path
            )));
        }
        let data = self.ws.read(&a.path)?;
        let sniff = &data[..data.len().min(BINARY_SNIFF)];
        let text = match std::str::from_utf8(&data) {
            Ok(t) if !sniff.contains(&0) => t,
            _ => {
                return Ok(json!({
                    "path": a.path, "kind": "binary", "size": data.len(),
                    "note": "binary file: its bytes are not shown",
                }));
            }
        };
        let lines: Vec<&str> = text.split_inclusive('\n').collect();
        let total = lines.len() as u64;
        let offset = a.offset.unwrap_or(1).max(1);
        if offset > total.max(1) {
            return Err(ToolError(format!(
                "offset {offset} is past the end: {} has {total} lines",
                a.path
            )));
        }
        let limit = a.limit.unwrap_or(READ_DEFAULT_LINES).max(1);
        let mut content = String::new();
        let mut next = offset;
        for line in lines
            .iter()
            .skip((offset - 1) as usize)
            .take(limit as usize)
        {
            if content.len() + line.len() > READ_CAP {
                if content.is_empty() {
                    // A single huge line: give its first part.
                    let mut end = READ_CAP;
                    while !line.is_char_boundary(end) {
                        end -= 1;
                    }
                    content.push_str(&line[..end]);
                    content.push_str("\n[line truncated]\n");
                    next += 1;
                }
                break;
            }
            content.push_str(line);
            next += 1;
        }
        let mut out = json!({"path": a.path, "content": content, "totalLines": total});
        if next <= total {
            out["nextOffset"] = json!(next);
        }
        Ok(out)
    }

    fn write(&self, a: args::Write) -> ToolResult {
        if a.content.len() > WRITE_CAP {
            return Err(ToolError(format!(
                "content is {} bytes, over the {WRITE_CAP}-byte limit of write; split the file or generate it with exec",
                a.content.len()
            )));
        }
        let lock = self.locks.get(&a.path);
        let _guard = lock.lock().unwrap_or_else(|p| p.into_inner());
        let opts = WriteOptions {
            create_parents: true,
            ..Default::default()
        };
        self.ws.write(&a.path, a.content.as_bytes(), &opts)?;
        Ok(json!({"path": a.path, "bytesWritten": a.content.len()}))
    }

    fn edit(&self, a: args::Edit) -> ToolResult {
        let edits: Vec<TextEdit> = match (a.edits, a.old_text, a.new_text) {
            (Some(list), None, None) if !list.is_empty() => list
                .into_iter()
                .map(|e| TextEdit {
                    old: e.old_text,
                    new: e.new_text,
                })
                .collect(),
            (None, Some(old), Some(new)) => vec![TextEdit { old, new }],
            _ => {
                return Err(ToolError(
                    "give either edits: [{oldText, newText}, ...] or a single oldText and newText"
                        .into(),
                ));
            }
        };
        let lock = self.locks.get(&a.path);
        let _guard = lock.lock().unwrap_or_else(|p| p.into_inner());
        let r = self.ws.edit(&a.path, &edits).map_err(|e| {
            // An edit mistake's message already says what to do next.
            if e.code == Errno::EINVAL {
                ToolError(e.message)
            } else {
                ToolError::from(e)
            }
        })?;
        Ok(json!({"path": a.path, "diff": r.diff, "editsApplied": r.applied}))
    }

    fn ls(&self, a: args::Ls) -> ToolResult {
        let limit = a.limit.unwrap_or(LS_DEFAULT).clamp(1, LS_MAX);
        let offset = a.offset.unwrap_or(0);
        // One extra entry tells whether another page exists.
        let mut entries = self
            .ws
            .readdir(&a.path, Page::new(offset, Some(limit + 1)))?;
        let more = entries.len() as u64 > limit;
        entries.truncate(limit as usize);
        let list: Vec<Value> = entries
            .iter()
            .map(|e| {
                json!({
                    "name": e.name, "kind": e.kind, "size": e.size,
                    "mtimeMs": e.mtime_ns / 1_000_000,
                })
            })
            .collect();
        let mut out = json!({"path": a.path, "entries": list});
        if more {
            out["nextOffset"] = json!(offset + limit);
        }
        Ok(out)
    }

    fn find(&self, a: args::Find) -> ToolResult {
        let dir = a.path.unwrap_or_else(|| "/".into());
        let limit = a.limit.unwrap_or(FIND_DEFAULT).clamp(1, 5000);
        let page = self.ws.find(
            &dir,
            &a.pattern,
            Page::new(a.offset.unwrap_or(0), Some(limit)),
        )?;
        let list: Vec<Value> = page
            .entries
            .iter()
            .map(|e| json!({"path": e.path, "kind": e.kind}))
            .collect();
        let mut out = json!({"entries": list});
        if let Some(n) = page.next_offset {
            out["nextOffset"] = json!(n);
        }
        Ok(out)
    }

    fn grep(&self, a: args::Grep) -> ToolResult {
        let root = a.path.unwrap_or_else(|| "/".into());
        let opts = GrepOptions {
            regex: a.regex,
            ignore_case: a.ignore_case,
            context: a.context.unwrap_or(0).min(20),
            include: a.include,
            page: Page::new(
                a.offset.unwrap_or(0),
                Some(a.limit.unwrap_or(GREP_DEFAULT).clamp(1, 2000)),
            ),
        };
        let found = self.ws.grep(&root, &a.query, &opts)?;
        let list: Vec<Value> = found
            .matches
            .iter()
            .map(|m| {
                let mut v =
                    json!({"path": m.path, "line": m.line_number, "text": cap_text(&m.line, 2000)});
                if opts.context > 0 {
                    v["before"] = json!(m.before);
                    v["after"] = json!(m.after);
                }
                v
            })
            .collect();
        let mut out = json!({"matches": list});
        if let Some(n) = found.next_offset {
            out["nextOffset"] = json!(n);
        }
        if found.binary_files_skipped > 0 {
            out["binaryFilesSkipped"] = json!(found.binary_files_skipped);
        }
        Ok(out)
    }

    fn delete(&self, a: args::Delete) -> ToolResult {
        let lock = self.locks.get(&a.path);
        let _guard = lock.lock().unwrap_or_else(|p| p.into_inner());
        self.ws.rm(
            &a.path,
            RmOptions {
                recursive: a.recursive,
                force: true,
            },
        )
        .map_err(|e| {
            if e.code == Errno::ENOTEMPTY {
                ToolError(format!(
                    "{} is a non-empty directory; pass recursive: true to delete it and its contents",
                    a.path
                ))
            } else {
                ToolError::from(e)
            }
        })?;
        Ok(json!({"path": a.path, "deleted": true}))
    }

    /// `memoryMb` in bytes, if it is within the server's ceiling.
    fn memory_within_ceiling(&self, mb: u64) -> Result<usize, ToolError> {
        let ceiling = self.max_memory_mb;
        if mb == 0 {
            return Err(ToolError(format!(
                "invalid memoryMb 0: give MiB from 1 to {ceiling}"
            )));
        }
        if mb > ceiling {
            return Err(ToolError(format!(
                "memoryMb {mb} is over this server's ceiling of {ceiling} MiB; ask for {ceiling} or less (the ceiling is the server's: computer mcp --max-memory MIB)"
            )));
        }
        Ok((mb as usize) << 20)
    }

    /// This tool's knobs, named in the limit errors of its runs.
    fn limit_names(&self) -> LimitNames {
        LimitNames {
            memory: format!("memoryMb (at most {} here)", self.max_memory_mb),
            timeout: format!("timeoutMs (at most {MAX_TIMEOUT_MS})"),
            output: "write large output to a file (cmd > /out.txt) and page it with read".into(),
        }
    }

    fn exec(&self, a: args::Exec, cancel: &CallCancel) -> ToolResult {
        let Some(runtime) = &self.runtime else {
            return Err(ToolError("exec is not available: no runtime".into()));
        };
        let backend = a.backend.unwrap_or_else(|| self.backends[0].clone());
        if !self.backends.contains(&backend) {
            return Err(ToolError(format!(
                "backend {backend:?} is not available; use one of: {}",
                self.backends.join(", ")
            )));
        }
        // The backend's own defaults (the shell's memory is larger), as in the CLI.
        let mut limits = runtime
            .default_limits(&backend)
            .unwrap_or_else(|_| Limits::default());
        if let Some(ms) = a.timeout_ms {
            if ms > MAX_TIMEOUT_MS {
                return Err(ToolError(format!(
                    "invalid timeoutMs {ms}: too large: at most {MAX_TIMEOUT_MS} ms (an hour)"
                )));
            }
            if ms < 1 {
                return Err(ToolError(format!(
                    "invalid timeoutMs {ms}: too small: give at least 1 millisecond"
                )));
            }
            limits.timeout = Duration::from_millis(ms);
        }
        if let Some(mb) = a.memory_mb {
            limits.memory_bytes = self.memory_within_ceiling(mb)?;
        }
        // Cut by the run itself, which keeps the whole stream in the
        // workspace and names the file in its marker for `read` to page.
        limits.stdout_bytes = limits.stdout_bytes.min(EXEC_STREAM_CAP);
        limits.stderr_bytes = limits.stderr_bytes.min(EXEC_STREAM_CAP);
        let options = ExecOptions {
            backend: backend.clone(),
            cwd: a.cwd,
            env: a.env,
            input: a.input.map(|v| v.to_string()),
            limits: Some(limits),
            limit_names: self.limit_names(),
            read_only: a.writable == Some(false),
            ..Default::default()
        };
        if cancel.is_cancelled() {
            return Err(ToolError(
                "exec was cancelled before its run started; nothing ran".into(),
            ));
        }
        let handle = runtime
            .exec(self.ws.clone(), &a.command, options)
            .map_err(|e| ToolError(e.to_string()))?;
        cancel.watch(handle.killer());
        let r = handle.wait();
        // The slack keeps the run's own marker and the host's last word,
        // which come after the cut.
        let shown = EXEC_STREAM_CAP + MARKER_SLACK;
        let stdout = cap_text(&String::from_utf8_lossy(&r.stdout), shown);
        let stderr = cap_text(&String::from_utf8_lossy(&r.stderr), shown);
        let mut out = json!({
            "runId": r.run_id, "backend": r.backend, "status": r.status, "exitCode": r.exit_code,
            "stdout": stdout, "stderr": stderr, "value": r.value,
            "durationMs": (r.duration.as_secs_f64() * 1000.0).round() as u64,
        });
        if let Some(sync) = r.sync() {
            out["pushed"] = json!(sync.pushed);
            out["pulled"] = json!(sync.pulled);
            out["skipped"] = json!(sync.skipped_paths);
        }
        // Where a container run ran, and that `auto` moved it there.
        if let Some(container) = r.extras.details.get("container") {
            out["container"] = container.clone();
        }
        if let Some(f) = &r.extras.fallback {
            out["fallback"] = json!({
                "from": f.from, "runId": f.run_id, "exitCode": f.exit_code, "reason": f.reason,
            });
        }
        if r.exit_code == EXIT_NOT_FOUND {
            out["hint"] =
                json!(runtime.not_found_hint(&r, &self.backends, &|b| format!("backend \"{b}\"")));
        }
        if r.status == computer_runtime::RunStatus::Waiting {
            out["hint"] = json!(
                "the run is parked until a human answers an approval (computer://approvals); it resumes by itself when they do: do not run it again"
            );
        }
        Ok(out)
    }
}
