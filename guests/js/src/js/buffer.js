// node:buffer: Buffer as a Uint8Array subclass. Encodings are converted natively
// (utf8, hex, base64, base64url, latin1/binary, ascii, utf16le/ucs2).
'use strict';

const ENCODINGS = ['utf8', 'utf-8', 'hex', 'base64', 'base64url', 'latin1', 'binary', 'ascii', 'utf16le', 'utf-16le', 'ucs2', 'ucs-2'];

function normalizeEncoding(enc) {
  if (enc === undefined || enc === null) return 'utf8';
  const lower = String(enc).toLowerCase();
  if (!ENCODINGS.includes(lower)) {
    const err = new TypeError(`Unknown encoding: ${enc}`);
    err.code = 'ERR_UNKNOWN_ENCODING';
    throw err;
  }
  return lower;
}

function invalidArg(name, value) {
  const err = new TypeError(
    `The first argument must be of type string or an instance of Buffer, ArrayBuffer, or Array or an Array-like Object. Received ${value === null ? 'null' : typeof value}`,
  );
  err.code = 'ERR_INVALID_ARG_TYPE';
  return err;
}

class Buffer extends Uint8Array {
  // `new Buffer(...)` is deprecated in Node but still seen; it behaves like `from`/`alloc`.
  // Typed-array methods (subarray, map, ...) also construct through here.
  constructor(arg, encodingOrOffset, length) {
    if (typeof arg === 'string') super(native.encode(arg, normalizeEncoding(encodingOrOffset)));
    else if (arg instanceof ArrayBuffer || (typeof SharedArrayBuffer !== 'undefined' && arg instanceof SharedArrayBuffer)) {
      super(arg, encodingOrOffset === undefined ? 0 : encodingOrOffset, length === undefined ? (arg.byteLength - (encodingOrOffset || 0)) : length);
    } else super(arg);
  }

  static from(value, encodingOrOffset, length) {
    if (typeof value === 'string') return new Buffer(native.encode(value, normalizeEncoding(encodingOrOffset)));
    if (value instanceof ArrayBuffer || (typeof SharedArrayBuffer !== 'undefined' && value instanceof SharedArrayBuffer)) {
      return new Buffer(value, encodingOrOffset, length);
    }
    if (ArrayBuffer.isView(value)) {
      const copy = new Buffer(value.byteLength);
      copy.set(new Uint8Array(value.buffer, value.byteOffset, value.byteLength));
      return copy;
    }
    if (value !== null && typeof value === 'object') {
      if (typeof value[Symbol.toPrimitive] === 'function' || (typeof value.valueOf === 'function' && value.valueOf() !== value)) {
        const prim = typeof value[Symbol.toPrimitive] === 'function' ? value[Symbol.toPrimitive]('string') : value.valueOf();
        if (typeof prim === 'string' || ArrayBuffer.isView(prim)) return Buffer.from(prim, encodingOrOffset, length);
      }
      if (value.type === 'Buffer' && Array.isArray(value.data)) return new Buffer(value.data);
      if (typeof value.length === 'number' || Array.isArray(value)) return new Buffer(Array.from(value, (x) => x & 255));
    }
    throw invalidArg('value', value);
  }

  static alloc(size, fill, encoding) {
    const buf = new Buffer(size);
    if (fill !== undefined && fill !== 0) buf.fill(fill, 0, buf.length, encoding);
    return buf;
  }

  static allocUnsafe(size) { return new Buffer(size); }
  static allocUnsafeSlow(size) { return new Buffer(size); }

  static isBuffer(value) { return value instanceof Buffer; }

  static isEncoding(enc) { return typeof enc === 'string' && ENCODINGS.includes(enc.toLowerCase()); }

  static byteLength(value, encoding) {
    if (typeof value !== 'string') {
      if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer) return value.byteLength;
      throw invalidArg('string', value);
    }
    return native.encode(value, normalizeEncoding(encoding)).byteLength;
  }

  static concat(list, totalLength) {
    if (!Array.isArray(list)) throw invalidArg('list', list);
    if (totalLength === undefined) totalLength = list.reduce((n, b) => n + b.length, 0);
    const out = new Buffer(totalLength);
    let pos = 0;
    for (const b of list) {
      if (pos >= totalLength) break;
      const chunk = b.length > totalLength - pos ? b.subarray(0, totalLength - pos) : b;
      out.set(chunk, pos);
      pos += chunk.length;
    }
    return out;
  }

  static compare(a, b) { return compareBytes(a, b); }

  toString(encoding, start, end) {
    start = start === undefined ? 0 : Math.max(0, start | 0);
    end = end === undefined ? this.length : Math.min(this.length, end | 0);
    if (end <= start) return '';
    const view = start === 0 && end === this.length ? this : new Uint8Array(this.buffer, this.byteOffset + start, end - start);
    return native.decode(view, normalizeEncoding(encoding));
  }

  toLocaleString(encoding, start, end) { return this.toString(encoding, start, end); }

  toJSON() { return { type: 'Buffer', data: Array.from(this) }; }

  equals(other) {
    if (!(other instanceof Uint8Array)) throw invalidArg('otherBuffer', other);
    return compareBytes(this, other) === 0;
  }

  compare(other) { return compareBytes(this, other); }

  // Node's Buffer#slice shares memory, unlike Uint8Array#slice.
  slice(start, end) { return this.subarray(start, end); }

  write(string, offset, length, encoding) {
    if (typeof offset === 'string') {
      encoding = offset;
      offset = 0;
      length = undefined;
    } else if (typeof length === 'string') {
      encoding = length;
      length = undefined;
    }
    offset = offset === undefined ? 0 : offset >>> 0;
    const bytes = new Uint8Array(native.encode(String(string), normalizeEncoding(encoding)));
    const n = Math.min(bytes.length, this.length - offset, length === undefined ? Infinity : length);
    this.set(bytes.subarray(0, n), offset);
    return n;
  }

  fill(value, offset, end, encoding) {
    if (typeof offset === 'string') {
      encoding = offset;
      offset = 0;
      end = this.length;
    }
    offset = offset === undefined ? 0 : offset;
    end = end === undefined ? this.length : end;
    if (typeof value === 'string') {
      const bytes = new Uint8Array(native.encode(value, normalizeEncoding(encoding)));
      if (bytes.length === 0) return super.fill(0, offset, end);
      if (bytes.length === 1) return super.fill(bytes[0], offset, end);
      for (let i = offset, j = 0; i < end; i++, j = (j + 1) % bytes.length) this[i] = bytes[j];
      return this;
    }
    if (value instanceof Uint8Array) {
      for (let i = offset, j = 0; i < end; i++, j = (j + 1) % value.length) this[i] = value[j];
      return this;
    }
    return super.fill(Number(value) & 255, offset, end);
  }

  indexOf(value, byteOffset, encoding) { return search(this, value, byteOffset, encoding, false); }
  lastIndexOf(value, byteOffset, encoding) { return search(this, value, byteOffset, encoding, true); }
  includes(value, byteOffset, encoding) { return this.indexOf(value, byteOffset, encoding) !== -1; }

  copy(target, targetStart = 0, sourceStart = 0, sourceEnd = this.length) {
    const n = Math.max(0, Math.min(sourceEnd, this.length) - sourceStart);
    const count = Math.min(n, target.length - targetStart);
    if (count <= 0) return 0;
    target.set(this.subarray(sourceStart, sourceStart + count), targetStart);
    return count;
  }

  swap16() { for (let i = 0; i + 1 < this.length; i += 2) [this[i], this[i + 1]] = [this[i + 1], this[i]]; return this; }
}

function compareBytes(a, b) {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
  }
  return a.length < b.length ? -1 : a.length > b.length ? 1 : 0;
}

function search(buf, value, byteOffset, encoding, last) {
  if (typeof byteOffset === 'string') {
    encoding = byteOffset;
    byteOffset = undefined;
  }
  let needle;
  if (typeof value === 'number') needle = [value & 255];
  else if (typeof value === 'string') needle = new Uint8Array(native.encode(value, normalizeEncoding(encoding)));
  else needle = value;
  const n = buf.length;
  const m = needle.length;
  let from = byteOffset === undefined ? (last ? n - m : 0) : byteOffset < 0 ? n + byteOffset : byteOffset;
  if (m === 0) return Math.min(Math.max(from, 0), n);
  if (last) {
    for (let i = Math.min(from, n - m); i >= 0; i--) if (matchAt(buf, needle, i)) return i;
  } else {
    for (let i = Math.max(from, 0); i <= n - m; i++) if (matchAt(buf, needle, i)) return i;
  }
  return -1;
}

function matchAt(buf, needle, i) {
  for (let j = 0; j < needle.length; j++) if (buf[i + j] !== needle[j]) return false;
  return true;
}

// readUInt16LE, writeInt32BE, readDoubleLE, readBigUInt64LE, ... through DataView.
const ACCESSORS = [
  ['UInt8', 'Uint8', 1], ['Int8', 'Int8', 1], ['UInt16', 'Uint16', 2], ['Int16', 'Int16', 2],
  ['UInt32', 'Uint32', 4], ['Int32', 'Int32', 4], ['Float', 'Float32', 4], ['Double', 'Float64', 8],
  ['BigUInt64', 'BigUint64', 8], ['BigInt64', 'BigInt64', 8],
];
function view(buf) { return new DataView(buf.buffer, buf.byteOffset, buf.byteLength); }
function checkBounds(buf, offset, size) {
  if (offset < 0 || offset + size > buf.length || offset !== Math.floor(offset)) {
    const err = new RangeError(`The value of "offset" is out of range. It must be >= 0 and <= ${buf.length - size}. Received ${offset}`);
    err.code = 'ERR_OUT_OF_RANGE';
    throw err;
  }
}
for (const [name, dv, size] of ACCESSORS) {
  const endians = size === 1 ? [''] : ['LE', 'BE'];
  for (const e of endians) {
    const little = e === 'LE';
    Buffer.prototype[`read${name}${e}`] = function (offset = 0) {
      checkBounds(this, offset, size);
      return view(this)[`get${dv}`](offset, little);
    };
    Buffer.prototype[`write${name}${e}`] = function (value, offset = 0) {
      checkBounds(this, offset, size);
      view(this)[`set${dv}`](offset, value, little);
      return offset + size;
    };
    if (name.startsWith('UInt')) {
      const alias = name.replace('UInt', 'Uint');
      Buffer.prototype[`read${alias}${e}`] = Buffer.prototype[`read${name}${e}`];
      Buffer.prototype[`write${alias}${e}`] = Buffer.prototype[`write${name}${e}`];
    }
  }
}
Buffer.poolSize = 8192;

const kMaxLength = 2 ** 31 - 1;
module.exports = {
  Buffer,
  SlowBuffer: Buffer,
  kMaxLength,
  kStringMaxLength: 2 ** 29 - 24,
  constants: { MAX_LENGTH: kMaxLength, MAX_STRING_LENGTH: 2 ** 29 - 24 },
  atob: (s) => globalThis.atob(s),
  btoa: (s) => globalThis.btoa(s),
};
