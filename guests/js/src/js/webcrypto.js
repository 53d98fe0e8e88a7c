// The Web Crypto object (the global `crypto`, node:crypto's `webcrypto`):
// getRandomValues, randomUUID and subtle.digest. The rest of SubtleCrypto (keys,
// encryption, signatures) rejects with ERR_NOT_SUPPORTED_IN_SANDBOX.
'use strict';

const DIGESTS = { 'SHA-1': 'sha1', 'SHA-256': 'sha256', 'SHA-384': 'sha384', 'SHA-512': 'sha512' };

function domError(message, name) {
  const { DOMException } = require('web');
  return new DOMException(message, name);
}

const INTEGER_ARRAYS = ['Int8Array', 'Uint8Array', 'Uint8ClampedArray', 'Int16Array', 'Uint16Array', 'Int32Array', 'Uint32Array', 'BigInt64Array', 'BigUint64Array'];

class Crypto {
  getRandomValues(array) {
    const tag = ArrayBuffer.isView(array) ? Object.prototype.toString.call(array).slice(8, -1) : '';
    if (!INTEGER_ARRAYS.includes(tag)) throw domError('The data argument must be an integer-type TypedArray', 'TypeMismatchError');
    if (array.byteLength > 65536) throw domError('The requested length exceeds 65,536 bytes', 'QuotaExceededError');
    new Uint8Array(array.buffer, array.byteOffset, array.byteLength).set(new Uint8Array(native.randomBytes(array.byteLength)));
    return array;
  }
  randomUUID() {
    const b = new Uint8Array(native.randomBytes(16));
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    const h = native.decode(b, 'hex');
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
  }
  get subtle() { return subtle; }
}
Object.defineProperty(Crypto.prototype, Symbol.toStringTag, { value: 'Crypto', configurable: true });

class SubtleCrypto {
  async digest(algorithm, data) {
    const name = typeof algorithm === 'string' ? algorithm : algorithm && algorithm.name;
    const alg = DIGESTS[String(name).toUpperCase()];
    if (alg === undefined) throw domError('Unrecognized algorithm name', 'NotSupportedError');
    let view;
    if (ArrayBuffer.isView(data)) view = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
    else if (data instanceof ArrayBuffer) view = new Uint8Array(data);
    else {
      const err = new TypeError('Failed to execute \'digest\' on \'SubtleCrypto\': 2nd argument is not instance of ArrayBuffer, Buffer, TypedArray, or DataView.');
      err.code = 'ERR_INVALID_ARG_TYPE';
      throw err;
    }
    const h = native.crypto.hash(alg);
    h.update(view);
    return h.digest();
  }
}
for (const name of ['encrypt', 'decrypt', 'sign', 'verify', 'generateKey', 'deriveKey', 'deriveBits', 'importKey', 'exportKey', 'wrapKey', 'unwrapKey']) {
  SubtleCrypto.prototype[name] = async function () {
    throw require('web').notSupported(`crypto.subtle.${name}`);
  };
}
Object.defineProperty(SubtleCrypto.prototype, Symbol.toStringTag, { value: 'SubtleCrypto', configurable: true });

const subtle = new SubtleCrypto();
const crypto = new Crypto();

module.exports = { crypto, Crypto, SubtleCrypto };
