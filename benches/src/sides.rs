//! One command line timed both ways: as a run of the `command` backend (what
//! `computer run NAME ...` does: recorded, durable) and as a native process.

use std::path::Path;
use std::process::Command;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Result, bail};
use computer_runtime::{ExecOptions, Runtime};
use computer_store::Workspace;

/// `name args...` as a run of the `command` backend in `cwd`; fails unless it exits 0.
pub fn time_command(
    rt: &Runtime,
    ws: &Arc<Workspace>,
    cwd: &str,
    name: &str,
    args: &[&str],
) -> Result<Duration> {
    let line = std::iter::once(name)
        .chain(args.iter().copied())
        .map(|a| format!("'{}'", a.replace('\'', r"'\''")))
        .collect::<Vec<_>>()
        .join(" ");
    let t = Instant::now();
    let r = rt
        .exec(
            ws.clone(),
            &line,
            ExecOptions {
                backend: "command".into(),
                cwd: Some(cwd.into()),
                ..Default::default()
            },
        )?
        .wait();
    let took = t.elapsed();
    if r.exit_code != 0 {
        bail!(
            "{name} {args:?} exited {}: {}",
            r.exit_code,
            String::from_utf8_lossy(&r.stderr)
        );
    }
    Ok(took)
}

/// The native `program args...` in `dir`; fails unless it succeeds.
pub fn time_process(program: &str, dir: &Path, args: &[&str]) -> Result<Duration> {
    let t = Instant::now();
    let out = Command::new(program).args(args).current_dir(dir).output()?;
    let took = t.elapsed();
    if !out.status.success() {
        bail!(
            "native {program} {args:?} failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    Ok(took)
}
