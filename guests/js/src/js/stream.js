// node:stream: `require('stream')` is the legacy Stream class, with Readable, Writable,
// Duplex, Transform, PassThrough, pipeline, finished and promises as properties.
'use strict';

const shared = require('stream_shared');
const Readable = require('stream_readable');
const Writable = require('stream_writable');
const { Duplex, Transform, PassThrough } = require('stream_duplex');
const eos = require('stream_pipeline');

const { Stream, codedError, defaultHighWaterMark } = shared;
const kPromisify = Symbol.for('nodejs.util.promisify.custom');

// The legacy pipe of old-style streams (those that only emit 'data' and 'end').
Stream.prototype.pipe = function (dest, options) {
  const source = this;
  const ondata = (chunk) => {
    if (dest.writable && dest.write(chunk) === false && source.pause) source.pause();
  };
  const ondrain = () => {
    if (source.readable && source.resume) source.resume();
  };
  source.on('data', ondata);
  dest.on('drain', ondrain);
  if (!dest._isStdio && (!options || options.end !== false)) {
    source.on('end', () => dest.end());
  }
  dest.emit('pipe', source);
  return dest;
};

function notSupported(name) {
  return () => {
    throw codedError('ERR_NOT_SUPPORTED_IN_SANDBOX', `stream.${name}()`);
  };
}

Object.assign(Stream, {
  Stream,
  Readable,
  Writable,
  Duplex,
  Transform,
  PassThrough,
  pipeline: eos.pipeline,
  finished: eos.finished,
  promises: eos.promises,
  isReadable: eos.isReadable,
  isWritable: eos.isWritable,
  isDestroyed: eos.isDestroyed,
  isErrored: eos.isErrored,
  isDisturbed: (stream) => !!(stream && stream._readableState &&
    (stream._readableState.dataEmitted || stream._readableState.destroyed)),
  destroy: (stream, err) => shared.destroyer(stream, err),
  compose: notSupported('compose'),
  addAbortSignal: notSupported('addAbortSignal'),
  getDefaultHighWaterMark: (objectMode) => (objectMode ? defaultHighWaterMark.objects : defaultHighWaterMark.bytes),
  setDefaultHighWaterMark(objectMode, value) {
    if (objectMode) defaultHighWaterMark.objects = value;
    else defaultHighWaterMark.bytes = value;
  },
  _isUint8Array: (v) => v instanceof Uint8Array,
});
Object.defineProperty(Stream.pipeline, kPromisify, {
  value: eos.promises.pipeline,
  configurable: true,
});
Object.defineProperty(Stream.finished, kPromisify, {
  value: eos.promises.finished,
  configurable: true,
});

module.exports = Stream;
