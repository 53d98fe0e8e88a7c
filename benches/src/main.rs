//! Workspace benchmarks, each measured side by side with the same work done
//! through `std::fs` on a tmpfs directory, in the same process and run.
//!
//! `cargo run --release -p computer-bench -- fs` prints a Markdown table of
//! ratios (workspace time / native time). `--quick` is a smoke run for CI.

mod container_bench;
mod durable_bench;
mod exec_bench;
mod fs_bench;
mod git_bench;
mod history_bench;
mod inrun_bench;
mod node_bench;
mod python_bench;
mod report;
mod serve_bench;
mod shell_bench;
mod sides;
mod wasi_bench;

use std::path::PathBuf;

use clap::{Parser, Subcommand};

#[derive(Parser)]
struct Args {
    #[command(subcommand)]
    suite: Suite,
    /// Tiny sizes and one trial: checks the benchmarks run, measures nothing
    #[arg(long, global = true)]
    quick: bool,
    /// Scratch directory for both sides [default: /dev/shm if present]
    #[arg(long, global = true)]
    dir: Option<PathBuf>,
    /// Print JSON instead of Markdown
    #[arg(long, global = true)]
    json: bool,
}

#[derive(Subcommand)]
enum Suite {
    /// Filesystem operations against std::fs on tmpfs
    Fs,
    /// JS exec: cold start, throughput, compute, against node and native QuickJS
    Exec,
    /// Shell: cold `echo hi`, an agent script against real bash and just-bash
    Shell,
    /// Durable runs: journalling overhead, replay speed, memory of parked runs
    Durable,
    /// Files created and removed inside a JS run, with and without group commit, against std::fs on tmpfs
    Inrun,
    /// python3 (built in) against native CPython: warm start, imports, CPU, a CSV (needs scripts/build-python.sh)
    Python,
    /// git (the real program) against native git 2.39: status, add + commit, log, diff, init (needs scripts/build-git.sh)
    Git,
    /// node (the JS guest as a command) against node 20: warm start, require('lodash'), marked (npm installs the packages)
    Node,
    /// Container backend: warm exec against raw `podman exec`, sync cost, cold start (needs an engine)
    Container,
    /// Snapshots, diff, undo and forks (issue 37): O(1) snapshots, O(changes) diff
    History,
    /// WASI commands (wasi:filesystem, SQLite, ripgrep, cold start) against the same programs built natively
    Wasi,
    /// `computer serve`: exec 'echo hi' from 16 HTTP clients and the p99 of a 4 KiB read, against the library in-process
    Serve,
}

fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    let base = args.dir.clone().unwrap_or_else(|| {
        let shm = PathBuf::from("/dev/shm");
        if shm.is_dir() {
            shm
        } else {
            std::env::temp_dir()
        }
    });
    let rows = match args.suite {
        Suite::Fs => fs_bench::run(&base, args.quick)?,
        Suite::Exec => exec_bench::run(&base, args.quick)?,
        Suite::Shell => shell_bench::run(&base, args.quick)?,
        Suite::Durable => durable_bench::run(&base, args.quick)?,
        Suite::Inrun => inrun_bench::run(&base, args.quick)?,
        Suite::Container => container_bench::run(&base, args.quick)?,
        Suite::Git => git_bench::run(&base, args.quick)?,
        Suite::Python => python_bench::run(&base, args.quick)?,
        Suite::Node => node_bench::run(&base, args.quick)?,
        Suite::Wasi => wasi_bench::run(&base, args.quick)?,
        Suite::History => history_bench::run(&base, args.quick)?,
        Suite::Serve => serve_bench::run(&base, args.quick)?,
    };
    if args.json {
        println!("{}", serde_json::to_string_pretty(&rows)?);
    } else {
        report::markdown(&rows);
    }
    Ok(())
}
