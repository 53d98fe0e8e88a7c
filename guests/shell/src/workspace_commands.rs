//! Command components (`wasi:cli/command` programs registered in the
//! workspace or by the host) as commands of the shell. Each one the host
//! lists at the start of the run becomes a bashkit command of that name, so
//! `rg TODO .`, pipelines, redirects, `command -v rg` and `#!/usr/bin/env
//! NAME` scripts reach it.
//!
//! The host runs the command only while `next` is being called: this side
//! passes its output on (waiting while a pipe is full), and feeds it input
//! when it asks, chunk by chunk. In a script that starts jobs (`cmd &`,
//! `background.rs`) the command is polled instead, so it runs beside the
//! foreground and the script's other jobs.

use std::sync::Arc;

use bashkit::{Command, CommandContext, CommandStatus, async_trait};

use crate::computer::workspace::commands::{
    self, Event, Invocation, InvocationRequest, StartError,
};
use crate::workspace_fs::WorkspaceFs;

/// Exit code bash gives a command that could not be executed.
const EXIT_CANNOT_RUN: i32 = 126;
const EXIT_NOT_FOUND: i32 = 127;
/// Exit code of a writer whose reader went away (SIGPIPE).
const EXIT_BROKEN_PIPE: i32 = 141;

/// The commands the host offers this run, by name.
pub fn listed() -> Vec<String> {
    commands::list_commands()
        .into_iter()
        .map(|c| c.name)
        .collect()
}

pub struct WorkspaceCommand {
    pub fs: Arc<WorkspaceFs>,
}

#[async_trait]
impl Command for WorkspaceCommand {
    async fn execute(&self, ctx: CommandContext<'_>) -> bashkit::Result<CommandStatus> {
        // The command must read what the script wrote.
        self.fs.appends().flush();
        let mut argv = Vec::with_capacity(ctx.args.len() + 1);
        argv.push(ctx.name.to_owned());
        argv.extend(ctx.args.iter().cloned());
        let mut env: Vec<(String, String)> = ctx
            .env
            .iter()
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        env.sort();
        let request = InvocationRequest {
            name: ctx.name.to_owned(),
            argv,
            env,
            cwd: ctx.cwd.to_string_lossy().into_owned(),
        };
        let invocation = match Invocation::start(&request) {
            Ok(inv) => inv,
            Err(e) => {
                let (message, code) = match e {
                    StartError::NotFound => ("command not found".to_owned(), EXIT_NOT_FOUND),
                    StartError::TooDeep(n) => (
                        format!("commands are nested more than {n} deep"),
                        EXIT_CANNOT_RUN,
                    ),
                    StartError::Failed(why) => (why, EXIT_CANNOT_RUN),
                };
                let line = format!("bash: {}: {message}\n", ctx.name);
                ctx.stderr.write_all(line.as_bytes()).await?;
                return Ok(CommandStatus::with_code(code));
            }
        };
        let mut input = Input::default();
        let polled = crate::background::runs_jobs(&request.cwd);
        loop {
            let event = if polled {
                match invocation.poll_next(POLL_WAIT_MS) {
                    Some(event) => event,
                    None => {
                        // Let the foreground and the other jobs go on.
                        tokio::task::yield_now().await;
                        continue;
                    }
                }
            } else {
                invocation.next()
            };
            match event {
                Event::Stdout(bytes) => {
                    if ctx.stdout.write_all(&bytes).await.is_err() {
                        // The reader left: dropping the invocation stops the
                        // command at its next write, as SIGPIPE would.
                        drop(invocation);
                        return Ok(CommandStatus::with_code(EXIT_BROKEN_PIPE));
                    }
                }
                Event::Stderr(bytes) => {
                    let _ = ctx.stderr.write_all(&bytes).await;
                }
                Event::StdinWanted => match input.next(&ctx.stdin).await {
                    Some(chunk) => invocation.feed(&chunk),
                    None => invocation.feed(&[]),
                },
                Event::Exited(code) => {
                    let code =
                        crate::streaming::written_status(&self.fs, ctx.name, &ctx.stderr, code)
                            .await?;
                    return Ok(CommandStatus::with_code(code));
                }
            }
        }
    }
}

/// Longest the shell waits in `poll-next` before it looks at its other
/// jobs (a builtin's `sleep` in a job is late by at most this much).
const POLL_WAIT_MS: u32 = 10;

/// Most input a command is fed at once.
const FEED_BYTES: usize = 64 << 10;

/// The command's input, gathered for feeding. bashkit hands input over in
/// 4 KiB pieces (its pipe size) and each feed is a turn of the command's
/// thread, so as much as is ready without waiting goes at once: a file
/// redirect is fed 64 KiB at a time, a pipe what its writer has put in it.
#[derive(Default)]
struct Input {
    ended: bool,
}

impl Input {
    /// The next piece; `None` at the end of input.
    async fn next(&mut self, stdin: &bashkit::CommandInput) -> Option<Vec<u8>> {
        if self.ended {
            return None;
        }
        let Ok(Some(mut piece)) = stdin.read_chunk().await else {
            self.ended = true;
            return None;
        };
        while piece.len() < FEED_BYTES {
            // Ready now or not at all: a pending read is dropped before it
            // has taken anything.
            match ready_now(std::pin::pin!(stdin.read_chunk())) {
                Some(Ok(Some(more))) => piece.extend_from_slice(&more),
                Some(_) => {
                    self.ended = true;
                    break;
                }
                None => break,
            }
        }
        Some(piece)
    }
}

/// What `future` gives if it is ready at once.
fn ready_now<F: std::future::Future>(future: std::pin::Pin<&mut F>) -> Option<F::Output> {
    let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
    match future.poll(&mut cx) {
        std::task::Poll::Ready(out) => Some(out),
        std::task::Poll::Pending => None,
    }
}
