// TextEncoder / TextDecoder (utf-8, utf-16le, latin1) and atob / btoa.
'use strict';

function bytesOf(input) {
  if (input === undefined) return new Uint8Array(0);
  if (input instanceof ArrayBuffer) return new Uint8Array(input);
  if (ArrayBuffer.isView(input)) return new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
  throw new TypeError('The "input" argument must be an instance of ArrayBuffer or ArrayBufferView');
}

class TextEncoder {
  get encoding() { return 'utf-8'; }
  encode(input = '') { return new Uint8Array(native.encode(String(input))); }
  encodeInto(input, dest) {
    const bytes = new Uint8Array(native.encode(String(input)));
    // Only whole characters are written: back off to a UTF-8 boundary.
    let n = Math.min(bytes.length, dest.length);
    while (n > 0 && n < bytes.length && (bytes[n] & 0xc0) === 0x80) n--;
    dest.set(bytes.subarray(0, n));
    const read = native.decode(bytes.subarray(0, n)).length;
    return { read, written: n };
  }
}

const LABELS = { 'utf-8': 'utf-8', utf8: 'utf-8', 'unicode-1-1-utf-8': 'utf-8', 'utf-16le': 'utf-16le', 'utf-16': 'utf-16le', latin1: 'windows-1252', 'iso-8859-1': 'windows-1252', 'windows-1252': 'windows-1252', ascii: 'windows-1252' };
const NATIVE = { 'utf-8': 'utf8', 'utf-16le': 'utf16le', 'windows-1252': 'latin1' };

// Length of the incomplete UTF-8 sequence at the end of `bytes`, kept for the next
// `decode(..., { stream: true })` call.
function incompleteTail(bytes) {
  for (let back = 1; back <= Math.min(3, bytes.length); back++) {
    const b = bytes[bytes.length - back];
    if ((b & 0xc0) === 0x80) continue;
    const need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
    return need > back ? back : 0;
  }
  return 0;
}

class TextDecoder {
  constructor(label = 'utf-8', options = {}) {
    const enc = LABELS[String(label).trim().toLowerCase()];
    if (enc === undefined) throw new RangeError(`The "${label}" encoding is not supported`);
    this._encoding = enc;
    this._fatal = Boolean(options.fatal);
    this._ignoreBOM = Boolean(options.ignoreBOM);
    this._pending = null;
    this._bomSeen = false;
  }
  get encoding() { return this._encoding; }
  get fatal() { return this._fatal; }
  get ignoreBOM() { return this._ignoreBOM; }
  decode(input, options = {}) {
    let bytes = bytesOf(input);
    if (this._pending !== null) {
      const joined = new Uint8Array(this._pending.length + bytes.length);
      joined.set(this._pending);
      joined.set(bytes, this._pending.length);
      bytes = joined;
      this._pending = null;
    }
    if (options.stream && this._encoding === 'utf-8') {
      const tail = incompleteTail(bytes);
      if (tail) {
        this._pending = bytes.slice(bytes.length - tail);
        bytes = bytes.subarray(0, bytes.length - tail);
      }
    }
    if (this._fatal && this._encoding === 'utf-8' && !native.isUtf8(bytes)) {
      const err = new TypeError('The encoded data was not valid for encoding utf-8');
      err.code = 'ERR_ENCODING_INVALID_ENCODED_DATA';
      throw err;
    }
    let text = native.decode(bytes, NATIVE[this._encoding]);
    if (!this._ignoreBOM && !this._bomSeen && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    this._bomSeen = Boolean(options.stream);
    return text;
  }
}

function domException(message, name) {
  const err = new Error(message);
  err.name = name;
  return err;
}

function atob(data) {
  if (arguments.length === 0) throw new TypeError('The "data" argument must be specified');
  const text = String(data);
  if (!native.isBase64(text)) throw domException('The string to be decoded is not correctly encoded.', 'InvalidCharacterError');
  return native.decode(new Uint8Array(native.encode(text, 'base64')), 'latin1');
}

function btoa(data) {
  if (arguments.length === 0) throw new TypeError('The "data" argument must be specified');
  const text = String(data);
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) > 255) throw domException('Invalid character', 'InvalidCharacterError');
  }
  return native.decode(new Uint8Array(native.encode(text, 'latin1')), 'base64');
}

module.exports = { TextEncoder, TextDecoder, atob, btoa };
