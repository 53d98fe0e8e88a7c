// node:path, POSIX flavour (the workspace is POSIX). `posix` is this module itself;
// `win32` (path_win32.js) handles Windows paths, loaded on first use.
'use strict';

function assertPath(p, name = 'path') {
  if (typeof p !== 'string') {
    const got = p === null ? 'null' : p === undefined ? 'undefined' : typeof p === 'function' ? `function ${p.name}`
      : typeof p === 'object' ? `an instance of ${p.constructor ? p.constructor.name : 'Object'}`
      : `type ${typeof p} (${typeof p === 'string' ? `'${p}'` : String(p)})`;
    const err = new TypeError(`The "${name}" argument must be of type string. Received ${got}`);
    err.code = 'ERR_INVALID_ARG_TYPE';
    throw err;
  }
}

// Resolve '.' and '..' segments; `absolute` decides whether '..' may pile up at the start.
function normalizeSegments(path, absolute) {
  const out = [];
  for (const seg of path.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      if (out.length > 0 && out[out.length - 1] !== '..') out.pop();
      else if (!absolute) out.push('..');
    } else out.push(seg);
  }
  return out.join('/');
}

function normalize(path) {
  assertPath(path);
  if (path === '') return '.';
  const absolute = path.startsWith('/');
  const trailing = path.endsWith('/');
  let body = normalizeSegments(path, absolute);
  if (body === '' && !absolute) body = '.';
  if (body !== '' && trailing) body += '/';
  return absolute ? '/' + body : body;
}

function join(...parts) {
  for (const p of parts) assertPath(p);
  const joined = parts.filter((p) => p !== '').join('/');
  return joined === '' ? '.' : normalize(joined);
}

function resolve(...parts) {
  let resolved = '';
  for (let i = parts.length - 1; i >= 0 && !resolved.startsWith('/'); i--) {
    assertPath(parts[i], `paths[${i}]`);
    if (parts[i] === '') continue;
    resolved = resolved === '' ? parts[i] : `${parts[i]}/${resolved}`;
  }
  if (!resolved.startsWith('/')) resolved = `${process.cwd()}/${resolved}`;
  return '/' + normalizeSegments(resolved, true);
}

function isAbsolute(path) {
  assertPath(path);
  return path.startsWith('/');
}

function relative(from, to) {
  assertPath(from, 'from');
  assertPath(to, 'to');
  const a = resolve(from).split('/').filter(Boolean);
  const b = resolve(to).split('/').filter(Boolean);
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return [...new Array(a.length - i).fill('..'), ...b.slice(i)].join('/');
}

function trimTrailing(path) {
  let end = path.length;
  while (end > 1 && path[end - 1] === '/') end--;
  return path.slice(0, end);
}

function dirname(path) {
  assertPath(path);
  if (path === '') return '.';
  const p = trimTrailing(path);
  const i = p.lastIndexOf('/');
  if (i === -1) return '.';
  if (i === 0) return '/';
  return trimTrailing(p.slice(0, i));
}

function basename(path, suffix) {
  assertPath(path);
  const p = trimTrailing(path);
  let base = p === '/' ? '' : p.slice(p.lastIndexOf('/') + 1);
  if (suffix !== undefined && base !== suffix && base.endsWith(suffix)) base = base.slice(0, base.length - suffix.length);
  return base;
}

function extname(path) {
  const base = basename(path);
  const i = base.lastIndexOf('.');
  if (i <= 0) return '';
  return base.slice(i);
}

function parse(path) {
  assertPath(path);
  const root = path.startsWith('/') ? '/' : '';
  const base = basename(path);
  const ext = extname(path);
  let dir = dirname(path);
  if (dir === '.' && !path.includes('/')) dir = '';
  return { root, dir, base, ext, name: ext ? base.slice(0, base.length - ext.length) : base };
}

function format(obj) {
  const dir = obj.dir || obj.root || '';
  const base = obj.base || `${obj.name || ''}${obj.ext ? (obj.ext.startsWith('.') ? '' : '.') + obj.ext : ''}`;
  if (dir === '') return base;
  return dir === obj.root ? `${dir}${base}` : `${dir}/${base}`;
}

function matchesGlob(path, pattern) {
  let re = '^';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '*') {
      if (pattern[i + 1] === '*') {
        re += '.*';
        i++;
        if (pattern[i + 1] === '/') i++;
      } else re += '[^/]*';
    } else if (c === '?') re += '[^/]';
    else re += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(re + '$').test(path);
}

const path = {
  sep: '/',
  delimiter: ':',
  normalize,
  join,
  resolve,
  isAbsolute,
  relative,
  dirname,
  basename,
  extname,
  parse,
  format,
  matchesGlob,
  toNamespacedPath: (p) => p,
};
path.posix = path;
Object.defineProperty(path, 'win32', {
  enumerable: true,
  configurable: true,
  get() {
    const win32 = require('path_win32');
    win32.posix = path;
    Object.defineProperty(path, 'win32', { value: win32, enumerable: true, configurable: true });
    return win32;
  },
});
module.exports = path;
