//! The hand-over between a run and a command it started: the command runs
//! on a thread of its own, but only while the caller waits in `next`, and
//! it stops at points that depend on its own behaviour alone (64 KiB of
//! output, input it lacks, its end). So the journal of a durable run sees
//! the caller's and the command's host calls in the same order on every
//! replay.

use std::collections::VecDeque;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use bytes::Bytes;
use wasmtime_wasi::cli::{IsTerminal, StdinStream, StdoutStream};
use wasmtime_wasi_io::poll::Pollable;
use wasmtime_wasi_io::streams::{InputStream, OutputStream, StreamError, StreamResult};

use crate::run::oom_noise::OomNoise;
use crate::run::output::Channel;

/// Output held before the command hands over.
pub(crate) const HANDOVER_BYTES: usize = 64 << 10;

/// What the caller gets from `next`.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Step {
    Output(Channel, Vec<u8>),
    StdinWanted,
    Exited(i32),
}

#[derive(Default)]
struct State {
    /// Whose turn it is: the command runs only while this is set.
    command_turn: bool,
    output: VecDeque<(Channel, Vec<u8>)>,
    queued: usize,
    stdin: VecDeque<u8>,
    stdin_closed: bool,
    wants_stdin: bool,
    exit: Option<i32>,
    /// The caller is gone: the command's next read or write ends it.
    abandoned: bool,
}

/// One caller's news from all the commands it started: a caller polling
/// one command (`poll_next`) wakes when any of them has something for it,
/// so a shell running a job beside the foreground serves whichever moved.
#[derive(Default)]
pub(crate) struct Activity {
    generation: Mutex<u64>,
    changed: Condvar,
}

impl Activity {
    fn lock(&self) -> MutexGuard<'_, u64> {
        self.generation.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn bump(&self) {
        *self.lock() += 1;
        self.changed.notify_all();
    }

    fn generation(&self) -> u64 {
        *self.lock()
    }

    /// Waits until the generation is past `seen` or `deadline` passes;
    /// whether it moved.
    fn wait_past(&self, seen: u64, deadline: Instant) -> bool {
        let mut g = self.lock();
        while *g == seen {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return false;
            }
            g = self
                .changed
                .wait_timeout(g, left)
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
        true
    }
}

#[derive(Default)]
pub(crate) struct Link {
    state: Mutex<State>,
    turn: Condvar,
    /// The caller's news (shared by every command it started).
    activity: Arc<Activity>,
    /// Set when the caller drops the command: a command waiting in `poll`
    /// (a sleep, a socket) is stopped by it, as a killed process would be.
    killed: Arc<AtomicBool>,
}

impl Link {
    pub(crate) fn new(activity: Arc<Activity>) -> Self {
        Link {
            activity,
            ..Link::default()
        }
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// What the caller has to take, if anything.
    fn ready(s: &mut State) -> Option<Step> {
        if let Some((channel, bytes)) = s.output.pop_front() {
            s.queued -= bytes.len();
            return Some(Step::Output(channel, bytes));
        }
        if let Some(code) = s.exit {
            return Some(Step::Exited(code));
        }
        if s.wants_stdin && s.stdin.is_empty() && !s.stdin_closed {
            return Some(Step::StdinWanted);
        }
        None
    }

    /// The killed flag the command's store watches.
    pub(crate) fn kill_switch(&self) -> Arc<AtomicBool> {
        self.killed.clone()
    }

    /// The caller, with other work to do: the command's next event if it
    /// has one within `wait`, or sooner `None` when another command of the
    /// same caller moved. The command keeps its turn after `None`: it runs
    /// on beside the caller until it hands over by itself.
    pub(crate) fn poll_next(&self, wait: Duration) -> Option<Step> {
        let deadline = Instant::now() + wait;
        let seen = self.activity.generation();
        {
            let mut s = self.lock();
            if let Some(step) = Self::ready(&mut s) {
                return Some(step);
            }
            if !s.command_turn {
                s.command_turn = true;
                self.turn.notify_all();
            }
        }
        if self.activity.wait_past(seen, deadline) {
            return Self::ready(&mut self.lock());
        }
        None
    }

    /// The caller: runs the command until its next event.
    pub(crate) fn next(&self) -> Step {
        let mut s = self.lock();
        loop {
            if let Some(step) = Self::ready(&mut s) {
                return step;
            }
            s.command_turn = true;
            self.turn.notify_all();
            while s.command_turn {
                s = self.turn.wait(s).unwrap_or_else(|e| e.into_inner());
            }
        }
    }

    /// The caller: input for the command; empty closes it.
    pub(crate) fn feed(&self, data: &[u8]) {
        let mut s = self.lock();
        if data.is_empty() {
            s.stdin_closed = true;
        } else {
            s.stdin.extend(data);
        }
    }

    /// The caller gives up on the command and waits until it has stopped.
    pub(crate) fn abandon(&self) {
        let mut s = self.lock();
        s.abandoned = true;
        self.killed.store(true, Ordering::SeqCst);
        while s.exit.is_none() {
            s.command_turn = true;
            self.turn.notify_all();
            s = self.turn.wait(s).unwrap_or_else(|e| e.into_inner());
        }
    }

    /// The command: waits for its first turn.
    pub(crate) fn wait_turn(&self) {
        let mut s = self.lock();
        while !s.command_turn {
            s = self.turn.wait(s).unwrap_or_else(|e| e.into_inner());
        }
    }

    /// The command: hands over and waits for the next turn.
    fn hand_over<'a>(&'a self, mut s: MutexGuard<'a, State>) -> MutexGuard<'a, State> {
        s.command_turn = false;
        self.turn.notify_all();
        self.activity.bump();
        while !s.command_turn {
            s = self.turn.wait(s).unwrap_or_else(|e| e.into_inner());
        }
        s
    }

    /// The command has ended; the caller gets its exit code.
    pub(crate) fn exited(&self, code: i32) {
        let mut s = self.lock();
        s.exit = Some(code);
        s.command_turn = false;
        self.turn.notify_all();
        self.activity.bump();
    }

    /// The host's own line on the command's stderr, handed over with the
    /// exit code.
    pub(crate) fn say(&self, bytes: &[u8]) {
        let mut s = self.lock();
        s.queued += bytes.len();
        s.output.push_back((Channel::Stderr, bytes.to_vec()));
    }

    pub(crate) fn is_abandoned(&self) -> bool {
        self.lock().abandoned
    }

    fn write(&self, channel: Channel, bytes: &[u8]) -> StreamResult<()> {
        let mut s = self.lock();
        if s.abandoned {
            return Err(StreamError::trap(
                "the command's reader is gone (broken pipe)",
            ));
        }
        s.queued += bytes.len();
        match s.output.back_mut() {
            Some((c, last)) if *c == channel && last.len() < HANDOVER_BYTES => {
                last.extend_from_slice(bytes)
            }
            _ => s.output.push_back((channel, bytes.to_vec())),
        }
        if s.queued >= HANDOVER_BYTES {
            s = self.hand_over(s);
        } else {
            // A caller polling (`poll_next`) takes output as it comes.
            self.activity.bump();
        }
        if s.abandoned {
            return Err(StreamError::trap(
                "the command's reader is gone (broken pipe)",
            ));
        }
        Ok(())
    }

    /// The command: waits until input is there or closed.
    fn wait_stdin(&self) {
        let mut s = self.lock();
        while s.stdin.is_empty() && !s.stdin_closed && !s.abandoned {
            s.wants_stdin = true;
            s = self.hand_over(s);
        }
        s.wants_stdin = false;
    }

    fn read(&self, size: usize) -> StreamResult<Bytes> {
        let mut s = self.lock();
        if s.abandoned {
            return Err(StreamError::trap("the command's caller is gone"));
        }
        if s.stdin.is_empty() && s.stdin_closed {
            return Err(StreamError::Closed);
        }
        let n = size.min(s.stdin.len());
        Ok(s.stdin.drain(..n).collect::<Vec<u8>>().into())
    }
}

/// Which of the command's streams a [`LinkStream`] is.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Role {
    Stdin,
    Out(Channel),
}

/// The command's stdin, stdout or stderr, over a [`Link`].
#[derive(Clone)]
pub(crate) struct LinkStream {
    pub link: Arc<Link>,
    pub role: Role,
    /// For stderr: drops the Rust runtime's out-of-memory lines once the
    /// command's memory was refused, so the host's own line is what the
    /// reader sees (as for a run's stderr, `Sink::quiet_oom_noise`).
    pub oom_noise: Option<Arc<OomNoise>>,
}

impl LinkStream {
    fn put(&self, bytes: &[u8]) -> StreamResult<()> {
        match (self.role, &self.oom_noise) {
            (Role::Out(channel), Some(noise)) => {
                let mut written = Ok(());
                noise.filter(bytes, |kept| {
                    if written.is_ok() {
                        written = self.link.write(channel, kept);
                    }
                });
                written
            }
            (Role::Out(channel), None) => self.link.write(channel, bytes),
            (Role::Stdin, _) => Err(StreamError::trap("stdin is not writable")),
        }
    }
}

impl IsTerminal for LinkStream {
    fn is_terminal(&self) -> bool {
        false
    }
}

impl StdoutStream for LinkStream {
    fn p2_stream(&self) -> Box<dyn OutputStream> {
        Box::new(self.clone())
    }

    fn async_stream(&self) -> Box<dyn tokio::io::AsyncWrite + Send + Sync> {
        Box::new(self.clone())
    }
}

impl StdinStream for LinkStream {
    fn p2_stream(&self) -> Box<dyn InputStream> {
        Box::new(self.clone())
    }

    fn async_stream(&self) -> Box<dyn tokio::io::AsyncRead + Send + Sync> {
        Box::new(self.clone())
    }
}

impl OutputStream for LinkStream {
    fn write(&mut self, bytes: Bytes) -> StreamResult<()> {
        self.put(&bytes)
    }

    fn flush(&mut self) -> StreamResult<()> {
        Ok(())
    }

    fn check_write(&mut self) -> StreamResult<usize> {
        Ok(HANDOVER_BYTES)
    }
}

impl InputStream for LinkStream {
    fn read(&mut self, size: usize) -> StreamResult<Bytes> {
        self.link.read(size)
    }
}

#[async_trait::async_trait]
impl Pollable for LinkStream {
    async fn ready(&mut self) {
        // Blocking is right here: the caller runs only while we wait.
        if self.role == Role::Stdin {
            self.link.wait_stdin();
        }
    }
}

impl tokio::io::AsyncWrite for LinkStream {
    fn poll_write(
        self: Pin<&mut Self>,
        _cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        Poll::Ready(
            self.put(buf)
                .map(|()| buf.len())
                .map_err(|e| std::io::Error::new(std::io::ErrorKind::BrokenPipe, e.to_string())),
        )
    }

    fn poll_flush(self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Poll::Ready(Ok(()))
    }

    fn poll_shutdown(self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Poll::Ready(Ok(()))
    }
}

impl tokio::io::AsyncRead for LinkStream {
    fn poll_read(
        self: Pin<&mut Self>,
        _cx: &mut Context<'_>,
        buf: &mut tokio::io::ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        self.link.wait_stdin();
        match self.link.read(buf.remaining()) {
            Ok(bytes) => buf.put_slice(&bytes),
            Err(StreamError::Closed) => {}
            Err(e) => {
                return Poll::Ready(Err(std::io::Error::new(
                    std::io::ErrorKind::BrokenPipe,
                    e.to_string(),
                )));
            }
        }
        Poll::Ready(Ok(()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fake command on a thread: writes, reads its input, ends.
    #[test]
    fn steps_in_turn() {
        let link = Arc::new(Link::default());
        let l = link.clone();
        let t = std::thread::spawn(move || {
            l.wait_turn();
            l.write(Channel::Stdout, b"hi ").unwrap();
            l.write(Channel::Stdout, b"there").unwrap();
            l.wait_stdin();
            let got = l.read(100).unwrap();
            l.write(Channel::Stderr, &got).unwrap();
            l.wait_stdin();
            assert!(matches!(l.read(100), Err(StreamError::Closed)));
            l.exited(3);
        });
        assert_eq!(
            link.next(),
            Step::Output(Channel::Stdout, b"hi there".to_vec())
        );
        assert_eq!(link.next(), Step::StdinWanted);
        link.feed(b"input");
        assert_eq!(
            link.next(),
            Step::Output(Channel::Stderr, b"input".to_vec())
        );
        assert_eq!(link.next(), Step::StdinWanted);
        link.feed(b"");
        assert_eq!(link.next(), Step::Exited(3));
        assert_eq!(link.next(), Step::Exited(3));
        t.join().unwrap();
    }

    /// Polled, a command runs beside its caller: the caller sees `None`
    /// while it has nothing, and the command goes on without it.
    #[test]
    fn a_polled_command_runs_beside_its_caller() {
        let activity = Arc::new(Activity::default());
        let link = Arc::new(Link::new(activity.clone()));
        let other = Arc::new(Link::new(activity));
        let (go_tx, go_rx) = std::sync::mpsc::channel::<()>();
        let l = link.clone();
        let t = std::thread::spawn(move || {
            l.wait_turn();
            // Blocks outside any hand-over point, as a sleep or a socket
            // wait would: only a caller that gave it the turn and left
            // lets the test below send `go`.
            go_rx.recv().unwrap();
            l.write(Channel::Stdout, b"late").unwrap();
            l.exited(0);
        });
        assert_eq!(link.poll_next(Duration::from_millis(1)), None);
        // The command holds its turn while the caller is away.
        go_tx.send(()).unwrap();
        let mut got = Vec::new();
        loop {
            match link.poll_next(Duration::from_secs(60)) {
                Some(Step::Exited(code)) => {
                    assert_eq!(code, 0);
                    break;
                }
                Some(Step::Output(Channel::Stdout, bytes)) => got.extend(bytes),
                Some(step) => panic!("unexpected {step:?}"),
                None => {}
            }
        }
        assert_eq!(got, b"late");
        t.join().unwrap();

        // News on another command of the same caller ends a poll early:
        // `other` keeps writing until the long poll on an idle command of
        // the same caller has returned.
        let done = Arc::new(AtomicBool::new(false));
        let (o, d) = (other.clone(), done.clone());
        let t = std::thread::spawn(move || {
            o.wait_turn();
            while !d.load(Ordering::SeqCst) {
                o.write(Channel::Stderr, b"x").unwrap();
                std::thread::sleep(Duration::from_millis(5));
            }
            o.exited(0);
        });
        assert_eq!(other.poll_next(Duration::from_millis(0)), None);
        let idle = Link::new(other.activity.clone());
        assert_eq!(idle.poll_next(Duration::from_secs(600)), None);
        done.store(true, Ordering::SeqCst);
        while other.poll_next(Duration::from_secs(60)) != Some(Step::Exited(0)) {}
        t.join().unwrap();
    }

    #[test]
    fn abandoning_breaks_the_pipe() {
        let link = Arc::new(Link::default());
        let l = link.clone();
        let t = std::thread::spawn(move || {
            l.wait_turn();
            let big = vec![b'x'; HANDOVER_BYTES];
            let r = l.write(Channel::Stdout, &big);
            assert!(r.is_err(), "a write after the caller left fails");
            l.exited(141);
        });
        assert!(matches!(link.next(), Step::Output(Channel::Stdout, _)));
        link.abandon();
        assert!(link.is_abandoned());
        t.join().unwrap();
    }
}
