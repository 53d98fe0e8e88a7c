//! The whole story, told by running this program's own steps, each in a
//! new process: an approval that survives a crash, then a rejection.

use std::path::Path;
use std::process::Command;

use anyhow::{Context, Result, bail};

use crate::github::CRASH_EXIT;

/// Runs every step in a temporary directory.
pub fn tell() -> Result<()> {
    let scratch = tempfile::tempdir()?;
    let approved = scratch.path().join("approved");
    let rejected = scratch.path().join("rejected");

    println!("== the agent asks to post a comment; the process ends while it waits");
    step(&["run"], &approved, 0)?;
    println!("\n== a reviewer approves; the process dies just after the post");
    step(&["approve", "--crash-after-post"], &approved, CRASH_EXIT)?;
    println!("\n== the application starts again and recovers the run");
    step(&["recover"], &approved, 0)?;

    println!("\n== another run; this time the reviewer says no");
    step(&["run"], &rejected, 0)?;
    step(&["reject", "not before the release"], &rejected, 0)?;
    Ok(())
}

/// `example-embed-agent WORD DIR REST..` in a new process, which must exit
/// with `expected`.
fn step(words: &[&str], dir: &Path, expected: i32) -> Result<()> {
    let me = std::env::current_exe().context("cannot find this program")?;
    let status = Command::new(me)
        .arg(words[0])
        .arg(dir)
        .args(&words[1..])
        .status()
        .context("cannot start a step")?;
    if status.code() != Some(expected) {
        bail!("step {words:?} ended with {status}, not exit {expected}");
    }
    Ok(())
}
