// node:string_decoder: decodes a byte stream chunk by chunk, holding back the bytes of
// a character (or base64 group) that a chunk boundary split.
'use strict';

const { Buffer } = require('buffer');

function normalize(enc) {
  const e = String(enc === undefined || enc === null ? 'utf8' : enc).toLowerCase();
  switch (e) {
    case 'utf8': case 'utf-8': return 'utf8';
    case 'ucs2': case 'ucs-2': case 'utf16le': case 'utf-16le': return 'utf16le';
    case 'latin1': case 'binary': return 'latin1';
    case 'base64': case 'base64url': case 'hex': case 'ascii': return e;
    default: {
      const err = new TypeError(`Unknown encoding: ${enc}`);
      err.code = 'ERR_UNKNOWN_ENCODING';
      throw err;
    }
  }
}

// How many bytes at the end of `buf` start a UTF-8 character that is not complete.
function utf8Tail(buf) {
  const n = buf.length;
  for (let back = 1; back <= Math.min(3, n); back++) {
    const b = buf[n - back];
    if ((b & 0xc0) === 0x80) continue;
    const need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
    return need > back ? back : 0;
  }
  return 0;
}

function tailLength(encoding, buf) {
  switch (encoding) {
    case 'utf8': return utf8Tail(buf);
    case 'utf16le': {
      let keep = buf.length % 2;
      const end = buf.length - keep;
      // A high surrogate at the end waits for its low half.
      if (end >= 2 && buf[end - 1] >= 0xd8 && buf[end - 1] <= 0xdb) keep += 2;
      return keep;
    }
    case 'base64':
    case 'base64url': return buf.length % 3;
    default: return 0;
  }
}

class StringDecoder {
  constructor(encoding) {
    this.encoding = normalize(encoding);
    this._pending = Buffer.alloc(0);
  }

  write(buf) {
    if (typeof buf === 'string') return buf;
    if (!(buf instanceof Uint8Array)) {
      const err = new TypeError('The "buf" argument must be an instance of Buffer, TypedArray, or DataView.');
      err.code = 'ERR_INVALID_ARG_TYPE';
      throw err;
    }
    let bytes = Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength);
    if (this._pending.length) bytes = Buffer.concat([this._pending, bytes]);
    const keep = tailLength(this.encoding, bytes);
    this._pending = keep ? Buffer.from(bytes.subarray(bytes.length - keep)) : Buffer.alloc(0);
    return bytes.toString(this.encoding, 0, bytes.length - keep);
  }

  end(buf) {
    let out = buf === undefined ? '' : this.write(buf);
    if (this._pending.length) {
      out += this._pending.toString(this.encoding);
      this._pending = Buffer.alloc(0);
    }
    return out;
  }

  text(buf, offset) {
    return this.write(buf.subarray(offset));
  }

  get lastNeed() { return this._pending.length ? 1 : 0; }
}

module.exports = { StringDecoder };
