//! `computer policy`: the workspace's policy file (TOML; see
//! `computer_store::Policy`): path rules, command rules, per-backend limits
//! and network rules, checked before every exec and every change by every
//! handle that opens the workspace (CLI, `computer mcp`, the library).

use std::path::PathBuf;

use clap::Subcommand;
use computer_store::Workspace;
use serde_json::json;

use crate::error::{CliError, CliResult};
use crate::output::Out;

#[derive(Subcommand, Debug)]
pub enum PolicyCommand {
    /// Set the policy from a TOML file (- for stdin): tables `[[paths]]` (glob, access = "deny" or "read-only"), `[[commands]]` (name or pattern, e.g. "rm -rf /"), `[limits.BACKEND]` (timeout_ms, memory_mb, read_only) and `[network]` (deny = a list of hosts)
    Set {
        /// The policy file
        #[arg(value_name = "FILE|-")]
        file: PathBuf,
    },
    /// Print the policy as it was set
    Show,
    /// Remove the policy
    Rm,
    /// Say what the policy's command rules would deny in SCRIPT (a shell script), without running it
    Check {
        /// The script, as exec would get it
        #[arg(value_name = "SCRIPT")]
        script: String,
    },
}

/// Runs a `policy` command; the exit code (1: `check` found a denial).
pub fn run(ws: &Workspace, cmd: PolicyCommand, out: Out) -> CliResult<u8> {
    match cmd {
        PolicyCommand::Set { file } => {
            let text = if file.as_os_str() == "-" {
                let mut s = String::new();
                std::io::Read::read_to_string(&mut std::io::stdin().take_limit(), &mut s)
                    .map_err(|e| CliError::invalid(format!("cannot read the policy: {e}")))?;
                s
            } else {
                std::fs::read_to_string(&file).map_err(|e| {
                    CliError::invalid(format!("cannot read {}: {e}", file.display()))
                })?
            };
            let policy = ws.set_policy(&text)?;
            let spec = policy.spec();
            let summary = json!({
                "paths": spec.paths.len(),
                "commands": spec.commands.len(),
                "limits": spec.limits.len(),
                "network_deny": spec.network.deny.len(),
            });
            out.emit(json!({ "policy": summary }), || {
                println!(
                    "policy set: {} path rules, {} command rules, limits for {} backends, {} denied hosts",
                    spec.paths.len(),
                    spec.commands.len(),
                    spec.limits.len(),
                    spec.network.deny.len()
                );
            });
        }
        PolicyCommand::Show => {
            let text = ws.policy_text()?;
            out.emit(json!({ "policy": text }), || match &text {
                Some(t) => print!("{t}"),
                None => println!(
                    "no policy: every exec and change is allowed (computer policy set FILE)"
                ),
            });
        }
        PolicyCommand::Rm => {
            let had = ws.clear_policy()?;
            out.emit(json!({ "removed": had }), || {
                println!(
                    "{}",
                    if had {
                        "policy removed"
                    } else {
                        "there was no policy"
                    }
                );
            });
        }
        PolicyCommand::Check { script } => {
            let Some(policy) = ws.policy() else {
                out.emit(json!({ "denied": [] }), || {
                    println!("no policy: nothing is denied");
                });
                return Ok(0);
            };
            let denied = policy.check_script(&script);
            let list: Vec<_> = denied
                .iter()
                .map(|(cmd, why)| json!({ "command": cmd, "reason": why }))
                .collect();
            out.emit(json!({ "denied": list }), || {
                if denied.is_empty() {
                    println!("allowed: no command rule denies this script");
                }
                for (cmd, why) in &denied {
                    println!("denied: {cmd}: {why}");
                }
            });
            return Ok(if denied.is_empty() { 0 } else { 1 });
        }
    }
    Ok(0)
}

/// Stdin, at most 1 MiB (a policy file is small).
trait TakeLimit {
    fn take_limit(self) -> std::io::Take<std::io::Stdin>;
}

impl TakeLimit for std::io::Stdin {
    fn take_limit(self) -> std::io::Take<std::io::Stdin> {
        std::io::Read::take(self, 1 << 20)
    }
}
