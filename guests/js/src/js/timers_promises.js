// node:timers/promises: setTimeout / setImmediate as promises, setInterval as an
// async iterator, scheduler.wait / scheduler.yield; `signal` aborts with Node's
// AbortError (code ABORT_ERR, the signal's reason as `cause`).
'use strict';

class AbortError extends Error {
  constructor(message = 'The operation was aborted', options = undefined) {
    super(message, options);
    this.code = 'ABORT_ERR';
    this.name = 'AbortError';
  }
}

function abortError(signal) {
  return new AbortError(undefined, { cause: signal.reason });
}

function checkSignal(signal) {
  if (signal !== undefined && (signal === null || typeof signal !== 'object' || !('aborted' in signal))) {
    const err = new TypeError(`The "options.signal" property must be an instance of AbortSignal. Received ${signal === null ? 'null' : typeof signal}`);
    err.code = 'ERR_INVALID_ARG_TYPE';
    throw err;
  }
}

function later(schedule, clear, value, options) {
  const signal = options && options.signal;
  try {
    checkSignal(signal);
  } catch (e) {
    return Promise.reject(e);
  }
  if (signal && signal.aborted) return Promise.reject(abortError(signal));
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clear(timer);
      reject(abortError(signal));
    };
    const timer = schedule(() => {
      if (signal) signal.removeEventListener('abort', onAbort);
      resolve(value);
    });
    if (signal) signal.addEventListener('abort', onAbort, { once: true });
  });
}

function setTimeoutP(delay, value, options) {
  return later((fn) => setTimeout(fn, delay), clearTimeout, value, options);
}

function setImmediateP(value, options) {
  return later((fn) => setImmediate(fn), clearImmediate, value, options);
}

async function* setIntervalP(delay, value, options) {
  const signal = options && options.signal;
  checkSignal(signal);
  if (signal && signal.aborted) throw abortError(signal);
  let pending = 0;
  let wake = null;
  const timer = setInterval(() => {
    pending++;
    if (wake) wake();
  }, delay);
  const onAbort = () => { if (wake) wake(); };
  if (signal) signal.addEventListener('abort', onAbort, { once: true });
  try {
    for (;;) {
      if (pending === 0) await new Promise((resolve) => { wake = resolve; });
      wake = null;
      if (signal && signal.aborted) throw abortError(signal);
      for (; pending > 0; pending--) yield value;
    }
  } finally {
    clearInterval(timer);
    if (signal) signal.removeEventListener('abort', onAbort);
  }
}

const scheduler = {
  wait: (delay, options) => setTimeoutP(delay, undefined, options),
  yield: () => setImmediateP(),
};

module.exports = { setTimeout: setTimeoutP, setImmediate: setImmediateP, setInterval: setIntervalP, scheduler };
