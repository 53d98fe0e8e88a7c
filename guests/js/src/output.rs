//! Writing to the run's stdout and stderr.
//!
//! Each console call goes straight to the WASI output stream and is flushed, so the host
//! can stream it as it happens. There is no buffering layer in between on purpose.

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
    pub fn from_fd(fd: i32) -> Stream {
        if fd == 2 {
            Stream::Stderr
        } else {
            Stream::Stdout
        }
    }
}

pub fn write(stream: Stream, bytes: &[u8]) {
    let out: OutputStream = match stream {
        Stream::Stdout => stdout::get_stdout(),
        Stream::Stderr => stderr::get_stderr(),
    };
    for chunk in bytes.chunks(MAX_WRITE) {
        // A failed write means the host closed the stream (e.g. the output cap was reached);
        // the program keeps running, its output is simply dropped from here on.
        if out.blocking_write_and_flush(chunk).is_err() {
            break;
        }
    }
}

pub fn write_str(stream: Stream, text: &str) {
    write(stream, text.as_bytes());
}
