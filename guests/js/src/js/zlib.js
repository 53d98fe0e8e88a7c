// node:zlib: the one-shot functions (sync and callback) over native.zlib codecs
// (flate2 on miniz_oxide, and brotli), crc32, constants and codes. The output of
// the deflaters is valid but not byte-identical to Node's zlib. The stream classes
// (createGzip, ...) live in zlib_streams.js.
'use strict';

const { Buffer } = require('buffer');

const constants = Object.freeze({
  Z_NO_FLUSH: 0, Z_PARTIAL_FLUSH: 1, Z_SYNC_FLUSH: 2, Z_FULL_FLUSH: 3, Z_FINISH: 4, Z_BLOCK: 5,
  Z_OK: 0, Z_STREAM_END: 1, Z_NEED_DICT: 2, Z_ERRNO: -1, Z_STREAM_ERROR: -2, Z_DATA_ERROR: -3,
  Z_MEM_ERROR: -4, Z_BUF_ERROR: -5, Z_VERSION_ERROR: -6, Z_NO_COMPRESSION: 0, Z_BEST_SPEED: 1,
  Z_BEST_COMPRESSION: 9, Z_DEFAULT_COMPRESSION: -1, Z_FILTERED: 1, Z_HUFFMAN_ONLY: 2, Z_RLE: 3,
  Z_FIXED: 4, Z_DEFAULT_STRATEGY: 0, ZLIB_VERNUM: 4880, DEFLATE: 1, INFLATE: 2, GZIP: 3,
  GUNZIP: 4, DEFLATERAW: 5, INFLATERAW: 6, UNZIP: 7, BROTLI_DECODE: 8, BROTLI_ENCODE: 9,
  Z_MIN_WINDOWBITS: 8, Z_MAX_WINDOWBITS: 15, Z_DEFAULT_WINDOWBITS: 15, Z_MIN_CHUNK: 64,
  Z_MAX_CHUNK: Infinity, Z_DEFAULT_CHUNK: 16384, Z_MIN_MEMLEVEL: 1, Z_MAX_MEMLEVEL: 9,
  Z_DEFAULT_MEMLEVEL: 8, Z_MIN_LEVEL: -1, Z_MAX_LEVEL: 9, Z_DEFAULT_LEVEL: -1,
  BROTLI_OPERATION_PROCESS: 0, BROTLI_OPERATION_FLUSH: 1, BROTLI_OPERATION_FINISH: 2,
  BROTLI_OPERATION_EMIT_METADATA: 3, BROTLI_PARAM_MODE: 0, BROTLI_MODE_GENERIC: 0,
  BROTLI_MODE_TEXT: 1, BROTLI_MODE_FONT: 2, BROTLI_DEFAULT_MODE: 0, BROTLI_PARAM_QUALITY: 1,
  BROTLI_MIN_QUALITY: 0, BROTLI_MAX_QUALITY: 11, BROTLI_DEFAULT_QUALITY: 11,
  BROTLI_PARAM_LGWIN: 2, BROTLI_MIN_WINDOW_BITS: 10, BROTLI_MAX_WINDOW_BITS: 24,
  BROTLI_LARGE_MAX_WINDOW_BITS: 30, BROTLI_DEFAULT_WINDOW: 22, BROTLI_PARAM_LGBLOCK: 3,
  BROTLI_MIN_INPUT_BLOCK_BITS: 16, BROTLI_MAX_INPUT_BLOCK_BITS: 24,
  BROTLI_PARAM_DISABLE_LITERAL_CONTEXT_MODELING: 4, BROTLI_PARAM_SIZE_HINT: 5,
  BROTLI_PARAM_LARGE_WINDOW: 6, BROTLI_PARAM_NPOSTFIX: 7, BROTLI_PARAM_NDIRECT: 8,
  BROTLI_DECODER_RESULT_ERROR: 0, BROTLI_DECODER_RESULT_SUCCESS: 1,
  BROTLI_DECODER_RESULT_NEEDS_MORE_INPUT: 2, BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT: 3,
  BROTLI_DECODER_PARAM_DISABLE_RING_BUFFER_REALLOCATION: 0, BROTLI_DECODER_PARAM_LARGE_WINDOW: 1,
  BROTLI_DECODER_NO_ERROR: 0, BROTLI_DECODER_SUCCESS: 1, BROTLI_DECODER_NEEDS_MORE_INPUT: 2,
  BROTLI_DECODER_NEEDS_MORE_OUTPUT: 3, BROTLI_DECODER_ERROR_FORMAT_EXUBERANT_NIBBLE: -1,
  BROTLI_DECODER_ERROR_FORMAT_RESERVED: -2,
  BROTLI_DECODER_ERROR_FORMAT_EXUBERANT_META_NIBBLE: -3,
  BROTLI_DECODER_ERROR_FORMAT_SIMPLE_HUFFMAN_ALPHABET: -4,
  BROTLI_DECODER_ERROR_FORMAT_SIMPLE_HUFFMAN_SAME: -5, BROTLI_DECODER_ERROR_FORMAT_CL_SPACE: -6,
  BROTLI_DECODER_ERROR_FORMAT_HUFFMAN_SPACE: -7,
  BROTLI_DECODER_ERROR_FORMAT_CONTEXT_MAP_REPEAT: -8,
  BROTLI_DECODER_ERROR_FORMAT_BLOCK_LENGTH_1: -9,
  BROTLI_DECODER_ERROR_FORMAT_BLOCK_LENGTH_2: -10, BROTLI_DECODER_ERROR_FORMAT_TRANSFORM: -11,
  BROTLI_DECODER_ERROR_FORMAT_DICTIONARY: -12, BROTLI_DECODER_ERROR_FORMAT_WINDOW_BITS: -13,
  BROTLI_DECODER_ERROR_FORMAT_PADDING_1: -14, BROTLI_DECODER_ERROR_FORMAT_PADDING_2: -15,
  BROTLI_DECODER_ERROR_FORMAT_DISTANCE: -16, BROTLI_DECODER_ERROR_DICTIONARY_NOT_SET: -19,
  BROTLI_DECODER_ERROR_INVALID_ARGUMENTS: -20, BROTLI_DECODER_ERROR_ALLOC_CONTEXT_MODES: -21,
  BROTLI_DECODER_ERROR_ALLOC_TREE_GROUPS: -22, BROTLI_DECODER_ERROR_ALLOC_CONTEXT_MAP: -25,
  BROTLI_DECODER_ERROR_ALLOC_RING_BUFFER_1: -26, BROTLI_DECODER_ERROR_ALLOC_RING_BUFFER_2: -27,
  BROTLI_DECODER_ERROR_ALLOC_BLOCK_TYPE_TREES: -30, BROTLI_DECODER_ERROR_UNREACHABLE: -31,
});

const codes = {};
for (const name of ['Z_OK', 'Z_STREAM_END', 'Z_NEED_DICT', 'Z_ERRNO', 'Z_STREAM_ERROR', 'Z_DATA_ERROR', 'Z_MEM_ERROR', 'Z_BUF_ERROR', 'Z_VERSION_ERROR']) {
  codes[name] = constants[name];
  codes[constants[name]] = name;
}
Object.freeze(codes);

function received(value) {
  if (value === null) return 'null';
  if (value === undefined) return 'undefined';
  if (typeof value === 'object' || typeof value === 'function') {
    return value.constructor && value.constructor.name ? `an instance of ${value.constructor.name}` : 'an instance of Object';
  }
  return `type ${typeof value} (${require('inspect').inspect(value)})`;
}

function toBytes(buffer, name = 'buffer') {
  if (typeof buffer === 'string') return Buffer.from(buffer);
  if (ArrayBuffer.isView(buffer)) return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
  if (buffer instanceof ArrayBuffer) return new Uint8Array(buffer);
  const err = new TypeError(`The "${name}" argument must be of type string or an instance of Buffer, TypedArray, DataView, or ArrayBuffer. Received ${received(buffer)}`);
  err.code = 'ERR_INVALID_ARG_TYPE';
  throw err;
}

// A native failure ({ zlibError, code, errno, message }) as Node's Error.
function zlibError(e) {
  if (e === null || typeof e !== 'object' || !e.zlibError) return e;
  const err = new Error(e.message);
  err.errno = e.errno;
  err.code = e.code;
  return err;
}

function checkLevel(level) {
  if (level === undefined) return -1;
  if (typeof level !== 'number' || !Number.isInteger(level) || level < -1 || level > 9) {
    const err = new RangeError(`The value of "options.level" is out of range. It must be >= -1 and <= 9. Received ${level}`);
    err.code = 'ERR_OUT_OF_RANGE';
    throw err;
  }
  return level;
}

// The native codec for `kind` with the options that matter to it.
function codec(kind, options) {
  const opts = options || {};
  const params = opts.params || {};
  const quality = params[constants.BROTLI_PARAM_QUALITY];
  return native.zlib.create(kind, checkLevel(opts.level), quality === undefined ? 11 : quality);
}

function concat(chunks) {
  let n = 0;
  for (const c of chunks) n += c.byteLength;
  const out = Buffer.allocUnsafe(n);
  let off = 0;
  for (const c of chunks) {
    out.set(new Uint8Array(c), off);
    off += c.byteLength;
  }
  return out;
}

function processSync(kind, buffer, options) {
  const input = toBytes(buffer);
  const c = codec(kind, options);
  try {
    return concat([c.write(input), c.finish()]);
  } catch (e) {
    throw zlibError(e);
  }
}

function processAsync(kind, buffer, options, callback) {
  if (typeof options === 'function') {
    callback = options;
    options = {};
  }
  if (typeof callback !== 'function') {
    const err = new TypeError(`The "callback" argument must be of type function. Received ${received(callback)}`);
    err.code = 'ERR_INVALID_ARG_TYPE';
    throw err;
  }
  const input = toBytes(buffer);
  // The work is done on a later tick, as Node's thread pool would deliver it.
  setImmediate(() => {
    let result;
    try {
      result = processSync(kind, input, options);
    } catch (e) {
      callback(e);
      return;
    }
    callback(null, result);
  });
}

function crc32(data, value = 0) {
  if (typeof data !== 'string' && !ArrayBuffer.isView(data)) {
    const err = new TypeError(`The "data" argument must be of type string or an instance of Buffer, TypedArray, or DataView. Received ${received(data)}`);
    err.code = 'ERR_INVALID_ARG_TYPE';
    throw err;
  }
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > 4294967295) {
    const err = new RangeError(`The value of "value" is out of range. It must be >= 0 && <= 4294967295. Received ${value}`);
    err.code = 'ERR_OUT_OF_RANGE';
    throw err;
  }
  return native.zlib.crc32(toBytes(data, 'data'), value);
}

const zlib = { crc32, constants, codes };
const KINDS = ['deflate', 'gzip', 'deflateRaw', 'unzip', 'inflate', 'gunzip', 'inflateRaw', 'brotliCompress', 'brotliDecompress'];
for (const kind of KINDS) {
  zlib[kind] = (buffer, options, callback) => processAsync(kind, buffer, options, callback);
  zlib[kind + 'Sync'] = (buffer, options) => processSync(kind, buffer, options);
}

// The stream classes load with the stream module, on first use. They are not
// enumerable (so not named exports of \`import ... from 'zlib'\`), so that importing
// zlib does not load node:stream; the create* functions are.
const STREAMS = ['Deflate', 'Inflate', 'Gzip', 'Gunzip', 'DeflateRaw', 'InflateRaw', 'Unzip', 'BrotliCompress', 'BrotliDecompress'];
for (const name of STREAMS) {
  Object.defineProperty(zlib, name, {
    enumerable: false,
    configurable: true,
    get: () => require('zlib_streams')[name],
  });
  zlib['create' + name] = (options) => require('zlib_streams').create(name, options);
}

zlib.codec = codec;
zlib.zlibError = zlibError;
zlib.toBytes = toBytes;
Object.defineProperty(zlib, 'codec', { enumerable: false });
Object.defineProperty(zlib, 'zlibError', { enumerable: false });
Object.defineProperty(zlib, 'toBytes', { enumerable: false });

module.exports = zlib;
