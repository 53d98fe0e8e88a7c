// The bootstrap: runs once per run, before the program, as the body of
// `function (native)`. It defines the globals and returns the internal object that
// Rust and the synthesized modules use (`require`, `formatUncaught`, `wsFunction`).
// Keep it small: everything heavy lives in a module that is loaded on first use.
'use strict';

const cache = Object.create(null);
function require(name) {
  if (name === 'process') return process;
  if (name === 'fs/promises') return require('fs').promises;
  let mod = cache[name];
  if (mod !== undefined) return mod.exports;
  mod = { exports: {} };
  cache[name] = mod;
  native.compile(name)(mod.exports, require, mod, native);
  return mod.exports;
}

function define(obj, name, value) {
  Object.defineProperty(obj, name, { value, writable: true, configurable: true, enumerable: false });
}

// A global that is created when first read, so a run pays only for what it uses.
function lazyGlobal(name, load) {
  Object.defineProperty(globalThis, name, {
    configurable: true,
    enumerable: false,
    get() {
      const value = load();
      define(globalThis, name, value);
      return value;
    },
    set(value) {
      define(globalThis, name, value);
    },
  });
}

// ---- output and console -------------------------------------------------------

// console.log('text') and console.log('a', 'b') need no formatter: they are the
// common case and must not load inspect.js.
function format(args) {
  const n = args.length;
  if (n === 1 && typeof args[0] === 'string') return args[0];
  let simple = n > 0 && typeof args[0] === 'string' && args[0].indexOf('%') === -1;
  for (let i = 1; simple && i < n; i++) simple = typeof args[i] === 'string';
  if (simple) return args.join(' ');
  return require('inspect').format.apply(null, args);
}

let groupIndent = '';
function emit(fd, text) {
  if (groupIndent !== '') text = groupIndent + text.split('\n').join('\n' + groupIndent);
  native.write(fd, text + '\n');
}

const counts = new Map();
const timers = new Map();
const console = {
  log(...args) { emit(1, format(args)); },
  info(...args) { emit(1, format(args)); },
  debug(...args) { emit(1, format(args)); },
  warn(...args) { emit(2, format(args)); },
  error(...args) { emit(2, format(args)); },
  trace(...args) {
    const stack = (new Error().stack || '').split('\n').slice(1).join('\n');
    emit(2, 'Trace' + (args.length ? ': ' + format(args) : '') + '\n' + stack.replace(/\n$/, ''));
  },
  dir(value, options) { emit(1, require('inspect').inspect(value, options)); },
  dirxml(...args) { emit(1, format(args)); },
  table(data) { emit(1, require('inspect').table(data)); },
  assert(ok, ...args) {
    if (ok) return;
    if (args.length === 0) emit(2, 'Assertion failed');
    else if (typeof args[0] === 'string') emit(2, format(['Assertion failed: ' + args[0], ...args.slice(1)]));
    else emit(2, format(['Assertion failed:', ...args]));
  },
  count(label = 'default') {
    const n = (counts.get(label) || 0) + 1;
    counts.set(label, n);
    emit(1, `${label}: ${n}`);
  },
  countReset(label = 'default') { counts.delete(label); },
  group(...args) {
    if (args.length) emit(1, format(args));
    groupIndent += '  ';
  },
  groupEnd() { groupIndent = groupIndent.slice(2); },
  time(label = 'default') { timers.set(label, performance.now()); },
  timeEnd(label = 'default') {
    console.timeLog(label);
    timers.delete(label);
  },
  timeLog(label = 'default', ...args) {
    const start = timers.get(label);
    if (start === undefined) {
      emit(2, `Warning: No such label '${label}' for console.timeLog()`);
      return;
    }
    const ms = performance.now() - start;
    const text = ms >= 1000 ? `${(ms / 1000).toFixed(3)}s` : `${ms.toFixed(3)}ms`;
    emit(1, format([`${label}: ${text}`, ...args]));
  },
};
console.groupCollapsed = console.group;
define(globalThis, 'console', console);

// ---- process --------------------------------------------------------------------

let clockOrigin;
function sinceOriginNs() {
  const now = native.monotonicNs();
  // Taken on first use rather than at start-up, so a run that never asks for the
  // time makes no clock call for it.
  if (clockOrigin === undefined) clockOrigin = now;
  return now - clockOrigin;
}

function hrtime(previous) {
  const t = native.monotonicNs();
  let sec = Number(t / 1000000000n);
  let nsec = Number(t % 1000000000n);
  if (previous !== undefined) {
    sec -= previous[0];
    nsec -= previous[1];
    if (nsec < 0) {
      sec -= 1;
      nsec += 1e9;
    }
  }
  return [sec, nsec];
}
hrtime.bigint = () => native.monotonicNs();

const argv = native.argv.length ? native.argv : [native.mainModule];
const process = {
  title: 'js',
  platform: 'linux',
  arch: 'wasm32',
  pid: 1,
  ppid: 0,
  argv: ['js', ...argv],
  argv0: 'js',
  execPath: '/usr/bin/js',
  execArgv: [],
  versions: { quickjs: '0.10' },
  release: { name: 'computer-js' },
  env: native.env(),
  exitCode: undefined,
  cwd: () => native.cwd(),
  chdir(dir) {
    try {
      native.chdir(String(dir));
    } catch (e) {
      throw require('fs').nodeError(e, 'chdir', String(dir));
    }
  },
  exit(code) {
    if (code === undefined) code = process.exitCode;
    native.exit(code === undefined || code === null ? 0 : Number(code) | 0);
  },
  abort() { native.exit(134); },
  hrtime,
  nextTick(fn, ...args) { queueMicrotask(args.length ? () => fn(...args) : fn); },
  uptime: () => Number(sinceOriginNs()) / 1e9,
  memoryUsage: () => ({ rss: 0, heapTotal: 0, heapUsed: 0, external: 0, arrayBuffers: 0 }),
  cpuUsage: () => ({ user: 0, system: 0 }),
  emitWarning(warning) { emit(2, `Warning: ${warning instanceof Error ? warning.message : warning}`); },
  umask: () => 0o022,
  getuid: () => 0,
  getgid: () => 0,
  geteuid: () => 0,
  on() { return process; },
  once() { return process; },
  off() { return process; },
  addListener() { return process; },
  removeListener() { return process; },
  removeAllListeners() { return process; },
  listeners: () => [],
  emit: () => false,
};
// The stdio streams are stream.Readable/Writable, made on first use so that a run
// that only uses console does not load node:stream.
for (const [name, fd] of [['stdin', 0], ['stdout', 1], ['stderr', 2]]) {
  Object.defineProperty(process, name, {
    configurable: true,
    enumerable: true,
    get() {
      const stream = require('stdin').create(fd);
      Object.defineProperty(process, name, { value: stream, configurable: true, enumerable: true, writable: true });
      return stream;
    },
  });
}
define(globalThis, 'process', process);

const performance = {
  now: () => Number(sinceOriginNs()) / 1e6,
  get timeOrigin() { return Date.now() - performance.now(); },
  mark() {},
  measure() {},
  toJSON() { return {}; },
};
define(globalThis, 'performance', performance);

// ---- timers and microtasks -----------------------------------------------------

function checkCallback(fn) {
  if (typeof fn !== 'function') {
    const err = new TypeError(`The "callback" argument must be of type function. Received ${typeof fn}`);
    err.code = 'ERR_INVALID_ARG_TYPE';
    throw err;
  }
}

class Timeout {
  constructor(id) { this._id = id; }
  ref() { return this; }
  unref() { return this; }
  hasRef() { return true; }
  refresh() { return this; }
  close() { native.clearTimer(this._id); return this; }
  [Symbol.toPrimitive]() { return this._id; }
}

function timerId(t) {
  return typeof t === 'object' && t !== null ? t._id : Number(t);
}

define(globalThis, 'setTimeout', function setTimeout(fn, ms, ...args) {
  checkCallback(fn);
  return new Timeout(native.setTimer(args.length ? () => fn(...args) : fn, Number(ms) || 0, false));
});
define(globalThis, 'setInterval', function setInterval(fn, ms, ...args) {
  checkCallback(fn);
  return new Timeout(native.setTimer(args.length ? () => fn(...args) : fn, Number(ms) || 0, true));
});
define(globalThis, 'setImmediate', function setImmediate(fn, ...args) {
  checkCallback(fn);
  return new Timeout(native.setTimer(args.length ? () => fn(...args) : fn, 0, false));
});
function clearTimer(t) {
  if (t !== undefined && t !== null) native.clearTimer(timerId(t));
}
define(globalThis, 'clearTimeout', clearTimer);
define(globalThis, 'clearInterval', clearTimer);
define(globalThis, 'clearImmediate', clearTimer);

const resolved = Promise.resolve();
// An exception in a microtask is an uncaught exception, as in Node, not a rejection.
function queueMicrotask(fn) {
  checkCallback(fn);
  resolved.then(() => {
    try {
      fn();
    } catch (e) {
      native.uncaught(e);
    }
  });
}
define(globalThis, 'queueMicrotask', queueMicrotask);

// ---- randomness -----------------------------------------------------------------

// Math.random comes from wasi:random (seeded once), so replays see the same numbers.
define(Math, 'random', native.random);
lazyGlobal('crypto', () => require('webcrypto').crypto);

// ---- lazily loaded globals ------------------------------------------------------

lazyGlobal('Buffer', () => require('buffer').Buffer);
lazyGlobal('TextEncoder', () => require('encoding').TextEncoder);
lazyGlobal('TextDecoder', () => require('encoding').TextDecoder);
lazyGlobal('atob', () => require('encoding').atob);
lazyGlobal('btoa', () => require('encoding').btoa);
lazyGlobal('structuredClone', () => require('clone').structuredClone);
lazyGlobal('URL', () => require('url').URL);
lazyGlobal('URLSearchParams', () => require('url').URLSearchParams);
lazyGlobal('Event', () => require('web').Event);
lazyGlobal('EventTarget', () => require('web').EventTarget);
lazyGlobal('CustomEvent', () => require('web').CustomEvent);
lazyGlobal('DOMException', () => require('web').DOMException);
lazyGlobal('AbortController', () => require('web').AbortController);
lazyGlobal('AbortSignal', () => require('web').AbortSignal);
define(globalThis, 'global', globalThis);

// ---- what Rust and synthesized modules use -------------------------------------

function wsError(raw, module, fn) {
  if (raw === null || typeof raw !== 'object' || typeof raw.wsError !== 'string') return raw;
  const err = new Error(raw.message);
  err.code = raw.wsError;
  err.module = `ws:${module}`;
  err.function = fn;
  if (raw.wsError === 'error-value') {
    try {
      err.value = JSON.parse(raw.message);
    } catch {
      err.value = raw.message;
    }
  }
  return err;
}

const internal = {
  require,
  process,
  formatUncaught(err) {
    const { inspect } = require('inspect');
    if (err instanceof Error) return inspect(err);
    return `Uncaught ${inspect(err)}`;
  },
  wsFunction(module, fn, jsName) {
    const holder = {
      [jsName](...args) {
        let json;
        try {
          json = native.wsCall(module, fn, JSON.stringify(args));
        } catch (e) {
          throw wsError(e, module, fn);
        }
        return JSON.parse(json);
      },
    };
    return holder[jsName];
  },
};
Object.defineProperty(globalThis, Symbol.for('computer.internal'), { value: internal });
return internal;
