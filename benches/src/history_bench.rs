//! The history suite (issue 37): snapshots, diff, undo and forks.
//!
//! - Snapshot of a 100-file and a 10,000-file workspace: the same O(1)
//!   work, so the ratio of the two should be near 1 (the reference column
//!   is the 100-file time).
//! - Diff of two snapshots 10 files apart in a 10,000-file tree: the walk
//!   skips shared subtrees, so it follows the 10 changes.
//! - Undo of a run that changed 1,000 files.
//! - Fork, then the first exec in the fork (the exec alone, in the parent,
//!   is the reference), and 100 forks each running `sed -i` on one file.

use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Result, ensure};
use computer_runtime::{ExecOptions, Runtime, RuntimeConfig};
use computer_store::{DiffOptions, NewRun, RunEnd, RunStatus, TreeRef, Workspace, WriteOptions};

use crate::report::{Row, median, us};

/// Bytes per file: 10,000 of them make a 40 MiB workspace.
const FILE_BYTES: usize = 4096;

/// A workspace file holding `n` files of [`FILE_BYTES`] distinct bytes,
/// 100 to a directory, imported in one transaction.
fn workspace_with(scratch: &Path, n: usize) -> Result<Workspace> {
    let host = scratch.join(format!("tree-{n}"));
    for i in 0..n {
        let dir = host.join(format!("d{}", i / 100));
        std::fs::create_dir_all(&dir)?;
        let mut data = format!("file {i}\n").into_bytes();
        data.resize(FILE_BYTES, b'.' + (i % 64) as u8);
        std::fs::write(dir.join(format!("f{i}.txt")), data)?;
    }
    let ws = Workspace::open(scratch.join(format!("ws-{n}.db")))?;
    ws.import(&host, "/", &mut |_| {})?;
    std::fs::remove_dir_all(&host)?;
    Ok(ws)
}

/// Median time to take a snapshot (each removed before the next).
fn snapshot_time(ws: &Workspace, trials: usize) -> Result<Duration> {
    let mut times = Vec::with_capacity(trials);
    for i in 0..trials {
        // A write between snapshots, so each pins a new tree (as in use).
        ws.write(
            "/round.txt",
            format!("round {i}\n").as_bytes(),
            &WriteOptions::default(),
        )?;
        let t = Instant::now();
        ws.snapshot("bench", "")?;
        times.push(t.elapsed());
        ws.snapshots().remove("bench")?;
    }
    Ok(median(times))
}

pub fn run(base: &Path, quick: bool) -> Result<Vec<Row>> {
    let scratch = tempfile::Builder::new()
        .prefix("computer-history-bench")
        .tempdir_in(base)?;
    let scratch = scratch.path();
    let (small_n, big_n) = if quick { (10, 200) } else { (100, 10_000) };
    let trials = if quick { 3 } else { 51 };
    let mut rows = Vec::new();

    let small = workspace_with(scratch, small_n)?;
    let big = workspace_with(scratch, big_n)?;
    let small_t = snapshot_time(&small, trials)?;
    let big_t = snapshot_time(&big, trials)?;
    rows.push(Row {
        work: format!("snapshot of {big_n} files (reference: {small_n} files)"),
        computer_us: us(big_t),
        native_us: Some(us(small_t)),
        target: "≤ 2 ms, ratio ≈ 1 (O(1))".into(),
    });

    // A snapshot shares the root node itself, so 10,000 entries directly
    // in `/` cost the same; the first change after it clones the root
    // (O(entries of /)), which is where that cost went.
    let flat = Workspace::open(scratch.join("flat.db"))?;
    let flat_dir = scratch.join("flat-tree");
    std::fs::create_dir_all(&flat_dir)?;
    for i in 0..big_n {
        std::fs::write(flat_dir.join(format!("f{i}.txt")), format!("{i}\n"))?;
    }
    flat.import(&flat_dir, "/", &mut |_| {})?;
    let flat_t = snapshot_time(&flat, trials.min(11))?;
    rows.push(Row {
        work: format!("snapshot, {big_n} files all directly in / (reference: {small_n} files)"),
        computer_us: us(flat_t),
        native_us: Some(us(small_t)),
        target: "ratio ≈ 1 (O(1))".into(),
    });
    let mut first_writes = Vec::new();
    let mut plain_writes = Vec::new();
    for i in 0..trials.min(11) {
        let opts = WriteOptions::default();
        let t = Instant::now();
        flat.write("/f1.txt", format!("plain {i}\n").as_bytes(), &opts)?;
        plain_writes.push(t.elapsed());
        flat.snapshot("cow", "")?;
        let t = Instant::now();
        flat.write("/f1.txt", format!("first {i}\n").as_bytes(), &opts)?;
        first_writes.push(t.elapsed());
        flat.snapshots().remove("cow")?;
    }
    rows.push(Row {
        work: format!(
            "first write after a snapshot, {big_n} entries in / (reference: a write with no snapshot)"
        ),
        computer_us: us(median(first_writes)),
        native_us: Some(us(median(plain_writes))),
        target: "(the root's copy-on-write, O(entries of /))".into(),
    });

    // Two snapshots 10 files apart, in different directories.
    big.snapshot("a", "")?;
    for k in 0..10 {
        let i = k * (big_n / 10) + 1;
        let path = format!("/d{}/f{i}.txt", i / 100);
        big.write(&path, b"changed\n", &WriteOptions::default())?;
    }
    big.snapshot("b", "")?;
    let (a, b) = (TreeRef::Snapshot("a".into()), TreeRef::Snapshot("b".into()));
    let names = DiffOptions::default();
    let patches = DiffOptions {
        patch: true,
        ..Default::default()
    };
    let mut list_times = Vec::new();
    let mut patch_times = Vec::new();
    for _ in 0..trials {
        let t = Instant::now();
        let d = big.diff(&a, &b, &names)?;
        list_times.push(t.elapsed());
        ensure!(
            d.files.len() == 10,
            "expected 10 changed files, got {}",
            d.files.len()
        );
        let t = Instant::now();
        big.diff(&a, &b, &patches)?;
        patch_times.push(t.elapsed());
    }
    rows.push(Row {
        work: format!("diff of snapshots 10 files apart, {big_n}-file tree (names)"),
        computer_us: us(median(list_times)),
        native_us: None,
        target: "≤ 5 ms".into(),
    });
    rows.push(Row {
        work: format!("diff of snapshots 10 files apart, {big_n}-file tree (with patches)"),
        computer_us: us(median(patch_times)),
        native_us: None,
        target: "≤ 5 ms".into(),
    });

    // Undo of a run that changed 1,000 files.
    let changed = if quick { 50 } else { 1000 };
    let undo_trials = if quick { 2 } else { 7 };
    let mut undo_times = Vec::new();
    for round in 0..undo_trials {
        let id = format!("bench-undo-{round}");
        big.runs().create(&NewRun {
            id: &id,
            backend: "bench",
            source: "",
            options: "{}",
        })?;
        for i in 0..changed {
            let path = format!("/d{}/f{i}.txt", i / 100);
            big.write(
                &path,
                format!("run {round}\n").as_bytes(),
                &WriteOptions::default(),
            )?;
        }
        big.runs().finish(&id, &RunEnd::new(RunStatus::Completed))?;
        let t = Instant::now();
        let report = big.undo(&id)?;
        undo_times.push(t.elapsed());
        ensure!(
            report.reverted.len() == changed,
            "undo reverted {}",
            report.reverted.len()
        );
    }
    rows.push(Row {
        work: format!("undo of a run that changed {changed} files"),
        computer_us: us(median(undo_times)),
        native_us: None,
        target: "≤ 50 ms".into(),
    });

    fork_rows(
        scratch,
        [(small_n, &small), (big_n, &big)],
        quick,
        &mut rows,
    )?;
    Ok(rows)
}

fn shell() -> ExecOptions {
    ExecOptions {
        backend: "shell".into(),
        ..Default::default()
    }
}

fn fork_rows(
    scratch: &Path,
    parents: [(usize, &Workspace); 2],
    quick: bool,
    rows: &mut Vec<Row>,
) -> Result<()> {
    let small = parents[0].1;
    let small_n = parents[0].0;
    let runtime = Runtime::with_builtin_guests(RuntimeConfig::default())?;
    ensure!(
        runtime.backends().iter().any(|b| b == "shell"),
        "the shell guest is not built in: run scripts/build-guests.sh, then rebuild"
    );
    let forks = scratch.join("forks");
    let trials = if quick { 2 } else { 9 };
    for (files, parent) in parents {
        let label = format!("{files}-file");
        // The exec's own time, warm, in a workspace opened for it.
        let mut exec_times = Vec::new();
        let mut fork_times = Vec::new();
        for i in 0..trials {
            let path = parent.location().expect("a file").to_path_buf();
            let t = Instant::now();
            let ws = Arc::new(Workspace::open(&path)?);
            let r = runtime
                .exec(ws, "cat /d0/f0.txt > /dev/null", shell())?
                .wait();
            exec_times.push(t.elapsed());
            ensure!(
                r.exit_code == 0,
                "exec failed: {}",
                String::from_utf8_lossy(&r.stderr)
            );

            let dest = forks.join(format!("{label}-{i}.db"));
            let t = Instant::now();
            parent.fork(&format!("{label}-{i}"), &dest, None)?;
            let ws = Arc::new(Workspace::open(&dest)?);
            let r = runtime
                .exec(ws, "cat /d0/f0.txt > /dev/null", shell())?
                .wait();
            fork_times.push(t.elapsed());
            ensure!(r.exit_code == 0, "exec in the fork failed");
        }
        rows.push(Row {
            work: format!("fork of a {label} workspace + first exec (reference: the exec alone)"),
            computer_us: us(median(fork_times)),
            native_us: Some(us(median(exec_times))),
            target: "≤ 5 ms + the exec".into(),
        });
    }

    // 100 forks, each running sed -i on one file.
    let n = if quick { 5 } else { 100 };
    let before = small.read("/d0/f1.txt")?;
    let t = Instant::now();
    for i in 0..n {
        let dest = forks.join(format!("sed-{i}.db"));
        small.fork(&format!("sed-{i}"), &dest, None)?;
        let ws = Arc::new(Workspace::open(&dest)?);
        let script = format!("sed -i 's/file 1/fork {i}/' /d0/f1.txt");
        let r = runtime.exec(ws, &script, shell())?.wait();
        ensure!(r.exit_code == 0, "sed in fork {i} failed");
    }
    let total = t.elapsed();
    for i in 0..n {
        let ws = Workspace::open(forks.join(format!("sed-{i}.db")))?;
        let text = ws.read("/d0/f1.txt")?;
        ensure!(
            text.starts_with(format!("fork {i}\n").as_bytes()),
            "fork {i} has the wrong result"
        );
    }
    ensure!(small.read("/d0/f1.txt")? == before, "the parent changed");
    rows.push(Row {
        work: format!("{n} forks of a {small_n}-file workspace, each running sed -i (total)"),
        computer_us: us(total),
        native_us: None,
        target: "≤ 1 s".into(),
    });
    Ok(())
}
