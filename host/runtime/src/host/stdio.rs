//! Where a process's standard descriptors go: `dup2` onto 0, 1 and 2.
//!
//! WASI has no `dup2`: a guest's stdout is the `output-stream` that
//! `wasi:cli/stdout.get-stdout` hands out, and the wasi-libc builds our
//! programs carry (CPython's among them) answer `dup`/`dup2` with ENOTSUP.
//! The host owns those streams, so it can point them elsewhere:
//! [`StdioRoutes`] wraps the streams a process starts with, and the ones
//! the guest gets follow the current route of their descriptor, set by
//! `computer:workspace/process.redirect-stdio`. Everything the process
//! writes to descriptor 1 (Python's `print`, `os.write(1, …)`, a C
//! extension's `printf`) then lands in the file pytest's capture opened.
//!
//! The devices `/dev/stdin`, `/dev/stdout`, `/dev/stderr` and `/dev/fd/N`
//! are, as on Linux, what descriptor N points at when they are opened
//! ([`StdioRoutes::fixed_out`]): `open("/dev/fd/1")` is how a guest
//! `dup`s descriptor 1, and the copy keeps its target across a later
//! redirect of 1.
//!
//! A file target is written by appending, and read from its start: the
//! descriptor offset a POSIX `dup2` shares with the file's own descriptor
//! lives in the guest's libc, out of the host's reach.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};

use bytes::Bytes;
use wasmtime_wasi::cli::{IsTerminal, StdinStream, StdoutStream};
use wasmtime_wasi_io::poll::Pollable;
use wasmtime_wasi_io::streams::{InputStream, OutputStream, StreamError, StreamResult};

use crate::host::wasi_fs::{SharedFile, lock};

/// Most bytes a routed stream takes in one write when its target does not say.
const WRITE_BUDGET: usize = 64 << 10;

/// Where one standard descriptor goes.
#[derive(Clone)]
pub(crate) enum Route {
    /// The stream the process started with as descriptor N.
    Stdio(usize),
    /// `/dev/null`.
    Null,
    /// An open file of the process; `read` is how far descriptor 0 has
    /// read it.
    File {
        file: SharedFile,
        read: Arc<Mutex<u64>>,
    },
}

struct Routes {
    stdin: Box<dyn StdinStream>,
    /// Descriptors 1 and 2 as the process started.
    out: [Box<dyn StdoutStream>; 2],
    now: [Route; 3],
}

impl Drop for Routes {
    fn drop(&mut self) {
        // A file written through a route is committed like one written
        // through its own descriptor, when the process ends.
        for route in &self.now {
            commit(route);
        }
    }
}

fn commit(route: &Route) {
    if let Route::File { file, .. } = route
        && lock(file).commit().is_err()
    {
        tracing::debug!("a redirected standard stream's file did not commit");
    }
}

/// A process's standard streams and where each descriptor points now.
#[derive(Clone)]
pub(crate) struct StdioRoutes(Arc<Mutex<Routes>>);

impl StdioRoutes {
    pub(crate) fn new(
        stdin: impl StdinStream + 'static,
        stdout: impl StdoutStream + 'static,
        stderr: impl StdoutStream + 'static,
    ) -> Self {
        StdioRoutes(Arc::new(Mutex::new(Routes {
            stdin: Box::new(stdin),
            out: [Box::new(stdout), Box::new(stderr)],
            now: [Route::Stdio(0), Route::Stdio(1), Route::Stdio(2)],
        })))
    }

    fn lock(&self) -> MutexGuard<'_, Routes> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// What the guest's `wasi:cli/stdin` is.
    pub(crate) fn stdin(&self) -> RoutedStdin {
        RoutedStdin(self.clone())
    }

    /// What the guest's `wasi:cli/stdout` (`fd` 1) or `stderr` (2) is.
    pub(crate) fn out(&self, fd: usize) -> RoutedStdout {
        RoutedStdout {
            routes: self.clone(),
            fd,
        }
    }

    /// The stream descriptor `fd` (1 or 2) started as, whatever its route.
    fn original_out(&self, fd: usize) -> Box<dyn OutputStream> {
        self.lock().out[fd.clamp(1, 2) - 1].p2_stream()
    }

    /// The stdin the process started with, whatever its route.
    fn original_in(&self) -> Box<dyn InputStream> {
        self.lock().stdin.p2_stream()
    }

    /// An output stream to `route`, whatever the descriptors do later.
    pub(crate) fn fixed_out(&self, route: Route) -> Box<dyn OutputStream> {
        Box::new(RoutedOut {
            routes: self.clone(),
            which: Which::Fixed(route),
            streams: HashMap::new(),
        })
    }

    /// An input stream from `route`, whatever the descriptors do later.
    pub(crate) fn fixed_in(&self, route: Route) -> Box<dyn InputStream> {
        Box::new(RoutedIn {
            routes: self.clone(),
            which: Which::Fixed(route),
            original: None,
        })
    }

    /// Points `fd` at `route` (`dup2`).
    pub(crate) fn redirect(&self, fd: usize, route: Route) {
        let old = std::mem::replace(&mut self.lock().now[fd], route);
        commit(&old);
    }

    /// Where `fd` points now.
    pub(crate) fn route(&self, fd: usize) -> Route {
        self.lock().now[fd].clone()
    }
}

/// Whether a stream follows its descriptor's route or keeps one.
enum Which {
    Follow(usize),
    Fixed(Route),
}

impl Which {
    fn route(&self, routes: &StdioRoutes) -> Route {
        match self {
            Which::Follow(fd) => routes.route(*fd),
            Which::Fixed(route) => route.clone(),
        }
    }
}

/// The guest's stdout or stderr: writes follow the descriptor's route.
pub(crate) struct RoutedStdout {
    routes: StdioRoutes,
    fd: usize,
}

impl IsTerminal for RoutedStdout {
    fn is_terminal(&self) -> bool {
        false
    }
}

impl StdoutStream for RoutedStdout {
    fn p2_stream(&self) -> Box<dyn OutputStream> {
        Box::new(RoutedOut {
            routes: self.routes.clone(),
            which: Which::Follow(self.fd),
            streams: HashMap::new(),
        })
    }

    fn async_stream(&self) -> Box<dyn tokio::io::AsyncWrite + Send + Sync> {
        // Only the p3 bindings ask for this one; guests here use p2, whose
        // streams are routed.
        self.routes.lock().out[self.fd - 1].async_stream()
    }
}

/// One `output-stream` of the guest's stdout or stderr.
struct RoutedOut {
    routes: StdioRoutes,
    which: Which,
    /// The started-with streams written through so far, by descriptor.
    streams: HashMap<usize, Box<dyn OutputStream>>,
}

impl RoutedOut {
    fn original(&mut self, n: usize) -> &mut Box<dyn OutputStream> {
        let routes = &self.routes;
        self.streams
            .entry(n)
            .or_insert_with(|| routes.original_out(n))
    }
}

impl OutputStream for RoutedOut {
    fn write(&mut self, bytes: Bytes) -> StreamResult<()> {
        match self.which.route(&self.routes) {
            Route::Stdio(n) if n > 0 => self.original(n).write(bytes),
            // Pointed at stdin (`dup2(0, 1)`): not writable, as EBADF says.
            Route::Stdio(_) => Err(StreamError::LastOperationFailed(wasmtime::Error::msg(
                "the descriptor points at standard input, which is not writable",
            ))),
            Route::Null => Ok(()),
            Route::File { file, .. } => lock(&file)
                .append(&bytes)
                .map(|_| ())
                .map_err(|e| StreamError::LastOperationFailed(anyhow_of(e))),
        }
    }

    fn flush(&mut self) -> StreamResult<()> {
        match self.which.route(&self.routes) {
            Route::Stdio(n) if n > 0 => self.original(n).flush(),
            _ => Ok(()),
        }
    }

    fn check_write(&mut self) -> StreamResult<usize> {
        match self.which.route(&self.routes) {
            Route::Stdio(n) if n > 0 => self.original(n).check_write(),
            _ => Ok(WRITE_BUDGET),
        }
    }
}

#[async_trait::async_trait]
impl Pollable for RoutedOut {
    async fn ready(&mut self) {
        if let Route::Stdio(n) = self.which.route(&self.routes)
            && n > 0
        {
            self.original(n).ready().await;
        }
    }
}

/// The guest's stdin: reads follow descriptor 0's route.
pub(crate) struct RoutedStdin(StdioRoutes);

impl IsTerminal for RoutedStdin {
    fn is_terminal(&self) -> bool {
        false
    }
}

impl StdinStream for RoutedStdin {
    fn p2_stream(&self) -> Box<dyn InputStream> {
        Box::new(RoutedIn {
            routes: self.0.clone(),
            which: Which::Follow(0),
            original: None,
        })
    }

    fn async_stream(&self) -> Box<dyn tokio::io::AsyncRead + Send + Sync> {
        self.0.lock().stdin.async_stream()
    }
}

struct RoutedIn {
    routes: StdioRoutes,
    which: Which,
    original: Option<Box<dyn InputStream>>,
}

impl RoutedIn {
    fn original(&mut self) -> &mut Box<dyn InputStream> {
        let routes = &self.routes;
        self.original.get_or_insert_with(|| routes.original_in())
    }
}

impl InputStream for RoutedIn {
    fn read(&mut self, size: usize) -> StreamResult<Bytes> {
        match self.which.route(&self.routes) {
            Route::Stdio(0) => self.original().read(size),
            // stdin pointed at an output stream, or at nothing: at its end.
            Route::Stdio(_) | Route::Null => Err(StreamError::Closed),
            Route::File { file, read } => {
                let mut at = read.lock().unwrap_or_else(|e| e.into_inner());
                let bytes = lock(&file)
                    .read_at(*at, size as u64)
                    .map_err(|e| StreamError::LastOperationFailed(anyhow_of(e)))?;
                if bytes.is_empty() && size > 0 {
                    return Err(StreamError::Closed);
                }
                *at += bytes.len() as u64;
                Ok(bytes.into())
            }
        }
    }
}

#[async_trait::async_trait]
impl Pollable for RoutedIn {
    async fn ready(&mut self) {
        if let Route::Stdio(0) = self.which.route(&self.routes) {
            self.original().ready().await;
        }
    }
}

fn anyhow_of(e: wasmtime_wasi::p2::FsError) -> wasmtime::Error {
    wasmtime::Error::msg(format!("{e:?}"))
}
