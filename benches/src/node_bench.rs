//! `node` (the JS guest started as a command) against the machine's node 20,
//! side by side in this process: warm `node -e 1`, `require('lodash')` plus
//! one call, and `marked` rendering 100 KB of Markdown. Each of ours is a run
//! of the `command` backend (recorded, durable: what `computer run node`
//! does); each of node's a process. The packages come from the npm registry
//! (`npm install` into a scratch directory, copied into the workspace); without
//! npm or the registry those rows are left out, with a note on stderr.

use std::path::Path;
use std::process::Command;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, Result};
use computer_runtime::{Runtime, RuntimeConfig};
use computer_store::{MkdirOptions, Workspace, WriteOptions};

use crate::report::{Row, median, us};

const NATIVE: &str = "node";
const PACKAGES: &[&str] = &["lodash@4.17.21", "marked@12.0.2"];

fn time_ours(rt: &Runtime, ws: &Arc<Workspace>, args: &[&str]) -> Result<Duration> {
    crate::sides::time_command(rt, ws, "/p", "node", args)
}

fn time_native(dir: &Path, args: &[&str]) -> Result<Duration> {
    crate::sides::time_process(NATIVE, dir, args)
}

/// `npm install` of the pinned packages into `dir`; false (with a note) when
/// npm or the registry is not there.
fn install(dir: &Path) -> bool {
    let done = Command::new("npm")
        .args([
            "install",
            "--no-audit",
            "--no-fund",
            "--ignore-scripts",
            "--silent",
        ])
        .args(PACKAGES)
        .current_dir(dir)
        .status();
    match done {
        Ok(s) if s.success() => true,
        other => {
            eprintln!("node bench: npm install failed ({other:?}); the package rows are left out");
            false
        }
    }
}

/// The host tree `from` into the workspace at `to`.
fn copy_tree(ws: &Workspace, from: &Path, to: &str) -> Result<()> {
    let parents = MkdirOptions {
        recursive: true,
        ..Default::default()
    };
    ws.mkdir(to, &parents)?;
    for entry in std::fs::read_dir(from)? {
        let entry = entry?;
        let name = entry.file_name().to_string_lossy().into_owned();
        let target = format!("{to}/{name}");
        let kind = entry.file_type()?;
        if kind.is_dir() {
            copy_tree(ws, &entry.path(), &target)?;
        } else if kind.is_file() {
            ws.write(
                &target,
                &std::fs::read(entry.path())?,
                &WriteOptions::default(),
            )?;
        }
    }
    Ok(())
}

fn markdown(kb: usize) -> String {
    let section = "## A section\n\nSome *emphasis*, **strong** text, `code`, and a [link](https://example.com).\n\n- one\n- two\n  - nested\n\n```js\nconst x = 1;\n```\n\n> a quote\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n";
    section.repeat(kb * 1024 / section.len() + 1)
}

pub fn run(base: &Path, quick: bool) -> Result<Vec<Row>> {
    let rt = Runtime::with_builtin_guests(RuntimeConfig::default())?;
    let dir = tempfile::tempdir_in(base)?;
    let ws = Arc::new(Workspace::open(dir.path().join("ws.db"))?);
    ws.mkdir("/p", &MkdirOptions::default())?;
    let native_dir = dir.path().join("p");
    std::fs::create_dir_all(&native_dir)?;
    let md = markdown(if quick { 4 } else { 100 });
    ws.write("/p/doc.md", md.as_bytes(), &WriteOptions::default())?;
    std::fs::write(native_dir.join("doc.md"), &md)?;
    // The first run compiles the component (or loads it from the cache).
    time_ours(&rt, &ws, &["-e", "1"]).context("the first node run")?;
    let trials = if quick { 1 } else { 15 };
    let md_work = format!("`marked` rendering {} KB of Markdown", md.len() >> 10);
    let mut cases: Vec<(String, Vec<&str>, &str)> =
        vec![("warm `node -e 1`, p50".into(), vec!["-e", "1"], "≤ 5 ms")];
    if !quick && install(&native_dir) {
        copy_tree(&ws, &native_dir.join("node_modules"), "/p/node_modules")?;
        cases.push((
            "`require('lodash')` plus one call".into(),
            vec![
                "-e",
                "console.log(require('lodash').chunk([1,2,3,4,5], 2).length)",
            ],
            "≤ 3x",
        ));
        cases.push((
            md_work,
            vec![
                "-e",
                "const {marked}=require('marked'); console.log(marked.parse(require('fs').readFileSync('doc.md','utf8')).length)",
            ],
            "report",
        ));
    }
    let mut out = Vec::new();
    for (work, args, target) in cases {
        let mut ours = Vec::new();
        let mut native = Vec::new();
        for _ in 0..trials {
            ours.push(time_ours(&rt, &ws, &args)?);
            native.push(time_native(&native_dir, &args)?);
        }
        out.push(Row {
            work,
            computer_us: us(median(ours)),
            native_us: Some(us(median(native))),
            target: target.to_owned(),
        });
    }
    Ok(out)
}
