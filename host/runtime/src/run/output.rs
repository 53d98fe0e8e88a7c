//! The guest's stdout and stderr: each write is streamed as an event right
//! away and kept for the result, up to the stream's cap. Past the cap the
//! rest is counted and dropped, and a marker says how much.

use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Sender;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};

use bytes::Bytes;
use wasmtime_wasi::cli::{IsTerminal, StdoutStream};
use wasmtime_wasi_io::poll::Pollable;
use wasmtime_wasi_io::streams::{OutputStream, StreamResult};

use computer_store::{GroupCommit, Workspace};

use crate::durable::journal::SharedJournal;
use crate::run::kept_output::KeptOutput;
use crate::run::oom_noise::OomNoise;
use crate::run::result::Event;

/// Past the cap, this many times the cap dropped means a flood.
const FLOOD_FACTOR: u64 = 8;
/// Past the cap, this many writes dropped means a flood.
const FLOOD_DROPPED_WRITES: u64 = 100_000;

/// Bytes dropped past a `cap` that make a flood (the run is stopped).
fn flood_bytes(cap: usize) -> u64 {
    (cap as u64).saturating_mul(FLOOD_FACTOR).max(8 << 20)
}

/// Where to cut `bytes` at about `at`: moved back off the middle of a
/// UTF-8 character (at most 3 bytes), so text stays text; binary output
/// loses at most 3 more bytes to the cut.
fn utf8_cut(bytes: &[u8], at: usize) -> usize {
    if at >= bytes.len() {
        return at;
    }
    let mut cut = at;
    while cut > 0 && at - cut < 3 && (bytes[cut] & 0xC0) == 0x80 {
        cut -= 1;
    }
    if (bytes[cut] & 0xC0) == 0x80 { at } else { cut }
}

/// Which output stream a [`Sink`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Channel {
    /// Standard output.
    Stdout,
    /// Standard error.
    Stderr,
}

struct SinkState {
    kept: Vec<u8>,
    dropped: u64,
    /// Writes that were dropped whole or in part.
    dropped_writes: u64,
    /// The whole stream, in the workspace, once it overflows (runs with a
    /// workspace: see [`Sink::keep_overflow`]).
    copy: Option<KeptOutput>,
}

impl SinkState {
    /// Passes `bytes`, about to be kept or dropped, to the whole-stream
    /// copy; the first overflow starts it with what was kept so far.
    fn copy(&mut self, bytes: &[u8], overflows: bool) {
        let Some(copy) = self.copy.as_mut() else {
            return;
        };
        if !copy.started() {
            if !overflows {
                return;
            }
            copy.start(&self.kept);
        }
        copy.push(bytes);
    }
}

/// One output channel of one run. Cheap to clone; clones share state.
/// Public for backends outside the runtime (the container's), so their
/// output is streamed, capped and marked the same way.
#[derive(Clone)]
pub struct Sink {
    channel: Channel,
    cap: usize,
    state: Arc<Mutex<SinkState>>,
    events: Sender<Event>,
    /// A durable run's output goes through its journal, which emits it
    /// once committed.
    journal: Option<SharedJournal>,
    /// Set once the stream has dropped far more than it kept: the run
    /// watching it is stopped (see [`stop_on_flood`](Self::stop_on_flood)).
    flooded: Option<Arc<AtomicBool>>,
    /// Drops the Rust runtime's out-of-memory lines once the host refused
    /// the guest memory (stderr only; see `oom_noise`).
    oom_noise: Option<Arc<OomNoise>>,
    /// The run's changes not committed yet: committed before output is
    /// shown, so nothing the guest printed is about a change a crash loses.
    group: Option<(Arc<Workspace>, GroupCommit)>,
}

impl Sink {
    /// A stream that keeps `cap` bytes and sends each write it keeps to
    /// `events` as an [`Event`].
    pub fn new(channel: Channel, cap: usize, events: Sender<Event>) -> Self {
        Sink {
            channel,
            cap,
            state: Arc::new(Mutex::new(SinkState {
                kept: Vec::new(),
                dropped: 0,
                dropped_writes: 0,
                copy: None,
            })),
            events,
            journal: None,
            flooded: None,
            oom_noise: None,
            group: None,
        }
    }

    /// Commits `group`'s open changes in `ws` before each write is shown.
    pub(crate) fn commit_before_showing(mut self, ws: Arc<Workspace>, group: GroupCommit) -> Self {
        self.group = Some((ws, group));
        self
    }

    fn commit_group(&self) {
        if let Some((ws, group)) = &self.group
            && group.is_open()
        {
            // A failure is the group's: the run stops at its next epoch.
            let _ = ws.commit_group();
        }
    }

    /// Sets `flag` once the guest has dropped [`FLOOD_DROPPED_WRITES`] writes
    /// or [`FLOOD_FACTOR`] times the cap (at least 8 MiB) past the cap. A guest
    /// printing in an endless loop would otherwise burn its CPU until the
    /// timeout for output nobody keeps, while a program that prints a few
    /// times its cap and ends is only truncated.
    pub(crate) fn stop_on_flood(mut self, flag: Arc<AtomicBool>) -> Self {
        self.flooded = Some(flag);
        self
    }

    fn flooding(&self, st: &SinkState) -> bool {
        st.dropped > flood_bytes(self.cap) || st.dropped_writes > FLOOD_DROPPED_WRITES
    }

    /// Drops the guest's out-of-memory lines from the Rust runtime once
    /// `refused` is set (by the run's memory limiter).
    pub(crate) fn quiet_oom_noise(mut self, refused: Arc<AtomicBool>) -> Self {
        self.oom_noise = Some(Arc::new(OomNoise::new(refused)));
        self
    }

    /// Passes on a guest line held by the out-of-memory filter: call once
    /// the guest has stopped, before the stream is finished.
    pub(crate) fn flush_held(&self) {
        if let Some(noise) = &self.oom_noise {
            noise.flush(|b| self.write_through(b));
        }
    }

    /// Keeps the whole stream in `ws` (`/.computer/output/RUN.stdout` or
    /// `.stderr`) once it goes past the cap, and names that file in the
    /// truncation marker.
    pub(crate) fn keep_overflow(self, ws: Arc<Workspace>, run_id: &str) -> Self {
        let extension = match self.channel {
            Channel::Stdout => "stdout",
            Channel::Stderr => "stderr",
        };
        self.lock().copy = Some(KeptOutput::new(ws, run_id, extension));
        self
    }

    /// Routes writes through `journal` (a durable run).
    pub(crate) fn durable(mut self, journal: SharedJournal) -> Self {
        self.journal = Some(journal);
        self
    }

    /// Output an earlier attempt of the run emitted: kept for the result,
    /// not streamed again.
    pub(crate) fn prefill(&self, bytes: &[u8]) {
        let mut st = self.lock();
        let take = self.cap.saturating_sub(st.kept.len()).min(bytes.len());
        st.copy(bytes, take < bytes.len());
        st.kept.extend_from_slice(&bytes[..take]);
        st.dropped += (bytes.len() - take) as u64;
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, SinkState> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Keeps and streams what fits under the cap; counts the rest.
    pub fn emit(&self, bytes: &[u8]) {
        let mut st = self.lock();
        // Once something was dropped nothing more is kept: the kept part
        // stays a prefix of the stream.
        let room = match st.dropped {
            0 => self.cap.saturating_sub(st.kept.len()),
            _ => 0,
        };
        let take = utf8_cut(bytes, room.min(bytes.len()));
        st.copy(bytes, take < bytes.len());
        if take > 0 {
            self.commit_group();
            st.kept.extend_from_slice(&bytes[..take]);
            let chunk = bytes[..take].to_vec();
            // A receiver that went away only means nobody is listening.
            let _ = self.events.send(match self.channel {
                Channel::Stdout => Event::Stdout(chunk),
                Channel::Stderr => Event::Stderr(chunk),
            });
        }
        if take < bytes.len() {
            st.dropped += (bytes.len() - take) as u64;
            st.dropped_writes += 1;
        }
        if let Some(flag) = &self.flooded
            && self.flooding(&st)
        {
            flag.store(true, Ordering::SeqCst);
        }
    }

    /// Keeps and streams `bytes` even past the cap (for the host's own
    /// explanation of how the run ended, which must never be dropped).
    pub fn push_always(&self, bytes: &[u8]) {
        let mut st = self.lock();
        st.copy(bytes, false);
        st.kept.extend_from_slice(bytes);
        let _ = self.events.send(match self.channel {
            Channel::Stdout => Event::Stdout(bytes.to_vec()),
            Channel::Stderr => Event::Stderr(bytes.to_vec()),
        });
    }

    /// Everything kept, plus the truncation marker if anything was dropped.
    pub fn finish(&self) -> Vec<u8> {
        let mut st = self.lock();
        if st.dropped > 0 {
            let whole = match st.copy.as_mut().filter(|c| c.started()) {
                Some(copy) => format!("; {}", copy.finish()),
                None => String::new(),
            };
            let marker = format!(
                "\n[output truncated: {} more bytes over the {}-byte limit{whole}]\n",
                st.dropped, self.cap
            );
            let _ = self.events.send(match self.channel {
                Channel::Stdout => Event::Stdout(marker.clone().into_bytes()),
                Channel::Stderr => Event::Stderr(marker.clone().into_bytes()),
            });
            st.kept.extend_from_slice(marker.as_bytes());
            st.dropped = 0;
        }
        std::mem::take(&mut st.kept)
    }
}

/// Where a guest's writes to one of its output streams go.
pub(crate) trait GuestWrite: Clone + Send + Sync + 'static {
    fn write_guest(&self, bytes: &[u8]);
}

impl GuestWrite for Sink {
    fn write_guest(&self, bytes: &[u8]) {
        match &self.oom_noise {
            Some(noise) => noise.filter(bytes, |b| self.write_through(b)),
            None => self.write_through(bytes),
        }
    }
}

impl Sink {
    /// Straight out, or, for a durable run, through the journal.
    fn write_through(&self, bytes: &[u8]) {
        match &self.journal {
            Some(j) => {
                let index = match self.channel {
                    Channel::Stdout => 0,
                    Channel::Stderr => 1,
                };
                crate::durable::journal::lock(j).output(index, bytes);
            }
            None => self.emit(bytes),
        }
    }
}

/// The WASI plumbing of a guest output stream around a [`GuestWrite`].
/// Writes never block and never fail: a sink over its cap drops them, so a
/// guest that floods its output is not stopped by an error it might mishandle.
#[derive(Clone)]
pub(crate) struct GuestStream<W>(pub W);

impl<W: GuestWrite> IsTerminal for GuestStream<W> {
    fn is_terminal(&self) -> bool {
        false
    }
}

impl<W: GuestWrite> StdoutStream for GuestStream<W> {
    fn p2_stream(&self) -> Box<dyn OutputStream> {
        Box::new(self.clone())
    }

    fn async_stream(&self) -> Box<dyn tokio::io::AsyncWrite + Send + Sync> {
        Box::new(self.clone())
    }
}

impl<W: GuestWrite> OutputStream for GuestStream<W> {
    fn write(&mut self, bytes: Bytes) -> StreamResult<()> {
        self.0.write_guest(&bytes);
        Ok(())
    }

    fn flush(&mut self) -> StreamResult<()> {
        Ok(())
    }

    fn check_write(&mut self) -> StreamResult<usize> {
        Ok(64 * 1024)
    }
}

#[async_trait::async_trait]
impl<W: GuestWrite> Pollable for GuestStream<W> {
    async fn ready(&mut self) {}
}

impl<W: GuestWrite> tokio::io::AsyncWrite for GuestStream<W> {
    fn poll_write(
        self: Pin<&mut Self>,
        _cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        self.0.write_guest(buf);
        Poll::Ready(Ok(buf.len()))
    }

    fn poll_flush(self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Poll::Ready(Ok(()))
    }

    fn poll_shutdown(self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Poll::Ready(Ok(()))
    }
}

#[cfg(test)]
mod tests {
    use super::utf8_cut;

    #[test]
    fn a_cut_moves_off_the_middle_of_a_character() {
        let euros = "€€".as_bytes(); // 3 bytes each
        assert_eq!(utf8_cut(euros, 4), 3);
        assert_eq!(utf8_cut(euros, 3), 3);
        assert_eq!(utf8_cut(euros, 6), 6);
        assert_eq!(utf8_cut(b"abc", 2), 2);
        // Not UTF-8: continuation bytes only; the cut stays.
        assert_eq!(utf8_cut(&[0x80; 8], 5), 5);
    }
}
