// node:events: a small EventEmitter (on/once/off/emit/...), enough for process.stdin
// and for programs that use events themselves.
'use strict';

class EventEmitter {
  constructor() { this._events = new Map(); }

  _list(name) {
    if (this._events === undefined) this._events = new Map();
    let list = this._events.get(name);
    if (list === undefined) {
      list = [];
      this._events.set(name, list);
    }
    return list;
  }

  on(name, listener) {
    if (typeof listener !== 'function') throw new TypeError('The "listener" argument must be of type function');
    if (this._events && this._events.has('newListener')) this.emit('newListener', name, listener);
    this._list(name).push(listener);
    return this;
  }
  addListener(name, listener) { return this.on(name, listener); }
  prependListener(name, listener) {
    this._list(name).unshift(listener);
    return this;
  }
  once(name, listener) {
    const wrapper = (...args) => {
      this.off(name, wrapper);
      return listener.apply(this, args);
    };
    wrapper.listener = listener;
    return this.on(name, wrapper);
  }
  prependOnceListener(name, listener) {
    const wrapper = (...args) => {
      this.off(name, wrapper);
      return listener.apply(this, args);
    };
    wrapper.listener = listener;
    return this.prependListener(name, wrapper);
  }
  off(name, listener) {
    const list = this._events && this._events.get(name);
    if (!list) return this;
    const i = list.findIndex((l) => l === listener || l.listener === listener);
    if (i === -1) return this;
    const [removed] = list.splice(i, 1);
    if (list.length === 0) this._events.delete(name);
    if (this._events.has('removeListener')) this.emit('removeListener', name, removed.listener || removed);
    return this;
  }
  removeListener(name, listener) { return this.off(name, listener); }
  removeAllListeners(name) {
    if (this._events === undefined) return this;
    if (name === undefined) this._events.clear();
    else this._events.delete(name);
    return this;
  }
  emit(name, ...args) {
    const list = this._events && this._events.get(name);
    if (!list || list.length === 0) {
      if (name === 'error') {
        const err = args[0];
        if (err instanceof Error) throw err;
        const shown = require('inspect').inspect(err);
        const wrapped = new Error(`Unhandled error. (${shown})`);
        wrapped.code = 'ERR_UNHANDLED_ERROR';
        wrapped.context = err;
        throw wrapped;
      }
      return false;
    }
    for (const listener of list.slice()) listener.apply(this, args);
    return true;
  }
  listeners(name) {
    const list = this._events && this._events.get(name);
    return list ? list.map((l) => l.listener || l) : [];
  }
  rawListeners(name) {
    const list = this._events && this._events.get(name);
    return list ? list.slice() : [];
  }
  listenerCount(name) {
    const list = this._events && this._events.get(name);
    return list ? list.length : 0;
  }
  eventNames() { return this._events ? [...this._events.keys()] : []; }
  setMaxListeners(n) {
    this._maxListeners = n;
    return this;
  }
  getMaxListeners() { return this._maxListeners === undefined ? EventEmitter.defaultMaxListeners : this._maxListeners; }
}

EventEmitter.EventEmitter = EventEmitter;
EventEmitter.defaultMaxListeners = 10;
// Node's AbortError, what an aborted `signal` option rejects with.
class AbortError extends Error {
  constructor(message = 'The operation was aborted', options = undefined) {
    super(message, options);
    this.code = 'ABORT_ERR';
    this.name = 'AbortError';
  }
}

EventEmitter.once = function once(emitter, name, options = {}) {
  const signal = options && options.signal;
  return new Promise((resolve, reject) => {
    if (signal && signal.aborted) {
      reject(new AbortError(undefined, { cause: signal.reason }));
      return;
    }
    const cleanup = () => {
      emitter.off(name, onEvent);
      if (name !== 'error') emitter.off('error', onError);
      if (signal) signal.removeEventListener('abort', onAbort);
    };
    const onError = (err) => {
      cleanup();
      reject(err);
    };
    const onEvent = (...args) => {
      cleanup();
      resolve(args);
    };
    const onAbort = () => {
      cleanup();
      reject(new AbortError(undefined, { cause: signal.reason }));
    };
    emitter.once(name, onEvent);
    if (name !== 'error') emitter.once('error', onError);
    if (signal) signal.addEventListener('abort', onAbort, { once: true });
  });
};
EventEmitter.AbortError = AbortError;

module.exports = EventEmitter;
