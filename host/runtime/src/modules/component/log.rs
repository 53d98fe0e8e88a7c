//! A module's stdout and stderr, line by line to the host log
//! (`tracing`, target `computer::module`).

use std::sync::{Arc, Mutex};

use crate::run::output::GuestWrite;

/// A module's stdout or stderr: lines go to the host log.
#[derive(Clone)]
pub(super) struct LogStream {
    module: Arc<str>,
    stream: &'static str,
    pending: Arc<Mutex<Vec<u8>>>,
}

/// Longest line kept before it is logged in pieces.
const MAX_LOG_LINE: usize = 8 * 1024;

impl LogStream {
    pub(super) fn new(module: Arc<str>, stream: &'static str) -> Self {
        LogStream {
            module,
            stream,
            pending: Arc::new(Mutex::new(Vec::new())),
        }
    }

    fn emit(&self, line: &[u8]) {
        let line = String::from_utf8_lossy(line);
        tracing::info!(target: "computer::module", module = %self.module, stream = self.stream, "{}", line.trim_end_matches('\r'));
    }

    fn push(&self, bytes: &[u8]) {
        let mut pending = self.pending.lock().unwrap_or_else(|p| p.into_inner());
        pending.extend_from_slice(bytes);
        while let Some(nl) = pending.iter().position(|b| *b == b'\n') {
            let line: Vec<u8> = pending.drain(..=nl).collect();
            self.emit(&line[..line.len() - 1]);
        }
        while pending.len() > MAX_LOG_LINE {
            let line: Vec<u8> = pending.drain(..MAX_LOG_LINE).collect();
            self.emit(&line);
        }
    }

    /// Logs what is left without a final newline.
    pub(super) fn finish(&self) {
        let mut pending = self.pending.lock().unwrap_or_else(|p| p.into_inner());
        if !pending.is_empty() {
            let line = std::mem::take(&mut *pending);
            drop(pending);
            self.emit(&line);
        }
    }
}

impl GuestWrite for LogStream {
    fn write_guest(&self, bytes: &[u8]) {
        self.push(bytes);
    }
}
