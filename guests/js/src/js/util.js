// node:util: format/inspect plus the helpers programs commonly reach for.
'use strict';

const { inspect, format } = require('inspect');
const { TextEncoder, TextDecoder } = require('encoding');

const kCustomPromisify = Symbol.for('nodejs.util.promisify.custom');

function promisify(fn) {
  if (typeof fn !== 'function') throw new TypeError('The "original" argument must be of type function');
  if (typeof fn[kCustomPromisify] === 'function') return fn[kCustomPromisify];
  return function (...args) {
    return new Promise((resolve, reject) => {
      fn.call(this, ...args, (err, ...values) => {
        if (err) reject(err);
        else resolve(values.length > 1 ? values : values[0]);
      });
    });
  };
}
promisify.custom = kCustomPromisify;

function callbackify(fn) {
  return function (...args) {
    const cb = args.pop();
    fn.apply(this, args).then((v) => setImmediate(() => cb(null, v)), (e) => setImmediate(() => cb(e)));
  };
}

function isDeepStrictEqual(a, b, seen = new Map()) {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  if (seen.get(a) === b) return true;
  seen.set(a, b);
  if (a instanceof Date) return a.getTime() === b.getTime();
  if (a instanceof RegExp) return String(a) === String(b);
  if (a instanceof Map || a instanceof Set) {
    if (a.size !== b.size) return false;
    if (a instanceof Set) {
      for (const v of a) if (!b.has(v)) return false;
      return true;
    }
    for (const [k, v] of a) if (!b.has(k) || !isDeepStrictEqual(v, b.get(k), seen)) return false;
    return true;
  }
  if (ArrayBuffer.isView(a)) {
    if (a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) return false;
    return true;
  }
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  for (const k of ka) {
    if (!Object.prototype.hasOwnProperty.call(b, k) || !isDeepStrictEqual(a[k], b[k], seen)) return false;
  }
  return true;
}

const tag = (v) => Object.prototype.toString.call(v).slice(8, -1);
const types = {
  isDate: (v) => v instanceof Date,
  isRegExp: (v) => v instanceof RegExp,
  isMap: (v) => v instanceof Map,
  isSet: (v) => v instanceof Set,
  isPromise: (v) => v instanceof Promise,
  isTypedArray: (v) => ArrayBuffer.isView(v) && !(v instanceof DataView),
  isUint8Array: (v) => v instanceof Uint8Array,
  isArrayBuffer: (v) => v instanceof ArrayBuffer,
  isAnyArrayBuffer: (v) => v instanceof ArrayBuffer || tag(v) === 'SharedArrayBuffer',
  isNativeError: (v) => v instanceof Error,
  isAsyncFunction: (v) => typeof v === 'function' && v[Symbol.toStringTag] === 'AsyncFunction',
  isGeneratorFunction: (v) => typeof v === 'function' && /GeneratorFunction$/.test(v[Symbol.toStringTag] || ''),
  isBoxedPrimitive: (v) => v !== null && typeof v === 'object' && ['Number', 'String', 'Boolean', 'BigInt', 'Symbol'].includes(tag(v)),
};

function inherits(ctor, superCtor) {
  Object.defineProperty(ctor, 'super_', { value: superCtor, writable: true, configurable: true });
  Object.setPrototypeOf(ctor.prototype, superCtor.prototype);
}

module.exports = {
  format,
  formatWithOptions: (options, ...args) => format(...args),
  inspect,
  promisify,
  callbackify,
  isDeepStrictEqual,
  deprecate: (fn) => fn,
  inherits,
  types,
  isArray: Array.isArray,
  TextEncoder,
  TextDecoder,
  stripVTControlCharacters: (s) => String(s).replace(/\u001b\[[0-9;]*[A-Za-z]/g, ''),
};
