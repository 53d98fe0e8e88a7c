//! A command's stdout or stderr: each piece is streamed as an event right
//! away and kept for the result, up to the stream's cap; past the cap the
//! rest is counted and dropped, and a marker says how much (as the runtime does).

use std::sync::mpsc::Sender;
use std::sync::{Arc, Mutex};

use computer_runtime::Event;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Channel {
    Stdout,
    Stderr,
}

struct State {
    kept: Vec<u8>,
    dropped: u64,
}

#[derive(Clone)]
pub(crate) struct Sink {
    channel: Channel,
    cap: usize,
    state: Arc<Mutex<State>>,
    events: Sender<Event>,
}

impl Sink {
    pub fn new(channel: Channel, cap: usize, events: Sender<Event>) -> Self {
        Sink {
            channel,
            cap,
            state: Arc::new(Mutex::new(State {
                kept: Vec::new(),
                dropped: 0,
            })),
            events,
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn event(&self, bytes: Vec<u8>) -> Event {
        match self.channel {
            Channel::Stdout => Event::Stdout(bytes),
            Channel::Stderr => Event::Stderr(bytes),
        }
    }

    /// Keeps and streams what fits under the cap; counts the rest.
    pub fn push(&self, bytes: &[u8]) {
        let mut st = self.lock();
        let room = self.cap.saturating_sub(st.kept.len());
        let take = room.min(bytes.len());
        if take > 0 {
            st.kept.extend_from_slice(&bytes[..take]);
            // A receiver that went away only means nobody is listening.
            let _ = self.events.send(self.event(bytes[..take].to_vec()));
        }
        st.dropped += (bytes.len() - take) as u64;
    }

    /// Keeps and streams `bytes` even past the cap: the host's own notes on
    /// how the run went must never be dropped.
    pub fn push_always(&self, bytes: &[u8]) {
        let mut st = self.lock();
        st.kept.extend_from_slice(bytes);
        let _ = self.events.send(self.event(bytes.to_vec()));
    }

    /// Everything kept, plus the truncation marker if anything was dropped.
    pub fn finish(&self) -> Vec<u8> {
        let mut st = self.lock();
        if st.dropped > 0 {
            let marker = format!(
                "\n[output truncated: {} more bytes over the {}-byte limit]\n",
                st.dropped, self.cap
            );
            let _ = self.events.send(self.event(marker.clone().into_bytes()));
            st.kept.extend_from_slice(marker.as_bytes());
            st.dropped = 0;
        }
        std::mem::take(&mut st.kept)
    }
}
