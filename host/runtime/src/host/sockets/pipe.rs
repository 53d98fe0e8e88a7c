//! One direction of a loopback connection: a bounded byte buffer between
//! the writer's `output-stream` and the reader's `input-stream`. The bound
//! is the backpressure: a writer whose peer does not read waits in
//! `check-write`/poll as it would on a full kernel socket buffer, and the
//! run's memory never holds more than `CAPACITY` per direction.

use std::collections::VecDeque;
use std::pin::Pin;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::task::{Context, Poll, Waker};

use bytes::Bytes;
use tokio::sync::Notify;
use wasmtime_wasi_io::poll::Pollable;
use wasmtime_wasi_io::streams::{InputStream, OutputStream, StreamError, StreamResult};

/// Bytes a direction holds before its writer must wait (Linux's default
/// socket buffers are of this order).
pub(crate) const CAPACITY: usize = 256 << 10;

impl State {
    /// Registers a host-side waiter once (a task polled again without a
    /// change must not grow the list).
    fn wait(&mut self, waker: &Waker) {
        if !self.wakers.iter().any(|w| w.will_wake(waker)) {
            self.wakers.push(waker.clone());
        }
    }
}

#[derive(Default)]
struct State {
    buf: VecDeque<u8>,
    /// The writer shut down or went away: the reader sees end of stream
    /// once the buffer is drained.
    write_closed: bool,
    /// The reader shut down or went away: a write is a broken pipe.
    read_closed: bool,
    /// Host-side ends (`LoopbackIo`) waiting for a change.
    wakers: Vec<Waker>,
}

/// One direction's buffer, shared by its two ends.
#[derive(Default)]
pub(crate) struct Pipe {
    state: Mutex<State>,
    /// Woken on every change, for both ends' pollables.
    changed: Notify,
    /// The namespace's count of pipes alive, given back on drop.
    count: Option<Arc<AtomicUsize>>,
}

impl Drop for Pipe {
    fn drop(&mut self) {
        if let Some(count) = &self.count {
            count.fetch_sub(1, Ordering::SeqCst);
        }
    }
}

impl Pipe {
    /// A pipe counted in `count` while it lives.
    pub(crate) fn counted(count: &Arc<AtomicUsize>) -> Self {
        count.fetch_add(1, Ordering::SeqCst);
        Pipe {
            state: Mutex::default(),
            changed: Notify::new(),
            count: Some(count.clone()),
        }
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Wakes both ends' waiters after a change (the lock released first).
    fn changed(&self, mut s: MutexGuard<'_, State>) {
        let wakers = std::mem::take(&mut s.wakers);
        drop(s);
        wakers.into_iter().for_each(Waker::wake);
        self.changed.notify_waiters();
    }

    pub(crate) fn close_write(&self) {
        let mut s = self.lock();
        s.write_closed = true;
        self.changed(s);
    }

    pub(crate) fn close_read(&self) {
        let mut s = self.lock();
        s.read_closed = true;
        // Nobody will read what is left: free it.
        s.buf = VecDeque::new();
        self.changed(s);
    }

    /// Waits until `ready` holds for the state.
    async fn until(&self, ready: impl Fn(&State) -> bool) {
        loop {
            // Registered before the check, so a change between the check
            // and the wait is not missed (`notify_waiters` wakes every
            // `Notified` created before it).
            let changed = self.changed.notified();
            if ready(&self.lock()) {
                return;
            }
            changed.await;
        }
    }
}

/// The reading end: a connection's `input-stream`.
pub(crate) struct Reader(pub Arc<Pipe>);

/// The writing end: a connection's `output-stream`.
pub(crate) struct Writer(pub Arc<Pipe>);

impl Drop for Reader {
    fn drop(&mut self) {
        self.0.close_read();
    }
}

impl Drop for Writer {
    fn drop(&mut self) {
        self.0.close_write();
    }
}

impl InputStream for Reader {
    fn read(&mut self, size: usize) -> StreamResult<Bytes> {
        let mut s = self.0.lock();
        if s.buf.is_empty() {
            return if s.write_closed || s.read_closed {
                Err(StreamError::Closed)
            } else {
                Ok(Bytes::new())
            };
        }
        let n = size.min(s.buf.len());
        let bytes: Vec<u8> = s.buf.drain(..n).collect();
        self.0.changed(s);
        Ok(bytes.into())
    }
}

#[async_trait::async_trait]
impl Pollable for Reader {
    async fn ready(&mut self) {
        self.0
            .until(|s| !s.buf.is_empty() || s.write_closed || s.read_closed)
            .await
    }
}

fn broken_pipe() -> StreamError {
    StreamError::LastOperationFailed(wasmtime::Error::msg(
        "connection reset: the peer closed its end (broken pipe)",
    ))
}

impl OutputStream for Writer {
    fn write(&mut self, bytes: Bytes) -> StreamResult<()> {
        let mut s = self.0.lock();
        if s.read_closed {
            return Err(broken_pipe());
        }
        if s.write_closed {
            return Err(StreamError::Closed);
        }
        if bytes.len() > CAPACITY - s.buf.len() {
            return Err(StreamError::trap("write exceeds what check-write allowed"));
        }
        s.buf.extend(&bytes[..]);
        self.0.changed(s);
        Ok(())
    }

    fn flush(&mut self) -> StreamResult<()> {
        // Bytes are with the peer as soon as they are written.
        Ok(())
    }

    fn check_write(&mut self) -> StreamResult<usize> {
        let s = self.0.lock();
        if s.read_closed {
            return Err(broken_pipe());
        }
        if s.write_closed {
            return Err(StreamError::Closed);
        }
        Ok(CAPACITY - s.buf.len())
    }
}

#[async_trait::async_trait]
impl Pollable for Writer {
    async fn ready(&mut self) {
        self.0
            .until(|s| s.buf.len() < CAPACITY || s.read_closed || s.write_closed)
            .await
    }
}

/// A connection's two directions as tokio I/O, for the host's own side of
/// a loopback connection (`wasi:http` requests to a server of the run).
pub(crate) struct LoopbackIo {
    pub incoming: Arc<Pipe>,
    pub outgoing: Arc<Pipe>,
}

impl Drop for LoopbackIo {
    fn drop(&mut self) {
        self.incoming.close_read();
        self.outgoing.close_write();
    }
}

impl tokio::io::AsyncRead for LoopbackIo {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        out: &mut tokio::io::ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        let pipe = &self.incoming;
        let mut s = pipe.lock();
        if s.buf.is_empty() {
            if s.write_closed || s.read_closed {
                return Poll::Ready(Ok(())); // end of stream
            }
            s.wait(cx.waker());
            return Poll::Pending;
        }
        let n = out.remaining().min(s.buf.len());
        let (a, b) = s.buf.as_slices();
        let from_a = n.min(a.len());
        out.put_slice(&a[..from_a]);
        out.put_slice(&b[..n - from_a]);
        s.buf.drain(..n);
        pipe.changed(s);
        Poll::Ready(Ok(()))
    }
}

impl tokio::io::AsyncWrite for LoopbackIo {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        let pipe = &self.outgoing;
        let mut s = pipe.lock();
        if s.read_closed || s.write_closed {
            return Poll::Ready(Err(std::io::ErrorKind::BrokenPipe.into()));
        }
        let room = CAPACITY - s.buf.len();
        if room == 0 {
            s.wait(cx.waker());
            return Poll::Pending;
        }
        let n = room.min(buf.len());
        s.buf.extend(&buf[..n]);
        pipe.changed(s);
        Poll::Ready(Ok(n))
    }

    fn poll_flush(self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Poll::Ready(Ok(()))
    }

    fn poll_shutdown(self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        self.outgoing.close_write();
        Poll::Ready(Ok(()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_flow_in_order_and_end_after_close() {
        let pipe = Arc::new(Pipe::default());
        let (mut r, mut w) = (Reader(pipe.clone()), Writer(pipe));
        w.write(Bytes::from_static(b"hello ")).unwrap();
        w.write(Bytes::from_static(b"world")).unwrap();
        assert_eq!(&r.read(3).unwrap()[..], b"hel");
        assert_eq!(&r.read(100).unwrap()[..], b"lo world");
        assert!(r.read(10).unwrap().is_empty(), "nothing yet, not closed");
        drop(w);
        assert!(matches!(r.read(10), Err(StreamError::Closed)));
    }

    #[test]
    fn a_full_buffer_stops_the_writer_and_a_gone_reader_breaks_it() {
        let pipe = Arc::new(Pipe::default());
        let (r, mut w) = (Reader(pipe.clone()), Writer(pipe));
        w.write(vec![0u8; CAPACITY].into()).unwrap();
        assert_eq!(w.check_write().unwrap(), 0);
        assert!(w.write(Bytes::from_static(b"x")).is_err());
        drop(r);
        assert!(matches!(
            w.check_write(),
            Err(StreamError::LastOperationFailed(_))
        ));
    }
}
