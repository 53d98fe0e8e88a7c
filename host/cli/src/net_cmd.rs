//! `computer net`: the workspace's network allow-list, the hosts `curl`,
//! `wget` and module components may reach over HTTP. With no entries a
//! workspace has no network.

use clap::Subcommand;
use computer_store::Workspace;
use serde_json::json;

use crate::error::CliResult;
use crate::output::{Out, time_string};

#[derive(Subcommand, Debug)]
pub enum NetCommand {
    // The help texts are attributes, not doc comments: rustdoc would read
    // `[:PORT]` and `[::1]` as links.
    #[command(
        about = "Allow HTTP to HOST[:PORT] (any port without one); *.example.com allows its subdomains, * every host but this machine and private networks (name those)"
    )]
    Allow {
        #[arg(
            value_name = "HOST[:PORT]",
            required = true,
            help = "e.g. api.github.com, 127.0.0.1:8080, [::1]:9000, *.example.com"
        )]
        entries: Vec<String>,
    },
    /// List the allowed hosts
    Ls,
    /// Remove entries, written as they were allowed
    Deny {
        /// Entries to remove, as `computer net ls` shows them
        #[arg(value_name = "HOST[:PORT]", required = true)]
        entries: Vec<String>,
    },
}

pub fn run(ws: &Workspace, cmd: NetCommand, out: Out) -> CliResult {
    match cmd {
        NetCommand::Allow { entries } => {
            // Check them all before storing any, so a typo stores nothing.
            for e in &entries {
                computer_store::NetEntry::parse(e).map_err(crate::error::CliError::invalid)?;
            }
            let mut done = Vec::new();
            for e in &entries {
                let (entry, added) = ws.net().allow(e)?;
                done.push(json!({"entry": entry, "added": added}));
                if !out.json {
                    if added {
                        println!("allowed {entry}");
                    } else {
                        println!("{entry} was already allowed");
                    }
                }
            }
            if out.json {
                println!("{}", json!({ "allowed": done }));
            }
        }
        NetCommand::Ls => {
            let rules = ws.net().list()?;
            out.emit(json!({ "allowed": rules }), || {
                if rules.is_empty() {
                    println!("no hosts allowed: commands and modules have no network (computer net allow HOST)");
                }
                for r in &rules {
                    println!("{}\t{}", r.entry, time_string(r.added_ns.max(0) as u64));
                }
            });
        }
        NetCommand::Deny { entries } => {
            let mut removed = Vec::new();
            for e in &entries {
                removed.push(ws.net().deny(e)?);
            }
            out.emit(json!({ "denied": removed }), || {
                for e in &removed {
                    println!("denied {e}");
                }
            });
        }
    }
    Ok(())
}
