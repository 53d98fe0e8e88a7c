//! Every tool and its error paths, through the public entry point
//! `Tools::call`, on an in-memory workspace (and, for `exec`, a runtime
//! with the built-in JS guest).

use std::path::PathBuf;
use std::sync::{Arc, OnceLock};

use computer_runtime::{JS_GUEST, Runtime, RuntimeConfig};
use computer_store::{AuditQuery, AuditRecord, NodeKind, Page, Workspace, WriteOptions};
use computer_tools::{Format, ToolOptions, Tools, render};
use serde_json::{Value, json};

// ------------------------------------------------------------- helpers

fn workspace() -> Arc<Workspace> {
    Arc::new(Workspace::in_memory().expect("in-memory workspace"))
}

/// A tool set with no runtime (so no `exec`).
fn fs_tools() -> (Arc<Workspace>, Tools) {
    let ws = workspace();
    let tools = Tools::new(ws.clone(), None, ToolOptions::default());
    (ws, tools)
}

fn readonly_tools() -> (Arc<Workspace>, Tools) {
    let ws = workspace();
    let tools = Tools::new(
        ws.clone(),
        Some(runtime()),
        ToolOptions {
            readonly: true,
            backends: vec![],
        },
    );
    (ws, tools)
}

/// One runtime per test process, with the JS guest as backend `js`.
/// Compiled components are cached under the target directory.
fn runtime() -> Runtime {
    static RT: OnceLock<Runtime> = OnceLock::new();
    RT.get_or_init(|| {
        let js = JS_GUEST.expect(
            "the JS guest is not embedded in computer-runtime: run scripts/build-guests.sh, then rebuild",
        );
        let config = RuntimeConfig {
            cache_dir: Some(PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("component-cache")),
            ..Default::default()
        };
        let rt = Runtime::new(config).expect("runtime");
        rt.register_guest("js", js).expect("registering the JS guest");
        rt
    })
    .clone()
}

fn exec_tools() -> (Arc<Workspace>, Tools) {
    let ws = workspace();
    let tools = Tools::new(ws.clone(), Some(runtime()), ToolOptions::default());
    (ws, tools)
}

/// Calls a tool that must succeed.
fn ok(tools: &Tools, name: &str, args: Value) -> Value {
    let shown = args.to_string();
    let v = tools.call(name, args);
    assert!(
        !Tools::is_error(&v),
        "{name} {shown} failed: {}",
        v["error"]
    );
    v
}

/// Calls a tool that must fail; returns the message.
fn err(tools: &Tools, name: &str, args: Value) -> String {
    let shown = args.to_string();
    let v = tools.call(name, args);
    assert!(Tools::is_error(&v), "{name} {shown} should fail: {v}");
    let obj = v.as_object().expect("an error is an object");
    assert_eq!(obj.len(), 1, "an error holds only `error`: {v}");
    v["error"].as_str().unwrap().to_owned()
}

fn put(ws: &Workspace, path: &str, data: impl AsRef<[u8]>) {
    ws.write(
        path,
        data.as_ref(),
        &WriteOptions {
            create_parents: true,
            ..Default::default()
        },
    )
    .unwrap();
}

fn text(ws: &Workspace, path: &str) -> String {
    String::from_utf8(ws.read(path).unwrap()).unwrap()
}

fn names(v: &Value, list: &str, field: &str) -> Vec<String> {
    v[list]
        .as_array()
        .unwrap_or_else(|| panic!("{list} is not an array: {v}"))
        .iter()
        .map(|e| e[field].as_str().unwrap().to_owned())
        .collect()
}

fn audit(ws: &Workspace, path: &str) -> Vec<AuditRecord> {
    ws.audit()
        .query(&AuditQuery {
            path: Some(path.to_owned()),
            ..Default::default()
        })
        .unwrap()
}

// ------------------------------------------------------------- definitions

#[test]
fn definitions_cover_every_tool_with_object_schemas() {
    let (_ws, tools) = exec_tools();
    let defs = tools.definitions();
    let names: Vec<&str> = defs.iter().map(|d| d.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "read", "ls", "find", "grep", "write", "edit", "delete", "exec"
        ]
    );
    for d in &defs {
        assert_eq!(d.input_schema["type"], "object", "{}", d.name);
        assert_eq!(d.input_schema["additionalProperties"], false, "{}", d.name);
        assert!(d.input_schema["properties"].is_object(), "{}", d.name);
        assert!(!d.description.is_empty());
    }
    let exec = defs.iter().find(|d| d.name == "exec").unwrap();
    assert!(exec.description.contains("`js`"), "{}", exec.description);
    assert!(exec.description.contains("command not found"));
    assert_eq!(
        exec.input_schema["properties"]["backend"]["enum"],
        json!(["js"])
    );
}

#[test]
fn definitions_for_matches_a_real_tool_set() {
    use computer_tools::definitions_for;
    let available = vec!["js".to_owned()];
    for options in [
        ToolOptions::default(),
        ToolOptions {
            readonly: true,
            backends: vec![],
        },
        ToolOptions {
            readonly: false,
            backends: vec!["shell".into(), "js".into()],
        },
        ToolOptions {
            readonly: false,
            backends: vec!["shell".into()],
        },
    ] {
        let real = Tools::new(workspace(), Some(runtime()), options.clone());
        assert_eq!(
            definitions_for(options, available.clone()),
            real.definitions()
        );
    }
    // Backends in the order asked for; the first is the default.
    let defs = definitions_for(
        ToolOptions {
            readonly: false,
            backends: vec!["shell".into(), "js".into()],
        },
        vec!["js".into(), "shell".into()],
    );
    let exec = defs.iter().find(|d| d.name == "exec").unwrap();
    assert_eq!(
        exec.input_schema["properties"]["backend"]["enum"],
        json!(["shell", "js"])
    );
    assert!(exec.description.contains("The default is `shell`"));
}

#[test]
fn render_shapes_per_format() {
    let (_ws, tools) = fs_tools();
    let defs = tools.definitions();
    let openai = render(&defs, Format::OpenAi);
    assert_eq!(openai[0]["type"], "function");
    assert_eq!(openai[0]["function"]["name"], "read");
    assert_eq!(openai[0]["function"]["parameters"]["type"], "object");
    let anthropic = render(&defs, Format::Anthropic);
    assert_eq!(anthropic[0]["name"], "read");
    assert_eq!(anthropic[0]["input_schema"]["type"], "object");
    let mcp = render(&defs, Format::Mcp);
    assert_eq!(mcp[0]["inputSchema"]["type"], "object");
    assert_eq!(mcp[0]["annotations"]["readOnlyHint"], true);
    let delete = mcp
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == "delete")
        .unwrap();
    assert_eq!(delete["annotations"]["readOnlyHint"], false);
    assert_eq!(delete["annotations"]["destructiveHint"], true);
    assert_eq!("mcp".parse::<Format>(), Ok(Format::Mcp));
    assert!("yaml".parse::<Format>().unwrap_err().contains("openai"));
}

#[test]
fn no_runtime_means_no_exec() {
    let (_ws, tools) = fs_tools();
    assert!(!tools.definitions().iter().any(|d| d.name == "exec"));
    let msg = err(&tools, "exec", json!({"command": "1"}));
    assert!(msg.contains("unknown tool \"exec\""), "{msg}");
}

// ------------------------------------------------------------- read

#[test]
fn read_whole_small_file() {
    let (ws, tools) = fs_tools();
    put(&ws, "/a.txt", "one\ntwo\nthree\n");
    let v = ok(&tools, "read", json!({"path": "/a.txt"}));
    assert_eq!(v["content"], "one\ntwo\nthree\n");
    assert_eq!(v["totalLines"], 3);
    assert!(v.get("nextOffset").is_none(), "{v}");
    // No trailing newline: the last line still counts.
    put(&ws, "/b.txt", "x\ny");
    let v = ok(&tools, "read", json!({"path": "/b.txt"}));
    assert_eq!(v["totalLines"], 2);
    assert_eq!(v["content"], "x\ny");
    // Empty file.
    put(&ws, "/empty", "");
    let v = ok(&tools, "read", json!({"path": "/empty"}));
    assert_eq!(v["content"], "");
    assert_eq!(v["totalLines"], 0);
}

#[test]
fn read_pages_by_offset_and_limit() {
    let (ws, tools) = fs_tools();
    let body: String = (1..=10).map(|i| format!("{i}\n")).collect();
    put(&ws, "/n.txt", &body);
    let v = ok(
        &tools,
        "read",
        json!({"path": "/n.txt", "offset": 3, "limit": 4}),
    );
    assert_eq!(v["content"], "3\n4\n5\n6\n");
    assert_eq!(v["totalLines"], 10);
    assert_eq!(v["nextOffset"], 7);
    let v = ok(
        &tools,
        "read",
        json!({"path": "/n.txt", "offset": 7, "limit": 100}),
    );
    assert_eq!(v["content"], "7\n8\n9\n10\n");
    assert!(v.get("nextOffset").is_none(), "{v}");
    let v = ok(&tools, "read", json!({"path": "/n.txt", "limit": 1}));
    assert_eq!(v["content"], "1\n");
    assert_eq!(v["nextOffset"], 2);

    let msg = err(&tools, "read", json!({"path": "/n.txt", "offset": 11}));
    assert!(
        msg.contains("past the end") && msg.contains("10 lines"),
        "{msg}"
    );
}

#[test]
fn read_caps_a_call_at_256_kib() {
    let (ws, tools) = fs_tools();
    let line = format!("{}\n", "a".repeat(999));
    put(&ws, "/big.txt", line.repeat(1000));
    let v = ok(&tools, "read", json!({"path": "/big.txt"}));
    let content = v["content"].as_str().unwrap();
    assert!(content.len() <= 256 * 1024, "{}", content.len());
    assert_eq!(content.len(), 262 * 1000);
    assert_eq!(v["totalLines"], 1000);
    assert_eq!(v["nextOffset"], 263);
    // The next page picks up where the first stopped.
    let v = ok(&tools, "read", json!({"path": "/big.txt", "offset": 263}));
    assert_eq!(v["content"].as_str().unwrap().len(), 262 * 1000);
    assert_eq!(v["nextOffset"], 525);

    // One line longer than the cap: its first 256 KiB, marked.
    put(&ws, "/line.txt", format!("{}\nnext\n", "b".repeat(300_000)));
    let v = ok(&tools, "read", json!({"path": "/line.txt"}));
    let content = v["content"].as_str().unwrap();
    assert!(content.starts_with(&"b".repeat(256 * 1024)));
    assert!(
        content.contains("[line truncated]"),
        "{}",
        &content[content.len() - 40..]
    );
    assert_eq!(v["nextOffset"], 2);
}

#[test]
fn read_binary_answers_kind_and_size() {
    let (ws, tools) = fs_tools();
    put(&ws, "/nul.bin", [b'a', 0, 1, 2, 255]);
    let v = ok(&tools, "read", json!({"path": "/nul.bin"}));
    assert_eq!(v["kind"], "binary");
    assert_eq!(v["size"], 5);
    assert!(v.get("content").is_none(), "{v}");
    // Not UTF-8, even without a NUL.
    put(&ws, "/latin1.txt", [b'c', b'a', b'f', 0xe9]);
    let v = ok(&tools, "read", json!({"path": "/latin1.txt"}));
    assert_eq!(v["kind"], "binary");
    assert_eq!(v["size"], 4);
}

#[test]
fn read_errors_say_what_to_do() {
    let (ws, tools) = fs_tools();
    let msg = err(&tools, "read", json!({"path": "/missing.txt"}));
    assert!(msg.starts_with("ENOENT"), "{msg}");
    assert!(msg.contains("ls or find"), "{msg}");
    ws.mkdir("/dir", &Default::default()).unwrap();
    let msg = err(&tools, "read", json!({"path": "/dir"}));
    assert!(
        msg.contains("is a directory") && msg.contains("ls"),
        "{msg}"
    );
    let msg = err(&tools, "read", json!({}));
    assert!(msg.contains("missing field `path`"), "{msg}");
    let msg = err(&tools, "read", json!({"path": 5}));
    assert!(msg.contains("invalid type"), "{msg}");
    let msg = err(&tools, "read", Value::Null);
    assert!(msg.contains("missing field `path`"), "{msg}");
    let msg = err(&tools, "read", json!(["/a"]));
    assert!(msg.contains("invalid arguments for read"), "{msg}");
}

// ------------------------------------------------------------- write

#[test]
fn write_creates_parents_and_reports_bytes() {
    let (ws, tools) = fs_tools();
    let v = ok(
        &tools,
        "write",
        json!({"path": "/deep/er/f.txt", "content": "héllo\n"}),
    );
    assert_eq!(v["bytesWritten"], 7);
    assert_eq!(text(&ws, "/deep/er/f.txt"), "héllo\n");
    assert_eq!(ws.stat("/deep/er").unwrap().kind, NodeKind::Directory);
    assert_eq!(ws.stat("/deep/er/f.txt").unwrap().mode, 0o644);
    // Overwrite.
    ok(
        &tools,
        "write",
        json!({"path": "/deep/er/f.txt", "content": ""}),
    );
    assert_eq!(text(&ws, "/deep/er/f.txt"), "");
}

#[test]
fn write_keeps_an_existing_mode() {
    let (ws, tools) = fs_tools();
    put(&ws, "/run.sh", "#!/bin/sh\n");
    ws.chmod("/run.sh", 0o755).unwrap();
    ok(
        &tools,
        "write",
        json!({"path": "/run.sh", "content": "#!/bin/sh\necho hi\n"}),
    );
    assert_eq!(ws.stat("/run.sh").unwrap().mode, 0o755);
    assert_eq!(text(&ws, "/run.sh"), "#!/bin/sh\necho hi\n");
}

#[test]
fn write_caps_content_at_2_mib() {
    let (ws, tools) = fs_tools();
    let limit = 2 * 1024 * 1024;
    let v = ok(
        &tools,
        "write",
        json!({"path": "/max.txt", "content": "x".repeat(limit)}),
    );
    assert_eq!(v["bytesWritten"], limit);
    let msg = err(
        &tools,
        "write",
        json!({"path": "/over.txt", "content": "x".repeat(limit + 1)}),
    );
    assert!(
        msg.contains("2097153 bytes") && msg.contains("2097152-byte limit"),
        "{msg}"
    );
    assert!(msg.contains("split the file"), "{msg}");
    assert!(!ws.exists("/over.txt").unwrap());
}

#[test]
fn write_errors() {
    let (ws, tools) = fs_tools();
    ws.mkdir("/d", &Default::default()).unwrap();
    let msg = err(&tools, "write", json!({"path": "/d", "content": "x"}));
    assert!(msg.starts_with("EISDIR"), "{msg}");
    put(&ws, "/file", "x");
    let msg = err(
        &tools,
        "write",
        json!({"path": "/file/child", "content": "x"}),
    );
    assert!(msg.starts_with("ENOTDIR"), "{msg}");
    let msg = err(&tools, "write", json!({"path": "/a"}));
    assert!(msg.contains("missing field `content`"), "{msg}");
    let msg = err(
        &tools,
        "write",
        json!({"path": "/a", "content": "x", "mode": 755}),
    );
    assert!(msg.contains("unknown field `mode`"), "{msg}");
}

// ------------------------------------------------------------- edit

#[test]
fn edit_applies_a_batch_with_a_diff() {
    let (ws, tools) = fs_tools();
    put(&ws, "/f.txt", "one\ntwo\nthree\n");
    let v = ok(
        &tools,
        "edit",
        json!({"path": "/f.txt", "edits": [
            {"oldText": "one", "newText": "1"},
            {"oldText": "three", "newText": "3"},
        ]}),
    );
    assert_eq!(v["editsApplied"], 2);
    let diff = v["diff"].as_str().unwrap();
    assert!(
        diff.contains("-one") && diff.contains("+1") && diff.contains("+3"),
        "{diff}"
    );
    assert_eq!(text(&ws, "/f.txt"), "1\ntwo\n3\n");
}

#[test]
fn edit_accepts_a_single_old_and_new_text() {
    let (ws, tools) = fs_tools();
    put(&ws, "/f.txt", "fn main() {}\n");
    ws.chmod("/f.txt", 0o600).unwrap();
    let v = ok(
        &tools,
        "edit",
        json!({"path": "/f.txt", "oldText": "main", "newText": "start"}),
    );
    assert_eq!(v["editsApplied"], 1);
    assert_eq!(text(&ws, "/f.txt"), "fn start() {}\n");
    assert_eq!(ws.stat("/f.txt").unwrap().mode, 0o600);
}

#[test]
fn edit_ambiguous_and_missing_text_say_what_to_do() {
    let (ws, tools) = fs_tools();
    put(&ws, "/f.txt", "x = 1\nx = 1\n");
    let msg = err(
        &tools,
        "edit",
        json!({"path": "/f.txt", "oldText": "x = 1", "newText": "x = 2"}),
    );
    assert!(
        msg.contains("found 2 occurrences of oldText; add more context"),
        "{msg}"
    );
    let msg = err(
        &tools,
        "edit",
        json!({"path": "/f.txt", "oldText": "y = 1", "newText": "y = 2"}),
    );
    assert!(msg.contains("oldText not found"), "{msg}");
    // A batch is atomic: one bad edit and nothing changes.
    let msg = err(
        &tools,
        "edit",
        json!({"path": "/f.txt", "edits": [
            {"oldText": "x = 1\nx", "newText": "z = 1\nx"},
            {"oldText": "nope", "newText": "yes"},
        ]}),
    );
    assert!(msg.contains("edit 2"), "{msg}");
    assert_eq!(text(&ws, "/f.txt"), "x = 1\nx = 1\n");
}

#[test]
fn edit_keeps_crlf_and_bom() {
    let (ws, tools) = fs_tools();
    put(&ws, "/win.txt", "\u{feff}a\r\nb\r\nc\r\n");
    ok(
        &tools,
        "edit",
        json!({"path": "/win.txt", "oldText": "a\nb", "newText": "x\ny"}),
    );
    assert_eq!(text(&ws, "/win.txt"), "\u{feff}x\r\ny\r\nc\r\n");
}

#[test]
fn edit_argument_errors() {
    let (ws, tools) = fs_tools();
    put(&ws, "/f.txt", "abc\n");
    for args in [
        json!({"path": "/f.txt"}),
        json!({"path": "/f.txt", "edits": []}),
        json!({"path": "/f.txt", "oldText": "a"}),
        json!({"path": "/f.txt", "oldText": "a", "newText": "b", "edits": [{"oldText": "a", "newText": "b"}]}),
    ] {
        let msg = err(&tools, "edit", args);
        assert!(msg.contains("give either edits"), "{msg}");
    }
    let msg = err(
        &tools,
        "edit",
        json!({"path": "/f.txt", "edits": [{"old_text": "a", "newText": "b"}]}),
    );
    assert!(
        msg.contains("unknown field `old_text`") && msg.contains("oldText"),
        "{msg}"
    );
    let msg = err(
        &tools,
        "edit",
        json!({"path": "/nope.txt", "oldText": "a", "newText": "b"}),
    );
    assert!(msg.starts_with("ENOENT"), "{msg}");
    let msg = err(
        &tools,
        "edit",
        json!({"path": "/f.txt", "oldText": "abc", "newText": "abc"}),
    );
    assert!(msg.contains("identical"), "{msg}");
}

// ------------------------------------------------------------- ls

#[test]
fn ls_lists_entries_with_metadata() {
    let (ws, tools) = fs_tools();
    put(&ws, "/d/b.txt", "12345");
    ws.mkdir("/d/a", &Default::default()).unwrap();
    ws.symlink("b.txt", "/d/c").unwrap();
    let v = ok(&tools, "ls", json!({"path": "/d"}));
    assert_eq!(names(&v, "entries", "name"), ["a", "b.txt", "c"]);
    assert_eq!(
        names(&v, "entries", "kind"),
        ["directory", "file", "symlink"]
    );
    assert_eq!(v["entries"][1]["size"], 5);
    assert!(v["entries"][1]["mtime"].as_u64().unwrap() > 1_600_000_000_000);
    assert!(v.get("nextOffset").is_none());
}

#[test]
fn ls_pages_default_200_max_1000() {
    let (ws, tools) = fs_tools();
    ws.mkdir("/many", &Default::default()).unwrap();
    for i in 0..1001 {
        put(&ws, &format!("/many/f{i:04}"), "");
    }
    let v = ok(&tools, "ls", json!({"path": "/many"}));
    assert_eq!(v["entries"].as_array().unwrap().len(), 200);
    assert_eq!(v["nextOffset"], 200);
    let v = ok(
        &tools,
        "ls",
        json!({"path": "/many", "offset": 200, "limit": 3}),
    );
    assert_eq!(names(&v, "entries", "name"), ["f0200", "f0201", "f0202"]);
    assert_eq!(v["nextOffset"], 203);
    let v = ok(&tools, "ls", json!({"path": "/many", "limit": 5000}));
    assert_eq!(v["entries"].as_array().unwrap().len(), 1000);
    assert_eq!(v["nextOffset"], 1000);
    let v = ok(&tools, "ls", json!({"path": "/many", "offset": 1000}));
    assert_eq!(names(&v, "entries", "name"), ["f1000"]);
    assert!(v.get("nextOffset").is_none());
}

#[test]
fn ls_errors() {
    let (ws, tools) = fs_tools();
    put(&ws, "/f", "x");
    assert!(err(&tools, "ls", json!({"path": "/f"})).starts_with("ENOTDIR"));
    assert!(err(&tools, "ls", json!({"path": "/nope"})).starts_with("ENOENT"));
    let msg = err(&tools, "ls", json!({"path": "/", "limit": -1}));
    assert!(msg.contains("invalid value"), "{msg}");
}

// ------------------------------------------------------------- find

#[test]
fn find_globs_and_pages() {
    let (ws, tools) = fs_tools();
    for p in [
        "/src/a.rs",
        "/src/b.rs",
        "/src/x/c.rs",
        "/src/x/d.txt",
        "/README.md",
    ] {
        put(&ws, p, "");
    }
    let v = ok(&tools, "find", json!({"pattern": "**/*.rs"}));
    assert_eq!(
        names(&v, "entries", "path"),
        ["/src/a.rs", "/src/b.rs", "/src/x/c.rs"]
    );
    assert_eq!(v["entries"][0]["kind"], "file");
    let v = ok(&tools, "find", json!({"path": "/src", "pattern": "*.rs"}));
    assert_eq!(names(&v, "entries", "path"), ["/src/a.rs", "/src/b.rs"]);
    let v = ok(
        &tools,
        "find",
        json!({"pattern": "**/*.{rs,txt}", "limit": 2}),
    );
    assert_eq!(names(&v, "entries", "path"), ["/src/a.rs", "/src/b.rs"]);
    assert_eq!(v["nextOffset"], 2);
    let v = ok(
        &tools,
        "find",
        json!({"pattern": "**/*.{rs,txt}", "offset": 2, "limit": 2}),
    );
    assert_eq!(
        names(&v, "entries", "path"),
        ["/src/x/c.rs", "/src/x/d.txt"]
    );
    assert!(v.get("nextOffset").is_none(), "{v}");
    let v = ok(&tools, "find", json!({"pattern": "*.py"}));
    assert_eq!(v["entries"], json!([]));
}

#[test]
fn find_errors() {
    let (_ws, tools) = fs_tools();
    let msg = err(&tools, "find", json!({"path": "/"}));
    assert!(msg.contains("missing field `pattern`"), "{msg}");
    assert!(err(&tools, "find", json!({"path": "/nope", "pattern": "*"})).starts_with("ENOENT"));
    let msg = err(&tools, "find", json!({"pattern": "[unclosed"}));
    assert!(msg.contains("glob"), "{msg}");
}

// ------------------------------------------------------------- grep

fn grep_fixture() -> (Arc<Workspace>, Tools) {
    let (ws, tools) = fs_tools();
    put(
        &ws,
        "/src/main.rs",
        "fn main() {\n    let abc = 1;\n    println!(\"ABC\");\n}\n",
    );
    put(&ws, "/src/lib.rs", "pub fn a_c() {}\n// abc\n");
    put(&ws, "/notes.txt", "abc\nxyz\n");
    put(&ws, "/blob.bin", [b'a', b'b', b'c', 0]);
    (ws, tools)
}

#[test]
fn grep_literal_regex_and_case() {
    let (_ws, tools) = grep_fixture();
    let v = ok(&tools, "grep", json!({"query": "abc"}));
    let hits: Vec<(String, u64)> = v["matches"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            (
                m["path"].as_str().unwrap().to_owned(),
                m["line"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        hits,
        [
            ("/notes.txt".to_owned(), 1),
            ("/src/lib.rs".to_owned(), 2),
            ("/src/main.rs".to_owned(), 2)
        ]
    );
    assert_eq!(v["binaryFilesSkipped"], 1);
    assert_eq!(v["matches"][2]["text"], "    let abc = 1;");
    assert!(v["matches"][0].get("before").is_none());

    // Literal by default: `a.c` is not a pattern.
    let v = ok(&tools, "grep", json!({"query": "a.c"}));
    assert_eq!(v["matches"], json!([]));
    let v = ok(
        &tools,
        "grep",
        json!({"query": "a.c", "regex": true, "path": "/src/lib.rs"}),
    );
    assert_eq!(v["matches"].as_array().unwrap().len(), 2);

    let v = ok(
        &tools,
        "grep",
        json!({"query": "abc", "ignoreCase": true, "path": "/src/main.rs"}),
    );
    assert_eq!(v["matches"].as_array().unwrap().len(), 2);
}

#[test]
fn grep_include_context_and_paging() {
    let (_ws, tools) = grep_fixture();
    let v = ok(&tools, "grep", json!({"query": "abc", "include": "*.rs"}));
    assert_eq!(
        names(&v, "matches", "path"),
        ["/src/lib.rs", "/src/main.rs"]
    );

    let v = ok(&tools, "grep", json!({"query": "let", "context": 1}));
    let m = &v["matches"][0];
    assert_eq!(m["before"], json!(["fn main() {"]));
    assert_eq!(m["after"], json!(["    println!(\"ABC\");"]));

    let v = ok(&tools, "grep", json!({"query": "abc", "limit": 2}));
    assert_eq!(names(&v, "matches", "path"), ["/notes.txt", "/src/lib.rs"]);
    assert_eq!(v["nextOffset"], 2);
    let v = ok(
        &tools,
        "grep",
        json!({"query": "abc", "limit": 2, "offset": 2}),
    );
    assert_eq!(names(&v, "matches", "path"), ["/src/main.rs"]);
    assert!(v.get("nextOffset").is_none(), "{v}");
}

#[test]
fn grep_errors() {
    let (_ws, tools) = grep_fixture();
    let msg = err(&tools, "grep", json!({"query": "(", "regex": true}));
    assert!(msg.starts_with("EINVAL"), "{msg}");
    let msg = err(&tools, "grep", json!({"pattern": "abc"}));
    assert!(
        msg.contains("unknown field `pattern`") && msg.contains("query"),
        "{msg}"
    );
    let msg = err(&tools, "grep", json!({"query": "abc", "ignore_case": true}));
    assert!(
        msg.contains("unknown field `ignore_case`") && msg.contains("ignoreCase"),
        "{msg}"
    );
    assert!(err(&tools, "grep", json!({"query": "a", "path": "/nope"})).starts_with("ENOENT"));
}

// ------------------------------------------------------------- delete

#[test]
fn delete_files_dirs_and_missing_paths() {
    let (ws, tools) = fs_tools();
    put(&ws, "/f.txt", "x");
    let v = ok(&tools, "delete", json!({"path": "/f.txt"}));
    assert_eq!(v["deleted"], true);
    assert!(!ws.exists("/f.txt").unwrap());
    // Forced: a missing path succeeds.
    ok(&tools, "delete", json!({"path": "/f.txt"}));
    ok(&tools, "delete", json!({"path": "/never/was"}));
    // An empty directory needs no flag.
    ws.mkdir("/empty", &Default::default()).unwrap();
    ok(&tools, "delete", json!({"path": "/empty"}));
    assert!(!ws.exists("/empty").unwrap());
}

#[test]
fn delete_non_empty_dir_needs_recursive() {
    let (ws, tools) = fs_tools();
    put(&ws, "/d/sub/f.txt", "x");
    let msg = err(&tools, "delete", json!({"path": "/d"}));
    assert!(msg.contains("non-empty directory"), "{msg}");
    assert!(msg.contains("pass recursive: true"), "{msg}");
    assert!(ws.exists("/d/sub/f.txt").unwrap());
    ok(&tools, "delete", json!({"path": "/d", "recursive": true}));
    assert!(!ws.exists("/d").unwrap());
    let msg = err(&tools, "delete", json!({"path": "/d", "recursive": "yes"}));
    assert!(msg.contains("invalid type"), "{msg}");
}

// ------------------------------------------------------------- exec

#[test]
fn exec_returns_streams_exit_code_and_run_id() {
    let (ws, tools) = exec_tools();
    let v = ok(
        &tools,
        "exec",
        json!({"command": "console.log('out'); console.error('err'); process.exitCode = 3;"}),
    );
    assert_eq!(v["stdout"], "out\n");
    assert_eq!(v["stderr"], "err\n");
    assert_eq!(v["exitCode"], 3);
    assert_eq!(v["backend"], "js");
    assert!(v.get("hint").is_none());
    let id = v["runId"].as_str().unwrap();
    let run = ws.runs().get(id).unwrap().expect("the run is recorded");
    assert_eq!(run.exit_code, Some(3));
    assert_eq!(run.stdout, b"out\n");
}

#[test]
fn exec_value_input_cwd_env_and_workspace_access() {
    let (ws, tools) = exec_tools();
    let v = ok(
        &tools,
        "exec",
        json!({
            "command": "export default (input) => ({ doubled: input.n * 2 });",
            "backend": "js",
            "input": {"n": 21},
        }),
    );
    assert_eq!(v["value"], json!({"doubled": 42}));
    assert_eq!(v["exitCode"], 0);
    assert_eq!(v["status"], "completed");

    ws.mkdir("/work", &Default::default()).unwrap();
    let v = ok(
        &tools,
        "exec",
        json!({
            "command": "import fs from 'node:fs'; fs.writeFileSync('out.txt', process.env.GREETING); console.log(process.cwd());",
            "cwd": "/work",
            "env": {"GREETING": "hello"},
        }),
    );
    assert_eq!(v["stdout"], "/work\n");
    assert_eq!(text(&ws, "/work/out.txt"), "hello");
    // The guest's file operations are audited under the run.
    let id = v["runId"].as_str().unwrap();
    let rows = ws
        .audit()
        .query(&AuditQuery {
            run: Some(id.to_owned()),
            ..Default::default()
        })
        .unwrap();
    assert!(
        rows.iter()
            .any(|r| r.target == "/work/out.txt" && r.outcome == "ok"),
        "{rows:#?}"
    );
    assert!(
        rows.iter().all(|r| r.actor == format!("run:{id}/js")),
        "{rows:#?}"
    );
}

#[test]
fn exec_caps_each_stream_at_64_kib() {
    let (_ws, tools) = exec_tools();
    let v = ok(
        &tools,
        "exec",
        json!({"command": "process.stdout.write('x'.repeat(100000)); process.stderr.write('€'.repeat(30000));"}),
    );
    let stdout = v["stdout"].as_str().unwrap();
    assert_eq!(
        stdout,
        format!(
            "{}\n[truncated, {} more bytes]",
            "x".repeat(65536),
            100000 - 65536
        )
    );
    // 30000 three-byte characters: the cut moves back to a character boundary.
    let stderr = v["stderr"].as_str().unwrap();
    let kept = 65535; // the largest multiple of 3 not above 65536
    assert_eq!(
        stderr,
        format!(
            "{}\n[truncated, {} more bytes]",
            "€".repeat(kept / 3),
            90000 - kept
        )
    );
}

#[test]
fn exec_timeout_exits_124() {
    let (_ws, tools) = exec_tools();
    let started = std::time::Instant::now();
    let v = ok(
        &tools,
        "exec",
        json!({"command": "while (true) {}", "timeoutMs": 300}),
    );
    assert_eq!(v["exitCode"], 124, "{v}");
    assert_eq!(v["status"], "timed_out");
    assert!(started.elapsed() < std::time::Duration::from_secs(30));
}

#[test]
fn exec_exit_127_hints_at_another_backend() {
    let (_ws, tools) = exec_tools();
    let v = ok(&tools, "exec", json!({"command": "process.exit(127)"}));
    assert_eq!(v["exitCode"], 127);
    assert!(
        v["hint"].as_str().unwrap().contains("another backend"),
        "{v}"
    );
}

#[test]
fn exec_errors() {
    let (_ws, tools) = exec_tools();
    let msg = err(&tools, "exec", json!({"command": "1", "backend": "python"}));
    assert!(
        msg.contains("\"python\" is not available") && msg.contains("js"),
        "{msg}"
    );
    let msg = err(&tools, "exec", json!({"command": "1", "timeout": 5}));
    assert!(
        msg.contains("unknown field `timeout`") && msg.contains("timeoutMs"),
        "{msg}"
    );
    let msg = err(&tools, "exec", json!({"backend": "js"}));
    assert!(msg.contains("missing field `command`"), "{msg}");
    let msg = err(
        &tools,
        "exec",
        json!({"command": "1", "cwd": "/no/such/dir"}),
    );
    assert!(msg.contains("/no/such/dir"), "{msg}");
    let msg = err(&tools, "exec", json!({"command": "1", "env": {"A": 1}}));
    assert!(msg.contains("invalid type"), "{msg}");
}

#[test]
fn exec_backends_option_filters_and_orders() {
    let ws = workspace();
    let tools = Tools::new(
        ws,
        Some(runtime()),
        ToolOptions {
            readonly: false,
            backends: vec!["container".into(), "js".into()],
        },
    );
    assert_eq!(tools.backends(), ["js"]);
    // Nothing left: no exec at all.
    let tools = Tools::new(
        workspace(),
        Some(runtime()),
        ToolOptions {
            readonly: false,
            backends: vec!["container".into()],
        },
    );
    assert!(!tools.definitions().iter().any(|d| d.name == "exec"));
    let msg = err(&tools, "exec", json!({"command": "1"}));
    assert!(msg.contains("unknown tool"), "{msg}");
}

// ------------------------------------------------------------- dispatch

#[test]
fn unknown_tool_lists_the_available_ones() {
    let (_ws, tools) = fs_tools();
    let msg = err(&tools, "frobnicate", json!({}));
    assert_eq!(
        msg,
        "unknown tool \"frobnicate\"; available tools: read, ls, find, grep, write, edit, delete"
    );
}

#[test]
fn misspelled_argument_is_named() {
    let (ws, tools) = fs_tools();
    put(&ws, "/a", "x\n");
    let msg = err(&tools, "read", json!({"path": "/a", "ofset": 2}));
    assert!(msg.contains("unknown field `ofset`"), "{msg}");
    assert!(msg.contains("`offset`"), "{msg}");
    assert!(msg.contains("input schema"), "{msg}");
}

#[test]
fn readonly_set_exposes_only_read_tools() {
    let (ws, tools) = readonly_tools();
    let names: Vec<String> = tools.definitions().into_iter().map(|d| d.name).collect();
    assert_eq!(names, ["read", "ls", "find", "grep"]);
    assert!(tools.definitions().iter().all(|d| d.read_only));
    for (name, args) in [
        ("write", json!({"path": "/a", "content": "x"})),
        (
            "edit",
            json!({"path": "/a", "oldText": "x", "newText": "y"}),
        ),
        ("delete", json!({"path": "/a"})),
        ("exec", json!({"command": "1"})),
    ] {
        let msg = err(&tools, name, args);
        assert!(msg.contains("read-only"), "{msg}");
        assert!(
            msg.contains("available tools: read, ls, find, grep"),
            "{msg}"
        );
    }
    assert!(!ws.exists("/a").unwrap());
    put(&ws, "/a", "x\n");
    assert_eq!(ok(&tools, "read", json!({"path": "/a"}))["content"], "x\n");
    ok(&tools, "ls", json!({"path": "/"}));
    ok(&tools, "find", json!({"pattern": "*"}));
    ok(&tools, "grep", json!({"query": "x"}));
}

// ------------------------------------------------------------- recording

#[test]
fn tool_calls_are_recorded() {
    let (ws, tools) = fs_tools();
    ok(
        &tools,
        "write",
        json!({"path": "/a.txt", "content": "hello\n"}),
    );
    err(&tools, "read", json!({"path": "/missing"}));
    err(&tools, "nope", json!({"x": 1}));
    let big = "y".repeat(10_000);
    ok(&tools, "write", json!({"path": "/big.txt", "content": big}));

    let calls = ws.audit().tool_calls(Page::all()).unwrap();
    assert_eq!(calls.len(), 4);
    let names: Vec<&str> = calls.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["write", "read", "nope", "write"]);

    let params: Value = serde_json::from_str(&calls[0].parameters).unwrap();
    assert_eq!(params, json!({"path": "/a.txt", "content": "hello\n"}));
    assert!(calls[0].error.is_none());
    assert!(
        calls[0]
            .result
            .as_deref()
            .unwrap()
            .contains("bytesWritten: 6")
    );
    assert!(calls[0].completed_ns >= calls[0].started_ns);
    assert_eq!(
        calls[0].duration_ns,
        calls[0].completed_ns - calls[0].started_ns
    );

    assert!(calls[1].error.as_deref().unwrap().starts_with("ENOENT"));
    assert!(calls[1].result.is_none());
    assert!(calls[2].error.as_deref().unwrap().contains("unknown tool"));

    // Large payloads are summarized by size and hash.
    let params: Value = serde_json::from_str(&calls[3].parameters).unwrap();
    assert_eq!(params["content"]["size"], 10_000);
    assert!(params["content"]["sha256"].is_string());
}

#[test]
fn tool_operations_are_audited_as_tool() {
    let (ws, tools) = fs_tools();
    ok(
        &tools,
        "write",
        json!({"path": "/a.txt", "content": "hello\n"}),
    );
    ok(&tools, "read", json!({"path": "/a.txt"}));
    err(&tools, "read", json!({"path": "/missing.txt"}));

    let rows = audit(&ws, "/a.txt");
    let ops: Vec<(&str, &str, &str)> = rows
        .iter()
        .map(|r| (r.actor.as_str(), r.operation.as_str(), r.outcome.as_str()))
        .collect();
    assert!(ops.contains(&("tool", "write", "ok")), "{ops:?}");
    assert!(rows.iter().all(|r| r.actor == "tool"), "{rows:#?}");
    let rows = audit(&ws, "/missing.txt");
    assert!(
        rows.iter()
            .any(|r| r.actor == "tool" && r.outcome == "ENOENT"),
        "{rows:#?}"
    );
}

#[test]
fn denied_operations_are_audited_as_denied() {
    let (ws, tools) = fs_tools();
    put(&ws, "/locked/f.txt", "keep\n");
    ws.set_readonly("/locked", true).unwrap();
    for (name, args) in [
        ("write", json!({"path": "/locked/f.txt", "content": "x"})),
        (
            "edit",
            json!({"path": "/locked/f.txt", "oldText": "keep", "newText": "lose"}),
        ),
        ("delete", json!({"path": "/locked/f.txt"})),
        ("write", json!({"path": "/locked/new.txt", "content": "x"})),
    ] {
        let msg = err(&tools, name, args);
        assert!(msg.starts_with("EROFS"), "{name}: {msg}");
        assert!(msg.contains("read-only"), "{name}: {msg}");
    }
    assert_eq!(text(&ws, "/locked/f.txt"), "keep\n");
    let rows = audit(&ws, "/locked/*");
    let denied: Vec<(&str, &str)> = rows
        .iter()
        .filter(|r| r.outcome == "denied")
        .map(|r| (r.operation.as_str(), r.target.as_str()))
        .collect();
    assert!(denied.contains(&("write", "/locked/f.txt")), "{rows:#?}");
    assert!(denied.contains(&("edit", "/locked/f.txt")), "{rows:#?}");
    assert!(denied.contains(&("rm", "/locked/f.txt")), "{rows:#?}");
    assert!(denied.contains(&("write", "/locked/new.txt")), "{rows:#?}");
    assert!(
        rows.iter()
            .filter(|r| r.outcome == "denied")
            .all(|r| r.actor == "tool"),
        "{rows:#?}"
    );
}

#[test]
fn concurrent_edits_of_one_file_all_land() {
    let (ws, tools) = fs_tools();
    let body: String = (0..8).map(|i| format!("line {i}\n")).collect();
    put(&ws, "/shared.txt", &body);
    let tools = Arc::new(tools);
    let handles: Vec<_> = (0..8)
        .map(|i| {
            let tools = tools.clone();
            std::thread::spawn(move || {
                tools.call(
                    "edit",
                    json!({"path": "/shared.txt", "oldText": format!("line {i}\n"), "newText": format!("done {i}\n")}),
                )
            })
        })
        .collect();
    for h in handles {
        let v = h.join().unwrap();
        assert!(!Tools::is_error(&v), "{v}");
    }
    let want: String = (0..8).map(|i| format!("done {i}\n")).collect();
    assert_eq!(text(&ws, "/shared.txt"), want);
}

/// `ws:gate.ask()` waits for an approval.
struct Gate;

impl computer_runtime::HostModule for Gate {
    fn functions(&self) -> Vec<computer_runtime::FunctionInfo> {
        vec![computer_runtime::FunctionInfo {
            name: "ask".into(),
            params: vec![],
            result: None,
            docs: String::new(),
        }]
    }

    fn call(
        &self,
        _: &str,
        _: Value,
        ctx: &mut computer_runtime::CallContext,
    ) -> Result<Value, computer_runtime::ModuleCallError> {
        ctx.interrupt(json!({"deploy": true}))
    }
}

#[test]
fn exec_of_a_run_parked_at_an_approval_says_so() {
    let ws = workspace();
    let rt = runtime();
    rt.modules().register("ws:gate", Arc::new(Gate)).unwrap();
    let tools = Tools::new(ws.clone(), Some(rt), ToolOptions::default());
    let v = ok(
        &tools,
        "exec",
        json!({"command": "import { ask } from 'ws:gate'; ask();", "backend": "js"}),
    );
    assert_eq!(v["status"], "waiting", "{v}");
    assert_eq!(v["exitCode"], 75, "{v}");
    assert!(
        v["hint"].as_str().unwrap().contains("do not run it again"),
        "{v}"
    );
    assert_eq!(ws.interrupts().pending().unwrap().len(), 1);
}
