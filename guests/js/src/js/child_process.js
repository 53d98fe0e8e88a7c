// node:child_process over the workspace's commands (computer:workspace/commands).
// A command line runs as `sh -c CMD` (the host's shell backend); a file names a
// command directly. A command only runs inside native.child.next, so the sync forms
// run it to the end in one native call and the async forms step it from the event
// loop, one event per child per turn (see `pump`).
'use strict';

const EventEmitter = require('events');
const { Buffer } = require('buffer');
const pipes = require('child_pipes');

const kCustomPromisify = Symbol.for('nodejs.util.promisify.custom');
const SHELL = 'sh';

function invalidArg(name, what, value) {
  const err = new TypeError(`The "${name}" argument must be ${what}. Received ${typeof value === 'string' ? `type string ('${value}')` : String(value)}`);
  err.code = 'ERR_INVALID_ARG_TYPE';
  return err;
}

function notSupported(what) {
  const err = new Error(`${what} is not supported in the sandbox: a run has no Node.js processes to fork`);
  err.code = 'ERR_NOT_SUPPORTED_IN_SANDBOX';
  return err;
}

// Node's error for a file that cannot be spawned.
function enoent(syscall, file, args) {
  const err = new Error(`${syscall} ${file} ENOENT`);
  err.errno = -2;
  err.code = 'ENOENT';
  err.syscall = `${syscall} ${file}`;
  err.path = file;
  err.spawnargs = args;
  return err;
}

function startFailure(raw, syscall, file, args) {
  if (raw.error === 'not-found') return enoent(syscall, file, args);
  const err = new Error(`${syscall} ${file}: ${raw.message}`);
  err.code = raw.error === 'too-deep' ? 'ERR_COMMANDS_TOO_DEEP' : 'ERR_COMMAND_FAILED';
  err.syscall = `${syscall} ${file}`;
  err.path = file;
  err.spawnargs = args;
  return err;
}

// Node refuses a NUL in anything it hands to exec (validateArgumentNullCheck); the
// commands would otherwise get it, as no real program can.
function nullCheck(value, name, kind = 'argument', what = 'a string') {
  if (typeof value !== 'string' || value.indexOf('\u0000') === -1) return;
  const err = new TypeError(`The ${kind} '${name}' must be ${what} without null bytes. Received ${require('util').inspect(value)}`);
  err.code = 'ERR_INVALID_ARG_VALUE';
  throw err;
}

// A lone surrogate cannot cross into the host as UTF-8; Node's UTF-8 conversion writes
// it as U+FFFD, so the command gets that, as under node.
function wellFormed(s) {
  if (typeof s.isWellFormed === 'function') return s.isWellFormed() ? s : s.toWellFormed();
  return s.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');
}

function shellQuote(s) {
  return /^[A-Za-z0-9_\/.,:=+@%-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

// (file, args, options) as node's normalizeSpawnArguments, plus what to start.
function normalize(file, args, options) {
  if (typeof file !== 'string') throw invalidArg('file', 'of type string', file);
  if (file.length === 0) {
    const err = new TypeError("The argument 'file' cannot be empty. Received ''");
    err.code = 'ERR_INVALID_ARG_VALUE';
    throw err;
  }
  nullCheck(file, 'file');
  if (Array.isArray(args)) args = args.map(String);
  else if (args === undefined || args === null) args = [];
  else if (typeof args === 'object') {
    options = args;
    args = [];
  } else throw invalidArg('args', 'an instance of Array', args);
  options = options === undefined || options === null ? {} : options;
  if (typeof options !== 'object') throw invalidArg('options', 'of type object', options);
  args.forEach((arg, i) => nullCheck(arg, `args[${i}]`));
  nullCheck(options.cwd, 'options.cwd', 'property', 'a string, Uint8Array, or URL');
  const cwd = require('path').resolve(process.cwd(), options.cwd === undefined || options.cwd === null ? '.' : String(options.cwd));
  const spawnfile = options.shell ? (typeof options.shell === 'string' ? options.shell : '/bin/sh') : file;
  const spawnargs = options.shell ? [spawnfile, '-c', [file, ...args].join(' ')] : [file, ...args];
  const envObj = options.env || process.env;
  const env = [];
  for (const key of Object.keys(envObj)) {
    if (envObj[key] === undefined) continue;
    const value = String(envObj[key]);
    nullCheck(key, `options.env['${key}']`, 'property');
    nullCheck(value, `options.env['${key}']`, 'property');
    env.push([wellFormed(key), wellFormed(value)]);
  }
  return { file: wellFormed(spawnfile), args: spawnargs.slice(1).map(wellFormed), spawnargs, options, cwd: wellFormed(cwd), env };
}

let commandNames;
const shellKnows = new Map();

// Whether a name that is no workspace command is one the shell runs (its built-in
// `ls`, `cat`, `sleep`...): the shell answers `command -v`, once per name.
function viaShell(name) {
  let known = shellKnows.get(name);
  if (known === undefined) {
    const raw = native.child.runSync([SHELL, [SHELL, '-c', `command -v -- ${shellQuote(name)}`], [], '/'], null, 'ignore', 'ignore');
    known = raw.status === 0;
    shellKnows.set(name, known);
  }
  return known;
}

function isCommand(name) {
  if (name === 'sh' || name === 'bash') return true;
  if (commandNames === undefined) commandNames = new Set(native.child.list());
  return commandNames.has(name);
}

function throughShell(file, args) {
  return { name: SHELL, argv: [SHELL, '-c', [file, ...args].map(shellQuote).join(' ')] };
}

// The command behind a file: a workspace command, else what the shell runs by that
// name; `/bin/NAME` and `/usr/bin/NAME` are NAME; another path is a script run
// through the shell. `null`: nothing to run (ENOENT).
function target(n) {
  const file = n.file;
  const m = /^\/(?:usr\/)?(?:local\/)?s?bin\/([^/]+)$/.exec(file);
  const name = m ? m[1] : file;
  if (name.indexOf('/') === -1) {
    if (isCommand(name)) return { name, argv: [name, ...n.args] };
    return viaShell(name) ? throughShell(name, n.args) : null;
  }
  if (!require('fs').existsSync(require('path').resolve(n.cwd, file))) return null;
  return throughShell(file, n.args);
}

function cwdMissing(n) {
  try {
    return !require('fs').statSync(n.cwd).isDirectory();
  } catch {
    return true;
  }
}

// Start the command; an invocation id, or an Error as node reports it.
function start(n, syscall) {
  const t = cwdMissing(n) ? null : target(n);
  if (t === null) return enoent(syscall, n.file, n.args);
  const raw = native.child.start(t.name, t.argv, n.env, n.cwd);
  return typeof raw === 'number' ? raw : startFailure(raw, syscall, n.file, n.args);
}

// ['pipe'|'inherit'|'ignore'] x 3 from node's stdio option.
function normalizeStdio(stdio, fallback) {
  if (stdio === undefined || stdio === null) return fallback.slice();
  if (typeof stdio === 'string') return [stdio, stdio, stdio].map((s) => oneStdio(s, 0));
  if (!Array.isArray(stdio)) throw invalidArg('options.stdio', 'of type string or an instance of Array', stdio);
  return [0, 1, 2].map((i) => oneStdio(stdio[i], i));
}

function oneStdio(s, fd) {
  if (s === undefined || s === null || s === 'pipe' || s === 'overlapped') return 'pipe';
  if (s === 'inherit' || s === fd || (typeof s === 'object' && s.fd === fd)) return 'inherit';
  if (s === 'ignore') return 'ignore';
  if (typeof s === 'number' || (typeof s === 'object' && typeof s.fd === 'number')) return s.fd === 1 || s === 1 || s.fd === 2 || s === 2 ? 'inherit' : 'ignore';
  throw notSupported(`stdio '${String(s)}'`);
}

function encode(data, encoding) {
  if (encoding && encoding !== 'buffer') return data.toString(encoding);
  return data;
}

let nextPid = 2;

// ---- synchronous forms --------------------------------------------------------

function spawnSync(file, args, options) {
  const n = normalize(file, args, options);
  const opts = n.options;
  const stdio = normalizeStdio(opts.stdio, ['pipe', 'pipe', 'pipe']);
  const syscall = 'spawnSync';
  const t = cwdMissing(n) ? null : target(n);
  let input = opts.input;
  if (input === undefined && stdio[0] === 'inherit') input = require('fs').readFileSync(0);
  if (typeof input === 'string') input = Buffer.from(input, opts.encoding && opts.encoding !== 'buffer' ? opts.encoding : 'utf8');
  const raw = t === null ? { error: 'not-found' }
    : native.child.runSync([t.name, t.argv, n.env, n.cwd], input === undefined ? null : input, stdio[1], stdio[2], opts.maxBuffer === undefined ? 1024 * 1024 : opts.maxBuffer);
  if (raw.error !== undefined) {
    const error = startFailure(raw, syscall, n.file, n.args);
    return { error, status: null, signal: null, output: null, pid: 0, stdout: null, stderr: null };
  }
  const out = stdio[1] === 'pipe' ? encode(Buffer.from(raw.stdout), opts.encoding) : null;
  const err = stdio[2] === 'pipe' ? encode(Buffer.from(raw.stderr), opts.encoding) : null;
  const result = { status: raw.overflow ? null : raw.status, signal: raw.overflow ? 'SIGTERM' : null, output: [null, out, err], pid: nextPid++, stdout: out, stderr: err };
  if (raw.overflow) {
    const error = new Error(`${syscall} ${n.file} ENOBUFS`);
    Object.assign(error, { errno: -105, code: 'ENOBUFS', syscall: `${syscall} ${n.file}`, path: n.file, spawnargs: n.args });
    return { error, ...result };
  }
  return result;
}

function checkExecSyncError(ret, args, cmd) {
  if (ret.error) return Object.assign(ret.error, ret);
  if (ret.status === 0) return undefined;
  let msg = 'Command failed: ' + (cmd || args.join(' '));
  if (ret.stderr && ret.stderr.length > 0) msg += `\n${ret.stderr.toString()}`;
  return Object.assign(new Error(msg), ret);
}

function shellOptions(command, options) {
  if (typeof command !== 'string') throw invalidArg('command', 'of type string', command);
  nullCheck(command, 'command');
  options = { ...(options || {}) };
  if (!options.shell) options.shell = true;
  return options;
}

function execSync(command, options) {
  const opts = shellOptions(command, options);
  const inheritStderr = !opts.stdio;
  const ret = spawnSync(command, [], opts);
  if (inheritStderr && ret.stderr) process.stderr.write(ret.stderr);
  const err = checkExecSyncError(ret, undefined, command);
  if (err) throw err;
  return ret.stdout;
}

function execFileSync(file, args, options) {
  if (!Array.isArray(args) && args !== undefined && args !== null && typeof args === 'object') {
    options = args;
    args = [];
  }
  args = args || [];
  options = options || {};
  const inheritStderr = !options.stdio;
  const ret = spawnSync(file, args, options);
  if (inheritStderr && ret.stderr) process.stderr.write(ret.stderr);
  const err = checkExecSyncError(ret, [file, ...args.map(String)], undefined);
  if (err) throw err;
  return ret.stdout;
}

// ---- ChildProcess and the pump --------------------------------------------------

const running = new Set();
let pumping = false;

function schedulePump() {
  if (pumping || running.size === 0) return;
  pumping = true;
  // A child's events are I/O: they come in the poll phase, as in node.
  native.queueIo(pump);
}

// Longest wait for news from children when the program has nothing else ready.
const POLL_WAIT_MS = 10;

// One event per loop turn, so timers and other callbacks interleave with children's
// output. A lone child of a program with nothing else to do runs only while waited on
// (`next`), so a durable run's calls keep their order. With timers, other I/O or
// several children, children are polled (`pollNext`) and run beside the program, as
// processes do: a server child serves while the program (or another child) talks to
// it. A command may ask for input the program never writes (the shell backend reads
// all of its stdin up front, even for `sh -c 'ls'`, where node's child would simply
// not read): once no child can run, the oldest one waiting gets the end of its input,
// so a pipeline of children still flows in order.
function pump() {
  pumping = false;
  const runnable = [...running].filter((child) => child._runnable());
  if (runnable.length === 0) {
    for (const child of running) {
      if (child._wantsInput) {
        child._endInput();
        break;
      }
    }
  } else if (runnable.length > 1 || native.child.othersPending()) {
    let got = false;
    for (const child of runnable) got = child._poll(0) || got;
    // Nothing yet: wait a little; news from any child ends the wait early.
    if (!got) runnable[0]._poll(POLL_WAIT_MS);
  } else {
    runnable[0]._step();
  }
  schedulePump();
}

class ChildProcess extends EventEmitter {
  constructor() {
    super();
    this.connected = false;
    this.signalCode = null;
    this.exitCode = null;
    this.killed = false;
    this.spawnfile = undefined;
    this.spawnargs = [];
    this.pid = undefined;
    this.stdin = null;
    this.stdout = null;
    this.stderr = null;
    this.stdio = [null, null, null];
    this._id = 0;
    this._modes = ['pipe', 'pipe', 'pipe'];
    this._wantsInput = false;
  }

  _spawn(n, stdio) {
    this.spawnfile = n.file;
    this.spawnargs = n.spawnargs;
    this._modes = stdio;
    if (stdio[0] === 'pipe') this.stdin = new pipes.Writable(schedulePump);
    if (stdio[1] === 'pipe') this.stdout = new pipes.Readable();
    if (stdio[2] === 'pipe') this.stderr = new pipes.Readable();
    this.stdio = [this.stdin, this.stdout, this.stderr];
    const started = start(n, 'spawn');
    if (started instanceof Error) {
      this._id = 0;
      process.nextTick(() => {
        this.emit('error', started);
        this._closeStreams();
        setImmediate(() => this.emit('close', -2, null));
      });
      return this;
    }
    this._id = started;
    this.pid = nextPid++;
    running.add(this);
    process.nextTick(() => {
      this.emit('spawn');
      schedulePump();
    });
    return this;
  }

  // Whether `next` can make progress: not when the command waits for input that
  // the program has not written yet.
  _runnable() {
    if (this._id === 0) return false;
    if (!this._wantsInput) return true;
    return this._modes[0] !== 'pipe' || this.stdin._pending.length > 0 || this.stdin._ended;
  }

  _step() {
    if (this._wantsInput) {
      this._feedInput();
      return;
    }
    this._handle(native.child.next(this._id));
  }

  // `_step` that waits at most `waitMs` for the child's next event; whether it had one.
  _poll(waitMs) {
    if (this._wantsInput) {
      this._feedInput();
      return true;
    }
    const event = native.child.pollNext(this._id, waitMs);
    if (event === null) return false;
    this._handle(event);
    return true;
  }

  _handle(event) {
    if (event.type === 'stdout') this._output(1, this.stdout, event.data);
    else if (event.type === 'stderr') this._output(2, this.stderr, event.data);
    else if (event.type === 'stdin') {
      this._wantsInput = true;
      this._feedInput();
    } else this._exited(event.data, null);
  }

  _endInput() {
    this._wantsInput = false;
    native.child.feed(this._id, new Uint8Array(0));
  }

  _feedInput() {
    const mode = this._modes[0];
    let data;
    if (mode === 'pipe') {
      if (this.stdin._pending.length === 0 && !this.stdin._ended) return;
      data = this.stdin._pending.length ? this.stdin._pending.shift() : new Uint8Array(0);
    } else if (mode === 'inherit') {
      const chunk = native.stdinRead(65536);
      data = chunk === null ? new Uint8Array(0) : new Uint8Array(chunk);
    } else data = new Uint8Array(0);
    this._wantsInput = false;
    native.child.feed(this._id, data);
    if (mode === 'pipe') this.stdin._drained();
  }

  _output(fd, readable, data) {
    const mode = this._modes[fd];
    if (mode === 'inherit') native.write(fd, new Uint8Array(data));
    else if (mode === 'pipe') readable._push(Buffer.from(data));
  }

  _exited(code, signal) {
    native.child.drop(this._id);
    this._id = 0;
    running.delete(this);
    this._finish(code, signal);
  }

  _finish(code, signal) {
    this.exitCode = code;
    this.signalCode = signal;
    if (this.stdin) this.stdin._closed();
    // Pipes usually report their end before the exit is seen, as in node.
    this._closeStreams();
    this.emit('exit', code, signal);
    // 'close' after the streams' 'end', as node emits it once stdio is closed.
    setImmediate(() => this.emit('close', code, signal));
  }

  // Output nobody reads is drained, as node's flushStdio does, so it still ends.
  _closeStreams() {
    for (const stream of [this.stdout, this.stderr]) {
      if (stream === null) continue;
      stream._push(null);
      if (stream._flowing === null && stream.listenerCount('readable') === 0) stream.resume();
    }
  }

  kill(signal) {
    if (this._id === 0) return false;
    this.killed = true;
    const sig = signal === undefined ? 'SIGTERM' : typeof signal === 'number' ? 'SIGTERM' : String(signal);
    const id = this._id;
    // What the child wrote before the signal is still in the pipe, as in node.
    for (let event = native.child.pollNext(id, 0); event !== null; event = native.child.pollNext(id, 0)) {
      if (event.type === 'stdout') this._output(1, this.stdout, event.data);
      else if (event.type === 'stderr') this._output(2, this.stderr, event.data);
      else break;
    }
    this._id = 0;
    native.child.drop(id);
    running.delete(this);
    this.signalCode = sig;
    process.nextTick(() => this._finish(null, sig));
    return true;
  }

  ref() {}
  unref() {}
  disconnect() {}
  send() { throw notSupported('child.send (IPC)'); }
}

function spawn(file, args, options) {
  const n = normalize(file, args, options);
  const stdio = normalizeStdio(n.options.stdio, ['pipe', 'pipe', 'pipe']);
  return new ChildProcess()._spawn(n, stdio);
}

module.exports = { ChildProcess, spawn, spawnSync, execSync, execFileSync, shellOptions, normalize, kCustomPromisify, notSupported };
require('child_exec').install(module.exports);
