//! `computer commands`: command components (`wasi:cli/command` programs)
//! stored in the workspace, which shell scripts call by name and
//! `computer run` runs directly. `ls` also shows the binary's own.

use std::path::{Path, PathBuf};

use clap::Subcommand;
use computer_runtime::{CommandListing, CommandOrigin, RuntimeConfig};
use computer_store::{CommandInfo, NewCommand, Workspace};
use serde_json::{Value, json};

use crate::error::{CliError, CliResult};
use crate::output::{Out, counted, time_string};

#[derive(Subcommand, Debug)]
pub enum CommandsCommand {
    /// Store a command component under NAME (it is compiled first, to check it); replaces one of that name
    Add {
        /// What scripts type to run it (`rg`)
        name: String,
        /// The component (.wasm) of the wasi:cli/command world, e.g. built with `cargo build --target wasm32-wasip2`
        path: PathBuf,
        /// A host directory it sees read-only at GUEST_PATH (repeatable), e.g. its runtime files
        #[arg(long = "mount", value_name = "GUEST_PATH=HOST_DIR")]
        mounts: Vec<String>,
        /// One line on what it does (shown by `commands ls` and to agents)
        #[arg(long)]
        description: Option<String>,
    },
    /// List the commands runs can call: the workspace's and the binary's
    Ls,
    /// Remove a command stored in the workspace
    Rm {
        /// The command's name
        name: String,
    },
}

pub fn run(ws: &Workspace, cmd: CommandsCommand, out: Out) -> CliResult {
    match cmd {
        CommandsCommand::Add {
            name,
            path,
            mounts,
            description,
        } => add(ws, &name, &path, &mounts, description, out),
        CommandsCommand::Ls => ls(ws, out),
        CommandsCommand::Rm { name } => {
            ws.commands().remove(&name)?;
            out.emit(json!({"removed": name}), || println!("removed {name}"));
            Ok(())
        }
    }
}

fn parse_mounts(mounts: &[String]) -> CliResult<Vec<(String, String)>> {
    mounts
        .iter()
        .map(|m| {
            let Some((guest, host)) = m.split_once('=') else {
                return Err(CliError::invalid(format!(
                    "invalid --mount {m:?}: expected GUEST_PATH=HOST_DIR"
                )));
            };
            if !guest.starts_with('/') || guest == "/" {
                return Err(CliError::invalid(format!(
                    "invalid --mount {m:?}: the guest path must be absolute and not /"
                )));
            }
            let dir = Path::new(host)
                .canonicalize()
                .map_err(|e| CliError::invalid(format!("invalid --mount {m:?}: {host}: {e}")))?;
            if !dir.is_dir() {
                return Err(CliError::invalid(format!(
                    "invalid --mount {m:?}: {host} is not a directory"
                )));
            }
            Ok((
                guest.trim_end_matches('/').to_owned(),
                dir.display().to_string(),
            ))
        })
        .collect()
}

fn add(
    ws: &Workspace,
    name: &str,
    path: &Path,
    mounts: &[String],
    description: Option<String>,
    out: Out,
) -> CliResult {
    computer_store::validate_command_name(name)?;
    let mounts = parse_mounts(mounts)?;
    let bytes = crate::input::read_component(path)?;
    // Compile it now (into the cache), so a component that is not a command
    // is refused here rather than at its first call.
    let (runtime, _) = crate::backends::runtime(RuntimeConfig::default(), false)?;
    runtime.check_command(name, &bytes)?;
    let description = description.unwrap_or_else(|| format!("the {name} command"));
    let replaced = ws.commands().add(&NewCommand {
        name,
        component: &bytes,
        description: &description,
        mounts: &mounts,
    })?;
    let info = ws.commands().get(name)?.ok_or_else(|| CliError {
        code: "EIO".into(),
        message: format!("{name} was stored but cannot be read back"),
    })?;
    out.emit(
        json!({"added": name, "replaced": replaced, "command": info_json(&info)}),
        || {
            let verb = if replaced { "replaced" } else { "added" };
            println!(
                "{verb} {name} ({})",
                counted(bytes.len() as u64, "byte", "bytes")
            );
        },
    );
    Ok(())
}

fn info_json(c: &CommandInfo) -> Value {
    json!({
        "name": c.name,
        "description": c.description,
        "origin": CommandOrigin::Workspace,
        "sha256": c.sha256,
        "size": c.size,
        "mounts": c.mounts.iter().map(|(g, h)| json!({"guest_path": g, "host_dir": h})).collect::<Vec<_>>(),
        "added_ns": c.added_ns,
        "added": time_string(c.added_ns.max(0) as u64),
    })
}

fn listing_json(ws: &Workspace, c: &CommandListing) -> CliResult<Value> {
    if c.origin == CommandOrigin::Workspace
        && let Some(info) = ws.commands().get(&c.name)?
    {
        return Ok(info_json(&info));
    }
    Ok(json!({"name": c.name, "description": c.description, "origin": c.origin}))
}

fn ls(ws: &Workspace, out: Out) -> CliResult {
    let (runtime, _) = crate::backends::runtime(RuntimeConfig::default(), false)?;
    let all = runtime.commands(ws)?;
    let shown = all
        .iter()
        .map(|c| listing_json(ws, c))
        .collect::<CliResult<Vec<_>>>()?;
    out.emit(json!({"commands": shown}), || {
        if all.is_empty() {
            println!("no commands (add one with `computer commands add NAME PATH.wasm`)");
        }
        let width = all.iter().map(|c| c.name.len()).max().unwrap_or(0);
        for c in &all {
            let origin = match c.origin {
                CommandOrigin::Workspace => "workspace",
                CommandOrigin::Runtime => "built-in",
            };
            println!("{:width$}  {origin:9}  {}", c.name, c.description);
        }
    });
    Ok(())
}
