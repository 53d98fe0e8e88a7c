//! `computer exec --backend container|auto` and `computer container stop|status`.

use std::sync::Arc;

use clap::Subcommand;
use computer_container::{
    AUTO_BACKEND, CONTAINER_BACKEND, ContainerBackend, ContainerConfig, ContainerError,
    ContainerExecOptions, ExecResult,
};
use computer_runtime::{ExecOptions, Runtime};
use computer_store::Workspace;
use serde_json::json;

use crate::args::ExecArgs;
use crate::error::{CliError, CliResult};
use crate::output::Out;

#[derive(Subcommand, Debug)]
pub enum ContainerCommand {
    /// Remove this workspace's container (stopping what runs in it) and its synced copy
    Stop,
    /// The engine, this workspace's container and its synced copy
    Status,
}

impl From<ContainerError> for CliError {
    fn from(e: ContainerError) -> Self {
        let code = match &e {
            ContainerError::Workspace(fs) => fs.code.as_str(),
            ContainerError::InvalidOption(_) => "EINVAL",
            _ => "EIO",
        };
        CliError {
            code: code.to_owned(),
            message: e.to_string(),
        }
    }
}

/// The backend as configured by `COMPUTER_CONTAINER_*`, `--image` and `--memory`;
/// image pulls report their progress on stderr.
fn backend(image: Option<&str>, memory_mib: Option<u64>) -> CliResult<ContainerBackend> {
    let mut config = ContainerConfig::from_env()?;
    if let Some(image) = image {
        config.image = image.to_owned();
    }
    if let Some(mib) = memory_mib {
        config.memory_bytes = mib << 20;
    }
    Ok(ContainerBackend::new(config)?.with_progress(|line| eprintln!("computer: {line}")))
}

/// Runs `exec` on the container or auto backend; `None` for any other backend.
pub fn exec(
    runtime: &Runtime,
    ws: &Arc<Workspace>,
    source: &str,
    options: &ExecOptions,
    args: &ExecArgs,
    out: Out,
) -> CliResult<Option<u8>> {
    let name = args.backend.as_str();
    if name != CONTAINER_BACKEND && name != AUTO_BACKEND {
        return Ok(None);
    }
    let limits = options.limits.clone().unwrap_or_default();
    let container_options = ContainerExecOptions {
        cwd: options.cwd.clone(),
        env: options.env.clone(),
        args: options.args.clone(),
        stdin: options.stdin.clone(),
        timeout: limits.timeout,
        stdout_bytes: limits.stdout_bytes,
        stderr_bytes: limits.stderr_bytes,
        id: options.id.clone(),
        image: None,
    };
    let backend = backend(args.image.as_deref(), args.memory)?;
    let result = if name == CONTAINER_BACKEND {
        let run = match backend.exec(ws.clone(), source, container_options) {
            Ok(run) => run,
            // No run happened: say why, with the engine exit code (125).
            Err(e) if e.exit_code() != 1 => {
                CliError::from(e).print(out.json);
                return Ok(Some(computer_container::EXIT_ENGINE as u8));
            }
            Err(e) => return Err(e.into()),
        };
        crate::exec_cmd::stream(out, || run.next_event());
        run.wait()
    } else {
        let run = computer_container::auto_exec(
            runtime,
            Some(&backend),
            ws.clone(),
            source,
            options.clone(),
            container_options,
        )?;
        crate::exec_cmd::stream(out, || run.next_event());
        run.wait()
    };
    Ok(Some(report(&result, out)))
}

/// Prints the result under `--json`; returns the process exit code.
fn report(result: &ExecResult, out: Out) -> u8 {
    if out.json {
        println!("{}", json!(result));
    }
    let code = result.exit_code;
    let wrapped = code.rem_euclid(256) as u8;
    if code != 0 && wrapped == 0 {
        1
    } else {
        wrapped
    }
}

pub fn run(ws: &Workspace, command: ContainerCommand, out: Out) -> CliResult<u8> {
    let backend = backend(None, None)?;
    match command {
        ContainerCommand::Stop => {
            let report = match backend.stop(ws) {
                Ok(r) => r,
                Err(e) if e.exit_code() != 1 => {
                    CliError::from(e).print(out.json);
                    return Ok(computer_container::EXIT_ENGINE as u8);
                }
                Err(e) => return Err(e.into()),
            };
            out.emit(json!(report), || {
                if report.removed {
                    println!("removed container {}", report.container);
                } else {
                    println!("no container {} was running", report.container);
                }
                if report.copy_removed {
                    println!("deleted the synced copy");
                }
            });
        }
        ContainerCommand::Status => {
            let status = backend.status(ws);
            out.emit(json!(status), || {
                match (&status.engine, &status.engine_error) {
                    (Some(addr), None) => println!("engine: {addr}"),
                    (_, Some(err)) => println!("engine: unavailable: {err}"),
                    (None, None) => println!("engine: none"),
                }
                match &status.container {
                    Some(c) => println!(
                        "container: {} ({}, image {})",
                        c.name,
                        c.state.as_deref().unwrap_or("unknown"),
                        c.image.as_deref().unwrap_or("?")
                    ),
                    None => println!("container: {} (not running)", status.name),
                }
                println!("image: {}", status.image);
                println!("idle timeout: {}s", status.idle_timeout_secs);
                println!(
                    "synced copy: {} ({} entries, rev {})",
                    status.copy_dir,
                    status.synced_entries,
                    status.synced_rev.map_or("-".to_owned(), |r| r.to_string())
                );
            });
        }
    }
    Ok(0)
}
