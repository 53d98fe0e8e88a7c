// stream.Duplex (a Readable with Writable's methods mixed in, as in Node), Transform
// and PassThrough.
'use strict';

const Readable = require('stream_readable');
const Writable = require('stream_writable');
const { codedError } = require('stream_shared');

function Duplex(options) {
  if (!(this instanceof Duplex)) return new Duplex(options);
  Readable.call(this, options);
  Writable.call(this, options);
  if (options) {
    this.allowHalfOpen = options.allowHalfOpen !== false;
    if (options.readable === false) {
      this._readableState.readable = false;
      this._readableState.ended = true;
      this._readableState.endEmitted = true;
    }
    if (options.writable === false) {
      this._writableState.writable = false;
      this._writableState.ending = true;
      this._writableState.ended = true;
      this._writableState.finished = true;
    }
  } else {
    this.allowHalfOpen = true;
  }
}
Object.setPrototypeOf(Duplex.prototype, Readable.prototype);
Object.setPrototypeOf(Duplex, Readable);

for (const name of Object.getOwnPropertyNames(Writable.prototype)) {
  if (name === 'constructor' || Object.prototype.hasOwnProperty.call(Duplex.prototype, name)) continue;
  const desc = Object.getOwnPropertyDescriptor(Writable.prototype, name);
  if (['destroyed', 'errored', 'closed', 'destroy', '_undestroy', '_destroy', 'pipe'].includes(name)) continue;
  Object.defineProperty(Duplex.prototype, name, desc);
}

// Both sides share one destroyed flag, as Node's Duplex does.
Object.defineProperty(Duplex.prototype, 'destroyed', {
  get() {
    if (this._readableState === undefined || this._writableState === undefined) return false;
    return this._readableState.destroyed && this._writableState.destroyed;
  },
  set(value) {
    if (this._readableState && this._writableState) {
      this._readableState.destroyed = value;
      this._writableState.destroyed = value;
    }
  },
  configurable: true,
});
Duplex.prototype.destroy = Writable.prototype.destroy;
Duplex.prototype._undestroy = function () {
  Readable.prototype._undestroy.call(this);
  Writable.prototype._undestroy.call(this);
};

Duplex.from = function from(body) {
  if (body instanceof Duplex) return body;
  if (body instanceof Readable || body instanceof Writable) return body;
  if (body && (typeof body[Symbol.asyncIterator] === 'function' || typeof body[Symbol.iterator] === 'function')) {
    return Readable.from(body);
  }
  throw codedError('ERR_NOT_SUPPORTED_IN_SANDBOX', 'Duplex.from() of this value');
};

const kCallback = Symbol('kCallback');

function Transform(options) {
  if (!(this instanceof Transform)) return new Transform(options);
  let readableHighWaterMark = null;
  if (options) {
    const { readableHighWaterMark: r, writableHighWaterMark: w, highWaterMark: h } = options;
    readableHighWaterMark = r != null ? r : h != null ? h : null;
    if (readableHighWaterMark !== null && w == null && h == null) {
      options = { ...options, writableHighWaterMark: readableHighWaterMark };
    }
  }
  Duplex.call(this, options);
  this._readableState.sync = false;
  this[kCallback] = null;
  if (options) {
    if (typeof options.transform === 'function') this._transform = options.transform;
    if (typeof options.flush === 'function') this._flush = options.flush;
  }
  this.on('prefinish', prefinish);
}
Object.setPrototypeOf(Transform.prototype, Duplex.prototype);
Object.setPrototypeOf(Transform, Duplex);

function final(cb) {
  if (typeof this._flush === 'function' && !this.destroyed) {
    this._flush((er, data) => {
      if (er) {
        if (cb) cb(er);
        else this.destroy(er);
        return;
      }
      if (data != null) this.push(data);
      this.push(null);
      if (cb) cb();
    });
  } else {
    this.push(null);
    if (cb) cb();
  }
}

function prefinish() {
  if (this._final !== final) final.call(this);
}

Transform.prototype._final = final;

Transform.prototype._transform = function () {
  throw codedError('ERR_METHOD_NOT_IMPLEMENTED', '_transform()');
};

Transform.prototype._write = function (chunk, encoding, callback) {
  const rState = this._readableState;
  const wState = this._writableState;
  const length = rState.length;
  this._transform(chunk, encoding, (err, val) => {
    if (err) {
      callback(err);
      return;
    }
    if (val != null) this.push(val);
    if (wState.ended || length === rState.length || rState.length < rState.highWaterMark) {
      callback();
    } else {
      this[kCallback] = callback;
    }
  });
};

Transform.prototype._read = function () {
  if (this[kCallback]) {
    const callback = this[kCallback];
    this[kCallback] = null;
    callback();
  }
};

function PassThrough(options) {
  if (!(this instanceof PassThrough)) return new PassThrough(options);
  Transform.call(this, options);
}
Object.setPrototypeOf(PassThrough.prototype, Transform.prototype);
Object.setPrototypeOf(PassThrough, Transform);

PassThrough.prototype._transform = function (chunk, encoding, cb) {
  cb(null, chunk);
};

module.exports = { Duplex, Transform, PassThrough };
