// The stdio pipes of a spawned child: a Readable-like output (child.stdout/stderr)
// and a Writable-like input (child.stdin). Just what child_process needs: flowing
// and paused reading, setEncoding, pipe, async iteration; buffered writes that the
// pump feeds to the command when it asks for input.
'use strict';

const EventEmitter = require('events');
const { Buffer } = require('buffer');

class Readable extends EventEmitter {
  constructor() {
    super();
    this._buffer = [];
    this._flowing = null;
    this._ended = false;
    this._endEmitted = false;
    this._encoding = null;
    this._decoder = null;
    this._waiters = [];
    this.readable = true;
    this.destroyed = false;
  }

  get readableEnded() { return this._endEmitted; }
  get readableFlowing() { return this._flowing; }
  get readableEncoding() { return this._encoding; }
  get readableLength() { return this._buffer.reduce((n, c) => n + c.length, 0); }

  on(name, listener) {
    super.on(name, listener);
    if (name === 'data' && this._flowing !== false) this.resume();
    if (name === 'readable') queueMicrotask(() => this._flush());
    return this;
  }

  setEncoding(encoding) {
    this._encoding = encoding || 'utf8';
    if (/^utf-?8$/i.test(this._encoding)) {
      const { TextDecoder } = require('encoding');
      this._decoder = new TextDecoder('utf-8');
    }
    return this;
  }

  _convert(chunk) {
    if (this._decoder) return this._decoder.decode(chunk, { stream: true });
    if (this._encoding) return chunk.toString(this._encoding);
    return chunk;
  }

  resume() {
    this._flowing = true;
    queueMicrotask(() => this._flush());
    return this;
  }

  pause() {
    this._flowing = false;
    return this;
  }

  isPaused() { return this._flowing === false; }

  // The child's output arrives here; `null` is its end.
  _push(chunk) {
    if (this._ended) return;
    if (chunk === null) this._ended = true;
    else if (chunk.length) this._buffer.push(chunk);
    this._flush();
  }

  _flush() {
    if (this.destroyed) return;
    if (this._waiters.length) {
      while (this._waiters.length && (this._buffer.length || this._ended)) {
        const chunk = this._buffer.shift();
        this._waiters.shift()(chunk === undefined ? { done: true, value: undefined } : { done: false, value: this._convert(chunk) });
      }
    } else if (this._flowing) {
      while (this._flowing && this._buffer.length) this.emit('data', this._convert(this._buffer.shift()));
    } else if (this._buffer.length && this.listenerCount('readable')) {
      this.emit('readable');
    }
    if (this._ended && this._buffer.length === 0 && !this._endEmitted && (this._flowing || this._waiters.length === 0)) {
      if (this._flowing || this.listenerCount('end') || this._readRequested) this._emitEnd();
    }
  }

  _emitEnd() {
    this._endEmitted = true;
    this.readable = false;
    const rest = this._decoder ? this._decoder.decode() : '';
    if (rest && this._flowing) this.emit('data', rest);
    this.emit('end');
    this.emit('close');
  }

  read() {
    this._readRequested = true;
    if (this._buffer.length === 0) {
      if (this._ended && !this._endEmitted) queueMicrotask(() => this._emitEnd());
      return null;
    }
    const all = Buffer.concat(this._buffer);
    this._buffer = [];
    return this._convert(all);
  }

  pipe(dest, options) {
    this.on('data', (chunk) => dest.write(chunk));
    const end = !(options && options.end === false) && dest !== process.stdout && dest !== process.stderr;
    if (end) this.on('end', () => dest.end());
    return dest;
  }

  unpipe() { return this; }

  destroy(err) {
    if (this.destroyed) return this;
    this.destroyed = true;
    this._buffer = [];
    queueMicrotask(() => {
      if (err) this.emit('error', err);
      this.emit('close');
    });
    return this;
  }

  [Symbol.asyncIterator]() {
    this._flowing = false;
    const next = () => new Promise((resolve) => {
      this._waiters.push(resolve);
      this._flush();
    });
    return {
      next,
      return: () => Promise.resolve({ done: true, value: undefined }),
      [Symbol.asyncIterator]() { return this; },
    };
  }
}

class Writable extends EventEmitter {
  // `wake` is called when there is new input (or its end) for the command.
  constructor(wake) {
    super();
    this._wake = wake;
    this._pending = [];
    this._ended = false;
    this._finished = false;
    this.writable = true;
    this.destroyed = false;
  }

  get writableEnded() { return this._ended; }
  get writableFinished() { return this._finished; }

  write(chunk, encoding, callback) {
    if (typeof encoding === 'function') {
      callback = encoding;
      encoding = undefined;
    }
    if (this._ended) {
      const err = new Error('write after end');
      err.code = 'ERR_STREAM_WRITE_AFTER_END';
      process.nextTick(() => {
        if (callback) callback(err);
        this.emit('error', err);
      });
      return false;
    }
    if (typeof chunk === 'string') chunk = Buffer.from(chunk, encoding || 'utf8');
    else if (!ArrayBuffer.isView(chunk)) {
      const err = new TypeError('The "chunk" argument must be of type string or an instance of Buffer or Uint8Array');
      err.code = 'ERR_INVALID_ARG_TYPE';
      throw err;
    }
    if (chunk.byteLength) this._pending.push(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    if (callback) process.nextTick(callback, null);
    this._wake();
    return true;
  }

  end(chunk, encoding, callback) {
    if (typeof chunk === 'function') {
      callback = chunk;
      chunk = undefined;
    } else if (typeof encoding === 'function') {
      callback = encoding;
      encoding = undefined;
    }
    if (chunk !== undefined && chunk !== null) this.write(chunk, encoding);
    if (this._ended) return this;
    this._ended = true;
    this.writable = false;
    this._wake();
    process.nextTick(() => {
      this._finished = true;
      this.emit('finish');
      if (callback) callback();
    });
    return this;
  }

  // The command took a chunk.
  _drained() {
    if (this._pending.length === 0) this.emit('drain');
  }

  // The command exited: nothing more can be written to it.
  _closed() {
    this._pending = [];
    this.writable = false;
    if (!this.destroyed) {
      this.destroyed = true;
      process.nextTick(() => this.emit('close'));
    }
  }

  destroy() {
    this.end();
    return this;
  }

  cork() {}
  uncork() {}
  setDefaultEncoding() { return this; }
}

module.exports = { Readable, Writable };
