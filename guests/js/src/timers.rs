//! The queues behind the event loop's phases: timers (ordered by deadline), immediates
//! (`setImmediate`, the check phase) and I/O callbacks (what `fs`'s callback forms and
//! child processes hand back: the poll phase). Node runs them in that order each turn,
//! which is what makes `setImmediate` inside an I/O callback run before a zero-delay
//! `setTimeout`.

use std::collections::{BTreeMap, HashMap, HashSet, VecDeque};

use rquickjs::{Ctx, Function, Persistent};

use crate::state::Shared;
use crate::wasi::clocks::monotonic_clock;

/// Node clamps timer delays to at least 1 ms and at most 2^31-1 ms.
const MAX_DELAY_MS: f64 = 2_147_483_647.0;

pub struct Timer {
    pub callback: Persistent<Function<'static>>,
    pub interval_ns: Option<u64>,
}

#[derive(Default)]
pub struct Timers {
    next_id: u32,
    /// Ordered by (deadline in monotonic ns, id): ids increase, so equal deadlines fire
    /// in the order they were set.
    pub queue: BTreeMap<(u64, u32), ()>,
    pub entries: HashMap<u32, (u64, Timer)>,
    /// The last clock reading. Zero-delay timers use it instead of reading the clock,
    /// which keeps `setTimeout(f, 0)` and `setImmediate` free of host calls.
    pub now_ns: u64,
    /// `setImmediate` callbacks, by id, in order.
    pub immediates: VecDeque<(u32, Persistent<Function<'static>>)>,
    /// I/O completions, in order.
    pub io: VecDeque<Persistent<Function<'static>>>,
    /// Timers that do not keep the run alive (`timeout.unref()`).
    pub unref: HashSet<u32>,
}

impl Timers {
    /// Drop every callback; must happen before the runtime goes away.
    pub fn clear(&mut self) {
        self.queue.clear();
        self.entries.clear();
        self.immediates.clear();
        self.io.clear();
        self.unref.clear();
    }

    fn next_id(&mut self) -> u32 {
        self.next_id = self.next_id.wrapping_add(1).max(1);
        self.next_id
    }

    /// Whether nothing that keeps the run alive is queued.
    pub fn is_idle(&self) -> bool {
        self.immediates.is_empty()
            && self.io.is_empty()
            && self.queue.keys().all(|(_, id)| self.unref.contains(id))
    }
}

fn delay_ns(delay_ms: f64) -> u64 {
    let ms = if delay_ms.is_finite() && delay_ms >= 1.0 {
        delay_ms.min(MAX_DELAY_MS)
    } else {
        0.0
    };
    (ms * 1_000_000.0) as u64
}

/// Schedule `callback` after `delay_ms` (repeating when `repeat`); returns the timer id.
pub fn set_timer<'js>(
    state: &Shared,
    ctx: &Ctx<'js>,
    callback: Function<'js>,
    delay_ms: f64,
    repeat: bool,
) -> u32 {
    let delay = delay_ns(delay_ms);
    let mut timers = state.timers.borrow_mut();
    if delay > 0 {
        timers.now_ns = monotonic_clock::now();
    }
    let id = timers.next_id();
    let deadline = timers.now_ns.saturating_add(delay);
    // An interval of 0 would spin forever without letting time pass; Node uses 1 ms.
    let interval_ns = repeat.then_some(delay.max(1_000_000));
    let timer = Timer {
        callback: Persistent::save(ctx, callback),
        interval_ns,
    };
    timers.queue.insert((deadline, id), ());
    timers.entries.insert(id, (deadline, timer));
    id
}

/// Queue `callback` for the next check phase; returns its id (shared with timers, so
/// `clearTimeout` and `clearImmediate` take either, as in Node).
pub fn set_immediate<'js>(state: &Shared, ctx: &Ctx<'js>, callback: Function<'js>) -> u32 {
    let mut timers = state.timers.borrow_mut();
    let id = timers.next_id();
    timers
        .immediates
        .push_back((id, Persistent::save(ctx, callback)));
    id
}

/// Queue an I/O completion for the next poll phase.
pub fn queue_io<'js>(state: &Shared, ctx: &Ctx<'js>, callback: Function<'js>) {
    state
        .timers
        .borrow_mut()
        .io
        .push_back(Persistent::save(ctx, callback));
}

/// `timeout.unref()` / `ref()`.
pub fn set_ref(state: &Shared, id: u32, keeps_alive: bool) {
    let mut timers = state.timers.borrow_mut();
    if keeps_alive {
        timers.unref.remove(&id);
    } else if timers.entries.contains_key(&id) {
        timers.unref.insert(id);
    }
}

pub fn clear_timer(state: &Shared, id: u32) {
    let mut timers = state.timers.borrow_mut();
    timers.unref.remove(&id);
    if let Some((deadline, _)) = timers.entries.remove(&id) {
        timers.queue.remove(&(deadline, id));
    } else if let Some(at) = timers.immediates.iter().position(|(i, _)| *i == id) {
        timers.immediates.remove(at);
    }
}
