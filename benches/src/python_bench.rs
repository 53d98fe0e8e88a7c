//! python3 (built into the binary, `computer-builtins`) against the
//! machine's CPython, side by side in this process: warm start of
//! `python3 -c pass`, of the common imports, a CPU-bound loop, and reading
//! a CSV, each as a run of the `command` backend (recorded, durable: what
//! `computer run python3` does) and as a native process.

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, Result, bail};
use computer_runtime::{Runtime, RuntimeConfig, command_backend};
use computer_store::{MkdirOptions, Workspace, WriteOptions};

use crate::report::{Row, median, us};

const NATIVE: &str = "/usr/bin/python3";

fn time_ours(rt: &Runtime, ws: &Arc<Workspace>, args: &[&str]) -> Result<Duration> {
    crate::sides::time_command(rt, ws, "/data", "python3", args)
}

fn time_native(dir: &Path, args: &[&str]) -> Result<Duration> {
    crate::sides::time_process(NATIVE, dir, args)
}

pub fn run(base: &Path, quick: bool) -> Result<Vec<Row>> {
    if computer_builtins::built_in().is_empty() {
        bail!("this binary has no python3: run scripts/build-python.sh, then rebuild");
    }
    let rt = Runtime::new(RuntimeConfig::default())?;
    rt.register_backend(command_backend())?;
    computer_builtins::register(&rt)?;
    let dir = tempfile::tempdir_in(base)?;
    let ws = Arc::new(Workspace::open(dir.path().join("ws.db"))?);
    ws.mkdir("/data", &MkdirOptions::default())?;
    let native_dir = dir.path().join("data");
    std::fs::create_dir_all(&native_dir)?;
    let rows = if quick { 2_000 } else { 500_000 };
    let csv: String = (0..rows)
        .map(|i| format!("{i},name{i},{}\n", i % 97))
        .collect();
    ws.write("/data/in.csv", csv.as_bytes(), &WriteOptions::default())?;
    std::fs::write(native_dir.join("in.csv"), &csv)?;
    // The first run compiles the component (or loads it from the cache).
    time_ours(&rt, &ws, &["-c", "pass"]).context("the first python3 run")?;
    let trials = if quick { 1 } else { 15 };
    let csv_work = format!(
        "read a CSV with `csv` ({rows} rows, {} KB)",
        csv.len() >> 10
    );
    let cases: [(&str, Vec<&str>, &str); 4] = [
        ("warm `python3 -c pass`, p50", vec!["-c", "pass"], "≤ 1.5x"),
        (
            "warm `python3 -c 'import json, csv, re'`",
            vec!["-c", "import json, csv, re"],
            "≤ 2x",
        ),
        (
            "CPU-bound: `sum(i * i for i in range(3 * 10**6))`",
            vec!["-c", "print(sum(i * i for i in range(3 * 10**6)))"],
            "report",
        ),
        (
            &csv_work,
            vec![
                "-c",
                "import csv; print(sum(int(r[2]) for r in csv.reader(open('in.csv'))))",
            ],
            "≤ 3x",
        ),
    ];
    let mut out = Vec::new();
    for (work, args, target) in cases {
        let mut ours = Vec::new();
        let mut native = Vec::new();
        for _ in 0..trials {
            ours.push(time_ours(&rt, &ws, &args)?);
            native.push(time_native(&native_dir, &args)?);
        }
        out.push(Row {
            work: work.to_owned(),
            computer_us: us(median(ours)),
            native_us: Some(us(median(native))),
            target: target.to_owned(),
        });
    }
    Ok(out)
}
