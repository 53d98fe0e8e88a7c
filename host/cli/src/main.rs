//! `computer`: the command-line interface to a workspace.

mod args;
mod audit_cmd;
mod backends;
mod commands_cmd;
mod container_cmd;
mod diff_cmd;
mod durable_cmd;
mod error;
mod exec_cmd;
mod fork_cmd;
mod fs_cmd;
mod input;
mod mcp_calls;
mod mcp_cmd;
mod mcp_json;
mod mcp_jsonrpc;
mod mcp_progress;
mod mcp_stdio;
mod modules_cmd;
mod net_cmd;
mod output;
mod policy_cmd;
mod secrets_cmd;
mod serve_cmd;
mod signals;
mod snapshot_cmd;
mod tools_cmd;
mod transfer_cmd;
mod undo_cmd;
mod workspace_cmd;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Parser;

use args::{Cli, Command};
use error::CliResult;
use output::Out;

fn main() -> ExitCode {
    tracing_subscriber::fmt()
        .with_env_filter(tracing_subscriber::EnvFilter::from_env("COMPUTER_LOG"))
        .with_writer(std::io::stderr)
        .init();
    quiet_broken_pipe();
    let cli = Cli::parse();
    computer_store::set_actor("cli");
    // stdout belongs to the protocol under `mcp`: its errors go to stderr.
    let out = Out {
        json: cli.json && !matches!(cli.command, Command::Mcp { .. }),
    };
    match run(cli, out) {
        Ok(code) => code,
        Err(e) if e.is_broken_pipe() => ExitCode::from(141),
        Err(e) => {
            e.print(out.json);
            ExitCode::from(e.exit_code())
        }
    }
}

/// `computer audit | head` closes our stdout early: std's `println!` then
/// panics with a backtrace. End quietly instead, with the status a shell
/// reports for a process its pipe reader left (128 + SIGPIPE); the
/// workspace is SQLite, so an interrupted write transaction rolls back.
fn quiet_broken_pipe() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let text = info
            .payload()
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| info.payload().downcast_ref::<&str>().copied())
            .unwrap_or("");
        if text.starts_with("failed printing to stdout") && text.contains("Broken pipe") {
            std::process::exit(141);
        }
        default(info)
    }));
}

fn workspace_path(cli: &Cli) -> PathBuf {
    cli.workspace
        .clone()
        .unwrap_or_else(|| PathBuf::from(".computer/workspace.db"))
}

fn run(cli: Cli, out: Out) -> CliResult<ExitCode> {
    if let Command::Tools { format, tools } = &cli.command {
        tools_cmd::print(*format, tools)?;
        return Ok(ExitCode::SUCCESS);
    }
    if let Command::Serve(args) = &cli.command {
        return Ok(ExitCode::from(serve_cmd::run(args.clone(), out)?));
    }
    if let Command::Prepare = &cli.command {
        return Ok(ExitCode::from(backends::prepare(out)?));
    }
    let path = workspace_path(&cli);
    let ws = workspace_cmd::open(&path, &cli.command)?;
    let shown = path.display().to_string();
    match cli.command {
        Command::Init { quota } => workspace_cmd::init(&ws, &shown, quota.as_deref(), out)?,
        Command::Info => workspace_cmd::info(&ws, &shown, out)?,
        Command::Quota { size } => workspace_cmd::quota(&ws, size.as_deref(), out)?,
        Command::Fsck => return Ok(ExitCode::from(workspace_cmd::fsck(&ws, &shown, out)?)),
        Command::Fs(cmd) => return Ok(ExitCode::from(fs_cmd::run(&ws, cmd, out)?)),
        Command::Import { host_dir, ws_dir } => transfer_cmd::import(&ws, &host_dir, &ws_dir, out)?,
        Command::Export { ws_dir, host_dir } => transfer_cmd::export(&ws, &ws_dir, &host_dir, out)?,
        Command::Exec(args) => return Ok(ExitCode::from(exec_cmd::exec(ws, args, out)?)),
        Command::Run(args) => {
            return Ok(ExitCode::from(exec_cmd::exec(ws, args.into_exec(), out)?));
        }
        Command::Commands(cmd) => commands_cmd::run(&ws, cmd, out)?,
        Command::Runs { command, page } => exec_cmd::runs(&ws, command, page, out)?,
        Command::Audit {
            run,
            path,
            since,
            tools,
            page,
        } => audit_cmd::audit(&ws, run, path, since, tools, page, out)?,
        Command::Pending => durable_cmd::pending(&ws, out)?,
        Command::Respond {
            run,
            call,
            answer,
            reject,
        } => {
            return Ok(ExitCode::from(durable_cmd::respond(
                ws, &run, &call, answer, reject, out,
            )?));
        }
        Command::Recover => return Ok(ExitCode::from(durable_cmd::recover(ws, out)?)),
        Command::Modules(cmd) => modules_cmd::run(&ws, cmd, out)?,
        Command::Net(cmd) => net_cmd::run(&ws, cmd, out)?,
        Command::Snapshot(cmd) => snapshot_cmd::run(&ws, cmd, out)?,
        Command::Diff(args) => diff_cmd::diff(&ws, args, out)?,
        Command::Undo { run, force } => undo_cmd::undo(&ws, &run, force, out)?,
        Command::Gc { keep_runs } => undo_cmd::gc(&ws, keep_runs, out)?,
        Command::Fork {
            name,
            from,
            count,
            dir,
        } => fork_cmd::fork(&ws, &name, from.as_deref(), count, dir, out)?,
        Command::Forks => fork_cmd::list(&ws, out)?,
        Command::Secrets(cmd) => secrets_cmd::run(&ws, cmd, out)?,
        Command::Policy(cmd) => return Ok(ExitCode::from(policy_cmd::run(&ws, cmd, out)?)),
        Command::Container(cmd) => return Ok(ExitCode::from(container_cmd::run(&ws, cmd, out)?)),
        Command::Mcp {
            tools,
            recover,
            max_runs,
            host_memory,
        } => mcp_cmd::serve(ws, tools, (max_runs, host_memory), recover)?,
        Command::Tools { .. } | Command::Prepare | Command::Serve(_) => {
            unreachable!("handled above")
        }
    }
    Ok(ExitCode::SUCCESS)
}
