// stream.Writable, following Node's state machine (lib/internal/streams/writable.js):
// buffering past highWaterMark, 'drain', cork/uncork with _writev, _final, and
// 'finish' then 'close' on Node's ticks.
'use strict';

const { Buffer } = require('buffer');
const shared = require('stream_shared');

const { Stream, codedError, invalidArgType, nextTick, nop, getHighWaterMark, errorOrDestroy } = shared;

function WritableState(options, stream, isDuplex) {
  this.objectMode = !!(options.objectMode || (isDuplex && options.writableObjectMode));
  this.highWaterMark = getHighWaterMark(options, this.objectMode, 'writableHighWaterMark', isDuplex);
  this.finalCalled = false;
  this.needDrain = false;
  this.ending = false;
  this.ended = false;
  this.finished = false;
  this.destroyed = false;
  this.decodeStrings = options.decodeStrings !== false;
  this.defaultEncoding = options.defaultEncoding || 'utf8';
  this.length = 0;
  this.writing = false;
  this.corked = 0;
  this.sync = true;
  this.bufferProcessing = false;
  this.onwrite = (er) => onwrite(stream, er);
  this.writecb = null;
  this.writelen = 0;
  this.afterWriteTickInfo = null;
  this.buffered = [];
  this.bufferedIndex = 0;
  this.allBuffers = true;
  this.allNoop = true;
  this.pendingcb = 0;
  this.constructed = true;
  this.prefinished = false;
  this.errorEmitted = false;
  this.emitClose = options.emitClose !== false;
  this.autoDestroy = options.autoDestroy !== false;
  this.errored = null;
  this.closed = false;
  this.closeEmitted = false;
  this.onFinished = [];
}

function Writable(options) {
  const isDuplex = this instanceof require('stream_duplex').Duplex;
  if (!isDuplex && !Function.prototype[Symbol.hasInstance].call(Writable, this)) return new Writable(options);
  options = options || {};
  this._writableState = new WritableState(options, this, isDuplex);
  if (typeof options.write === 'function') this._write = options.write;
  if (typeof options.writev === 'function') this._writev = options.writev;
  if (typeof options.destroy === 'function') this._destroy = options.destroy;
  if (typeof options.final === 'function') this._final = options.final;
  if (typeof options.construct === 'function') this._construct = options.construct;
  Stream.call(this, options);
  shared.construct(this, () => {
    const state = this._writableState;
    if (!state.writing) clearBuffer(this, state);
    finishMaybe(this, state);
  });
}
Object.setPrototypeOf(Writable.prototype, Stream.prototype);
Object.setPrototypeOf(Writable, Stream);

// A Duplex is a Writable too, though it inherits from Readable.
Object.defineProperty(Writable, Symbol.hasInstance, {
  value(object) {
    if (Function.prototype[Symbol.hasInstance].call(this, object)) return true;
    if (this !== Writable) return false;
    return !!object && object._writableState instanceof WritableState;
  },
  configurable: true,
});

Writable.prototype.pipe = function () {
  errorOrDestroy(this, codedError('ERR_STREAM_CANNOT_PIPE'));
};

function writeChunk(stream, chunk, encoding, cb) {
  const state = stream._writableState;
  if (typeof encoding === 'function') {
    cb = encoding;
    encoding = state.defaultEncoding;
  } else {
    if (!encoding) encoding = state.defaultEncoding;
    else if (encoding !== 'buffer' && !Buffer.isEncoding(encoding)) throw codedError('ERR_UNKNOWN_ENCODING', encoding);
    if (typeof cb !== 'function') cb = nop;
  }
  if (chunk === null) throw codedError('ERR_STREAM_NULL_VALUES');
  if (!state.objectMode) {
    if (typeof chunk === 'string') {
      if (state.decodeStrings !== false) {
        chunk = Buffer.from(chunk, encoding);
        encoding = 'buffer';
      }
    } else if (chunk instanceof Buffer) {
      encoding = 'buffer';
    } else if (chunk instanceof Uint8Array) {
      chunk = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
      encoding = 'buffer';
    } else {
      throw invalidArgType('chunk', 'of type string or an instance of Buffer, TypedArray, or DataView', chunk);
    }
  }
  let err;
  if (state.ending) err = codedError('ERR_STREAM_WRITE_AFTER_END');
  else if (state.destroyed) err = codedError('ERR_STREAM_DESTROYED', 'write');
  if (err) {
    nextTick(cb, err);
    errorOrDestroy(stream, err, true);
    return err;
  }
  state.pendingcb++;
  return writeOrBuffer(stream, state, chunk, encoding, cb);
}

Writable.prototype.write = function (chunk, encoding, cb) {
  return writeChunk(this, chunk, encoding, cb) === true;
};

Writable.prototype.cork = function () {
  this._writableState.corked++;
};

Writable.prototype.uncork = function () {
  const state = this._writableState;
  if (state.corked) {
    state.corked--;
    if (!state.writing) clearBuffer(this, state);
  }
};

Writable.prototype.setDefaultEncoding = function (encoding) {
  if (typeof encoding === 'string') encoding = encoding.toLowerCase();
  if (!Buffer.isEncoding(encoding)) throw codedError('ERR_UNKNOWN_ENCODING', encoding);
  this._writableState.defaultEncoding = encoding;
  return this;
};

function writeOrBuffer(stream, state, chunk, encoding, callback) {
  const len = state.objectMode ? 1 : chunk.length;
  state.length += len;
  const ret = state.length < state.highWaterMark;
  if (!ret) state.needDrain = true;
  if (state.writing || state.corked || state.errored || !state.constructed) {
    state.buffered.push({ chunk, encoding, callback });
    if (state.allBuffers && encoding !== 'buffer') state.allBuffers = false;
    if (state.allNoop && callback !== nop) state.allNoop = false;
  } else {
    state.writelen = len;
    state.writecb = callback;
    state.writing = true;
    state.sync = true;
    stream._write(chunk, encoding, state.onwrite);
    state.sync = false;
  }
  return ret && !state.errored && !state.destroyed;
}

function doWrite(stream, state, writev, len, chunk, encoding, cb) {
  state.writelen = len;
  state.writecb = cb;
  state.writing = true;
  state.sync = true;
  if (state.destroyed) state.onwrite(codedError('ERR_STREAM_DESTROYED', 'write'));
  else if (writev) stream._writev(chunk, state.onwrite);
  else stream._write(chunk, encoding, state.onwrite);
  state.sync = false;
}

function onwriteError(stream, state, er, cb) {
  --state.pendingcb;
  cb(er);
  errorBuffer(state);
  errorOrDestroy(stream, er);
}

function onwrite(stream, er) {
  const state = stream._writableState;
  const sync = state.sync;
  const cb = state.writecb;
  if (typeof cb !== 'function') {
    errorOrDestroy(stream, codedError('ERR_MULTIPLE_CALLBACK'));
    return;
  }
  state.writing = false;
  state.writecb = null;
  state.length -= state.writelen;
  state.writelen = 0;
  if (er) {
    if (!state.errored) state.errored = er;
    if (stream._readableState && !stream._readableState.errored) stream._readableState.errored = er;
    if (sync) nextTick(onwriteError, stream, state, er, cb);
    else onwriteError(stream, state, er, cb);
    return;
  }
  if (state.buffered.length > state.bufferedIndex) clearBuffer(stream, state);
  if (sync) {
    const info = state.afterWriteTickInfo;
    if (info !== null && info.cb === cb) {
      info.count++;
    } else {
      state.afterWriteTickInfo = { count: 1, cb, stream, state };
      nextTick(afterWriteTick, state.afterWriteTickInfo);
    }
  } else {
    afterWrite(stream, state, 1, cb);
  }
}

function afterWriteTick({ stream, state, count, cb }) {
  state.afterWriteTickInfo = null;
  afterWrite(stream, state, count, cb);
}

function afterWrite(stream, state, count, cb) {
  const needDrain = !state.ending && !stream.destroyed && state.length === 0 && state.needDrain;
  if (needDrain) {
    state.needDrain = false;
    stream.emit('drain');
  }
  while (count-- > 0) {
    state.pendingcb--;
    cb();
  }
  if (state.destroyed) errorBuffer(state);
  finishMaybe(stream, state);
}

// Fail every buffered write: the stream was destroyed or errored.
function errorBuffer(state) {
  if (state.writing) return;
  for (let n = state.bufferedIndex; n < state.buffered.length; ++n) {
    const { chunk, callback } = state.buffered[n];
    state.length -= state.objectMode ? 1 : chunk.length;
    callback(state.errored || codedError('ERR_STREAM_DESTROYED', 'write'));
  }
  for (const cb of state.onFinished.splice(0)) cb(state.errored || codedError('ERR_STREAM_DESTROYED', 'end'));
  resetBuffer(state);
}

function resetBuffer(state) {
  state.buffered = [];
  state.bufferedIndex = 0;
  state.allBuffers = true;
  state.allNoop = true;
}

function clearBuffer(stream, state) {
  if (state.corked || state.bufferProcessing || state.destroyed || !state.constructed) return;
  const { buffered, bufferedIndex, objectMode } = state;
  const bufferedLength = buffered.length - bufferedIndex;
  if (!bufferedLength) return;
  let i = bufferedIndex;
  state.bufferProcessing = true;
  if (bufferedLength > 1 && stream._writev) {
    state.pendingcb -= bufferedLength - 1;
    const callback = state.allNoop ? nop : (err) => {
      for (let n = i; n < buffered.length; ++n) buffered[n].callback(err);
    };
    const chunks = state.allNoop && i === 0 ? buffered : buffered.slice(i);
    chunks.allBuffers = state.allBuffers;
    doWrite(stream, state, true, state.length, chunks, '', callback);
    resetBuffer(state);
  } else {
    do {
      const { chunk, encoding, callback } = buffered[i];
      buffered[i++] = null;
      doWrite(stream, state, false, objectMode ? 1 : chunk.length, chunk, encoding, callback);
    } while (i < buffered.length && !state.writing);
    if (i === buffered.length) resetBuffer(state);
    else if (i > 256) {
      buffered.splice(0, i);
      state.bufferedIndex = 0;
    } else {
      state.bufferedIndex = i;
    }
  }
  state.bufferProcessing = false;
}

Writable.prototype._write = function (chunk, encoding, cb) {
  if (this._writev) this._writev([{ chunk, encoding }], cb);
  else throw codedError('ERR_METHOD_NOT_IMPLEMENTED', '_write()');
};
Writable.prototype._writev = null;

Writable.prototype.end = function (chunk, encoding, cb) {
  const state = this._writableState;
  if (typeof chunk === 'function') {
    cb = chunk;
    chunk = null;
    encoding = null;
  } else if (typeof encoding === 'function') {
    cb = encoding;
    encoding = null;
  }
  let err;
  if (chunk !== null && chunk !== undefined) {
    const ret = writeChunk(this, chunk, encoding);
    if (ret instanceof Error) err = ret;
  }
  if (state.corked) {
    state.corked = 1;
    this.uncork();
  }
  if (err) {
    // Already reported by write().
  } else if (!state.errored && !state.ending) {
    state.ending = true;
    finishMaybe(this, state, true);
    state.ended = true;
  } else if (state.finished) {
    err = codedError('ERR_STREAM_ALREADY_FINISHED', 'end');
  } else if (state.destroyed) {
    err = codedError('ERR_STREAM_DESTROYED', 'end');
  }
  if (typeof cb === 'function') {
    if (err || state.finished) nextTick(cb, err);
    else state.onFinished.push(cb);
  }
  return this;
};

function needFinish(state) {
  return state.ending && !state.destroyed && state.constructed && state.length === 0 &&
    !state.errored && state.buffered.length === 0 && !state.finished && !state.writing &&
    !state.errorEmitted && !state.closeEmitted;
}

function callFinal(stream, state) {
  let called = false;
  const onFinish = (err) => {
    if (called) {
      errorOrDestroy(stream, err || codedError('ERR_MULTIPLE_CALLBACK'));
      return;
    }
    called = true;
    state.pendingcb--;
    if (err) {
      for (const cb of state.onFinished.splice(0)) cb(err);
      errorOrDestroy(stream, err, state.sync);
    } else if (needFinish(state)) {
      state.prefinished = true;
      stream.emit('prefinish');
      state.pendingcb++;
      nextTick(finish, stream, state);
    }
  };
  state.sync = true;
  state.pendingcb++;
  try {
    stream._final(onFinish);
  } catch (err) {
    onFinish(err);
  }
  state.sync = false;
}

function prefinish(stream, state) {
  if (!state.prefinished && !state.finalCalled) {
    if (typeof stream._final === 'function' && !state.destroyed) {
      state.finalCalled = true;
      callFinal(stream, state);
    } else {
      state.prefinished = true;
      stream.emit('prefinish');
    }
  }
}

function finishMaybe(stream, state, sync) {
  if (!needFinish(state)) return;
  prefinish(stream, state);
  if (state.pendingcb !== 0) return;
  if (sync) {
    state.pendingcb++;
    nextTick(() => {
      if (needFinish(state)) finish(stream, state);
      else state.pendingcb--;
    });
  } else if (needFinish(state)) {
    state.pendingcb++;
    finish(stream, state);
  }
}

function finish(stream, state) {
  state.pendingcb--;
  state.finished = true;
  for (const cb of state.onFinished.splice(0)) cb();
  stream.emit('finish');
  if (state.autoDestroy) {
    const r = stream._readableState;
    if (!r || (r.autoDestroy && (r.endEmitted || r.readable === false))) stream.destroy();
  }
}

Writable.prototype.destroy = function (err, cb) {
  const state = this._writableState;
  if (!state.destroyed && (state.bufferedIndex < state.buffered.length || state.onFinished.length)) {
    nextTick(errorBuffer, state);
  }
  shared.destroy.call(this, err, cb);
  return this;
};
Writable.prototype._undestroy = function () {
  const w = this._writableState;
  w.constructed = true;
  w.destroyed = false;
  w.closed = false;
  w.closeEmitted = false;
  w.errored = null;
  w.errorEmitted = false;
  w.finalCalled = false;
  w.prefinished = false;
  w.ended = w.writable === false;
  w.ending = w.writable === false;
  w.finished = w.writable === false;
};
Writable.prototype._destroy = function (err, cb) { cb(err); };

const state = (self) => self._writableState;
const props = {
  writable: {
    get() {
      const w = this._writableState;
      return !!w && w.writable !== false && !w.destroyed && !w.errored && !w.ending && !w.ended;
    },
    set(v) { if (this._writableState) this._writableState.writable = !!v; },
  },
  writableFinished: { get() { return state(this) ? state(this).finished : false; } },
  writableObjectMode: { get() { return state(this) ? state(this).objectMode : false; } },
  writableBuffer: { get() { return state(this) && state(this).buffered.slice(state(this).bufferedIndex); } },
  writableEnded: { get() { return state(this) ? state(this).ending : false; } },
  writableNeedDrain: {
    get() {
      const w = state(this);
      return !!w && !w.destroyed && !w.ending && w.needDrain;
    },
  },
  writableHighWaterMark: { get() { return state(this) && state(this).highWaterMark; } },
  writableCorked: { get() { return state(this) ? state(this).corked : 0; } },
  writableLength: { get() { return state(this) && state(this).length; } },
  writableAborted: {
    get() {
      const w = state(this);
      return !!(w.writable !== false && (w.destroyed || w.errored) && !w.finished);
    },
  },
  errored: { get() { return state(this) ? state(this).errored : null; } },
  closed: { get() { return state(this) ? state(this).closed : false; } },
  destroyed: {
    get() { return state(this) ? state(this).destroyed : false; },
    set(v) { if (state(this)) state(this).destroyed = v; },
  },
};
for (const [name, desc] of Object.entries(props)) {
  Object.defineProperty(Writable.prototype, name, { ...desc, configurable: true, enumerable: false });
}

Writable.WritableState = WritableState;
module.exports = Writable;
