//! Holding back bursts of appends to one file, within one command.
//!
//! A streaming command whose output is redirected (`cat big > f`, `grep x big > f`)
//! reaches the filesystem as one `append` per 4 KiB pipe chunk, each preceded by an
//! `lstat` from bashkit's symlink layer. Sent one by one, 100 MB would be 50,000 host
//! calls, each rewriting the file's last stored chunk. So appends that follow an
//! append to the same file are collected here and sent together.
//!
//! What keeps this invisible to the script and to everyone else:
//! - a burst never outlives the command that started it: every command start (the
//!   `before_tool` hook, `command_starts`) sends what is held and forgets the file, so the
//!   first append of a command is sent at once and its errors (missing directory,
//!   full disk) are reported by the command that caused them. `for ...; do echo $i
//!   >> f && ...; done` is one host call per `echo`, each checked before `&&`;
//! - any other filesystem operation, on any path, first sends what is held, so the
//!   script always observes its own writes in order; only `lstat` of the file being
//!   appended to is answered here (its size grown by what is held), since bashkit
//!   asks it before every append;
//! - what is held is sent once it reaches `FLUSH_BYTES`, once it is `MAX_AGE` old
//!   (the run polls `flush_stale`), and when the run ends. So other runs see the
//!   file grow with at most that delay.
//!
//! A held-back append that fails is never only a stderr line. The failure is kept
//! for its file: the writer's next append to it returns the error (so a streaming
//! command stops with a write error), the guest's own streaming commands (`cat`,
//! `head`, command components) check `finish` before they return their status, and
//! whatever is left when the next command starts or the run ends is reported on
//! stderr and makes the run fail. The one
//! case where the status comes too late is the tail of a streaming command that is
//! bashkit's (`grep`, `tr`, `seq`, `yes`): bashkit has no hook at a command's end
//! that keeps its output bytes intact, so that tail is sent when the next command
//! starts, and a failure then is reported there and fails the run.

use std::sync::Mutex;
use std::time::{Duration, Instant};

use bashkit::Metadata;
use bashkit::hooks::{HookAction, Interceptor, ToolEvent};

use crate::computer::workspace::fs::{self, FsError};
use crate::fs_errors;
use crate::output::{self, Stream};

/// Held bytes that trigger a write: the host stores files in chunks of this size.
const FLUSH_BYTES: usize = 256 << 10;
/// The longest a byte is held back.
pub const MAX_AGE: Duration = Duration::from_millis(20);

#[derive(Default)]
pub struct Appends {
    state: Mutex<State>,
}

#[derive(Default)]
struct State {
    burst: Option<Burst>,
    /// A held-back append that failed, not yet reported to a writer.
    failed: Option<Failure>,
    /// Whether a failure was reported where no command could fail for it.
    lost: bool,
}

/// Appends to `path` after the one that was sent.
struct Burst {
    path: String,
    data: Vec<u8>,
    /// When the first held byte arrived.
    since: Option<Instant>,
    /// The file's metadata with every sent append in it, once asked for.
    sent_metadata: Option<Metadata>,
}

/// A held-back append to `path` that the host refused.
pub struct Failure {
    pub path: String,
    pub error: FsError,
}

impl Failure {
    /// The line a command prints for it: `NAME: write error: PATH: REASON`.
    pub fn message(&self, name: &str) -> String {
        format!(
            "{name}: write error: {}: {}\n",
            self.path,
            fs_errors::strerror(self.error.code)
        )
    }
}

impl State {
    /// Send what is held for the current burst, keeping it going; a failure is kept.
    fn send_held(&mut self) {
        let Some(burst) = self.burst.as_mut() else {
            return;
        };
        if burst.data.is_empty() {
            return;
        }
        let data = std::mem::take(&mut burst.data);
        burst.since = None;
        burst.sent_metadata = None;
        if let Err(error) = fs::append(&burst.path, &data) {
            let path = burst.path.clone();
            self.burst = None;
            self.keep_failure(Failure { path, error });
        }
    }

    /// Keep the first failure; a later one while it is pending is reported at once
    /// (two files lost data: the first is still owed to its writer).
    fn keep_failure(&mut self, failure: Failure) {
        if self.failed.is_some() {
            report(&failure);
            self.lost = true;
        } else {
            self.failed = Some(failure);
        }
    }

    /// The kept failure of `path`, handed to its writer.
    fn take_failure_of(&mut self, path: &str) -> Option<Failure> {
        self.failed.take_if(|f| f.path == path)
    }
}

impl Appends {
    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Append `data` to `path`: held back when it continues a burst to the same file,
    /// else sent at once (after what is held for another file).
    pub fn append(&self, path: &str, data: &[u8]) -> bashkit::Result<()> {
        let mut state = self.lock();
        if let Some(failure) = state.take_failure_of(path) {
            return Err(fs_errors::convert(failure.error));
        }
        if let Some(burst) = state.burst.as_mut().filter(|b| b.path == path) {
            if burst.data.is_empty() {
                burst.since = Some(Instant::now());
            }
            burst.data.extend_from_slice(data);
            if burst.data.len() < FLUSH_BYTES {
                return Ok(());
            }
            let data = std::mem::take(&mut burst.data);
            burst.since = None;
            burst.sent_metadata = None;
            return fs::append(path, &data).map_err(|e| {
                state.burst = None;
                fs_errors::convert(e)
            });
        }
        state.send_held();
        state.burst = None;
        crate::workspace_fs::with_tmp(path, || fs::append(path, data))?;
        state.burst = Some(Burst {
            path: path.to_string(),
            data: Vec::new(),
            since: None,
            sent_metadata: None,
        });
        Ok(())
    }

    /// `lstat` of the file being appended to, answered without sending what is held;
    /// `None` for any other path (the caller flushes and asks the host).
    pub fn lstat(&self, path: &str) -> Option<bashkit::Result<Metadata>> {
        let mut state = self.lock();
        let burst = state.burst.as_mut().filter(|b| b.path == path)?;
        if burst.sent_metadata.is_none() {
            if !burst.data.is_empty() {
                // Nothing known about the file yet: send and ask.
                let data = std::mem::take(&mut burst.data);
                burst.since = None;
                if let Err(e) = fs::append(path, &data) {
                    state.burst = None;
                    return Some(Err(fs_errors::convert(e)));
                }
            }
            match fs::lstat(path) {
                Ok(stat) if stat.kind == fs::NodeKind::File => {
                    burst.sent_metadata = Some(crate::workspace_fs::metadata(&stat));
                }
                Ok(stat) => return Some(Ok(crate::workspace_fs::metadata(&stat))),
                Err(e) => return Some(Err(fs_errors::convert(e))),
            }
        }
        let mut meta = burst.sent_metadata.clone()?;
        meta.size += burst.data.len() as u64;
        Some(Ok(meta))
    }

    /// Send what is held and end the burst, so the next append is sent at once.
    /// Called before every other operation and at every command start; a failure is
    /// kept for the file's writer (see the module notes).
    pub fn flush(&self) {
        let mut state = self.lock();
        state.send_held();
        state.burst = None;
    }

    /// A command starts: end the burst, and report a failure no writer took.
    pub fn command_starts(&self) {
        let mut state = self.lock();
        state.send_held();
        state.burst = None;
        if let Some(failure) = state.failed.take() {
            report(&failure);
            state.lost = true;
        }
    }

    /// For a command of the guest's own at its end: send what is held, and hand over
    /// a held-back append that failed since, which the command must fail for.
    pub fn finish(&self) -> Option<Failure> {
        let mut state = self.lock();
        state.send_held();
        state.burst = None;
        state.failed.take()
    }

    /// At the end of the run: send what is held; whether every held-back append
    /// reached the workspace. A failure nobody was told of is reported here.
    pub fn finish_run(&self) -> bool {
        let failure = self.finish();
        let mut state = self.lock();
        if let Some(failure) = failure {
            report(&failure);
            state.lost = true;
        }
        !state.lost
    }

    /// Send what is held if it has waited `MAX_AGE`; keeps the burst going.
    pub fn flush_stale(&self) {
        let mut state = self.lock();
        let stale = state
            .burst
            .as_ref()
            .is_some_and(|b| b.since.is_some_and(|t| t.elapsed() >= MAX_AGE));
        if stale {
            state.send_held();
        }
    }
}

/// The `before_tool` hook: a command starts (`WorkspaceFs::command_starts`), so the
/// burst before it ends, and a failure still owed to an earlier command is reported
/// now (its writer is done).
pub fn hook(fs: std::sync::Arc<crate::workspace_fs::WorkspaceFs>) -> Interceptor<ToolEvent> {
    Box::new(move |event: ToolEvent| {
        fs.command_starts();
        HookAction::Continue(event)
    })
}

fn report(failure: &Failure) {
    output::write(Stream::Stderr, failure.message("bash").as_bytes());
}
