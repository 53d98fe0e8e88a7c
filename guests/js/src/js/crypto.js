// node:crypto: hashes and HMACs (Rust, crypto_native.rs), randomness, pbkdf2, hkdf,
// timingSafeEqual, scrypt, and webcrypto (the global `crypto`, with subtle.digest). Ciphers,
// signatures, keys, primes, Diffie-Hellman throw ERR_NOT_SUPPORTED_IN_SANDBOX.
'use strict';

const { Buffer } = require('buffer');
const { notSupported } = require('web');
const webcrypto = require('webcrypto');

const HASHES = ['md5', 'sha1', 'sha224', 'sha256', 'sha384', 'sha512', 'sha512-224', 'sha512-256'];
const ALIASES = { 'sha-1': 'sha1', 'sha-224': 'sha224', 'sha-256': 'sha256', 'sha-384': 'sha384', 'sha-512': 'sha512', rsa_sha256: 'sha256' };
const normalize = (alg) => {
  const l = String(alg).toLowerCase();
  return ALIASES[l] || l;
};

function codeError(Ctor, code, message) {
  const err = new Ctor(message);
  err.code = code;
  return err;
}

function received(value) {
  if (value === null) return 'null';
  if (value === undefined) return 'undefined';
  if (typeof value === 'object' || typeof value === 'function') {
    return value.constructor && value.constructor.name ? `an instance of ${value.constructor.name}` : 'an instance of Object';
  }
  return `type ${typeof value} (${require('inspect').inspect(value)})`;
}

function argType(name, value, what = 'of type string or an instance of Buffer, TypedArray, or DataView') {
  return codeError(TypeError, 'ERR_INVALID_ARG_TYPE', `The "${name}" argument must be ${what}. Received ${received(value)}`);
}

// Bytes for the native side: strings in `encoding`, views as Uint8Array.
function bytes(data, name, encoding) {
  if (typeof data === 'string') {
    if (encoding === undefined || encoding === 'utf8' || encoding === 'utf-8' || encoding === 'buffer') return data;
    return Buffer.from(data, encoding);
  }
  if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  throw argType(name, data);
}
const keyBytes = (key, name) => {
  if (key !== null && typeof key === 'object' && key.type === 'secret' && typeof key.export === 'function') key = key.export();
  const b = bytes(key, name);
  return typeof b === 'string' ? Buffer.from(b) : b;
};

function output(buf, encoding) {
  const out = Buffer.from(buf);
  return encoding === undefined || encoding === 'buffer' ? out : out.toString(encoding);
}

const finalized = () => codeError(Error, 'ERR_CRYPTO_HASH_FINALIZED', 'Digest already called');

class Hash {
  #h;
  #done = false;
  constructor(algorithm, options, handle) {
    if (typeof algorithm !== 'string' && handle === undefined) throw argType('algorithm', algorithm, 'of type string');
    if (handle === undefined && !HASHES.includes(normalize(algorithm))) throw new Error('Digest method not supported');
    this.#h = handle || native.crypto.hash(normalize(algorithm));
  }
  update(data, inputEncoding) {
    if (this.#done) throw finalized();
    this.#h.update(bytes(data, 'data', inputEncoding));
    return this;
  }
  digest(outputEncoding) {
    if (this.#done) throw finalized();
    this.#done = true;
    return output(this.#h.digest(), outputEncoding);
  }
  copy() {
    if (this.#done) throw finalized();
    return new Hash(null, undefined, this.#h.copy());
  }
}

class Hmac {
  #h;
  #done = false;
  constructor(hmac, key) {
    if (typeof hmac !== 'string') throw argType('hmac', hmac, 'of type string');
    const alg = normalize(hmac);
    if (!HASHES.includes(alg)) throw codeError(TypeError, 'ERR_CRYPTO_INVALID_DIGEST', `Invalid digest: ${hmac}`);
    this.#h = native.crypto.hmac(alg, keyBytes(key, 'key'));
  }
  update(data, inputEncoding) {
    if (this.#done) throw codeError(Error, 'ERR_CRYPTO_HASH_FINALIZED', 'Digest already called');
    this.#h.update(bytes(data, 'data', inputEncoding));
    return this;
  }
  digest(outputEncoding) {
    // Node returns an empty digest on a second call rather than throwing.
    if (this.#done) return output(new ArrayBuffer(0), outputEncoding);
    this.#done = true;
    return output(this.#h.digest(), outputEncoding);
  }
}

// Hash and Hmac are streams too, as Node's LazyTransform: the stream machinery is
// loaded and set up only when a stream method is first called; the object then takes
// a prototype that is a Transform carrying the class's own methods (which still reach
// its private state).
const streamProtos = new Map();
function streamify(obj, Cls) {
  let proto = streamProtos.get(Cls);
  const { Transform } = require('stream');
  if (!proto) {
    proto = Object.create(Transform.prototype);
    for (const m of ['update', 'digest', 'copy']) if (Cls.prototype[m]) proto[m] = Cls.prototype[m];
    proto._transform = function (chunk, encoding, callback) {
      this.update(chunk, encoding);
      callback();
    };
    proto._flush = function (callback) {
      this.push(this.digest());
      callback();
    };
    proto.constructor = Cls;
    streamProtos.set(Cls, proto);
  }
  Object.setPrototypeOf(obj, proto);
  Transform.call(obj);
}
const STREAM_METHODS = ['write', 'end', 'on', 'once', 'off', 'pipe', 'unpipe', 'read', 'setEncoding', 'addListener',
  'prependListener', 'removeListener', 'emit', 'resume', 'pause', 'destroy', 'listenerCount', 'cork', 'uncork'];
for (const Cls of [Hash, Hmac]) {
  for (const m of STREAM_METHODS) {
    Cls.prototype[m] = function (...args) {
      streamify(this, Cls);
      return this[m](...args);
    };
  }
  Object.defineProperty(Cls, Symbol.hasInstance, {
    value: (v) => v !== null && typeof v === 'object' && (Object.getPrototypeOf(v) === Cls.prototype || Object.getPrototypeOf(v) === streamProtos.get(Cls)),
  });
}

function hash(algorithm, data, outputEncoding = 'hex') {
  if (typeof data !== 'string' && !ArrayBuffer.isView(data)) throw argType('input', data);
  return new Hash(algorithm).update(data).digest(outputEncoding);
}

function checkInt(name, value, min, max) {
  if (typeof value !== 'number') throw argType(name, value, 'of type number');
  if (!Number.isInteger(value)) {
    throw codeError(RangeError, 'ERR_OUT_OF_RANGE', `The value of "${name}" is out of range. It must be an integer. Received ${value}`);
  }
  if (value < min || value > max) {
    throw codeError(RangeError, 'ERR_OUT_OF_RANGE', `The value of "${name}" is out of range. It must be >= ${min} && <= ${max}. Received ${value}`);
  }
}

function randomBytes(size, callback) {
  checkInt('size', size, 0, 2147483647);
  const buf = Buffer.alloc(size);
  for (let off = 0; off < size; off += 65536) {
    buf.set(new Uint8Array(native.randomBytes(Math.min(65536, size - off))), off);
  }
  if (typeof callback === 'function') {
    setImmediate(() => callback(null, buf));
    return undefined;
  }
  return buf;
}

function randomFillSync(buf, offset = 0, size) {
  if (!ArrayBuffer.isView(buf) && !(buf instanceof ArrayBuffer)) throw argType('buf', buf, 'an instance of ArrayBuffer or ArrayBufferView');
  const view = buf instanceof ArrayBuffer ? new Uint8Array(buf) : new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
  if (size === undefined) size = view.length - offset;
  view.set(randomBytes(size), offset);
  return buf;
}

function randomFill(buf, offset, size, callback) {
  const cb = [offset, size, callback].find((f) => typeof f === 'function');
  const o = typeof offset === 'number' ? offset : 0;
  const s = typeof size === 'number' ? size : undefined;
  randomFillSync(buf, o, s);
  setImmediate(() => cb(null, buf));
}

function randomInt(min, max, callback) {
  if (max === undefined || typeof max === 'function') {
    callback = max;
    max = min;
    min = 0;
  }
  if (!Number.isSafeInteger(min)) throw argType('min', min, 'a safe integer');
  if (!Number.isSafeInteger(max)) throw argType('max', max, 'a safe integer');
  if (max <= min) {
    throw codeError(RangeError, 'ERR_OUT_OF_RANGE', `The value of "max" is out of range. It must be greater than the value of "min" (${min}). Received ${max}`);
  }
  const range = max - min;
  // Rejection sampling over 48 random bits, as Node does, so there is no modulo bias.
  const limit = 2 ** 48 - (2 ** 48 % range);
  let x;
  do {
    const b = new Uint8Array(native.randomBytes(6));
    x = b.reduce((n, v) => n * 256 + v, 0);
  } while (x >= limit);
  const n = min + (x % range);
  if (typeof callback === 'function') {
    setImmediate(() => callback(null, n));
    return undefined;
  }
  return n;
}

function timingSafeEqual(a, b) {
  if (!ArrayBuffer.isView(a) && !(a instanceof ArrayBuffer)) throw argType('buf1', a, 'an instance of ArrayBuffer, Buffer, TypedArray, or DataView');
  if (!ArrayBuffer.isView(b) && !(b instanceof ArrayBuffer)) throw argType('buf2', b, 'an instance of ArrayBuffer, Buffer, TypedArray, or DataView');
  const x = keyBytes(a);
  const y = keyBytes(b);
  if (x.length !== y.length) throw codeError(RangeError, 'ERR_CRYPTO_TIMING_SAFE_EQUAL_LENGTH', 'Input buffers must have the same byte length');
  let diff = 0;
  for (let i = 0; i < x.length; i++) diff |= x[i] ^ y[i];
  return diff === 0;
}

function pbkdf2Sync(password, salt, iterations, keylen, digest) {
  const pw = keyBytes(password, 'password');
  const s = keyBytes(salt, 'salt');
  checkInt('iterations', iterations, 1, 2147483647);
  checkInt('keylen', keylen, 0, 2147483647);
  const alg = normalize(digest);
  if (!HASHES.includes(alg)) throw codeError(TypeError, 'ERR_CRYPTO_INVALID_DIGEST', `Invalid digest: ${digest}`);
  return Buffer.from(native.crypto.pbkdf2(alg, pw, s, iterations, keylen));
}

function pbkdf2(password, salt, iterations, keylen, digest, callback) {
  if (typeof callback !== 'function') throw argType('callback', callback, 'of type function');
  const key = pbkdf2Sync(password, salt, iterations, keylen, digest);
  setImmediate(() => callback(null, key));
}

function scryptSync(password, salt, keylen, options) {
  const pw = keyBytes(password, 'password');
  const s = keyBytes(salt, 'salt');
  checkInt('keylen', keylen, 0, 2147483647);
  const o = options || {};
  const N = o.N ?? o.cost ?? 16384;
  const r = o.r ?? o.blockSize ?? 8;
  const p = o.p ?? o.parallelization ?? 1;
  const maxmem = o.maxmem ?? 32 << 20;
  const invalid = (detail) => codeError(RangeError, 'ERR_CRYPTO_INVALID_SCRYPT_PARAMS', 'Invalid scrypt params' + detail);
  if (!Number.isInteger(N) || N < 2 || (N & (N - 1)) !== 0) throw invalid('');
  // OpenSSL's bound: the B and V arrays must fit in maxmem.
  if (128 * r * (N + 2) + 128 * r * p > maxmem) {
    throw invalid(': error:030000AC:digital envelope routines::memory limit exceeded');
  }
  try {
    return Buffer.from(native.crypto.scrypt(pw, s, Math.log2(N), r, p, keylen));
  } catch (e) {
    throw e instanceof RangeError ? invalid('') : e;
  }
}

function scrypt(password, salt, keylen, options, callback) {
  if (typeof options === 'function') {
    callback = options;
    options = undefined;
  }
  if (typeof callback !== 'function') throw argType('callback', callback, 'of type function');
  // Bad parameters throw at once, as in Node; the key arrives on a later turn.
  const key = scryptSync(password, salt, keylen, options);
  setImmediate(() => callback(null, key));
}

function hkdfSync(digest, ikm, salt, info, keylen) {
  const alg = normalize(digest);
  if (!HASHES.includes(alg)) throw codeError(TypeError, 'ERR_CRYPTO_INVALID_DIGEST', `Invalid digest: ${digest}`);
  const prk = native.crypto.hmac(alg, keyBytes(salt, 'salt'));
  prk.update(keyBytes(ikm, 'ikm'));
  const key = new Uint8Array(prk.digest());
  const inf = keyBytes(info, 'info');
  const out = Buffer.alloc(keylen);
  let t = new Uint8Array(0);
  for (let i = 1, off = 0; off < keylen; i++) {
    const h = native.crypto.hmac(alg, key);
    h.update(t);
    h.update(inf);
    h.update(new Uint8Array([i]));
    t = new Uint8Array(h.digest());
    out.set(t.subarray(0, Math.min(t.length, keylen - off)), off);
    off += t.length;
  }
  return out.buffer.slice(out.byteOffset, out.byteOffset + keylen);
}

function hkdf(digest, ikm, salt, info, keylen, callback) {
  const key = hkdfSync(digest, ikm, salt, info, keylen);
  setImmediate(() => callback(null, key));
}

const crypto = {
  createHash: (algorithm, options) => new Hash(algorithm, options),
  createHmac: (hmac, key) => new Hmac(hmac, key),
  hash,
  getHashes: () => HASHES.slice(),
  getCiphers: () => [],
  getCurves: () => [],
  randomBytes,
  pseudoRandomBytes: randomBytes,
  randomFill,
  randomFillSync,
  randomInt,
  randomUUID: () => webcrypto.crypto.randomUUID(),
  getRandomValues: (array) => webcrypto.crypto.getRandomValues(array),
  timingSafeEqual,
  pbkdf2,
  pbkdf2Sync,
  hkdf,
  hkdfSync,
  scrypt,
  scryptSync,
  Hash,
  Hmac,
  webcrypto: webcrypto.crypto,
  subtle: webcrypto.crypto.subtle,
  constants: {},
  getFips: () => 0,
  setFips() { throw notSupported('crypto.setFips'); },
};

for (const name of [
  'createCipheriv', 'createDecipheriv', 'createSign', 'createVerify', 'sign', 'verify',
  'createPrivateKey', 'createPublicKey', 'createSecretKey', 'generateKeyPair',
  'generateKeyPairSync', 'generateKey', 'generateKeySync', 'createDiffieHellman',
  'createDiffieHellmanGroup', 'getDiffieHellman', 'createECDH', 'diffieHellman',
  'publicEncrypt', 'publicDecrypt', 'privateEncrypt', 'privateDecrypt',
  'generatePrime', 'generatePrimeSync', 'checkPrime', 'checkPrimeSync', 'getCipherInfo', 'setEngine',
  'secureHeapUsed',
]) {
  crypto[name] = function () { throw notSupported(`crypto.${name}`); };
}

// Node's key order, for code that lists the module.
const ORDER = 'checkPrime checkPrimeSync createCipheriv createDecipheriv createDiffieHellman createDiffieHellmanGroup createECDH createHash createHmac createPrivateKey createPublicKey createSecretKey createSign createVerify diffieHellman generatePrime generatePrimeSync getCiphers getCipherInfo getCurves getDiffieHellman getHashes hkdf hkdfSync pbkdf2 pbkdf2Sync generateKeyPair generateKeyPairSync generateKey generateKeySync privateDecrypt privateEncrypt publicDecrypt publicEncrypt randomBytes randomFill randomFillSync randomInt randomUUID scrypt scryptSync sign setEngine timingSafeEqual getFips setFips verify hash Hash Hmac secureHeapUsed constants webcrypto subtle getRandomValues'.split(' ');
const ordered = {};
for (const key of ORDER) if (key in crypto) ordered[key] = crypto[key];
for (const key of Object.keys(crypto)) if (!(key in ordered)) ordered[key] = crypto[key];

module.exports = ordered;
