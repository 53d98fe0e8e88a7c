//! The shell suite: cold `echo hi`, and a realistic agent script over a
//! 5,000-file tree, side by side with real bash on a tmpfs copy and with
//! just-bash (npm) under node on an in-memory copy.

use std::path::Path;
use std::process::Command;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Context as _, Result};
use computer_runtime::{ExecOptions, Runtime, RuntimeConfig};
use computer_store::Workspace;

use crate::report::{Row, us};

const AGENT_SCRIPT: &str = "find . -name '*.rs' | xargs grep -h 'fn ' | sed 's/(.*//' | sort | uniq -c | sort -rn | head -20";

fn shell_options(cwd: &str) -> ExecOptions {
    ExecOptions {
        backend: "shell".into(),
        cwd: Some(cwd.into()),
        ..Default::default()
    }
}

fn pct(sorted: &[Duration], p: f64) -> Duration {
    sorted[((sorted.len() as f64 - 1.0) * p).round() as usize]
}

pub fn run(base: &Path, quick: bool) -> Result<Vec<Row>> {
    let runtime = Runtime::with_builtin_guests(RuntimeConfig::default())?;
    anyhow::ensure!(
        runtime.backends().iter().any(|b| b == "shell"),
        "the shell guest is not built in: run scripts/build-guests.sh, then rebuild"
    );
    let scratch = tempfile::Builder::new()
        .prefix("computer-shell-bench")
        .tempdir_in(base)?;
    let mut rows = Vec::new();

    echo_rows(&runtime, scratch.path(), quick, &mut rows)?;
    agent_script_rows(&runtime, scratch.path(), quick, &mut rows)?;
    Ok(rows)
}

/// Cold `echo hi`, after the compile cache is warm, against `bash -c`.
fn echo_rows(runtime: &Runtime, scratch: &Path, quick: bool, rows: &mut Vec<Row>) -> Result<()> {
    let ws = Arc::new(Workspace::open(scratch.join("echo.db"))?);
    let n = if quick { 5 } else { 500 };
    for _ in 0..3 {
        runtime
            .exec(ws.clone(), "echo hi", shell_options("/"))?
            .wait();
    }
    let mut times = Vec::with_capacity(n);
    for _ in 0..n {
        let t = Instant::now();
        let r = runtime
            .exec(ws.clone(), "echo hi", shell_options("/"))?
            .wait();
        times.push(t.elapsed());
        anyhow::ensure!(
            r.stdout == b"hi\n",
            "echo hi printed {:?}",
            String::from_utf8_lossy(&r.stdout)
        );
    }
    times.sort();
    let mut bash = Vec::new();
    for _ in 0..n.min(100) {
        let t = Instant::now();
        let out = Command::new("bash").args(["-c", "echo hi"]).output()?;
        bash.push(t.elapsed());
        anyhow::ensure!(out.stdout == b"hi\n");
    }
    bash.sort();
    rows.push(Row {
        work: format!("cold exec of `echo hi` p50 ({n} runs) vs `bash -c` process"),
        computer_us: us(pct(&times, 0.5)),
        native_us: Some(us(pct(&bash, 0.5))),
        target: "≤ 2 ms".into(),
    });
    rows.push(Row {
        work: "cold exec of `echo hi` p99 vs `bash -c` process".into(),
        computer_us: us(pct(&times, 0.99)),
        native_us: Some(us(pct(&bash, 0.99))),
        target: "–".into(),
    });
    Ok(())
}

/// The agent script over a 5,000-file tree, against real bash (and
/// just-bash unless `quick`).
fn agent_script_rows(
    runtime: &Runtime,
    scratch: &Path,
    quick: bool,
    rows: &mut Vec<Row>,
) -> Result<()> {
    let files = if quick { 200 } else { 5000 };
    let tree = scratch.join("tree");
    make_tree(&tree, files)?;
    let ws = Arc::new(Workspace::open(scratch.join("tree.db"))?);
    ws.import(&tree, "/tree", &mut |_| {})?;
    let trials = if quick { 1 } else { 5 };
    let mut ours = Vec::new();
    let mut our_out = Vec::new();
    for _ in 0..trials {
        let t = Instant::now();
        let r = runtime
            .exec(ws.clone(), AGENT_SCRIPT, shell_options("/tree"))?
            .wait();
        ours.push(t.elapsed());
        anyhow::ensure!(
            r.exit_code == 0,
            "agent script failed: {}",
            String::from_utf8_lossy(&r.stderr)
        );
        our_out = r.stdout;
    }
    ours.sort();
    let mut real = Vec::new();
    let mut real_out = Vec::new();
    for _ in 0..trials {
        let t = Instant::now();
        let out = Command::new("bash")
            .args(["-c", AGENT_SCRIPT])
            .current_dir(&tree)
            .env("LC_ALL", "C")
            .output()?;
        real.push(t.elapsed());
        real_out = out.stdout;
    }
    real.sort();
    if our_out != real_out {
        eprintln!("note: the shell backend's output differs from bash's for the agent script");
    }
    rows.push(Row {
        work: format!("agent script over {files} files vs real bash on tmpfs"),
        computer_us: us(ours[ours.len() / 2]),
        native_us: Some(us(real[real.len() / 2])),
        target: "–".into(),
    });
    if !quick && let Some(jb) = just_bash(&tree, trials)? {
        rows.push(Row {
            work: format!("agent script over {files} files vs just-bash (node, in-memory fs)"),
            computer_us: us(ours[ours.len() / 2]),
            native_us: Some(jb),
            target: "ahead of just-bash (< 1x)".into(),
        });
    }
    Ok(())
}

/// A deterministic project tree: `files` files in nested directories,
/// about a third of them Rust sources with several `fn` lines each.
fn make_tree(root: &Path, files: usize) -> Result<()> {
    for i in 0..files {
        let dir = root.join(format!("crate{}/src/mod{}", i % 25, (i / 25) % 8));
        std::fs::create_dir_all(&dir)?;
        let (name, body) = if i % 3 == 0 {
            let mut body = String::new();
            for f in 0..(i % 7 + 1) {
                body.push_str(&format!(
                    "pub fn handler_{}(x: u32) -> u32 {{\n    x + {f}\n}}\n\n",
                    f % 5
                ));
            }
            (format!("file{i}.rs"), body)
        } else {
            (
                format!("file{i}.txt"),
                format!("notes {i}\nnothing to see fn here\n"),
            )
        };
        std::fs::write(dir.join(name), body)?;
    }
    Ok(())
}

/// Median µs of just-bash running the script, or None if node or the
/// package is unavailable (installed on demand into target/just-bash).
fn just_bash(tree: &Path, trials: usize) -> Result<Option<f64>> {
    let bench_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let install = bench_dir.join("../target/just-bash");
    if !install.join("node_modules/just-bash").is_dir() {
        std::fs::create_dir_all(&install)?;
        let ok = Command::new("npm")
            .args([
                "install",
                "--silent",
                "--no-audit",
                "--no-fund",
                "just-bash@3",
            ])
            .current_dir(&install)
            .status();
        if !matches!(ok, Ok(s) if s.success()) {
            eprintln!("note: cannot install just-bash with npm; skipping that comparison");
            return Ok(None);
        }
    }
    std::fs::copy(
        bench_dir.join("js/just_bash_bench.mjs"),
        install.join("bench.mjs"),
    )?;
    let out = Command::new("node")
        .arg(install.join("bench.mjs"))
        .arg(tree)
        .arg(AGENT_SCRIPT)
        .arg(trials.to_string())
        .output()
        .context("running node")?;
    if !out.status.success() {
        eprintln!(
            "note: just-bash failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        return Ok(None);
    }
    let v: serde_json::Value = serde_json::from_slice(&out.stdout)?;
    Ok(v["median_us"].as_f64())
}
