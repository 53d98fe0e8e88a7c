//! `notifications/progress` while a component compiles. The first exec on
//! an empty component cache compiles its guest for seconds (a user's
//! component, or a built-in one before `computer prepare`); a client that
//! sent a `progressToken` hears about it every second instead of nothing,
//! so its tool timeout can be reset and its user told why it waits.
//!
//! The runtime's `on_compile` observer feeds one state for the server; a
//! call with a token reports whatever compile is under way while it runs
//! (a call waiting on a compile another call started waits for it too).

use std::sync::Arc;
use std::time::{Duration, Instant};

use computer_runtime::{CompileEvent, CompileObserver};
use rmcp::model::{ProgressNotificationParam, ProgressToken};
use rmcp::{Peer, RoleServer};
use tokio::sync::watch;

/// How often a waiting client hears that the compile goes on.
const EVERY: Duration = Duration::from_secs(1);

#[derive(Clone, Debug, PartialEq)]
struct Compiling {
    name: String,
    bytes: usize,
    started: Instant,
}

/// The compile under way, if any.
pub struct Compiles {
    now: watch::Sender<Option<Compiling>>,
}

impl Default for Compiles {
    fn default() -> Self {
        Compiles {
            now: watch::Sender::new(None),
        }
    }
}

impl Compiles {
    /// The runtime's observer, which keeps this state.
    pub fn observer(self: &Arc<Self>) -> CompileObserver {
        let this = self.clone();
        CompileObserver(Arc::new(move |event| match event {
            CompileEvent::Started { name, bytes } => {
                this.now.send_replace(Some(Compiling {
                    name: name.clone(),
                    bytes: *bytes,
                    started: Instant::now(),
                }));
            }
            CompileEvent::Finished { name, .. } => {
                this.now.send_if_modified(|now| {
                    let done = now.as_ref().is_some_and(|c| &c.name == name);
                    if done {
                        *now = None;
                    }
                    done
                });
            }
        }))
    }

    /// Sends `token`'s progress to `peer` while compiles go on, until the
    /// returned task is aborted (when the call ends).
    pub fn report(
        &self,
        peer: Peer<RoleServer>,
        token: ProgressToken,
    ) -> tokio::task::JoinHandle<()> {
        let mut now = self.now.subscribe();
        tokio::spawn(async move {
            let mut sent = 0u32;
            loop {
                let current = now.borrow_and_update().clone();
                let Some(c) = current else {
                    if now.changed().await.is_err() {
                        return;
                    }
                    continue;
                };
                sent += 1;
                let param = ProgressNotificationParam::new(token.clone(), f64::from(sent))
                    .with_message(message(&c));
                if peer.notify_progress(param).await.is_err() {
                    return;
                }
                // Again in a second, or at once when the compile changes.
                let _ = tokio::time::timeout(EVERY, now.changed()).await;
            }
        })
    }
}

fn message(c: &Compiling) -> String {
    format!(
        "{}, once: later runs load it from the cache ({} s so far)",
        crate::backends::compiling(&c.name, c.bytes),
        c.started.elapsed().as_secs()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_state_follows_the_compile_events() {
        let compiles = Arc::new(Compiles::default());
        let observe = compiles.observer();
        (observe.0)(&CompileEvent::Started {
            name: "shell".into(),
            bytes: 30 << 20,
        });
        let now = compiles.now.borrow().clone().expect("compiling");
        assert!(message(&now).starts_with("compiling shell (30 MB) for this machine"));
        (observe.0)(&CompileEvent::Finished {
            name: "other".into(),
            elapsed: Duration::ZERO,
        });
        assert!(compiles.now.borrow().is_some(), "another component's end");
        (observe.0)(&CompileEvent::Finished {
            name: "shell".into(),
            elapsed: Duration::ZERO,
        });
        assert!(compiles.now.borrow().is_none());
    }
}
