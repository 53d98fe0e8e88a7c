//! Runs going on now: their output as it comes, for any number of
//! followers (the exec request that started a run, the console's run
//! view). A run is pumped by a thread of its own, so it goes on when
//! every follower has left, unless the one that started it asked otherwise.

use std::collections::HashMap;
use std::sync::{Arc, Condvar, Mutex};

use computer_runtime::{Event, Killer, RunHandle, RunStatus};
use computer_store::Workspace;
use serde_json::{Value, json};
use tokio::sync::broadcast;

/// One thing a follower sees.
#[derive(Debug, Clone)]
pub enum LiveEvent {
    /// Output on stdout (lossy UTF-8).
    Stdout(String),
    /// Output on stderr.
    Stderr(String),
    /// The end: the run's result as `exec --json` prints it.
    Result(Value),
}

/// Output kept for followers that arrive late; past it, older chunks are
/// dropped (the run record keeps the whole capped output).
const REPLAY_BYTES: usize = 1 << 20;

struct Shared {
    replay: Vec<LiveEvent>,
    replay_bytes: usize,
    result: Option<Value>,
}

/// A run in progress.
pub struct LiveRun {
    /// Its id.
    pub run_id: String,
    /// Its backend.
    pub backend: String,
    killer: Killer,
    shared: Mutex<Shared>,
    tx: broadcast::Sender<LiveEvent>,
}

impl LiveRun {
    /// Stops it (it ends `cancelled`).
    pub fn kill(&self) {
        (self.killer)();
    }

    /// Whether it has ended.
    pub fn is_done(&self) -> bool {
        self.lock().result.is_some()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Shared> {
        self.shared.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn push(&self, ev: LiveEvent) {
        let mut s = self.lock();
        match &ev {
            LiveEvent::Stdout(t) | LiveEvent::Stderr(t) => {
                s.replay_bytes += t.len();
                s.replay.push(ev.clone());
                while s.replay_bytes > REPLAY_BYTES && !s.replay.is_empty() {
                    if let LiveEvent::Stdout(t) | LiveEvent::Stderr(t) = s.replay.remove(0) {
                        s.replay_bytes -= t.len();
                    }
                }
            }
            LiveEvent::Result(v) => s.result = Some(v.clone()),
        }
        // Sent under the lock, so a follower that subscribes under it sees
        // every event exactly once (replay, then the channel).
        let _ = self.tx.send(ev);
    }

    /// What happened so far, and the channel of what comes next.
    pub fn follow(&self) -> (Vec<LiveEvent>, broadcast::Receiver<LiveEvent>) {
        let s = self.lock();
        let mut past = s.replay.clone();
        if let Some(r) = &s.result {
            past.push(LiveEvent::Result(r.clone()));
        }
        (past, self.tx.subscribe())
    }
}

/// The live runs of one workspace.
#[derive(Default)]
pub struct LiveRuns {
    runs: Mutex<HashMap<String, Arc<LiveRun>>>,
    idle: Condvar,
}

impl LiveRuns {
    fn map(&self) -> std::sync::MutexGuard<'_, HashMap<String, Arc<LiveRun>>> {
        self.runs.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Run `id`, if it is live here.
    pub fn get(&self, id: &str) -> Option<Arc<LiveRun>> {
        self.map().get(id).cloned()
    }

    /// The ids of the live runs.
    pub fn ids(&self) -> Vec<String> {
        self.map().keys().cloned().collect()
    }

    /// How many runs are live.
    pub fn len(&self) -> usize {
        self.map().len()
    }

    /// Whether none are.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Cancels every live run.
    pub fn cancel_all(&self) {
        for r in self.map().values() {
            r.kill();
        }
    }

    /// Waits until no run is live.
    pub fn wait_idle(&self) {
        let mut map = self.map();
        while !map.is_empty() {
            map = self.idle.wait(map).unwrap_or_else(|p| p.into_inner());
        }
    }
}

/// The result document of a run, as `computer exec --json` prints it: the
/// `RunResult`, plus `pending` (what it waits for) when it is parked.
pub fn result_doc(ws: &Workspace, result: &computer_runtime::RunResult) -> Value {
    let mut doc = json!(result);
    if result.status == RunStatus::Waiting {
        let pending: Vec<_> = ws
            .interrupts()
            .pending()
            .unwrap_or_default()
            .into_iter()
            .filter(|p| p.run_id == result.run_id)
            .collect();
        doc["pending"] = json!(pending);
    }
    doc
}

/// Follows `handle` on a thread of its own, publishing its output; `ended`
/// is told the result (metrics). Returns the live run.
pub fn pump(
    runs: &Arc<crate::state::Entry>,
    handle: RunHandle,
    actor: String,
    ended: impl FnOnce(&computer_runtime::RunResult) + Send + 'static,
) -> Arc<LiveRun> {
    let (tx, _) = broadcast::channel(4096);
    let live = Arc::new(LiveRun {
        run_id: handle.run_id().to_owned(),
        backend: handle.backend().to_owned(),
        killer: handle.killer(),
        shared: Mutex::new(Shared {
            replay: Vec::new(),
            replay_bytes: 0,
            result: None,
        }),
        tx,
    });
    runs.live.map().insert(live.run_id.clone(), live.clone());
    let entry = runs.clone();
    let run = live.clone();
    let spawned =
        std::thread::Builder::new()
            .name(format!("pump {}", live.run_id))
            .spawn(move || {
                computer_store::with_actor(actor, || {
                    while let Some(ev) = handle.next_event() {
                        match ev {
                            Event::Stdout(b) => run
                                .push(LiveEvent::Stdout(String::from_utf8_lossy(&b).into_owned())),
                            Event::Stderr(b) => run
                                .push(LiveEvent::Stderr(String::from_utf8_lossy(&b).into_owned())),
                            Event::Exit { .. } => break,
                        }
                    }
                    let result = handle.wait();
                    ended(&result);
                    run.push(LiveEvent::Result(result_doc(&entry.ws, &result)));
                    let mut map = entry.live.map();
                    map.remove(&run.run_id);
                    entry.live.idle.notify_all();
                })
            });
    if let Err(e) = spawned {
        tracing::error!("cannot follow run {}: {e}", live.run_id);
    }
    live
}
