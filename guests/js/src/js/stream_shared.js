// What the stream classes share: Node's coded errors, highWaterMark defaults, and
// destroy() with its error/close bookkeeping (Node's internal/streams/destroy).
'use strict';

const EventEmitter = require('events');

const MESSAGES = {
  ERR_STREAM_PUSH_AFTER_EOF: [Error, () => 'stream.push() after EOF'],
  ERR_STREAM_UNSHIFT_AFTER_END_EVENT: [Error, () => 'stream.unshift() after end event'],
  ERR_STREAM_WRITE_AFTER_END: [Error, () => 'write after end'],
  ERR_STREAM_DESTROYED: [Error, (op) => `Cannot call ${op} after a stream was destroyed`],
  ERR_STREAM_NULL_VALUES: [TypeError, () => 'May not write null values to stream'],
  ERR_STREAM_ALREADY_FINISHED: [Error, (op) => `Cannot call ${op} after a stream was finished`],
  ERR_STREAM_PREMATURE_CLOSE: [Error, () => 'Premature close'],
  ERR_MULTIPLE_CALLBACK: [Error, () => 'Callback called multiple times'],
  ERR_METHOD_NOT_IMPLEMENTED: [Error, (m) => `The ${m} method is not implemented`],
  ERR_UNKNOWN_ENCODING: [TypeError, (e) => `Unknown encoding: ${e}`],
  ERR_MISSING_ARGS: [TypeError, (n) => `The "${n}" argument must be specified`],
  ERR_INVALID_RETURN_VALUE: [TypeError, (what, name) => `Expected ${what} to be returned from the "${name}" function but got undefined.`],
  ERR_INVALID_ARG_VALUE: [TypeError, (name, v) => `The ${name.includes('.') ? 'property' : 'argument'} '${name}' is invalid. Received ${String(v)}`],
  ERR_STREAM_CANNOT_PIPE: [Error, () => 'Cannot pipe, not readable'],
  ERR_NOT_SUPPORTED_IN_SANDBOX: [Error, (what) => `${what} is not supported in this sandbox`],
};

// An Error whose stack starts `Error [CODE]: message`, as Node's coded errors print.
function codedError(code, ...args) {
  const [Ctor, message] = MESSAGES[code];
  const err = new Ctor(message(...args));
  err.code = code;
  // The stack should start where the stream code was called, not in this helper.
  const frames = typeof err.stack === 'string' ? err.stack.replace(/^ +at (codedError|invalidArgType) .*\n/, '') : '';
  Object.defineProperty(err, 'stack', {
    value: `${err.name} [${code}]: ${err.message}\n${frames}`,
    writable: true,
    configurable: true,
    enumerable: false,
  });
  return err;
}

function describe(value) {
  if (value === null) return 'null';
  if (value === undefined) return 'undefined';
  if (typeof value === 'function') return `function ${value.name}`;
  if (typeof value === 'object') {
    const name = value.constructor && value.constructor.name;
    return name ? `an instance of ${name}` : require('inspect').inspect(value, { depth: -1 });
  }
  let shown = require('inspect').inspect(value);
  if (shown.length > 28) shown = `${shown.slice(0, 25)}...`;
  return `type ${typeof value} (${shown})`;
}

function invalidArgType(name, expected, value) {
  const err = new TypeError(`The "${name}" argument must be ${expected}. Received ${describe(value)}`);
  err.code = 'ERR_INVALID_ARG_TYPE';
  Object.defineProperty(err, 'stack', {
    value: `TypeError [ERR_INVALID_ARG_TYPE]: ${err.message}\n${(err.stack || '').replace(/^ +at invalidArgType .*\n/, '')}`,
    writable: true,
    configurable: true,
    enumerable: false,
  });
  return err;
}

function nextTick(fn, ...args) {
  process.nextTick(fn, ...args);
}

function nop() {}

const kConstruct = Symbol('kConstruct');
const kDestroy = Symbol('kDestroy');

const defaultHighWaterMark = { bytes: 16384, objects: 16 };

function getHighWaterMark(options, objectMode, duplexKey, isDuplex) {
  let hwm = options.highWaterMark;
  if (hwm == null && isDuplex) hwm = options[duplexKey];
  if (hwm == null) return objectMode ? defaultHighWaterMark.objects : defaultHighWaterMark.bytes;
  if (!Number.isInteger(hwm) || hwm < 0) {
    throw codedError('ERR_INVALID_ARG_VALUE', isDuplex ? `options.${duplexKey}` : 'options.highWaterMark', hwm);
  }
  return Math.floor(hwm);
}

// Stream, the legacy base class. A plain function, so that old-style subclasses
// (`Readable.call(this, options)` + util.inherits) work as well as `class extends`.
function Stream(options) {
  if (this._events === undefined) this._events = new Map();
  void options;
}
Object.setPrototypeOf(Stream.prototype, EventEmitter.prototype);
Object.setPrototypeOf(Stream, EventEmitter);

function setError(err, w, r) {
  if (!err) return;
  if (w && !w.errored) w.errored = err;
  if (r && !r.errored) r.errored = err;
}

function emitErrorNT(self, err) {
  const r = self._readableState;
  const w = self._writableState;
  if ((w && w.errorEmitted) || (r && r.errorEmitted)) return;
  if (w) w.errorEmitted = true;
  if (r) r.errorEmitted = true;
  self.emit('error', err);
}

function emitCloseNT(self) {
  const r = self._readableState;
  const w = self._writableState;
  if (w) w.closeEmitted = true;
  if (r) r.closeEmitted = true;
  if ((w && w.emitClose) || (r && r.emitClose)) self.emit('close');
}

function emitErrorCloseNT(self, err) {
  emitErrorNT(self, err);
  emitCloseNT(self);
}

function runDestroy(self, err, cb) {
  let called = false;
  const onDestroy = (e) => {
    if (called) return;
    called = true;
    const r = self._readableState;
    const w = self._writableState;
    setError(e, w, r);
    if (w) w.closed = true;
    if (r) r.closed = true;
    if (typeof cb === 'function') cb(e);
    if (e) nextTick(emitErrorCloseNT, self, e);
    else nextTick(emitCloseNT, self);
  };
  try {
    self._destroy(err || null, onDestroy);
  } catch (e) {
    onDestroy(e);
  }
}

function destroy(err, cb) {
  const r = this._readableState;
  const w = this._writableState;
  const s = w || r;
  if ((w && w.destroyed) || (r && r.destroyed)) {
    if (typeof cb === 'function') cb();
    return this;
  }
  setError(err, w, r);
  if (w) w.destroyed = true;
  if (r) r.destroyed = true;
  if (!s.constructed) {
    this.once(kDestroy, (er) => runDestroy(this, err || er, cb));
  } else {
    runDestroy(this, err, cb);
  }
  return this;
}

function errorOrDestroy(stream, err, sync) {
  const r = stream._readableState;
  const w = stream._writableState;
  if ((w && w.destroyed) || (r && r.destroyed)) return;
  if ((r && r.autoDestroy) || (w && w.autoDestroy)) {
    stream.destroy(err);
  } else if (err) {
    setError(err, w, r);
    if (sync) nextTick(emitErrorNT, stream, err);
    else emitErrorNT(stream, err);
  }
}

// `_construct(cb)`: called on the next tick; reads and writes wait until it calls back.
function construct(stream, cb) {
  if (typeof stream._construct !== 'function') return;
  const r = stream._readableState;
  const w = stream._writableState;
  if (r) r.constructed = false;
  if (w) w.constructed = false;
  stream.once(kConstruct, cb);
  if (stream.listenerCount(kConstruct) > 1) return;
  nextTick(() => {
    let called = false;
    const onConstruct = (err) => {
      if (called) {
        errorOrDestroy(stream, err || codedError('ERR_MULTIPLE_CALLBACK'));
        return;
      }
      called = true;
      if (r) r.constructed = true;
      if (w) w.constructed = true;
      if (stream.listenerCount(kDestroy) > 0) stream.emit(kDestroy, err);
      else if (err) errorOrDestroy(stream, err, true);
      else nextTick(() => stream.emit(kConstruct));
    };
    try {
      stream._construct((err) => nextTick(onConstruct, err));
    } catch (err) {
      nextTick(onConstruct, err);
    }
  });
}

// Destroy anything stream-like: what pipeline and async iteration do on the way out.
function destroyer(stream, err) {
  if (!stream || typeof stream.destroy !== 'function') return;
  const r = stream._readableState;
  const w = stream._writableState;
  if ((r && r.destroyed) || (w && w.destroyed)) return;
  stream.destroy(err);
}

function isNodeStream(obj) {
  return !!obj && (obj._readableState !== undefined || obj._writableState !== undefined ||
    (typeof obj.write === 'function' && typeof obj.on === 'function') ||
    (typeof obj.pipe === 'function' && typeof obj.on === 'function'));
}

module.exports = {
  Stream,
  codedError,
  invalidArgType,
  nextTick,
  nop,
  getHighWaterMark,
  defaultHighWaterMark,
  destroy,
  errorOrDestroy,
  construct,
  destroyer,
  isNodeStream,
};
