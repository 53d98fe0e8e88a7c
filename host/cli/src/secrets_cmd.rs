//! `computer secrets`: values the host attaches to outgoing requests
//! (`computer net allow HOST --header 'Authorization: Bearer {secret:NAME}'`)
//! and that no run ever sees. Encrypted at rest (`computer_store::Secrets`);
//! never printed back.

use std::io::Read;

use clap::Subcommand;
use computer_store::{MAX_SECRET, Workspace};
use serde_json::json;
use zeroize::Zeroizing;

use crate::error::{CliError, CliResult};
use crate::output::{Out, time_string};

#[derive(Subcommand, Debug)]
pub enum SecretsCommand {
    /// Set NAME to the value read from stdin (one trailing newline dropped); it is encrypted with a key the host holds (COMPUTER_SECRETS_KEY, or WORKSPACE.secrets-key beside the workspace, mode 0600) and never printed
    Set {
        /// Letters, digits and _ (not first a digit)
        name: String,
    },
    /// List the secrets' names (never their values)
    Ls,
    /// Remove secrets
    Rm {
        /// Names, as `computer secrets ls` shows them
        #[arg(value_name = "NAME", required = true)]
        names: Vec<String>,
    },
}

/// Reads the value from stdin, bounded, without its final line break.
fn read_value() -> CliResult<Zeroizing<Vec<u8>>> {
    let mut buf = Zeroizing::new(Vec::new());
    std::io::stdin()
        .take(MAX_SECRET as u64 + 3)
        .read_to_end(&mut buf)
        .map_err(|e| CliError::invalid(format!("cannot read the secret from stdin: {e}")))?;
    if buf.ends_with(b"\n") {
        buf.pop();
        if buf.ends_with(b"\r") {
            buf.pop();
        }
    }
    Ok(buf)
}

pub fn run(ws: &Workspace, cmd: SecretsCommand, out: Out) -> CliResult {
    match cmd {
        SecretsCommand::Set { name } => {
            computer_store::validate_secret_name(&name).map_err(CliError::invalid)?;
            let value = read_value()?;
            let added = ws.secrets().set(&name, &value)?;
            out.emit(json!({ "name": name, "added": added }), || {
                if added {
                    println!("set secret {name}");
                } else {
                    println!("replaced secret {name}");
                }
            });
        }
        SecretsCommand::Ls => {
            let list = ws.secrets().list()?;
            out.emit(json!({ "secrets": list }), || {
                if list.is_empty() {
                    println!("no secrets (computer secrets set NAME < value)");
                }
                for s in &list {
                    println!("{}\t{}", s.name, time_string(s.updated_ns.max(0) as u64));
                }
            });
        }
        SecretsCommand::Rm { names } => {
            for n in &names {
                ws.secrets().remove(n)?;
            }
            out.emit(json!({ "removed": names }), || {
                for n in &names {
                    println!("removed secret {n}");
                }
            });
        }
    }
    Ok(())
}
