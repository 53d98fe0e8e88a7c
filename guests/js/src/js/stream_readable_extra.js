// The rest of stream.Readable: pipe/unpipe, async iteration, Readable.from and the
// state getters. Split from stream_readable.js to keep files small.
'use strict';

const { Buffer } = require('buffer');
const shared = require('stream_shared');

const { codedError, invalidArgType, nextTick, errorOrDestroy, destroyer } = shared;

function pipeOnDrain(src, dest) {
  return function pipeOnDrainFunctionResult() {
    const state = src._readableState;
    state.awaitDrainWriters.delete(dest);
    if (state.awaitDrainWriters.size === 0 && src.listenerCount('data') > 0) src.resume();
  };
}

function pipe(dest, pipeOpts) {
  const src = this;
  const state = this._readableState;
  state.pipes.push(dest);
  const doEnd = (!pipeOpts || pipeOpts.end !== false) && dest !== process.stdout && dest !== process.stderr;
  const onend = () => dest.end();
  const unpipe = () => src.unpipe(dest);
  const endFn = doEnd ? onend : unpipe;
  if (state.endEmitted) nextTick(endFn);
  else src.once('end', endFn);

  let ondrain;
  let cleanedUp = false;
  const onunpipe = (readable, unpipeInfo) => {
    if (readable === src && unpipeInfo && unpipeInfo.hasUnpiped === false) {
      unpipeInfo.hasUnpiped = true;
      cleanup();
    }
  };
  const ondata = (chunk) => {
    if (dest.write(chunk) === false) pause();
  };
  const onerror = (er) => {
    unpipe();
    dest.removeListener('error', onerror);
    if (dest.listenerCount('error') === 0) {
      const s = dest._writableState || dest._readableState;
      if (s && !s.errorEmitted) errorOrDestroy(dest, er);
      else dest.emit('error', er);
    }
  };
  const onclose = () => {
    dest.removeListener('finish', onfinish);
    unpipe();
  };
  const onfinish = () => {
    dest.removeListener('close', onclose);
    unpipe();
  };
  function cleanup() {
    dest.removeListener('close', onclose);
    dest.removeListener('finish', onfinish);
    if (ondrain) dest.removeListener('drain', ondrain);
    dest.removeListener('error', onerror);
    dest.removeListener('unpipe', onunpipe);
    src.removeListener('end', onend);
    src.removeListener('end', unpipe);
    src.removeListener('data', ondata);
    cleanedUp = true;
    if (ondrain && state.awaitDrainWriters.size && (!dest._writableState || dest._writableState.needDrain)) ondrain();
  }
  function pause() {
    if (!cleanedUp && state.pipes.includes(dest)) {
      state.awaitDrainWriters.add(dest);
      src.pause();
    }
    if (!ondrain) {
      ondrain = pipeOnDrain(src, dest);
      dest.on('drain', ondrain);
    }
  }
  dest.on('unpipe', onunpipe);
  src.on('data', ondata);
  if (typeof dest.prependListener === 'function') dest.prependListener('error', onerror);
  else dest.on('error', onerror);
  dest.once('close', onclose);
  dest.once('finish', onfinish);
  dest.emit('pipe', src);
  if (dest.writableNeedDrain === true) pause();
  else if (!state.flowing) src.resume();
  return dest;
}

function unpipe(dest) {
  const state = this._readableState;
  const unpipeInfo = { hasUnpiped: false };
  if (state.pipes.length === 0) return this;
  if (!dest) {
    const dests = state.pipes;
    state.pipes = [];
    this.pause();
    for (const d of dests) d.emit('unpipe', this, { hasUnpiped: false });
    return this;
  }
  const index = state.pipes.indexOf(dest);
  if (index === -1) return this;
  state.pipes.splice(index, 1);
  if (state.pipes.length === 0) this.pause();
  dest.emit('unpipe', this, unpipeInfo);
  return this;
}

async function* createAsyncIterator(stream, options) {
  const { finished } = require('stream_pipeline');
  let callback = shared.nop;
  function next(resolve) {
    if (this === stream) {
      callback();
      callback = shared.nop;
    } else {
      callback = resolve;
    }
  }
  stream.on('readable', next);
  let error;
  const cleanup = finished(stream, { writable: false }, (err) => {
    error = err ? (error || err) : null;
    callback();
    callback = shared.nop;
  });
  try {
    while (true) {
      const chunk = stream.destroyed ? null : stream.read();
      if (chunk !== null) yield chunk;
      else if (error) throw error;
      else if (error === null) return;
      else await new Promise(next);
    }
  } catch (err) {
    error = error || err;
    throw error;
  } finally {
    if ((error || (options && options.destroyOnReturn) !== false) &&
      (error === undefined || stream._readableState.autoDestroy)) {
      destroyer(stream, null);
    } else {
      stream.off('readable', next);
      cleanup();
    }
  }
}

function from(Readable, iterable, opts) {
  if (typeof iterable === 'string' || iterable instanceof Buffer) {
    return new Readable({
      objectMode: true,
      ...opts,
      read() {
        this.push(iterable);
        this.push(null);
      },
    });
  }
  let iterator;
  let isAsync;
  if (iterable && typeof iterable[Symbol.asyncIterator] === 'function') {
    isAsync = true;
    iterator = iterable[Symbol.asyncIterator]();
  } else if (iterable && typeof iterable[Symbol.iterator] === 'function') {
    isAsync = false;
    iterator = iterable[Symbol.iterator]();
  } else {
    throw invalidArgType('iterable', 'an instance of Iterable', iterable);
  }
  const readable = new Readable({ objectMode: true, highWaterMark: 1, ...opts });
  let reading = false;
  readable._read = function () {
    if (!reading) {
      reading = true;
      next();
    }
  };
  readable._destroy = function (error, cb) {
    close(error).then(() => nextTick(cb, error), (e) => nextTick(cb, e || error));
  };
  async function close(error) {
    const hadError = error !== undefined && error !== null;
    if (hadError && typeof iterator.throw === 'function') {
      const { value, done } = await iterator.throw(error);
      await value;
      if (done) return;
    }
    if (typeof iterator.return === 'function') {
      const { value } = await iterator.return();
      await value;
    }
  }
  async function next() {
    for (;;) {
      try {
        const { value, done } = isAsync ? await iterator.next() : iterator.next();
        if (done) {
          readable.push(null);
        } else {
          const res = value && typeof value.then === 'function' ? await value : value;
          if (res === null) {
            reading = false;
            throw codedError('ERR_STREAM_NULL_VALUES');
          } else if (readable.push(res)) {
            continue;
          } else {
            reading = false;
          }
        }
      } catch (err) {
        readable.destroy(err);
      }
      break;
    }
  }
  return readable;
}

// Old-style streams (only 'data'/'end' events) wrapped as a Readable.
function wrap(stream) {
  let paused = false;
  stream.on('data', (chunk) => {
    if (!this.push(chunk) && stream.pause) {
      paused = true;
      stream.pause();
    }
  });
  stream.on('end', () => this.push(null));
  stream.on('error', (err) => errorOrDestroy(this, err));
  stream.on('close', () => this.destroy());
  stream.on('destroy', () => this.destroy());
  this._read = () => {
    if (paused && stream.resume) {
      paused = false;
      stream.resume();
    }
  };
  return this;
}

function getters(Readable) {
  const state = (self) => self._readableState;
  const props = {
    readable: {
      get() {
        const r = this._readableState;
        return !!r && r.readable !== false && !r.destroyed && !r.errorEmitted && !r.endEmitted;
      },
      set(v) { if (this._readableState) this._readableState.readable = !!v; },
    },
    readableDidRead: { get() { return state(this).dataEmitted; } },
    readableAborted: {
      get() {
        const r = state(this);
        return !!(r.readable !== false && (r.destroyed || r.errored) && !r.endEmitted);
      },
    },
    readableHighWaterMark: { get() { return state(this).highWaterMark; } },
    readableBuffer: { get() { return state(this).buffer; } },
    readableFlowing: {
      get() { return state(this).flowing; },
      set(v) { state(this).flowing = v; },
    },
    readableLength: { get() { return state(this).length; } },
    readableObjectMode: { get() { return state(this).objectMode; } },
    readableEncoding: { get() { return state(this).encoding; } },
    readableEnded: { get() { return state(this).endEmitted; } },
    errored: { get() { return state(this).errored; } },
    closed: { get() { return state(this).closed; } },
    destroyed: {
      get() { return state(this).destroyed; },
      set(v) { state(this).destroyed = v; },
    },
  };
  for (const [name, desc] of Object.entries(props)) {
    Object.defineProperty(Readable.prototype, name, { ...desc, configurable: true, enumerable: false });
  }
}

function install(Readable) {
  Readable.prototype.pipe = pipe;
  Readable.prototype.unpipe = unpipe;
  Readable.prototype.wrap = wrap;
  Readable.prototype[Symbol.asyncIterator] = function () {
    return createAsyncIterator(this);
  };
  Readable.prototype.iterator = function (options) {
    return createAsyncIterator(this, options);
  };
  Readable.prototype.toArray = async function () {
    const out = [];
    for await (const chunk of this) out.push(chunk);
    return out;
  };
  if (Symbol.asyncDispose) Readable.prototype[Symbol.asyncDispose] = function () {
    let error;
    if (!this.destroyed) {
      error = codedError('ERR_STREAM_PREMATURE_CLOSE');
      this.destroy(error);
    }
    return new Promise((resolve, reject) =>
      require('stream_pipeline').finished(this, (err) => (err && err !== error ? reject(err) : resolve(null))));
  };
  Readable.from = (iterable, opts) => from(Readable, iterable, opts);
  require('stream_operators').install(Readable);
  getters(Readable);
}

module.exports = { install };
