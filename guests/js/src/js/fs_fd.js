// File descriptors for node:fs: open/read/write/close/fstat/ftruncate and the fd forms
// of readFile/writeFile. An fd is an entry in a guest-side table (the lowest free
// number from 3; 0, 1 and 2 are stdio) holding the absolute path, the open flags and
// the position. Every read and write goes straight to the workspace: reads are byte
// ranges, writes at the end of the file are appends, and a write inside the file
// rewrites it (the WIT fs has no positional write). Nothing is cached, so what a
// write did is in the workspace as soon as it returns, as with a real fd.
'use strict';

const { Buffer } = require('buffer');

const fsn = native.fs;

// Each flag string as [readable, writable, append, create, truncate, exclusive].
const FLAGS = {
  r: [1, 0, 0, 0, 0, 0],
  'r+': [1, 1, 0, 0, 0, 0],
  w: [0, 1, 0, 1, 1, 0],
  wx: [0, 1, 0, 1, 1, 1],
  'w+': [1, 1, 0, 1, 1, 0],
  'wx+': [1, 1, 0, 1, 1, 1],
  a: [0, 1, 1, 1, 0, 0],
  ax: [0, 1, 1, 1, 0, 1],
  'a+': [1, 1, 1, 1, 0, 0],
  'ax+': [1, 1, 1, 1, 0, 1],
};
const ALIASES = { rs: 'r', sr: 'r', 'rs+': 'r+', 'sr+': 'r+', xw: 'wx', 'xw+': 'wx+', as: 'a', sa: 'a', xa: 'ax', 'as+': 'a+', 'sa+': 'a+', 'xa+': 'ax+' };

// Set by install(): fs.js's error and path helpers.
let makeError;
let nodeError;
let invalidArgType;
let pathArg;
let abs;
let modeOf;
let Stats;

const table = new Map();
let stdinRest = null;

function invalidValue(name, value) {
  const shown = typeof value === 'string' ? `'${value}'` : String(value);
  const err = new TypeError(`The argument '${name}' is invalid. Received ${shown}`);
  err.code = 'ERR_INVALID_ARG_VALUE';
  return err;
}

function parseFlags(flags) {
  if (flags === undefined || flags === null) return FLAGS.r;
  if (typeof flags === 'number') {
    const acc = flags & 3;
    return [acc !== 1 ? 1 : 0, acc !== 0 ? 1 : 0, flags & 1024 ? 1 : 0, flags & 64 ? 1 : 0, flags & 512 ? 1 : 0, flags & 128 ? 1 : 0];
  }
  const f = FLAGS[ALIASES[flags] || flags];
  if (!f) throw invalidValue('flags', flags);
  return f;
}

function checkFd(fd) {
  if (typeof fd !== 'number') throw invalidArgType('fd', 'of type number', fd);
  if (!Number.isInteger(fd) || fd < 0 || fd > 2147483647) {
    const err = new RangeError(`The value of "fd" is out of range. It must be >= 0 && <= 2147483647. Received ${fd}`);
    err.code = 'ERR_OUT_OF_RANGE';
    throw err;
  }
}

function entry(fd, syscall) {
  checkFd(fd);
  const e = table.get(fd);
  if (e === undefined) throw makeError('EBADF', syscall);
  return e;
}

function host(syscall, op, e, ...args) {
  try {
    return fsn[op](e.path, ...args);
  } catch (err) {
    throw nodeError(err, syscall);
  }
}

function openSync(path, flags, mode) {
  const p = pathArg(path);
  const [readable, writable, append, create, truncate, exclusive] = parseFlags(flags);
  const full = abs(p);
  let st;
  try {
    st = fsn.stat(full);
  } catch (err) {
    if (!(err && err.code === 'ENOENT' && create)) throw nodeError(err, 'open', p);
  }
  if (st && exclusive) throw makeError('EEXIST', 'open', p);
  if (st && st.kind === 'directory' && writable) throw makeError('EISDIR', 'open', p);
  try {
    if (!st || truncate) fsn.write(full, new Uint8Array(0), modeOf(mode), !st && !!exclusive);
  } catch (err) {
    throw nodeError(err, 'open', p);
  }
  let fd = 3;
  while (table.has(fd)) fd++;
  table.set(fd, { path: full, readable, writable, append, position: 0, dir: !!st && st.kind === 'directory' });
  return fd;
}

function closeSync(fd) {
  entry(fd, 'close');
  table.delete(fd);
}

function readStdin(buffer, offset, length) {
  if (stdinRest === null || stdinRest.length === 0) {
    const ab = native.stdinRead(Math.max(length, 1));
    if (ab === null) return 0;
    stdinRest = new Uint8Array(ab);
  }
  const n = Math.min(length, stdinRest.length);
  buffer.set(stdinRest.subarray(0, n), offset);
  stdinRest = stdinRest.subarray(n);
  return n;
}

// readSync(fd, buffer, offset, length, position) or (fd, buffer, { offset, length, position }).
function readArgs(buffer, offset, length, position) {
  if (!ArrayBuffer.isView(buffer)) throw invalidArgType('buffer', 'an instance of Buffer, TypedArray, or DataView', buffer);
  if (offset !== null && typeof offset === 'object') ({ offset, length, position } = offset);
  const view = new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
  offset = offset === undefined || offset === null ? 0 : offset;
  length = length === undefined || length === null ? view.length - offset : length;
  if (!Number.isInteger(offset) || offset < 0 || offset > view.length) {
    const err = new RangeError(`The value of "offset" is out of range. It must be >= 0 && <= ${view.length}. Received ${offset}`);
    err.code = 'ERR_OUT_OF_RANGE';
    throw err;
  }
  if (!Number.isInteger(length) || length < 0 || length > view.length - offset) {
    const err = new RangeError(`The value of "length" is out of range. It must be >= 0 && <= ${view.length - offset}. Received ${length}`);
    err.code = 'ERR_OUT_OF_RANGE';
    throw err;
  }
  if (typeof position === 'bigint') position = Number(position);
  if (typeof position !== 'number' || position < 0) position = null;
  return { view, offset, length, position };
}

function readSync(fd, buffer, offset, length, position) {
  checkFd(fd);
  const a = readArgs(buffer, offset, length, position);
  if (fd === 0 && !table.has(0)) return readStdin(a.view, a.offset, a.length);
  const e = entry(fd, 'read');
  if (!e.readable) throw makeError('EBADF', 'read');
  if (e.dir) throw makeError('EISDIR', 'read');
  if (a.length === 0) return 0;
  const at = a.position === null ? e.position : a.position;
  const bytes = new Uint8Array(host('read', 'readRange', e, at, a.length));
  a.view.set(bytes, a.offset);
  if (a.position === null) e.position += bytes.length;
  return bytes.length;
}

// Put `bytes` at `at` in the file: an append when it reaches the end, else a rewrite.
function writeAt(e, bytes, at) {
  const size = host('write', 'stat', e).size;
  if (at >= size) {
    if (at > size) host('write', 'truncate', e, at);
    host('write', 'append', e, bytes);
  } else if (at + bytes.length >= size) {
    host('write', 'truncate', e, at);
    host('write', 'append', e, bytes);
  } else {
    const whole = new Uint8Array(host('write', 'read', e));
    whole.set(bytes, at);
    host('write', 'write', e, whole);
  }
}

// writeSync(fd, buffer, offset?, length?, position?) or (fd, string, position?, encoding?).
function writeSync(fd, data, a, b, c) {
  checkFd(fd);
  let bytes;
  let position = null;
  if (typeof data === 'string') {
    if (typeof a === 'number') position = a;
    bytes = Buffer.from(data, typeof b === 'string' ? b : 'utf8');
  } else if (ArrayBuffer.isView(data)) {
    let offset = a;
    let length = b;
    position = c;
    if (offset !== null && typeof offset === 'object') ({ offset, length, position } = offset);
    const view = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
    offset = offset == null ? 0 : offset;
    length = length == null ? view.length - offset : length;
    bytes = view.subarray(offset, offset + length);
  } else {
    throw invalidArgType('buffer', 'of type string or an instance of Buffer, TypedArray, or DataView', data);
  }
  if ((fd === 1 || fd === 2) && !table.has(fd)) {
    native.write(fd, bytes);
    return bytes.length;
  }
  const e = entry(fd, 'write');
  if (!e.writable) throw makeError('EBADF', 'write');
  if (typeof position !== 'number' || position < 0) position = null;
  if (e.append) host('write', 'append', e, bytes);
  else writeAt(e, bytes, position === null ? e.position : position);
  if (position === null && !e.append) e.position += bytes.length;
  return bytes.length;
}

function fstatSync(fd) {
  const e = entry(fd, 'fstat');
  return new Stats(host('fstat', 'stat', e));
}

function ftruncateSync(fd, len = 0) {
  const e = entry(fd, 'ftruncate');
  if (!e.writable) throw makeError('EINVAL', 'ftruncate');
  host('ftruncate', 'truncate', e, len);
}

function fsyncSync(fd) {
  entry(fd, 'fsync');
}

// readFileSync(fd): the rest of the file from the fd's position.
function readFd(fd) {
  const e = entry(fd, 'read');
  if (!e.readable) throw makeError('EBADF', 'read');
  if (e.dir) throw makeError('EISDIR', 'read');
  const bytes = e.position === 0 ? host('read', 'read', e) : host('read', 'readRange', e, e.position);
  e.position += bytes.byteLength;
  return bytes;
}

function install(h) {
  ({ makeError, nodeError, invalidArgType, pathArg, abs, modeOf, Stats } = h);
  return { openSync, closeSync, readSync, writeSync, fstatSync, ftruncateSync, fsyncSync, readFd };
}

module.exports = { install };
