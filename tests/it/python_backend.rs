//! The `python` backend and `python3`'s `subprocess`, through the library
//! API (`computer-builtins` on a runtime): the run's input and JSON value,
//! `ws:` modules with approvals, rejections and replays that see the same
//! time and randomness, limits, and commands started from Python.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use computer_runtime::{
    Answer, CallContext, ExecOptions, FunctionInfo, HostModule, Limits, ModuleCallError, ParamInfo,
    RunResult, RunStatus, Runtime, RuntimeConfig,
};
use computer_store::{MkdirOptions, Workspace, WriteOptions};
use computer_tests::component_cache_dir;
use serde_json::{Value, json};

const BACKEND: &str = "python";

fn runtime() -> Runtime {
    let rt = Runtime::with_builtin_guests(RuntimeConfig {
        cache_dir: Some(component_cache_dir()),
        ..RuntimeConfig::default()
    })
    .expect("runtime");
    computer_builtins::register(&rt).expect("built-ins");
    rt
}

fn workspace() -> (tempfile::TempDir, Arc<Workspace>) {
    let dir = tempfile::tempdir().unwrap();
    let ws = Workspace::open(dir.path().join("ws.db")).unwrap();
    ws.mkdir("/work", &MkdirOptions::default()).unwrap();
    (dir, Arc::new(ws))
}

fn options(backend: &str) -> ExecOptions {
    ExecOptions {
        backend: backend.into(),
        cwd: Some("/work".into()),
        ..Default::default()
    }
}

fn exec_with(rt: &Runtime, ws: &Arc<Workspace>, source: &str, options: ExecOptions) -> RunResult {
    rt.exec(ws.clone(), source, options).expect("exec").wait()
}

fn exec(rt: &Runtime, ws: &Arc<Workspace>, source: &str) -> RunResult {
    exec_with(rt, ws, source, options(BACKEND))
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

/// `ws:gate`: `ask(what)` waits for an approval and returns the answer;
/// `add(a, b, scale?)` adds; `fail()` returns an `err` value.
#[derive(Default)]
struct Gate {
    asks: AtomicUsize,
    call_ids: Mutex<Vec<String>>,
}

impl HostModule for Gate {
    fn functions(&self) -> Vec<FunctionInfo> {
        let param = |name: &str, ty: &str| ParamInfo {
            name: name.into(),
            type_desc: ty.into(),
        };
        vec![
            FunctionInfo {
                name: "ask".into(),
                params: vec![param("what", "string")],
                result: Some("string".into()),
                docs: "Waits for an approval.".into(),
            },
            FunctionInfo {
                name: "add-numbers".into(),
                params: vec![
                    param("a", "s64"),
                    param("b", "s64"),
                    param("scale", "option<s64>"),
                ],
                result: Some("s64".into()),
                docs: String::new(),
            },
            FunctionInfo {
                name: "fail".into(),
                params: vec![],
                result: Some("result<_, string>".into()),
                docs: String::new(),
            },
        ]
    }

    fn call(
        &self,
        function: &str,
        args: Value,
        ctx: &mut CallContext,
    ) -> Result<Value, ModuleCallError> {
        self.call_ids.lock().unwrap().push(ctx.call_id().to_owned());
        match function {
            "ask" => {
                self.asks.fetch_add(1, Ordering::SeqCst);
                let answer = ctx.interrupt(json!({"what": args[0]}))?;
                Ok(json!({"answer": answer}))
            }
            "add-numbers" => {
                let scale = args.get(2).and_then(Value::as_i64).unwrap_or(1);
                Ok(json!(
                    (args[0].as_i64().unwrap_or(0) + args[1].as_i64().unwrap_or(0)) * scale
                ))
            }
            _ => Err(ModuleCallError::ErrorValue(json!("no such thing"))),
        }
    }
}

fn with_gate() -> (tempfile::TempDir, Arc<Workspace>, Runtime, Arc<Gate>) {
    let (dir, ws) = workspace();
    let rt = runtime();
    let gate = Arc::new(Gate::default());
    rt.modules().register("ws:gate", gate.clone()).unwrap();
    (dir, ws, rt, gate)
}

#[test]
fn input_comes_in_and_the_last_expression_goes_out_as_json() {
    let (_d, ws) = workspace();
    let rt = runtime();
    let r = exec_with(
        &rt,
        &ws,
        "import sys\nprint('n is', input['n'], sys.argv)\n{'double': input['n'] * 2, 'items': [1, 'two', None]}\n",
        ExecOptions {
            input: Some(r#"{"n": 21}"#.into()),
            ..options(BACKEND)
        },
    );
    assert_eq!(r.status, RunStatus::Completed, "{}", describe(&r));
    assert_eq!(s(&r.stdout), "n is 21 ['python']\n");
    assert_eq!(
        r.value,
        Some(json!({"double": 42, "items": [1, "two", null]}))
    );

    // No trailing expression (or None): no value; without input, `input`
    // is the builtin that reads stdin.
    let r = exec_with(
        &rt,
        &ws,
        "x = 1\nprint(input('> '))",
        ExecOptions {
            stdin: b"typed\n".to_vec(),
            ..options(BACKEND)
        },
    );
    assert_eq!(r.status, RunStatus::Completed, "{}", describe(&r));
    assert_eq!(s(&r.stdout), "> typed\n");
    assert_eq!(r.value, None);

    // A value that is not JSON is an error that says so.
    let r = exec(&rt, &ws, "{1, 2}");
    assert_eq!(r.exit_code, 1, "{}", describe(&r));
    assert!(s(&r.stderr).contains("not JSON"), "{}", describe(&r));
    assert_eq!(r.value, None);
}

#[test]
fn exit_codes_tracebacks_and_workspace_files() {
    let (_d, ws) = workspace();
    let rt = runtime();
    ws.write(
        "/work/helper.py",
        b"def greet(who):\n    return f'hi {who}'\n",
        &WriteOptions::default(),
    )
    .unwrap();
    let r = exec(
        &rt,
        &ws,
        "from helper import greet\nimport pathlib\npathlib.Path('out.txt').write_text(greet('ws'))\nprint(open('/work/out.txt').read())",
    );
    assert_eq!(r.status, RunStatus::Completed, "{}", describe(&r));
    assert_eq!(s(&r.stdout), "hi ws\n");
    assert_eq!(ws.read("/work/out.txt").unwrap(), b"hi ws");

    let r = exec(&rt, &ws, "import sys\nprint('bye')\nsys.exit(3)");
    assert_eq!(
        (r.exit_code, s(&r.stdout)),
        (3, "bye\n".into()),
        "{}",
        describe(&r)
    );

    let r = exec(&rt, &ws, "def f():\n    return 1 / 0\nf()");
    assert_eq!(r.exit_code, 1, "{}", describe(&r));
    let err = s(&r.stderr);
    assert!(
        err.contains("line 2, in f") && err.ends_with("ZeroDivisionError: division by zero\n"),
        "{err}"
    );
    assert!(
        !err.contains("source_run"),
        "the runner's frames show: {err}"
    );
}

#[test]
fn ws_modules_import_and_call_with_json() {
    let (_d, ws, rt, _gate) = with_gate();
    let r = exec(
        &rt,
        &ws,
        r#"
import ws
from ws.gate import add_numbers, fail
print(add_numbers(2, 3), add_numbers(2, b=3, scale=10), add_numbers.__name__)
try:
    fail()
except ws.ModuleError as e:
    print(e.code, e.module, e.function, e.value)
try:
    add_numbers(1)
except TypeError as e:
    print("TypeError", e)
try:
    import ws.nosuch
except ModuleNotFoundError as e:
    print("missing:", e)
"#,
    );
    assert_eq!(r.status, RunStatus::Completed, "{}", describe(&r));
    assert_eq!(
        s(&r.stdout),
        "5 50 add_numbers\nerror-value ws:gate fail no such thing\n\
         TypeError ws.gate.add_numbers() missing required argument 'b'\n\
         missing: no module named 'ws:nosuch' (registered: ws:gate)\n"
    );
}

const APPROVAL: &str = r#"
import random, time
from ws.gate import ask
with open("log", "a") as f:
    f.write("before\n")
print("asking", flush=True)
seen = (time.time(), random.random(), time.monotonic())
r = ask("deploy")
with open("log", "a") as f:
    f.write(f"after {r}\n")
print("answered", r, seen == (time.time(), 0, 0) or seen)
open("log").read()
"#;

#[test]
fn an_approval_parks_the_run_and_the_replay_repeats_nothing() {
    let (_d, ws, rt, gate) = with_gate();
    let r = exec(&rt, &ws, APPROVAL);
    assert_eq!(r.status, RunStatus::Waiting, "{}", describe(&r));
    assert_eq!(s(&r.stdout), "asking\n");
    let pending = ws.interrupts().pending().unwrap();
    assert_eq!(pending.len(), 1, "{pending:?}");
    let p = &pending[0];
    assert_eq!((p.module.as_str(), p.function.as_str()), ("gate", "ask"));
    assert_eq!(p.payload, r#"{"what":"deploy"}"#);

    std::thread::sleep(Duration::from_millis(20));
    let r2 = rt
        .respond(
            ws.clone(),
            &p.run_id,
            &p.call_id,
            Answer::Approved(json!("yes")),
        )
        .expect("respond")
        .expect("the run resumes")
        .wait();
    assert_eq!(r2.status, RunStatus::Completed, "{}", describe(&r2));
    let out = s(&r2.stdout);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    assert_eq!(lines[0], "asking");
    assert!(
        lines[1].starts_with("answered {'answer': 'yes'} ("),
        "{out}"
    );
    // The file was appended to once before the approval, once after.
    let log = s(&ws.read("/work/log").unwrap());
    assert_eq!(log, "before\nafter {'answer': 'yes'}\n");
    assert_eq!(r2.value, Some(json!(log)));
    assert_eq!(gate.asks.load(Ordering::SeqCst), 2);
    let ids = gate.call_ids.lock().unwrap().clone();
    assert_eq!(ids.len(), 2);
    assert_eq!(ids[0], ids[1], "the replayed call keeps its call_id");
}

#[test]
fn a_replay_sees_the_same_time_and_random_numbers() {
    let (_d, ws, rt, _gate) = with_gate();
    let src = "import random, time, os, uuid\nfrom ws.gate import ask\n\
               seen = repr((time.time(), random.random(), os.urandom(4), uuid.uuid4()))\n\
               print('first', seen, flush=True)\nask('x')\nprint('again', seen)\n";
    let r = exec(&rt, &ws, src);
    assert_eq!(r.status, RunStatus::Waiting, "{}", describe(&r));
    let p = ws.interrupts().pending().unwrap().remove(0);
    std::thread::sleep(Duration::from_millis(20));
    let r2 = rt
        .respond(
            ws.clone(),
            &p.run_id,
            &p.call_id,
            Answer::Approved(json!(1)),
        )
        .unwrap()
        .unwrap()
        .wait();
    assert_eq!(r2.status, RunStatus::Completed, "{}", describe(&r2));
    let out = s(&r2.stdout);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    assert_eq!(
        lines[0].strip_prefix("first "),
        lines[1].strip_prefix("again ")
    );
    // And two separate runs draw different numbers (the snapshot's seed is
    // not reused).
    let a = exec(&rt, &ws, "import random\nrandom.random()");
    let b = exec(&rt, &ws, "import random\nrandom.random()");
    assert_ne!(a.value, b.value, "{} / {}", describe(&a), describe(&b));
}

#[test]
fn a_rejection_is_a_module_error() {
    let (_d, ws, rt, _gate) = with_gate();
    let src = "import ws\nfrom ws.gate import ask\ntry:\n    ask('rm -rf')\nexcept ws.ModuleError as e:\n    print('rejected:', e.code, e)\n";
    let r = exec(&rt, &ws, src);
    assert_eq!(r.status, RunStatus::Waiting, "{}", describe(&r));
    let p = ws.interrupts().pending().unwrap().remove(0);
    let r2 = rt
        .respond(
            ws.clone(),
            &p.run_id,
            &p.call_id,
            Answer::Rejected {
                reason: "too risky".into(),
                value: None,
            },
        )
        .unwrap()
        .unwrap()
        .wait();
    assert_eq!(r2.status, RunStatus::Completed, "{}", describe(&r2));
    assert!(
        s(&r2.stdout).starts_with("rejected: rejected ") && s(&r2.stdout).contains("too risky"),
        "{}",
        describe(&r2)
    );
}

#[test]
fn runaway_programs_end_cleanly() {
    let (_d, ws) = workspace();
    let rt = runtime();
    let limited = |timeout: u64| ExecOptions {
        limits: Some(Limits {
            timeout: Duration::from_secs(timeout),
            memory_bytes: 128 << 20,
            stdout_bytes: 1 << 20,
            ..Limits::default()
        }),
        ..options(BACKEND)
    };
    let r = exec_with(&rt, &ws, "while True:\n    pass", limited(2));
    assert_eq!(r.exit_code, 124, "{}", describe(&r));
    assert_eq!(r.status, RunStatus::TimedOut, "{}", describe(&r));

    let r = exec_with(
        &rt,
        &ws,
        "hog = []\nwhile True:\n    hog.append(bytearray(1 << 20))",
        limited(30),
    );
    assert_ne!(r.exit_code, 0, "{}", describe(&r));
    assert_eq!(r.status, RunStatus::Failed, "{}", describe(&r));

    let r = exec_with(&rt, &ws, "while True:\n    print('x' * 1000)", limited(5));
    assert!(r.stdout.len() <= (1 << 20) + 4096, "{}", r.stdout.len());
    assert_ne!(r.status, RunStatus::Completed, "{}", describe(&r));

    // The workspace is still usable after all that.
    let r = exec(&rt, &ws, "6 * 7");
    assert_eq!(r.value, Some(json!(42)), "{}", describe(&r));
}

#[test]
fn subprocess_runs_workspace_commands_and_the_shell() {
    let (_d, ws) = workspace();
    let rt = runtime();
    ws.write("/work/data.txt", b"b\na\nc\n", &WriteOptions::default())
        .unwrap();
    let src = r#"
import os, shutil, subprocess, sys
r = subprocess.run(["python3", "-c", "import sys; print(sys.argv[1:], sys.stdin.read().upper())", "x y"],
                   input="piped", capture_output=True, text=True)
print(r.returncode, repr(r.stdout))
print(subprocess.run("sort data.txt | head -n 2", shell=True, capture_output=True, text=True).stdout, end="")
print(subprocess.check_output(["wc", "-l", "data.txt"]).split()[0])
r = subprocess.run(["python3", "-c", "import sys; sys.stderr.write('oops'); sys.exit(4)"], capture_output=True)
print(r.returncode, r.stderr)
try:
    subprocess.check_call(["sh", "-c", "exit 2"])
except subprocess.CalledProcessError as e:
    print("CalledProcessError", e.returncode)
try:
    subprocess.run(["no-such-program"])
except FileNotFoundError as e:
    print("FileNotFoundError", e.filename)
p = subprocess.Popen(["python3", "-c", "import sys\nfor line in sys.stdin: print(line.strip()[::-1], flush=True)"],
                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
p.stdin.write("abc\n")
p.stdin.flush()
print(p.stdout.readline().strip())
out, _ = p.communicate("xyz\n")
print(out.strip(), p.returncode)
print(os.system("test -f data.txt"), os.popen("echo popen").read().strip())
subprocess.run(["sh", "-c", "echo from-sh > made.txt"])
print(open("made.txt").read().strip(), shutil.which("python3"))
"#;
    let r = exec(&rt, &ws, src);
    assert_eq!(r.status, RunStatus::Completed, "{}", describe(&r));
    assert_eq!(
        s(&r.stdout),
        "0 \"['x y'] PIPED\\n\"\na\nb\nb'3'\n4 b'oops'\nCalledProcessError 2\n\
         FileNotFoundError no-such-program\ncba\nzyx 0\n0 popen\nfrom-sh /usr/bin/python3\n"
    );
}
