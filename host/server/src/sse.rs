//! A run's output as server-sent events: `run` (its id and backend) first,
//! then `stdout`/`stderr` chunks (`{"data": "..."}`) as they come, then
//! `result` (the document `exec --json` prints), then the stream ends.

use std::collections::VecDeque;
use std::convert::Infallible;
use std::sync::Arc;

use axum::response::sse::{Event, KeepAlive, Sse};
use futures_util::Stream;
use serde_json::{Value, json};
use tokio::sync::broadcast::{self, error::RecvError};

use crate::live::{LiveEvent, LiveRun};

/// Kills its run when dropped before the run ended: the stream of a client
/// that asked for `cancel_on_disconnect` and went away.
struct KillOnDrop(Arc<LiveRun>);

impl Drop for KillOnDrop {
    fn drop(&mut self) {
        if !self.0.is_done() {
            tracing::info!("client left; cancelling run {}", self.0.run_id);
            self.0.kill();
        }
    }
}

struct Follow {
    first: Option<Value>,
    past: VecDeque<LiveEvent>,
    rx: Option<broadcast::Receiver<LiveEvent>>,
    done: bool,
    _guard: Option<KillOnDrop>,
}

fn event(ev: &LiveEvent) -> Event {
    match ev {
        LiveEvent::Stdout(t) => Event::default()
            .event("stdout")
            .data(json!({ "data": t }).to_string()),
        LiveEvent::Stderr(t) => Event::default()
            .event("stderr")
            .data(json!({ "data": t }).to_string()),
        LiveEvent::Result(v) => Event::default().event("result").data(v.to_string()),
    }
}

/// Events of a finished run (from its record): output, then the result.
pub fn finished(
    run: Value,
    events: Vec<LiveEvent>,
) -> Sse<impl Stream<Item = Result<Event, Infallible>>> {
    stream(Follow {
        first: Some(run),
        past: events.into(),
        rx: None,
        done: false,
        _guard: None,
    })
}

/// Follows a live run from its first output (replayed) to its result.
pub fn follow(
    live: Arc<LiveRun>,
    cancel_on_disconnect: bool,
) -> Sse<impl Stream<Item = Result<Event, Infallible>>> {
    let (past, rx) = live.follow();
    let first = json!({"run_id": live.run_id, "backend": live.backend});
    stream(Follow {
        first: Some(first),
        past: past.into(),
        rx: Some(rx),
        done: false,
        _guard: cancel_on_disconnect.then(|| KillOnDrop(live)),
    })
}

fn stream(f: Follow) -> Sse<impl Stream<Item = Result<Event, Infallible>>> {
    let s = futures_util::stream::unfold(f, |mut f| async move {
        if f.done {
            return None;
        }
        if let Some(run) = f.first.take() {
            return Some((Ok(Event::default().event("run").data(run.to_string())), f));
        }
        let ev = match f.past.pop_front() {
            Some(ev) => ev,
            None => {
                let rx = f.rx.as_mut()?;
                match rx.recv().await {
                    Ok(ev) => ev,
                    Err(RecvError::Lagged(n)) => {
                        let note = json!({"skipped_events": n});
                        return Some((
                            Ok(Event::default().event("lagged").data(note.to_string())),
                            f,
                        ));
                    }
                    Err(RecvError::Closed) => return None,
                }
            }
        };
        f.done = matches!(ev, LiveEvent::Result(_));
        Some((Ok(event(&ev)), f))
    });
    Sse::new(s).keep_alive(KeepAlive::default())
}

/// Events of a run parked at an approval: `run`, then `waiting` (what it
/// waits for), and the connection stays open: once the run is resumed
/// (here, by an answer) its output and result follow, as for a live run.
/// The wait is a check every 250 ms, by a task that ends with the client.
pub fn parked(
    server: Arc<crate::state::Server>,
    entry: Arc<crate::state::Entry>,
    first: Value,
    pending: Value,
) -> Sse<impl Stream<Item = Result<Event, Infallible>>> {
    let (tx, rx) = tokio::sync::mpsc::channel::<Event>(64);
    let run = first["run_id"].as_str().unwrap_or_default().to_owned();
    tokio::spawn(async move {
        let send = |ev: Event| {
            let tx = tx.clone();
            async move { tx.send(ev).await.is_ok() }
        };
        if !send(Event::default().event("run").data(first.to_string())).await
            || !send(Event::default().event("waiting").data(pending.to_string())).await
        {
            return;
        }
        loop {
            tokio::time::sleep(std::time::Duration::from_millis(250)).await;
            // A shutdown ends the wait (the run stays parked for the next
            // server), so the graceful shutdown does not wait on it.
            if tx.is_closed() || server.stopping() {
                return;
            }
            if let Some(live) = entry.live.get(&run) {
                let (past, mut rx) = live.follow();
                for ev in past {
                    let end = matches!(ev, LiveEvent::Result(_));
                    if !send(event(&ev)).await || end {
                        return;
                    }
                }
                loop {
                    match rx.recv().await {
                        Ok(ev) => {
                            let end = matches!(ev, LiveEvent::Result(_));
                            if !send(event(&ev)).await || end {
                                return;
                            }
                        }
                        Err(RecvError::Lagged(_)) => {}
                        Err(RecvError::Closed) => return,
                    }
                }
            }
            // Answered and ended between two looks, or ended elsewhere.
            let ws = entry.ws.clone();
            let id = run.clone();
            let record = tokio::task::spawn_blocking(move || ws.runs().get(&id)).await;
            let Ok(Ok(Some(r))) = record else { return };
            if r.status != computer_store::RunStatus::Waiting && entry.live.get(&run).is_none() {
                for ev in crate::routes::runs::record_events(&r) {
                    if !send(event(&ev)).await {
                        return;
                    }
                }
                return;
            }
        }
    });
    let s = futures_util::stream::unfold(rx, |mut rx| async move {
        rx.recv().await.map(|ev| (Ok(ev), rx))
    });
    Sse::new(s).keep_alive(KeepAlive::default())
}
