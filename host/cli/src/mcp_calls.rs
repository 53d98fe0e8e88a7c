//! The tool calls `computer mcp` is running, so that they can be cancelled:
//! one by the client's `notifications/cancelled` (rmcp cancels the
//! request's token), all of them when the client goes away. A cancelled
//! `exec` ends its run `cancelled`, recorded before the server exits, so
//! `recover` does not run again what the client gave up on.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use computer_tools::CallCancel;
use tokio::sync::watch;

#[derive(Default)]
struct Calls {
    running: HashMap<u64, CallCancel>,
    /// The client went away: every call is cancelled, new ones too.
    closed: bool,
}

pub struct InFlight {
    calls: Mutex<Calls>,
    next: AtomicU64,
    /// How many calls are running.
    count: watch::Sender<usize>,
}

/// One running call; it leaves the registry when dropped.
pub struct Call {
    owner: Arc<InFlight>,
    id: u64,
    pub cancel: CallCancel,
}

impl Default for InFlight {
    fn default() -> Self {
        InFlight {
            calls: Mutex::default(),
            next: AtomicU64::new(0),
            count: watch::Sender::new(0),
        }
    }
}

impl InFlight {
    fn calls(&self) -> std::sync::MutexGuard<'_, Calls> {
        self.calls.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Registers a call (already cancelled if the client is gone).
    pub fn begin(self: &Arc<Self>) -> Call {
        let id = self.next.fetch_add(1, Ordering::Relaxed);
        let cancel = CallCancel::new();
        let mut calls = self.calls();
        if calls.closed {
            cancel.cancel();
        }
        calls.running.insert(id, cancel.clone());
        self.count.send_replace(calls.running.len());
        Call {
            owner: self.clone(),
            id,
            cancel,
        }
    }

    /// The client went away: cancels every call, and every later one.
    pub fn close(&self) {
        let cancels: Vec<CallCancel> = {
            let mut calls = self.calls();
            calls.closed = true;
            calls.running.values().cloned().collect()
        };
        if !cancels.is_empty() {
            tracing::info!(
                "the client went away: cancelling {} running tool call(s)",
                cancels.len()
            );
        }
        for c in cancels {
            c.cancel();
        }
    }

    /// Waits until no call runs.
    pub async fn drained(&self) {
        let mut count = self.count.subscribe();
        let _ = count.wait_for(|n| *n == 0).await;
    }
}

impl Drop for Call {
    fn drop(&mut self) {
        let mut calls = self.owner.calls();
        calls.running.remove(&self.id);
        self.owner.count.send_replace(calls.running.len());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn closing_cancels_running_and_later_calls_and_drains() {
        let flight = Arc::new(InFlight::default());
        let first = flight.begin();
        assert!(!first.cancel.is_cancelled());
        flight.close();
        assert!(first.cancel.is_cancelled());
        let late = flight.begin();
        assert!(late.cancel.is_cancelled());
        drop(first);
        drop(late);
        flight.drained().await;
    }
}
