//! `computer pending`, `computer respond` and `computer recover`: the
//! approval gates and crash recovery of durable runs.

use std::sync::Arc;

use computer_runtime::{Answer, Recovered, Runtime, RuntimeConfig};
use computer_store::Workspace;
use serde_json::{Value, json};

use crate::error::{CliError, CliResult};
use crate::exec_cmd::follow;
use crate::output::{Out, time_string};
use crate::signals::Interrupts;

/// The runtime that resumes runs: the built-in guests and the modules
/// registered in the workspace, as `exec` has them (and the container
/// backends, whose runs are failed, not replayed, when their process died).
fn runtime(ws: &Workspace) -> CliResult<Runtime> {
    let (runtime, _) = crate::backends::runtime(RuntimeConfig::default(), true)?;
    runtime.register_workspace_modules(ws)?;
    Ok(runtime)
}

pub fn pending(ws: &Workspace, out: Out) -> CliResult {
    let pending = ws.interrupts().pending()?;
    out.emit(json!({ "pending": pending }), || {
        if pending.is_empty() {
            println!("nothing is waiting for an answer");
        }
        for p in &pending {
            println!(
                "{}  {}  ws:{}.{}  {}  since {}",
                p.run_id,
                p.call_id,
                p.module,
                p.function,
                p.payload,
                time_string(p.created_ns.max(0) as u64)
            );
        }
    });
    Ok(())
}

/// Answers an interrupt; if that was the last one its run waited for, the
/// run resumes here and this command follows it to its end (or next stop).
pub fn respond(
    ws: Workspace,
    run: &str,
    call: &str,
    answer: Option<String>,
    reject: Option<String>,
    out: Out,
) -> CliResult<u8> {
    let answer = match (answer, reject) {
        (_, Some(reason)) => Answer::Rejected {
            reason,
            value: None,
        },
        (Some(text), None) => {
            let v: Value = serde_json::from_str(&text).map_err(|e| {
                CliError::invalid(format!(
                    "the answer is not JSON ({e}); quote it, e.g. '{{\"approved\": true}}'"
                ))
            })?;
            Answer::Approved(v)
        }
        (None, None) => {
            return Err(CliError::invalid(
                "give an answer as JSON, or --reject REASON",
            ));
        }
    };
    let ws = Arc::new(ws);
    let runtime = runtime(&ws)?;
    let interrupts = Interrupts::install(ws.clone())?;
    match runtime.respond(ws.clone(), run, call, answer)? {
        Some(handle) => Ok(follow(&ws, handle, out, None, &interrupts)),
        None => {
            out.emit(
                json!({"run_id": run, "call_id": call, "resumed": false}),
                || {
                    println!("answered; run {run} still waits for other answers");
                },
            );
            Ok(0)
        }
    }
}

/// Resumes what a dead process left behind. Exit code 1 if any run could
/// not be resumed.
pub fn recover(ws: Workspace, out: Out) -> CliResult<u8> {
    let ws = Arc::new(ws);
    let runtime = runtime(&ws)?;
    let interrupts = Interrupts::install(ws.clone())?;
    let mut report = Vec::new();
    let mut failed = false;
    let recovered = runtime.recover(ws.clone())?;
    // A signal cancels every resumed run, not only the one waited for.
    for r in &recovered {
        if let Recovered::Resumed { run_id, handle } = r {
            interrupts.watch(run_id, handle.killer());
        }
    }
    for r in recovered {
        match r {
            Recovered::Resumed { run_id, handle } => {
                // Output of resumed runs goes to their records; show only how they ended.
                let result = handle.wait();
                report.push(json!({
                    "run_id": run_id,
                    "action": "resumed",
                    "status": result.status,
                    "exit_code": result.exit_code,
                    "error": result.error,
                }));
            }
            Recovered::Failed { run_id } => {
                report.push(json!({"run_id": run_id, "action": "marked_failed"}));
            }
            Recovered::Error { run_id, error } => {
                failed = true;
                report.push(json!({"run_id": run_id, "action": "error", "error": error}));
            }
        }
    }
    out.emit(json!({ "recovered": report }), || {
        if report.is_empty() {
            println!("nothing to recover");
        }
        for r in &report {
            let id = r["run_id"].as_str().unwrap_or_default();
            match r["action"].as_str() {
                Some("resumed") => println!(
                    "{id}: resumed, now {} (exit {})",
                    r["status"].as_str().unwrap_or_default(),
                    r["exit_code"]
                ),
                Some("marked_failed") => println!("{id}: its process died; marked failed"),
                _ => println!(
                    "{id}: cannot resume: {}",
                    r["error"].as_str().unwrap_or_default()
                ),
            }
        }
    });
    Ok(interrupts.exit_code().unwrap_or(u8::from(failed)))
}

/// Resumes what a dead process left behind, on a thread of its own (for a
/// long-running server); outcomes go to the log.
pub fn recover_in_background(ws: Arc<Workspace>) {
    std::thread::spawn(move || {
        let runtime = match runtime(&ws) {
            Ok(rt) => rt,
            Err(e) => {
                tracing::error!("cannot recover runs: {}", e.message);
                return;
            }
        };
        match runtime.recover(ws) {
            Err(e) => tracing::error!("cannot recover runs: {e}"),
            Ok(recovered) => {
                for r in recovered {
                    match r {
                        Recovered::Resumed { run_id, handle } => {
                            let result = handle.wait();
                            tracing::info!(run = %run_id, status = result.status.as_str(), "recovered run ended");
                        }
                        Recovered::Failed { run_id } => {
                            tracing::info!(run = %run_id, "its process died; marked failed");
                        }
                        Recovered::Error { run_id, error } => {
                            tracing::error!(run = %run_id, "cannot resume: {error}");
                        }
                    }
                }
            }
        }
    });
}
