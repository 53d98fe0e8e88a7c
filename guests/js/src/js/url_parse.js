// The WHATWG URL Standard's basic URL parser and serializer, on a plain record
// { scheme, username, password, host, port, path, opaque, query, fragment }.
// `host` is kept serialized (domain, dotted IPv4, '[v6]', opaque host or '').
// The parser follows the spec's state machine, including the state overrides the
// URL setters use; `parse` returns null on failure.
'use strict';

const host = require('url_host');

const SPECIAL = { ftp: 21, file: null, http: 80, https: 443, ws: 80, wss: 443 };
const isSpecialScheme = (s) => Object.prototype.hasOwnProperty.call(SPECIAL, s);
const defaultPort = (s) => (isSpecialScheme(s) ? SPECIAL[s] : null);

const inC0 = (c) => c < 0x20 || c > 0x7e;
const fragmentSet = (c) => inC0(c) || c === 0x20 || c === 0x22 || c === 0x3c || c === 0x3e || c === 0x60;
const querySet = (c) => inC0(c) || c === 0x20 || c === 0x22 || c === 0x23 || c === 0x3c || c === 0x3e;
const specialQuerySet = (c) => querySet(c) || c === 0x27;
const pathSet = (c) => querySet(c) || c === 0x3f || c === 0x60 || c === 0x7b || c === 0x7d;
const userinfoSet = (c) => pathSet(c) || c === 0x2f || c === 0x3a || c === 0x3b || c === 0x3d || c === 0x40 ||
  (c >= 0x5b && c <= 0x5e) || c === 0x7c;
const componentSet = (c) => userinfoSet(c) || (c >= 0x24 && c <= 0x26) || c === 0x2b || c === 0x2c;
const formSet = (c) => componentSet(c) || c === 0x21 || (c >= 0x27 && c <= 0x29) || c === 0x7e;

const HEX = [];
for (let i = 0; i < 256; i++) HEX.push('%' + (i < 16 ? '0' : '') + i.toString(16).toUpperCase());

function utf8(cp) {
  if (cp < 0x80) return [cp];
  if (cp < 0x800) return [0xc0 | (cp >> 6), 0x80 | (cp & 63)];
  if (cp < 0x10000) return [0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 63), 0x80 | (cp & 63)];
  return [0xf0 | (cp >> 18), 0x80 | ((cp >> 12) & 63), 0x80 | ((cp >> 6) & 63), 0x80 | (cp & 63)];
}

function percentEncode(str, set, spaceAsPlus) {
  let out = '';
  for (const ch of str) {
    const cp = ch.codePointAt(0);
    if (spaceAsPlus && cp === 0x20) out += '+';
    else if (!set(cp)) out += ch;
    else for (const b of utf8(cp >= 0xd800 && cp <= 0xdfff ? 0xfffd : cp)) out += HEX[b];
  }
  return out;
}

const isHex = (c) => (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);

// Percent-decoding works on bytes: the string's UTF-8, with each valid %XX replaced.
function percentDecode(str, plusAsSpace) {
  if (str.indexOf('%') === -1 && !(plusAsSpace && str.indexOf('+') !== -1)) return str;
  const bytes = new Uint8Array(native.encode(str, 'utf8'));
  const out = new Uint8Array(bytes.length);
  let n = 0;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if (b === 0x25 && i + 2 < bytes.length && isHex(bytes[i + 1]) && isHex(bytes[i + 2])) {
      out[n++] = parseInt(String.fromCharCode(bytes[i + 1], bytes[i + 2]), 16);
      i += 2;
    } else out[n++] = plusAsSpace && b === 0x2b ? 0x20 : b;
  }
  return native.decode(out.subarray(0, n), 'utf8');
}

function toUSV(str) {
  str = String(str);
  return typeof str.toWellFormed === 'function' ? str.toWellFormed() : str;
}

const isAlpha = (c) => c !== undefined && /^[A-Za-z]$/.test(c);
const isDigit = (c) => c !== undefined && c >= '0' && c <= '9';
const isDriveLetter = (s) => s.length === 2 && isAlpha(s[0]) && (s[1] === ':' || s[1] === '|');
const isNormalizedDrive = (s) => s.length === 2 && isAlpha(s[0]) && s[1] === ':';
function startsWithDrive(cps, i) {
  if (cps.length - i < 2 || !isDriveLetter(cps[i] + cps[i + 1])) return false;
  const c = cps[i + 2];
  return cps.length - i === 2 || c === '/' || c === '\\' || c === '?' || c === '#';
}
const isSingleDot = (s) => s === '.' || s.toLowerCase() === '%2e';
const isDoubleDot = (s) => {
  const l = s.toLowerCase();
  return l === '..' || l === '.%2e' || l === '%2e.' || l === '%2e%2e';
};

function shortenPath(url) {
  const p = url.path;
  if (url.scheme === 'file' && p.length === 1 && isNormalizedDrive(p[0])) return;
  p.pop();
}

const includesCredentials = (url) => url.username !== '' || url.password !== '';

function newRecord() {
  return { scheme: '', username: '', password: '', host: null, port: null, path: [], opaque: false, query: null, fragment: null };
}

function copyAuthority(url, base) {
  url.username = base.username;
  url.password = base.password;
  url.host = base.host;
  url.port = base.port;
}

// The parser's mutable state between steps.
class Machine {
  constructor(input, base, url, override) {
    this.cps = Array.from(input);
    this.base = base;
    this.url = url;
    this.override = override;
    this.state = override || 'schemeStart';
    this.buffer = '';
    this.at = false;
    this.brackets = false;
    this.passwordSeen = false;
    this.i = 0;
  }
  get special() { return isSpecialScheme(this.url.scheme); }
  remaining(k) { return this.cps[this.i + k]; }
}

// Each state returns undefined to go on, or RETURN / FAILURE to stop the parse.
const RETURN = 1;
const FAILURE = 2;
const S = require('url_states')({
  SPECIAL, isSpecialScheme, defaultPort, includesCredentials, shortenPath, startsWithDrive,
  isDriveLetter, isNormalizedDrive, isSingleDot, isDoubleDot, isAlpha, isDigit, percentEncode,
  userinfoSet, pathSet, querySet, specialQuerySet, fragmentSet, inC0, copyAuthority,
  parseHost: host.parseHost, RETURN, FAILURE,
});

// Returns the record, or null on failure. With `override` it edits `url` in place
// and returns it (unchanged when the spec says "return").
function basicParse(input, base, url, override) {
  if (!url) {
    url = newRecord();
    input = input.replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, '');
  }
  input = input.replace(/[\t\n\r]/g, '');
  const m = new Machine(input, base, url, override);
  for (; ; m.i++) {
    const c = m.cps[m.i];
    const r = S[m.state](m, c);
    if (r === FAILURE) return null;
    if (r === RETURN) return url;
    if (m.i >= m.cps.length) break;
  }
  return url;
}

function serializePath(url) {
  if (url.opaque) return url.path;
  let out = '';
  for (const seg of url.path) out += '/' + seg;
  return out;
}

function serialize(url, excludeFragment) {
  let out = url.scheme + ':';
  if (url.host !== null) {
    out += '//';
    if (includesCredentials(url)) {
      out += url.username;
      if (url.password !== '') out += ':' + url.password;
      out += '@';
    }
    out += url.host;
    if (url.port !== null) out += ':' + url.port;
  } else if (!url.opaque && url.path.length > 1 && url.path[0] === '') {
    out += '/.';
  }
  out += serializePath(url);
  if (url.query !== null) out += '?' + url.query;
  if (!excludeFragment && url.fragment !== null) out += '#' + url.fragment;
  return out;
}

function origin(url) {
  if (url.scheme === 'blob') {
    const inner = basicParse(serializePath(url), null);
    if (inner && (inner.scheme === 'http' || inner.scheme === 'https')) return origin(inner);
    return 'null';
  }
  if (isSpecialScheme(url.scheme) && url.scheme !== 'file') {
    return url.scheme + '://' + url.host + (url.port !== null ? ':' + url.port : '');
  }
  return 'null';
}

module.exports = {
  basicParse, serialize, serializePath, origin, percentEncode, percentDecode, toUSV,
  isSpecialScheme, defaultPort, includesCredentials, userinfoSet, formSet, componentSet,
  pathSet, fragmentSet, querySet, utf8,
};
