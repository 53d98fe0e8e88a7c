// process.stdin: the run's stdin, readable once. It is an async iterable of Buffer
// chunks, and an EventEmitter that emits 'data' (after a 'data' listener is added or
// resume() is called), then 'end' and 'close'. Reads block on wasi:cli/stdin, which
// is fine: the host hands the guest all of stdin up front.
'use strict';

const EventEmitter = require('events');
const { Buffer } = require('buffer');

class Stdin extends EventEmitter {
  constructor() {
    super();
    this.fd = 0;
    this.readable = true;
    this.readableEnded = false;
    this._encoding = null;
    this._flowing = false;
    this._scheduled = false;
  }

  _chunk(ab) {
    const buf = Buffer.from(ab);
    return this._encoding ? buf.toString(this._encoding) : buf;
  }

  setEncoding(encoding) {
    this._encoding = encoding || 'utf8';
    return this;
  }

  on(name, listener) {
    super.on(name, listener);
    if (name === 'data') this.resume();
    if (name === 'readable') this._schedule();
    return this;
  }

  resume() {
    this._flowing = true;
    this._schedule();
    return this;
  }

  pause() {
    this._flowing = false;
    return this;
  }

  isPaused() { return !this._flowing; }

  _schedule() {
    if (this._scheduled || this.readableEnded) return;
    this._scheduled = true;
    setImmediate(() => this._pump());
  }

  // One chunk per turn of the event loop, so timers still get their turn.
  _pump() {
    this._scheduled = false;
    if (this.readableEnded) return;
    if (!this._flowing && this.listenerCount('readable') === 0) return;
    const ab = native.stdinRead(65536);
    if (ab === null) {
      this._end();
      return;
    }
    if (this.listenerCount('readable') > 0 && !this._flowing) {
      this._buffered = ab;
      this.emit('readable');
    } else {
      this.emit('data', this._chunk(ab));
    }
    this._schedule();
  }

  read() {
    if (this._buffered !== undefined) {
      const ab = this._buffered;
      this._buffered = undefined;
      return this._chunk(ab);
    }
    const ab = native.stdinRead(65536);
    if (ab === null) {
      if (!this.readableEnded) queueMicrotask(() => this._end());
      return null;
    }
    return this._chunk(ab);
  }

  _end() {
    if (this.readableEnded) return;
    this.readableEnded = true;
    this.readable = false;
    this.emit('end');
    this.emit('close');
  }

  pipe(dest) {
    this.on('data', (chunk) => dest.write(chunk));
    this.once('end', () => {
      if (dest !== process.stdout && dest !== process.stderr && typeof dest.end === 'function') dest.end();
    });
    return dest;
  }

  [Symbol.asyncIterator]() {
    const self = this;
    return {
      next() {
        const ab = self.readableEnded ? null : native.stdinRead(65536);
        if (ab === null) {
          self._end();
          return Promise.resolve({ done: true, value: undefined });
        }
        return Promise.resolve({ done: false, value: self._chunk(ab) });
      },
      return() {
        return Promise.resolve({ done: true, value: undefined });
      },
      [Symbol.asyncIterator]() { return this; },
    };
  }
}

module.exports = { create: () => new Stdin() };
