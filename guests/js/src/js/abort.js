// AbortController and AbortSignal (on web.js's EventTarget), as Node 20 has them.
// AbortSignal.timeout's timer keeps the run alive until it fires: timers here cannot
// be unref'd.
'use strict';

const { DOMException, EventTarget, Event, argType } = require('web');

const kCustom = Symbol.for('nodejs.util.inspect.custom');
const kInternal = Symbol('internal');

function illegal() {
  const err = new TypeError('Illegal constructor');
  err.code = 'ERR_ILLEGAL_CONSTRUCTOR';
  return err;
}

function abortSignal(signal, reason) {
  if (signal.aborted) return;
  signal[kInternal].aborted = true;
  signal[kInternal].reason = reason === undefined ? new DOMException('This operation was aborted', 'AbortError') : reason;
  signal.dispatchEvent(new Event('abort'));
  for (const dep of signal[kInternal].dependents) abortSignal(dep, signal.reason);
}

function inspectAs(name, props) {
  const ctor = { [name]: function () {} }[name];
  return Object.assign(Object.create(ctor.prototype), props);
}

let constructing = false;
function createSignal() {
  constructing = true;
  try {
    return new AbortSignal();
  } finally {
    constructing = false;
  }
}

class AbortSignal extends EventTarget {
  constructor() {
    if (!constructing) throw illegal();
    super();
    Object.defineProperty(this, kInternal, { value: { aborted: false, reason: undefined, dependents: [] } });
  }
  // An event handler attribute, as the DOM's: its listener takes its place among the
  // others when it is first set, and calls whatever handler is set at the time.
  get onabort() { return this[kInternal].onabort ?? null; }
  set onabort(handler) {
    const slot = this[kInternal];
    if (!slot.onabortListener) {
      slot.onabortListener = (event) => {
        if (typeof slot.onabort === 'function') slot.onabort.call(this, event);
      };
      this.addEventListener('abort', slot.onabortListener);
    }
    slot.onabort = typeof handler === 'function' ? handler : null;
  }
  get aborted() { return this[kInternal].aborted; }
  get reason() { return this[kInternal].reason; }
  throwIfAborted() {
    if (this.aborted) throw this.reason;
  }
  static abort(reason = undefined) {
    const signal = createSignal();
    abortSignal(signal, reason);
    return signal;
  }
  static timeout(delay) {
    if (typeof delay !== 'number') throw argType('delay', 'of type number', delay);
    const signal = createSignal();
    setTimeout(() => abortSignal(signal, new DOMException('The operation was aborted due to timeout', 'TimeoutError')), delay);
    return signal;
  }
  static any(signals) {
    const signal = createSignal();
    for (const s of signals) {
      if (!(s instanceof AbortSignal)) throw argType('signals[0]', 'an instance of AbortSignal', s);
      if (s.aborted) {
        abortSignal(signal, s.reason);
        return signal;
      }
    }
    for (const s of signals) s[kInternal].dependents.push(signal);
    return signal;
  }
  [kCustom](depth) {
    if (typeof depth === 'number' && depth < 0) return 'AbortSignal';
    return inspectAs('AbortSignal', { aborted: this.aborted });
  }
}
Object.defineProperty(AbortSignal.prototype, Symbol.toStringTag, { value: 'AbortSignal', configurable: true });

class AbortController {
  #signal = createSignal();
  get signal() { return this.#signal; }
  abort(reason = undefined) { abortSignal(this.#signal, reason); }
  [kCustom](depth) {
    if (typeof depth === 'number' && depth < 0) return 'AbortController';
    return inspectAs('AbortController', { signal: this.#signal });
  }
}
Object.defineProperty(AbortController.prototype, Symbol.toStringTag, { value: 'AbortController', configurable: true });

module.exports = { AbortController, AbortSignal };
