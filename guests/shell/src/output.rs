//! The run's stdout and stderr: bytes go straight to the WASI output streams as bashkit
//! produces them, so the host can stream them as run events.
//!
//! The guest also enforces the output limit here (`COMPUTER_SHELL_MAX_OUTPUT_BYTES`):
//! bashkit only truncates silently at its own cap, but a breach must end the script
//! with a message, so the sink counts what it delivered and fails past the limit,
//! which makes bashkit stop the engine.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use crate::wasi::cli::{stderr, stdout};
use crate::wasi::io::streams::OutputStream;

/// `blocking-write-and-flush` accepts at most 4096 bytes per call.
const MAX_WRITE: usize = 4096;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stream {
    Stdout,
    Stderr,
}

impl Stream {
    fn name(self) -> &'static str {
        match self {
            Stream::Stdout => "stdout",
            Stream::Stderr => "stderr",
        }
    }
}

/// Write `bytes` to the run's stream. A failed write means the host closed the stream;
/// the rest is dropped (the host has already recorded why).
pub fn write(stream: Stream, bytes: &[u8]) {
    let out: OutputStream = match stream {
        Stream::Stdout => stdout::get_stdout(),
        Stream::Stderr => stderr::get_stderr(),
    };
    for chunk in bytes.chunks(MAX_WRITE) {
        if out.blocking_write_and_flush(chunk).is_err() {
            break;
        }
    }
}

/// One stream's byte counter against the output limit.
pub struct Meter {
    stream: Stream,
    limit: u64,
    written: AtomicU64,
    /// Set once the limit was passed, so the message is printed once.
    breached: Arc<AtomicBool>,
}

impl Meter {
    pub fn new(stream: Stream, limit: u64, breached: Arc<AtomicBool>) -> Meter {
        Meter {
            stream,
            limit,
            written: AtomicU64::new(0),
            breached,
        }
    }

    /// Deliver `bytes`, up to the limit. Past it, report the breach on stderr and fail,
    /// which stops bashkit's engine.
    pub fn deliver(&self, bytes: &[u8]) -> bashkit::Result<()> {
        let before = self
            .written
            .fetch_add(bytes.len() as u64, Ordering::Relaxed);
        let room = self.limit.saturating_sub(before);
        if (bytes.len() as u64) <= room {
            write(self.stream, bytes);
            return Ok(());
        }
        write(self.stream, &bytes[..room as usize]);
        if !self.breached.swap(true, Ordering::Relaxed) {
            let message = format!(
                "bash: output limit exceeded: more than {} bytes on {} (COMPUTER_SHELL_MAX_OUTPUT_BYTES)\n",
                self.limit,
                self.stream.name()
            );
            write(Stream::Stderr, message.as_bytes());
        }
        Err(bashkit::Error::Execution("output limit exceeded".into()))
    }
}
