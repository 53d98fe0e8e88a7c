//! `Runtime::exec` through the public API: results, events, limits, errors,
//! cancellation, concurrency, run records, and the workspace as JS sees it.
//!
//! Nothing here asserts speed. Waits are bounded by a watchdog so a run that
//! never ends fails its test instead of hanging the suite; where a test needs
//! two things to happen in an order, it uses a handshake through workspace
//! files rather than sleeps.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::mpsc;
use std::sync::{Arc, Once};
use std::time::Duration;

use computer_runtime::{
    Event, ExecError, ExecOptions, FunctionInfo, HostModule, JS_GUEST, Limits, ModuleCallError,
    RunHandle, RunResult, RunStatus, Runtime, RuntimeConfig, builtin_guests,
};
use computer_store::{Errno, MkdirOptions, Page, Workspace, WriteOptions};
use serde_json::{Value, json};

/// A run that takes longer than this is stuck; the test fails.
const WATCHDOG: Duration = Duration::from_secs(60);
/// Timeout of runs that are meant to finish by themselves (generous).
const LONG: Duration = Duration::from_secs(30);

// ------------------------------------------------------------------ helpers

fn cache_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("component-cache")
}

fn config() -> RuntimeConfig {
    RuntimeConfig {
        cache_dir: Some(cache_dir()),
        ..Default::default()
    }
}

/// The engine is shared by the whole process and sized by the first
/// runtime's config, so the first runtime here always has the defaults:
/// tests then do not depend on the order they run in.
fn ensure_default_engine() {
    static FIRST: Once = Once::new();
    FIRST.call_once(|| {
        Runtime::new(config()).expect("creating the first runtime");
    });
}

fn runtime_with(config: RuntimeConfig) -> Runtime {
    assert!(
        JS_GUEST.is_some(),
        "the JS guest is not embedded in computer-runtime: run scripts/build-guests.sh"
    );
    ensure_default_engine();
    // Only `js`: other built-in guests are not under test here.
    let rt = Runtime::new(config).expect("creating the runtime");
    rt.register_guest("js", JS_GUEST.expect("checked above"))
        .expect("registering the JS guest");
    rt
}

fn runtime() -> Runtime {
    runtime_with(config())
}

/// A fresh in-memory workspace with an empty `/work`.
fn workspace() -> Arc<Workspace> {
    let ws = Workspace::in_memory().expect("in-memory workspace");
    ws.mkdir("/work", &MkdirOptions::default())
        .expect("mkdir /work");
    Arc::new(ws)
}

fn limits(timeout: Duration) -> Limits {
    Limits {
        timeout,
        ..Limits::default()
    }
}

/// JS options with a generous timeout and cwd `/work`.
fn js() -> ExecOptions {
    ExecOptions {
        backend: "js".into(),
        cwd: Some("/work".into()),
        limits: Some(limits(LONG)),
        ..Default::default()
    }
}

/// Reads every event and waits for the result, under the watchdog.
fn finish(handle: RunHandle) -> (Vec<Event>, RunResult) {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut events = Vec::new();
        while let Some(ev) = handle.next_event() {
            events.push(ev);
        }
        let _ = tx.send((events, handle.wait()));
    });
    rx.recv_timeout(WATCHDOG)
        .unwrap_or_else(|_| panic!("the run did not end within {WATCHDOG:?}"))
}

/// Waits for the result under the watchdog, ignoring events.
fn wait(handle: RunHandle) -> RunResult {
    finish(handle).1
}

fn exec(rt: &Runtime, ws: &Arc<Workspace>, source: &str, options: ExecOptions) -> RunResult {
    let handle = rt
        .exec(ws.clone(), source, options)
        .unwrap_or_else(|e| panic!("exec refused the run: {e}"));
    wait(handle)
}

/// Runs `source` with [`js`] options in a fresh workspace.
fn run_js(source: &str) -> RunResult {
    exec(&runtime(), &workspace(), source, js())
}

fn s(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn describe(r: &RunResult) -> String {
    format!(
        "status {:?}, exit {}, error {:?}\nstdout: {:?}\nstderr: {:?}\nvalue: {:?}",
        r.status,
        r.exit_code,
        r.error,
        s(&r.stdout),
        s(&r.stderr),
        r.value
    )
}

/// The next event, or a failure after the watchdog.
fn next_event(handle: &RunHandle) -> Event {
    handle
        .events()
        .recv_timeout(WATCHDOG)
        .unwrap_or_else(|e| panic!("no event within {WATCHDOG:?}: {e}"))
}

/// Waits for the run's first stdout chunk, which must be `expected`.
fn expect_stdout(handle: &RunHandle, expected: &str) {
    match next_event(handle) {
        Event::Stdout(b) => assert_eq!(s(&b), expected),
        other => panic!("expected stdout {expected:?} first, got {other:?}"),
    }
}

fn write(ws: &Workspace, path: &str, data: &[u8]) {
    ws.write(
        path,
        data,
        &WriteOptions {
            create_parents: true,
            ..Default::default()
        },
    )
    .unwrap_or_else(|e| panic!("writing {path}: {e}"));
}

/// JS that waits (in 5 ms timer steps) until `path` exists.
fn wait_for_file_js(path: &str) -> String {
    format!(
        "await new Promise((resolve) => {{
           const poll = () => fs.existsSync({path:?}) ? resolve() : setTimeout(poll, 5);
           poll();
         }});"
    )
}

/// The built-in backends, sorted (`js`, and others as they are built).
fn builtin_names() -> Vec<String> {
    let mut names: Vec<String> = builtin_guests()
        .iter()
        .map(|(n, _)| (*n).to_owned())
        .collect();
    names.sort();
    names
}

// ------------------------------------------------------------ basic results

#[test]
fn a_run_completes_with_output_value_and_record() {
    let rt = runtime();
    let ws = workspace();
    let r = exec(
        &rt,
        &ws,
        "console.log('hi'); console.error('oops');\n\
         export default (input) => ({ doubled: input.n * 2 });",
        ExecOptions {
            input: Some(r#"{"n": 21}"#.into()),
            ..js()
        },
    );
    assert_eq!(r.status, RunStatus::Completed, "{}", describe(&r));
    assert_eq!(r.exit_code, 0);
    assert_eq!(s(&r.stdout), "hi\n");
    assert_eq!(s(&r.stderr), "oops\n");
    assert_eq!(r.value, Some(json!({"doubled": 42})));
    assert_eq!(r.error, None);
    assert_eq!(r.backend, "js");
    assert!(
        r.run_id.starts_with("run-") && r.run_id.len() > 4,
        "generated id: {}",
        r.run_id
    );
    assert!(r.duration > Duration::ZERO);

    let doc = serde_json::to_value(&r).expect("a RunResult serializes");
    for key in [
        "run_id",
        "status",
        "exit_code",
        "stdout",
        "stderr",
        "value",
        "duration",
    ] {
        assert!(doc.get(key).is_some(), "{key} missing from {doc}");
    }
    assert_eq!(doc["status"], "completed");
    assert_eq!(doc["stdout"], "hi\n");
}

#[test]
fn a_source_without_default_export_has_no_value() {
    let r = run_js("await Promise.resolve(); console.log(6 * 7);");
    assert_eq!(r.status, RunStatus::Completed, "{}", describe(&r));
    assert_eq!(s(&r.stdout), "42\n");
    assert_eq!(r.value, None);
}

#[test]
fn default_cwd_is_root() {
    let r = exec(
        &runtime(),
        &workspace(),
        "console.log(process.cwd())",
        ExecOptions { cwd: None, ..js() },
    );
    assert_eq!(s(&r.stdout), "/\n", "{}", describe(&r));
}

#[test]
fn argv_and_stdin_reach_the_guest() {
    let r = exec(
        &runtime(),
        &workspace(),
        "import fs from 'node:fs';\n\
         console.log(JSON.stringify(process.argv));\n\
         console.log(JSON.stringify(fs.readFileSync(0, 'utf8')));",
        ExecOptions {
            program: Some("main.js".into()),
            args: vec!["a b".into(), "".into(), "c".into()],
            stdin: b"line 1\nline 2\n".to_vec(),
            ..js()
        },
    );
    assert_eq!(
        s(&r.stdout),
        "[\"js\",\"main.js\",\"a b\",\"\",\"c\"]\n\"line 1\\nline 2\\n\"\n",
        "{}",
        describe(&r)
    );
}

#[test]
fn env_holds_only_what_was_passed() {
    let mut env = BTreeMap::new();
    env.insert("GREETING".to_owned(), "hello world".to_owned());
    env.insert("EMPTY".to_owned(), String::new());
    let r = exec(
        &runtime(),
        &workspace(),
        "console.log(JSON.stringify(process.env));\n\
         console.log(process.env.PATH, process.env.HOME, process.env.CARGO_MANIFEST_DIR);",
        ExecOptions { env, ..js() },
    );
    assert!(
        std::env::var_os("PATH").is_some(),
        "the test needs a host PATH"
    );
    assert_eq!(
        s(&r.stdout),
        "{\"EMPTY\":\"\",\"GREETING\":\"hello world\"}\nundefined undefined undefined\n",
        "{}",
        describe(&r)
    );
}

#[test]
fn an_empty_env_is_empty() {
    let r = run_js("console.log(Object.keys(process.env).length)");
    assert_eq!(s(&r.stdout), "0\n", "{}", describe(&r));
}

#[test]
fn invalid_env_names_are_refused() {
    for key in ["", "A=B", "NUL\0"] {
        let mut env = BTreeMap::new();
        env.insert(key.to_owned(), "v".to_owned());
        let err = runtime()
            .exec(workspace(), "1", ExecOptions { env, ..js() })
            .err()
            .unwrap_or_else(|| panic!("env key {key:?} was accepted"));
        assert!(
            matches!(err, ExecError::InvalidOption(_)),
            "{key:?}: {err:?}"
        );
    }
}

#[test]
fn process_exit_sets_the_exit_code() {
    let r = run_js("console.log('before'); process.exit(3); console.log('after');");
    assert_eq!(r.exit_code, 3, "{}", describe(&r));
    assert_eq!(r.status, RunStatus::Failed);
    assert_eq!(s(&r.stdout), "before\n");
    assert_eq!(
        r.error, None,
        "the guest chose to exit; the host did not stop it"
    );
    assert!(!s(&r.stderr).contains("computer:"), "{}", describe(&r));
}

#[test]
fn process_exit_zero_is_completed() {
    let r = run_js("process.exit(0)");
    assert_eq!(r.status, RunStatus::Completed, "{}", describe(&r));
    assert_eq!(r.exit_code, 0);
}

#[test]
fn an_uncaught_error_exits_1_with_the_message_on_stderr() {
    let r = run_js("throw new Error('boom')");
    assert_eq!(r.exit_code, 1, "{}", describe(&r));
    assert_eq!(r.status, RunStatus::Failed);
    assert!(
        s(&r.stderr).starts_with("Error: boom\n"),
        "{}",
        describe(&r)
    );
    assert_eq!(r.error, None);
}

// ------------------------------------------------------------ limits

#[test]
fn an_infinite_loop_times_out_with_124() {
    let rt = runtime();
    let ws = workspace();
    let r = exec(
        &rt,
        &ws,
        "console.log('spinning'); while (true) {}",
        ExecOptions {
            limits: Some(limits(Duration::from_millis(300))),
            ..js()
        },
    );
    assert_eq!(r.status, RunStatus::TimedOut, "{}", describe(&r));
    assert_eq!(r.exit_code, 124);
    assert_eq!(s(&r.stdout), "spinning\n");
    let error = r.error.clone().expect("a timed-out run carries an error");
    assert!(error.contains("timed out"), "{error}");
    assert!(
        s(&r.stderr).ends_with(&format!("computer: {error}\n")),
        "{}",
        describe(&r)
    );
    assert!(
        r.duration >= Duration::from_millis(300),
        "stopped before its timeout: {:?}",
        r.duration
    );
    let rec = ws.runs().get(&r.run_id).unwrap().expect("recorded");
    assert_eq!(rec.status, RunStatus::TimedOut);
    assert_eq!(rec.exit_code, Some(124));
    assert_eq!(rec.error.as_deref(), Some(error.as_str()));
}

#[test]
fn a_pending_timer_times_out_with_124() {
    let r = exec(
        &runtime(),
        &workspace(),
        "setTimeout(() => console.log('fired'), 1e9);",
        ExecOptions {
            limits: Some(limits(Duration::from_millis(300))),
            ..js()
        },
    );
    assert_eq!(r.status, RunStatus::TimedOut, "{}", describe(&r));
    assert_eq!(r.exit_code, 124);
    assert_eq!(s(&r.stdout), "");
}

#[test]
fn a_chain_of_timers_times_out_with_124() {
    // Many timers in a row, each sleeping: the timeout still lands.
    let r = exec(
        &runtime(),
        &workspace(),
        "for (;;) await new Promise((r) => setTimeout(r, 50));",
        ExecOptions {
            limits: Some(limits(Duration::from_millis(300))),
            ..js()
        },
    );
    assert_eq!(r.status, RunStatus::TimedOut, "{}", describe(&r));
    assert_eq!(r.exit_code, 124);
}

#[test]
fn a_memory_bomb_fails_with_memory_limit_exceeded() {
    let rt = runtime();
    let r = exec(
        &rt,
        &workspace(),
        "const keep = [];\n\
         for (let i = 0; ; i++) keep.push('x'.repeat(1 << 20) + i);",
        ExecOptions {
            limits: Some(Limits {
                memory_bytes: 32 << 20,
                ..limits(LONG)
            }),
            ..js()
        },
    );
    assert_eq!(r.status, RunStatus::Failed, "{}", describe(&r));
    assert_eq!(r.exit_code, 1);
    let error = r.error.clone().expect("the host explains the failure");
    assert!(error.contains("memory limit exceeded"), "{error}");
    assert!(
        s(&r.stderr).contains("memory limit exceeded"),
        "{}",
        describe(&r)
    );
    // The runtime is still usable afterwards.
    let again = exec(&rt, &workspace(), "console.log('fine')", js());
    assert_eq!(s(&again.stdout), "fine\n", "{}", describe(&again));
}

#[test]
fn a_single_huge_allocation_fails_with_memory_limit_exceeded() {
    let r = exec(
        &runtime(),
        &workspace(),
        "const b = new Uint8Array(64 << 20); b[b.length - 1] = 1; console.log(b.length);",
        ExecOptions {
            limits: Some(Limits {
                memory_bytes: 32 << 20,
                ..limits(LONG)
            }),
            ..js()
        },
    );
    assert_eq!(r.status, RunStatus::Failed, "{}", describe(&r));
    assert_eq!(r.exit_code, 1);
    assert_eq!(s(&r.stdout), "");
    assert!(
        r.error
            .as_deref()
            .is_some_and(|e| e.contains("memory limit exceeded")),
        "{}",
        describe(&r)
    );
}

#[test]
fn memory_under_the_limit_is_fine() {
    let r = exec(
        &runtime(),
        &workspace(),
        "const b = new Uint8Array(16 << 20); b[b.length - 1] = 7; console.log(b[b.length - 1]);",
        ExecOptions {
            limits: Some(Limits {
                memory_bytes: 64 << 20,
                ..limits(LONG)
            }),
            ..js()
        },
    );
    assert_eq!(r.status, RunStatus::Completed, "{}", describe(&r));
    assert_eq!(s(&r.stdout), "7\n");
}

#[test]
fn a_run_may_raise_the_memory_limit_above_the_runtime_default() {
    // The runtime's default is 256 MiB; this run asks for 512 MiB and uses
    // 300 MiB.
    let r = exec(
        &runtime(),
        &workspace(),
        "const b = new Uint8Array(300 << 20); b[b.length - 1] = 7; console.log(b[b.length - 1]);",
        ExecOptions {
            limits: Some(Limits {
                memory_bytes: 512 << 20,
                ..limits(LONG)
            }),
            ..js()
        },
    );
    assert_eq!(r.status, RunStatus::Completed, "{}", describe(&r));
    assert_eq!(s(&r.stdout), "7\n");
}

const MARKER: &str = "[output truncated:";

#[test]
fn a_finite_output_flood_is_truncated_with_a_marker() {
    let cap = 64 << 10;
    let line = "x".repeat(1023); // 1 KiB with the newline
    let lines = 5 * 1024; // 5 MiB in all
    let rt = runtime();
    let ws = workspace();
    let handle = rt
        .exec(
            ws.clone(),
            &format!("const line = {line:?}; for (let i = 0; i < {lines}; i++) console.log(line);"),
            ExecOptions {
                limits: Some(Limits {
                    stdout_bytes: cap,
                    ..limits(LONG)
                }),
                ..js()
            },
        )
        .expect("exec");
    let (events, r) = finish(handle);
    assert_eq!(r.status, RunStatus::Completed, "{}", describe(&r));
    assert_eq!(r.exit_code, 0);
    let total = lines * 1024;
    let mut expected = format!("{line}\n").repeat(cap / 1024).into_bytes();
    expected.extend_from_slice(
        format!(
            "\n{MARKER} {} more bytes over the {cap}-byte limit]\n",
            total - cap
        )
        .as_bytes(),
    );
    assert_eq!(s(&r.stdout), s(&expected));
    // What was streamed is what was kept.
    let streamed: Vec<u8> = events
        .iter()
        .filter_map(|e| match e {
            Event::Stdout(b) => Some(b.clone()),
            _ => None,
        })
        .flatten()
        .collect();
    assert_eq!(s(&streamed), s(&r.stdout));
    let rec = ws.runs().get(&r.run_id).unwrap().expect("recorded");
    assert_eq!(rec.stdout, r.stdout);
}

#[test]
fn an_endless_output_flood_is_capped_until_the_timeout() {
    let cap = 64 << 10;
    let r = exec(
        &runtime(),
        &workspace(),
        "while (true) console.log('x'.repeat(1000));",
        ExecOptions {
            limits: Some(Limits {
                stdout_bytes: cap,
                ..limits(Duration::from_millis(500))
            }),
            ..js()
        },
    );
    assert_eq!(r.status, RunStatus::TimedOut, "{}", describe(&r.clone()));
    assert_eq!(r.exit_code, 124);
    let out = s(&r.stdout);
    let cut = out
        .find(&format!("\n{MARKER} "))
        .unwrap_or_else(|| panic!("no marker in {} bytes of stdout", out.len()));
    assert_eq!(cut, cap, "kept bytes before the marker");
    assert!(out[..cut].bytes().all(|b| b == b'x' || b == b'\n'));
    assert!(
        out[cut..].ends_with("-byte limit]\n") && out.len() < cap + 100,
        "{:?}",
        &out[cut..]
    );
}

#[test]
fn a_stderr_flood_is_truncated_with_a_marker() {
    let cap = 10_000;
    let r = exec(
        &runtime(),
        &workspace(),
        "for (let i = 0; i < 1000; i++) console.error('e'.repeat(99)); console.log('done');",
        ExecOptions {
            limits: Some(Limits {
                stderr_bytes: cap,
                ..limits(LONG)
            }),
            ..js()
        },
    );
    assert_eq!(r.status, RunStatus::Completed, "{}", describe(&r));
    assert_eq!(s(&r.stdout), "done\n", "stdout has its own cap");
    let mut expected = "e".repeat(99) + "\n";
    expected = expected.repeat(100);
    expected.push_str(&format!(
        "\n{MARKER} 90000 more bytes over the {cap}-byte limit]\n"
    ));
    assert_eq!(s(&r.stderr), expected);
}

#[test]
fn the_host_error_line_survives_a_full_stderr() {
    let r = exec(
        &runtime(),
        &workspace(),
        "while (true) console.error('e'.repeat(100));",
        ExecOptions {
            limits: Some(Limits {
                stderr_bytes: 4096,
                ..limits(Duration::from_millis(300))
            }),
            ..js()
        },
    );
    assert_eq!(r.status, RunStatus::TimedOut, "{}", describe(&r));
    let error = r.error.clone().expect("timed out");
    assert!(
        s(&r.stderr).contains(&format!("computer: {error}")),
        "stderr does not say why the run stopped: {:?}",
        &s(&r.stderr)[4000..]
    );
}

#[test]
fn a_value_over_the_limit_fails_the_run() {
    let r = exec(
        &runtime(),
        &workspace(),
        "export default () => 'v'.repeat(200);",
        ExecOptions {
            limits: Some(Limits {
                value_bytes: 100,
                ..limits(LONG)
            }),
            ..js()
        },
    );
    assert_eq!(r.status, RunStatus::Failed, "{}", describe(&r));
    assert_eq!(r.exit_code, 1);
    assert_eq!(r.value, None);
    let error = r.error.clone().expect("explained");
    assert!(error.contains("100-byte limit"), "{error}");
}

#[test]
fn deep_recursion_fails_cleanly() {
    let rt = runtime();
    let ws = workspace();
    let r = exec(&rt, &ws, "function f() { return f() + 1 } f()", js());
    assert_eq!(r.status, RunStatus::Failed, "{}", describe(&r));
    assert_eq!(r.exit_code, 1);
    // Either the guest reports a RangeError itself, or the host reports the
    // trap; in both cases stderr says what happened.
    let stderr = s(&r.stderr);
    match &r.error {
        Some(e) => {
            assert!(e.contains("stack"), "unclear trap message: {e}");
            assert!(stderr.ends_with(&format!("computer: {e}\n")), "{stderr:?}");
        }
        None => assert!(stderr.contains("stack"), "{stderr:?}"),
    }
    let rec = ws.runs().get(&r.run_id).unwrap().expect("recorded");
    assert_eq!(rec.status, RunStatus::Failed);
    // The runtime survives the trap.
    let again = exec(&rt, &workspace(), "console.log('still here')", js());
    assert_eq!(s(&again.stdout), "still here\n", "{}", describe(&again));
}

// ------------------------------------------------------------ guest errors

#[test]
fn a_syntax_error_exits_1() {
    let r = run_js("let x = ;");
    assert_eq!(r.status, RunStatus::Failed, "{}", describe(&r));
    assert_eq!(r.exit_code, 1);
    assert!(s(&r.stderr).starts_with("SyntaxError"), "{}", describe(&r));
    assert_eq!(s(&r.stdout), "");
    assert_eq!(
        r.error, None,
        "the guest handled it; the host did not stop it"
    );
}

#[test]
fn a_bad_import_exits_1_naming_the_module() {
    let r = run_js("import { x } from 'left-pad';\nconsole.log(x);");
    assert_eq!(r.status, RunStatus::Failed, "{}", describe(&r));
    assert_eq!(r.exit_code, 1);
    let stderr = s(&r.stderr);
    assert!(
        stderr.contains("Cannot find module 'left-pad'"),
        "{stderr:?}"
    );
    assert_eq!(s(&r.stdout), "");
}

#[test]
fn a_missing_relative_import_exits_1() {
    let r = run_js("import './nope.js';");
    assert_eq!(r.exit_code, 1, "{}", describe(&r));
    assert!(
        s(&r.stderr).contains("Cannot find module './nope.js'"),
        "{}",
        describe(&r)
    );
}

// ------------------------------------------------------------ exec errors

#[test]
fn input_that_is_not_json_is_refused() {
    let ws = workspace();
    let err = runtime()
        .exec(
            ws.clone(),
            "export default (x) => x",
            ExecOptions {
                input: Some("{not json".into()),
                ..js()
            },
        )
        .err()
        .expect("invalid input was accepted");
    assert!(matches!(err, ExecError::InvalidInput(_)), "{err:?}");
    assert!(
        err.to_string().starts_with("input is not valid JSON"),
        "{err}"
    );
    assert_eq!(
        ws.runs().list(Page::all()).unwrap(),
        vec![],
        "no run recorded"
    );
}

#[test]
fn source_over_the_limit_is_refused() {
    let source = format!("//{}", "x".repeat(199));
    assert_eq!(source.len(), 201);
    let err = runtime()
        .exec(
            workspace(),
            &source,
            ExecOptions {
                limits: Some(Limits {
                    source_bytes: 200,
                    ..limits(LONG)
                }),
                ..js()
            },
        )
        .err()
        .expect("an oversized source was accepted");
    match err {
        ExecError::TooLarge { what, size, limit } => {
            assert_eq!((what, size, limit), ("source", 201, 200));
        }
        other => panic!("expected TooLarge, got {other:?}"),
    }
    // At the limit is fine.
    let r = exec(
        &runtime(),
        &workspace(),
        &source[..200],
        ExecOptions {
            limits: Some(Limits {
                source_bytes: 200,
                ..limits(LONG)
            }),
            ..js()
        },
    );
    assert_eq!(r.status, RunStatus::Completed, "{}", describe(&r));
}

#[test]
fn source_over_the_default_limit_is_refused() {
    let source = format!("//{}", "x".repeat(1 << 20));
    let err = runtime()
        .exec(workspace(), &source, js())
        .err()
        .expect("a source over 1 MiB was accepted");
    assert!(
        matches!(err, ExecError::TooLarge { what: "source", .. }),
        "{err:?}"
    );
}

#[test]
fn input_over_the_limit_is_refused() {
    let err = runtime()
        .exec(
            workspace(),
            "export default (x) => x",
            ExecOptions {
                input: Some(format!("\"{}\"", "i".repeat(100))),
                limits: Some(Limits {
                    input_bytes: 50,
                    ..limits(LONG)
                }),
                ..js()
            },
        )
        .err()
        .expect("an oversized input was accepted");
    assert!(
        matches!(
            err,
            ExecError::TooLarge {
                what: "input",
                size: 102,
                limit: 50
            }
        ),
        "{err:?}"
    );
}

#[test]
fn an_unknown_backend_lists_the_available_ones() {
    let rt = runtime();
    let ws = workspace();
    let err = rt
        .exec(
            ws.clone(),
            "print(1)",
            ExecOptions {
                backend: "python".into(),
                ..js()
            },
        )
        .err()
        .expect("an unknown backend was accepted");
    match &err {
        ExecError::UnknownBackend { name, available } => {
            assert_eq!(name, "python");
            assert_eq!(available, &vec!["js".to_owned()]);
        }
        other => panic!("expected UnknownBackend, got {other:?}"),
    }
    assert_eq!(err.to_string(), "unknown backend \"python\"; available: js");
    assert_eq!(ws.runs().list(Page::all()).unwrap(), vec![]);
}

#[test]
fn a_zero_timeout_or_memory_limit_is_refused() {
    for l in [
        Limits {
            timeout: Duration::ZERO,
            ..Limits::default()
        },
        Limits {
            memory_bytes: 0,
            ..Limits::default()
        },
    ] {
        let err = runtime()
            .exec(
                workspace(),
                "1",
                ExecOptions {
                    limits: Some(l.clone()),
                    ..js()
                },
            )
            .err()
            .unwrap_or_else(|| panic!("{l:?} was accepted"));
        assert!(matches!(err, ExecError::InvalidOption(_)), "{err:?}");
    }
}

#[test]
fn a_cwd_that_does_not_exist_is_refused() {
    let ws = workspace();
    let err = runtime()
        .exec(
            ws.clone(),
            "1",
            ExecOptions {
                cwd: Some("/nope".into()),
                ..js()
            },
        )
        .err()
        .expect("a missing cwd was accepted");
    match &err {
        ExecError::Workspace(e) => {
            assert_eq!(e.code, Errno::ENOENT);
            assert!(e.message.contains("/nope"), "{e}");
        }
        other => panic!("expected ENOENT, got {other:?}"),
    }
    assert_eq!(ws.runs().list(Page::all()).unwrap(), vec![]);
}

#[test]
fn a_cwd_that_is_a_file_is_refused() {
    let ws = workspace();
    write(&ws, "/work/file.txt", b"not a dir");
    let err = runtime()
        .exec(
            ws.clone(),
            "1",
            ExecOptions {
                cwd: Some("/work/file.txt".into()),
                ..js()
            },
        )
        .err()
        .expect("a file cwd was accepted");
    let msg = err.to_string();
    assert!(
        msg.contains("/work/file.txt") && msg.contains("not a directory"),
        "{err:?}"
    );
    assert_eq!(ws.runs().list(Page::all()).unwrap(), vec![]);
}

#[test]
fn a_relative_cwd_is_refused() {
    let err = runtime()
        .exec(
            workspace(),
            "1",
            ExecOptions {
                cwd: Some("work".into()),
                ..js()
            },
        )
        .err()
        .expect("a relative cwd was accepted");
    assert!(
        matches!(&err, ExecError::Workspace(e) if e.code == Errno::EINVAL),
        "{err:?}"
    );
}

#[test]
fn a_cwd_through_a_symlink_works() {
    let ws = workspace();
    ws.mkdir("/work/real", &MkdirOptions::default()).unwrap();
    ws.symlink("/work/real", "/work/link").unwrap();
    write(&ws, "/work/real/x", b"");
    let r = exec(
        &runtime(),
        &ws,
        "import fs from 'node:fs'; console.log(fs.existsSync('x') ? 'seen' : 'missing')",
        ExecOptions {
            cwd: Some("/work/link".into()),
            ..js()
        },
    );
    assert_eq!(s(&r.stdout), "seen\n", "{}", describe(&r));
}

// ------------------------------------------------------------ events

#[test]
fn events_stream_output_then_exactly_one_exit_last() {
    let rt = runtime();
    let handle = rt
        .exec(
            workspace(),
            "console.log('one'); console.error('two'); console.log('three');\n\
             export default () => [1, 'x'];",
            js(),
        )
        .expect("exec");
    let (events, r) = finish(handle);
    let exits: Vec<&Event> = events
        .iter()
        .filter(|e| matches!(e, Event::Exit { .. }))
        .collect();
    assert_eq!(exits.len(), 1, "{events:?}");
    assert_eq!(
        events.last(),
        Some(&Event::Exit {
            code: 0,
            value: Some(json!([1, "x"]))
        }),
        "{events:?}"
    );
    let mut out = Vec::new();
    let mut err = Vec::new();
    for e in &events {
        match e {
            Event::Stdout(b) => out.extend_from_slice(b),
            Event::Stderr(b) => err.extend_from_slice(b),
            Event::Exit { .. } => {}
        }
    }
    assert_eq!(s(&out), "one\nthree\n");
    assert_eq!(s(&err), "two\n");
    assert_eq!(out, r.stdout);
    assert_eq!(err, r.stderr);
    // The order across streams is the order of the writes.
    let order: Vec<String> = events
        .iter()
        .filter_map(|e| match e {
            Event::Stdout(b) => Some(format!("out:{}", s(b))),
            Event::Stderr(b) => Some(format!("err:{}", s(b))),
            Event::Exit { .. } => None,
        })
        .collect();
    assert_eq!(order, ["out:one\n", "err:two\n", "out:three\n"]);
}

#[test]
fn the_exit_event_of_a_failed_run_carries_its_code() {
    let handle = runtime()
        .exec(
            workspace(),
            "while (true) {}",
            ExecOptions {
                limits: Some(limits(Duration::from_millis(200))),
                ..js()
            },
        )
        .expect("exec");
    let (events, r) = finish(handle);
    assert_eq!(
        events.last(),
        Some(&Event::Exit {
            code: 124,
            value: None
        })
    );
    // The host's explanation is streamed too.
    let err: Vec<u8> = events
        .iter()
        .filter_map(|e| match e {
            Event::Stderr(b) => Some(b.clone()),
            _ => None,
        })
        .flatten()
        .collect();
    assert_eq!(err, r.stderr);
    assert!(s(&err).starts_with("computer: timed out"), "{}", s(&err));
}

#[test]
fn output_is_streamed_while_the_run_goes_on() {
    // The run prints, then waits for a file that the test only creates
    // after it has received that output: if output were delivered at the
    // end, the run would never finish (and time out).
    let ws = workspace();
    let handle = runtime()
        .exec(
            ws.clone(),
            &format!(
                "import fs from 'node:fs';\n\
                 console.log('first');\n\
                 {}\n\
                 console.log('second');",
                wait_for_file_js("/work/go")
            ),
            ExecOptions {
                limits: Some(limits(Duration::from_secs(20))),
                ..js()
            },
        )
        .expect("exec");
    expect_stdout(&handle, "first\n");
    write(&ws, "/work/go", b"");
    let (events, r) = finish(handle);
    assert_eq!(r.status, RunStatus::Completed, "{}", describe(&r));
    assert_eq!(
        events,
        vec![
            Event::Stdout(b"second\n".to_vec()),
            Event::Exit {
                code: 0,
                value: None
            }
        ]
    );
    assert_eq!(s(&r.stdout), "first\nsecond\n");
}

#[test]
fn output_before_a_timer_arrives_before_the_run_ends() {
    let handle = runtime()
        .exec(
            workspace(),
            "console.log('before');\n\
             await new Promise((r) => setTimeout(r, 1000));\n\
             console.log('after');",
            js(),
        )
        .expect("exec");
    expect_stdout(&handle, "before\n");
    // At this point the guest is (at the latest) sleeping in its timer: the
    // second line and the exit have not been produced yet.
    assert!(
        handle.events().try_recv().is_err(),
        "the rest arrived together with the first line"
    );
    let (events, _) = finish(handle);
    assert_eq!(events[0], Event::Stdout(b"after\n".to_vec()));
}

// ------------------------------------------------------------ kill

#[test]
fn kill_cancels_a_running_run() {
    let rt = runtime();
    let ws = workspace();
    let handle = rt
        .exec(
            ws.clone(),
            "console.log('started'); while (true) {}",
            ExecOptions {
                id: Some("to-kill".into()),
                ..js()
            },
        )
        .expect("exec");
    assert_eq!(handle.run_id(), "to-kill");
    expect_stdout(&handle, "started\n");
    assert!(rt.kill("to-kill"), "kill found no running run");
    let r = wait(handle);
    assert_eq!(r.status, RunStatus::Cancelled, "{}", describe(&r));
    assert_eq!(r.exit_code, 130);
    assert_eq!(s(&r.stdout), "started\n");
    let rec = ws.runs().get("to-kill").unwrap().expect("recorded");
    assert_eq!(rec.status, RunStatus::Cancelled);
    assert_eq!(rec.exit_code, Some(130));
    assert!(!rt.kill("to-kill"), "a finished run cannot be killed");
    assert!(!rt.kill("no-such-run"));
}

#[test]
fn kill_cancels_a_run_sleeping_in_a_timer() {
    let rt = runtime();
    let handle = rt
        .exec(
            workspace(),
            "console.log('waiting'); setTimeout(() => {}, 1e9);",
            js(),
        )
        .expect("exec");
    expect_stdout(&handle, "waiting\n");
    assert!(rt.kill(handle.run_id()));
    let r = wait(handle);
    assert_eq!(r.status, RunStatus::Cancelled, "{}", describe(&r));
    assert_eq!(r.exit_code, 130);
}

#[test]
fn kill_reaches_only_its_own_run() {
    let rt = runtime();
    let ws = workspace();
    let victim = rt
        .exec(
            ws.clone(),
            "console.log('v'); while (true) {}",
            ExecOptions {
                id: Some("victim".into()),
                ..js()
            },
        )
        .expect("exec victim");
    let bystander = rt
        .exec(
            ws.clone(),
            &format!(
                "import fs from 'node:fs'; console.log('b'); {} console.log('b done');",
                wait_for_file_js("/work/release")
            ),
            ExecOptions {
                id: Some("bystander".into()),
                ..js()
            },
        )
        .expect("exec bystander");
    expect_stdout(&victim, "v\n");
    expect_stdout(&bystander, "b\n");
    assert!(rt.kill("victim"));
    assert_eq!(wait(victim).status, RunStatus::Cancelled);
    write(&ws, "/work/release", b"");
    let r = wait(bystander);
    assert_eq!(r.status, RunStatus::Completed, "{}", describe(&r));
    assert_eq!(s(&r.stdout), "b\nb done\n");
}

// ------------------------------------------------------------ concurrency

#[test]
fn runs_over_the_concurrency_limit_are_refused() {
    let rt = runtime_with(RuntimeConfig {
        max_concurrent_runs: 2,
        ..config()
    });
    let ws = workspace();
    let spin = "console.log('up'); while (true) {}";
    let a = rt.exec(ws.clone(), spin, js()).expect("first run");
    let b = rt.exec(ws.clone(), spin, js()).expect("second run");
    expect_stdout(&a, "up\n");
    expect_stdout(&b, "up\n");
    let err = rt
        .exec(ws.clone(), "console.log(1)", js())
        .err()
        .expect("a third concurrent run was accepted");
    assert!(
        matches!(err, ExecError::TooManyRuns { limit: 2 }),
        "{err:?}"
    );
    assert!(err.to_string().contains("limit is 2"), "{err}");
    let recorded = ws.runs().list(Page::all()).unwrap().len();
    assert_eq!(recorded, 2, "the refused run must not be recorded");

    assert!(rt.kill(a.run_id()));
    assert!(rt.kill(b.run_id()));
    assert_eq!(wait(a).status, RunStatus::Cancelled);
    assert_eq!(wait(b).status, RunStatus::Cancelled);
    // The slots are free again.
    let r = exec(&rt, &ws, "console.log('again')", js());
    assert_eq!(s(&r.stdout), "again\n", "{}", describe(&r));
    let r = exec(&rt, &ws, "console.log('and again')", js());
    assert_eq!(s(&r.stdout), "and again\n", "{}", describe(&r));
}

#[test]
fn runs_proceed_concurrently() {
    // Each run waits for a file the other one writes: this finishes only if
    // both run at the same time.
    let rt = runtime();
    let ws = workspace();
    let script = |mine: &str, theirs: &str| {
        format!(
            "import fs from 'node:fs';\n\
             fs.writeFileSync({mine:?}, 'x');\n\
             {}\n\
             console.log('met');",
            wait_for_file_js(theirs)
        )
    };
    let a = rt
        .exec(ws.clone(), &script("/work/a", "/work/b"), js())
        .expect("a");
    let b = rt
        .exec(ws.clone(), &script("/work/b", "/work/a"), js())
        .expect("b");
    for r in [wait(a), wait(b)] {
        assert_eq!(r.status, RunStatus::Completed, "{}", describe(&r));
        assert_eq!(s(&r.stdout), "met\n");
    }
}

#[test]
fn many_short_runs_in_parallel_all_complete() {
    let rt = runtime();
    let handles: Vec<(usize, RunHandle)> = (0..16)
        .map(|i| {
            let h = rt
                .exec(workspace(), &format!("export default () => {i} * 2;"), js())
                .expect("exec");
            (i, h)
        })
        .collect();
    for (i, h) in handles {
        let r = wait(h);
        assert_eq!(r.value, Some(json!(i * 2)), "{}", describe(&r));
    }
}

// ------------------------------------------------------------ run records

#[test]
fn runs_are_recorded_in_the_workspace() {
    let rt = runtime();
    let ws = workspace();
    let first = exec(
        &rt,
        &ws,
        "console.log('out'); console.error('err'); export default () => ({ok: true});",
        ExecOptions {
            input: Some("null".into()),
            ..js()
        },
    );
    let second = exec(&rt, &ws, "process.exit(5)", js());

    let rec = ws.runs().get(&first.run_id).unwrap().expect("recorded");
    assert_eq!(rec.id, first.run_id);
    assert_eq!(rec.backend, "js");
    assert_eq!(rec.status, RunStatus::Completed);
    assert_eq!(rec.exit_code, Some(0));
    assert_eq!(
        rec.source,
        "console.log('out'); console.error('err'); export default () => ({ok: true});"
    );
    assert_eq!(s(&rec.stdout), "out\n");
    assert_eq!(s(&rec.stderr), "err\n");
    let value: Value = serde_json::from_str(rec.value.as_deref().expect("value recorded"))
        .expect("the recorded value is JSON");
    assert_eq!(value, json!({"ok": true}));
    assert_eq!(rec.error, None);
    let ended = rec.ended_ns.expect("end time recorded");
    assert!(rec.started_ns > 0 && ended >= rec.started_ns, "{rec:?}");
    let options: Value = serde_json::from_str(&rec.options).expect("options are JSON");
    assert_eq!(options["cwd"], "/work", "{options}");

    let rec2 = ws.runs().get(&second.run_id).unwrap().expect("recorded");
    assert_eq!(rec2.status, RunStatus::Failed);
    assert_eq!(rec2.exit_code, Some(5));

    let listed: Vec<String> = ws
        .runs()
        .list(Page::all())
        .unwrap()
        .into_iter()
        .map(|r| r.id)
        .collect();
    assert_eq!(listed, vec![second.run_id.clone(), first.run_id.clone()]);
    assert_eq!(ws.runs().get("run-nonexistent").unwrap(), None);
}

#[test]
fn a_run_is_recorded_as_running_while_it_runs() {
    let rt = runtime();
    let ws = workspace();
    let handle = rt
        .exec(
            ws.clone(),
            "console.log('up'); while (true) {}",
            ExecOptions {
                id: Some("live".into()),
                ..js()
            },
        )
        .expect("exec");
    expect_stdout(&handle, "up\n");
    let rec = ws.runs().get("live").unwrap().expect("recorded at start");
    assert_eq!(rec.status, RunStatus::Running);
    assert_eq!(rec.exit_code, None);
    assert_eq!(rec.ended_ns, None);
    rt.kill("live");
    wait(handle);
    assert_eq!(
        ws.runs().get("live").unwrap().unwrap().status,
        RunStatus::Cancelled
    );
}

#[test]
fn a_caller_chosen_id_is_used_and_cannot_be_reused() {
    let rt = runtime();
    let ws = workspace();
    let r = exec(
        &rt,
        &ws,
        "console.log('x')",
        ExecOptions {
            id: Some("job:42.a_b-c".into()),
            ..js()
        },
    );
    assert_eq!(r.run_id, "job:42.a_b-c");
    assert!(ws.runs().get("job:42.a_b-c").unwrap().is_some());

    let err = rt
        .exec(
            ws.clone(),
            "console.log('y')",
            ExecOptions {
                id: Some("job:42.a_b-c".into()),
                ..js()
            },
        )
        .err()
        .expect("a reused id was accepted");
    match &err {
        ExecError::Workspace(e) => assert_eq!(e.code, Errno::EEXIST, "{e}"),
        other => panic!("expected EEXIST, got {other:?}"),
    }
    assert!(err.to_string().contains("job:42.a_b-c"), "{err}");
    // The first record is untouched.
    let rec = ws.runs().get("job:42.a_b-c").unwrap().unwrap();
    assert_eq!(s(&rec.stdout), "x\n");
    assert_eq!(ws.runs().list(Page::all()).unwrap().len(), 1);

    // The same id in another workspace is fine: unique per workspace.
    let other = exec(
        &rt,
        &workspace(),
        "1",
        ExecOptions {
            id: Some("job:42.a_b-c".into()),
            ..js()
        },
    );
    assert_eq!(other.status, RunStatus::Completed);
}

#[test]
fn an_id_in_use_by_a_running_run_is_refused() {
    let rt = runtime();
    let ws = workspace();
    let handle = rt
        .exec(
            ws.clone(),
            "console.log('up'); while (true) {}",
            ExecOptions {
                id: Some("busy".into()),
                ..js()
            },
        )
        .expect("exec");
    expect_stdout(&handle, "up\n");
    let err = rt
        .exec(
            ws.clone(),
            "1",
            ExecOptions {
                id: Some("busy".into()),
                ..js()
            },
        )
        .err()
        .expect("a running id was reused");
    assert!(err.to_string().contains("busy"), "{err}");
    // The refusals did not cancel or disturb the running run.
    assert!(rt.kill("busy"));
    let r = wait(handle);
    assert_eq!(r.status, RunStatus::Cancelled);
}

#[test]
fn an_invalid_id_is_refused() {
    for id in ["", "has space", "slash/y", &"x".repeat(129)] {
        let ws = workspace();
        let err = runtime()
            .exec(
                ws.clone(),
                "1",
                ExecOptions {
                    id: Some(id.to_owned()),
                    ..js()
                },
            )
            .err()
            .unwrap_or_else(|| panic!("id {id:?} was accepted"));
        assert!(
            matches!(&err, ExecError::Workspace(e) if e.code == Errno::EINVAL),
            "{id:?}: {err:?}"
        );
        assert_eq!(ws.runs().list(Page::all()).unwrap(), vec![]);
    }
}

// ------------------------------------------------------------ the workspace

#[test]
fn js_and_the_workspace_see_the_same_files() {
    let rt = runtime();
    let ws = workspace();
    write(&ws, "/work/in/data.txt", b"from the host\n");
    let r = exec(
        &rt,
        &ws,
        "import fs from 'node:fs';\n\
         import { readFile } from 'node:fs/promises';\n\
         console.log(JSON.stringify(fs.readFileSync('in/data.txt', 'utf8')));\n\
         console.log(JSON.stringify(await readFile('/work/in/data.txt', 'utf8')));\n\
         fs.mkdirSync('/work/out/deep', { recursive: true });\n\
         fs.writeFileSync('out/deep/result.txt', 'from JS\\n');\n\
         fs.appendFileSync('out/deep/result.txt', 'more\\n');\n\
         fs.writeFileSync('/bytes.bin', new Uint8Array([0, 1, 255]));\n\
         fs.rmSync('in', { recursive: true });",
        js(),
    );
    assert_eq!(r.status, RunStatus::Completed, "{}", describe(&r));
    assert_eq!(s(&r.stdout), "\"from the host\\n\"\n\"from the host\\n\"\n");
    assert_eq!(
        ws.read("/work/out/deep/result.txt").unwrap(),
        b"from JS\nmore\n"
    );
    assert_eq!(ws.read("/bytes.bin").unwrap(), [0, 1, 255]);
    assert!(!ws.exists("/work/in").unwrap(), "JS removed /work/in");

    // A second run sees the first one's files.
    let r = exec(
        &rt,
        &ws,
        "import fs from 'node:fs';\n\
         console.log(fs.readdirSync('/work').join(','));\n\
         console.log(fs.readFileSync('/bytes.bin').length);",
        js(),
    );
    assert_eq!(s(&r.stdout), "out\n3\n", "{}", describe(&r));
}

#[test]
fn the_guest_sees_no_host_files() {
    // The host has /etc and its temp dir; the (empty) workspace has neither.
    assert!(std::path::Path::new("/etc").is_dir());
    let r = run_js(
        "import fs from 'node:fs';\n\
         console.log(fs.existsSync('/etc'), fs.existsSync('/tmp'), fs.readdirSync('/').join(','));",
    );
    assert_eq!(s(&r.stdout), "false false work\n", "{}", describe(&r));
}

#[test]
fn fs_errors_in_js_are_node_style() {
    let r = run_js(
        "import fs from 'node:fs';\n\
         try { fs.readFileSync('/work/missing.txt'); }\n\
         catch (e) { console.log(e.code, e.path, e instanceof Error); }\n\
         try { fs.mkdirSync('/work'); }\n\
         catch (e) { console.log(e.code); }",
    );
    assert_eq!(
        s(&r.stdout),
        "ENOENT /work/missing.txt true\nEEXIST\n",
        "{}",
        describe(&r)
    );
}

#[test]
fn a_module_in_the_workspace_can_be_imported() {
    let ws = workspace();
    write(
        &ws,
        "/work/lib/math.js",
        b"export const add = (a, b) => a + b;\n",
    );
    let r = exec(
        &runtime(),
        &ws,
        "import { add } from './lib/math.js';\n\
         import { add as add2 } from '/work/lib/math.js';\n\
         console.log(add(2, 3), add2(1, 1));",
        js(),
    );
    assert_eq!(s(&r.stdout), "5 2\n", "{}", describe(&r));
}

// ------------------------------------------------------------ guests

#[test]
fn the_builtin_guests_are_registered() {
    let rt = Runtime::with_builtin_guests(config()).unwrap();
    assert_eq!(rt.backends(), builtin_names());
    assert!(builtin_names().contains(&"js".to_owned()));
    assert!(Runtime::new(config()).unwrap().backends().is_empty());
}

#[test]
fn a_component_registered_under_another_name_runs_as_that_backend() {
    let rt = Runtime::new(config()).unwrap();
    rt.register_guest("my-js", JS_GUEST.expect("JS guest"))
        .expect("registering");
    assert_eq!(rt.backends(), vec!["my-js".to_owned()]);
    let r = exec(
        &rt,
        &workspace(),
        "console.log(process.argv[1])",
        ExecOptions {
            backend: "my-js".into(),
            ..js()
        },
    );
    assert_eq!(r.backend, "my-js");
    assert_eq!(s(&r.stdout), "my-js\n", "{}", describe(&r));
    let err = rt.exec(workspace(), "1", js()).err().expect("js is absent");
    assert!(
        matches!(&err, ExecError::UnknownBackend { available, .. } if available == &["my-js".to_owned()]),
        "{err:?}"
    );
}

#[test]
fn bad_guests_are_refused_clearly() {
    let rt = Runtime::new(config()).unwrap();
    let err = rt
        .register_guest("junk", b"not wasm at all")
        .expect_err("junk accepted");
    assert!(matches!(err, ExecError::BadGuest { .. }), "{err:?}");
    // A valid core module, but not a component of the runner world.
    let err = rt
        .register_guest("core", b"\0asm\x01\0\0\0")
        .expect_err("a core module accepted");
    assert!(matches!(err, ExecError::BadGuest { .. }), "{err:?}");
    let err = rt
        .register_guest("bad name!", JS_GUEST.expect("JS guest"))
        .expect_err("a bad name accepted");
    assert!(matches!(err, ExecError::BadGuest { .. }), "{err:?}");
    let missing = std::path::Path::new("/definitely/not/here.wasm");
    let err = rt
        .register_guest_file("file", missing)
        .expect_err("a missing file accepted");
    let msg = err.to_string();
    assert!(
        msg.contains("cannot read") && msg.contains("/definitely/not/here.wasm"),
        "{msg}"
    );
    assert!(rt.backends().is_empty());
}

#[test]
fn a_bad_component_error_names_the_backend_in_one_line() {
    let rt = Runtime::new(config()).unwrap();
    let err = rt
        .register_guest("junk", b"not wasm at all")
        .expect_err("junk accepted");
    match &err {
        ExecError::BadGuest { name, reason } => {
            assert_eq!(name, "junk");
            assert!(!reason.contains('\n'), "{reason:?}");
        }
        other => panic!("expected BadGuest, got {other:?}"),
    }
}

// ------------------------------------------------------------ ws: modules

struct Echo;

impl HostModule for Echo {
    fn functions(&self) -> Vec<FunctionInfo> {
        vec![FunctionInfo {
            name: "echo-args".into(),
            params: vec![],
            result: None,
            docs: String::new(),
        }]
    }

    fn call(
        &self,
        _function: &str,
        args: Value,
        _ctx: &mut computer_runtime::CallContext,
    ) -> Result<Value, ModuleCallError> {
        Ok(args)
    }
}

#[test]
fn a_host_module_is_callable_from_js() {
    let rt = runtime();
    rt.modules().register("ws:echo", Arc::new(Echo)).unwrap();
    assert_eq!(rt.modules().names(), vec!["ws:echo".to_owned()]);
    let r = exec(
        &rt,
        &workspace(),
        "import { echoArgs } from 'ws:echo';\n\
         console.log(JSON.stringify(echoArgs(1, 'two', [3])));",
        js(),
    );
    assert_eq!(s(&r.stdout), "[1,\"two\",[3]]\n", "{}", describe(&r));
    assert!(rt.modules().register("github", Arc::new(Echo)).is_err());
}

#[test]
fn a_host_module_keeps_object_key_order() {
    let rt = runtime();
    rt.modules().register("ws:echo", Arc::new(Echo)).unwrap();
    let r = exec(
        &rt,
        &workspace(),
        "import { echoArgs } from 'ws:echo';\n\
         console.log(JSON.stringify(echoArgs({ zebra: 1, apple: 2 })));",
        js(),
    );
    assert_eq!(
        s(&r.stdout),
        "[{\"zebra\":1,\"apple\":2}]\n",
        "{}",
        describe(&r)
    );
}

struct Greeter;

impl computer_runtime::HostModule for Greeter {
    fn functions(&self) -> Vec<computer_runtime::FunctionInfo> {
        vec![computer_runtime::FunctionInfo {
            name: "greet".into(),
            params: vec![],
            result: Some("string".into()),
            docs: String::new(),
        }]
    }

    fn call(
        &self,
        _function: &str,
        args: serde_json::Value,
        _ctx: &mut computer_runtime::CallContext,
    ) -> Result<serde_json::Value, computer_runtime::ModuleCallError> {
        Ok(serde_json::json!(format!(
            "hello {}",
            args[0].as_str().unwrap_or("?")
        )))
    }
}

#[test]
fn module_calls_and_execs_are_audited_with_secrets_redacted() {
    let rt = runtime();
    rt.modules()
        .register("ws:greeter", Arc::new(Greeter))
        .unwrap();
    let ws = workspace();
    let mut options = js();
    options.env.insert("GITHUB_TOKEN".into(), "s3cret".into());
    options.env.insert("COLOR".into(), "blue".into());
    let r = exec(
        &rt,
        &ws,
        "import { greet } from 'ws:greeter'; console.log(greet('ann'))",
        options,
    );
    assert_eq!(s(&r.stdout), "hello ann\n", "{}", describe(&r));
    let log = ws
        .audit()
        .query(&computer_store::AuditQuery::default())
        .unwrap();
    let call = log
        .iter()
        .find(|e| e.operation == "module_call")
        .expect("module call audited");
    assert_eq!(call.target, "ws:greeter.greet");
    assert_eq!(call.outcome, "ok");
    assert!(
        call.actor.starts_with(&format!("run:{}/", r.run_id)),
        "{}",
        call.actor
    );
    let exec_row = log
        .iter()
        .find(|e| e.operation == "exec")
        .expect("exec audited");
    let args = exec_row.args.as_deref().unwrap();
    assert!(
        args.contains("[redacted]") && !args.contains("s3cret"),
        "{args}"
    );
    assert!(args.contains("blue"), "{args}");
}
