//! The process-wide engine is created by the first runtime. A later runtime
//! with larger limits must still get them: the test runs in a process of its
//! own (`in_own_process`) so that it controls which runtime comes first.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::mpsc;
use std::time::Duration;

use computer_runtime::{
    Event, ExecOptions, JS_GUEST, Limits, RunHandle, RunResult, RunStatus, Runtime, RuntimeConfig,
};
use computer_store::Workspace;

use crate::support::{WATCHDOG, in_own_process};

fn js_runtime(config: RuntimeConfig) -> Runtime {
    let rt = Runtime::new(config).expect("creating a runtime");
    rt.register_guest("js", JS_GUEST.expect("run scripts/build-guests.sh"))
        .expect("registering the JS guest");
    rt
}

fn config(memory_mib: usize, max_concurrent_runs: usize) -> RuntimeConfig {
    RuntimeConfig {
        cache_dir: Some(PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("component-cache")),
        limits: Limits {
            memory_bytes: memory_mib << 20,
            timeout: Duration::from_secs(30),
            ..Limits::default()
        },
        max_concurrent_runs,
        ..Default::default()
    }
}

fn start(rt: &Runtime, source: &str) -> RunHandle {
    rt.exec(
        Arc::new(Workspace::in_memory().unwrap()),
        source,
        ExecOptions {
            backend: "js".into(),
            ..Default::default()
        },
    )
    .expect("exec")
}

fn wait(handle: RunHandle) -> RunResult {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(handle.wait());
    });
    rx.recv_timeout(WATCHDOG).expect("the run ended in time")
}

/// Problems with the memory limit of a later runtime.
fn check_memory(small: &Runtime, big: &Runtime) -> Vec<String> {
    let mut problems = Vec::new();
    let source =
        "const b = new Uint8Array(64 << 20); b[b.length - 1] = 9; console.log(b[b.length - 1]);";
    let r = wait(start(small, source));
    if r.status != RunStatus::Failed
        || !r
            .error
            .as_deref()
            .is_some_and(|e| e.contains("memory limit exceeded"))
    {
        problems.push(format!(
            "64 MiB under the first runtime's 32 MiB limit: {:?}, error {:?}",
            r.status, r.error
        ));
    }
    let r = wait(start(big, source));
    if r.status != RunStatus::Completed || r.stdout != b"9\n" {
        problems.push(format!(
            "64 MiB under a later runtime's 256 MiB limit: {:?}, exit {}, error {:?}, stderr {:?}",
            r.status,
            r.exit_code,
            r.error,
            String::from_utf8_lossy(&r.stderr)
        ));
    }
    problems
}

/// Problems running more concurrent runs than the first runtime allowed.
fn check_concurrency(big: &Runtime, runs: usize) -> Vec<String> {
    let handles: Vec<RunHandle> = (0..runs)
        .map(|_| start(big, "console.log('up'); while (true) {}"))
        .collect();
    let mut up = 0;
    let mut first_failure = None;
    for h in &handles {
        match h.events().recv_timeout(WATCHDOG) {
            Ok(Event::Stdout(b)) if b == b"up\n" => up += 1,
            other => {
                if first_failure.is_none() {
                    first_failure = Some(match other {
                        Ok(Event::Stdout(b)) => format!("stdout {:?}", String::from_utf8_lossy(&b)),
                        Ok(Event::Stderr(b)) => format!("stderr {:?}", String::from_utf8_lossy(&b)),
                        other => format!("{other:?}"),
                    });
                }
            }
        }
    }
    let mut failed_error = None;
    for h in handles {
        big.kill(h.run_id());
        let r = wait(h);
        if r.status != RunStatus::Cancelled && failed_error.is_none() {
            failed_error = Some(format!("{:?}: {:?}", r.status, r.error));
        }
    }
    if up == runs {
        Vec::new()
    } else {
        vec![format!(
            "only {up} of {runs} concurrent runs (limit 100) started; first other event: \
             {first_failure:?}; first non-cancelled result: {failed_error:?}"
        )]
    }
}

#[test]
fn a_later_runtime_gets_its_own_limits() {
    if !in_own_process("engine_sharing::a_later_runtime_gets_its_own_limits") {
        return;
    }
    // First runtime: a small memory limit and the default 64 concurrent runs.
    let small = js_runtime(config(32, 64));
    // Later: the default 256 MiB, and up to 100 concurrent runs.
    let big = js_runtime(config(256, 100));
    let mut problems = check_memory(&small, &big);
    problems.extend(check_concurrency(&big, 90));
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
