//! Stopping a tool call from another thread: what `computer mcp` does when
//! its client cancels a request or goes away.

use std::sync::{Arc, Mutex};

use computer_runtime::Killer;

/// The cancel switch of one tool call. Cheap to clone; every clone is the
/// same switch. Only `exec` has anything to stop: its run ends `cancelled`
/// (exit code 130), recorded as such.
#[derive(Clone, Default)]
pub struct CallCancel {
    state: Arc<Mutex<State>>,
}

#[derive(Default)]
struct State {
    cancelled: bool,
    killer: Option<Killer>,
}

impl CallCancel {
    /// A switch not pulled yet, for one call.
    pub fn new() -> Self {
        Self::default()
    }

    /// Stops the call's run, now if it has one, else as soon as it starts.
    pub fn cancel(&self) {
        let killer = {
            let mut st = self.state.lock().unwrap_or_else(|p| p.into_inner());
            st.cancelled = true;
            st.killer.clone()
        };
        if let Some(kill) = killer {
            kill();
        }
    }

    /// Whether [`cancel`](Self::cancel) was called on any clone.
    pub fn is_cancelled(&self) -> bool {
        self.state
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .cancelled
    }

    /// Hands over the run's kill switch; it is pulled at once if the call
    /// was cancelled while the run was starting.
    pub(crate) fn watch(&self, killer: Killer) {
        let cancelled = {
            let mut st = self.state.lock().unwrap_or_else(|p| p.into_inner());
            st.killer = Some(killer.clone());
            st.cancelled
        };
        if cancelled {
            killer();
        }
    }
}
