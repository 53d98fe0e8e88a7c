// Deep equality as node:assert and util.isDeepStrictEqual define it. Strict mode
// compares with Object.is, requires equal prototypes and [[Class]] tags and
// compares enumerable symbol keys; loose mode uses `==` for primitives and ignores
// prototypes. Both look inside Map/Set (unordered), Date, RegExp, boxed primitives,
// typed arrays and errors (name and message count even though not enumerable), and
// survive cycles.
'use strict';

const toTag = (v) => Object.prototype.toString.call(v);
const hasOwn = (o, k) => Object.prototype.hasOwnProperty.call(o, k);
const isEnumerable = (o, k) => Object.prototype.propertyIsEnumerable.call(o, k);

function primitiveEqual(a, b, strict) {
  if (strict) return Object.is(a, b);
  // eslint-disable-next-line eqeqeq
  return a == b || (a !== a && b !== b);
}

function isBoxed(v) {
  return ['[object Number]', '[object String]', '[object Boolean]', '[object BigInt]', '[object Symbol]'].includes(toTag(v)) &&
    typeof v === 'object';
}

function unbox(v) {
  for (const Box of [Number, String, Boolean, BigInt, Symbol]) {
    try {
      return Box.prototype.valueOf.call(v);
    } catch {
      // Not this box.
    }
  }
  return undefined;
}

function ownKeys(obj, strict) {
  const keys = Object.keys(obj);
  if (strict) {
    for (const s of Object.getOwnPropertySymbols(obj)) if (isEnumerable(obj, s)) keys.push(s);
  }
  return keys;
}

function innerEqual(a, b, strict, memo) {
  if (a === b) return a !== 0 || !strict || Object.is(a, b);
  if (strict) {
    if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) {
      return typeof a === 'number' && typeof b === 'number' && Number.isNaN(a) && Number.isNaN(b);
    }
    if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  } else {
    if (a === null || typeof a !== 'object') {
      return (b === null || typeof b !== 'object') && primitiveEqual(a, b, false);
    }
    if (b === null || typeof b !== 'object') return false;
  }
  if (toTag(a) !== toTag(b)) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  return compareObjects(a, b, strict, memo);
}

function compareSpecial(a, b, strict) {
  if (a instanceof Date) return b instanceof Date && a.getTime() === b.getTime();
  if (a instanceof RegExp) {
    return b instanceof RegExp && a.source === b.source && a.flags === b.flags && a.lastIndex === b.lastIndex;
  }
  if (a instanceof Error || b instanceof Error) {
    if (!(a instanceof Error && b instanceof Error) || a.message !== b.message || a.name !== b.name) return false;
  }
  if (ArrayBuffer.isView(a)) {
    if (!ArrayBuffer.isView(b) || a.byteLength !== b.byteLength) return false;
    if (!strict && (a instanceof Float32Array || a instanceof Float64Array)) {
      for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
      return true;
    }
    const x = new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
    const y = new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
    for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
    return true;
  }
  if (a instanceof ArrayBuffer) {
    if (!(b instanceof ArrayBuffer) || a.byteLength !== b.byteLength) return false;
    return compareSpecial(new Uint8Array(a), new Uint8Array(b), strict);
  }
  if (isBoxed(a)) return isBoxed(b) && Object.is(unbox(a), unbox(b));
  if (isBoxed(b)) return false;
  return true;
}

function compareObjects(a, b, strict, memo) {
  if (!compareSpecial(a, b, strict)) return false;
  if (Array.isArray(a) && a.length !== b.length) return false;
  const ka = ownKeys(a, strict);
  const kb = ownKeys(b, strict);
  if (ka.length !== kb.length) return false;
  for (const k of ka) if (!hasOwn(b, k) || !isEnumerable(b, k)) return false;
  if (ArrayBuffer.isView(a)) {
    // The elements were compared as bytes; only extra properties are left.
    const extra = ka.filter((k) => typeof k !== 'string' || !/^(0|[1-9][0-9]*)$/.test(k));
    return compareKeys(a, b, extra, strict, memo);
  }

  // Cycles: a pair already under comparison counts as equal.
  let pairs = memo.get(a);
  if (pairs === undefined) {
    pairs = new Set();
    memo.set(a, pairs);
  } else if (pairs.has(b)) {
    return true;
  }
  pairs.add(b);
  try {
    if (a instanceof Map && !mapEqual(a, b, strict, memo)) return false;
    if (a instanceof Set && !setEqual(a, b, strict, memo)) return false;
    return compareKeys(a, b, ka, strict, memo);
  } finally {
    pairs.delete(b);
  }
}

function compareKeys(a, b, keys, strict, memo) {
  for (const k of keys) if (!innerEqual(a[k], b[k], strict, memo)) return false;
  return true;
}

function takeEqual(rest, value, strict, memo) {
  for (const candidate of rest) {
    if (innerEqual(value, candidate, strict, memo)) {
      rest.delete(candidate);
      return true;
    }
  }
  return false;
}

const isPrimitive = (v) => v === null || (typeof v !== 'object' && typeof v !== 'function');

// Items found by identity match at once; the others look for a deep-equal partner
// among the items of `b` nobody has claimed yet.
function setEqual(a, b, strict, memo) {
  if (a.size !== b.size) return false;
  const rest = new Set(b);
  const pending = [];
  for (const v of a) {
    if (b.has(v)) rest.delete(v);
    else if (strict && isPrimitive(v)) return false;
    else pending.push(v);
  }
  for (const v of pending) if (!takeEqual(rest, v, strict, memo)) return false;
  return true;
}

function mapEqual(a, b, strict, memo) {
  if (a.size !== b.size) return false;
  const rest = new Map(b);
  const pending = [];
  for (const [k, v] of a) {
    if (b.has(k)) {
      if (innerEqual(v, b.get(k), strict, memo)) {
        rest.delete(k);
        continue;
      }
      if (strict || isPrimitive(k)) return false;
    } else if (strict && isPrimitive(k)) {
      return false;
    }
    pending.push([k, v]);
  }
  for (const [k, v] of pending) {
    let found = false;
    for (const [k2, v2] of rest) {
      if (innerEqual(k, k2, strict, memo) && innerEqual(v, v2, strict, memo)) {
        rest.delete(k2);
        found = true;
        break;
      }
    }
    if (!found) return false;
  }
  return true;
}

function isDeepEqual(a, b) {
  return innerEqual(a, b, false, new Map());
}

function isDeepStrictEqual(a, b) {
  return innerEqual(a, b, true, new Map());
}

module.exports = { isDeepEqual, isDeepStrictEqual };
