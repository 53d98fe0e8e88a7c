// Headers, Request and Response (the WHATWG Fetch classes) for fetch.js. Bodies are
// held whole in memory: a response body is read entirely by the native exchange.
'use strict';

const { Buffer } = require('buffer');

const kGuard = Symbol('guard');
const kMap = Symbol('body');

// ---- Headers ---------------------------------------------------------------------

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

function headerName(name, where) {
  name = String(name);
  if (!TOKEN.test(name)) throw new TypeError(`Headers.${where}: "${name}" is an invalid header name.`);
  return name.toLowerCase();
}

function headerValue(value, where) {
  value = String(value).replace(/^[\t\n\r ]+|[\t\n\r ]+$/g, '');
  if (/[\0\r\n]/.test(value)) throw new TypeError(`Headers.${where}: "${value}" is an invalid header value.`);
  return value;
}

class Headers {
  constructor(init) {
    // name -> list of values, in insertion order; iteration sorts, as the spec says.
    this[kMap] = new Map();
    if (init === undefined || init === null) return;
    if (init instanceof Headers) {
      for (const [k, list] of init[kMap]) this[kMap].set(k, list.slice());
    } else if (typeof init[Symbol.iterator] === 'function') {
      for (const pair of init) {
        const p = [...pair];
        if (p.length !== 2) throw new TypeError('Headers constructor: expected name/value pair to be length 2, found ' + p.length + '.');
        this.append(p[0], p[1]);
      }
    } else if (typeof init === 'object') {
      for (const key of Object.keys(init)) this.append(key, init[key]);
    } else {
      throw new TypeError("Headers constructor: Argument 1 could not be converted to any of: sequence<sequence<ByteString>>, record<ByteString, ByteString>.");
    }
  }

  append(name, value) {
    const k = headerName(name, 'append');
    const v = headerValue(value, 'append');
    const list = this[kMap].get(k);
    if (list) list.push(v);
    else this[kMap].set(k, [v]);
  }

  set(name, value) {
    this[kMap].set(headerName(name, 'set'), [headerValue(value, 'set')]);
  }

  get(name) {
    const list = this[kMap].get(headerName(name, 'get'));
    return list === undefined ? null : list.join(', ');
  }

  has(name) { return this[kMap].has(headerName(name, 'has')); }
  delete(name) { this[kMap].delete(headerName(name, 'delete')); }
  getSetCookie() { return (this[kMap].get('set-cookie') || []).slice(); }

  *entries() {
    const names = [...this[kMap].keys()].sort();
    for (const k of names) {
      const list = this[kMap].get(k);
      if (k === 'set-cookie') for (const v of list) yield [k, v];
      else yield [k, list.join(', ')];
    }
  }

  *keys() { for (const [k] of this.entries()) yield k; }
  *values() { for (const [, v] of this.entries()) yield v; }
  forEach(fn, thisArg) { for (const [k, v] of this.entries()) fn.call(thisArg, v, k, this); }
  [Symbol.iterator]() { return this.entries(); }
  get [Symbol.toStringTag]() { return 'Headers'; }
}

// ---- bodies ----------------------------------------------------------------------

function isSearchParams(v) {
  return typeof URLSearchParams === 'function' && v instanceof URLSearchParams;
}

// [bytes, content type or null] for a body init, as the spec's "extract a body".
function extractBody(body) {
  if (body === undefined || body === null) return [null, null];
  if (typeof body === 'string') return [Buffer.from(body, 'utf8'), 'text/plain;charset=UTF-8'];
  if (isSearchParams(body)) return [Buffer.from(body.toString(), 'utf8'), 'application/x-www-form-urlencoded;charset=UTF-8'];
  if (body instanceof ArrayBuffer) return [new Uint8Array(body.slice(0)), null];
  if (ArrayBuffer.isView(body)) return [new Uint8Array(body.buffer.slice(body.byteOffset, body.byteOffset + body.byteLength)), null];
  if (typeof Blob === 'function' && body instanceof Blob) {
    const err = new Error('a Blob body is not supported in the sandbox: pass its bytes (a Uint8Array) instead');
    err.code = 'ERR_NOT_SUPPORTED_IN_SANDBOX';
    throw err;
  }
  if (typeof body === 'object' && (typeof body.getReader === 'function' || typeof body[Symbol.asyncIterator] === 'function')) {
    const err = new Error('a streaming request body is not supported in the sandbox: pass a string or a Uint8Array');
    err.code = 'ERR_NOT_SUPPORTED_IN_SANDBOX';
    throw err;
  }
  return [Buffer.from(String(body), 'utf8'), 'text/plain;charset=UTF-8'];
}

// A readable body for `.body`: a web ReadableStream when the runtime has one, else a
// reader-shaped object with the same getReader()/async iteration.
function bodyStream(owner) {
  if (typeof ReadableStream === 'function') {
    return new ReadableStream({
      start(controller) {
        const bytes = owner[kGuard].take();
        if (bytes.length) controller.enqueue(bytes);
        controller.close();
      },
    });
  }
  let done = false;
  const read = () => {
    if (done) return Promise.resolve({ done: true, value: undefined });
    done = true;
    const bytes = owner[kGuard].take();
    return Promise.resolve(bytes.length ? { done: false, value: bytes } : { done: true, value: undefined });
  };
  return {
    locked: false,
    getReader() { return { read, releaseLock() {}, cancel: () => Promise.resolve(), closed: Promise.resolve() }; },
    cancel() { done = true; return Promise.resolve(); },
    [Symbol.asyncIterator]() { return { next: read, return: () => Promise.resolve({ done: true, value: undefined }) }; },
  };
}

// What Request and Response share: the bytes, read once.
class BodyState {
  constructor(bytes) {
    this.bytes = bytes;
    this.used = false;
    this.stream = undefined;
  }

  take() {
    if (this.used) {
      throw new TypeError('Body is unusable: Body has already been read');
    }
    this.used = true;
    return this.bytes === null ? new Uint8Array(0) : new Uint8Array(this.bytes);
  }
}

const bodyMixin = {
  get body() {
    const state = this[kGuard];
    if (state.bytes === null) return null;
    if (state.stream === undefined) state.stream = bodyStream(this);
    return state.stream;
  },
  get bodyUsed() { return this[kGuard].used; },
  arrayBuffer() { return consume(this, (b) => b.buffer); },
  bytes() { return consume(this, (b) => b); },
  text() { return consume(this, decodeText); },
  json() { return consume(this, (b) => JSON.parse(decodeText(b))); },
  blob() {
    if (typeof Blob !== 'function') {
      const err = new Error('body.blob() is not supported in the sandbox: this runtime has no Blob; use arrayBuffer() or bytes()');
      err.code = 'ERR_NOT_SUPPORTED_IN_SANDBOX';
      return Promise.reject(err);
    }
    const type = this.headers.get('content-type') || '';
    return consume(this, (b) => new Blob([b], { type }));
  },
  formData() {
    const err = new Error('body.formData() is not supported in the sandbox');
    err.code = 'ERR_NOT_SUPPORTED_IN_SANDBOX';
    return Promise.reject(err);
  },
};

function decodeText(bytes) {
  const { TextDecoder } = require('encoding');
  return new TextDecoder('utf-8').decode(bytes);
}

function consume(owner, convert) {
  try {
    return Promise.resolve(convert(owner[kGuard].take()));
  } catch (e) {
    return Promise.reject(e);
  }
}

function mixBody(cls) {
  for (const key of Object.getOwnPropertyNames(bodyMixin)) {
    Object.defineProperty(cls.prototype, key, Object.getOwnPropertyDescriptor(bodyMixin, key));
  }
}

module.exports = { Headers, BodyState, extractBody, mixBody, kGuard };
