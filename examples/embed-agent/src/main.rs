//! An application that embeds the runtime: agent JavaScript posts a review
//! comment through the application's `ws:github` module, which waits for a
//! human's approval; the process restarts in between, and the run goes on.
//!
//! `cargo run -p example-embed-agent` tells the whole story in a temporary
//! directory, each step in a process of its own (a restart is a new
//! process, so the example really is one). Or run the steps yourself:
//!
//! ```text
//! example-embed-agent run DIR        start the agent; it parks at the approval
//! example-embed-agent approve DIR [--crash-after-post]
//! example-embed-agent reject DIR REASON
//! example-embed-agent recover DIR    what the application does at every start
//! ```

mod github;
mod story;

use std::path::Path;
use std::sync::Arc;

use anyhow::{Context, Result, anyhow, bail};
use computer_runtime::{
    Answer, ExecOptions, JS_BACKEND, Recovered, RunResult, RunStatus, Runtime, RuntimeConfig,
};
use computer_store::{AuditQuery, Workspace, WriteOptions};
use serde_json::json;

use github::{FakeGitHub, GitHub};

/// The agent's code: it posts the review it finds in the workspace.
const AGENT: &str = r#"
import { readFileSync } from "node:fs";
import { postComment } from "ws:github";
const review = readFileSync("/review.md", "utf8");
let outcome;
try {
  outcome = { posted: postComment(7, review) };
} catch (e) {
  outcome = { rejected: e.message };
}
console.log(JSON.stringify(outcome));
export default outcome;
"#;

const USAGE: &str = "usage: example-embed-agent [run DIR | approve DIR [--crash-after-post] | reject DIR REASON | recover DIR]";

fn main() -> Result<()> {
    let args = std::env::args_os()
        .skip(1)
        .map(|a| {
            a.into_string()
                .map_err(|a| anyhow!("argument {a:?} is not UTF-8"))
        })
        .collect::<Result<Vec<String>>>()?;
    let words: Vec<&str> = args.iter().map(String::as_str).collect();
    let app = |dir: &str, crash| App::open(Path::new(dir), crash);
    let ok = match words.as_slice() {
        [] => return story::tell(),
        ["run", dir] => app(dir, false)?.run()?,
        ["approve", dir] => app(dir, false)?.respond(Answer::Approved(json!(true)))?,
        ["approve", dir, "--crash-after-post"] => {
            app(dir, true)?.respond(Answer::Approved(json!(true)))?
        }
        ["reject", dir, reason] => app(dir, false)?.respond(Answer::Rejected {
            reason: (*reason).to_owned(),
            value: None,
        })?,
        ["recover", dir] => app(dir, false)?.recover()?,
        _ => bail!("unknown arguments {words:?}\n{USAGE}"),
    };
    if !ok {
        std::process::exit(1);
    }
    Ok(())
}

/// What each process of the application holds.
struct App {
    ws: Arc<Workspace>,
    runtime: Runtime,
    remote: FakeGitHub,
}

impl App {
    /// What every process of the application does first: open the
    /// workspace, make a runtime with the built-in backends, and register
    /// its own modules (modules live in the process, not the workspace).
    fn open(dir: &Path, crash_after_post: bool) -> Result<App> {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
        let ws = Arc::new(Workspace::open(dir.join("workspace.db"))?);
        // `js` and `shell`, then python3, git, sqlite3 and curl.
        let runtime = Runtime::with_builtin_guests(RuntimeConfig::default())?;
        computer_builtins::register(&runtime)?;
        let remote = || FakeGitHub {
            file: dir.join("github.json"),
        };
        let module = GitHub {
            remote: remote(),
            crash_after_post,
        };
        runtime
            .modules()
            .register("ws:github", Arc::new(module))
            .map_err(anyhow::Error::msg)?;
        Ok(App {
            ws,
            runtime,
            remote: remote(),
        })
    }

    /// Starts the agent. It parks at the approval: the run is `waiting`,
    /// holds no memory, and survives this process.
    fn run(&self) -> Result<bool> {
        let review = b"LGTM: the retry loop now backs off. Thanks!\n";
        self.ws
            .write("/review.md", review, &WriteOptions::default())?;
        let options = ExecOptions {
            backend: JS_BACKEND.into(),
            ..Default::default()
        };
        let result = self.runtime.exec(self.ws.clone(), AGENT, options)?.wait();
        println!("run {}: {}", result.run_id, result.status);
        for p in self.ws.interrupts().pending()? {
            println!(
                "pending: run {} call {} asks ws:{}.{} {}",
                p.run_id, p.call_id, p.module, p.function, p.payload
            );
        }
        Ok(result.status == RunStatus::Waiting)
    }

    /// Answers the first pending approval as a reviewer; the run resumes
    /// in this process.
    fn respond(&self, answer: Answer) -> Result<bool> {
        let pending = self.ws.interrupts().pending()?;
        let p = pending
            .first()
            .context("no run is waiting for an answer; start one with `run DIR`")?;
        // Audit rows name whoever this thread acts for.
        let resumed = computer_store::with_actor("reviewer:alice", || {
            self.runtime
                .respond(self.ws.clone(), &p.run_id, &p.call_id, answer)
        })?;
        match resumed {
            Some(handle) => self.show(&handle.wait()),
            None => {
                println!("answered; run {} waits for its other answers", p.run_id);
                Ok(true)
            }
        }
    }

    /// Takes over the runs a dead process left running, and parked runs
    /// whose answers are all in.
    fn recover(&self) -> Result<bool> {
        let recovered = self.runtime.recover(self.ws.clone())?;
        if recovered.is_empty() {
            println!("nothing to recover");
        }
        let mut ok = true;
        for r in recovered {
            ok &= match r {
                Recovered::Resumed { run_id, handle } => {
                    println!("recovered run {run_id}");
                    self.show(&handle.wait())?
                }
                Recovered::Failed { run_id } => {
                    println!("run {run_id} does not replay: marked failed");
                    false
                }
                Recovered::Error { run_id, error } => {
                    println!("run {run_id} cannot be recovered: {error}");
                    false
                }
            };
        }
        Ok(ok)
    }

    /// A finished run: its result, what reached GitHub, and the audit trail.
    fn show(&self, result: &RunResult) -> Result<bool> {
        println!(
            "run {}: {} (exit {})",
            result.run_id, result.status, result.exit_code
        );
        print!("stdout: {}", String::from_utf8_lossy(&result.stdout));
        if let Some(value) = &result.value {
            println!("value: {value}");
        }
        if let Some(error) = &result.error {
            println!("error: {error}");
        }
        let comments = self.remote.comments().map_err(anyhow::Error::msg)?;
        println!("comments on GitHub: {}", comments.len());
        println!("audit:");
        let everything = AuditQuery::default();
        for row in self.ws.audit().query(&everything)? {
            let about_run = row.actor.contains(&result.run_id)
                || row
                    .args
                    .as_deref()
                    .is_some_and(|a| a.contains(&result.run_id));
            if about_run {
                println!(
                    "  {:<12} {:<23} {:<8} by {}",
                    row.operation, row.target, row.outcome, row.actor
                );
            }
        }
        Ok(result.status == RunStatus::Completed)
    }
}
