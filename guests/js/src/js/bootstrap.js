// The bootstrap: runs once per run, before the program, as the body of
// `function (native)`. It defines the globals and returns the internal object that
// Rust and the synthesized modules use (`require`, `formatUncaught`, `wsFunction`).
// Keep it small: everything heavy lives in a module that is loaded on first use.
'use strict';

const cache = Object.create(null);
function require(name) {
  if (name === 'process') return process;
  if (name === 'fs/promises') return require('fs').promises;
  if (name === 'assert/strict') return require('assert').strict;
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

// process.env turns what is stored into strings, as Node's does.
function envObject(values) {
  return new Proxy(values, {
    set(target, key, value) {
      target[key] = String(value);
      return true;
    },
    defineProperty(target, key, desc) {
      if ('value' in desc) desc = { ...desc, value: String(desc.value) };
      return Reflect.defineProperty(target, key, desc);
    },
  });
}

// argv and env are the run's: `internal.startRun()` sets them, since the
// bootstrap may run before the run is known (a pre-initialized guest).
const process = {
  title: 'js',
  platform: 'linux',
  arch: 'wasm32',
  pid: 1,
  ppid: 0,
  argv: ['js'],
  argv0: 'js',
  execPath: '/usr/bin/js',
  execArgv: [],
  version: 'v20.20.2',
  versions: { node: '20.20.2', quickjs: '0.10' },
  release: { name: 'node' },
  env: envObject({}),
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
    if (code !== undefined) process.exitCode = code;
    if (!exiting) {
      exiting = true;
      emitProcess('exit', exitCodeNow());
    }
    native.exit(exitCodeNow());
  },
  abort() { native.exit(134); },
  hrtime,
  nextTick(fn, ...args) {
    checkCallback(fn);
    if (ticks.length === 0) native.ticksQueued();
    ticks.push(args.length ? () => fn(...args) : fn);
  },
  uptime: () => Number(sinceOriginNs()) / 1e9,
  memoryUsage: () => ({ rss: 0, heapTotal: 0, heapUsed: 0, external: 0, arrayBuffers: 0 }),
  cpuUsage: () => ({ user: 0, system: 0 }),
  emitWarning(warning, options, code) {
    let type = 'Warning';
    if (typeof options === 'string') type = options;
    else if (options && typeof options === 'object') {
      if (options.type) type = options.type;
      if (options.code) code = options.code;
    }
    const w = warning instanceof Error ? warning : Object.assign(new Error(String(warning)), { name: type });
    if (code !== undefined && w.code === undefined) w.code = code;
    if (w.name === 'DeprecationWarning' && process.noDeprecation) return;
    const prefix = `(node:${process.pid}) ` + (w.code ? `[${w.code}] ` : '');
    native.queueIo(() => {
      emitProcess('warning', w);
      emit(2, `${prefix}${w.name}: ${w.message}`);
    });
  },
  // The process's own umask (Node's: the previous value back, octal strings taken).
  umask(mask) {
    const old = umaskValue;
    if (mask !== undefined) {
      const value = typeof mask === 'string' ? parseInt(mask, 8) : mask;
      if (!Number.isInteger(value) || value < 0 || value > 0o777) {
        const err = new RangeError(`The value of "mask" is out of range. It must be an integer >= 0 && <= 4294967295. Received ${mask}`);
        err.code = 'ERR_OUT_OF_RANGE';
        throw err;
      }
      umaskValue = value;
    }
    return old;
  },
  // The one user and group of every guest (`computer:workspace/process`).
  getuid: () => native.identity.uid,
  geteuid: () => native.identity.uid,
  getgid: () => native.identity.gid,
  getegid: () => native.identity.gid,
  getgroups: () => [native.identity.gid],
};
let umaskValue = 0o022;
// process is an EventEmitter ('exit', 'beforeExit', 'warning', 'uncaughtException',
// 'unhandledRejection', ...), without loading events.js for it.
let exiting = false;
const processEvents = new Map();
function exitCodeNow() {
  const c = process.exitCode;
  return c === undefined || c === null ? 0 : Number(c) | 0;
}
function emitProcess(name, ...args) {
  const list = processEvents.get(name);
  if (!list || list.length === 0) return false;
  for (const entry of list.slice()) {
    if (entry.once) processOff(name, entry.fn);
    entry.fn.apply(process, args);
  }
  return true;
}
function processOn(name, fn, once, prepend) {
  checkCallback(fn);
  let list = processEvents.get(name);
  if (!list) processEvents.set(name, (list = []));
  if (prepend) list.unshift({ fn, once });
  else list.push({ fn, once });
  return process;
}
function processOff(name, fn) {
  const list = processEvents.get(name);
  if (list) {
    const i = list.findIndex((e) => e.fn === fn || e.fn.listener === fn);
    if (i !== -1) list.splice(i, 1);
  }
  return process;
}
Object.assign(process, {
  on: (name, fn) => processOn(name, fn, false, false),
  addListener: (name, fn) => processOn(name, fn, false, false),
  prependListener: (name, fn) => processOn(name, fn, false, true),
  once: (name, fn) => processOn(name, fn, true, false),
  prependOnceListener: (name, fn) => processOn(name, fn, true, true),
  off: processOff,
  removeListener: processOff,
  removeAllListeners(name) {
    if (name === undefined) processEvents.clear();
    else processEvents.delete(name);
    return process;
  },
  emit: emitProcess,
  listeners: (name) => (processEvents.get(name) || []).map((e) => e.fn),
  rawListeners: (name) => (processEvents.get(name) || []).map((e) => e.fn),
  listenerCount: (name) => (processEvents.get(name) || []).length,
  eventNames: () => [...processEvents.keys()].filter((k) => processEvents.get(k).length),
  setMaxListeners() { return process; },
  getMaxListeners: () => 10,
  setUncaughtExceptionCaptureCallback(fn) { captureCallback = fn; },
  hasUncaughtExceptionCaptureCallback: () => captureCallback !== null,
});
let captureCallback = null;

// What Rust asks when the program is about to end or has thrown.
function processHandles(event, err, promise) {
  if (event === 'uncaughtException' && captureCallback) {
    captureCallback(err);
    return true;
  }
  if (event === 'unhandledRejection' && !(processEvents.get(event) || []).length) return false;
  if (event === 'uncaughtException' && !(processEvents.get(event) || []).length) return false;
  if (event === 'unhandledRejection') emitProcess(event, err, promise);
  else emitProcess(event, err, 'uncaughtException');
  return true;
}
// One-shot callbacks for when the event loop has drained (node:test's summary), run
// before the program's own 'beforeExit' listeners.
const beforeExitOnce = [];
function beforeExit() {
  if (exiting) return false;
  let ran = false;
  if (beforeExitOnce.length) {
    for (const fn of beforeExitOnce.splice(0)) fn();
    ran = true;
  }
  return emitProcess('beforeExit', exitCodeNow()) || ran;
}
function emitExit() {
  if (exiting) return exitCodeNow();
  exiting = true;
  emitProcess('exit', exitCodeNow());
  return exitCodeNow();
}

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
  constructor(id) { this._id = id; this._ref = true; }
  ref() { this._ref = true; native.refTimer(this._id, true); return this; }
  unref() { this._ref = false; native.refTimer(this._id, false); return this; }
  hasRef() { return this._ref; }
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
class Immediate {
  constructor(id) { this._id = id; }
  ref() { return this; }
  unref() { return this; }
  hasRef() { return true; }
  [Symbol.toPrimitive]() { return this._id; }
}
define(globalThis, 'setImmediate', function setImmediate(fn, ...args) {
  checkCallback(fn);
  return new Immediate(native.setImmediate(args.length ? () => fn(...args) : fn));
});
// util.promisify(setTimeout) and (setImmediate), as Node's timers define them.
const promisifyCustom = Symbol.for('nodejs.util.promisify.custom');
globalThis.setTimeout[promisifyCustom] = (ms, value) => new Promise((resolve) => globalThis.setTimeout(resolve, ms, value));
globalThis.setImmediate[promisifyCustom] = (value) => new Promise((resolve) => globalThis.setImmediate(resolve, value));

function clearTimer(t) {
  if (t !== undefined && t !== null) native.clearTimer(timerId(t));
}
define(globalThis, 'clearTimeout', clearTimer);
define(globalThis, 'clearInterval', clearTimer);
define(globalThis, 'clearImmediate', clearTimer);

// process.nextTick's queue, run by Rust (`internal.runTicks`) before the microtasks
// after every callback, as Node's processTicksAndRejections does.
const ticks = [];
function runTicks() {
  let i = 0;
  try {
    while (i < ticks.length) ticks[i++]();
  } finally {
    ticks.splice(0, i);
    if (ticks.length) native.ticksQueued();
  }
}

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
lazyGlobal('Intl', () => require('intl'));

// ---- JSON's errors in V8's words ------------------------------------------------

const jsonParse = JSON.parse;
const jsonStringify = JSON.stringify;
define(JSON, 'parse', function parse(text, reviver) {
  try {
    return jsonParse(text, reviver);
  } catch (e) {
    if (e instanceof SyntaxError) e.message = e.message.replace(/ \(line \d+ column \d+\)$/, '');
    throw e;
  }
});
define(JSON, 'stringify', function stringify(value, replacer, space) {
  try {
    return jsonStringify(value, replacer, space);
  } catch (e) {
    if (e instanceof TypeError) {
      if (e.message === 'circular reference') e.message = 'Converting circular structure to JSON';
      else if (/BigInt/.test(e.message)) e.message = 'Do not know how to serialize a BigInt';
    }
    throw e;
  }
});

// ---- anchored regular expressions ----------------------------------------------

// QuickJS tries a non-sticky regex at every start position even when it begins with
// `^` (no `m` flag), so a lexer that matches /^.../ against the rest of its input (marked,
// js-yaml, ...) is quadratic. Such a regex gives the same results as its sticky twin at
// position 0, which fails at once; exec uses that twin.
const regexpExec = RegExp.prototype.exec;
const anchoredTwin = new WeakMap();
function topLevelAnchored(source) {
  if (source.charCodeAt(0) !== 94) return false;
  let depth = 0;
  for (let i = 1; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') i++;
    else if (c === '[') {
      for (i++; i < source.length && source[i] !== ']'; i++) if (source[i] === '\\') i++;
    } else if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === '|' && depth === 0) return false;
  }
  return true;
}
define(RegExp.prototype, 'exec', function exec(string) {
  let twin = anchoredTwin.get(this);
  if (twin === undefined) {
    twin = !this.global && !this.sticky && !this.multiline && topLevelAnchored(this.source)
      ? new RegExp(this.source, this.flags + 'y')
      : null;
    anchoredTwin.set(this, twin);
  }
  if (twin === null) return regexpExec.call(this, string);
  twin.lastIndex = 0;
  return regexpExec.call(twin, string);
});

// ---- lazily loaded globals ------------------------------------------------------

lazyGlobal('Buffer', () => require('buffer').Buffer);
lazyGlobal('TextEncoder', () => require('encoding').TextEncoder);
lazyGlobal('TextDecoder', () => require('encoding').TextDecoder);
lazyGlobal('atob', () => require('encoding').atob);
lazyGlobal('btoa', () => require('encoding').btoa);
lazyGlobal('structuredClone', () => require('clone').structuredClone);
for (const name of ['fetch', 'Headers', 'Request', 'Response']) lazyGlobal(name, () => require('fetch')[name]);
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

// As Node prints what ends a process: the line that threw and a caret under it, the
// error, then the version.
const CJS_WRAPPER_LENGTH = '(function (exports, require, module, __filename, __dirname) { '.length;
function nodeUncaught(err, inspect) {
  let header = '';
  const stack = err instanceof Error && typeof err.stack === 'string' ? err.stack : '';
  const frame = /\(?(\/[^():]+):(\d+):(\d+)\)?/.exec(stack);
  if (frame) {
    try {
      const line = native.module.readText(frame[1]).split('\n')[Number(frame[2]) - 1];
      let col = Number(frame[3]);
      // CommonJS wraps line 1 in Node's one-line wrapper (js/cjs.js).
      if (frame[2] === '1' && !frame[1].endsWith('.mjs') && col > CJS_WRAPPER_LENGTH) col -= CJS_WRAPPER_LENGTH;
      if (line !== undefined) header = `${frame[1]}:${frame[2]}\n${line}\n${' '.repeat(Math.max(0, col - 1))}^\n\n`;
    } catch {}
  }
  const body = err instanceof Error ? inspect(err) : `Uncaught ${inspect(err)}`;
  return `${header}${body}\n\nNode.js ${process.version}`;
}

const internal = {
  require,
  startRun() {
    process.argv = ['js', ...(native.argv.length ? native.argv : [native.mainModule])];
    process.env = envObject(native.env());
    process.pid = native.identity.pid;
    process.ppid = native.identity.ppid;
  },
  runTicks,
  processHandles,
  beforeExit,
  emitExit,
  process,
  beforeExitOnce(fn) { beforeExitOnce.push(fn); },
  formatUncaught(err) {
    const { inspect } = require('inspect');
    if (native.nodeMode) return nodeUncaught(err, inspect);
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
