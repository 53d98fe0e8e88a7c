// node:test's `mock`: mock.fn, mock.method, mock.getter/setter, reset/restoreAll.
// Each call is recorded as node records it: { arguments, error, result, stack,
// target, this }. Fake timers (mock.timers) are not supported here.
'use strict';

function notSupported(what) {
  const err = new Error(`${what} is not supported in this sandbox`);
  err.code = 'ERR_NOT_SUPPORTED_IN_SANDBOX';
  return err;
}

class MockFunctionContext {
  constructor(implementation, restore, times) {
    this.calls = [];
    this.implementation = implementation;
    this.restoreFn = restore;
    this.times = times;
    this.onces = new Map();
  }

  callCount() {
    return this.calls.length;
  }

  mockImplementation(fn) {
    this.implementation = fn;
  }

  mockImplementationOnce(fn, onCall) {
    this.onces.set(onCall ?? this.calls.length, fn);
  }

  resetCalls() {
    this.calls = [];
  }

  restore() {
    if (this.restoreFn) this.restoreFn();
  }

  nextImplementation(original) {
    const n = this.calls.length;
    const once = this.onces.get(n);
    if (once !== undefined) {
      this.onces.delete(n);
      return once;
    }
    if (this.times !== undefined && n >= this.times) return original;
    return this.implementation;
  }
}

function makeMock(original, implementation, restore, times) {
  const ctx = new MockFunctionContext(implementation, restore, times);
  function mocked(...args) {
    const impl = ctx.nextImplementation(original) || (() => undefined);
    const call = { __proto__: null, arguments: args, error: undefined, result: undefined, stack: new Error(), target: new.target, this: this };
    let result;
    try {
      result = new.target ? Reflect.construct(impl, args, new.target) : Reflect.apply(impl, this, args);
    } catch (e) {
      call.error = e;
      ctx.calls.push(call);
      throw e;
    }
    call.result = result;
    ctx.calls.push(call);
    return result;
  }
  Object.defineProperty(mocked, 'mock', { value: ctx, enumerable: false, configurable: false });
  if (original && typeof original === 'function') {
    Object.defineProperty(mocked, 'name', { value: original.name, configurable: true });
    Object.defineProperty(mocked, 'length', { value: original.length, configurable: true });
  }
  return mocked;
}

class MockTracker {
  constructor() {
    this.mocks = [];
  }

  fn(original = function () {}, implementation = original, options = {}) {
    if (implementation !== null && typeof implementation === 'object') {
      options = implementation;
      implementation = original;
    }
    const m = makeMock(original, implementation, null, options.times);
    this.mocks.push(m.mock);
    return m;
  }

  method(object, name, implementation, options = {}) {
    if (implementation !== null && typeof implementation === 'object' && typeof implementation !== 'function') {
      options = implementation;
      implementation = undefined;
    }
    const { getter = false, setter = false } = options;
    let holder = object;
    let desc;
    while (holder !== null && (desc = Object.getOwnPropertyDescriptor(holder, name)) === undefined) {
      holder = Object.getPrototypeOf(holder);
    }
    if (desc === undefined) {
      const err = new TypeError(`The argument 'methodName' must be a method. Received ${require('inspect').inspect(object[name])}`);
      err.code = 'ERR_INVALID_ARG_VALUE';
      throw err;
    }
    const key = getter ? 'get' : setter ? 'set' : 'value';
    const original = desc[key];
    const ownDesc = Object.getOwnPropertyDescriptor(object, name);
    const restore = () => {
      if (ownDesc) Object.defineProperty(object, name, ownDesc);
      else delete object[name];
    };
    const m = makeMock(original, implementation ?? original, restore, options.times);
    Object.defineProperty(object, name, { ...desc, [key]: m });
    this.mocks.push(m.mock);
    return m;
  }

  getter(object, name, implementation, options = {}) {
    return this.method(object, name, implementation, { ...options, getter: true });
  }

  setter(object, name, implementation, options = {}) {
    return this.method(object, name, implementation, { ...options, setter: true });
  }

  reset() {
    this.restoreAll();
    this.mocks = [];
  }

  restoreAll() {
    for (const m of this.mocks) m.restore();
  }

  get timers() {
    throw notSupported('mock.timers');
  }

  module() {
    throw notSupported('mock.module');
  }
}

module.exports = { MockTracker, notSupported };
