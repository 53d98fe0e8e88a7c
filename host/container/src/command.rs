//! One command in the running container: `docker exec` with the output
//! streamed, stdin fed, and a deadline and a kill switch enforced with TERM,
//! then KILL after a grace period.

use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use bollard::Docker;
use bollard::container::LogOutput;
use bollard::exec::{CreateExecOptions, StartExecOptions, StartExecResults};
use futures_util::{Stream, StreamExt};
use tokio::io::{AsyncWrite, AsyncWriteExt};
use tokio::time::Instant;

use crate::error::{ContainerError, is_conflict, is_not_found};
use computer_runtime::OutputSink as Sink;

/// Why the host stopped a command.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Stop {
    TimedOut,
    Cancelled,
}

/// How a command ended.
#[derive(Debug)]
pub(crate) struct Ran {
    /// `None` if the engine never reported one (the command was abandoned).
    pub exit_code: Option<i64>,
    pub stop: Option<Stop>,
}

/// Why a command could not run.
#[derive(Debug)]
pub(crate) enum RunError {
    /// The container is gone or not running: replace it and try again.
    Gone(String),
    Engine(ContainerError),
}

pub(crate) struct Command<'a> {
    pub container: &'a str,
    pub argv: Vec<String>,
    pub env: Vec<String>,
    pub cwd: String,
    pub user: &'a str,
    pub stdin: &'a [u8],
}

pub(crate) struct Control<'a> {
    pub timeout: Duration,
    pub grace: Duration,
    pub cancel: &'a AtomicBool,
    /// Called now and then while the command runs (the idle heartbeat).
    pub heartbeat: &'a (dyn Fn() + Sync),
    pub heartbeat_every: Duration,
}

fn engine(e: bollard::errors::Error) -> RunError {
    RunError::Engine(ContainerError::engine(e))
}

pub(crate) async fn run(
    docker: &Docker,
    cmd: Command<'_>,
    ctl: Control<'_>,
    stdout: &Sink,
    stderr: &Sink,
) -> Result<Ran, RunError> {
    let exec_id = create(docker, &cmd).await?;
    let (mut output, input) = start(docker, &exec_id).await?;

    let feeder = feed(input, cmd.stdin.to_vec());
    tokio::pin!(feeder);
    let mut fed = false;

    let mut watch = Watch::new(&ctl);
    let mut tick = tokio::time::interval(Duration::from_millis(50));
    loop {
        tokio::select! {
            item = output.next() => if !emit(item, stdout, stderr) {
                break;
            },
            _ = &mut feeder, if !fed => fed = true,
            _ = tick.tick() => {
                if !watch.tick(docker, &cmd, &ctl).await {
                    // Something still holds the output open; stop waiting.
                    tracing::warn!(container = cmd.container, "a stopped command's output did not end");
                    return Ok(Ran { exit_code: None, stop: watch.stop });
                }
            }
        }
    }
    Ok(Ran {
        exit_code: exit_code(docker, &exec_id).await,
        stop: watch.stop,
    })
}

type Output = Pin<Box<dyn Stream<Item = Result<LogOutput, bollard::errors::Error>> + Send>>;
type Input = Pin<Box<dyn AsyncWrite + Send>>;

/// Creates the exec (stdin attached only if there is input to feed).
async fn create(docker: &Docker, cmd: &Command<'_>) -> Result<String, RunError> {
    let feed_stdin = !cmd.stdin.is_empty();
    let config = CreateExecOptions {
        attach_stdin: Some(feed_stdin),
        attach_stdout: Some(true),
        attach_stderr: Some(true),
        tty: Some(false),
        env: Some(cmd.env.clone()),
        cmd: Some(cmd.argv.clone()),
        user: Some(cmd.user.to_owned()),
        working_dir: Some(cmd.cwd.clone()),
        ..Default::default()
    };
    // Podman reports a missing or stopped container as a 500 here.
    match docker.create_exec(cmd.container, config).await {
        Ok(e) => Ok(e.id),
        Err(e @ bollard::errors::Error::DockerResponseServerError { .. }) => {
            Err(RunError::Gone(e.to_string()))
        }
        Err(e) => Err(engine(e)),
    }
}

/// Starts the exec attached: its output stream and its stdin.
async fn start(docker: &Docker, exec_id: &str) -> Result<(Output, Input), RunError> {
    let start = StartExecOptions {
        detach: false,
        tty: false,
        output_capacity: Some(64 * 1024),
    };
    let started = match docker.start_exec(exec_id, Some(start)).await {
        Ok(s) => s,
        Err(e) if is_not_found(&e) || is_conflict(&e) => return Err(RunError::Gone(e.to_string())),
        Err(e) => return Err(engine(e)),
    };
    let StartExecResults::Attached { output, input } = started else {
        return Err(RunError::Engine(ContainerError::Engine(
            "the engine detached an attached exec".into(),
        )));
    };
    Ok((output, input))
}

/// Writes `stdin` (if any) to the command, then closes its input.
async fn feed(mut input: Input, stdin: Vec<u8>) {
    if !stdin.is_empty() {
        // A command that exits without reading its input is not an error.
        let _ = input.write_all(&stdin).await;
        let _ = input.flush().await;
    }
    let _ = input.shutdown().await;
}

/// Passes one item of the output stream on; false once the stream has ended
/// (or failed).
fn emit(
    item: Option<Result<LogOutput, bollard::errors::Error>>,
    stdout: &Sink,
    stderr: &Sink,
) -> bool {
    match item {
        Some(Ok(LogOutput::StdOut { message })) | Some(Ok(LogOutput::Console { message })) => {
            stdout.emit(&message)
        }
        Some(Ok(LogOutput::StdErr { message })) => stderr.emit(&message),
        Some(Ok(LogOutput::StdIn { .. })) => {}
        Some(Err(e)) => {
            tracing::warn!("container output stream failed: {e}");
            return false;
        }
        None => return false,
    }
    true
}

/// The heartbeat and the stop escalation of one command: TERM at the
/// deadline or on cancel, KILL a grace period later, then give up waiting
/// after another.
struct Watch {
    deadline: Instant,
    stop: Option<Stop>,
    escalate_at: Option<Instant>,
    give_up_at: Option<Instant>,
    last_beat: Instant,
}

impl Watch {
    fn new(ctl: &Control<'_>) -> Watch {
        let now = Instant::now();
        Watch {
            deadline: now + ctl.timeout,
            stop: None,
            escalate_at: None,
            give_up_at: None,
            last_beat: now,
        }
    }

    /// One tick; false when the host should stop waiting for the output.
    async fn tick(&mut self, docker: &Docker, cmd: &Command<'_>, ctl: &Control<'_>) -> bool {
        let now = Instant::now();
        if now.duration_since(self.last_beat) >= ctl.heartbeat_every {
            (ctl.heartbeat)();
            self.last_beat = now;
        }
        if self.stop.is_none() {
            let why = if ctl.cancel.load(Ordering::SeqCst) {
                Some(Stop::Cancelled)
            } else if now >= self.deadline {
                Some(Stop::TimedOut)
            } else {
                None
            };
            if let Some(why) = why {
                self.stop = Some(why);
                signal_all(docker, cmd.container, cmd.user, "TERM").await;
                self.escalate_at = Some(now + ctl.grace);
            }
        } else if let Some(at) = self.escalate_at
            && now >= at
        {
            self.escalate_at = None;
            signal_all(docker, cmd.container, cmd.user, "KILL").await;
            self.give_up_at = Some(now + ctl.grace);
        } else if let Some(at) = self.give_up_at
            && now >= at
        {
            return false;
        }
        true
    }
}

/// The exit code of a finished exec; the engine may need a moment to see
/// the process end after its output closed.
async fn exit_code(docker: &Docker, exec_id: &str) -> Option<i64> {
    for _ in 0..100 {
        match docker.inspect_exec(exec_id).await {
            Ok(info) if info.running != Some(true) => return info.exit_code,
            Ok(_) => tokio::time::sleep(Duration::from_millis(20)).await,
            Err(e) => {
                tracing::warn!("cannot inspect exec {exec_id}: {e}");
                return None;
            }
        }
    }
    None
}

/// Sends `signal` to every process of the command's user in the container
/// except PID 1 (the idle watchdog): the command and anything it started.
/// Execs of one workspace are serialized, so no other command is hit.
pub(crate) async fn signal_all(docker: &Docker, container: &str, user: &str, signal: &str) {
    let config = CreateExecOptions {
        cmd: Some(vec![
            "/bin/sh".to_owned(),
            "-c".to_owned(),
            format!("kill -s {signal} -1 2>/dev/null; exit 0"),
        ]),
        user: Some(user.to_owned()),
        attach_stdout: Some(false),
        attach_stderr: Some(false),
        ..Default::default()
    };
    let result = async {
        let exec = docker.create_exec(container, config).await?;
        let start = StartExecOptions {
            detach: true,
            ..Default::default()
        };
        docker.start_exec(&exec.id, Some(start)).await.map(|_| ())
    }
    .await;
    if let Err(e) = result {
        tracing::warn!(container, "cannot send {signal} to the command: {e}");
    }
}
