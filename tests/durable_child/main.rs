//! A process that runs durable agent code for `tests/it/durable_crash.rs`,
//! which kills it at random points. It embeds the runtime the way an
//! application does, with one host module, `ws:remote`:
//!
//! - `post(kind, n)` sends `POST /` to the counting server at `$COUNTER_ADDR`
//!   with `Idempotency-Key: <call_id>`; `kind` "unsafe" marks the call
//!   unsafe to repeat first;
//! - `approve(what)` waits for an approval.
//!
//! Usage: `durable-child WORKSPACE exec RUN_ID SCRIPT_FILE` (JavaScript;
//! `exec-shell` for a bash script, which may call `test_command` when
//! `$COMPUTER_TEST_COMMAND_WASM` names it, and `git` when
//! `$COMPUTER_TEST_GIT_WASM` does),
//! `durable-child WORKSPACE recover`, `durable-child WORKSPACE respond RUN CALL`,
//! `durable-child WORKSPACE churn` (another writer: creates, renames and removes
//! directories under `/churn` until it is killed).
//! `$DURABLE_CHILD_LEASE_MS` sets the runtime's lease (default: the
//! runtime's), so a test can let a stopped owner's lease run out quickly.
//! Exit code: the run's, 75 when it waits, 3 on a usage error.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::sync::Arc;

use computer_runtime::{
    Answer, CallContext, CommandSpec, ExecOptions, FunctionInfo, HostModule, ModuleCallError,
    Recovered, RunResult, Runtime, RuntimeConfig,
};
use computer_store::{MkdirOptions, RmOptions, Workspace, WriteOptions};
use serde_json::{Value, json};

struct Remote {
    addr: String,
}

impl Remote {
    fn post(&self, key: &str, body: &str) -> Result<String, String> {
        let mut s = TcpStream::connect(&self.addr).map_err(|e| e.to_string())?;
        let req = format!(
            "POST / HTTP/1.1\r\nHost: {}\r\nIdempotency-Key: {key}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            self.addr,
            body.len()
        );
        s.write_all(req.as_bytes()).map_err(|e| e.to_string())?;
        let mut resp = String::new();
        s.read_to_string(&mut resp).map_err(|e| e.to_string())?;
        Ok(resp
            .split_once("\r\n\r\n")
            .map(|(_, b)| b.to_owned())
            .unwrap_or_default())
    }
}

impl HostModule for Remote {
    fn functions(&self) -> Vec<FunctionInfo> {
        ["approve", "post"]
            .into_iter()
            .map(|name| FunctionInfo {
                name: name.into(),
                params: vec![],
                result: None,
                docs: String::new(),
            })
            .collect()
    }

    fn call(
        &self,
        function: &str,
        args: Value,
        ctx: &mut CallContext,
    ) -> Result<Value, ModuleCallError> {
        match function {
            "approve" => ctx.interrupt(json!({ "what": args[0] })),
            _ => {
                let kind = args[0].as_str().unwrap_or("safe").to_owned();
                if kind == "unsafe" {
                    ctx.unsafe_to_repeat()?;
                }
                let body = format!("{kind} {}", args[1]);
                self.post(ctx.call_id(), &body)
                    .map(Value::String)
                    .map_err(ModuleCallError::Failed)
            }
        }
    }
}

/// Registers the component at `$VAR`, if set, as the command `name`.
fn register_from_env(rt: &Runtime, var: &str, name: &str) {
    if let Some(wasm) = std::env::var_os(var) {
        let bytes = std::fs::read(&wasm).unwrap_or_else(|e| panic!("{var}: {e}"));
        rt.register_command(CommandSpec {
            name: name.into(),
            description: format!("{name} (from ${var})"),
            component: bytes.into(),
            mounts: Vec::new(),
            sha256: None,
            own_cwd: false,
        })
        .unwrap_or_else(|e| panic!("register {name}: {e}"));
    }
}

/// Another process changing the tree while runs are killed and resumed:
/// directories appear, fill, move and vanish under `/churn`. Errors are
/// expected (a run may hold the write lock) and ignored.
fn churn(ws: &Workspace) -> ! {
    let mkdir = MkdirOptions {
        recursive: true,
        mode: None,
    };
    let rm = RmOptions {
        recursive: true,
        force: true,
    };
    let mut n = 0u64;
    loop {
        n += 1;
        let dir = format!("/churn/d{}", n % 4);
        let _ = ws.mkdir(&format!("{dir}/a/b"), &mkdir);
        let _ = ws.write(
            &format!("{dir}/a/b/f{n}"),
            b"churn",
            &WriteOptions::default(),
        );
        let _ = ws.rename(&dir, &format!("/churn/moved{}", n % 2));
        if n.is_multiple_of(3) {
            let _ = ws.rm(&format!("/churn/moved{}", n % 2), rm);
        }
    }
}

fn code(r: &RunResult) -> u8 {
    r.exit_code.clamp(0, 255) as u8
}

fn main() -> std::process::ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(path) = args.first() else {
        eprintln!("usage: durable-child WORKSPACE exec|recover|respond ...");
        return std::process::ExitCode::from(3);
    };
    let ws = Arc::new(Workspace::open(path).expect("open workspace"));
    if args.get(1).map(String::as_str) == Some("churn") {
        churn(&ws);
    }
    let mut config = RuntimeConfig::default();
    if let Some(ms) = std::env::var("DURABLE_CHILD_LEASE_MS")
        .ok()
        .and_then(|v| v.parse().ok())
    {
        config.lease = std::time::Duration::from_millis(ms);
    }
    let rt = Runtime::with_builtin_guests(config).expect("runtime");
    // Commands for shell scripts (`exec-shell`); a replay needs them too.
    register_from_env(&rt, "COMPUTER_TEST_COMMAND_WASM", "test_command");
    register_from_env(&rt, "COMPUTER_TEST_GIT_WASM", "git");
    let addr = std::env::var("COUNTER_ADDR").expect("COUNTER_ADDR");
    rt.modules()
        .register("ws:remote", Arc::new(Remote { addr }))
        .expect("module");
    let exit = match args.get(1).map(String::as_str) {
        Some(how @ ("exec" | "exec-shell")) => {
            let source = std::fs::read_to_string(&args[3]).expect("script");
            let options = ExecOptions {
                backend: if how == "exec" { "js" } else { "shell" }.into(),
                id: Some(args[2].clone()),
                ..Default::default()
            };
            code(&rt.exec(ws, &source, options).expect("exec").wait())
        }
        Some("recover") => {
            let mut worst = 0;
            for r in rt.recover(ws).expect("recover") {
                match r {
                    Recovered::Resumed { handle, .. } => worst = worst.max(code(&handle.wait())),
                    Recovered::Failed { .. } => worst = worst.max(1),
                    Recovered::Error { run_id, error } => {
                        eprintln!("{run_id}: {error}");
                        worst = worst.max(1);
                    }
                }
            }
            worst
        }
        Some("respond") => {
            match rt
                .respond(
                    ws,
                    &args[2],
                    &args[3],
                    Answer::Approved(json!({"approved": true})),
                )
                .expect("respond")
            {
                Some(h) => code(&h.wait()),
                None => 0,
            }
        }
        _ => 3,
    };
    std::process::ExitCode::from(exit)
}
