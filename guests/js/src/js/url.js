// node:url and the URL / URLSearchParams globals (WHATWG URL Standard; the parser is
// url_parse.js), plus fileURLToPath / pathToFileURL and the legacy API (url_legacy.js).
'use strict';

const P = require('url_parse');
const { URLSearchParams, attach } = require('url_search');

const kCustom = Symbol.for('nodejs.util.inspect.custom');

function invalidUrl(input, base) {
  const err = new TypeError('Invalid URL');
  err.code = 'ERR_INVALID_URL';
  err.input = input;
  if (base !== undefined) err.base = base;
  return err;
}

function missingArgs(name) {
  const err = new TypeError(`The "${name}" argument must be specified`);
  err.code = 'ERR_MISSING_ARGS';
  return err;
}

function parseRecord(input, base) {
  let baseRecord = null;
  if (base !== undefined) {
    baseRecord = P.basicParse(P.toUSV(base), null);
    if (baseRecord === null) return null;
  }
  return P.basicParse(P.toUSV(input), baseRecord);
}

class URL {
  #url;
  #params;

  constructor(input, base) {
    if (arguments.length === 0) throw missingArgs('url');
    input = `${input}`;
    if (base !== undefined) base = `${base}`;
    const url = parseRecord(input, base);
    if (url === null) throw invalidUrl(input, base);
    this.#url = url;
  }

  static canParse(input, base) {
    if (arguments.length === 0) throw missingArgs('url');
    return parseRecord(`${input}`, base === undefined ? undefined : `${base}`) !== null;
  }

  static createObjectURL() { throw require('web').notSupported('URL.createObjectURL'); }
  static revokeObjectURL() { throw require('web').notSupported('URL.revokeObjectURL'); }

  #reparse(value, override, prepare) {
    const url = this.#url;
    if (prepare) prepare(url);
    P.basicParse(P.toUSV(value), null, url, override);
  }

  #updateParams() {
    if (this.#params !== undefined) attach(this.#params, this.#url);
  }

  get href() { return P.serialize(this.#url); }
  set href(value) {
    value = `${value}`;
    const url = P.basicParse(P.toUSV(value), null);
    if (url === null) throw invalidUrl(value);
    this.#url = url;
    this.#updateParams();
  }

  get origin() { return P.origin(this.#url); }

  get protocol() { return this.#url.scheme + ':'; }
  set protocol(value) { this.#reparse(`${value}:`, 'schemeStart'); }

  #cannotHaveCredentials() {
    const u = this.#url;
    return u.host === null || u.host === '' || u.scheme === 'file';
  }

  get username() { return this.#url.username; }
  set username(value) {
    if (this.#cannotHaveCredentials()) return;
    this.#url.username = P.percentEncode(P.toUSV(value), P.userinfoSet);
  }

  get password() { return this.#url.password; }
  set password(value) {
    if (this.#cannotHaveCredentials()) return;
    this.#url.password = P.percentEncode(P.toUSV(value), P.userinfoSet);
  }

  get host() {
    const u = this.#url;
    if (u.host === null) return '';
    return u.port === null ? u.host : `${u.host}:${u.port}`;
  }
  set host(value) {
    if (this.#url.opaque) return;
    this.#reparse(`${value}`, 'host');
  }

  get hostname() { return this.#url.host === null ? '' : this.#url.host; }
  set hostname(value) {
    if (this.#url.opaque) return;
    this.#reparse(`${value}`, 'hostname');
  }

  get port() { return this.#url.port === null ? '' : String(this.#url.port); }
  set port(value) {
    if (this.#cannotHaveCredentials()) return;
    value = `${value}`;
    if (value === '') this.#url.port = null;
    else this.#reparse(value, 'port');
  }

  get pathname() { return P.serializePath(this.#url); }
  set pathname(value) {
    if (this.#url.opaque) return;
    this.#reparse(`${value}`, 'pathStart', (u) => { u.path = []; });
  }

  get search() {
    const q = this.#url.query;
    return q === null || q === '' ? '' : '?' + q;
  }
  set search(value) {
    value = P.toUSV(value);
    if (value === '') {
      this.#url.query = null;
      this.#updateParams();
      return;
    }
    if (value[0] === '?') value = value.slice(1);
    this.#reparse(value, 'query', (u) => { u.query = ''; });
    this.#updateParams();
  }

  get searchParams() {
    if (this.#params === undefined) {
      this.#params = new URLSearchParams();
      attach(this.#params, this.#url);
    }
    return this.#params;
  }

  get hash() {
    const f = this.#url.fragment;
    return f === null || f === '' ? '' : '#' + f;
  }
  set hash(value) {
    value = P.toUSV(value);
    if (value === '') {
      this.#url.fragment = null;
      return;
    }
    if (value[0] === '#') value = value.slice(1);
    this.#reparse(value, 'fragment', (u) => { u.fragment = ''; });
  }

  toString() { return this.href; }
  toJSON() { return this.href; }

  // A plain object with the getters' values: inspect formats it at the current
  // nesting. Node inspects that object afresh, so its searchParams get the full depth.
  [kCustom](depth, options) {
    if (typeof depth === 'number' && depth < 0) return 'URL {}';
    const obj = Object.create(INSPECT_PROTO);
    for (const key of ['href', 'origin', 'protocol', 'username', 'password', 'host', 'hostname', 'port', 'pathname', 'search', 'searchParams', 'hash']) {
      obj[key] = this[key];
    }
    const params = obj.searchParams;
    const fresh = options && options.depth !== undefined ? options.depth : 2;
    obj.searchParams = {
      [kCustom]: (d, o, inspect) => params[kCustom](fresh === null || fresh === Infinity ? null : fresh - 1, o, inspect),
    };
    return obj;
  }
}

// Gives the inspected copy the name `URL` without being a URL.
const INSPECT_PROTO = {};
Object.defineProperty(INSPECT_PROTO, 'constructor', { value: function URL() {}, enumerable: false });

for (const key of ['href', 'origin', 'protocol', 'username', 'password', 'host', 'hostname', 'port', 'pathname', 'search', 'searchParams', 'hash', 'toString', 'toJSON']) {
  const desc = Object.getOwnPropertyDescriptor(URL.prototype, key);
  desc.enumerable = true;
  Object.defineProperty(URL.prototype, key, desc);
}
Object.defineProperty(URL.prototype, Symbol.toStringTag, { value: 'URL', configurable: true });

function invalidArgType(name, expected, value) {
  const received = value === null ? 'null' : value === undefined ? 'undefined' : typeof value === 'object' ? 'an instance of ' + ((value.constructor && value.constructor.name) || 'Object') : `type ${typeof value} (${require('inspect').inspect(value)})`;
  const err = new TypeError(`The "${name}" argument must be ${expected}. Received ${received}`);
  err.code = 'ERR_INVALID_ARG_TYPE';
  return err;
}

function fileURLToPath(path) {
  if (typeof path === 'string') path = new URL(path);
  else if (!(path instanceof URL)) throw invalidArgType('path', 'of type string or an instance of URL', path);
  if (path.protocol !== 'file:') {
    const err = new TypeError('The URL must be of scheme file');
    err.code = 'ERR_INVALID_URL_SCHEME';
    throw err;
  }
  if (path.hostname !== '') {
    const err = new TypeError(`File URL host must be "localhost" or empty on linux`);
    err.code = 'ERR_INVALID_FILE_URL_HOST';
    throw err;
  }
  const pathname = path.pathname;
  for (let n = 0; n < pathname.length; n++) {
    if (pathname[n] === '%') {
      const third = pathname.codePointAt(n + 2) | 0x20;
      if (pathname[n + 1] === '2' && third === 102) {
        const err = new TypeError('File URL path must not include encoded / characters');
        err.code = 'ERR_INVALID_FILE_URL_PATH';
        throw err;
      }
    }
  }
  return decodeURIComponent(pathname);
}

function pathToFileURL(filepath) {
  let resolved = require('path').resolve(filepath);
  const last = filepath.charCodeAt(filepath.length - 1);
  if (last === 47 && resolved[resolved.length - 1] !== '/') resolved += '/';
  // As Node: the characters the URL parser would not encode, or would misread.
  resolved = resolved.replace(/%/g, '%25').replace(/\\/g, '%5C').replace(/\n/g, '%0A')
    .replace(/\r/g, '%0D').replace(/\t/g, '%09');
  const url = new URL('file://');
  url.pathname = resolved;
  if (resolved.includes('?')) url.pathname = resolved.replace(/\?/g, '%3F');
  if (resolved.includes('#')) url.pathname = url.pathname.replace(/#/g, '%23');
  return url;
}

function urlToHttpOptions(url) {
  const options = {
    protocol: url.protocol,
    hostname: url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname,
    hash: url.hash,
    search: url.search,
    pathname: url.pathname,
    path: `${url.pathname || ''}${url.search || ''}`,
    href: url.href,
  };
  if (url.port !== '') options.port = Number(url.port);
  if (url.username || url.password) options.auth = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
  return options;
}

function domainToASCII(domain) {
  const host = require('url_host').parseHost(`${domain}`, false);
  return host === null ? '' : host;
}

function domainToUnicode(domain) {
  return domainToASCII(domain);
}

const legacy = require('url_legacy');

module.exports = {
  URL,
  URLSearchParams,
  fileURLToPath,
  pathToFileURL,
  urlToHttpOptions,
  domainToASCII,
  domainToUnicode,
  Url: legacy.Url,
  parse: legacy.parse,
  format: legacy.format,
  resolve: legacy.resolve,
  resolveObject: legacy.resolveObject,
};
