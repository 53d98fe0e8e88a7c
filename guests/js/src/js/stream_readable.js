// stream.Readable, following Node's state machine (lib/internal/streams/readable.js)
// so that 'data'/'readable'/'end'/'close' come in Node's order and on Node's ticks.
'use strict';

const { Buffer } = require('buffer');
const shared = require('stream_shared');

const { Stream, codedError, invalidArgType, nextTick, getHighWaterMark, errorOrDestroy } = shared;

function ReadableState(options, stream, isDuplex) {
  this.objectMode = !!(options.objectMode || (isDuplex && options.readableObjectMode));
  this.highWaterMark = getHighWaterMark(options, this.objectMode, 'readableHighWaterMark', isDuplex);
  this.buffer = [];
  this.length = 0;
  this.pipes = [];
  this.flowing = null;
  this.ended = false;
  this.endEmitted = false;
  this.reading = false;
  this.constructed = true;
  this.sync = true;
  this.needReadable = false;
  this.emittedReadable = false;
  this.readableListening = false;
  this.resumeScheduled = false;
  this.paused = null;
  this.errorEmitted = false;
  this.emitClose = options.emitClose !== false;
  this.autoDestroy = options.autoDestroy !== false;
  this.destroyed = false;
  this.errored = null;
  this.closed = false;
  this.closeEmitted = false;
  this.defaultEncoding = options.defaultEncoding || 'utf8';
  this.awaitDrainWriters = new Set();
  this.readingMore = false;
  this.dataEmitted = false;
  this.decoder = null;
  this.encoding = null;
  if (options.encoding) {
    const { StringDecoder } = require('string_decoder');
    this.decoder = new StringDecoder(options.encoding);
    this.encoding = options.encoding;
  }
}

function Readable(options) {
  if (!(this instanceof Readable)) return new Readable(options);
  const isDuplex = this instanceof require('stream_duplex').Duplex;
  options = options || {};
  this._readableState = new ReadableState(options, this, isDuplex);
  if (typeof options.read === 'function') this._read = options.read;
  if (typeof options.destroy === 'function') this._destroy = options.destroy;
  if (typeof options.construct === 'function') this._construct = options.construct;
  Stream.call(this, options);
  shared.construct(this, () => {
    if (this._readableState.needReadable) maybeReadMore(this, this._readableState);
  });
}
Object.setPrototypeOf(Readable.prototype, Stream.prototype);
Object.setPrototypeOf(Readable, Stream);

Readable.prototype.destroy = shared.destroy;
Readable.prototype._undestroy = function () {
  const r = this._readableState;
  r.destroyed = false;
  r.closed = false;
  r.closeEmitted = false;
  r.errored = null;
  r.errorEmitted = false;
  r.ended = r.readable === false;
  r.endEmitted = r.readable === false;
};
Readable.prototype._destroy = function (err, cb) { cb(err); };

Readable.prototype.push = function (chunk, encoding) {
  return addChunkChecked(this, chunk, encoding, false);
};

Readable.prototype.unshift = function (chunk, encoding) {
  return addChunkChecked(this, chunk, encoding, true);
};

function addChunkChecked(stream, chunk, encoding, addToFront) {
  const state = stream._readableState;
  let err;
  if (!state.objectMode) {
    if (typeof chunk === 'string') {
      encoding = encoding || state.defaultEncoding;
      if (state.encoding !== encoding) {
        if (addToFront && state.encoding) chunk = Buffer.from(chunk, encoding).toString(state.encoding);
        else {
          chunk = Buffer.from(chunk, encoding);
          encoding = '';
        }
      }
    } else if (chunk instanceof Buffer) {
      encoding = '';
    } else if (chunk instanceof Uint8Array) {
      chunk = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
      encoding = '';
    } else if (chunk !== null && chunk !== undefined) {
      err = invalidArgType('chunk', 'of type string or an instance of Buffer, TypedArray, or DataView', chunk);
    }
  }
  if (err) {
    errorOrDestroy(stream, err);
  } else if (chunk === null) {
    state.reading = false;
    onEofChunk(stream, state);
  } else if (state.objectMode || (chunk && chunk.length > 0)) {
    if (addToFront) {
      if (state.endEmitted) errorOrDestroy(stream, codedError('ERR_STREAM_UNSHIFT_AFTER_END_EVENT'));
      else if (state.destroyed || state.errored) return false;
      else addChunk(stream, state, chunk, true);
    } else if (state.ended) {
      errorOrDestroy(stream, codedError('ERR_STREAM_PUSH_AFTER_EOF'));
    } else if (state.destroyed || state.errored) {
      return false;
    } else {
      state.reading = false;
      if (state.decoder && !encoding) {
        chunk = state.decoder.write(chunk);
        if (state.objectMode || chunk.length !== 0) addChunk(stream, state, chunk, false);
        else maybeReadMore(stream, state);
      } else {
        addChunk(stream, state, chunk, false);
      }
    }
  } else if (!addToFront) {
    state.reading = false;
    maybeReadMore(stream, state);
  }
  return !state.ended && (state.length < state.highWaterMark || state.length === 0);
}

function addChunk(stream, state, chunk, addToFront) {
  if (state.flowing && state.length === 0 && !state.sync && stream.listenerCount('data') > 0) {
    state.awaitDrainWriters.clear();
    state.dataEmitted = true;
    stream.emit('data', chunk);
  } else {
    state.length += state.objectMode ? 1 : chunk.length;
    if (addToFront) state.buffer.unshift(chunk);
    else state.buffer.push(chunk);
    if (state.needReadable) emitReadable(stream);
  }
  maybeReadMore(stream, state);
}

function onEofChunk(stream, state) {
  if (state.ended) return;
  if (state.decoder) {
    const chunk = state.decoder.end();
    if (chunk && chunk.length) {
      state.buffer.push(chunk);
      state.length += state.objectMode ? 1 : chunk.length;
    }
  }
  state.ended = true;
  if (state.sync) {
    emitReadable(stream);
  } else {
    state.needReadable = false;
    state.emittedReadable = true;
    emitReadableNT(stream);
  }
}

function emitReadable(stream) {
  const state = stream._readableState;
  state.needReadable = false;
  if (!state.emittedReadable) {
    state.emittedReadable = true;
    nextTick(emitReadableNT, stream);
  }
}

function emitReadableNT(stream) {
  const state = stream._readableState;
  if (!state.destroyed && !state.errored && (state.length || state.ended)) {
    stream.emit('readable');
    state.emittedReadable = false;
  }
  state.needReadable = !state.flowing && !state.ended && state.length <= state.highWaterMark;
  flow(stream);
}

function maybeReadMore(stream, state) {
  if (!state.readingMore && state.constructed) {
    state.readingMore = true;
    nextTick(maybeReadMoreNT, stream, state);
  }
}

function maybeReadMoreNT(stream, state) {
  while (!state.reading && !state.ended &&
    (state.length < state.highWaterMark || (state.flowing && state.length === 0))) {
    const len = state.length;
    stream.read(0);
    if (len === state.length) break;
  }
  state.readingMore = false;
}

Readable.prototype.isPaused = function () {
  const state = this._readableState;
  return state.paused === true || state.flowing === false;
};

Readable.prototype.setEncoding = function (enc) {
  const { StringDecoder } = require('string_decoder');
  const state = this._readableState;
  const decoder = new StringDecoder(enc);
  state.decoder = decoder;
  state.encoding = decoder.encoding;
  let content = '';
  for (const data of state.buffer) content += decoder.write(data);
  state.buffer = content !== '' ? [content] : [];
  state.length = content.length;
  return this;
};

const MAX_HWM = 0x40000000;
function computeNewHighWaterMark(n) {
  if (n > MAX_HWM) throw codedError('ERR_INVALID_ARG_VALUE', 'size', n);
  n--;
  n |= n >>> 1;
  n |= n >>> 2;
  n |= n >>> 4;
  n |= n >>> 8;
  n |= n >>> 16;
  return n + 1;
}

function howMuchToRead(n, state) {
  if (n <= 0 || (state.length === 0 && state.ended)) return 0;
  if (state.objectMode) return 1;
  if (Number.isNaN(n)) {
    if (state.flowing && state.length) return state.buffer[0].length;
    return state.length;
  }
  if (n <= state.length) return n;
  return state.ended ? state.length : 0;
}

Readable.prototype.read = function (n) {
  if (n === undefined) n = NaN;
  else if (!Number.isInteger(n)) n = parseInt(n, 10);
  const state = this._readableState;
  const nOrig = n;
  if (n > state.highWaterMark) state.highWaterMark = computeNewHighWaterMark(n);
  if (n !== 0) state.emittedReadable = false;
  if (n === 0 && state.needReadable &&
    ((state.highWaterMark !== 0 ? state.length >= state.highWaterMark : state.length > 0) || state.ended)) {
    if (state.length === 0 && state.ended) endReadable(this);
    else emitReadable(this);
    return null;
  }
  n = howMuchToRead(n, state);
  if (n === 0 && state.ended) {
    if (state.length === 0) endReadable(this);
    return null;
  }
  let doRead = state.needReadable;
  if (state.length === 0 || state.length - n < state.highWaterMark) doRead = true;
  if (state.ended || state.reading || state.destroyed || state.errored || !state.constructed) {
    doRead = false;
  } else if (doRead) {
    state.reading = true;
    state.sync = true;
    if (state.length === 0) state.needReadable = true;
    try {
      this._read(state.highWaterMark);
    } catch (err) {
      errorOrDestroy(this, err);
    }
    state.sync = false;
    if (!state.reading) n = howMuchToRead(nOrig, state);
  }
  let ret = n > 0 ? fromList(n, state) : null;
  if (ret === null) {
    state.needReadable = state.length <= state.highWaterMark;
    n = 0;
  } else {
    state.length -= n;
    state.awaitDrainWriters.clear();
  }
  if (state.length === 0) {
    if (!state.ended) state.needReadable = true;
    if (nOrig !== n && state.ended) endReadable(this);
  }
  if (ret !== null && !state.errorEmitted && !state.closeEmitted) {
    state.dataEmitted = true;
    this.emit('data', ret);
  }
  return ret;
};

// Take n bytes (or characters, or one object) off the front of the buffer.
function fromList(n, state) {
  if (state.length === 0) return null;
  const buf = state.buffer;
  if (state.objectMode) return buf.shift();
  if (!n || n >= state.length) {
    let ret;
    if (state.decoder) ret = buf.join('');
    else if (buf.length === 1) ret = buf[0];
    else ret = Buffer.concat(buf, state.length);
    state.buffer = [];
    return ret;
  }
  const parts = [];
  let need = n;
  while (need > 0) {
    const head = buf[0];
    if (head.length <= need) {
      parts.push(buf.shift());
      need -= head.length;
    } else {
      parts.push(head.slice(0, need));
      buf[0] = head.slice(need);
      need = 0;
    }
  }
  return state.decoder ? parts.join('') : parts.length === 1 ? parts[0] : Buffer.concat(parts, n);
}

Readable.prototype._read = function () {
  throw codedError('ERR_METHOD_NOT_IMPLEMENTED', '_read()');
};

function endReadable(stream) {
  const state = stream._readableState;
  if (!state.endEmitted) {
    state.ended = true;
    nextTick(endReadableNT, state, stream);
  }
}

function endReadableNT(state, stream) {
  if (!state.errored && !state.closeEmitted && !state.endEmitted && state.length === 0) {
    state.endEmitted = true;
    stream.emit('end');
    if (stream.writable && stream.allowHalfOpen === false) {
      nextTick(() => {
        if (stream.writable && !stream.writableEnded && !stream.destroyed) stream.end();
      });
    } else if (state.autoDestroy) {
      const w = stream._writableState;
      if (!w || (w.autoDestroy && (w.finished || w.writable === false))) stream.destroy();
    }
  }
}

Readable.prototype.on = function (ev, fn) {
  const res = Stream.prototype.on.call(this, ev, fn);
  const state = this._readableState;
  if (ev === 'data') {
    state.readableListening = this.listenerCount('readable') > 0;
    if (state.flowing !== false) this.resume();
  } else if (ev === 'readable') {
    if (!state.endEmitted && !state.readableListening) {
      state.readableListening = state.needReadable = true;
      state.flowing = false;
      state.emittedReadable = false;
      if (state.length) emitReadable(this);
      else if (!state.reading) nextTick(() => this.read(0));
    }
  }
  return res;
};
Readable.prototype.addListener = Readable.prototype.on;

function updateReadableListening(self) {
  const state = self._readableState;
  state.readableListening = self.listenerCount('readable') > 0;
  if (state.resumeScheduled && state.paused === false) state.flowing = true;
  else if (self.listenerCount('data') > 0) self.resume();
  else if (!state.readableListening) state.flowing = null;
}

Readable.prototype.removeListener = function (ev, fn) {
  const res = Stream.prototype.off.call(this, ev, fn);
  if (ev === 'readable') nextTick(updateReadableListening, this);
  return res;
};
Readable.prototype.off = Readable.prototype.removeListener;

Readable.prototype.removeAllListeners = function (ev) {
  const res = Stream.prototype.removeAllListeners.call(this, ev);
  if (ev === 'readable' || ev === undefined) nextTick(updateReadableListening, this);
  return res;
};

Readable.prototype.resume = function () {
  const state = this._readableState;
  if (!state.flowing) {
    state.flowing = !state.readableListening;
    if (!state.resumeScheduled) {
      state.resumeScheduled = true;
      nextTick(resumeNT, this, state);
    }
  }
  state.paused = false;
  return this;
};

function resumeNT(stream, state) {
  if (!state.reading) stream.read(0);
  state.resumeScheduled = false;
  stream.emit('resume');
  flow(stream);
  if (state.flowing && !state.reading) stream.read(0);
}

Readable.prototype.pause = function () {
  const state = this._readableState;
  if (state.flowing !== false) {
    state.flowing = false;
    this.emit('pause');
  }
  state.paused = true;
  return this;
};

function flow(stream) {
  const state = stream._readableState;
  while (state.flowing && stream.read() !== null);
}

require('stream_readable_extra').install(Readable);

module.exports = Readable;
