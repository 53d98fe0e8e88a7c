//! The guest's own event loop, in Node's order: after the main program and after every
//! callback, `process.nextTick` callbacks and then microtasks (QuickJS jobs) until both
//! are empty; then turns of timers phase (the timers due), poll phase (I/O completions)
//! and check phase (`setImmediate`). While only future timers remain, the loop sleeps
//! until the next deadline (`std::thread::sleep`, a `wasi:clocks` poll on wasip2). The
//! run ends when nothing is pending.

use std::mem::MaybeUninit;
use std::time::Duration;

use rquickjs::{Ctx, Function, Promise, Value, promise::PromiseState, qjs};

use crate::report;
use crate::state::Shared;
use crate::wasi::clocks::monotonic_clock;

pub use crate::timers::{clear_timer, queue_io, set_immediate, set_ref, set_timer};

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

/// Node's `processTicksAndRejections`: every `nextTick` callback, then the microtasks,
/// again while either queued more ticks. With `jobs_first` the microtasks go first:
/// that is the order after an ES module's body, whose evaluation is itself a promise.
pub fn run_ticks_and_jobs<'js>(
    ctx: &Ctx<'js>,
    state: &Shared,
    jobs_first: bool,
) -> Result<(), Value<'js>> {
    if jobs_first {
        run_jobs(ctx, state)?;
    }
    loop {
        if state.exiting() {
            return Ok(());
        }
        if state.ticks_pending.replace(false) {
            let run: Function = state
                .internal(ctx)
                .and_then(|internal| internal.get("runTicks"))
                .map_err(|_| ctx.catch())?;
            if run.call::<_, ()>(()).is_err() {
                return Err(ctx.catch());
            }
        }
        run_jobs(ctx, state)?;
        if !state.ticks_pending.get() {
            return Ok(());
        }
    }
}

/// Whether anything is queued that keeps the run alive: timers, immediates, I/O
/// completions, ticks or microtasks.
pub fn has_work(ctx: &Ctx<'_>, state: &Shared) -> bool {
    // SAFETY: a read of this context's runtime's job queue.
    let jobs = unsafe { qjs::JS_IsJobPending(qjs::JS_GetRuntime(ctx.as_raw().as_ptr())) };
    jobs || state.ticks_pending.get() || !state.timers.borrow().is_idle()
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

/// After a callback: ticks and microtasks, then whether the run is over.
fn settle<'js>(ctx: &Ctx<'js>, state: &Shared, jobs_first: bool) -> Option<Stop> {
    if let Err(err) = run_ticks_and_jobs(ctx, state, jobs_first) {
        report::fatal(ctx, state, err);
    }
    if state.exiting() || report::check_unhandled_rejections(ctx, state) {
        return Some(Stop::Exit);
    }
    None
}

/// Drive the loop until `until` settles, or, without it, until no work is left.
/// `after_module`: the program just evaluated was an ES module (microtasks first).
pub fn drive<'js>(
    ctx: &Ctx<'js>,
    state: &Shared,
    until: Option<&Promise<'js>>,
    after_module: bool,
) -> Stop {
    let mut jobs_first = after_module;
    loop {
        if let Some(stop) = settle(ctx, state, jobs_first) {
            return stop;
        }
        jobs_first = false;
        if let Some(promise) = until
            && promise.state() != PromiseState::Pending
        {
            return Stop::Done;
        }
        match turn(ctx, state) {
            Err(stop) => return stop,
            Ok(true) => {}
            Ok(false) => {
                return if until.is_some() {
                    Stop::Stalled
                } else {
                    Stop::Done
                };
            }
        }
    }
}

fn call<'js>(ctx: &Ctx<'js>, state: &Shared, callback: Function<'js>) -> Result<(), Stop> {
    if let Err(rquickjs::Error::Exception) = callback.call::<_, ()>(()) {
        let err = ctx.catch();
        if !state.exiting() {
            report::fatal(ctx, state, err);
        }
    }
    match settle(ctx, state, false) {
        Some(stop) => Err(stop),
        None => Ok(()),
    }
}

/// One turn: timers due, I/O completions, immediates (each phase takes what was queued
/// when it began). `Ok(false)` when there was nothing at all to do.
fn turn<'js>(ctx: &Ctx<'js>, state: &Shared) -> Result<bool, Stop> {
    if state.timers.borrow().is_idle() {
        return Ok(false);
    }
    let mut ran = false;
    for id in due_timer_ids(state) {
        if let Some(callback) = take_timer(ctx, state, id) {
            ran = true;
            call(ctx, state, callback)?;
        }
    }
    let io = state.timers.borrow().io.len();
    for _ in 0..io {
        let next = state.timers.borrow_mut().io.pop_front();
        if let Some(callback) = next.and_then(|p| p.restore(ctx).ok()) {
            ran = true;
            call(ctx, state, callback)?;
        }
    }
    let last_immediate = state.timers.borrow().immediates.back().map(|(id, _)| *id);
    while let Some(last) = last_immediate {
        let next = state.timers.borrow_mut().immediates.pop_front();
        let Some((id, callback)) = next else { break };
        if let Ok(callback) = callback.restore(ctx) {
            ran = true;
            call(ctx, state, callback)?;
        }
        if id == last {
            break;
        }
    }
    if !ran {
        sleep_until_next_timer(state);
    }
    Ok(true)
}

/// The ids of the timers due now, in firing order. The clock is read only when the
/// earliest deadline is past the last reading.
fn due_timer_ids(state: &Shared) -> Vec<u32> {
    let mut timers = state.timers.borrow_mut();
    let Some((&(first, _), _)) = timers.queue.first_key_value() else {
        return Vec::new();
    };
    if first > timers.now_ns {
        timers.now_ns = monotonic_clock::now();
    }
    let now = timers.now_ns;
    timers
        .queue
        .keys()
        .take_while(|(deadline, _)| *deadline <= now)
        .map(|(_, id)| *id)
        .collect()
}

/// Hand out timer `id`'s callback (unless an earlier callback cleared it), rescheduling
/// it if it repeats.
fn take_timer<'js>(ctx: &Ctx<'js>, state: &Shared, id: u32) -> Option<Function<'js>> {
    let mut timers = state.timers.borrow_mut();
    let (deadline, timer) = timers.entries.remove(&id)?;
    timers.queue.remove(&(deadline, id));
    if timer.interval_ns.is_none() {
        timers.unref.remove(&id);
    }
    let callback = timer.callback.clone().restore(ctx).ok()?;
    if let Some(interval) = timer.interval_ns {
        let next = timers.now_ns.max(deadline).saturating_add(interval);
        timers.queue.insert((next, id), ());
        timers.entries.insert(id, (next, timer));
    }
    Some(callback)
}

/// Longest single sleep; see `sleep_until_next_timer`.
const SLEEP_SLICE_NS: u64 = 50_000_000;

fn sleep_until_next_timer(state: &Shared) {
    let (deadline, now) = {
        let timers = state.timers.borrow();
        let Some((&(deadline, _), _)) = timers.queue.first_key_value() else {
            return;
        };
        (deadline, timers.now_ns)
    };
    if deadline <= now {
        return;
    }
    // Sleep in slices: a host call cannot be interrupted, but returning to wasm between
    // slices lets the host's epoch check end the run on its timeout or a kill while it
    // waits on a long timer.
    let mut left = deadline - now;
    while left > 0 {
        let slice = left.min(SLEEP_SLICE_NS);
        std::thread::sleep(Duration::from_nanos(slice));
        left -= slice;
    }
    // Sleeping ends at the deadline; taking it as the time saves a clock read.
    state.timers.borrow_mut().now_ns = deadline;
}
