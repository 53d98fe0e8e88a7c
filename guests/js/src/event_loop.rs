//! The guest's own event loop: microtasks (QuickJS jobs), then timers.
//!
//! While only timers remain, the loop sleeps until the next deadline
//! (`std::thread::sleep`, a `wasi:clocks` poll on wasip2), fires it and drains the
//! microtasks it queued, like Node does after each callback. The run ends when nothing
//! is pending.

use std::collections::{BTreeMap, HashMap};
use std::mem::MaybeUninit;
use std::time::Duration;

use rquickjs::{Ctx, Function, Persistent, Promise, Value, promise::PromiseState, qjs};

use crate::report;
use crate::state::Shared;
use crate::wasi::clocks::monotonic_clock;

/// Node clamps timer delays to at least 1 ms and at most 2^31-1 ms.
const MAX_DELAY_MS: f64 = 2_147_483_647.0;

struct Timer {
    callback: Persistent<Function<'static>>,
    interval_ns: Option<u64>,
}

#[derive(Default)]
pub struct Timers {
    next_id: u32,
    /// Ordered by (deadline in monotonic ns, id): ids increase, so equal deadlines fire
    /// in the order they were set.
    queue: BTreeMap<(u64, u32), ()>,
    entries: HashMap<u32, (u64, Timer)>,
    /// The last clock reading. Zero-delay timers use it instead of reading the clock,
    /// which keeps `setTimeout(f, 0)` and `setImmediate` free of host calls.
    now_ns: u64,
}

impl Timers {
    /// Drop every callback; must happen before the runtime goes away.
    pub fn clear(&mut self) {
        self.queue.clear();
        self.entries.clear();
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
    timers.next_id = timers.next_id.wrapping_add(1).max(1);
    let id = timers.next_id;
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

pub fn clear_timer(state: &Shared, id: u32) {
    let mut timers = state.timers.borrow_mut();
    if let Some((deadline, _)) = timers.entries.remove(&id) {
        timers.queue.remove(&(deadline, id));
    }
}

/// Run every queued microtask. An exception escaping a job (only uncatchable ones or
/// an out-of-memory can) is returned.
pub fn run_jobs<'js>(ctx: &Ctx<'js>, state: &Shared) -> Result<(), Value<'js>> {
    loop {
        if state.exiting() {
            return Ok(());
        }
        let mut job_ctx = MaybeUninit::<*mut qjs::JSContext>::uninit();
        // SAFETY: plain FFI call on this context's runtime; on error QuickJS stores the
        // context the job ran in, which is ours (there is only one).
        let res = unsafe {
            qjs::JS_ExecutePendingJob(
                qjs::JS_GetRuntime(ctx.as_raw().as_ptr()),
                job_ctx.as_mut_ptr(),
            )
        };
        match res {
            0 => return Ok(()),
            r if r < 0 => return Err(ctx.catch()),
            _ => {}
        }
    }
}

/// Why [`drive`] returned.
pub enum Stop {
    /// `until` settled (or, without `until`, nothing is left to do).
    Done,
    /// Nothing is pending any more but `until` is still pending: it can never settle.
    Stalled,
    /// The run is over: `process.exit`, or a fatal error that was already reported.
    Exit,
}

/// Drive the loop until `until` settles, or, without it, until no work is left.
pub fn drive<'js>(ctx: &Ctx<'js>, state: &Shared, until: Option<&Promise<'js>>) -> Stop {
    loop {
        if let Err(err) = run_jobs(ctx, state) {
            report::fatal(ctx, state, err);
        }
        if state.exiting() {
            return Stop::Exit;
        }
        if report::check_unhandled_rejections(ctx, state) {
            return Stop::Exit;
        }
        if let Some(promise) = until
            && promise.state() != PromiseState::Pending
        {
            return Stop::Done;
        }
        let Some(callback) = next_due_timer(ctx, state) else {
            return if until.is_some() {
                Stop::Stalled
            } else {
                Stop::Done
            };
        };
        if let Err(rquickjs::Error::Exception) = callback.call::<_, ()>(()) {
            let err = ctx.catch();
            if !state.exiting() {
                report::fatal(ctx, state, err);
            }
        }
    }
}

/// Longest single sleep; see `next_due_timer`.
const SLEEP_SLICE_NS: u64 = 50_000_000;

/// Wait for the earliest timer, reschedule it if it repeats, and hand out its callback.
fn next_due_timer<'js>(ctx: &Ctx<'js>, state: &Shared) -> Option<Function<'js>> {
    let (deadline, id) = {
        let timers = state.timers.borrow();
        let (&(deadline, id), _) = timers.queue.first_key_value()?;
        (deadline, id)
    };
    let now = {
        let mut timers = state.timers.borrow_mut();
        if deadline > timers.now_ns {
            timers.now_ns = monotonic_clock::now();
        }
        timers.now_ns
    };
    if deadline > now {
        // Sleep in slices: a host call cannot be interrupted, but returning
        // to wasm between slices lets the host's epoch check end the run
        // on its timeout or a kill while it waits on a long timer.
        let mut left = deadline - now;
        while left > 0 {
            let slice = left.min(SLEEP_SLICE_NS);
            std::thread::sleep(Duration::from_nanos(slice));
            left -= slice;
        }
        // Sleeping ends at the deadline; taking it as the time saves a clock read.
        state.timers.borrow_mut().now_ns = deadline;
    }
    let mut timers = state.timers.borrow_mut();
    timers.queue.remove(&(deadline, id));
    let (_, timer) = timers.entries.remove(&id)?;
    let callback = timer.callback.clone().restore(ctx).ok()?;
    if let Some(interval) = timer.interval_ns {
        let next = timers.now_ns.max(deadline).saturating_add(interval);
        timers.queue.insert((next, id), ());
        timers.entries.insert(id, (next, timer));
    }
    Some(callback)
}
