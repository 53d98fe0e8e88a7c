//! The JS guest's test corpus, `guests/js/tests/cases/`, run through the
//! library API exactly as `guests/js/tests/README.md` describes: one run per
//! `NAME.js` in a fresh in-memory workspace, with `NAME.ws/` copied to
//! `/work`, cwd `/work`, and a fake `ws:github` module registered.
//!
//! Every case runs, and all mismatches are reported in one failure.

use computer_tests::component_cache_dir;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use computer_runtime::{
    ExecOptions, FunctionInfo, HostModule, JS_GUEST, Limits, ModuleCallError, ParamInfo, RunResult,
    Runtime, RuntimeConfig,
};
use computer_store::{MkdirOptions, Workspace};
use computer_tests::workspace_root;
use serde_json::{Value, json};

/// Generous: a case that hangs shows up as a timeout, not a stuck test.
const CASE_TIMEOUT: Duration = Duration::from_secs(30);

/// Cases that fail because of a known bug in the product; `js_corpus` skips
/// them and `js_corpus_known_bugs` (ignored) runs them. Remove an entry
/// once its bug is fixed.
const KNOWN_BUGS: &[(&str, &str)] = &[];

/// The suffixes a case may have besides `.js` (README table).
const SIDE_FILES: &[&str] = &[
    "out", "err", "exit", "value", "input", "stdin", "env", "args", "ws",
];

fn cases_dir() -> PathBuf {
    workspace_root().join("guests/js/tests/cases")
}

fn require_js_guest() {
    assert!(
        JS_GUEST.is_some(),
        "the JS guest is not embedded in computer-runtime: run scripts/build-guests.sh, \
         then rebuild (cargo test rebuilds computer-runtime when the .wasm appears)"
    );
}

// ------------------------------------------------------------ ws:github

/// The fake `ws:github` module of `guests/js/tests/README.md`.
struct FakeGithub;

fn function(name: &str, params: &[(&str, &str)], result: Option<&str>) -> FunctionInfo {
    FunctionInfo {
        name: name.to_owned(),
        params: params
            .iter()
            .map(|(n, t)| ParamInfo {
                name: (*n).to_owned(),
                type_desc: (*t).to_owned(),
            })
            .collect(),
        result: result.map(str::to_owned),
        docs: String::new(),
    }
}

impl HostModule for FakeGithub {
    fn functions(&self) -> Vec<FunctionInfo> {
        // Sorted by name, as the README requires.
        vec![
            function("echo-args", &[("args-json", "string")], Some("string")),
            function("fail-value", &[("issue", "u32")], Some("string")),
            function("list-issues", &[], Some("list<issue>")),
            function(
                "post-comment",
                &[("issue", "u32"), ("body", "string")],
                Some("string"),
            ),
            function("reject-me", &[], Some("string")),
        ]
    }

    fn call(
        &self,
        function: &str,
        args: Value,
        _ctx: &mut computer_runtime::CallContext,
    ) -> Result<Value, ModuleCallError> {
        match function {
            "echo-args" => Ok(args),
            "fail-value" => Err(ModuleCallError::ErrorValue(
                json!({"status": 404, "reason": "no such issue"}),
            )),
            "list-issues" => Ok(json!([
                {"number": 1, "title": "first"},
                {"number": 2, "title": "second"}
            ])),
            "post-comment" => {
                let issue = args.get(0).and_then(Value::as_u64).ok_or_else(|| {
                    ModuleCallError::BadArguments(format!(
                        "post-comment(issue: u32, body: string): bad arguments {args}"
                    ))
                })?;
                if !args.get(1).is_some_and(Value::is_string) {
                    return Err(ModuleCallError::BadArguments(format!(
                        "post-comment(issue: u32, body: string): bad arguments {args}"
                    )));
                }
                Ok(json!(format!(
                    "https://github.example/issues/{issue}#comment-1"
                )))
            }
            "reject-me" => Err(ModuleCallError::Rejected("the reviewer said no".into())),
            other => Err(ModuleCallError::NotFound(format!(
                "ws:github has no function {other}"
            ))),
        }
    }
}

// ------------------------------------------------------------ cases

/// One case, read from its files.
struct Case {
    name: String,
    source: String,
    out: Vec<u8>,
    err: Vec<u8>,
    exit: i32,
    value: Option<Value>,
    input: Option<String>,
    stdin: Vec<u8>,
    env: BTreeMap<String, String>,
    args: Vec<String>,
    ws: Option<PathBuf>,
}

fn read_opt(path: &Path) -> Option<Vec<u8>> {
    match std::fs::read(path) {
        Ok(b) => Some(b),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => panic!("cannot read {}: {e}", path.display()),
    }
}

fn read_text_opt(path: &Path) -> Option<String> {
    read_opt(path)
        .map(|b| String::from_utf8(b).unwrap_or_else(|_| panic!("{} is not UTF-8", path.display())))
}

fn load_case(dir: &Path, name: &str) -> Result<Case, String> {
    let file = |ext: &str| dir.join(format!("{name}.{ext}"));
    let source = read_text_opt(&file("js")).ok_or("no .js")?;
    let exit = match read_text_opt(&file("exit")) {
        None => 0,
        Some(t) => t
            .trim_end()
            .parse()
            .map_err(|e| format!("bad {name}.exit {t:?}: {e}"))?,
    };
    let value = match read_text_opt(&file("value")) {
        None => None,
        Some(t) => Some(serde_json::from_str(&t).map_err(|e| format!("bad {name}.value: {e}"))?),
    };
    let input = read_text_opt(&file("input")).map(|t| t.trim_end().to_owned());
    let mut env = BTreeMap::new();
    for line in read_text_opt(&file("env")).unwrap_or_default().lines() {
        let (k, v) = line
            .split_once('=')
            .ok_or_else(|| format!("bad line in {name}.env: {line:?}"))?;
        env.insert(k.to_owned(), v.to_owned());
    }
    let args = read_text_opt(&file("args"))
        .unwrap_or_default()
        .lines()
        .map(str::to_owned)
        .collect();
    let ws = Some(file("ws")).filter(|p| p.is_dir());
    Ok(Case {
        name: name.to_owned(),
        source,
        out: read_opt(&file("out")).unwrap_or_default(),
        err: read_opt(&file("err")).unwrap_or_default(),
        exit,
        value,
        input,
        stdin: read_opt(&file("stdin")).unwrap_or_default(),
        env,
        args,
        ws,
    })
}

/// Case names, sorted; and every file in the directory that belongs to no
/// case or has an unknown suffix (a typo there would silently skip a check).
fn list_cases(dir: &Path) -> (Vec<String>, Vec<String>) {
    let mut names = Vec::new();
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let entry = entry.expect("reading the cases directory");
        let name = entry.file_name().to_string_lossy().into_owned();
        match name.strip_suffix(".js") {
            Some(stem) if entry.path().is_file() => names.push(stem.to_owned()),
            _ => files.push(name),
        }
    }
    names.sort();
    let mut strays = Vec::new();
    for f in files {
        let ok = f.rsplit_once('.').is_some_and(|(stem, ext)| {
            SIDE_FILES.contains(&ext) && names.iter().any(|n| n == stem)
        });
        if !ok {
            strays.push(f);
        }
    }
    strays.sort();
    (names, strays)
}

fn runtime() -> Runtime {
    require_js_guest();
    let config = RuntimeConfig {
        cache_dir: Some(component_cache_dir()),
        ..Default::default()
    };
    // The built-in guests: `js`, and the shell that `child_process` starts as `sh`.
    let runtime = Runtime::with_builtin_guests(config).expect("creating the runtime");
    runtime
        .modules()
        .register("ws:github", Arc::new(FakeGithub))
        .expect("registering ws:github");
    runtime
}

fn run_case(runtime: &Runtime, case: &Case) -> Result<RunResult, String> {
    let ws = Workspace::in_memory().map_err(|e| format!("workspace: {e}"))?;
    ws.mkdir("/work", &MkdirOptions::default())
        .map_err(|e| format!("mkdir /work: {e}"))?;
    if let Some(dir) = &case.ws {
        ws.import(dir, "/work", &mut |_| {})
            .map_err(|e| format!("importing {}: {e}", dir.display()))?;
    }
    let options = ExecOptions {
        backend: "js".into(),
        cwd: Some("/work".into()),
        env: case.env.clone(),
        program: Some(format!("{}.js", case.name)),
        args: case.args.clone(),
        stdin: case.stdin.clone(),
        input: case.input.clone(),
        limits: Some(Limits {
            timeout: CASE_TIMEOUT,
            ..Limits::default()
        }),
        id: None,
        on_interrupt: None,
        image: None,
        ..Default::default()
    };
    let handle = runtime
        .exec(Arc::new(ws), &case.source, options)
        .map_err(|e| format!("exec refused the run: {e}"))?;
    Ok(handle.wait())
}

fn show(bytes: &[u8]) -> String {
    format!("{:?}", String::from_utf8_lossy(bytes))
}

/// What differs between the expectation and the result; empty when it passes.
fn compare(case: &Case, r: &RunResult) -> Vec<String> {
    let mut diffs = Vec::new();
    if r.stdout != case.out {
        diffs.push(format!(
            "stdout\n      expected: {}\n      actual:   {}",
            show(&case.out),
            show(&r.stdout)
        ));
    }
    if r.stderr != case.err {
        diffs.push(format!(
            "stderr\n      expected: {}\n      actual:   {}",
            show(&case.err),
            show(&r.stderr)
        ));
    }
    if r.exit_code != case.exit {
        diffs.push(format!(
            "exit code: expected {}, got {} (status {:?}, host error {:?})",
            case.exit, r.exit_code, r.status, r.error
        ));
    }
    if r.value != case.value {
        let shown = |v: &Option<Value>| v.as_ref().map_or("none".to_owned(), Value::to_string);
        diffs.push(format!(
            "value: expected {}, got {}",
            shown(&case.value),
            shown(&r.value)
        ));
    }
    diffs
}

/// Runs `names` and returns one message per failing case.
fn run_cases(dir: &Path, names: &[String]) -> Vec<String> {
    let runtime = runtime();
    let mut failures = Vec::new();
    for name in names {
        let case = match load_case(dir, name) {
            Ok(c) => c,
            Err(e) => {
                failures.push(format!("{name}: cannot load: {e}"));
                continue;
            }
        };
        match run_case(&runtime, &case) {
            Err(e) => failures.push(format!("{name}: {e}")),
            Ok(result) => {
                let diffs = compare(&case, &result);
                if !diffs.is_empty() {
                    failures.push(format!("{name}:\n    {}", diffs.join("\n    ")));
                }
            }
        }
    }
    failures
}

#[test]
fn js_corpus() {
    let dir = cases_dir();
    let (names, strays) = list_cases(&dir);
    assert!(
        strays.is_empty(),
        "files in {} that belong to no case or have an unknown suffix \
         (allowed: .js and .{}): {strays:?}",
        dir.display(),
        SIDE_FILES.join(" ."),
    );
    assert!(
        names.len() >= 30, // 39 when written: guards against finding none
        "only {} cases found in {}",
        names.len(),
        dir.display()
    );
    for (name, _) in KNOWN_BUGS {
        assert!(
            names.iter().any(|n| n == name),
            "KNOWN_BUGS names {name}, which is not a case"
        );
    }
    let names: Vec<String> = names
        .into_iter()
        .filter(|n| !KNOWN_BUGS.iter().any(|(k, _)| k == n))
        .collect();
    let failures = run_cases(&dir, &names);
    assert!(
        failures.is_empty(),
        "{} of {} JS cases failed (not counting {} known bugs):\n\n{}",
        failures.len(),
        names.len(),
        KNOWN_BUGS.len(),
        failures.join("\n\n")
    );
}

#[test]
fn js_corpus_known_bugs() {
    let names: Vec<String> = KNOWN_BUGS.iter().map(|(n, _)| (*n).to_owned()).collect();
    let failures = run_cases(&cases_dir(), &names);
    assert!(
        failures.is_empty(),
        "{} known-bug cases still fail:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

/// The runner itself must be able to fail: a wrong expectation is caught.
#[test]
fn runner_reports_a_mismatch() {
    let runtime = runtime();
    let mut case = load_case(&cases_dir(), "hello").expect("the hello case exists");
    let result = run_case(&runtime, &case).expect("hello runs");
    assert_eq!(compare(&case, &result), Vec::<String>::new());
    case.out.extend_from_slice(b"extra\n");
    case.exit = 3;
    case.value = Some(json!(1));
    let diffs = compare(&case, &result);
    assert_eq!(diffs.len(), 3, "{diffs:#?}");
}
