// fetch, Request and Response over wasi:http (native.http, see http_native.rs).
// Requests reach only the hosts the workspace allows (`computer net allow HOST`);
// a denied one fails as node's `TypeError: fetch failed` with a cause that says how
// to allow it. The exchange itself is synchronous; the promise settles on a later
// turn, and redirects are followed here (at most 20), as undici does.
'use strict';

const { Headers, BodyState, extractBody, mixBody, kGuard } = require('fetch_body');

const STATUS_TEXT = {
  100: 'Continue', 101: 'Switching Protocols', 200: 'OK', 201: 'Created', 202: 'Accepted',
  203: 'Non-Authoritative Information', 204: 'No Content', 205: 'Reset Content', 206: 'Partial Content',
  300: 'Multiple Choices', 301: 'Moved Permanently', 302: 'Found', 303: 'See Other', 304: 'Not Modified',
  307: 'Temporary Redirect', 308: 'Permanent Redirect', 400: 'Bad Request', 401: 'Unauthorized',
  402: 'Payment Required', 403: 'Forbidden', 404: 'Not Found', 405: 'Method Not Allowed',
  406: 'Not Acceptable', 408: 'Request Timeout', 409: 'Conflict', 410: 'Gone', 411: 'Length Required',
  412: 'Precondition Failed', 413: 'Payload Too Large', 414: 'URI Too Long', 415: 'Unsupported Media Type',
  416: 'Range Not Satisfiable', 417: 'Expectation Failed', 418: "I'm a Teapot", 422: 'Unprocessable Entity',
  425: 'Too Early', 426: 'Upgrade Required', 428: 'Precondition Required', 429: 'Too Many Requests',
  431: 'Request Header Fields Too Large', 451: 'Unavailable For Legal Reasons', 500: 'Internal Server Error',
  501: 'Not Implemented', 502: 'Bad Gateway', 503: 'Service Unavailable', 504: 'Gateway Timeout',
  505: 'HTTP Version Not Supported',
};
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const NULL_BODY = new Set([101, 103, 204, 205, 304]);
const METHODS = ['DELETE', 'GET', 'HEAD', 'OPTIONS', 'POST', 'PUT', 'PATCH'];

function parseUrl(input, who) {
  const href = native.http.resolve(String(input));
  if (href == null) {
    const cause = new TypeError('Invalid URL');
    cause.code = 'ERR_INVALID_URL';
    cause.input = String(input);
    throw new TypeError(`Failed to parse URL from ${input}`, { cause });
  }
  return href;
}

function urlString(input) {
  if (input !== null && typeof input === 'object' && typeof input.href === 'string') return input.href;
  return String(input);
}

class Request {
  constructor(input, init = {}) {
    const from = input instanceof Request ? input : null;
    this._url = from ? from._url : parseUrl(urlString(input), 'Request');
    let method = init.method !== undefined ? String(init.method) : from ? from._method : 'GET';
    if (METHODS.includes(method.toUpperCase())) method = method.toUpperCase();
    this._method = method;
    this._headers = new Headers(init.headers !== undefined ? init.headers : from ? from._headers : undefined);
    this._redirect = init.redirect || (from ? from._redirect : 'follow');
    if (!['follow', 'manual', 'error'].includes(this._redirect)) {
      throw new TypeError(`Request constructor: ${this._redirect} is not an accepted type. Expected one of follow, manual, error.`);
    }
    this._signal = init.signal !== undefined ? init.signal : from ? from._signal : null;
    let bytes = null;
    if (init.body !== undefined && init.body !== null) {
      if (method === 'GET' || method === 'HEAD') throw new TypeError('Request with GET/HEAD method cannot have body.');
      const [b, type] = extractBody(init.body);
      bytes = b;
      if (type !== null && !this._headers.has('content-type')) this._headers.set('content-type', type);
    } else if (from && init.body === undefined) {
      bytes = from[kGuard].bytes;
    }
    this[kGuard] = new BodyState(bytes);
  }

  get url() { return this._url; }
  get method() { return this._method; }
  get headers() { return this._headers; }
  get redirect() { return this._redirect; }
  get signal() { return this._signal; }
  get [Symbol.toStringTag]() { return 'Request'; }
  clone() { return new Request(this); }
}
mixBody(Request);

class Response {
  constructor(body = null, init = {}) {
    const status = init.status === undefined ? 200 : Number(init.status);
    if (!(status >= 200 && status <= 599)) throw new RangeError('init["status"] must be in the range of 200 to 599, inclusive.');
    this._status = status;
    this._statusText = init.statusText === undefined ? '' : String(init.statusText);
    this._headers = new Headers(init.headers);
    this._url = '';
    this._redirected = false;
    this._type = 'default';
    let bytes = null;
    if (body !== null && body !== undefined) {
      if (NULL_BODY.has(status)) throw new TypeError('Response constructor: Invalid response status code ' + status);
      const [b, type] = extractBody(body);
      bytes = b;
      if (type !== null && !this._headers.has('content-type')) this._headers.set('content-type', type);
    }
    this[kGuard] = new BodyState(bytes);
  }

  static json(data, init = {}) {
    const text = JSON.stringify(data);
    if (text === undefined) throw new TypeError('Value is not JSON serializable');
    const res = new Response(text, init);
    res._headers.set('content-type', 'application/json');
    return res;
  }

  static error() {
    const res = new Response(null, { status: 200 });
    res._status = 0;
    res._type = 'error';
    return res;
  }

  static redirect(url, status = 302) {
    if (!REDIRECTS.has(status)) throw new RangeError(`Invalid status code ${status}`);
    const res = new Response(null, { status });
    res._headers.set('location', parseUrl(urlString(url), 'Response.redirect'));
    return res;
  }

  get status() { return this._status; }
  get statusText() { return this._statusText; }
  get ok() { return this._status >= 200 && this._status <= 299; }
  get headers() { return this._headers; }
  get url() { return this._url; }
  get redirected() { return this._redirected; }
  get type() { return this._type; }
  get [Symbol.toStringTag]() { return 'Response'; }

  clone() {
    if (this[kGuard].used) throw new TypeError('Response.clone: Body has already been consumed.');
    const res = new Response(null, { status: 200, headers: this._headers });
    Object.assign(res, { _status: this._status, _statusText: this._statusText, _url: this._url, _redirected: this._redirected, _type: this._type });
    res[kGuard] = new BodyState(this[kGuard].bytes);
    return res;
  }
}
mixBody(Response);

// ---- errors ------------------------------------------------------------------------

function fetchFailed(cause) {
  return new TypeError('fetch failed', { cause });
}

function hostPort(href) {
  const m = /^[a-z][a-z0-9+.-]*:\/\/(?:[^@/]*@)?(\[[^\]]*\]|[^:/?#]*)(?::(\d+))?/i.exec(href);
  const host = m ? m[1] : '';
  const port = m && m[2] ? Number(m[2]) : /^https:/i.test(href) ? 443 : 80;
  return [host, port, m && m[2] ? `${host}:${port}` : host];
}

// The cause of a failed exchange, in node's (libuv's) words where there are some.
function networkError(raw, href) {
  const [host, port, entry] = hostPort(href);
  let err;
  switch (raw.error) {
    case 'denied':
      err = new Error(`${entry} is not on the workspace's network allow-list: allow it with \`computer net allow ${entry}\``);
      err.code = 'ERR_NETWORK_NOT_ALLOWED';
      err.hostname = host;
      err.port = port;
      return err;
    case 'dns':
      err = new Error(`getaddrinfo ENOTFOUND ${host}`);
      return Object.assign(err, { errno: -3008, code: 'ENOTFOUND', syscall: 'getaddrinfo', hostname: host });
    case 'refused':
      err = new Error(`connect ECONNREFUSED ${host}:${port}`);
      return Object.assign(err, { errno: -111, code: 'ECONNREFUSED', syscall: 'connect', address: host, port });
    case 'timeout':
      err = new Error('Connect Timeout Error');
      err.code = 'UND_ERR_CONNECT_TIMEOUT';
      return err;
    default:
      err = new Error(raw.message || raw.error);
      err.code = raw.error === 'tls' ? 'ERR_TLS_CERT_ALTNAME_INVALID' : 'ERR_FETCH_FAILED';
      return err;
  }
}

function abortReason(signal) {
  if (signal.reason !== undefined) return signal.reason;
  if (typeof DOMException === 'function') return new DOMException('This operation was aborted', 'AbortError');
  const err = new Error('This operation was aborted');
  err.name = 'AbortError';
  err.code = 20;
  return err;
}

// ---- fetch -------------------------------------------------------------------------

function requestHeaders(headers, bytes) {
  const list = [];
  for (const [k, v] of headers) list.push([k, v]);
  const has = (name) => headers.has(name);
  if (!has('accept')) list.push(['accept', '*/*']);
  if (!has('accept-language')) list.push(['accept-language', '*']);
  if (!has('sec-fetch-mode')) list.push(['sec-fetch-mode', 'cors']);
  if (!has('user-agent')) list.push(['user-agent', 'node']);
  if (bytes !== null && !has('content-length')) list.push(['content-length', String(bytes.length)]);
  return list;
}

// One hop; a Response, or throws the cause of the failure.
function exchange(method, href, headers, bytes) {
  const raw = native.http.request(method, href, requestHeaders(headers, bytes), bytes);
  if (raw.error !== undefined) throw networkError(raw, href);
  const res = new Response(null, { status: 200 });
  res._status = raw.status;
  res._statusText = STATUS_TEXT[raw.status] || '';
  for (const [k, v] of raw.headers) res._headers.append(k, v);
  res._url = href;
  res._type = 'basic';
  const empty = method === 'HEAD' || NULL_BODY.has(raw.status);
  res[kGuard] = new BodyState(empty ? null : new Uint8Array(raw.body));
  return res;
}

function follow(request) {
  let { method } = request;
  let href = request.url;
  let headers = new Headers(request.headers);
  let bytes = request[kGuard].bytes;
  for (let hops = 0; ; hops++) {
    const res = exchange(method, href, headers, bytes);
    const location = res.headers.get('location');
    if (!REDIRECTS.has(res.status) || location === null || request.redirect === 'manual') {
      res._redirected = hops > 0;
      return res;
    }
    if (request.redirect === 'error') throw new TypeError('unexpected redirect');
    if (hops >= 20) throw new TypeError('redirect count exceeded');
    const next = native.http.resolve(location, href);
    if (next == null) throw new TypeError('invalid redirect location');
    // 303, and 301/302 after a POST, turn into a body-less GET.
    if ((res.status === 303 && method !== 'HEAD') || ((res.status === 301 || res.status === 302) && method === 'POST')) {
      method = 'GET';
      bytes = null;
      for (const h of ['content-type', 'content-length', 'content-encoding', 'content-language', 'content-location']) headers.delete(h);
    }
    // Credentials go only to the origin they were given for.
    if (hostPort(next)[2] !== hostPort(href)[2] || next.split(':')[0] !== href.split(':')[0]) {
      for (const h of ['authorization', 'cookie', 'proxy-authorization']) headers.delete(h);
    }
    href = next;
  }
}

function fetch(input, init) {
  return new Promise((resolve, reject) => {
    let request;
    try {
      request = new Request(input, init);
    } catch (e) {
      reject(e);
      return;
    }
    const signal = request.signal;
    if (signal && signal.aborted) {
      reject(abortReason(signal));
      return;
    }
    // In a later poll phase, so that what the caller does right after fetch() (an
    // abort, other work) comes first, as with a real network.
    native.queueIo(() => {
      if (signal && signal.aborted) {
        reject(abortReason(signal));
        return;
      }
      let res;
      try {
        res = follow(request);
      } catch (cause) {
        reject(cause instanceof TypeError && !cause.code ? fetchFailed(new Error(cause.message)) : fetchFailed(cause));
        return;
      }
      if (signal && signal.aborted) reject(abortReason(signal));
      else resolve(res);
    });
  });
}

module.exports = { fetch, Headers, Request, Response };
