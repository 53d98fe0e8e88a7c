//! `computer container stop|status`.

use clap::Subcommand;
use computer_store::Workspace;
use serde_json::json;

use crate::error::{CliError, CliResult};
use crate::output::{Out, counted};

#[derive(Subcommand, Debug)]
pub enum ContainerCommand {
    /// Remove this workspace's container (stopping what runs in it) and its synced copy
    Stop,
    /// The engine, this workspace's container and its synced copy
    Status,
}

pub fn run(ws: &Workspace, command: ContainerCommand, out: Out) -> CliResult<u8> {
    let backend = crate::backends::container_backend()?;
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
                    "synced copy: {} ({}, rev {})",
                    status.copy_dir,
                    counted(status.synced_entries as u64, "entry", "entries"),
                    status.synced_rev.map_or("-".to_owned(), |r| r.to_string())
                );
            });
        }
    }
    Ok(0)
}
