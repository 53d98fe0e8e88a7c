// node:querystring: parse / stringify (aliases decode / encode), escape / unescape.
'use strict';

function escape(str) {
  if (typeof str !== 'string') {
    if (typeof str === 'object') str = String(str);
    else str += '';
  }
  try {
    return encodeURIComponent(str);
  } catch {
    const err = new URIError('URI malformed');
    err.code = 'ERR_INVALID_URI';
    throw err;
  }
}

// Like decodeURIComponent, but a malformed escape is kept as it is (Node's
// unescapeBuffer), so that '%zz' survives.
function unescape(s, decodeSpaces) {
  try {
    return decodeURIComponent(s);
  } catch {
    return require('url_parse').percentDecode(decodeSpaces ? s.replace(/\+/g, ' ') : s, false);
  }
}

function primitive(v) {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' && Number.isFinite(v)) return '' + v;
  if (typeof v === 'bigint') return '' + v;
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  return '';
}

function stringify(obj, sep, eq, options) {
  sep = sep || '&';
  eq = eq || '=';
  const encode = options && typeof options.encodeURIComponent === 'function' ? options.encodeURIComponent : escape;
  if (obj === null || typeof obj !== 'object') return '';
  const out = [];
  for (const key of Object.keys(obj)) {
    const v = obj[key];
    const ks = encode(primitive(key)) + eq;
    if (Array.isArray(v)) {
      for (const item of v) out.push(ks + encode(primitive(item)));
    } else {
      out.push(ks + encode(primitive(v)));
    }
  }
  return out.join(sep);
}

function parse(qs, sep, eq, options) {
  const obj = Object.create(null);
  if (typeof qs !== 'string' || qs.length === 0) return obj;
  sep = sep ? String(sep) : '&';
  eq = eq ? String(eq) : '=';
  let maxKeys = 1000;
  if (options && typeof options.maxKeys === 'number') maxKeys = options.maxKeys;
  const decode = options && typeof options.decodeURIComponent === 'function' ? options.decodeURIComponent : null;
  let parts = qs.split(sep);
  if (maxKeys > 0 && parts.length > maxKeys) parts = parts.slice(0, maxKeys);
  for (const part of parts) {
    if (part === '' && parts.length > 1) continue;
    const idx = part.indexOf(eq);
    let k = idx === -1 ? part : part.slice(0, idx);
    let v = idx === -1 ? '' : part.slice(idx + eq.length);
    k = k.replace(/\+/g, ' ');
    v = v.replace(/\+/g, ' ');
    k = decode ? decodeWith(decode, k) : unescape(k);
    v = decode ? decodeWith(decode, v) : unescape(v);
    if (k === '' && v === '' && idx === -1) continue;
    const prev = obj[k];
    if (prev === undefined) obj[k] = v;
    else if (Array.isArray(prev)) prev.push(v);
    else obj[k] = [prev, v];
  }
  return obj;
}

function decodeWith(decode, s) {
  try {
    return decode(s);
  } catch {
    return unescape(s);
  }
}

module.exports = {
  parse,
  stringify,
  decode: parse,
  encode: stringify,
  escape,
  unescape,
  unescapeBuffer: (s) => Buffer.from(unescape(String(s))),
};
