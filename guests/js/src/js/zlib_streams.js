// The zlib stream classes (Gzip, Gunzip, Deflate, ...): node:stream Transforms over
// a native codec, each chunk compressed or decompressed as it arrives.
'use strict';

const { Transform } = require('stream');
const { Buffer } = require('buffer');
const zlib = require('zlib');

const KINDS = {
  Deflate: 'deflate', Inflate: 'inflate', Gzip: 'gzip', Gunzip: 'gunzip', DeflateRaw: 'deflateRaw',
  InflateRaw: 'inflateRaw', Unzip: 'unzip', BrotliCompress: 'brotliCompress', BrotliDecompress: 'brotliDecompress',
};

class ZlibBase extends Transform {
  constructor(kind, options) {
    const opts = { ...(options || {}) };
    super({ ...opts, readableObjectMode: false, writableObjectMode: false });
    this._codec = zlib.codec(kind, opts);
    this.bytesWritten = 0;
    this._finishFlushed = false;
  }

  _emitOutput(out) {
    if (out.byteLength > 0) this.push(Buffer.from(out));
  }

  _transform(chunk, encoding, callback) {
    let bytes;
    try {
      bytes = typeof chunk === 'string' ? Buffer.from(chunk, encoding) : zlib.toBytes(chunk, 'chunk');
      this.bytesWritten += bytes.byteLength;
      this._emitOutput(this._codec.write(bytes));
    } catch (e) {
      callback(zlib.zlibError(e));
      return;
    }
    callback();
  }

  _flush(callback) {
    try {
      this._emitOutput(this._codec.finish());
    } catch (e) {
      callback(zlib.zlibError(e));
      return;
    }
    callback();
  }

  // Z_SYNC_FLUSH (the only kind the codecs offer): output so far becomes readable.
  flush(kind, callback) {
    if (typeof kind === 'function') callback = kind;
    try {
      this._emitOutput(this._codec.flush());
    } catch (e) {
      this.destroy(zlib.zlibError(e));
      return;
    }
    if (typeof callback === 'function') queueMicrotask(callback);
  }

  params() {
    throw require('web').notSupported('zlib params()');
  }

  reset() {}

  close(callback) {
    if (callback) this.once('close', callback);
    this.destroy();
  }
}

const classes = {};
for (const [name, kind] of Object.entries(KINDS)) {
  classes[name] = {
    [name]: class extends ZlibBase {
      constructor(options) { super(kind, options); }
    },
  }[name];
}

function create(name, options) {
  return new classes[name](options);
}

module.exports = { ...classes, create };
