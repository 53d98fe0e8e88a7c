//! The Rust runtime's own words when a guest's allocation fails at the
//! memory limit: std prints "memory allocation of N bytes failed" and a
//! `RUST_BACKTRACE` note, then aborts. Neither helps the reader (there is no
//! backtrace to get, and the guest is not theirs to debug); the host then
//! says "memory limit exceeded (N MiB); raise it with ..." itself. So once
//! the host has refused the guest memory, its stderr goes through here a
//! line at a time and those two lines are dropped. Before a refusal, and
//! for every other line, the bytes pass unchanged.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

const ALLOCATION_FAILED: (&str, &str) = ("memory allocation of ", " bytes failed");
const BACKTRACE_NOTE: &str =
    "note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace";

/// The filter of one run's stderr.
pub(crate) struct OomNoise {
    /// Set by the run's memory limiter when it refuses memory.
    refused: Arc<AtomicBool>,
    /// The start of a line not yet ended, held once filtering began.
    held: Mutex<Vec<u8>>,
}

impl OomNoise {
    pub(crate) fn new(refused: Arc<AtomicBool>) -> Self {
        OomNoise {
            refused,
            held: Mutex::new(Vec::new()),
        }
    }

    /// Passes `bytes` to `out`, less the runtime's out-of-memory lines.
    pub(crate) fn filter(&self, bytes: &[u8], mut out: impl FnMut(&[u8])) {
        let mut held = self.held.lock().unwrap_or_else(|p| p.into_inner());
        if held.is_empty() && !self.refused.load(Ordering::SeqCst) {
            out(bytes);
            return;
        }
        held.extend_from_slice(bytes);
        let complete = held.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        let lines: Vec<u8> = held.drain(..complete).collect();
        let mut kept = Vec::with_capacity(lines.len());
        for line in lines.split_inclusive(|&b| b == b'\n') {
            if !is_noise(line) {
                kept.extend_from_slice(line);
            }
        }
        if !kept.is_empty() {
            out(&kept);
        }
    }

    /// Passes on what is held (a last line with no newline).
    pub(crate) fn flush(&self, out: impl FnOnce(&[u8])) {
        let held = std::mem::take(&mut *self.held.lock().unwrap_or_else(|p| p.into_inner()));
        if !held.is_empty() {
            out(&held);
        }
    }
}

fn is_noise(line: &[u8]) -> bool {
    let Ok(text) = std::str::from_utf8(line) else {
        return false;
    };
    let text = text.trim_end_matches('\n');
    if text == BACKTRACE_NOTE {
        return true;
    }
    let (head, tail) = ALLOCATION_FAILED;
    text.strip_prefix(head)
        .and_then(|rest| rest.strip_suffix(tail))
        .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(refused: bool, writes: &[&str]) -> String {
        let noise = OomNoise::new(Arc::new(AtomicBool::new(refused)));
        let mut out = Vec::new();
        for w in writes {
            noise.filter(w.as_bytes(), |b| out.extend_from_slice(b));
        }
        noise.flush(|b| out.extend_from_slice(b));
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn drops_the_runtime_lines_after_a_refusal_even_in_pieces() {
        let writes = [
            "sort: reading\nmemory allocation of ",
            "100663296",
            " bytes failed\n",
            BACKTRACE_NOTE,
            "\nlast words",
        ];
        assert_eq!(run(true, &writes), "sort: reading\nlast words");
    }

    #[test]
    fn passes_everything_before_a_refusal_and_lookalikes_after() {
        let text = "memory allocation of 5 bytes failed\n";
        assert_eq!(run(false, &[text]), text);
        let lookalike = "memory allocation of many bytes failed\nnote: run with care\n";
        assert_eq!(run(true, &[lookalike]), lookalike);
    }
}
