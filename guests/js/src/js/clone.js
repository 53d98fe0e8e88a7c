// structuredClone for plain data: primitives, plain objects, arrays, Date, RegExp, Map,
// Set, ArrayBuffer, typed arrays, DataView, Error and boxed primitives, with shared and
// circular references preserved. Functions, symbols and class instances' prototypes
// are not cloneable (DataCloneError), as in the HTML algorithm.
'use strict';

function dataCloneError(what) {
  const err = new Error(`${what} could not be cloned.`);
  err.name = 'DataCloneError';
  err.code = 25;
  return err;
}

function clone(value, memo) {
  if (typeof value === 'symbol') throw dataCloneError(String(value));
  if (typeof value === 'function') throw dataCloneError(Function.prototype.toString.call(value).slice(0, 60));
  if (value === null || typeof value !== 'object') return value;
  const known = memo.get(value);
  if (known !== undefined) return known;

  const tag = Object.prototype.toString.call(value);
  let out;
  if (Array.isArray(value)) {
    out = new Array(value.length);
    memo.set(value, out);
    for (const key of Object.keys(value)) out[key] = clone(value[key], memo);
    return out;
  }
  if (value instanceof Date) out = new Date(value.getTime());
  else if (value instanceof RegExp) out = new RegExp(value.source, value.flags);
  else if (value instanceof ArrayBuffer) out = value.slice(0);
  else if (value instanceof DataView) {
    out = new DataView(clone(value.buffer, memo), value.byteOffset, value.byteLength);
  } else if (ArrayBuffer.isView(value)) {
    const buffer = clone(value.buffer, memo);
    const Ctor = Object.getPrototypeOf(Object.getPrototypeOf(value)) === Uint8Array.prototype ? Uint8Array : value.constructor;
    out = new Ctor(buffer, value.byteOffset, value.length);
  } else if (value instanceof Map) {
    out = new Map();
    memo.set(value, out);
    for (const [k, v] of value) out.set(clone(k, memo), clone(v, memo));
    return out;
  } else if (value instanceof Set) {
    out = new Set();
    memo.set(value, out);
    for (const v of value) out.add(clone(v, memo));
    return out;
  } else if (value instanceof Error) {
    const Ctor = { EvalError, RangeError, ReferenceError, SyntaxError, TypeError, URIError }[value.name] || Error;
    out = new Ctor(value.message);
    memo.set(value, out);
    if (typeof value.stack === 'string') out.stack = value.stack;
    if ('cause' in value) out.cause = clone(value.cause, memo);
    return out;
  } else if (tag === '[object Number]' || tag === '[object String]' || tag === '[object Boolean]' || tag === '[object BigInt]') {
    out = Object(value.valueOf());
  } else if (value instanceof Promise || value instanceof WeakMap || value instanceof WeakSet) {
    throw dataCloneError(`#<${tag.slice(8, -1)}>`);
  } else {
    out = {};
    memo.set(value, out);
    for (const key of Object.keys(value)) out[key] = clone(value[key], memo);
    return out;
  }
  memo.set(value, out);
  return out;
}

function structuredClone(value, options) {
  if (arguments.length === 0) throw new TypeError('The "value" argument must be specified');
  void options;
  return clone(value, new Map());
}

module.exports = { structuredClone };
