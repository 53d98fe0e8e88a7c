//! `computer diff A [B]`: what differs between two trees of the workspace
//! (snapshot names, `live`, `run:ID:before`, `run:ID:after`, `fork:NAME`), or what one
//! run changed (`--run ID`). Patches are written as `git diff` writes
//! them, so `git apply` takes them; `--stat`, `--numstat`,
//! `--name-status`, `--name-only`, and paths after `--` narrow it.

use clap::Args;
use computer_store::{Diff, DiffOptions, FileDiff, TreeRef, Workspace};
use serde_json::json;

use crate::error::{CliError, CliResult};
use crate::output::{Out, shown};

#[derive(Args, Debug)]
pub struct DiffArgs {
    /// The first tree: a snapshot name, `live`, run:ID:before, run:ID:after or fork:NAME
    pub from: Option<String>,
    /// The second tree [default: live]
    pub to: Option<String>,
    /// What run ID changed (its before tree against its after tree)
    #[arg(long, value_name = "ID", conflicts_with_all = ["from", "to"])]
    pub run: Option<String>,
    /// Per-file counts of changed lines and a summary
    #[arg(long, group = "format")]
    pub stat: bool,
    /// Lines added and removed per file, tab-separated (`-` for binary)
    #[arg(long, group = "format")]
    pub numstat: bool,
    /// Status letter (A, D, M, R100, T) and path of each changed file
    #[arg(long, group = "format")]
    pub name_status: bool,
    /// Only the paths of changed files
    #[arg(long, group = "format")]
    pub name_only: bool,
    /// Do not pair removed and added files with equal content as renames
    #[arg(long)]
    pub no_renames: bool,
    /// Only paths at or below these
    #[arg(last = true, value_name = "PATH")]
    pub paths: Vec<String>,
}

fn parse(spec: &str) -> CliResult<TreeRef> {
    TreeRef::parse(spec).map_err(|e| CliError::invalid(e.message))
}

pub fn diff(ws: &Workspace, args: DiffArgs, out: Out) -> CliResult {
    let (from, to) = match (&args.run, &args.from) {
        (Some(id), _) => (
            TreeRef::RunBefore(id.clone()),
            TreeRef::RunAfter(id.clone()),
        ),
        (None, Some(from)) => (
            parse(from)?,
            args.to.as_deref().map_or(Ok(TreeRef::Live), parse)?,
        ),
        (None, None) => {
            return Err(CliError::invalid(
                "diff needs a tree to compare: computer diff SNAPSHOT [OTHER] (live is the default OTHER), or computer diff --run ID",
            ));
        }
    };
    let patch = !(args.name_status || args.name_only);
    let opts = DiffOptions {
        paths: args.paths,
        no_renames: args.no_renames,
        patch,
    };
    let d = ws.diff(&from, &to, &opts)?;
    if out.json {
        println!("{}", json!({ "diff": d, "summary": summary(&d) }));
        return Ok(());
    }
    if args.name_status {
        for f in &d.files {
            match &f.old_path {
                Some(old) => println!("{}\t{}\t{}", f.status.letter(), shown(old), shown(&f.path)),
                None => println!("{}\t{}", f.status.letter(), shown(&f.path)),
            }
        }
    } else if args.name_only {
        for f in &d.files {
            println!("{}", shown(&f.path));
        }
    } else if args.numstat {
        for f in &d.files {
            match (f.insertions, f.deletions) {
                (Some(i), Some(del)) => println!("{i}\t{del}\t{}", shown(&label(f))),
                _ => println!("-\t-\t{}", shown(&label(f))),
            }
        }
    } else if args.stat {
        print_stat(&d);
    } else {
        print!("{}", d.patch());
    }
    Ok(())
}

fn label(f: &FileDiff) -> String {
    match &f.old_path {
        Some(old) => format!("{old} => {}", f.path),
        None => f.path.clone(),
    }
}

fn summary(d: &Diff) -> serde_json::Value {
    let ins: u64 = d.files.iter().filter_map(|f| f.insertions).sum();
    let del: u64 = d.files.iter().filter_map(|f| f.deletions).sum();
    json!({ "files": d.files.len(), "insertions": ins, "deletions": del })
}

/// git's `--stat` layout: name, count, a bar of `+` and `-` (scaled to
/// fit 50 columns), and the summary line git writes.
fn print_stat(d: &Diff) {
    if d.files.is_empty() {
        return;
    }
    let width = d
        .files
        .iter()
        .map(|f| label(f).chars().count())
        .max()
        .unwrap_or(0);
    let most = d
        .files
        .iter()
        .map(|f| f.insertions.unwrap_or(0) + f.deletions.unwrap_or(0))
        .max()
        .unwrap_or(0);
    let scale = |n: u64| {
        if most > 50 {
            (n * 50).div_ceil(most)
        } else {
            n
        }
    };
    for f in &d.files {
        let name = shown(&label(f)).into_owned();
        match (f.insertions, f.deletions) {
            (Some(i), Some(del)) => println!(
                " {name:<width$} | {:>4} {}{}",
                i + del,
                "+".repeat(scale(i) as usize),
                "-".repeat(scale(del) as usize)
            ),
            _ => println!(" {name:<width$} | Bin"),
        }
    }
    let ins: u64 = d.files.iter().filter_map(|f| f.insertions).sum();
    let del: u64 = d.files.iter().filter_map(|f| f.deletions).sum();
    let n = d.files.len();
    let mut line = format!(" {n} file{} changed", if n == 1 { "" } else { "s" });
    if ins > 0 || del == 0 {
        line.push_str(&format!(
            ", {ins} insertion{}(+)",
            if ins == 1 { "" } else { "s" }
        ));
    }
    if del > 0 || ins == 0 {
        line.push_str(&format!(
            ", {del} deletion{}(-)",
            if del == 1 { "" } else { "s" }
        ));
    }
    println!("{line}");
}
