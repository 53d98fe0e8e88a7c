//! `computer net`: the workspace's network allow-list, the hosts `curl`,
//! `wget` and module components may reach over HTTP. With no entries a
//! workspace has no network.

use clap::Subcommand;
use computer_store::{Credential, CredentialKind, Workspace};
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
        /// Attach a header to every request to these hosts, set by the host outside the sandbox, e.g. 'Authorization: Bearer {secret:TOKEN}' (computer secrets set TOKEN); replaces the run's own
        #[arg(long = "header", value_name = "'NAME: VALUE'")]
        headers: Vec<String>,
        /// Attach a query parameter, e.g. 'api_key={secret:KEY}'; replaces the run's own
        #[arg(long = "query", value_name = "KEY=VALUE")]
        queries: Vec<String>,
        /// Attach basic auth, e.g. 'me:{secret:PASSWORD}'
        #[arg(long = "basic", value_name = "USER:PASSWORD")]
        basic: Option<String>,
    },
    /// List the allowed hosts and the credentials attached to them (secret names, never values)
    Ls,
    /// Remove entries, written as they were allowed
    Deny {
        /// Entries to remove, as `computer net ls` shows them
        #[arg(value_name = "HOST[:PORT]", required = true)]
        entries: Vec<String>,
    },
}

/// The credential flags of `net allow`, checked: (kind, name, template).
fn credential_specs(
    headers: &[String],
    queries: &[String],
    basic: Option<&str>,
) -> crate::error::CliResult<Vec<(CredentialKind, String, String)>> {
    let invalid = crate::error::CliError::invalid;
    let mut out = Vec::new();
    for h in headers {
        let (n, t) = Credential::header(h).map_err(invalid)?;
        out.push((CredentialKind::Header, n, t));
    }
    for q in queries {
        let (n, t) = Credential::query(q).map_err(invalid)?;
        out.push((CredentialKind::Query, n, t));
    }
    if let Some(b) = basic {
        let (n, t) = Credential::basic(b).map_err(invalid)?;
        out.push((CredentialKind::Basic, n, t));
    }
    Ok(out)
}

fn describe(kind: CredentialKind, name: &str) -> String {
    match kind {
        CredentialKind::Basic => "basic auth".to_owned(),
        k => format!("{} {name}", k.as_str()),
    }
}

pub fn run(ws: &Workspace, cmd: NetCommand, out: Out) -> CliResult {
    match cmd {
        NetCommand::Allow {
            entries,
            headers,
            queries,
            basic,
        } => {
            // Check them all before storing any, so a typo stores nothing.
            for e in &entries {
                computer_store::NetEntry::parse(e).map_err(crate::error::CliError::invalid)?;
            }
            let credentials = credential_specs(&headers, &queries, basic.as_deref())?;
            if !credentials.is_empty() {
                for e in &entries {
                    if e.trim_start().starts_with('*') {
                        return Err(crate::error::CliError::invalid(format!(
                            "credentials go to one named host, not {e}: name the host (and port)"
                        )));
                    }
                }
                for (_, _, template) in &credentials {
                    for name in computer_store::secret_names(template)
                        .map_err(crate::error::CliError::invalid)?
                    {
                        if !ws.secrets().contains(&name)? {
                            return Err(crate::error::CliError::invalid(format!(
                                "secret {name} is not set; set it first with: computer secrets set {name}"
                            )));
                        }
                    }
                }
            }
            let mut done = Vec::new();
            for e in &entries {
                let (entry, added) = ws.net().allow(e)?;
                let mut attached = Vec::new();
                for (kind, name, template) in &credentials {
                    ws.net().attach(&entry, *kind, name, template)?;
                    attached.push(describe(*kind, name));
                }
                done.push(json!({"entry": entry, "added": added, "credentials": attached}));
                if !out.json {
                    if added {
                        println!("allowed {entry}");
                    } else {
                        println!("{entry} was already allowed");
                    }
                    for a in &attached {
                        println!("  attaches {a}");
                    }
                }
            }
            if out.json {
                println!("{}", json!({ "allowed": done }));
            }
        }
        NetCommand::Ls => {
            let rules = ws.net().list()?;
            let creds = ws.net().credentials()?;
            out.emit(json!({ "allowed": rules, "credentials": creds }), || {
                if rules.is_empty() {
                    println!("no hosts allowed: commands and modules have no network (computer net allow HOST)");
                }
                for r in &rules {
                    println!("{}\t{}", r.entry, time_string(r.added_ns.max(0) as u64));
                    for c in creds.iter().filter(|c| c.entry == r.entry) {
                        println!("  attaches {}: {}", describe(c.kind, &c.name), c.template);
                    }
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
