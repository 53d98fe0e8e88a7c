// URLSearchParams (URL Standard, application/x-www-form-urlencoded), live-linked to
// the URL that owns it: each change re-serializes into the URL's query.
'use strict';

const P = require('url_parse');

const kCustom = Symbol.for('nodejs.util.inspect.custom');

function parseForm(input) {
  const list = [];
  for (const seq of input.split('&')) {
    if (seq === '') continue;
    const eq = seq.indexOf('=');
    const name = eq === -1 ? seq : seq.slice(0, eq);
    const value = eq === -1 ? '' : seq.slice(eq + 1);
    list.push(P.percentDecode(name, true), P.percentDecode(value, true));
  }
  return list;
}

function serializeForm(list) {
  let out = '';
  for (let i = 0; i < list.length; i += 2) {
    if (i > 0) out += '&';
    out += P.percentEncode(list[i], P.formSet, true) + '=' + P.percentEncode(list[i + 1], P.formSet, true);
  }
  return out;
}

function typeError(code, message) {
  const err = new TypeError(message);
  err.code = code;
  return err;
}

function missing(...names) {
  const list = names.map((n) => `"${n}"`);
  const text = list.length === 1 ? `The ${list[0]} argument must be specified` : `The ${list.join(' and ')} arguments must be specified`;
  return typeError('ERR_MISSING_ARGS', text);
}

const LIST = Symbol('list');
const URL_RECORD = Symbol('url');

class URLSearchParams {
  constructor(init = undefined) {
    define(this, LIST, []);
    define(this, URL_RECORD, null);
    if (init === undefined || init === null) return;
    if (typeof init === 'object' || typeof init === 'function') {
      if (typeof init[Symbol.iterator] === 'function') {
        for (const pair of init) {
          if ((typeof pair !== 'object' && typeof pair !== 'function') || pair === null || typeof pair[Symbol.iterator] !== 'function') {
            throw typeError('ERR_INVALID_TUPLE', 'Each query pair must be an iterable [name, value] tuple');
          }
          const kv = Array.from(pair);
          if (kv.length !== 2) throw typeError('ERR_INVALID_TUPLE', 'Each query pair must be an iterable [name, value] tuple');
          this[LIST].push(P.toUSV(kv[0]), P.toUSV(kv[1]));
        }
      } else {
        for (const key of Reflect.ownKeys(init)) {
          if (typeof key !== 'string' || !Object.prototype.propertyIsEnumerable.call(init, key)) continue;
          this[LIST].push(P.toUSV(key), P.toUSV(init[key]));
        }
      }
      return;
    }
    let s = P.toUSV(init);
    if (s[0] === '?') s = s.slice(1);
    this[LIST] = parseForm(s);
  }

  get size() { return this[LIST].length / 2; }

  #update() {
    const url = this[URL_RECORD];
    if (url === null) return;
    const s = serializeForm(this[LIST]);
    url.query = s === '' ? null : s;
  }

  append(name, value) {
    if (arguments.length < 2) throw missing('name', 'value');
    this[LIST].push(P.toUSV(name), P.toUSV(value));
    this.#update();
  }

  delete(name, value = undefined) {
    if (arguments.length < 1) throw missing('name');
    name = P.toUSV(name);
    if (value !== undefined) value = P.toUSV(value);
    const list = this[LIST];
    for (let i = 0; i < list.length;) {
      if (list[i] === name && (value === undefined || list[i + 1] === value)) list.splice(i, 2);
      else i += 2;
    }
    this.#update();
  }

  get(name) {
    if (arguments.length < 1) throw missing('name');
    name = P.toUSV(name);
    const list = this[LIST];
    for (let i = 0; i < list.length; i += 2) if (list[i] === name) return list[i + 1];
    return null;
  }

  getAll(name) {
    if (arguments.length < 1) throw missing('name');
    name = P.toUSV(name);
    const out = [];
    const list = this[LIST];
    for (let i = 0; i < list.length; i += 2) if (list[i] === name) out.push(list[i + 1]);
    return out;
  }

  has(name, value = undefined) {
    if (arguments.length < 1) throw missing('name');
    name = P.toUSV(name);
    if (value !== undefined) value = P.toUSV(value);
    const list = this[LIST];
    for (let i = 0; i < list.length; i += 2) {
      if (list[i] === name && (value === undefined || list[i + 1] === value)) return true;
    }
    return false;
  }

  set(name, value) {
    if (arguments.length < 2) throw missing('name', 'value');
    name = P.toUSV(name);
    value = P.toUSV(value);
    const list = this[LIST];
    let found = false;
    for (let i = 0; i < list.length;) {
      if (list[i] !== name) i += 2;
      else if (!found) {
        list[i + 1] = value;
        found = true;
        i += 2;
      } else list.splice(i, 2);
    }
    if (!found) list.push(name, value);
    this.#update();
  }

  sort() {
    const list = this[LIST];
    const pairs = [];
    for (let i = 0; i < list.length; i += 2) pairs.push([list[i], list[i + 1]]);
    // Array.prototype.sort is stable; names compare by UTF-16 code units.
    pairs.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    this[LIST] = pairs.flat();
    this.#update();
  }

  forEach(callback, thisArg = undefined) {
    if (typeof callback !== 'function') {
      throw typeError('ERR_INVALID_ARG_TYPE', `The "callback" argument must be of type function. Received ${callback === undefined ? 'undefined' : typeof callback}`);
    }
    for (let i = 0; i < this[LIST].length; i += 2) {
      const list = this[LIST];
      callback.call(thisArg, list[i + 1], list[i], this);
    }
  }

  *keys() { for (let i = 0; i < this[LIST].length; i += 2) yield this[LIST][i]; }
  *values() { for (let i = 0; i < this[LIST].length; i += 2) yield this[LIST][i + 1]; }
  *entries() { for (let i = 0; i < this[LIST].length; i += 2) yield [this[LIST][i], this[LIST][i + 1]]; }
  [Symbol.iterator]() { return this.entries(); }

  toString() { return serializeForm(this[LIST]); }

  [kCustom](depth, options, inspect) {
    const name = this.constructor.name;
    if (typeof depth === 'number' && depth < 0) return '[Object]';
    const inner = { ...options };
    if (depth !== null && depth !== undefined) inner.depth = depth - 1;
    const list = this[LIST];
    const out = [];
    for (let i = 0; i < list.length; i += 2) out.push(`${inspect(list[i], inner)} => ${inspect(list[i + 1], inner)}`);
    const length = out.reduce((n, s) => n + s.length + 2, -2);
    const breakLength = options && options.breakLength !== undefined ? options.breakLength : 128;
    if (length > breakLength) return `${name} {\n  ${out.join(',\n  ')} }`;
    if (out.length) return `${name} { ${out.join(', ')} }`;
    return `${name} {}`;
  }
}

function define(obj, key, value) {
  Object.defineProperty(obj, key, { value, writable: true, configurable: true, enumerable: false });
}

Object.defineProperty(URLSearchParams.prototype, Symbol.toStringTag, { value: 'URLSearchParams', configurable: true });

// Link `params` to the URL record `url` (the URL's searchParams getter).
function attach(params, url) {
  params[URL_RECORD] = url;
  params[LIST] = url.query === null ? [] : parseForm(url.query);
}

// The URL's query changed: re-read it.
function setList(params, query) {
  params[LIST] = query === null ? [] : parseForm(query);
}

module.exports = { URLSearchParams, attach, setList, parseForm, serializeForm };
