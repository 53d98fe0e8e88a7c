//! The in-run suite: files created and removed *inside* a run, against the
//! same work through `std::fs` on tmpfs, in the same process.
//!
//! A JS run writes N small files (`writeFileSync`) and then removes them
//! (`unlinkSync`), timing each loop itself (`performance.now()`), so the
//! run's start and end are not counted. Each is measured with group commit
//! (the default: consecutive changes share a transaction) and without it
//! (`RuntimeConfig::group_commit: None`, one transaction per change), for an
//! ephemeral run (`on_interrupt: fail`) and a durable one (the default, each
//! change's journal row in its transaction).

use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Context as _, Result, ensure};
use computer_runtime::{ExecOptions, GroupCommitLimits, OnInterrupt, Runtime, RuntimeConfig};
use computer_store::{GroupCommit, MkdirOptions, RmOptions, Workspace, WriteOptions};

use crate::report::{Row, median, us};

fn source(n: usize) -> String {
    format!(
        r#"import {{ writeFileSync, unlinkSync, mkdirSync }} from "node:fs";
mkdirSync("/d", {{ recursive: true }});
const body = "x".repeat(100);
let t = performance.now();
for (let i = 0; i < {n}; i++) writeFileSync(`/d/f${{i}}`, body);
const create = performance.now() - t;
t = performance.now();
for (let i = 0; i < {n}; i++) unlinkSync(`/d/f${{i}}`);
const remove = performance.now() - t;
export default {{ create, remove }};"#
    )
}

/// Create and remove times (ms) measured by the guest.
fn guest_times(
    rt: &Runtime,
    ws: &Arc<Workspace>,
    src: &str,
    on: OnInterrupt,
) -> Result<(f64, f64)> {
    let options = ExecOptions {
        backend: "js".into(),
        on_interrupt: Some(on),
        ..Default::default()
    };
    let r = rt.exec(ws.clone(), src, options)?.wait();
    ensure!(r.exit_code == 0, "the run failed: {r:?}");
    let v = r.value.context("the run returned no value")?;
    let get = |k: &str| v.get(k).and_then(|x| x.as_f64()).context("no time");
    Ok((get("create")?, get("remove")?))
}

fn native_times(dir: &Path, n: usize) -> Result<(Duration, Duration)> {
    let d = dir.join("native");
    std::fs::create_dir_all(&d)?;
    let body = [b'x'; 100];
    let t = Instant::now();
    for i in 0..n {
        std::fs::write(d.join(format!("f{i}")), body)?;
    }
    let create = t.elapsed();
    let t = Instant::now();
    for i in 0..n {
        std::fs::remove_file(d.join(format!("f{i}")))?;
    }
    Ok((create, t.elapsed()))
}

/// The same changes through the library under one group commit, no run:
/// what the store's own work costs, without the guest and its host calls.
fn library_times(ws: &Workspace, n: usize) -> Result<(Duration, Duration)> {
    let group = GroupCommit::new(
        GroupCommitLimits::default().max_changes,
        GroupCommitLimits::default().max_age,
    );
    let _in = group.enter();
    ws.mkdir(
        "/lib",
        &MkdirOptions {
            recursive: true,
            mode: None,
        },
    )?;
    let body = [b'x'; 100];
    let t = Instant::now();
    for i in 0..n {
        ws.write(&format!("/lib/f{i}"), &body, &WriteOptions::default())?;
    }
    let create = t.elapsed();
    let t = Instant::now();
    for i in 0..n {
        ws.rm(&format!("/lib/f{i}"), RmOptions::default())?;
    }
    let remove = t.elapsed();
    ws.commit_group()?;
    Ok((create, remove))
}

fn ms(v: f64) -> Duration {
    Duration::from_secs_f64(v / 1000.0)
}

pub fn run(base: &Path, quick: bool) -> Result<Vec<Row>> {
    let (n, trials) = if quick { (20, 1) } else { (1000, 7) };
    let scratch = tempfile::Builder::new()
        .prefix("computer-inrun-bench")
        .tempdir_in(base)?;
    let grouped = Runtime::with_builtin_guests(RuntimeConfig {
        group_commit: Some(GroupCommitLimits::default()),
        ..RuntimeConfig::default()
    })?;
    let single = Runtime::with_builtin_guests(RuntimeConfig {
        group_commit: None,
        ..RuntimeConfig::default()
    })?;
    ensure!(
        grouped.backends().iter().any(|b| b == "js"),
        "the JS guest is not built in: run scripts/build-guests.sh, then rebuild"
    );
    let src = source(n);
    let ws = Arc::new(Workspace::open(scratch.path().join("inrun.db"))?);
    let cases = [
        ("group commit, ephemeral", &grouped, OnInterrupt::Fail),
        ("group commit, durable", &grouped, OnInterrupt::Replay),
        (
            "a transaction per change, ephemeral",
            &single,
            OnInterrupt::Fail,
        ),
        (
            "a transaction per change, durable",
            &single,
            OnInterrupt::Replay,
        ),
    ];
    let mut times: Vec<(Vec<Duration>, Vec<Duration>)> = vec![(vec![], vec![]); cases.len()];
    let mut native = (Vec::new(), Vec::new());
    let mut library = (Vec::new(), Vec::new());
    // Alternating, so load changes hit every side alike.
    for _ in 0..trials {
        for (i, (_, rt, on)) in cases.iter().enumerate() {
            let (c, r) = guest_times(rt, &ws, &src, *on)?;
            times[i].0.push(ms(c));
            times[i].1.push(ms(r));
        }
        let (c, r) = native_times(scratch.path(), n)?;
        native.0.push(c);
        native.1.push(r);
        let (c, r) = library_times(&ws, n)?;
        library.0.push(c);
        library.1.push(r);
    }
    let native = (median(native.0), median(native.1));
    let mut rows = vec![
        Row {
            work: format!(
                "create {n} files through the library under one group commit (no run) vs std::fs on tmpfs"
            ),
            computer_us: us(median(library.0)),
            native_us: Some(us(native.0)),
            target: "–".into(),
        },
        Row {
            work: format!(
                "remove {n} files through the library under one group commit (no run) vs std::fs on tmpfs"
            ),
            computer_us: us(median(library.1)),
            native_us: Some(us(native.1)),
            target: "–".into(),
        },
    ];
    for (i, (name, _, _)) in cases.iter().enumerate() {
        let (c, r) = &times[i];
        rows.push(Row {
            work: format!("create {n} files inside a JS run ({name}) vs std::fs on tmpfs"),
            computer_us: us(median(c.clone())),
            native_us: Some(us(native.0)),
            target: "≤ 2x tmpfs".into(),
        });
        rows.push(Row {
            work: format!("remove {n} files inside a JS run ({name}) vs std::fs on tmpfs"),
            computer_us: us(median(r.clone())),
            native_us: Some(us(native.1)),
            target: "≤ 2x tmpfs".into(),
        });
    }
    Ok(rows)
}
