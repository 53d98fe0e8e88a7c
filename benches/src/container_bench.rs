//! The container suite: a container exec of `true` on a warm container
//! against a raw `podman exec` of the same container, the sync cost of one
//! changed file (changed in the workspace, then by the command) in
//! workspaces of 1,000 and 10,000 files, and the cold first
//! exec (container creation included) against `podman run --rm`. Needs an
//! engine (`scripts/setup-podman.sh`) and an image: the default one
//! (`scripts/build-image.sh`), or `COMPUTER_CONTAINER_IMAGE` (the numbers in
//! BENCHMARKS.md were taken with `localhost/computer-busybox:latest`).

use std::path::Path;
use std::process::Command;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Context as _, Result};
use computer_container::{
    ContainerBackend, ContainerConfig, ContainerExecOptions, ContainerRunInfo,
};
use computer_runtime::{RunResult, SyncStats, SyncTimings};
use computer_store::{Workspace, WriteOptions};

use crate::report::{Row, median, us};

fn backend(state: &Path) -> Result<ContainerBackend> {
    let config = ContainerConfig {
        state_dir: Some(state.to_path_buf()),
        ..ContainerConfig::from_env()?
    };
    let backend = ContainerBackend::new(config)?;
    backend
        .connect()
        .context("the container suite needs an engine: run scripts/setup-podman.sh and export DOCKER_HOST=unix:///tmp/podman.sock")?;
    Ok(backend)
}

/// A workspace of `n` small files, 100 per directory.
fn workspace(path: &Path, n: usize) -> Result<Arc<Workspace>> {
    let ws = Workspace::open(path)?;
    let opts = WriteOptions {
        create_parents: true,
        ..Default::default()
    };
    let line = "x".repeat(99) + "\n";
    for i in 0..n {
        ws.write(&format!("/d{}/f{i}.txt", i / 100), line.as_bytes(), &opts)?;
    }
    Ok(Arc::new(ws))
}

fn exec(backend: &ContainerBackend, ws: &Arc<Workspace>, script: &str) -> Result<RunResult> {
    let r = backend
        .exec(ws.clone(), script, ContainerExecOptions::default())?
        .wait();
    anyhow::ensure!(
        r.exit_code == 0,
        "container exec of {script:?} failed ({}): {}",
        r.exit_code,
        String::from_utf8_lossy(&r.stderr)
    );
    Ok(r)
}

/// The podman (or docker) CLI, for the raw reference.
fn engine_cli() -> Result<&'static str> {
    for cli in ["podman", "docker"] {
        if Command::new(cli)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
        {
            return Ok(cli);
        }
    }
    anyhow::bail!("neither podman nor docker is installed")
}

fn raw(cli: &str, args: &[&str]) -> Result<Duration> {
    let t = Instant::now();
    let out = Command::new(cli).args(args).output()?;
    let took = t.elapsed();
    anyhow::ensure!(
        out.status.success(),
        "{cli} {} failed: {}",
        args.join(" "),
        String::from_utf8_lossy(&out.stderr)
    );
    Ok(took)
}

fn sync_time(t: &Option<SyncTimings>) -> Duration {
    t.map_or(Duration::ZERO, |t| t.push + t.pull)
}

pub fn run(base: &Path, quick: bool) -> Result<Vec<Row>> {
    let cli = engine_cli()?;
    let scratch = tempfile::Builder::new()
        .prefix("computer-container-bench")
        .tempdir_in(base)?;
    let dir = scratch.path();
    let backend = backend(&dir.join("state"))?;
    let (small, large) = if quick { (100, 1000) } else { (1000, 10_000) };
    let trials = if quick { 2 } else { 20 };
    let mut rows = Vec::new();

    // Cold first exec: create and start the container, push every file.
    let ws = workspace(&dir.join("small.db"), small)?;
    cold_rows(&backend, cli, &ws, small, quick, &mut rows)?;
    // Warm: the same container, nothing changed, interleaved with raw execs.
    warm_rows(&backend, cli, &ws, small, trials, &mut rows)?;
    // Sync cost by workspace size: nothing changed, and one changed file.
    for (n, ws) in [
        (small, ws.clone()),
        (large, workspace(&dir.join("large.db"), large)?),
    ] {
        sync_rows(&backend, &ws, n, trials, &mut rows)?;
    }
    backend.stop(&ws)?;
    Ok(rows)
}

/// The first exec of `true` (the container created and started, every file
/// pushed) against `podman run --rm`.
fn cold_rows(
    backend: &ContainerBackend,
    cli: &str,
    ws: &Arc<Workspace>,
    small: usize,
    quick: bool,
    rows: &mut Vec<Row>,
) -> Result<()> {
    let image = backend.config().image.clone();
    let mut cold = Vec::new();
    let mut cold_ref = Vec::new();
    for _ in 0..(if quick { 1 } else { 5 }) {
        backend.stop(ws)?;
        let t = Instant::now();
        let r = exec(backend, ws, "true")?;
        cold.push(t.elapsed());
        anyhow::ensure!(ContainerRunInfo::of(&r).is_some_and(|c| c.created));
        cold_ref.push(raw(
            cli,
            &[
                "run",
                "--rm",
                "--network=none",
                "--cap-drop=ALL",
                &image,
                "true",
            ],
        )?);
    }
    rows.push(Row {
        work: format!("cold first exec of `true` (create + start + push {small} files)"),
        computer_us: us(median(cold)),
        native_us: Some(us(median(cold_ref))),
        target: "reference: `podman run --rm IMAGE true`".into(),
    });
    Ok(())
}

/// Execs of `true` in the running container, nothing changed, against
/// `podman exec`.
fn warm_rows(
    backend: &ContainerBackend,
    cli: &str,
    ws: &Arc<Workspace>,
    small: usize,
    trials: usize,
    rows: &mut Vec<Row>,
) -> Result<()> {
    let name = ContainerRunInfo::of(&exec(backend, ws, "true")?)
        .map(|c| c.name)
        .context("no container info")?;
    let mut warm = Vec::new();
    let mut warm_ref = Vec::new();
    for _ in 0..trials {
        let t = Instant::now();
        let r = exec(backend, ws, "true")?;
        warm.push(t.elapsed());
        anyhow::ensure!(
            sync(&r).pushed == 0 && sync(&r).pulled == 0,
            "a warm exec copied files"
        );
        warm_ref.push(raw(cli, &["exec", &name, "true"])?);
    }
    let (w, wr) = (median(warm), median(warm_ref));
    rows.push(Row {
        work: format!("warm exec of `true`, {small}-file workspace, vs `{cli} exec`"),
        computer_us: us(w),
        native_us: Some(us(wr)),
        target: format!(
            "≤ 1.5x + 20 ms: {}",
            if w <= wr.mul_f64(1.5) + Duration::from_millis(20) {
                "met"
            } else {
                "missed"
            }
        ),
    });
    Ok(())
}

/// The sync cost in a workspace of `n` files: nothing changed, one file
/// changed in the workspace, one changed by the command.
fn sync_rows(
    backend: &ContainerBackend,
    ws: &Arc<Workspace>,
    n: usize,
    trials: usize,
    rows: &mut Vec<Row>,
) -> Result<()> {
    exec(backend, ws, "true")?;
    let mut idle = Vec::new();
    let mut one = Vec::new();
    let mut one_total = Vec::new();
    let mut pulled_one = Vec::new();
    for i in 0..trials {
        idle.push(sync_time(&sync(&exec(backend, ws, "true")?).timings));
        ws.write(
            "/d0/f0.txt",
            format!("change {i}\n").as_bytes(),
            &WriteOptions::default(),
        )?;
        let t = Instant::now();
        let r = exec(backend, ws, "true")?;
        one_total.push(t.elapsed());
        anyhow::ensure!(
            sync(&r).pushed == 1,
            "pushed {} entries for one change",
            sync(&r).pushed
        );
        one.push(sync_time(&sync(&r).timings));
        // The other way: the command changes one file, the pull finds it.
        let r = exec(backend, ws, &format!("echo back {i} > d1/f100.txt"))?;
        anyhow::ensure!(
            sync(&r).pulled == 1,
            "pulled {} entries for one change",
            sync(&r).pulled
        );
        pulled_one.push(sync_time(&sync(&r).timings));
    }
    rows.push(Row {
        work: format!("sync (push + pull), nothing changed, {n} files"),
        computer_us: us(median(idle)),
        native_us: None,
        target: "no copying".into(),
    });
    rows.push(Row {
        work: format!("sync (push + pull), 1 file changed in the workspace, {n} files"),
        computer_us: us(median(one)),
        native_us: None,
        target: "independent of size".into(),
    });
    rows.push(Row {
        work: format!("sync (push + pull), 1 file changed by the command, {n} files"),
        computer_us: us(median(pulled_one)),
        native_us: None,
        target: "independent of size".into(),
    });
    rows.push(Row {
        work: format!("exec of `true` after 1 file changed, {n} files"),
        computer_us: us(median(one_total)),
        native_us: None,
        target: "–".into(),
    });
    backend.stop(ws)?;
    Ok(())
}

/// The sync counts of a container run (zeros if it reported none).
fn sync(r: &RunResult) -> SyncStats {
    r.sync().cloned().unwrap_or_default()
}
