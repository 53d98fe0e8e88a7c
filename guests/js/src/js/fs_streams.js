// fs.ReadStream and fs.WriteStream over the fd functions. Each file operation runs
// synchronously on a later turn of the event loop (setImmediate), where Node's
// thread-pool callbacks would arrive, so 'open', 'ready', 'data', 'end', 'finish' and
// 'close' come in Node's order.
'use strict';

const { Buffer } = require('buffer');
const { Readable, Writable } = require('stream');
const fs = require('fs');
const { codedError, invalidArgType } = require('stream_shared');

function outOfRange(name, range, value) {
  const err = new RangeError(`The value of "${name}" is out of range. It must be ${range}. Received ${value}`);
  err.code = 'ERR_OUT_OF_RANGE';
  return err;
}

function streamOptions(options) {
  if (options === undefined || options === null) return {};
  if (typeof options === 'string') return { encoding: options };
  return { ...options };
}

function checkPosition(name, value, min) {
  if (value === undefined) return;
  if (typeof value !== 'number') throw invalidArgType(name, 'of type number', value);
  if (!Number.isInteger(value) || value < min) throw outOfRange(name, `>= ${min} && <= 9007199254740991`, value);
}

// The stream's fd (a number, or a FileHandle's), the path, and the open in _construct.
function setup(stream, path, options, defaultFlags) {
  const fd = options.fd;
  if (fd !== undefined && fd !== null) {
    stream.fd = typeof fd === 'object' ? fd.fd : fd;
    stream._handle = typeof fd === 'object' ? fd : null;
  } else {
    stream.fd = null;
    const isUrl = path !== null && typeof path === 'object' && path.protocol === 'file:' && typeof path.pathname === 'string';
    if (typeof path !== 'string' && !(path instanceof Uint8Array) && !isUrl) {
      throw invalidArgType('path', 'of type string or an instance of Buffer or URL', path);
    }
    stream.path = typeof path === 'string' ? path : isUrl ? decodeURIComponent(path.pathname) : Buffer.from(path).toString();
  }
  stream.flags = options.flags === undefined ? defaultFlags : options.flags;
  stream.mode = options.mode === undefined ? 0o666 : options.mode;
  stream.autoClose = options.autoClose === undefined ? true : options.autoClose;
  stream.start = options.start;
  stream.pos = options.start;
}

function construct(callback) {
  if (typeof this.fd === 'number') {
    callback();
    return;
  }
  setImmediate(() => {
    try {
      this.fd = fs.openSync(this.path, this.flags, this.mode);
    } catch (err) {
      callback(err);
      return;
    }
    callback();
    this.emit('open', this.fd);
    this.emit('ready');
  });
}

function destroy(err, cb) {
  if (typeof this.fd !== 'number' || !this.autoClose) {
    cb(err);
    return;
  }
  // The close starts now (a FileHandle's fd is -1 at once, as in Node); its callback
  // comes on a later turn.
  let closeErr = null;
  try {
    if (this._handle) this._handle.close();
    else fs.closeSync(this.fd);
  } catch (e) {
    closeErr = e;
  }
  this.fd = null;
  setImmediate(() => cb(err || closeErr));
}

function ReadStream(path, options) {
  if (!(this instanceof ReadStream)) return new ReadStream(path, options);
  options = streamOptions(options);
  if (options.highWaterMark === undefined) options.highWaterMark = 64 * 1024;
  Readable.call(this, options);
  setup(this, path, options, 'r');
  checkPosition('start', this.start, 0);
  if (options.end === undefined || options.end === Infinity) {
    this.end = Infinity;
  } else {
    checkPosition('end', options.end, 0);
    this.end = options.end;
    if (this.start !== undefined && this.start > this.end) {
      throw outOfRange('start', `<= "end" (here: ${this.end})`, this.start);
    }
  }
  this.bytesRead = 0;
}
Object.setPrototypeOf(ReadStream.prototype, Readable.prototype);
Object.setPrototypeOf(ReadStream, Readable);

ReadStream.prototype._construct = construct;
ReadStream.prototype._destroy = destroy;

ReadStream.prototype._read = function (n) {
  const toRead = this.end === Infinity ? n : Math.min(this.end - (this.pos === undefined ? this.bytesRead : this.pos) + 1, n);
  if (toRead <= 0) {
    this.push(null);
    return;
  }
  setImmediate(() => {
    if (this.destroyed) return;
    const buf = Buffer.allocUnsafe(toRead);
    let bytesRead;
    try {
      bytesRead = fs.readSync(this.fd, buf, 0, toRead, this.pos === undefined ? null : this.pos);
    } catch (err) {
      this.destroy(err);
      return;
    }
    if (this.pos !== undefined) this.pos += bytesRead;
    this.bytesRead += bytesRead;
    this.push(bytesRead > 0 ? buf.subarray(0, bytesRead) : null);
  });
};

ReadStream.prototype.close = function (cb) {
  if (typeof cb === 'function') require('stream').finished(this, cb);
  this.destroy();
};

Object.defineProperty(ReadStream.prototype, 'pending', {
  get() { return this.fd === null; },
  configurable: true,
});

function WriteStream(path, options) {
  if (!(this instanceof WriteStream)) return new WriteStream(path, options);
  options = streamOptions(options);
  options.decodeStrings = true;
  Writable.call(this, options);
  setup(this, path, options, 'w');
  checkPosition('start', this.start, 0);
  this.bytesWritten = 0;
  if (options.encoding) this.setDefaultEncoding(options.encoding);
}
Object.setPrototypeOf(WriteStream.prototype, Writable.prototype);
Object.setPrototypeOf(WriteStream, Writable);

WriteStream.prototype._construct = construct;
WriteStream.prototype._destroy = destroy;

function writeAll(stream, buffers, cb) {
  setImmediate(() => {
    if (stream.destroyed) {
      cb(codedError('ERR_STREAM_DESTROYED', 'write'));
      return;
    }
    try {
      for (const data of buffers) {
        const n = fs.writeSync(stream.fd, data, 0, data.length, stream.pos === undefined ? null : stream.pos);
        stream.bytesWritten += n;
        if (stream.pos !== undefined) stream.pos += n;
      }
    } catch (err) {
      cb(err);
      return;
    }
    cb();
  });
}

WriteStream.prototype._write = function (data, encoding, cb) {
  writeAll(this, [data], cb);
};

WriteStream.prototype._writev = function (chunks, cb) {
  writeAll(this, chunks.map((c) => c.chunk), cb);
};

WriteStream.prototype.close = function (cb) {
  if (cb) {
    if (this.closed) {
      process.nextTick(cb);
      return;
    }
    this.on('close', cb);
  }
  if (!this.autoClose) this.on('finish', this.destroy);
  this.end();
};
WriteStream.prototype.destroySoon = WriteStream.prototype.end;

Object.defineProperty(WriteStream.prototype, 'pending', {
  get() { return this.fd === null; },
  configurable: true,
});

module.exports = {
  ReadStream,
  WriteStream,
  createReadStream: (path, options) => new ReadStream(path, options),
  createWriteStream: (path, options) => new WriteStream(path, options),
};
