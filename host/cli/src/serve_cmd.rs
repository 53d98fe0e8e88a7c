//! `computer serve`: the HTTP server of `computer-server` over a data
//! directory, with the CLI's backends; and `computer serve token ...`.

use std::net::SocketAddr;
use std::sync::Arc;

use computer_runtime::RuntimeConfig;
use computer_server::{Rights, Server, ServerConfig, TokenStore};
use serde_json::json;

use crate::args::{ServeArgs, ServeCommand, TokenCommand, ToolSetArgs};
use crate::error::{CliError, CliResult};
use crate::output::{Out, time_string};

pub fn run(args: ServeArgs, out: Out) -> CliResult<u8> {
    match args.command {
        Some(ServeCommand::Token(cmd)) => token(&args.data, cmd, out).map(|()| 0),
        None => serve(args),
    }
}

fn token(data: &std::path::Path, cmd: TokenCommand, out: Out) -> CliResult {
    let store = TokenStore::open(data)?;
    match cmd {
        TokenCommand::Create {
            name,
            workspace,
            rights,
        } => {
            let rights = Rights::parse(&rights).map_err(CliError::invalid)?;
            let secret = store.create(&name, workspace.as_deref(), rights)?;
            let shown = if workspace.is_some() {
                rights.as_text()
            } else {
                Rights::ALL.as_text()
            };
            out.emit(
                json!({"name": name, "workspace": workspace, "rights": shown, "token": secret}),
                || println!("{secret}"),
            );
        }
        TokenCommand::Ls => {
            let tokens = store.list()?;
            out.emit(json!({ "tokens": tokens }), || {
                for t in &tokens {
                    println!(
                        "{:<24} {:<16} {:<20} made {}",
                        t.name,
                        t.workspace.as_deref().unwrap_or("(admin)"),
                        t.rights,
                        time_string(t.created_ns.max(0) as u64)
                    );
                }
            });
        }
        TokenCommand::Revoke { name } => {
            if !store.revoke(&name)? {
                return Err(CliError {
                    code: "ENOENT".into(),
                    message: format!("no token named {name:?}"),
                });
            }
            out.emit(json!({"name": name, "revoked": true}), || {});
        }
    }
    Ok(())
}

fn serve(args: ServeArgs) -> CliResult<u8> {
    let addr: SocketAddr = args.listen.parse().map_err(|_| {
        CliError::invalid(format!(
            "invalid --listen {:?}: give IP:PORT, like 127.0.0.1:8080",
            args.listen
        ))
    })?;
    if args.insecure_no_auth && !addr.ip().is_loopback() {
        return Err(CliError::invalid(format!(
            "--insecure-no-auth serves anyone who can connect: it is allowed on a loopback address only, not {addr}"
        )));
    }
    if args.max_runs == 0 {
        return Err(CliError::invalid(
            "invalid --max-runs 0: give how many execs may run at once, 1 or more",
        ));
    }
    let tool_args = ToolSetArgs {
        readonly: false,
        backends: args.backends.clone(),
        max_memory: args.max_memory,
    };
    crate::tools_cmd::check_backends(&tool_args)?;
    let max_runs = args.max_runs;
    let factory_args = tool_args.clone();
    let factory: computer_server::RuntimeFactory = Arc::new(move |ws| {
        let config = RuntimeConfig {
            max_concurrent_runs: max_runs,
            ..RuntimeConfig::default()
        };
        crate::tools_cmd::runtime_for(&factory_args, ws, config)
            .map_err(|e| anyhow::anyhow!("{}: {}", e.code, e.message))?
            .ok_or_else(|| anyhow::anyhow!("no runtime for a read-only tool set"))
    });
    let server = Server::new(ServerConfig {
        data_dir: args.data.clone(),
        runtime: factory,
        no_auth: args.insecure_no_auth,
        max_body_bytes: args.max_body,
        rate_limit: args.rate_limit,
        backends: args.backends.clone(),
        max_memory_mb: args.max_memory,
    })?;
    if !args.insecure_no_auth && server.tokens.list()?.is_empty() {
        eprintln!(
            "computer serve: no tokens yet; make an admin token with: computer serve token create admin --data {}",
            args.data.display()
        );
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(addr).await?;
        let bound = listener.local_addr()?;
        // One line a supervisor (or a test) can wait for.
        eprintln!("computer serve: listening on http://{bound}");
        computer_server::serve(server, listener, shutdown_signal()).await
    })?;
    eprintln!("computer serve: stopped");
    Ok(0)
}

/// SIGTERM or SIGINT.
async fn shutdown_signal() {
    let mut term = match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
        Ok(s) => s,
        Err(e) => {
            tracing::error!("cannot watch SIGTERM: {e}");
            let _ = tokio::signal::ctrl_c().await;
            return;
        }
    };
    tokio::select! {
        _ = term.recv() => {}
        _ = tokio::signal::ctrl_c() => {}
    }
}
