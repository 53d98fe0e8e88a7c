//! `computer modules`: module components (`ws:NAME`) stored in the
//! workspace. Every runtime the CLI starts on the workspace (`exec`, `mcp`)
//! loads them, so agent code can `import { postComment } from "ws:github"`.

use std::path::{Path, PathBuf};

use clap::Subcommand;
use computer_runtime::{ComponentModule, Runtime, RuntimeConfig};
use computer_store::{NewModule, Workspace};
use serde_json::{Value, json};

use crate::error::{CliError, CliResult};
use crate::output::{Out, counted, time_string};

#[derive(Subcommand, Debug)]
pub enum ModulesCommand {
    /// Store a module component as ws:NAME (it is loaded first, to check it); replaces one of that name
    Add {
        /// The module's name, ws:NAME
        name: String,
        /// The component (.wasm) of the `module` world
        path: PathBuf,
        /// A setting the module reads with call-context.config (repeatable, in order)
        #[arg(long = "config", value_name = "K=V")]
        config: Vec<String>,
        /// A host its HTTP requests may reach: HOST (any port) or HOST:PORT (repeatable); none means no network
        #[arg(long = "allow-host", value_name = "HOST[:PORT]")]
        allow_hosts: Vec<String>,
    },
    /// List the stored module components and their functions
    Ls,
    /// Remove a stored module component
    Rm {
        /// The module's name, ws:NAME
        name: String,
    },
}

pub fn run(ws: &Workspace, cmd: ModulesCommand, out: Out) -> CliResult {
    match cmd {
        ModulesCommand::Add {
            name,
            path,
            config,
            allow_hosts,
        } => add(ws, &name, &path, &config, allow_hosts, out),
        ModulesCommand::Ls => ls(ws, out),
        ModulesCommand::Rm { name } => {
            ws.modules().remove(&name)?;
            out.emit(json!({"removed": name}), || println!("removed {name}"));
            Ok(())
        }
    }
}

fn parse_config(pairs: &[String]) -> CliResult<Vec<(String, String)>> {
    pairs
        .iter()
        .map(|kv| match kv.split_once('=') {
            Some((k, v)) if !k.is_empty() => Ok((k.to_owned(), v.to_owned())),
            _ => Err(CliError::invalid(format!(
                "invalid --config {kv:?}: expected KEY=VALUE"
            ))),
        })
        .collect()
}

fn add(
    ws: &Workspace,
    name: &str,
    path: &Path,
    config: &[String],
    allow_hosts: Vec<String>,
    out: Out,
) -> CliResult {
    computer_store::validate_module_name(name)?;
    let config = parse_config(config)?;
    let bytes = crate::input::read_component(path)?;
    // Load it now, so a broken component is refused here rather than
    // breaking every later `exec`.
    let runtime = Runtime::new(RuntimeConfig::default())?;
    let module =
        ComponentModule::load(&runtime, name, &bytes, config.clone(), allow_hosts.clone())?;
    let functions = functions_json(&module);
    let replaced = ws.modules().add(&NewModule {
        name,
        component: &bytes,
        config: &config,
        allow_hosts: &allow_hosts,
        functions: functions.clone(),
    })?;
    let record = ws.modules().get(name)?.ok_or_else(|| CliError {
        code: "EIO".into(),
        message: format!("{name} was stored but cannot be read back"),
    })?;
    out.emit(
        json!({"added": name, "replaced": replaced, "module": record_json(&record)}),
        || {
            let verb = if replaced { "replaced" } else { "added" };
            println!(
                "{verb} {name} ({}, {})",
                module.interface(),
                counted(bytes.len() as u64, "byte", "bytes")
            );
            print_functions(&functions);
        },
    );
    Ok(())
}

fn functions_json(module: &ComponentModule) -> Value {
    use computer_runtime::HostModule;
    Value::Array(
        module
            .functions()
            .into_iter()
            .map(|f| {
                json!({
                    "name": f.name,
                    "params": f.params.iter().map(|p| json!({"name": p.name, "type": p.type_desc})).collect::<Vec<_>>(),
                    "result": f.result,
                    "docs": f.docs,
                })
            })
            .collect(),
    )
}

/// Settings whose names look like secrets are shown as `***`.
fn shown_config(config: &[(String, String)]) -> Vec<(String, String)> {
    const SECRET: &[&str] = &["TOKEN", "SECRET", "PASSWORD", "KEY", "AUTH", "CREDENTIAL"];
    config
        .iter()
        .map(|(k, v)| {
            let upper = k.to_ascii_uppercase();
            if SECRET.iter().any(|s| upper.contains(s)) {
                (k.clone(), "***".to_owned())
            } else {
                (k.clone(), v.clone())
            }
        })
        .collect()
}

fn record_json(m: &computer_store::ModuleRecord) -> Value {
    json!({
        "name": m.name,
        "sha256": m.sha256,
        "size": m.size,
        "config": shown_config(&m.config),
        "allow_hosts": m.allow_hosts,
        "functions": m.functions,
        "added_ns": m.added_ns,
        "added": time_string(m.added_ns.max(0) as u64),
    })
}

fn print_functions(functions: &Value) {
    for f in functions.as_array().into_iter().flatten() {
        let params: Vec<String> = f["params"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|p| {
                format!(
                    "{}: {}",
                    p["name"].as_str().unwrap_or("?"),
                    p["type"].as_str().unwrap_or("?")
                )
            })
            .collect();
        let result = match f["result"].as_str() {
            Some(r) => format!(" -> {r}"),
            None => String::new(),
        };
        println!(
            "  {}: func({}){result}",
            f["name"].as_str().unwrap_or("?"),
            params.join(", ")
        );
    }
}

fn ls(ws: &Workspace, out: Out) -> CliResult {
    let modules = ws.modules().list()?;
    out.emit(
        json!({"modules": modules.iter().map(record_json).collect::<Vec<_>>()}),
        || {
            for m in &modules {
                let config: Vec<String> = shown_config(&m.config)
                    .iter()
                    .map(|(k, v)| format!("{k}={v}"))
                    .collect();
                let hosts = if m.allow_hosts.is_empty() {
                    "none".to_owned()
                } else {
                    m.allow_hosts.join(", ")
                };
                println!(
                    "{}  sha256:{}  {}  added {}",
                    m.name,
                    &m.sha256[..m.sha256.len().min(12)],
                    counted(m.size, "byte", "bytes"),
                    time_string(m.added_ns.max(0) as u64)
                );
                if !config.is_empty() {
                    println!("  config: {}", config.join(" "));
                }
                println!("  allowed hosts: {hosts}");
                print_functions(&m.functions);
            }
        },
    );
    Ok(())
}
