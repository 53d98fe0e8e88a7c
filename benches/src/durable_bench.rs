//! The durable suite: what journalling costs, how fast a replay is, and
//! what a run parked at an approval holds.
//!
//! - Overhead: one JS loop of appends and clock reads, run durable
//!   (`on_interrupt: replay`, journalled) and ephemeral (`fail`) side by side.
//! - Replay: a run that makes N journalled calls, then parks; the time to
//!   resume it (replaying the N calls) against its first execution.
//! - Parking: N runs parked at once; the process's resident memory and the
//!   workspace's size per waiting run.

use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

use anyhow::{Context as _, Result, ensure};
use computer_runtime::{
    Answer, CallContext, ExecOptions, FunctionInfo, HostModule, ModuleCallError, OnInterrupt,
    RunStatus, Runtime, RuntimeConfig,
};
use computer_store::Workspace;
use serde_json::{Value, json};

use crate::report::{Row, median, us};

/// `ws:gate.ask()`: waits for an approval.
struct Gate;

impl HostModule for Gate {
    fn functions(&self) -> Vec<FunctionInfo> {
        vec![FunctionInfo {
            name: "ask".into(),
            params: vec![],
            result: None,
            docs: String::new(),
        }]
    }

    fn call(&self, _: &str, _: Value, ctx: &mut CallContext) -> Result<Value, ModuleCallError> {
        ctx.interrupt(json!({}))
    }
}

fn loop_source(n: usize, park: bool) -> String {
    format!(
        r#"import {{ appendFileSync }} from "node:fs";
import {{ ask }} from "ws:gate";
let t = 0;
for (let i = 0; i < {n}; i++) {{ appendFileSync("/log", "x"); t += Date.now() & 1; }}
{}
export default t;"#,
        if park { "ask();" } else { "" }
    )
}

fn options(on: OnInterrupt) -> ExecOptions {
    ExecOptions {
        backend: "js".into(),
        on_interrupt: Some(on),
        ..Default::default()
    }
}

fn rss_bytes() -> u64 {
    let statm = std::fs::read_to_string("/proc/self/statm").unwrap_or_default();
    let pages: u64 = statm
        .split_whitespace()
        .nth(1)
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    pages * 4096
}

pub fn run(base: &Path, quick: bool) -> Result<Vec<Row>> {
    let runtime = Runtime::with_builtin_guests(RuntimeConfig::default())?;
    ensure!(
        runtime.backends().iter().any(|b| b == "js"),
        "the JS guest is not built in: run scripts/build-guests.sh, then rebuild"
    );
    runtime
        .modules()
        .register("ws:gate", Arc::new(Gate))
        .map_err(anyhow::Error::msg)?;
    let scratch = tempfile::Builder::new()
        .prefix("computer-durable-bench")
        .tempdir_in(base)?;
    let mut rows = Vec::new();
    overhead(&runtime, scratch.path(), quick, &mut rows)?;
    replay(&runtime, scratch.path(), quick, &mut rows)?;
    parking(&runtime, scratch.path(), quick, &mut rows)?;
    Ok(rows)
}

fn overhead(runtime: &Runtime, dir: &Path, quick: bool, rows: &mut Vec<Row>) -> Result<()> {
    let n = if quick { 100 } else { 10_000 };
    let trials = if quick { 1 } else { 5 };
    let source = loop_source(n, false);
    let mut times = [Vec::new(), Vec::new()];
    for t in 0..trials {
        // Alternate, so both sides see the same machine state.
        for (side, on) in [OnInterrupt::Replay, OnInterrupt::Fail]
            .into_iter()
            .enumerate()
        {
            let ws = Arc::new(Workspace::open(
                dir.join(format!("overhead-{t}-{side}.db")),
            )?);
            let start = Instant::now();
            let r = runtime.exec(ws, &source, options(on))?.wait();
            times[side].push(start.elapsed());
            ensure!(
                r.status == RunStatus::Completed,
                "loop run failed: {:?}",
                r.error
            );
        }
    }
    let [durable, ephemeral] = times;
    rows.push(Row {
        work: format!("{n} appends + clock reads, durable vs ephemeral run"),
        computer_us: us(median(durable)),
        native_us: Some(us(median(ephemeral))),
        target: "≤ 1.5x".into(),
    });
    Ok(())
}

fn replay(runtime: &Runtime, dir: &Path, quick: bool, rows: &mut Vec<Row>) -> Result<()> {
    let n = if quick { 100 } else { 5_000 };
    let ws = Arc::new(Workspace::open(dir.join("replay.db"))?);
    let source = loop_source(n, true);
    let start = Instant::now();
    let first = runtime
        .exec(ws.clone(), &source, options(OnInterrupt::Replay))?
        .wait();
    let first_time = start.elapsed();
    ensure!(
        first.status == RunStatus::Waiting,
        "the run should park: {:?}",
        first.error
    );
    let calls = ws.journal().entries(&first.run_id)?.len();
    let pending = ws.interrupts().pending()?;
    let p = pending.first().context("a pending interrupt")?;
    let start = Instant::now();
    let resumed = runtime
        .respond(
            ws.clone(),
            &p.run_id,
            &p.call_id,
            Answer::Approved(json!(true)),
        )?
        .context("the run resumes")?
        .wait();
    let replay_time = start.elapsed();
    ensure!(
        resumed.status == RunStatus::Completed,
        "resume failed: {:?}",
        resumed.error
    );
    rows.push(Row {
        work: format!("replay of a run with {calls} journalled calls, vs its first execution"),
        computer_us: us(replay_time),
        native_us: Some(us(first_time)),
        target: "–".into(),
    });
    Ok(())
}

fn parking(runtime: &Runtime, dir: &Path, quick: bool, rows: &mut Vec<Row>) -> Result<()> {
    let n = if quick { 20 } else { 10_000 };
    let path = dir.join("parking.db");
    let ws = Arc::new(Workspace::open(&path)?);
    // One run first, so the engine, the guest and SQLite's caches are warm.
    runtime
        .exec(
            ws.clone(),
            "import { ask } from 'ws:gate'; ask();",
            options(OnInterrupt::Replay),
        )?
        .wait();
    let rss_before = rss_bytes();
    let start = Instant::now();
    let mut last = String::new();
    for _ in 0..n {
        let r = runtime
            .exec(
                ws.clone(),
                "import { ask } from 'ws:gate'; ask();",
                options(OnInterrupt::Replay),
            )?
            .wait();
        ensure!(
            r.status == RunStatus::Waiting,
            "the run should park: {:?}",
            r.error
        );
        last = r.run_id;
    }
    let elapsed = start.elapsed();
    let rss_after = rss_bytes();
    let waiting = ws.interrupts().pending()?.len();
    ensure!(waiting > n, "{waiting} runs wait, expected more than {n}");
    // What one parked run keeps in the workspace besides its run record.
    let journal = ws.journal().entries(&last)?;
    let journal_bytes: usize = journal
        .iter()
        .map(|e| e.result.as_ref().map_or(0, Vec::len) + e.kind.as_str().len() + e.name.len() + 24)
        .sum();
    let per_run_mem = rss_after.saturating_sub(rss_before) as f64 / n as f64;
    rows.push(Row {
        work: format!(
            "{n} runs parked at once: process memory +{per_run_mem:.0} B/run; each keeps {} journal rows ({journal_bytes} B); time to park one",
            journal.len()
        ),
        computer_us: us(elapsed / n as u32),
        native_us: None,
        target: "memory near zero".into(),
    });
    Ok(())
}
