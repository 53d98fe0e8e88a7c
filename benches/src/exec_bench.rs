//! The exec suite: cold exec latency, throughput across many workspaces,
//! and CPU-bound JS, each side by side with a reference in the same run:
//! `node -e` (a process), a fresh native QuickJS context, native QuickJS.

use std::path::Path;
use std::process::Command;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Context as _, Result};
use computer_runtime::{ExecOptions, Runtime, RuntimeConfig};
use computer_store::Workspace;

use crate::report::{Row, us};

const TRIVIAL: &str = "export default () => 1+1";
const LOOP: &str = "let s = 0; for (let i = 0; i < 3000000; i++) { s = (s + i * i) % 1000003 } export default () => s";

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let idx = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[idx]
}

fn js_options() -> ExecOptions {
    ExecOptions {
        backend: "js".into(),
        ..Default::default()
    }
}

pub fn run(base: &Path, quick: bool) -> Result<Vec<Row>> {
    // `COMPUTER_EXEC_BENCH_GUEST=PATH` measures another build of the JS guest
    // (an unstripped one, to profile it with names).
    let runtime = match std::env::var_os("COMPUTER_EXEC_BENCH_GUEST") {
        Some(path) => {
            let rt = Runtime::new(RuntimeConfig::default())?;
            let bytes = std::fs::read(&path).with_context(|| format!("reading {path:?}"))?;
            rt.register_guest("js", &bytes)?;
            rt
        }
        None => Runtime::with_builtin_guests(RuntimeConfig::default())?,
    };
    anyhow::ensure!(
        runtime.backends().iter().any(|b| b == "js"),
        "the JS guest is not built in: run scripts/build-guests.sh, then rebuild"
    );
    let scratch = tempfile::Builder::new()
        .prefix("computer-exec-bench")
        .tempdir_in(base)?;
    let mut rows = Vec::new();
    // `COMPUTER_EXEC_BENCH_ONLY=cold|throughput|compute` runs one part (to profile it).
    let only = std::env::var("COMPUTER_EXEC_BENCH_ONLY").ok();
    let runs = |part: &str| only.as_deref().is_none_or(|o| o == part);
    if runs("cold") {
        cold(&runtime, scratch.path(), quick, &mut rows)?;
    }
    if runs("throughput") {
        throughput(&runtime, scratch.path(), quick, &mut rows)?;
    }
    if runs("compute") {
        compute(&runtime, scratch.path(), quick, &mut rows)?;
    }
    Ok(rows)
}

/// Cold exec: a new run each time (instantiate, evaluate, run records).
fn cold(runtime: &Runtime, dir: &Path, quick: bool, rows: &mut Vec<Row>) -> Result<()> {
    let n = if quick { 20 } else { 2000 };
    let ws = Arc::new(Workspace::open(dir.join("cold.db"))?);
    // Warm-up: the component cache and page cache.
    for _ in 0..10.min(n) {
        runtime.exec(ws.clone(), TRIVIAL, js_options())?.wait();
    }
    let mut times = Vec::with_capacity(n);
    for _ in 0..n {
        let t = Instant::now();
        let r = runtime.exec(ws.clone(), TRIVIAL, js_options())?.wait();
        times.push(t.elapsed());
        anyhow::ensure!(
            r.value == Some(serde_json::json!(2)),
            "unexpected result {r:?}"
        );
    }
    times.sort();

    let mut native = Vec::with_capacity(n);
    for _ in 0..n {
        let t = Instant::now();
        let v = native_quickjs(TRIVIAL)?;
        native.push(t.elapsed());
        anyhow::ensure!(v == 2, "native QuickJS returned {v}");
    }
    native.sort();

    let node_n = if quick { 2 } else { 20 };
    let mut node = Vec::new();
    if Command::new("node").arg("--version").output().is_ok() {
        for _ in 0..node_n {
            let t = Instant::now();
            let out = Command::new("node")
                .args(["-e", "1+1"])
                .output()
                .context("node -e")?;
            node.push(t.elapsed());
            anyhow::ensure!(out.status.success(), "node failed");
        }
        node.sort();
    }
    rows.push(Row {
        work: format!("cold exec p50 ({n} runs) vs fresh native QuickJS context"),
        computer_us: us(percentile(&times, 0.5)),
        native_us: Some(us(percentile(&native, 0.5))),
        target: "≤ 1 ms".into(),
    });
    rows.push(Row {
        work: "cold exec p99 vs fresh native QuickJS context".into(),
        computer_us: us(percentile(&times, 0.99)),
        native_us: Some(us(percentile(&native, 0.99))),
        target: "≤ 5 ms".into(),
    });
    if !node.is_empty() {
        rows.push(Row {
            work: format!("cold exec p50 vs `node -e` ({node_n} processes)"),
            computer_us: us(percentile(&times, 0.5)),
            native_us: Some(us(percentile(&node, 0.5))),
            target: "–".into(),
        });
    }
    Ok(())
}

/// A fresh QuickJS runtime and context evaluating the module natively.
fn native_quickjs(source: &str) -> Result<i64> {
    let rt = rquickjs::Runtime::new()?;
    let ctx = rquickjs::Context::full(&rt)?;
    ctx.with(|ctx| -> Result<i64> {
        let (module, promise) = rquickjs::Module::declare(ctx.clone(), "main.js", source)
            .and_then(|m| m.eval())
            .map_err(|e| anyhow::anyhow!("{e}"))?;
        promise.finish::<()>().map_err(|e| anyhow::anyhow!("{e}"))?;
        let f: rquickjs::Function<'_> =
            module.get("default").map_err(|e| anyhow::anyhow!("{e}"))?;
        f.call::<_, i64>(()).map_err(|e| anyhow::anyhow!("{e}"))
    })
}

/// Runs per second with many concurrent runs over 100 workspaces.
fn throughput(runtime: &Runtime, dir: &Path, quick: bool, rows: &mut Vec<Row>) -> Result<()> {
    let workspaces = if quick { 4 } else { 100 };
    let per_thread = if quick { 5 } else { 200 };
    let threads = 8;
    let wss: Vec<Arc<Workspace>> = (0..workspaces)
        .map(|i| Workspace::open(dir.join(format!("tp{i}.db"))).map(Arc::new))
        .collect::<Result<_, _>>()?;
    let t = Instant::now();
    std::thread::scope(|s| -> Result<()> {
        let handles: Vec<_> = (0..threads)
            .map(|th| {
                let wss = &wss;
                s.spawn(move || -> Result<()> {
                    for i in 0..per_thread {
                        let ws = wss[(th * per_thread + i) % wss.len()].clone();
                        let r = runtime.exec(ws, TRIVIAL, js_options())?.wait();
                        anyhow::ensure!(r.exit_code == 0, "run failed: {r:?}");
                    }
                    Ok(())
                })
            })
            .collect();
        for h in handles {
            h.join()
                .map_err(|_| anyhow::anyhow!("bench thread panicked"))??;
        }
        Ok(())
    })?;
    let total = threads * per_thread;
    let elapsed = t.elapsed();
    let per_run = elapsed / total as u32;
    rows.push(Row {
        work: format!(
            "throughput: {total} runs, {threads} at a time, {workspaces} workspaces = {:.0} runs/s",
            total as f64 / elapsed.as_secs_f64()
        ),
        computer_us: us(per_run),
        native_us: None,
        target: "–".into(),
    });
    Ok(())
}

/// A CPU-bound loop, in the guest and in native QuickJS.
fn compute(runtime: &Runtime, dir: &Path, quick: bool, rows: &mut Vec<Row>) -> Result<()> {
    let trials = if quick { 1 } else { 5 };
    let ws = Arc::new(Workspace::open(dir.join("compute.db"))?);
    let mut guest = Vec::new();
    let mut native = Vec::new();
    for _ in 0..trials {
        let t = Instant::now();
        let r = runtime.exec(ws.clone(), LOOP, js_options())?.wait();
        guest.push(t.elapsed());
        anyhow::ensure!(r.exit_code == 0, "loop failed: {r:?}");
        let t = Instant::now();
        native_quickjs(LOOP)?;
        native.push(t.elapsed());
    }
    guest.sort();
    native.sort();
    rows.push(Row {
        work: "CPU-bound JS loop (3M iterations) vs native QuickJS".into(),
        computer_us: us(guest[guest.len() / 2]),
        native_us: Some(us(native[native.len() / 2])),
        target: "–".into(),
    });
    Ok(())
}
