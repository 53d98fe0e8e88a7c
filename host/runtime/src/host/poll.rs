//! `wasi:io/poll`, watched by the run's limits. A guest blocked in `poll`
//! or `pollable.block` (Python's `time.sleep`, `select.select`, asyncio's
//! timers, a Rust `thread::sleep`) is inside the host, where the epoch
//! callback that enforces `--timeout` and the kill switch never runs: it
//! only runs while wasm code does. So the wait is cut into slices, and
//! between slices the run's deadline, cancel flag and output flood are
//! checked, and the guest is stopped as the epoch callback would stop it.
//!
//! Dropping a slice's future is safe: a pollable's readiness future only
//! watches (a timer, a stream's buffer), it consumes nothing.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use wasmtime::component::{HasData, Resource, ResourceTable};
use wasmtime_wasi::p2::bindings::sync::io::poll;
use wasmtime_wasi::runtime::in_tokio;
use wasmtime_wasi_io::bindings::wasi::io::poll as async_poll;
use wasmtime_wasi_io::poll::DynPollable;

use crate::run::state::{RunState, Stop};

/// Longest wait between two checks of the run's limits: how late a
/// Ctrl-C or a cancel is noticed by a sleeping guest.
const SLICE: Duration = Duration::from_millis(20);

/// The resource table, and what may stop the run while it waits.
pub(crate) struct Watched<'a> {
    table: &'a mut ResourceTable,
    deadline: Instant,
    cancel: &'a Arc<AtomicBool>,
    /// A command's: its caller dropped it.
    killed: Option<&'a Arc<AtomicBool>>,
    flooded: &'a Arc<AtomicBool>,
    stop: &'a mut Option<Stop>,
}

pub(crate) struct WatchedPoll;

impl HasData for WatchedPoll {
    type Data<'a> = Watched<'a>;
}

pub(crate) fn watched(s: &mut RunState) -> Watched<'_> {
    Watched {
        table: &mut s.table,
        deadline: s.nesting.grace.deadline(s.deadline),
        cancel: &s.cancel,
        killed: s.nesting.killed.as_ref(),
        flooded: &s.flooded,
        stop: &mut s.stop,
    }
}

impl Watched<'_> {
    /// Stops the guest (a trap, with the reason in `stop`) if the run must
    /// end; otherwise how long the next slice may wait.
    fn next_slice(&mut self) -> wasmtime::Result<Duration> {
        let (stop, why) = if self.cancel.load(Ordering::SeqCst) {
            (Stop::Cancelled, "run cancelled")
        } else if self.killed.is_some_and(|k| k.load(Ordering::SeqCst)) {
            (Stop::Cancelled, "the command's caller dropped it")
        } else if self.flooded.load(Ordering::SeqCst) {
            (Stop::Flooded, "output flood")
        } else {
            let left = self.deadline.saturating_duration_since(Instant::now());
            if !left.is_zero() {
                return Ok(left.min(SLICE));
            }
            (Stop::TimedOut, "run timed out")
        };
        *self.stop = Some(stop);
        Err(wasmtime::Error::msg(why))
    }
}

/// Borrows of the guest's pollables, made again for each slice (the list
/// is consumed by each attempt).
fn borrows(reps: &[u32]) -> Vec<Resource<DynPollable>> {
    reps.iter().map(|r| Resource::new_borrow(*r)).collect()
}

impl poll::Host for Watched<'_> {
    fn poll(&mut self, pollables: Vec<Resource<DynPollable>>) -> wasmtime::Result<Vec<u32>> {
        let reps: Vec<u32> = pollables.iter().map(Resource::rep).collect();
        loop {
            let slice = self.next_slice()?;
            let table = &mut *self.table;
            let attempt = in_tokio(async {
                tokio::time::timeout(slice, async_poll::Host::poll(table, borrows(&reps))).await
            });
            if let Ok(ready) = attempt {
                return ready;
            }
        }
    }
}

impl poll::HostPollable for Watched<'_> {
    fn ready(&mut self, pollable: Resource<DynPollable>) -> wasmtime::Result<bool> {
        in_tokio(async { async_poll::HostPollable::ready(self.table, pollable).await })
    }

    fn block(&mut self, pollable: Resource<DynPollable>) -> wasmtime::Result<()> {
        let rep = pollable.rep();
        loop {
            let slice = self.next_slice()?;
            let table = &mut *self.table;
            let attempt = in_tokio(async {
                let wait = async_poll::HostPollable::block(table, Resource::new_borrow(rep));
                tokio::time::timeout(slice, wait).await
            });
            if let Ok(done) = attempt {
                return done;
            }
        }
    }

    fn drop(&mut self, pollable: Resource<DynPollable>) -> wasmtime::Result<()> {
        async_poll::HostPollable::drop(self.table, pollable)
    }
}
