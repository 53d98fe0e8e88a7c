// The legacy node:url API (url.parse / url.format / url.resolve), following the
// shape of Node's implementation for the common cases: protocol, auth, host and
// port, escaping of unsafe characters, `parseQueryString`, `slashesDenoteHost`.
'use strict';

const SLASHED = new Set(['http', 'http:', 'https', 'https:', 'ftp', 'ftp:', 'gopher', 'gopher:', 'file', 'file:', 'ws', 'ws:', 'wss', 'wss:']);
const HOSTLESS = new Set(['javascript', 'javascript:']);
const AUTO_ESCAPE = /['{}|\\^`<>" \r\n\t]/g;

function Url() {
  this.protocol = null;
  this.slashes = null;
  this.auth = null;
  this.host = null;
  this.port = null;
  this.hostname = null;
  this.hash = null;
  this.search = null;
  this.query = null;
  this.pathname = null;
  this.path = null;
  this.href = null;
}

function escapeRest(s) {
  return s.replace(AUTO_ESCAPE, (c) => (c === "'" ? '%27' : encodeURIComponent(c)));
}

function parseHostPart(url, rest) {
  // The host ends at the first of these; '@' before it separates the auth.
  let hostEnd = -1;
  for (const ch of ['/', '?', '#', '\\']) {
    const i = rest.indexOf(ch);
    if (i !== -1 && (hostEnd === -1 || i < hostEnd)) hostEnd = i;
  }
  const head = hostEnd === -1 ? rest : rest.slice(0, hostEnd);
  const at = head.lastIndexOf('@');
  if (at !== -1) {
    url.auth = decodeURIComponent(head.slice(0, at));
    rest = rest.slice(at + 1);
    if (hostEnd !== -1) hostEnd -= at + 1;
  }
  let end = -1;
  for (const ch of ['/', '?', '#', '\\', ' ', '<', '>', '"', '`', '\r', '\n', '\t', '{', '}', '|', '^', "'"]) {
    const i = rest.indexOf(ch);
    if (i !== -1 && (end === -1 || i < end)) end = i;
  }
  if (end === -1) end = rest.length;
  let host = rest.slice(0, end);
  rest = rest.slice(end);
  const port = /:[0-9]*$/.exec(host);
  if (port) {
    if (port[0] !== ':') url.port = port[0].slice(1);
    host = host.slice(0, host.length - port[0].length);
  }
  let hostname = host.toLowerCase();
  const ipv6 = hostname[0] === '[' && hostname[hostname.length - 1] === ']';
  if (!ipv6 && /[^\u0000-\u007f]/.test(hostname)) hostname = require('url_host').domainToASCII(hostname) || '';
  url.hostname = ipv6 ? hostname.slice(1, -1) : hostname;
  url.host = (ipv6 ? hostname : url.hostname) + (url.port ? ':' + url.port : '');
  return rest;
}

function parse(input, parseQueryString, slashesDenoteHost) {
  if (input instanceof Url) return input;
  if (typeof input !== 'string') {
    const err = new TypeError(`The "url" argument must be of type string. Received ${input === null ? 'null' : typeof input}`);
    err.code = 'ERR_INVALID_ARG_TYPE';
    throw err;
  }
  const url = new Url();
  let rest = input.trim();
  // Backslashes before the query are path separators, as browsers treat them.
  const q = rest.search(/[?#]/);
  rest = q === -1 ? rest.replace(/\\/g, '/') : rest.slice(0, q).replace(/\\/g, '/') + rest.slice(q);
  const proto = /^[a-z0-9.+-]+:/i.exec(rest);
  let lowerProto;
  if (proto) {
    lowerProto = proto[0].toLowerCase();
    url.protocol = lowerProto;
    rest = rest.slice(proto[0].length);
  }
  if (slashesDenoteHost || proto || /^\/\/[^@/]+@[^@/]+/.test(rest)) {
    const slashes = rest.startsWith('//');
    if (slashes && !(proto && HOSTLESS.has(lowerProto))) {
      rest = rest.slice(2);
      url.slashes = true;
    }
  }
  if (!HOSTLESS.has(lowerProto) && (url.slashes || (proto && !SLASHED.has(lowerProto)))) {
    rest = parseHostPart(url, rest);
  }
  rest = escapeRest(rest);
  const hash = rest.indexOf('#');
  if (hash !== -1) {
    url.hash = rest.slice(hash);
    rest = rest.slice(0, hash);
  }
  const qm = rest.indexOf('?');
  if (qm !== -1) {
    url.search = rest.slice(qm);
    url.query = rest.slice(qm + 1);
    if (parseQueryString) url.query = require('querystring').parse(url.query);
    rest = rest.slice(0, qm);
  } else if (parseQueryString) {
    url.search = null;
    url.query = Object.create(null);
  }
  if (rest) url.pathname = rest;
  if (SLASHED.has(lowerProto) && url.hostname && !url.pathname) url.pathname = '/';
  if (url.pathname || url.search) url.path = (url.pathname || '') + (url.search || '');
  url.href = format(url);
  return url;
}

function formatWhatwg(obj, options) {
  const { fragment = true, search = true, auth = true } = options || {};
  let out = obj.protocol;
  if (obj.host !== '' || obj.protocol === 'file:') out += '//';
  if (auth && (obj.username || obj.password)) out += obj.username + (obj.password ? ':' + obj.password : '') + '@';
  out += obj.host + obj.pathname;
  if (search) out += obj.search;
  if (fragment) out += obj.hash;
  return out;
}

function format(obj, options) {
  if (typeof obj === 'string') obj = parse(obj);
  else if (obj !== null && typeof obj === 'object' && obj instanceof require('url').URL) return formatWhatwg(obj, options);
  else if (typeof obj !== 'object' || obj === null) {
    const err = new TypeError(`The "urlObject" argument must be one of type object or string. Received ${obj === null ? 'null' : typeof obj}`);
    err.code = 'ERR_INVALID_ARG_TYPE';
    throw err;
  }
  let auth = obj.auth || '';
  if (auth) auth = encodeURIComponent(auth).replace(/%3A/i, ':') + '@';
  let protocol = obj.protocol || '';
  let pathname = obj.pathname || '';
  let hash = obj.hash || '';
  let host = '';
  if (obj.host) host = auth + obj.host;
  else if (obj.hostname) {
    const h = String(obj.hostname);
    host = auth + (h.includes(':') && h[0] !== '[' ? `[${h}]` : h) + (obj.port ? ':' + obj.port : '');
  }
  let query = '';
  if (obj.query !== null && typeof obj.query === 'object') query = require('querystring').stringify(obj.query);
  let search = obj.search || (query && '?' + query) || '';
  if (protocol && protocol[protocol.length - 1] !== ':') protocol += ':';
  pathname = pathname.replace(/[?#]/g, encodeURIComponent);
  search = search.replace(/#/g, '%23');
  if (obj.slashes || SLASHED.has(protocol)) {
    if (obj.slashes || host) {
      if (pathname && pathname[0] !== '/') pathname = '/' + pathname;
      host = '//' + host;
    } else if (protocol === 'file:') host = '//';
  }
  if (hash && hash[0] !== '#') hash = '#' + hash;
  if (search && search[0] !== '?') search = '?' + search;
  return protocol + host + pathname + search + hash;
}

// Resolution as the WHATWG parser does it, keeping relative inputs relative.
function resolve(from, to) {
  const { URL } = require('url');
  const base = new URL(from, 'resolve://');
  const resolved = new URL(to, base);
  if (resolved.protocol === 'resolve:') {
    const { pathname, search, hash } = resolved;
    const rel = pathname + search + hash;
    return from.startsWith('/') || to.startsWith('/') ? rel : rel.slice(1);
  }
  return resolved.toString();
}

function resolveObject(from, to) {
  return parse(resolve(typeof from === 'string' ? from : format(from), typeof to === 'string' ? to : format(to)));
}

Url.prototype.format = function () { return format(this); };
Url.prototype.resolve = function (to) { return resolve(this.href, to); };

module.exports = { Url, parse, format, resolve, resolveObject };
