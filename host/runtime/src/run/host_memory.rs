//! The process's host memory ceiling ([`RuntimeConfig::host_memory`]):
//! every guest run reserves what it may make the host hold before it
//! starts, and gives it back when it ends, however it ends (its slot drops,
//! and a run parked at an approval has ended its attempt).
//!
//! What a run may cost the host is its guest memory limit (linear memory,
//! shared with the commands it starts), its private `/tmp` (an in-memory
//! SQLite capped at the same size) if its guest writes files through WASI
//! (`GuestProfile::wasi_files`; the shell and JavaScript guests write
//! `/tmp` into the workspace), and [`RUN_OVERHEAD`] for the rest (its
//! store and instances, output buffers, open-file write-back buffers). The
//! compiled code is mapped once per process and shared, so no run reserves
//! it.
//!
//! A run that does not fit waits, first come first served, up to its own
//! timeout, then is refused; a run larger than the whole ceiling is refused
//! at once. Both errors name the knob.
//!
//! [`RuntimeConfig::host_memory`]: crate::RuntimeConfig::host_memory

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use crate::error::ExecError;
use crate::run::limits::Limits;

/// Host memory a run holds beyond its guest memory and `/tmp`: its store
/// and instances, the output it keeps (up to its stdout/stderr limits, 1 MiB
/// each by default), and the write-back buffers of its open files (8 MiB
/// each before they are committed). BENCHMARKS.md "Host memory across
/// runs" measured a few MiB of RSS per run beyond the pages its guest
/// touches; the rest is room for output and open files.
pub const RUN_OVERHEAD: u64 = 32 << 20;

/// Part of the machine's memory the ceiling is by default: the rest is left
/// to the process's own heap, the page cache and whatever else runs there.
const DEFAULT_SHARE: (u64, u64) = (3, 4);

/// The host memory a run with `limits` reserves: its memory limit, as much
/// again for its private `/tmp` when it may fill one (`private_tmp`: its
/// guest writes files through WASI), and [`RUN_OVERHEAD`].
pub fn reservation_of(limits: &Limits, private_tmp: bool) -> u64 {
    let guest = limits.memory_bytes as u64;
    let tmp = if private_tmp { guest } else { 0 };
    guest.saturating_add(tmp).saturating_add(RUN_OVERHEAD)
}

/// The default ceiling: `COMPUTER_HOST_MEMORY` (MiB) when set, else three
/// quarters of the machine's memory (the smaller of `/proc/meminfo`'s
/// `MemTotal` and the cgroup's `memory.max`), or no ceiling where neither
/// can be read.
pub fn default_host_memory() -> u64 {
    if let Ok(v) = std::env::var("COMPUTER_HOST_MEMORY") {
        match v.trim().parse::<u64>() {
            Ok(mib) if mib > 0 => return mib << 20,
            _ => tracing::warn!(
                "COMPUTER_HOST_MEMORY={v:?} is not a number of MiB above 0; using the default"
            ),
        }
    }
    match machine_memory() {
        Some(total) => total / DEFAULT_SHARE.1 * DEFAULT_SHARE.0,
        None => u64::MAX,
    }
}

/// The memory this process may have: physical memory, or less if its
/// cgroup says so.
pub fn machine_memory() -> Option<u64> {
    let meminfo = std::fs::read_to_string("/proc/meminfo").ok();
    let total = meminfo.as_deref().and_then(|m| {
        let line = m.lines().find(|l| l.starts_with("MemTotal:"))?;
        let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
        Some(kib << 10)
    });
    // cgroup v2; "max" (no limit) does not parse.
    let cgroup = std::fs::read_to_string("/sys/fs/cgroup/memory.max")
        .ok()
        .and_then(|s| s.trim().parse::<u64>().ok());
    match (total, cgroup) {
        (Some(t), Some(c)) => Some(t.min(c)),
        (t, c) => t.or(c),
    }
}

/// How much of the ceiling is reserved, for an embedder's status page and
/// for tests.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HostMemoryUse {
    /// [`RuntimeConfig::host_memory`](crate::RuntimeConfig::host_memory).
    pub ceiling: u64,
    /// Bytes reserved by runs going now.
    pub reserved: u64,
    /// Runs waiting for their reservation to fit.
    pub waiting: usize,
}

/// The ceiling and what is reserved from it.
pub(crate) struct Budget {
    ceiling: u64,
    state: Mutex<State>,
    changed: Condvar,
}

#[derive(Default)]
struct State {
    reserved: u64,
    /// Tickets of the runs waiting, in arrival order: only the first may
    /// take its reservation, so a big run is not passed over forever by
    /// small ones.
    queue: VecDeque<u64>,
    next_ticket: u64,
}

/// A run's reservation, given back when dropped.
pub(crate) struct Reservation {
    budget: Arc<Budget>,
    bytes: u64,
}

impl Drop for Reservation {
    fn drop(&mut self) {
        let mut state = self.budget.lock();
        state.reserved -= self.bytes;
        drop(state);
        self.budget.changed.notify_all();
    }
}

impl Budget {
    pub(crate) fn new(ceiling: u64) -> Self {
        Budget {
            ceiling,
            state: Mutex::new(State::default()),
            changed: Condvar::new(),
        }
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    pub(crate) fn usage(&self) -> HostMemoryUse {
        let state = self.lock();
        HostMemoryUse {
            ceiling: self.ceiling,
            reserved: state.reserved,
            waiting: state.queue.len(),
        }
    }

    /// Wakes the waiters, so that one whose run was killed sees it. The
    /// lock is taken first: a waiter checks its kill switch under it, so the
    /// wake-up cannot fall between its check and its wait.
    pub(crate) fn wake(&self) {
        drop(self.lock());
        self.changed.notify_all();
    }

    /// Reserves `bytes`, waiting up to `wait` (or until `cancel` is set) for
    /// runs ahead of it to end.
    pub(crate) fn reserve(
        self: &Arc<Self>,
        bytes: u64,
        wait: Duration,
        cancel: &AtomicBool,
    ) -> Result<Reservation, ExecError> {
        if bytes > self.ceiling {
            return Err(ExecError::RunTooBig {
                needed: bytes,
                ceiling: self.ceiling,
            });
        }
        let deadline = Instant::now().checked_add(wait);
        let mut state = self.lock();
        let ticket = state.next_ticket;
        state.next_ticket += 1;
        state.queue.push_back(ticket);
        let mut told = false;
        let refusal = loop {
            if state.queue.front() == Some(&ticket) && state.reserved + bytes <= self.ceiling {
                state.queue.pop_front();
                state.reserved += bytes;
                drop(state);
                // The next in line may fit too.
                self.changed.notify_all();
                return Ok(Reservation {
                    budget: self.clone(),
                    bytes,
                });
            }
            if cancel.load(Ordering::SeqCst) {
                break ExecError::Cancelled;
            }
            let left = deadline.map_or(Duration::MAX, |d| {
                d.saturating_duration_since(Instant::now())
            });
            if left.is_zero() {
                break ExecError::HostMemoryBusy {
                    needed: bytes,
                    ceiling: self.ceiling,
                    reserved: state.reserved,
                    waited: wait,
                };
            }
            if !told {
                // For whoever runs the process: why a run has not started.
                tracing::info!(
                    "a run waits for host memory: it needs {} MiB, runs going hold {} of {} MiB",
                    bytes >> 20,
                    state.reserved >> 20,
                    self.ceiling >> 20
                );
                told = true;
            }
            state = self
                .changed
                .wait_timeout(state, left)
                .unwrap_or_else(|p| p.into_inner())
                .0;
        };
        state.queue.retain(|t| *t != ticket);
        drop(state);
        // Whoever was behind this run may go now.
        self.changed.notify_all();
        Err(refusal)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_is_never_more_than_the_machine_has() {
        if std::env::var_os("COMPUTER_HOST_MEMORY").is_some() {
            return;
        }
        if let Some(total) = machine_memory() {
            assert!(default_host_memory() < total);
        }
    }

    #[test]
    fn a_private_tmp_doubles_a_reservation() {
        let limits = Limits {
            memory_bytes: 64 << 20,
            ..Limits::default()
        };
        assert_eq!(reservation_of(&limits, false), (64 << 20) + RUN_OVERHEAD);
        assert_eq!(reservation_of(&limits, true), (128 << 20) + RUN_OVERHEAD);
    }

    #[test]
    fn a_waiter_at_the_head_of_the_queue_is_not_passed_by_a_smaller_run() {
        let budget = Arc::new(Budget::new(100));
        let no = AtomicBool::new(false);
        let held = budget.reserve(60, Duration::ZERO, &no).unwrap();
        let big = {
            let budget = budget.clone();
            std::thread::spawn(move || {
                let no = AtomicBool::new(false);
                budget.reserve(80, Duration::MAX, &no).map(|r| r.bytes)
            })
        };
        while budget.usage().waiting == 0 {
            std::thread::yield_now();
        }
        // 30 would fit beside the 60 held, but the 80 asked first.
        let small = budget.reserve(30, Duration::ZERO, &no);
        assert!(
            matches!(small, Err(ExecError::HostMemoryBusy { needed: 30, .. })),
            "{:?}",
            small.err()
        );
        drop(held);
        assert_eq!(big.join().unwrap().unwrap(), 80);
        assert_eq!(budget.usage().reserved, 0);
    }
}
