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
